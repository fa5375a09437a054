// The JSON Lines form of sync records (spec memorybox.md §9 Records), read and written without a
// JSON tree: the canonical form (compaction.md §12.1) of a record is one fixed sequence, the ten
// keys in bytewise order, no blanks, strings with only '"', '\' and control characters escaped,
// integers in shortest decimal form. A line in any other JSON form goes through a JSON tree.
// Internal to memkit (the directory remote and the tests use it).
#pragma once

#include <optional>
#include <string_view>

#include "memorybox/sync_files.hpp"

namespace memkit::memorybox::detail {

// The record of `line` (an optional final LF allowed) when it is exactly in record_line's
// canonical form and passes every check of parse_record_line; then parse_record_line(line) gives
// the same record. Otherwise nullopt.
[[nodiscard]] std::optional<SyncRecord> read_canonical_record_line(std::string_view line);

// parse_record_line through a JSON tree: any valid JSON form of the object, and the messages that
// name what is wrong. parse_record_line asks it for every line that is not canonical.
[[nodiscard]] Result<SyncRecord> parse_record_line_json(std::string_view line);

// Returns true iff parse_record_line(record_line(record)) is `record` itself: every string is
// valid UTF-8 (none is repaired) and every value passes parse_record_line's checks.
[[nodiscard]] bool reads_back_unchanged(const SyncRecord& record);

}  // namespace memkit::memorybox::detail
