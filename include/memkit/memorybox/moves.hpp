// The MemoryBox commands that move entries (spec memorybox.md §6 `--resolve archive`, §7 bloat
// prevention, §11 `promote`): pure planners from what the shell read to a Plan whose apply moves
// entries verbatim into archive files (or, for promote, into SOP_LIBRARY.md). Nothing is erased:
// every entry a plan takes out of a file lands, byte for byte, in the file the plan names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"

namespace memkit::memorybox {

// §7 "Archive files": the lower-case stem of the archive that collects entries of `source_path`
// ("sessions" for SESSION_LOG.md, "tasks" for ACTIVE_TASKS.md, "daily" for memory/daily/...,
// else the file name without ".md", ASCII lower-cased).
[[nodiscard]] std::string archive_stem(std::string_view source_path);

// "memory/ARCHIVES/<stem>-YYYY-MM.md" for entries of `source_path` archived under `month`.
[[nodiscard]] std::string archive_path(std::string_view source_path, const CivilDate& month);

// How an archive file orders what it collects (§7 "Archive files").
enum class ArchiveLayout : std::uint8_t {
  sessions,  // session entries in chronological order
  daily,     // "## YYYY-MM-DD", an empty line and the day's bytes, in date order
  appended,  // entries appended in their source order
};

// One entry on its way into an archive file.
struct ArchivedEntry {
  // The entry's bytes from its first line to its last non-blank line, as in its source; for a
  // daily file, the file's bytes after the BOM to its last non-blank line.
  std::string_view bytes;
  CivilDate date{};  // sessions and daily layouts: the order key
};

// §7 "Archive files" with compaction.md §10 step 1: the splices that add `entries` to the archive
// `existing` (nullptr: a new file). The text before the archive's first entry becomes the
// canonical preamble naming `source_label` ("memory/SESSION_LOG.md", "memory/daily/"), or keeps
// the existing text after it when that text is not memkit's own. Generated lines use the
// archive's terminator style, or `new_terminator` for a new file; moved bytes stay as they are,
// and a moved last line without a terminator gets one.
// REQUIRES: existing is parseable; entries in source order.
[[nodiscard]] std::vector<Splice> archive_splices(const Document* existing,
                                                  std::string_view source_label,
                                                  ArchiveLayout layout,
                                                  std::span<const ArchivedEntry> entries,
                                                  std::string_view new_terminator);

// §7 Task states: the first line of a task after its marker starts with "[ ] " (open) or
// "[x] " / "[X] " (completed); any other form is not completed.
[[nodiscard]] bool is_completed_task(std::string_view first_line_content) noexcept;

// §7 Task states: the last date token of a line, a valid YYYY-MM-DD whose neighbouring code
// points (where there are any) are not letters or digits (General Category L* or Nd).
[[nodiscard]] std::optional<CivilDate> last_date_token(std::string_view line) noexcept;

// The §7 bloat rules, in the order of its table (and of `status`'s bloat_due).
enum class BloatRule : std::uint8_t { session_log, active_tasks, mistakes, patterns, daily };
[[nodiscard]] std::string_view bloat_rule_name(BloatRule rule) noexcept;  // "session_log", ...
// The file a rule reads: "memory/SESSION_LOG.md", ..., "memory/daily/".
[[nodiscard]] std::string_view bloat_rule_file(BloatRule rule) noexcept;
// The rule `--file F` selects: one of the five files (or "memory/daily"), else nullopt.
[[nodiscard]] std::optional<BloatRule> bloat_rule_of_file(std::string_view file) noexcept;

struct RuleCheck {
  BloatRule rule = BloatRule::session_log;
  std::string file;
  std::uint64_t threshold = 0;
  std::uint64_t value = 0;
  bool breached = false;  // value >= threshold
};

enum class ActionKind : std::uint8_t { move, archive, remove, list };
[[nodiscard]] std::string_view action_kind_name(ActionKind kind) noexcept;  // remove: "delete"

struct CompactAction {
  BloatRule rule = BloatRule::session_log;
  ActionKind kind = ActionKind::move;
  std::string path;    // an entry ID, or a daily file
  std::string detail;  // the archive path, or a review candidate's reason
};

struct CompactRequest {
  std::optional<BloatRule> only;  // --file
  bool force = false;             // --force
};

// `memkit memorybox compact` (§7).
struct Compaction {
  std::vector<RuleCheck> rules;        // every rule evaluated, in table order
  std::vector<CompactAction> actions;  // rule by rule, in table order
  std::optional<Plan> plan;            // nullopt: nothing to write, or a BLOCKER
  std::vector<Finding> findings;       // sorted
};

// The plan's arguments (§7): {"file": the rule's file or "*", "force": "true" | "false"}.
[[nodiscard]] Compaction plan_memorybox_compaction(const Inputs& inputs,
                                                   const CompactRequest& request,
                                                   const ClockReading& now);

// One entry moved by `update --resolve archive` or `promote`.
struct EntryMove {
  std::string entry_id;
  std::string path;         // the entry's file
  std::string destination;  // the archive file, or memory/SOP_LIBRARY.md
  ConfidenceState before;   // as `update` reports it
  ConfidenceState after;    // the same: the entry moves verbatim, fields included
  std::optional<Plan> plan;
  std::vector<Finding> findings;  // sorted; a BLOCKER means no plan
};

// `memkit memorybox update --entry ID --resolve archive` (§6): the entry (of a tier 1-4 file)
// goes to memory/ARCHIVES/<stem>-<YYYY-MM of today>.md in its §7 layout and leaves its file by
// compaction.md §7.1; a daily file is archived whole and deleted. Fails with
// Errc::invalid_argument for an ID that names no entry of a tier 1-4 file.
[[nodiscard]] Result<EntryMove> plan_resolve_archive(const Inputs& inputs,
                                                     std::string_view entry_id,
                                                     const ClockReading& now);

// `memkit memorybox promote --entry ID` (§7 PATTERNS, §11): a pattern moves verbatim to the end of
// memory/SOP_LIBRARY.md (compaction.md §7.3 append) and leaves PATTERNS.md by §7.1. Fails with
// Errc::invalid_argument for anything but an entry of memory/PATTERNS.md.
[[nodiscard]] Result<EntryMove> plan_promote(const Inputs& inputs, std::string_view entry_id,
                                             const ClockReading& now);

}  // namespace memkit::memorybox
