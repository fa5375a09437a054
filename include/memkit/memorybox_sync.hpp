// The pure core of MemoryBox file <-> remote sync (spec memorybox.md §9): sync records and their
// JSON Lines form, UUIDv7 identities, the .memkit/sync.json state, the conflict rules and the
// SYNC_CONFLICTS.md block. No files, no database, no clock: the shell passes times and random
// bytes in.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "memkit/clock.hpp"
#include "memkit/result.hpp"

namespace memkit::memorybox {

// §9: the three remote tables.
enum class SyncTable : std::uint8_t { memories, session_logs, daily_logs };
[[nodiscard]] std::string_view sync_table_name(SyncTable table) noexcept;  // "memories", ...
[[nodiscard]] std::optional<SyncTable> parse_sync_table(std::string_view name) noexcept;
// session_logs and daily_logs.
[[nodiscard]] bool is_log_table(SyncTable table) noexcept;

// §9 Records: one synced entry.
struct SyncRecord {
  std::string id;            // the entry's `Id` field, unchanged (lossless)
  std::string workspace_id;  // a canonical lower-case UUID
  SyncTable table = SyncTable::memories;
  std::string file;                         // the entry's current path, "memory/LONG_TERM.md"
  std::optional<std::string> category;      // §3 category, or null
  std::string text;                         // the entry's bytes without field lines
  std::optional<std::uint32_t> confidence;  // hundredths 0-100; null for a log record
  std::optional<std::string> verified;      // YYYY-MM-DD, or null
  std::string updated_at;                   // RFC 3339 UTC with milliseconds
  bool deleted = false;
  friend bool operator==(const SyncRecord&, const SyncRecord&) = default;
};

// The directory adapter's line (§9): the record as canonical JSON (compaction.md §12.1) with the
// ten keys, then LF. Strings that are not valid UTF-8 are repaired (U+FFFD) on the way in.
[[nodiscard]] std::string record_line(const SyncRecord& record);

// Parses one line (an optional final LF is allowed) back into a record. Strict: a JSON object
// with exactly the ten keys, once each, of the right types; `id` a non-empty value that could be
// an `Id` field (no surrounding blanks, no line breaks); `workspace_id` a UUID (is_uuid); `table`
// a known table; `file` non-empty; `confidence` an integer 0-100 or null, null for a log record;
// `verified` a calendar date or null; `updated_at` is_utc_millis. A memories record that is not
// deleted must carry both `confidence` and `verified` (it is scored). Fails with Errc::parse and
// a message naming the problem.
[[nodiscard]] Result<SyncRecord> parse_record_line(std::string_view line);

// RFC 9562 UUIDv7: the low 48 bits of `unix_millis` big-endian, version 7, variant 10, and the
// remaining 74 bits from `random` (rand_a = 12 bits, rand_b = 62 bits). Canonical lower-case
// 8-4-4-4-12.
[[nodiscard]] std::string uuid_v7(std::uint64_t unix_millis,
                                  const std::array<std::uint8_t, 10>& random);

// Returns true iff `text` is a UUID in canonical form: 8-4-4-4-12 lower-case hex digits (any
// version). Upper-case digits are refused, so that workspace ids compare bytewise.
[[nodiscard]] bool is_uuid(std::string_view text) noexcept;

// §9: .memkit/sync.json.
struct SyncState {
  std::string workspace_id;                 // is_uuid
  std::optional<std::string> last_pull_at;  // is_utc_millis, or null before the first pull
  std::optional<std::string> last_push_at;  // is_utc_millis, or null before the first push
  bool last_push_ok = false;
  friend bool operator==(const SyncState&, const SyncState&) = default;
};

// Parses sync.json: a JSON object with exactly the four keys, once each, of the right types.
// Fails with Errc::parse and a message naming the problem.
[[nodiscard]] Result<SyncState> parse_sync_state(std::string_view bytes);
// Canonical JSON with the four keys, then LF.
[[nodiscard]] std::string render_sync_state(const SyncState& state);

// §9 Conflict rules: what a pull does with one id present on both sides.
enum class MergeOutcome : std::uint8_t { take_local, take_remote, conflict };
[[nodiscard]] std::string_view merge_outcome_name(MergeOutcome outcome) noexcept;

// Which rule decided.
enum class MergeRule : std::uint8_t {
  same,                 // the same content (all but updated_at): the newer, local on a tie or canon
  only_local_changed,   // only the local side changed since the last sync
  only_remote_changed,  // only the remote side changed since the last sync
  canon,                // a canon entry (rule 5): any difference is a conflict
  log_newer,            // rule 1: the newer updated_at
  log_tie,              // rule 1: equal timestamps
  fact_newer,           // rule 2: newer exists, higher is none or the same side
  fact_higher,          // rule 2: newer is none, higher exists
  fact_ambiguous,       // rule 2: newer and higher disagree, or both tie
};
[[nodiscard]] std::string_view merge_rule_name(MergeRule rule) noexcept;

struct MergeDecision {
  MergeOutcome outcome = MergeOutcome::take_local;
  MergeRule rule = MergeRule::same;
  friend bool operator==(const MergeDecision&, const MergeDecision&) = default;
};

struct MergeInput {
  // The time of the last sync (sync.json's last_pull_at), or null on the first sync, when every
  // record counts as changed. A side changed iff its updated_at >= last_sync_at.
  std::optional<std::string> last_sync_at;
  // Each side's effective confidence today (§6, computed by the caller), for memory facts. When
  // either is null (a tombstone without a confidence), *higher* is none.
  std::optional<std::uint32_t> local_effective;
  std::optional<std::uint32_t> remote_effective;
  bool canon = false;  // the entry lives in a Maven canon file (rule 5)
};

// Decides one id present on both sides (a record on one side only is simply that side's). The
// table of `local` chooses the rule. Deletions take part as updates at their updated_at (rule 4).
// REQUIRES: local.id == remote.id; both updated_at values (and last_sync_at) are is_utc_millis.
[[nodiscard]] MergeDecision merge(const SyncRecord& local, const SyncRecord& remote,
                                  const MergeInput& input);

// The shortest backtick fence (at least 3) that is longer than every backtick run of `text`.
[[nodiscard]] std::string fence_for(std::string_view text);

// §9 rule 3: the memory/SYNC_CONFLICTS.md block of a truly ambiguous record:
//   ## <id> —
//   <today>\n\nLocal:\n\n<fence>\n<local>\n<fence>\n\nRemote:\n\n<fence>\n<remote>\n<fence>\n
// Each text is written byte for byte; an LF is added before the closing fence only when the text
// is non-empty and does not end with one. All four fences have
// one length: longer than every backtick run of either text (at least 3).
[[nodiscard]] std::string conflict_block(std::string_view id, std::string_view today,
                                         std::string_view local_text, std::string_view remote_text);

}  // namespace memkit::memorybox
