// The directory remote's upsert (spec memorybox.md §9, the ordering and push rules in
// memkit/sync_remote.hpp): what a push does with each record, given the rows a file holds.
// Internal to src/sync.
#pragma once

#include <array>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "sync/remote.hpp"

namespace memkit::sync::detail {

// An updated_at, which parse_record_line accepts only as RFC 3339 UTC with milliseconds: always
// 24 bytes, so that it needs no allocation and bytewise order is time order.
using FixedTime = std::array<char, 24>;

[[nodiscard]] FixedTime fixed_time(std::string_view updated_at) noexcept;

// One record of a push, checked and rendered before the lock is taken.
struct Pending {
  std::string id;  // as the line stores it (invalid UTF-8 repaired)
  FixedTime updated_at{};
  std::string line;  // record_line()
};

// The row the remote holds for one id of the pushing workspace: its latest line, in canonical
// form (record_line), so that a repeated push compares equal byte for byte.
struct Stored {
  FixedTime updated_at{};
  std::string_view line;  // into the file's bytes, Rows::rewritten or a Pending's line
};

// The rows of the pushing workspace in one file, by id.
struct Rows {
  std::unordered_map<std::string, Stored> latest;
  // The canonical lines of rows that the file holds in another valid JSON form (written by hand
  // or by another tool); a deque, so that views into it stay valid.
  std::deque<std::string> rewritten;
};

// The §9 upsert, record by record (a later record of the same id in one push meets the earlier
// ones): stored (its line added to `append`, and to `rows`) when the remote has no row or an older
// one; acknowledged without a new line when it holds exactly this record; refused when its row is
// newer, or as new but different.
// REQUIRES: every line `rows` points to outlives it; `pending` does not change while it does.
void decide_upserts(memorybox::SyncTable table, const std::vector<Pending>& pending, Rows& rows,
                    std::string& append, std::vector<Refusal>& refusals);

}  // namespace memkit::sync::detail
