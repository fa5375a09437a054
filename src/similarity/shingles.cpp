#include "similarity/shingles.hpp"

#include <algorithm>
#include <stdexcept>

namespace memkit::similarity::detail {
namespace {

constexpr std::size_t kInitialShingleSlots = 1024;

// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit, so the low bits that
// pick a slot depend on all three ids.
constexpr std::uint64_t mix(std::uint64_t h) noexcept {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ULL;
  h ^= h >> 33;
  return h;
}

constexpr std::uint64_t hash_of(const ShingleKey& key) noexcept {
  const std::uint64_t low = key.first | (std::uint64_t{key.second} << 32);
  return mix(low ^ mix(key.third + 0x9E3779B97F4A7C15ULL));
}

// 1-255, from the bits the slot index does not use.
constexpr std::uint8_t tag_of(std::uint64_t hash) noexcept {
  return static_cast<std::uint8_t>(1 + (hash >> 56) % 255);
}

// A hint that a cache line will be read soon; a no-op where the compiler has no such builtin.
inline void prefetch(const void* address) noexcept {
#if defined(__GNUC__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

}  // namespace

void append_shingles(std::span<const std::uint32_t> word_ids, std::vector<ShingleKey>& out) {
  if (word_ids.size() < 3) {
    for (const std::uint32_t id : word_ids) out.push_back({id, kNoId, kNoId});
    return;
  }
  for (std::size_t i = 0; i + 2 < word_ids.size(); ++i) {
    out.push_back({word_ids[i], word_ids[i + 1], word_ids[i + 2]});
  }
}

std::size_t ShingleDictionary::slot_of(const ShingleKey& k, std::uint64_t hash) const noexcept {
  const std::size_t mask = slots_.size() - 1;
  const std::uint8_t tag = tag_of(hash);
  for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
    if (tags_[at] == 0 || (tags_[at] == tag && key(slots_[at]) == k)) return at;
  }
}

void ShingleDictionary::grow() {
  const std::size_t slot_count = slots_.empty() ? kInitialShingleSlots : slots_.size() * 2;
  tags_.assign(slot_count, 0);
  slots_.assign(slot_count, kNoId);
  const std::size_t mask = slot_count - 1;
  // Keys are read in order, slots at random: a batch of slots is touched ahead of its inserts.
  constexpr std::uint32_t kBatch = 32;
  std::uint64_t batch[kBatch];
  for (std::uint32_t first = 0; first < size_; first += kBatch) {
    const std::uint32_t count = std::min(kBatch, size_ - first);
    for (std::uint32_t i = 0; i < count; ++i) {
      batch[i] = hash_of(key(first + i));
      prefetch(&tags_[batch[i] & mask]);
      prefetch(&slots_[batch[i] & mask]);
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      std::size_t at = batch[i] & mask;
      while (tags_[at] != 0) at = (at + 1) & mask;
      tags_[at] = tag_of(batch[i]);
      slots_[at] = first + i;
    }
  }
}

std::uint32_t ShingleDictionary::add(const ShingleKey& k) {
  if (size_ == kNoId) throw std::length_error("similarity: 2^32 - 1 distinct shingles");
  if (size_ % kBlockSize == 0) {
    blocks_.emplace_back();
    if (blocks_.size() > 1) blocks_.back().reserve(kBlockSize);
  }
  blocks_.back().push_back(k);
  return size_++;
}

void ShingleDictionary::intern(std::span<const ShingleKey> keys, std::vector<std::uint32_t>& ids) {
  // At most 5/8 full: the table is a large part of the index, and linear probing still stops
  // within a cache line or two at that load. Growing first keeps the slots still below.
  while (8 * (std::size_t{size_} + keys.size()) > 5 * slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  // A text's shingles are independent lookups, each a few cache misses (tag, slot, key): touching
  // every tag and slot, then every matching key, before the first compare lets the misses
  // overlap instead of following one another.
  hashes_.clear();
  for (const ShingleKey& k : keys) {
    hashes_.push_back(hash_of(k));
    prefetch(&tags_[hashes_.back() & mask]);
    prefetch(&slots_[hashes_.back() & mask]);
  }
  for (const std::uint64_t hash : hashes_) {
    if (tags_[hash & mask] == tag_of(hash)) prefetch(&key(slots_[hash & mask]));
  }
  ids.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t at = slot_of(keys[i], hashes_[i]);
    if (tags_[at] == 0) {
      tags_[at] = tag_of(hashes_[i]);
      slots_[at] = add(keys[i]);
    }
    ids[i] = slots_[at];
  }
}

std::uint32_t ShingleDictionary::find(const ShingleKey& k) const noexcept {
  if (slots_.empty()) return kNoId;
  const std::size_t at = slot_of(k, hash_of(k));
  return tags_[at] == 0 ? kNoId : slots_[at];
}

}  // namespace memkit::similarity::detail
