// Every qualifying pair: each item is searched against the items after it, so a pair is found
// once, from its first item (the prefix filter holds for either side of a pair).
#include <algorithm>

#include "memkit/similarity.hpp"
#include "similarity/candidate_search.hpp"
#include "similarity/index_data.hpp"

namespace memkit::similarity {

std::vector<Pair> near_duplicate_pairs(std::span<const std::string_view> texts,
                                       std::uint32_t threshold) {
  if (threshold > kMaxThreshold) return {};
  const std::shared_ptr<const NearDuplicateIndex::Data> data = detail::build_index(texts);
  std::vector<Pair> pairs;
  detail::SearchScratch scratch;
  std::vector<detail::Found> found;
  for (std::size_t first = 0; first < data->size(); ++first) {
    found.clear();
    if (threshold == 0) {
      detail::scan_all(*data, data->shingles_of(first), 0, first + 1, found);
    } else {
      detail::search(*data, data->shingles_of(first), 0, threshold, first + 1, scratch, found);
    }
    for (const detail::Found& f : found) {
      pairs.push_back(
          {first, f.item, f.intersection, f.union_size,
           static_cast<std::uint32_t>(std::uint64_t{100} * f.intersection / f.union_size)});
    }
  }
  // pairs is in (first, second) order, so a stable sort by similarity alone leaves ties so.
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
    return more_similar(a.intersection, a.union_size, b.intersection, b.union_size);
  });
  return pairs;
}

}  // namespace memkit::similarity
