// The three-tier session memory (spec tiers3.md): L1 session logs, L2 theme notes, L3 global.md and
// CSV data memory under <workspace>/memory/. Pure: the shell lists the folders into a TiersTree,
// reads the files a command needs into a Snapshot (paths relative to the workspace) and writes the
// Change these functions return as one transaction, in its commit order (§9).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::tiers {

// §2: the fixed paths, relative to the workspace.
inline constexpr std::string_view kMemoryDir = "memory";
inline constexpr std::string_view kSessionsDir = "memory/sessions";
inline constexpr std::string_view kDataDir = "memory/data";
inline constexpr std::string_view kArchiveDir = "memory/archive";
inline constexpr std::string_view kGlobalPath = "memory/global.md";
inline constexpr std::string_view kManifestPath = "memory/data/manifest.json";

// §6: the seed's global.md skeleton, ending with LF.
[[nodiscard]] std::string_view global_skeleton() noexcept;

// ---- §3, §7, §10: arguments -------------------------------------------------------------------

// A refusal of an argument: MK-TIERS-00x or MK-ARG-001, always a fatal BLOCKER.
[[nodiscard]] Finding refusal(std::string code, std::string message);

// §7: the normalised theme, or MK-TIERS-002 / MK-TIERS-003.
struct Checked {
  std::string value;
  std::optional<Finding> refused;
};
[[nodiscard]] Checked check_theme(std::string_view raw);
// True iff `name` is a theme as list-themes lists it (the §7 grammar, not reserved).
[[nodiscard]] bool is_theme_name(std::string_view name) noexcept;
// True iff `name` is one of §2's reserved folder names (sessions, data, archive, a leading '.').
[[nodiscard]] bool is_reserved_name(std::string_view name) noexcept;
// §10: the data file name with ".csv" appended, or MK-ARG-001.
[[nodiscard]] Checked check_data_name(std::string_view raw);

enum class Template : std::uint8_t { decision, error, task };
[[nodiscard]] std::optional<Template> parse_template(std::string_view name) noexcept;
[[nodiscard]] std::string_view template_name(Template t) noexcept;    // "decision"
[[nodiscard]] std::string_view template_record(Template t) noexcept;  // "Decision Record"
// §5: the body skeleton `tiers template` prints.
[[nodiscard]] std::string_view template_body(Template t) noexcept;

// The L1 fields every write command takes (§3), as given; check_turn validates them.
struct TurnArguments {
  std::optional<std::string> entry_type;  // default "turn"
  std::optional<std::string> session_id;
  std::optional<std::string> tools_json;
};

// One L1 entry, validated.
struct Turn {
  std::string entry_type;  // upper-cased
  std::optional<std::string> session_id;
  std::vector<std::string> tools;
  std::string content;  // stripped, non-empty
};

// Validates the L1 fields and the content (MK-TIERS-001, MK-ARG-001 for invalid UTF-8 or NUL);
// `what` names the content argument ("--content").
[[nodiscard]] std::vector<Finding> check_turn(const TurnArguments& args, std::string_view what,
                                              std::string_view content, Turn& out);

// A content argument (§3): stripped, non-empty, valid text; MK-TIERS-001 or MK-ARG-001.
[[nodiscard]] Checked check_content(std::string_view what, std::string_view raw);

// ---- §4-§6: bytes ---------------------------------------------------------------------------

// The L1 file of `now` (memory/sessions/YYYY-MM-DD.md) and its bytes after appending `turn` to
// `existing` (nullopt: a new file).
[[nodiscard]] std::string session_log_path(const ClockReading& now);
[[nodiscard]] std::string append_session_entry(const std::optional<std::string_view>& existing,
                                               const Turn& turn, const ClockReading& now);

