// Exact prefix filtering (spec memorybox.md §4 "Index"). If x and y qualify at t = T/100, then
// |x ∩ y| >= t·|x ∪ y| >= t·|x|, so x ∩ y has at least need = ceil(T·|x| / 100) shingles and y
// must hold one of ANY |x| - need + 1 shingles of x: the rest of x is too small to reach need.
// Taking the rarest ones keeps the posting lists read short. The same inequalities bound |y|
// (the size filter): need <= |y| <= floor(100·|x| / T). Shingles no item has sort before all
// others (frequency 0); when the prefix holds only those, nothing can qualify.
#include "similarity/candidate_search.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "similarity/word_splitter.hpp"

namespace memkit::similarity::detail {
namespace {

std::uint32_t intersection_size(std::span<const std::uint32_t> a,
                                std::span<const std::uint32_t> b) noexcept {
  std::uint32_t common = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++common;
      ++i;
      ++j;
    }
  }
  return common;
}

void verify(const NearDuplicateIndex::Data& data, std::span<const std::uint32_t> x_known,
            std::uint32_t x_size, std::uint32_t item, std::uint32_t threshold,
            std::vector<Found>& out) {
  const std::span<const std::uint32_t> y = data.shingles_of(item);
  const std::uint32_t common = intersection_size(x_known, y);
  const std::uint32_t union_size = x_size + static_cast<std::uint32_t>(y.size()) - common;
  if (qualifies(common, union_size, threshold)) out.push_back({item, common, union_size});
}

}  // namespace

ShingleSet shingle_set_of(const NearDuplicateIndex::Data& data, std::string_view text) {
  WordSplitter splitter;
  const std::span<const std::string_view> words = splitter.split(text);
  // A word no item has gets an id of its own above the dictionary's, so that distinct unknown
  // shingles stay distinct; no dictionary shingle can hold such an id.
  std::unordered_map<std::string_view, std::uint32_t> unseen;
  std::vector<std::uint32_t> word_ids;
  word_ids.reserve(words.size());
  for (const std::string_view word : words) {
    std::uint32_t id = data.words.find(word);
    if (id == kNoId) {
      const auto local = static_cast<std::uint32_t>(data.words.size() + unseen.size());
      if (local == kNoId) throw std::length_error("similarity: 2^32 - 1 distinct words");
      id = unseen.try_emplace(word, local).first->second;
    }
    word_ids.push_back(id);
  }
  std::vector<ShingleKey> keys;
  append_shingles(word_ids, keys);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  ShingleSet set;
  for (const ShingleKey& key : keys) {
    const std::uint32_t id = data.shingles.find(key);
    if (id == kNoId) {
      ++set.unknown;
    } else {
      set.known.push_back(id);
    }
  }
  std::sort(set.known.begin(), set.known.end());
  return set;
}

void search(const NearDuplicateIndex::Data& data, std::span<const std::uint32_t> x_known,
            std::uint32_t x_unknown, std::uint32_t threshold, std::size_t first_item,
            SearchScratch& scratch, std::vector<Found>& out) {
  const std::uint32_t x_size = static_cast<std::uint32_t>(x_known.size()) + x_unknown;
  if (x_size == 0) return;  // every union is y alone and the intersection 0: 0 < T·|y|
  const auto need =
      static_cast<std::uint32_t>((std::uint64_t{threshold} * x_size + 99) / 100);  // >= 1
  const std::uint32_t prefix = x_size - need + 1;
  if (prefix <= x_unknown) return;
  const std::size_t prefix_known = prefix - x_unknown;  // <= x_known.size(), as need >= 1

  scratch.prefix.assign(x_known.begin(), x_known.end());
  auto rarer = [&data](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t fa = data.frequency(a);
    const std::uint32_t fb = data.frequency(b);
    return fa < fb || (fa == fb && a < b);
  };
  std::nth_element(scratch.prefix.begin(),
                   scratch.prefix.begin() + static_cast<std::ptrdiff_t>(prefix_known) - 1,
                   scratch.prefix.end(), rarer);
  scratch.prefix.resize(prefix_known);  // nth_element leaves the prefix_known rarest in front

  const std::uint32_t min_size = need;
  const std::uint64_t max_size = std::uint64_t{100} * x_size / threshold;
  scratch.candidates.clear();
  for (const std::uint32_t shingle : scratch.prefix) {
    const std::span<const std::uint32_t> items = data.items_with(shingle);
    for (auto it = std::lower_bound(items.begin(), items.end(), first_item); it != items.end();
         ++it) {
      const std::uint32_t size = data.set_size(*it);
      if (size >= min_size && size <= max_size) scratch.candidates.push_back(*it);
    }
  }
  std::sort(scratch.candidates.begin(), scratch.candidates.end());
  scratch.candidates.erase(std::unique(scratch.candidates.begin(), scratch.candidates.end()),
                           scratch.candidates.end());
  for (const std::uint32_t item : scratch.candidates) {
    verify(data, x_known, x_size, item, threshold, out);
  }
}

void scan_all(const NearDuplicateIndex::Data& data, std::span<const std::uint32_t> x_known,
              std::uint32_t x_unknown, std::size_t first_item, std::vector<Found>& out) {
  const std::uint32_t x_size = static_cast<std::uint32_t>(x_known.size()) + x_unknown;
  for (std::size_t item = first_item; item < data.size(); ++item) {
    verify(data, x_known, x_size, static_cast<std::uint32_t>(item), 0, out);
  }
}

}  // namespace memkit::similarity::detail
