#include "similarity/word_dictionary.hpp"

#include <stdexcept>

#include "memkit/digest.hpp"

namespace memkit::similarity::detail {
namespace {

constexpr std::size_t kInitialWordSlots = 1024;

}  // namespace

std::string_view WordDictionary::word(std::uint32_t id) const noexcept {
  const std::size_t begin = id == 0 ? 0 : ends_[id - 1];
  return std::string_view(bytes_).substr(begin, ends_[id] - begin);
}

std::size_t WordDictionary::slot_of(std::string_view w, std::uint64_t hash) const noexcept {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
    const std::uint32_t id = slots_[at];
    if (id == kNoId || (hashes_[id] == hash && word(id) == w)) return at;
  }
}

void WordDictionary::grow() {
  slots_.assign(slots_.empty() ? kInitialWordSlots : slots_.size() * 2, kNoId);
  const std::size_t mask = slots_.size() - 1;
  for (std::uint32_t id = 0; id < size(); ++id) {
    std::size_t at = hashes_[id] & mask;
    while (slots_[at] != kNoId) at = (at + 1) & mask;
    slots_[at] = id;
  }
}

std::uint32_t WordDictionary::intern(std::string_view w) {
  // At most half full, so a probe for a missing word stops soon.
  if (2 * (hashes_.size() + 1) > slots_.size()) grow();
  const std::uint64_t hash = fast_hash(w);
  const std::size_t at = slot_of(w, hash);
  if (slots_[at] != kNoId) return slots_[at];
  if (hashes_.size() >= kNoId) throw std::length_error("similarity: 2^32 - 1 distinct words");
  const auto id = static_cast<std::uint32_t>(hashes_.size());
  bytes_.append(w);
  ends_.push_back(bytes_.size());
  hashes_.push_back(hash);
  slots_[at] = id;
  return id;
}

std::uint32_t WordDictionary::find(std::string_view w) const noexcept {
  if (slots_.empty()) return kNoId;
  return slots_[slot_of(w, fast_hash(w))];
}

void WordDictionary::shrink_to_fit() {
  bytes_.shrink_to_fit();
  ends_.shrink_to_fit();
  hashes_.shrink_to_fit();
}

}  // namespace memkit::similarity::detail
