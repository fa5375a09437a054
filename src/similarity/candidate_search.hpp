// The exact search behind query() and near_duplicate_pairs(): prefix and size filters choose
// candidates from the inverted index, and each candidate is verified by counting its shingles in
// common. The filters only ever drop items that cannot qualify, so the result is exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "similarity/index_data.hpp"

namespace memkit::similarity::detail {

// A text's shingle set as the index sees it: the ids of the shingles some item has, and how many
// distinct shingles no item has (they match nothing, but count in every union).
struct ShingleSet {
  std::vector<std::uint32_t> known;  // ascending
  std::uint32_t unknown = 0;
  [[nodiscard]] std::uint32_t size() const noexcept {
    return static_cast<std::uint32_t>(known.size()) + unknown;
  }
};

// Returns the shingle set of `text` over the index's dictionaries.
[[nodiscard]] ShingleSet shingle_set_of(const NearDuplicateIndex::Data& data,
                                        std::string_view text);

struct Found {
  std::uint32_t item;
  std::uint32_t intersection;
  std::uint32_t union_size;
};

// Buffers that one search leaves for the next.
struct SearchScratch {
  std::vector<std::uint32_t> prefix;
  std::vector<std::uint32_t> candidates;
};

// Appends to `out`, in ascending item order, every item >= first_item whose shingle set
// qualifies against x at `threshold` hundredths.
// REQUIRES: 1 <= threshold <= 100 (threshold 0 admits everything: see scan_all)
void search(const NearDuplicateIndex::Data& data, std::span<const std::uint32_t> x_known,
            std::uint32_t x_unknown, std::uint32_t threshold, std::size_t first_item,
            SearchScratch& scratch, std::vector<Found>& out);

// The same for threshold 0, where every item with a non-empty union qualifies: a scan.
void scan_all(const NearDuplicateIndex::Data& data, std::span<const std::uint32_t> x_known,
              std::uint32_t x_unknown, std::size_t first_item, std::vector<Found>& out);

}  // namespace memkit::similarity::detail
