// Shingles (spec memorybox.md §4), represented exactly: a word 3-gram is the triple of its word
// ids, and a word of a text with fewer than 3 words is {id, kNoId, kNoId}, a kind no 3-gram can
// equal. ShingleDictionary interns them to dense ids the way WordDictionary interns words.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "similarity/word_dictionary.hpp"

namespace memkit::similarity::detail {

struct ShingleKey {
  std::uint32_t first;
  std::uint32_t second;  // kNoId for a lone word
  std::uint32_t third;   // kNoId for a lone word
  friend auto operator<=>(const ShingleKey&, const ShingleKey&) = default;
};

// Appends the shingles of a text whose words have these ids, in text order and with repeats.
// REQUIRES: no id is kNoId
void append_shingles(std::span<const std::uint32_t> word_ids, std::vector<ShingleKey>& out);

class ShingleDictionary final {
 public:
  // Sets ids[i] to the id of keys[i], giving each new key the next id in order.
  void intern(std::span<const ShingleKey> keys, std::vector<std::uint32_t>& ids);
  // Returns the id of `key`, or kNoId if it was never interned.
  [[nodiscard]] std::uint32_t find(const ShingleKey& key) const noexcept;
  [[nodiscard]] std::uint32_t size() const noexcept { return size_; }

 private:
  // Keys live in blocks of kBlockSize: a million entries make tens of millions of shingles, and
  // one growing vector would hold up to twice their size, then copy them all, at every doubling.
  // Only the first block grows from small, so that a small index stays small.
  static constexpr unsigned kBlockBits = 16;
  static constexpr std::uint32_t kBlockSize = std::uint32_t{1} << kBlockBits;

  [[nodiscard]] const ShingleKey& key(std::uint32_t id) const noexcept {
    return blocks_[id >> kBlockBits][id & (kBlockSize - 1)];
  }
  // The slot that holds `key`, or the empty slot where it would go, starting from its hash.
  [[nodiscard]] std::size_t slot_of(const ShingleKey& key, std::uint64_t hash) const noexcept;
  std::uint32_t add(const ShingleKey& key);
  void grow();

  std::vector<std::vector<ShingleKey>> blocks_;  // key of id i: blocks_[i / kBlockSize]
  std::uint32_t size_ = 0;
  // Open addressing with linear probing. tags_[s] is 0 for an empty slot, else 1-255 from the
  // hash of the key in slots_[s]: a probe reads a key (a cache miss of its own) only when the
  // tags agree, one time in 255 for a key that is not there.
  std::vector<std::uint8_t> tags_;
  std::vector<std::uint32_t> slots_;
  std::vector<std::uint64_t> hashes_;  // scratch of intern(), kept to save an allocation per call
};

}  // namespace memkit::similarity::detail
