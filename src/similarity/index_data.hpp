// What a NearDuplicateIndex holds: the word and shingle dictionaries, each item's shingle ids
// (the forward index, for exact verification) and each shingle's items (the inverted index, for
// the prefix filter), both as offset tables over one flat array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "memkit/similarity.hpp"
#include "similarity/shingles.hpp"
#include "similarity/word_dictionary.hpp"

namespace memkit::similarity {

struct NearDuplicateIndex::Data {
  detail::WordDictionary words;
  detail::ShingleDictionary shingles;
  std::vector<std::uint32_t> item_offsets;     // size() + 1 entries
  std::vector<std::uint32_t> item_shingles;    // item i: [item_offsets[i], item_offsets[i + 1])
  std::vector<std::uint32_t> posting_offsets;  // shingles.size() + 1 entries
  std::vector<std::uint32_t> postings;         // shingle s: [posting_offsets[s], ...[s + 1])

  [[nodiscard]] std::size_t size() const noexcept { return item_offsets.size() - 1; }
  // The distinct shingle ids of an item, ascending.
  [[nodiscard]] std::span<const std::uint32_t> shingles_of(std::size_t item) const noexcept {
    return std::span(item_shingles)
        .subspan(item_offsets[item], item_offsets[item + 1] - item_offsets[item]);
  }
  [[nodiscard]] std::uint32_t set_size(std::size_t item) const noexcept {
    return item_offsets[item + 1] - item_offsets[item];
  }
  // The items that contain a shingle, ascending.
  [[nodiscard]] std::span<const std::uint32_t> items_with(std::uint32_t shingle) const noexcept {
    return std::span(postings).subspan(posting_offsets[shingle],
                                       posting_offsets[shingle + 1] - posting_offsets[shingle]);
  }
  // How many items contain a shingle: the prefix filter takes the rarest first.
  [[nodiscard]] std::uint32_t frequency(std::uint32_t shingle) const noexcept {
    return posting_offsets[shingle + 1] - posting_offsets[shingle];
  }
};

namespace detail {

// Builds the index of items 0..texts.size()-1.
[[nodiscard]] std::shared_ptr<const NearDuplicateIndex::Data> build_index(
    std::span<const std::string_view> texts);

}  // namespace detail
}  // namespace memkit::similarity
