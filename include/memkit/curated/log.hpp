// Curated memory's append-only logs (spec curated.md §2, §6, §9): the change history
// (log/<workspace>/history.jsonl) and read telemetry (log/<workspace>/access.jsonl, folded older
// records in access-snapshot.json). Pure: records to canonical JSON Lines and back, and the read
// counters derived from them, one axis per kind, never added together.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/findings.hpp"

namespace memkit::curated {

// ---- §6 history ---------------------------------------------------------------------------------

enum class HistoryOp : std::uint8_t {
  insert,
  update,
  append,
  edit,
  reclassify,
  remove,  // "delete"
  restore,
  link,
  unlink,
  purge,
};
[[nodiscard]] std::string_view name_of(HistoryOp op) noexcept;  // "insert", ..., "delete", ...
[[nodiscard]] std::optional<HistoryOp> parse_history_op(std::string_view text) noexcept;

// A row's state as history keeps it: {type, class, status, initiative, audience, description,
// body, project_ref, deleted, deleted_at}, taken from a Row (its name, timestamps other than
// Deleted, origin session and links are not part of it).
struct RowState {
  RowType type = RowType::project;
  RowClass row_class = RowClass::log;
  std::optional<RowStatus> status;
  std::optional<std::string> initiative;
  Audience audience = Audience::any;
  std::optional<std::string> description;
  std::string body;
  std::optional<std::string> project_ref;
  std::optional<std::string> deleted_at;  // `deleted` is deleted_at.has_value()
  friend bool operator==(const RowState&, const RowState&) = default;
};
[[nodiscard]] RowState state_of(const Row& row);

struct HistoryRecord {
  std::string ts;    // RFC 3339 UTC with milliseconds
  std::string name;  // the row; for link records the link's src
  HistoryOp op = HistoryOp::insert;
  std::optional<RowState> before;     // null for an insert, a link record, a purge
  std::optional<RowState> after;      // null for a link record, a purge
  std::optional<LinkKind> link_kind;  // link and unlink records: {kind, dst}
  std::string link_dst;
  std::optional<std::string> actor;  // null: the human owner
  friend bool operator==(const HistoryRecord&, const HistoryRecord&) = default;
};

// One line: canonical JSON (compaction.md §12.1) of {ts, name, op, before, after, actor}, or for
// link records {ts, name, op, link: {kind, dst}, actor}, then LF.
[[nodiscard]] std::string history_line(const HistoryRecord& record);

struct HistoryLog {
  std::vector<HistoryRecord> records;  // in file order
  std::vector<Finding> findings;  // a line that does not parse: MK-PARSE-001 WARNING at path:line
};
// Reads history.jsonl; `path` names it in findings. A line that is not a record is skipped.
[[nodiscard]] HistoryLog parse_history(std::string_view bytes, std::string_view path);

// ---- §9 read telemetry ------------------------------------------------------------------------

enum class ReadKind : std::uint8_t { deliberate, kernel, injection };
[[nodiscard]] std::string_view name_of(ReadKind kind) noexcept;
[[nodiscard]] std::optional<ReadKind> parse_read_kind(std::string_view text) noexcept;

struct AccessRecord {
  std::string ts;
  std::string name;
  ReadKind kind = ReadKind::deliberate;
  std::string surface;  // the bare command: show, story, get-relevant, kernel, ...
};
// {"kind","name","surface","ts"} as canonical JSON, then LF.
[[nodiscard]] std::string access_line(const AccessRecord& record);

// One axis of one row: how many counted reads, and the latest one's ts.
struct Axis {
  std::uint64_t count = 0;
  std::optional<std::string> last_at;
  friend bool operator==(const Axis&, const Axis&) = default;
};
// The three axes side by side; there is deliberately no total.
struct ReadCounters {
  Axis deliberate;
  Axis kernel;
  Axis injection;
  [[nodiscard]] const Axis& axis(ReadKind kind) const noexcept;
  [[nodiscard]] Axis& axis(ReadKind kind) noexcept;
  friend bool operator==(const ReadCounters&, const ReadCounters&) = default;
};

// The counters per row name, from access-snapshot.json (`snapshot`, may be empty) plus
// access.jsonl. Lines that do not parse are skipped with MK-PARSE-001 WARNING in `findings`.
struct Telemetry {
  std::map<std::string, ReadCounters> rows;
  std::vector<Finding> findings;
};
[[nodiscard]] Telemetry fold_telemetry(std::string_view snapshot, std::string_view access,
                                       std::string_view snapshot_path,
                                       std::string_view access_path);

// `telemetry compact --before TS` (§9): the records older than `before` folded into the snapshot
// (canonical JSON {name: {kind: {count, last}}}, then LF), the rest kept in order. The derived
// counters do not change.
struct CompactedTelemetry {
  std::string snapshot;
  std::string access;
};
[[nodiscard]] CompactedTelemetry compact_telemetry(std::string_view snapshot,
                                                   std::string_view access,
                                                   std::string_view before);

}  // namespace memkit::curated