// The L2 note heading and file (§5).
struct Note {
  std::string theme;  // checked
  std::optional<Template> templ;
  std::optional<std::string> title;  // stripped, non-empty, single line
  std::string content;               // stripped, non-empty
};
[[nodiscard]] std::string theme_note_path(std::string_view theme, const ClockReading& now);
[[nodiscard]] std::string append_theme_entry(const std::optional<std::string_view>& existing,
                                             const Note& note, const ClockReading& now);

// §6: global.md after appending `block` (stripped): LF LF block, no final LF; a missing file is
// the skeleton first.
[[nodiscard]] std::string append_global_block(const std::optional<std::string_view>& existing,
                                              std::string_view block);

// ---- §6: the read contract --------------------------------------------------------------------

struct ReadOrderItem {
  std::string section;                 // "Active Mission", ...
  std::optional<std::string> heading;  // the matched heading's text, without its #s
  std::size_t begin = 0, end = 0;      // content: bytes [begin, end) of global.md
  std::uint8_t level = 0;              // 2 or 3 when found
  [[nodiscard]] bool found() const noexcept { return heading.has_value(); }
};
// The four sections in read order (Active Mission, Key Constraints, Research Index, User
// Preferences). A global.md with an unclosed fence or comment (compaction.md §2.3) has none.
[[nodiscard]] std::vector<ReadOrderItem> read_order(std::string_view global);

// ---- listings ---------------------------------------------------------------------------------

// What the shell found under memory/: names only, each list sorted bytewise.
struct TiersTree {
  bool memory_exists = false;
  std::vector<std::string> session_files;  // regular *.md files of memory/sessions
  // Folders directly under memory/ that are neither reserved nor symbolic links -> their regular
  // *.md files. A folder whose name is no theme is listed too (list-themes warns about it).
  std::map<std::string, std::vector<std::string>> theme_folders;
  std::vector<std::string> data_files;  // regular *.csv files of memory/data
};

// One L1 file as read-logs selects it.
struct LogFile {
  std::string date;  // the file's stem
  std::string path;  // memory/sessions/<date>.md
};
// §8 read-logs: files named by valid dates, descending, on or after now - days_back days.
[[nodiscard]] std::vector<LogFile> select_logs(const TiersTree& tree, const ClockReading& now,
                                               std::uint64_t days_back, std::uint64_t limit);

struct NoteFile {
  std::string theme;
  std::string path;              // memory/<theme>/YYYY-MM-DD_HH.md
  std::string timestamp;         // YYYY-MM-DDTHH:00:00
  std::int64_t hour_millis = 0;  // naive_millis of its hour
};
// §8 read-theme: the theme's notes of the last `hours_back` hours, descending.
[[nodiscard]] std::vector<NoteFile> select_notes(const TiersTree& tree, std::string_view theme,
                                                 const ClockReading& now, std::uint64_t hours_back,
                                                 std::uint64_t limit);
// §8 session-init: the newest note per theme within `hours_back`, by timestamp descending then
// theme, at most `limit`.
[[nodiscard]] std::vector<NoteFile> recent_notes(const TiersTree& tree, const ClockReading& now,
                                                 std::uint64_t hours_back, std::uint64_t limit);
// §11: the notes older than now - days × 24 h, by path.
[[nodiscard]] std::vector<NoteFile> archive_candidates(const TiersTree& tree,
                                                       const ClockReading& now, std::uint64_t days);
// §8 list-themes: the theme folders, and the names that are no theme (for a WARNING).
[[nodiscard]] std::vector<std::string> theme_names(const TiersTree& tree,
                                                   std::vector<std::string>* not_themes = nullptr);

// The preview of a note (§8): stripped, CRLF and LF as spaces, at most 160 code points.
[[nodiscard]] std::string note_preview(std::string_view content);
// The first `n` code points of `bytes` (ill-formed sequences read as U+FFFD).
[[nodiscard]] std::string first_code_points(std::string_view bytes, std::size_t n);

// ---- §8: session-init's context under a token budget -------------------------------------------

