// The bytes of the files MemoryBox sync keeps (spec memorybox.md §9; the layouts are OUR
// DECISIONS): a record's JSON Lines form (a folder remote's files and .memkit/sync/conflicts.jsonl),
// .memkit/sync.json, .memkit/sync/base.tsv and .memkit/sync/scan.cache, each rendered and parsed,
// and when a base is written whole rather than appended to. Pure, like the rest of memorybox; the
// shell (src/store/sync_state.hpp) reads and writes the files.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "memkit/result.hpp"

namespace memkit::memorybox {

// The directory adapter's line (§9): the record as canonical JSON (compaction.md §12.1) with the
// ten keys, then LF. Strings that are not valid UTF-8 are repaired (U+FFFD) on the way in.
[[nodiscard]] std::string record_line(const SyncRecord& record);
// record_line(record), appended to `out` (for writers of many lines).
void append_record_line(std::string& out, const SyncRecord& record);

// Parses one line (an optional final LF is allowed) back into a record. Strict: a JSON object
// with exactly the ten keys, once each, of the right types; `id` a non-empty value that could be
// an `Id` field (no surrounding blanks, no line breaks); `workspace_id` a UUID (is_uuid); `table`
// a known table; `file` non-empty; `confidence` an integer 0-100 or null, null for a log record;
// `verified` a calendar date or null; `updated_at` is_utc_millis. A memories record that is not
// deleted must carry both `confidence` and `verified` (it is scored). Fails with Errc::parse and
// a message naming the problem.
[[nodiscard]] Result<SyncRecord> parse_record_line(std::string_view line);

// Parses sync.json: a JSON object with exactly the five keys, once each, of the right types.
// Fails with Errc::parse and a message naming the problem.
[[nodiscard]] Result<SyncState> parse_sync_state(std::string_view bytes);
// Canonical JSON with the five keys, then LF.
[[nodiscard]] std::string render_sync_state(const SyncState& state);

// The first line of a base.tsv of version 2 (BaseDigests::xxh3).
inline constexpr std::string_view kSyncBaseHeader = "# memkit sync base 2: XXH3-128 digests\n";

// kSyncBaseHeader (a base of version 2), then one line per id, sorted bytewise by id:
// "<digest>\t<table>\t<file>\t<id>\n". Another first line that starts with '#' is a base of a
// later version: Errc::layout. The file is
// appended to (OUR DECISION: a sync of 100 entries writes 100 lines, not the whole base), so
// parsing takes a later line of an id over an earlier one and ignores a last line without its LF
// (an append cut short by a crash: that id is merely synced again). Otherwise strict (Errc::parse
// naming the line).
[[nodiscard]] std::string render_sync_base(const SyncBase& base);
// Its lines alone, sorted by id, for appending to a base.tsv of the same digests.
[[nodiscard]] std::string render_sync_base_lines(const SyncBase& base);
[[nodiscard]] Result<SyncBase> parse_sync_base(std::string_view bytes);

// Whether a base.tsv of `bytes`, parsed into a base of `ids` ids, is written whole at its next
// change rather than appended to: its last line is torn (a crash cut an append short), or it has
// more than twice the lines the base needs (plus 1024), the earlier lines of ids synced again.
[[nodiscard]] bool sync_base_needs_rewrite(std::string_view bytes, std::size_t ids) noexcept;

// scan.cache's bytes: a header line, then blocks, each its count and checksum (8 bytes each) and
// 40 bytes per entry; render_scan_cache gives the header and one block, render_scan_cache_block a
// block to append (a later entry of a fingerprint wins).
[[nodiscard]] std::string render_scan_cache(std::span<const CachedEntry> entries);
[[nodiscard]] std::string render_scan_cache_block(std::span<const CachedEntry> entries);
// Errc::parse for bytes that do not begin as a scan cache of this version, or of 4 GiB or more
// (the caller then scans without one); a block cut short or whose checksum fails ends the cache
// there (whole() false). The cache keeps the bytes.
[[nodiscard]] Result<ScanCache> parse_scan_cache(std::string bytes);

// .memkit/sync/conflicts.jsonl, the records of the open sync conflicts: one record_line each.
inline constexpr std::string_view kSyncConflictsState = ".memkit/sync/conflicts.jsonl";
[[nodiscard]] std::string render_sync_conflicts(const std::vector<SyncRecord>& conflicts);
// Each line through parse_record_line; a line that fails is Errc::parse, with a message that
// names the file and the line ("<kSyncConflictsState>:3: ...").
[[nodiscard]] Result<std::vector<SyncRecord>> parse_sync_conflicts(std::string_view bytes);

}  // namespace memkit::memorybox
