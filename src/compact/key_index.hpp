// Exact-key membership for the units of one document without storing a key per unit: a flat
// open-addressing table of (32 bits of the key's hash, unit index). When the hash bits match, the
// earlier unit's key is recomputed and compared, so the answer is exact; that happens only for
// true duplicates and rare collisions.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/digest.hpp"
#include "memkit/markdown.hpp"

namespace memkit::detail {

class UnitKeyIndex final {
 public:
  UnitKeyIndex(const Document& doc, std::size_t expected_units)
      : doc_(doc), slots_(std::bit_ceil(2 * expected_units + 16)) {}

  // Returns true iff an earlier inserted unit has exactly this key; otherwise records `unit`.
  // REQUIRES: key is unit_key(doc, units()[unit]).
  bool seen_or_insert(std::string_view key, std::size_t unit) {
    return seen_or_insert(fast_hash(key), unit, [&] { return key; });
  }

  // Warms the cache line that a later lookup of `hash` reads first. The table is far larger
  // than the cache, so without this every lookup waits on memory.
  void prefetch(std::uint64_t hash) const noexcept {
    __builtin_prefetch(&slots_[static_cast<std::size_t>(hash) & (slots_.size() - 1)]);
  }

  // The same with the key's fast_hash computed earlier; `key` is asked for only when the hash
  // bits match an earlier unit's, so most keys are never built twice.
  template <class KeyOf>
  bool seen_or_insert(std::uint64_t hash, std::size_t unit, KeyOf&& key) {
    const auto tag = static_cast<std::uint32_t>(hash >> 32);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.unit_plus_one == 0) {
        slot = Slot{tag, static_cast<std::uint32_t>(unit + 1)};
        return false;
      }
      if (slot.tag == tag) {
        unit_key_into(doc_, doc_.units()[slot.unit_plus_one - 1], earlier_, scratch_);
        if (earlier_ == std::string_view(key())) return true;
      }
    }
  }

 private:
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t unit_plus_one = 0;  // 0: empty
  };
  const Document& doc_;
  std::vector<Slot> slots_;
  std::string earlier_;
  std::string scratch_;
};

}  // namespace memkit::detail