struct ContextItem {
  std::string kind;  // "global", "theme", "log"
  std::string name;  // the section, theme or date
  std::string path;
  std::string text;  // stripped
  std::uint64_t tokens = 0;
};
struct Context {
  std::string text;
  std::uint64_t tokens_used = 0;
  std::vector<ContextItem> dropped;
  bool over_budget = false;  // Active Mission alone exceeds the budget (MK-TIERS-030)
};
// `files` holds global.md and each file named by `themes` and `logs` (newest first).
[[nodiscard]] Context assemble_context(const Snapshot& files, const std::vector<NoteFile>& themes,
                                       const std::vector<LogFile>& logs, std::uint64_t max_tokens);

// ---- §10: CSV ---------------------------------------------------------------------------------

struct CsvRecord {
  std::vector<std::string> fields;  // none past CsvScan::fields_of
  std::size_t end = 0;  // offset just past the record's line break (or the end of the bytes)
};
struct CsvParse {
  std::vector<CsvRecord> records;
  std::optional<std::uint32_t> unterminated_line;  // the line of an unterminated quoted field
};
// How much of the CSV a caller needs: the manifest needs the header's fields and a count, --head
// stops after n + 1 records. Every record is still found, so counts and errors stay exact.
struct CsvScan {
  std::size_t fields_of = SIZE_MAX;    // records (from the first) whose fields are kept
  std::size_t max_records = SIZE_MAX;  // stop after this many records
};
// RFC 4180, lenient, as §10 reads it. A record past scan.fields_of has no fields.
[[nodiscard]] CsvParse parse_csv(std::string_view bytes, CsvScan scan = {});

struct DataEntry {
  std::string name;
  std::string updated_at;  // local YYYY-MM-DDTHH:MM:SS
  std::optional<std::string> source_label;
  std::optional<std::string> description;
  std::optional<std::vector<std::string>> declared_columns;
  std::vector<std::string> detected_columns;
  std::uint64_t row_count = 0;
  std::uint64_t column_count = 0;
  std::uint64_t size_bytes = 0;
};
// The manifest entry for `csv` stored as `name` (§10): `parsed` needs the first record's fields
// and every record (CsvScan{1}).
[[nodiscard]] DataEntry data_entry(std::string name, std::string_view csv, const CsvParse& parsed,
                                   const ClockReading& now);
// manifest.json with `entry` set: keys sorted, other entries kept as they were. MK-ARG-001 when
// `existing` is not a JSON object.
[[nodiscard]] Result<std::string> manifest_with(const std::optional<std::string_view>& existing,
                                                const DataEntry& entry);
// The manifest's entry for `name` as canonical JSON, or nullopt (also for an unreadable manifest).
[[nodiscard]] std::optional<std::string> manifest_entry(std::string_view manifest,
                                                        std::string_view name);
// §10 read-data --head: the prefix through the end of the nth record, and whether records remain.
[[nodiscard]] std::string csv_head(std::string_view bytes, std::uint64_t n, bool& truncated);

// ---- §9: the writes of one command -------------------------------------------------------------

// The files a command writes, in commit order, with what the data JSON reports.
struct Change {
  std::vector<PlanOperation> operations;  // commit order: L1, L2, L3 (or L1, CSV, manifest)
  std::vector<Finding> findings;          // refusals (nothing is written) and warnings
  [[nodiscard]] bool refused() const noexcept;
};

// The request of each write command, as parsed from its arguments.
struct LogTurn {
  TurnArguments turn;
  std::string content;
};
struct PersistTurn {
  TurnArguments turn;
  std::string raw_content;
  std::optional<std::string> extracted_content;
  std::optional<std::string> theme, templ, title;
  bool promote_global = false;
};
struct WriteTheme {
  TurnArguments turn;
  std::string theme, content;
  std::optional<std::string> templ, title, raw_content;
  bool promote_global = false;
};
struct WriteGlobal {
  TurnArguments turn;
  std::string content;
  std::optional<std::string> raw_content;
  bool replace = false;
};
struct WriteData {
  TurnArguments turn;
  std::string name;
  std::string csv;  // the content to store (from --csv-content or --source-file)
  std::optional<std::string> description, source_label, columns_json, raw_content;
  bool replace = false;
};

