// The directory remote's upsert: idempotent, and refusing rather than overwriting a newer row.
#include "sync/directory_upsert.hpp"

#include <algorithm>

namespace memkit::sync::detail {

FixedTime fixed_time(std::string_view updated_at) noexcept {
  FixedTime out{};
  std::copy_n(updated_at.begin(), std::min(updated_at.size(), out.size()), out.begin());
  return out;
}

void decide_upserts(memorybox::SyncTable table, const std::vector<Pending>& pending, Rows& rows,
                    std::string& append, std::vector<Refusal>& refusals) {
  for (const Pending& record : pending) {
    const auto row = rows.latest.find(record.id);
    if (row == rows.latest.end() || row->second.updated_at < record.updated_at) {
      append += record.line;
      rows.latest.insert_or_assign(record.id, Stored{record.updated_at, record.line});
    } else if (row->second.line != record.line) {
      refusals.push_back(Refusal{table, record.id,
                                 row->second.updated_at > record.updated_at
                                     ? "the remote holds a newer version"
                                     : "the remote holds a different version with the same "
                                       "updated_at"});
    }
  }
}

}  // namespace memkit::sync::detail
