// The exact near-duplicate search of the MemoryBox write filter (spec memorybox.md §4, gate 3):
// texts become sets of word 3-grams ("shingles"), compared by their exact Jaccard index against a
// threshold held in hundredths. Nothing here is approximate: NearDuplicateIndex returns exactly
// the items that the integer rule admits, found through an exact prefix-filtering index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace memkit::similarity {

inline constexpr std::uint32_t kDefaultThreshold = 60;  // hundredths: 0.60
inline constexpr std::uint32_t kMaxThreshold = 100;

// One qualifying item. similarity = intersection / union_size exactly; hundredths is
// floor(100 * intersection / union_size).
struct Match {
  std::size_t item;
  std::uint32_t intersection;
  std::uint32_t union_size;
  std::uint32_t hundredths;
  friend bool operator==(const Match&, const Match&) = default;
};

// One qualifying pair of items, first < second.
struct Pair {
  std::size_t first;
  std::size_t second;
  std::uint32_t intersection;
  std::uint32_t union_size;
  std::uint32_t hundredths;
  friend bool operator==(const Pair&, const Pair&) = default;
};

// Returns true iff a pair with these counts qualifies at `threshold` hundredths: a non-empty
// union and 100 * intersection >= threshold * union_size, in integers.
[[nodiscard]] constexpr bool qualifies(std::uint32_t intersection, std::uint32_t union_size,
                                       std::uint32_t threshold) noexcept {
  return union_size != 0 &&
         std::uint64_t{100} * intersection >= std::uint64_t{threshold} * std::uint64_t{union_size};
}

// Returns true iff a / b is greater than c / d, compared exactly. REQUIRES: b, d > 0
[[nodiscard]] constexpr bool more_similar(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                          std::uint32_t d) noexcept {
  return std::uint64_t{a} * d > std::uint64_t{c} * b;
}

// The words of a text (spec §4): after Unicode 15.0.0 full case folding, the maximal runs of
// code points of General Category Lu, Ll, Lt, Lm, Lo or Nd, or `_`. Every other code point,
// U+FFFD for ill-formed UTF-8 included, separates words.
[[nodiscard]] std::vector<std::string> words(std::string_view text);

// The exact similarity of two texts' shingle sets, with item = 0. Two texts without words give
// {0, 0, 0, 0}: an empty union, which never qualifies.
[[nodiscard]] Match similarity(std::string_view a, std::string_view b);

// An immutable index over items 0..size()-1, built once: the texts are copied in as word and
// shingle ids, so they need not outlive it. Copies share the built data; query() is const and
// safe to call from several threads at once. A million entries of 8 to 40 words take about
// 600 MiB (bench/similarity_bench.cpp).
// Throws std::length_error beyond 2^32 - 1 items, distinct words, distinct shingles or shingles
// in all items, and std::bad_alloc.
class NearDuplicateIndex final {
 public:
  explicit NearDuplicateIndex(std::span<const std::string_view> texts);
  ~NearDuplicateIndex();
  NearDuplicateIndex(const NearDuplicateIndex&) noexcept;
  NearDuplicateIndex& operator=(const NearDuplicateIndex&) noexcept;
  NearDuplicateIndex(NearDuplicateIndex&&) noexcept;
  NearDuplicateIndex& operator=(NearDuplicateIndex&&) noexcept;

  [[nodiscard]] std::size_t size() const noexcept;

  // Every item qualifying against `text` at `threshold` hundredths, ranked by similarity,
  // highest first (exactly), then by item ascending. Callers pass items in entry-ID order, so
  // the second key is the spec's entry-ID order.
  // REQUIRES: threshold <= 100 (callers validate it); a larger one returns no match.
  [[nodiscard]] std::vector<Match> query(std::string_view text,
                                         std::uint32_t threshold = kDefaultThreshold) const;

  struct Data;  // private: defined in src/similarity/

 private:
  std::shared_ptr<const Data> data_;
};

// Every pair i < j of items qualifying at `threshold` hundredths, ranked by similarity, highest
// first (exactly), then by (first, second) ascending. At threshold 0 every pair with a
// non-empty union qualifies: up to n(n-1)/2 pairs.
// REQUIRES: threshold <= 100 (callers validate it); a larger one returns no pair.
[[nodiscard]] std::vector<Pair> near_duplicate_pairs(std::span<const std::string_view> texts,
                                                     std::uint32_t threshold = kDefaultThreshold);

}  // namespace memkit::similarity
