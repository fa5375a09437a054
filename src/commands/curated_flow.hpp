// What the `curated` commands share (curated.md §2, §6, §9, §11): the run (store, workspace,
// configuration, actor, clock), the reads of rows, history and telemetry, the recording of
// counted reads, and the one write flow. Internal to src/commands: curated.cpp dispatches,
// curated_writes.cpp, curated_reads.cpp and curated_floors.cpp hold the commands.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands/flow.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/config.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/write.hpp"
#include "store/curated_store.hpp"

namespace memkit::commands_detail {

struct CuratedRun {
  const CommandRequest& inv;
  const CommandEnvironment& env;
  ClockReading now;
  std::string ts;  // now as RFC 3339 UTC with milliseconds, every timestamp the command writes
  CuratedStore& store;
  std::string workspace;             // checked: a workspace name (§2)
  curated::Config config;            // config.json, or the defaults
  std::optional<std::string> actor;  // --actor, else MEMKIT_ACTOR; none: the human owner
  CommandReply& reply;
  // Within a batch (§10): run_write plans over the writes staged so far and stages its own.
  curated::StagedWrites* staged = nullptr;

  [[nodiscard]] curated::WriteContext context() const {
    return curated::WriteContext{.workspace = workspace,
                                 .now = ts,
                                 .actor = actor,
                                 .parsed = staged != nullptr ? &staged->parsed() : nullptr};
  }
};

// A fatal finding without a place (MK-ARG-001 and the like).
void curated_refuse(CuratedRun& run, std::string code, std::string message);

// A failed Status as a finding: a link below the store is MK-IO-002 BLOCKER (§2), the rest as
// finding_from() makes them.
[[nodiscard]] Finding curated_finding(const Status& status);

// Adds curated_finding(status) to the reply when it failed; true when failed.
bool curated_failed(CuratedRun& run, const Status& status);

// §11 the writer boundary: true when the actor may write; otherwise MK-CUR-002 ERROR, whose
// remediation says how a proposer gets the write made.
[[nodiscard]] bool writer_allowed(CuratedRun& run, std::string_view remediation);

// The positional arguments: exactly `count`, else MK-ARG-001 naming `usage` ("show <name>").
[[nodiscard]] bool positionals(CuratedRun& run, std::size_t count, std::string_view usage);

// The value of a required option, or MK-ARG-001.
[[nodiscard]] std::optional<std::string> curated_required(CuratedRun& run, std::string_view name);

// A non-negative integer option, or `fallback` when absent; MK-ARG-001 when it is not one.
[[nodiscard]] std::optional<std::uint64_t> curated_count(CuratedRun& run, std::string_view name,
                                                         std::uint64_t fallback);

// Text given inline (`inline_option`) or by file (`file_option`, "-" for standard input; a path
// relative to the current directory; it is only read). Exactly one of them when `required`,
// at most one otherwise; nullopt with a finding when that fails, or when neither is given.
[[nodiscard]] std::optional<std::string> text_argument(CuratedRun& run,
                                                       std::string_view inline_option,
                                                       std::string_view file_option, bool required);

// The bytes of a file named by `option_name` ("-": standard input; a path relative to the current
// directory, only read), or MK-ARG-001.
[[nodiscard]] std::optional<std::string> file_text(CuratedRun& run, std::string_view option_name,
                                                   const std::string& file);

// ---- reads --------------------------------------------------------------------------------------

// The workspace's rows (soft-deleted ones included), from its row files; the files' findings
// (MK-CUR-004 ERROR, MK-CUR-030 WARNING, MK-IO-*) go into the reply.
struct CuratedRows {
  curated::Workspace stored;       // the findings only: its rows are moved into `rows`
  std::vector<curated::Row> rows;  // by name
  [[nodiscard]] const curated::Row* find(std::string_view name) const noexcept;
};
[[nodiscard]] std::optional<CuratedRows> read_rows(CuratedRun& run);

// History records in file order (unparseable lines: MK-PARSE-001 WARNING in the reply).
[[nodiscard]] std::optional<std::vector<curated::HistoryRecord>> read_history(CuratedRun& run);

// The read counters per row, from access-snapshot.json and access.jsonl.
[[nodiscard]] std::optional<curated::Telemetry> read_telemetry(CuratedRun& run);

// The day files of a floor (curated::kEventsDir or kEpisodesDir) as store-relative paths, sorted
// by date; other names are left out. nullopt with a finding on failure.
[[nodiscard]] std::optional<std::vector<std::string>> day_files(CuratedRun& run,
                                                                std::string_view floor_dir);

// §9: appends one access record per name (kind, surface = the bare command) with one write.
// Best effort: a failure, or a link in the way, is MK-CUR-031 WARNING and the read goes on.
void record_reads(CuratedRun& run, curated::ReadKind kind, const std::vector<std::string>& names);

// ---- writes -------------------------------------------------------------------------------------

// The files a write reads (curated::write_inputs), or nullopt with the failure in the reply.
[[nodiscard]] std::optional<Snapshot> read_inputs(CuratedRun& run,
                                                  const curated::WriteInputs& inputs);

// .memkit/lock taken, no unfinished transaction (MK-TXN-001 otherwise), and the files read under
// it; nullopt with the failure in the reply.
struct LockedInputs {
  std::unique_ptr<LockHandle> lock;
  Snapshot files;
};
[[nodiscard]] std::optional<LockedInputs> lock_and_read(CuratedRun& run,
                                                        const curated::WriteInputs& inputs);

// Whether two reads found the very same files, byte for byte: then a plan of the one is the plan
// of the other.
[[nodiscard]] bool same_files(const Snapshot& a, const Snapshot& b);

// One planned write of §6: `plan` is pure and may be called twice (unlocked, then under the lock);
// its last call made the Write returned.
using CuratedPlanner = std::function<curated::Write(const Snapshot&, const curated::WriteContext&)>;

// The write flow. A dry run plans once from the files as they are and writes nothing (no writer
// check: a proposer may ask). Otherwise: the writer boundary (MK-CUR-002), a plan without the lock
// (a refusal writes nothing, not even .memkit/), .memkit/lock, MK-TXN-001 when a transaction is
// unfinished, a plan from the files read under the lock, and the write as one transaction. The
// Write's findings are copied into the reply. nullopt: refused before planning or failed (findings
// in the reply); otherwise the Write (check refused()).
// `purge`: a hard delete, which reads the logs whole (curated::write_inputs). Within a batch
// (run.staged) it plans over the staged files and stages the write instead.
[[nodiscard]] std::optional<curated::Write> run_write(CuratedRun& run, bool dry_run,
                                                      const CuratedPlanner& plan,
                                                      bool purge = false);

// --dry-run was given.
[[nodiscard]] bool is_dry_run(const CuratedRun& run);

// ---- commands (one file per family) -------------------------------------------------------------

void run_curated_add(CuratedRun& run);
void run_curated_append(CuratedRun& run);
void run_curated_edit(CuratedRun& run);
void run_curated_reclassify(CuratedRun& run);
void run_curated_link(CuratedRun& run);  // link and unlink
void run_curated_delete(CuratedRun& run);
void run_curated_restore(CuratedRun& run);
void run_curated_checkpoint(CuratedRun& run);
void run_curated_batch(CuratedRun& run);

void run_curated_get_relevant(CuratedRun& run);
void run_curated_kernel(CuratedRun& run);
void run_curated_show(CuratedRun& run);
void run_curated_list(CuratedRun& run);
void run_curated_search(CuratedRun& run);
void run_curated_stats(CuratedRun& run);
void run_curated_conflicts(CuratedRun& run);
void run_curated_lineage(CuratedRun& run);
void run_curated_story(CuratedRun& run);

void run_curated_event(CuratedRun& run);      // event add
void run_curated_episode(CuratedRun& run);    // episode add | show <id>
void run_curated_floors(CuratedRun& run);     // floors prune
void run_curated_telemetry(CuratedRun& run);  // telemetry compact

}  // namespace memkit::commands_detail