// What each write did, for its data JSON; paths relative to the workspace.
struct Written {
  std::string l1_path;
  std::optional<std::string> l2_path;  // persist-turn, write-theme
  std::optional<std::string> theme;
  bool global_updated = false;
  std::optional<std::string> backup_path;   // write-global --replace of an existing file
  std::optional<std::string> data_path;     // write-data
  std::optional<DataEntry> manifest_entry;  // write-data
};

// `files` holds each file the command may change: today's L1 file, the note's L2 file, global.md,
// the data file and manifest.json (missing ones as missing entries), and for write-global
// --replace the archive names it may take.
[[nodiscard]] Change plan_log_turn(const Snapshot& files, const LogTurn& request,
                                   const ClockReading& now, Written& written);
[[nodiscard]] Change plan_persist_turn(const Snapshot& files, const PersistTurn& request,
                                       const ClockReading& now, Written& written);
[[nodiscard]] Change plan_write_theme(const Snapshot& files, const WriteTheme& request,
                                      const ClockReading& now, Written& written);
[[nodiscard]] Change plan_write_global(const Snapshot& files, const WriteGlobal& request,
                                       const ClockReading& now, Written& written);
[[nodiscard]] Change plan_write_data(const Snapshot& files, const WriteData& request,
                                     const ClockReading& now, Written& written);
// session-init's SESSION_INIT entry.
[[nodiscard]] Change plan_session_entry(const Snapshot& files,
                                        const std::optional<std::string>& session_id,
                                        const ClockReading& now, Written& written);

// The name write-global --replace keeps the old global.md under: memory/archive/global/
// global-<YYYYMMDDTHHMMSS>.md, then -2, -3, ... while `taken` says a name exists.
[[nodiscard]] std::string global_backup_path(const ClockReading& now,
                                             const std::function<bool(const std::string&)>& taken);

// §11: the plan moving `candidates` (their bytes in `files`, with each archive name) to
// memory/archive/<theme>/; MK-TIERS-020 for an archive name holding other bytes.
struct ArchivePlan {
  std::vector<NoteFile> candidates;
  std::optional<Plan> plan;  // none when there is nothing to move
  std::vector<Finding> findings;
};
[[nodiscard]] ArchivePlan plan_archive_themes(const Snapshot& files,
                                              std::vector<NoteFile> candidates, std::uint64_t days);
[[nodiscard]] std::string archive_path_of(const NoteFile& note);

// ---- what the read commands return (their data JSON is src/json's) ---------------------------

struct LogRead {
  LogFile file;
  std::uint64_t size = 0;              // bytes
  std::optional<std::string> content;  // read-logs only
};
struct NoteRead {
  NoteFile note;
  std::string content;  // read-theme: the file; session-init: the preview
};
struct SessionInitData {
  bool global_exists = false;
  std::string global_excerpt;
  std::vector<LogRead> recent_logs;
  std::vector<NoteRead> recent_themes;  // content is the preview
  std::uint64_t l2_archive_due = 0;
  std::optional<std::string> log_path;  // when SESSION_INIT was logged
  std::optional<Context> context;       // with --max-tokens
  std::uint64_t tokens_limit = 0;
};
struct GlobalRead {
  bool exists = false;
  std::string content;
  std::vector<ReadOrderItem> order;
};
struct DataFile {
  std::string name;
  std::uint64_t size = 0;
  std::optional<std::string> metadata;  // the manifest entry as canonical JSON
  std::string content;                  // read-data only
  bool truncated = false;
};

}  // namespace memkit::tiers
