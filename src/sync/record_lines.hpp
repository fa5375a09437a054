// Fast twins of memorybox::record_line and parse_record_line for the directory remote, whose
// files hold 100,000s of lines: the core's pair goes through a JSON tree (several microseconds a
// line), these write and read the one canonical form directly. Internal to src/sync.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "memkit/memorybox_sync.hpp"

namespace memkit::sync::detail {

// Appends exactly the bytes of memorybox::record_line(record).
void append_record_line(std::string& out, const memorybox::SyncRecord& record);

// The record of `line` (an optional final LF allowed) when it is exactly in record_line's
// canonical form and passes every check of parse_record_line; then parse_record_line(line) gives
// the same record. Otherwise nullopt, and the caller asks parse_record_line, which says what is
// wrong (or accepts a valid line in another JSON form).
[[nodiscard]] std::optional<memorybox::SyncRecord> read_canonical_record_line(
    std::string_view line);

// Returns true iff parse_record_line(record_line(record)) is `record` itself: every string is
// valid UTF-8 (none is repaired) and every value passes parse_record_line's checks. When false,
// parse_record_line of the line says what is wrong, or reads the repaired record.
[[nodiscard]] bool reads_back_unchanged(const memorybox::SyncRecord& record);

// parse_record_line(line), through read_canonical_record_line when it can.
[[nodiscard]] Result<memorybox::SyncRecord> read_record_line(std::string_view line);

}  // namespace memkit::sync::detail
