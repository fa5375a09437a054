// NearDuplicateIndex and similarity(): one search over the index, ranked as spec memorybox.md §4
// ranks near-duplicates.
#include <algorithm>

#include "memkit/similarity.hpp"
#include "similarity/candidate_search.hpp"
#include "similarity/index_data.hpp"

namespace memkit::similarity {

NearDuplicateIndex::NearDuplicateIndex(std::span<const std::string_view> texts)
    : data_(detail::build_index(texts)) {}

NearDuplicateIndex::~NearDuplicateIndex() = default;
NearDuplicateIndex::NearDuplicateIndex(const NearDuplicateIndex&) noexcept = default;
NearDuplicateIndex& NearDuplicateIndex::operator=(const NearDuplicateIndex&) noexcept = default;
NearDuplicateIndex::NearDuplicateIndex(NearDuplicateIndex&&) noexcept = default;
NearDuplicateIndex& NearDuplicateIndex::operator=(NearDuplicateIndex&&) noexcept = default;

std::size_t NearDuplicateIndex::size() const noexcept { return data_ ? data_->size() : 0; }

std::vector<Match> NearDuplicateIndex::query(std::string_view text, std::uint32_t threshold) const {
  // A moved-from index is empty; a threshold above 100 breaks the precondition: no match.
  if (!data_ || threshold > kMaxThreshold) return {};
  const detail::ShingleSet x = detail::shingle_set_of(*data_, text);
  std::vector<detail::Found> found;
  if (threshold == 0) {
    detail::scan_all(*data_, x.known, x.unknown, 0, found);
  } else {
    detail::SearchScratch scratch;
    detail::search(*data_, x.known, x.unknown, threshold, 0, scratch, found);
  }
  std::vector<Match> matches;
  matches.reserve(found.size());
  for (const detail::Found& f : found) {
    matches.push_back(
        {f.item, f.intersection, f.union_size,
         static_cast<std::uint32_t>(std::uint64_t{100} * f.intersection / f.union_size)});
  }
  // found is in item order, so a stable sort by similarity alone leaves ties by item.
  std::stable_sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
    return more_similar(a.intersection, a.union_size, b.intersection, b.union_size);
  });
  return matches;
}

Match similarity(std::string_view a, std::string_view b) {
  const std::string_view texts[] = {a};
  const std::vector<Match> matches = NearDuplicateIndex(texts).query(b, 0);
  return matches.empty() ? Match{0, 0, 0, 0} : matches.front();  // empty: both have no word
}

}  // namespace memkit::similarity
