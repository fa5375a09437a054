// The live pending set (spec curated.md §8): the threads that must reappear in a later session.
// Selection reads the rows only, never a read counter (§9 "Counters never drive selection").
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "memkit/curated/read.hpp"

namespace memkit::curated {

std::vector<const Row*> live_pending(const std::vector<Row>& rows) {
  // A `supersedes` link retires its dst wherever it stands, on a soft-deleted src too: §8 says
  // "anywhere in the workspace", and a soft delete keeps the row's lines in place.
  // Views into the rows' links: no copy of a name.
  std::unordered_set<std::string_view> superseded;
  for (const Row& row : rows) {
    for (const Link& link : row.links) {
      if (link.kind == LinkKind::supersedes) superseded.insert(link.dst);
    }
  }
  std::vector<const Row*> live;
  for (const Row& row : rows) {
    if (row.row_class != RowClass::thread || row.deleted) continue;
    if (row.status != RowStatus::open && row.status != RowStatus::carry_forward) continue;
    if (superseded.contains(row.name)) continue;
    live.push_back(&row);
  }
  // Timestamps are RFC 3339 UTC with milliseconds, so string order is time order (§2). A row
  // without `Updated` (a hand edit) sorts as the oldest: nullopt compares below every string.
  std::stable_sort(live.begin(), live.end(), [](const Row* a, const Row* b) {
    if (a->updated != b->updated) return a->updated > b->updated;
    return a->name < b->name;
  });
  return live;
}

}  // namespace memkit::curated
