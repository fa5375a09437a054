// Exact-key membership for many items without storing a key per item: a flat open-addressing
// table of (32 bits of the key's hash, the item's number), or of the item's number alone when the
// caller keeps those 32 bits per item. When the hash bits match, the earlier item's key is
// rebuilt and compared, so the answer is exact; that happens only for true duplicates and rare
// collisions.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "memkit/digest.hpp"

namespace memkit::detail {

// KeyAt: void(std::uint32_t item, std::string& out), which writes the item's key to `out`.
// TagAt: std::uint32_t(std::uint32_t item), 32 bits of the item's key hash kept by the caller (an
// inbox's bullets keep theirs): then a slot holds the item's number alone, half the table, and a
// lookup reads the earlier item's tag from the caller. Without it (void) the slot keeps the tag.
template <class KeyAt, class TagAt = void>
class KeyIndex final {
 public:
  static constexpr bool kTagsOutside = !std::is_void_v<TagAt>;
  using TagSource = std::conditional_t<kTagsOutside, TagAt, char>;

  // Sized to stay at most 3/4 full. REQUIRES: at most `max_items` items are inserted.
  KeyIndex(std::size_t max_items, KeyAt key_at)
    requires(!kTagsOutside)
      : key_at_(std::move(key_at)), slots_(capacity_for(max_items)) {}
  KeyIndex(std::size_t max_items, KeyAt key_at, TagSource tag_at)
    requires(kTagsOutside)
      : key_at_(std::move(key_at)), tag_at_(std::move(tag_at)), slots_(capacity_for(max_items)) {}

  // Returns true iff an earlier inserted item has exactly this key; otherwise records `item`.
  bool seen_or_insert(std::string_view key, std::uint32_t item)
    requires(!kTagsOutside)
  {
    return seen_or_insert(fast_hash(key), item, [&] { return key; });
  }

  // Warms the cache line that a later lookup of `hash` reads first. The table is far larger
  // than the cache, so without this every lookup waits on memory.
  void prefetch(std::uint64_t hash) const noexcept {
    __builtin_prefetch(&slots_[static_cast<std::size_t>(hash) & (slots_.size() - 1)]);
  }

  // The same with the key's hash computed earlier (with TagAt: the item's tag, zero-extended);
  // `key()` is asked for only when the tags match an earlier item's, so most keys are never built
  // twice.
  template <class KeyOf>
  bool seen_or_insert(std::uint64_t hash, std::uint32_t item, KeyOf&& key) {
    const auto tag = static_cast<std::uint32_t>(kTagsOutside ? hash : hash >> 32);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.item_plus_one == 0) {
        if constexpr (kTagsOutside) {
          slot = Slot{item + 1};
        } else {
          slot = Slot{tag, item + 1};
        }
        return false;
      }
      if (tag_of(slot) == tag) {
        key_at_(slot.item_plus_one - 1, earlier_);
        if (earlier_ == std::string_view(key())) return true;
      }
    }
  }

 private:
  struct TaggedSlot {
    std::uint32_t tag = 0;
    std::uint32_t item_plus_one = 0;  // 0: empty
  };
  struct ItemSlot {
    std::uint32_t item_plus_one = 0;  // 0: empty
  };
  using Slot = std::conditional_t<kTagsOutside, ItemSlot, TaggedSlot>;

  std::uint32_t tag_of(const Slot& slot) const {
    if constexpr (kTagsOutside) {
      return tag_at_(slot.item_plus_one - 1);
    } else {
      return slot.tag;
    }
  }

  static std::size_t capacity_for(std::size_t items) {
    return std::bit_ceil(items + items / 3 + 16);
  }

  KeyAt key_at_;
  [[no_unique_address]] TagSource tag_at_{};
  std::vector<Slot> slots_;
  std::string earlier_;
};

template <class KeyAt>
KeyIndex(std::size_t, KeyAt) -> KeyIndex<KeyAt>;
template <class KeyAt, class TagAt>
KeyIndex(std::size_t, KeyAt, TagAt) -> KeyIndex<KeyAt, TagAt>;

}  // namespace memkit::detail
