// Building the index in one pass over the texts. Every buffer lives across items, so an item
// costs no allocation of its own: only the tables and the flat arrays grow, geometrically.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "similarity/index_data.hpp"
#include "similarity/word_splitter.hpp"

namespace memkit::similarity::detail {
namespace {

constexpr std::size_t kMaxOffset = std::numeric_limits<std::uint32_t>::max();

// Fills postings from the items' shingle lists, each list ascending by item. frequency[s] holds
// how many items have shingle s and becomes posting_offsets.
void build_postings(NearDuplicateIndex::Data& data, std::vector<std::uint32_t>&& frequency) {
  std::vector<std::uint32_t>& offsets = data.posting_offsets = std::move(frequency);
  // Running sums make offsets[s] the end of s's list; placing items from the last down moves
  // each end back to its start, so no second table of cursors is needed.
  std::uint32_t total = 0;
  for (std::uint32_t& offset : offsets) offset = total += offset;
  offsets.push_back(total);
  offsets.shrink_to_fit();
  data.postings.resize(total);
  for (std::size_t item = data.size(); item-- > 0;) {
    for (const std::uint32_t shingle : data.shingles_of(item)) {
      data.postings[--offsets[shingle]] = static_cast<std::uint32_t>(item);
    }
  }
}

}  // namespace

std::shared_ptr<const NearDuplicateIndex::Data> build_index(
    std::span<const std::string_view> texts) {
  if (texts.size() >= kMaxOffset) throw std::length_error("similarity: 2^32 - 1 items");
  auto data = std::make_shared<NearDuplicateIndex::Data>();
  data->item_offsets.reserve(texts.size() + 1);
  data->item_offsets.push_back(0);
  std::vector<std::uint32_t> frequency;  // by shingle id: how many items contain it
  WordSplitter splitter;
  std::vector<std::uint32_t> word_ids;
  std::vector<ShingleKey> keys;
  std::vector<std::uint32_t> ids;
  for (const std::string_view text : texts) {
    word_ids.clear();
    for (const std::string_view word : splitter.split(text)) {
      word_ids.push_back(data->words.intern(word));
    }
    keys.clear();
    append_shingles(word_ids, keys);
    data->shingles.intern(keys, ids);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    frequency.resize(data->shingles.size());
    for (const std::uint32_t id : ids) ++frequency[id];
    if (data->item_shingles.size() + ids.size() > kMaxOffset) {
      throw std::length_error("similarity: 2^32 - 1 shingles in all items");
    }
    data->item_shingles.insert(data->item_shingles.end(), ids.begin(), ids.end());
    data->item_offsets.push_back(static_cast<std::uint32_t>(data->item_shingles.size()));
  }
  data->words.shrink_to_fit();
  data->item_shingles.shrink_to_fit();
  build_postings(*data, std::move(frequency));
  return data;
}

}  // namespace memkit::similarity::detail
