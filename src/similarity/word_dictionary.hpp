// Words interned exactly to dense ids (spec memorybox.md §4 allows no hashing that could merge two
// words): the hash only chooses where to look, and a word matches only its own bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memkit::similarity::detail {

inline constexpr std::uint32_t kNoId = 0xFFFFFFFFU;

class WordDictionary final {
 public:
  // Returns the id of `word`, giving it the next id if it is new.
  [[nodiscard]] std::uint32_t intern(std::string_view word);
  // Returns the id of `word`, or kNoId if it was never interned.
  [[nodiscard]] std::uint32_t find(std::string_view word) const noexcept;
  [[nodiscard]] std::uint32_t size() const noexcept {
    return static_cast<std::uint32_t>(hashes_.size());
  }
  // Gives back the slack of growth once no word will be added.
  void shrink_to_fit();

 private:
  [[nodiscard]] std::string_view word(std::uint32_t id) const noexcept;
  // The slot that holds `word`, or the empty slot where it would go.
  [[nodiscard]] std::size_t slot_of(std::string_view word, std::uint64_t hash) const noexcept;
  void grow();

  std::string bytes_;                  // every word, back to back, in id order
  std::vector<std::size_t> ends_;      // word i is bytes_[ends_[i - 1], ends_[i]) (ends_[-1] = 0)
  std::vector<std::uint64_t> hashes_;  // by id: rehashing and most mismatches never read bytes_
  std::vector<std::uint32_t> slots_;   // open addressing, linear probing; kNoId is empty
};

}  // namespace memkit::similarity::detail
