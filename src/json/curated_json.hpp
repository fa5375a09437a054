// The data JSON of the `memkit curated` commands (spec curated.md §6-§10): canonical JSON, the
// bytes every front end returns. Each function names the command whose `data` it makes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/floors.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/curated/story.hpp"
#include "memkit/curated/write.hpp"

namespace memkit {

// ---- writes (§6, §7, §10) -----------------------------------------------------------------------

// `add`: {workspace, dry_run, files, result, name, action, type, class, memory_status, initiative,
// description, updated_at}, plus `entry` in a dry run. REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_add_json(std::string_view workspace, bool dry_run,
                                           const curated::Write& write);

// `append` and `edit` (§6 lists no further keys for them, so these follow `restore`):
// {workspace, dry_run, files, result, name, updated_at}, plus `entry` in a dry run.
// REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_append_json(std::string_view workspace, bool dry_run,
                                              const curated::Write& write);
[[nodiscard]] std::string curated_edit_json(std::string_view workspace, bool dry_run,
                                            const curated::Write& write);

// `reclassify`: {workspace, dry_run, files, result, name, class, memory_status, updated_at}, plus
// `entry` in a dry run. REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_reclassify_json(std::string_view workspace, bool dry_run,
                                                  const curated::Write& write);

// `link` and `unlink` (`remove`): {workspace, dry_run, files, op, src, dst, kind, result,
// created_at}; created_at null when unlink found no link. REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_link_json(std::string_view workspace, bool dry_run,
                                            const curated::Write& write, bool remove,
                                            std::string_view src, std::string_view dst,
                                            std::string_view kind);

// `delete`: {workspace, dry_run, files, name, mode ("soft" or "hard"), result, deleted_at (null
// for hard)}, plus `entry` in a soft delete's dry run. REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_delete_json(std::string_view workspace, bool dry_run,
                                              const curated::Write& write, std::string_view name,
                                              bool hard);

// `restore`: {workspace, dry_run, files, name, result, updated_at}, plus `entry` in a dry run.
// REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_restore_json(std::string_view workspace, bool dry_run,
                                               const curated::Write& write);

// `checkpoint` (§10): {status ("applied" or "rejected"), workspace, operations, updated_at (`now`
// unless rejected, then null), dry_run, files ([] when rejected)}, plus `entries` in a dry run
// that is not rejected.
[[nodiscard]] std::string curated_checkpoint_json(std::string_view workspace, bool dry_run,
                                                  const curated::Checkpoint& checkpoint,
                                                  std::string_view now);

// `batch --file` (§10): one JSON array of operation objects, read before anything is written.
// Each object holds "op" (add, append, edit, reclassify, link, unlink or delete) and that command's
// arguments named like its options without "--", with "_" for "-": the positionals as "name"
// (append, reclassify, delete) or "src" and "dst" (link, unlink). Every value is a string, except
// delete's "hard" and "yes", which are booleans. A key the op does not take, a missing required
// key (add: name, type, body; append: name, body; edit: name, field, content; reclassify: name;
// link and unlink: src, dst, kind; delete: name), a key given twice, another JSON type, invalid
// JSON or UTF-8 make the file malformed.
struct CuratedBatchArgument {
  std::string key;  // "name", "project_ref", ...
  std::string value;
};
struct CuratedBatchItem {
  std::string op;
  std::vector<CuratedBatchArgument> arguments;  // the string values, in file order
  bool hard = false;
  bool yes = false;
};
struct CuratedBatch {
  std::vector<CuratedBatchItem> items;
  std::string problem;  // non-empty: the file is malformed (what is wrong, for MK-ARG-001)
};
[[nodiscard]] CuratedBatch parse_curated_batch(std::string_view text);

// One operation's outcome: result "applied", "unchanged" or "failed" (then `error`, the code of
// its first BLOCKER or ERROR finding).
struct CuratedBatchResult {
  std::size_t index = 0;  // 0-based, in file order
  std::string op;
  std::string name;  // the row; for link and unlink the src
  std::string result;
  std::string error;  // empty unless failed
  std::vector<std::string> files;
};
// `batch`: {workspace, dry_run (false), files (every path written by any operation, sorted
// bytewise, once), results: [{index, op, name, result, error?}]}.
[[nodiscard]] std::string curated_batch_json(std::string_view workspace,
                                             const std::vector<CuratedBatchResult>& results);

// ---- reads (§8, §10) ----------------------------------------------------------------------------

// `get-relevant`, digest mode: {workspace, items: [{name, type, initiative, memory_status,
// section: "digest", description, pending_count}], block, overflow_initiatives}.
[[nodiscard]] std::string curated_digest_json(std::string_view workspace,
                                              const curated::Digest& digest);

// `get-relevant --initiative K`: {workspace, items: [{name, type, initiative, class,
// memory_status, section: "initiative", description, body}], block, overflow: 0}; `key` is the
// normalised key asked for ("_none" for the null bucket), `description` verbatim or "".
[[nodiscard]] std::string curated_initiative_json(std::string_view workspace, std::string_view key,
                                                  const curated::InitiativeRows& rows);

// `kernel`: {workspace, items: [{name, type, audience, description}], block}.
[[nodiscard]] std::string curated_kernel_json(std::string_view workspace,
                                              const curated::Kernel& kernel);

// `show`: the row view plus the six telemetry values; `links` {out: [{kind, dst, created_at}],
// in: [{kind, src, created_at}]} and `history` (the records as in history.jsonl) when asked.
struct CuratedShow {
  const curated::Row* row = nullptr;
  curated::ReadCounters counters;
  std::optional<std::vector<curated::LineageEdge>> links_out;  // --links: sorted (kind, dst)
  std::optional<std::vector<curated::LineageEdge>> links_in;   // --links: sorted (kind, src)
  std::optional<std::vector<curated::HistoryRecord>> history;  // --history: file order
};
[[nodiscard]] std::string curated_show_json(std::string_view workspace, const CuratedShow& show);

// `list`: {workspace, items, count}; each item the row view without `body` plus the six values.
struct CuratedListItem {
  const curated::Row* row = nullptr;
  curated::ReadCounters counters;
};
[[nodiscard]] std::string curated_list_json(std::string_view workspace,
                                            const std::vector<CuratedListItem>& items);

// `search`: {workspace, query, scope, results: [{name, type, class, memory_status, description,
// rank, snippet}], episodes: [{episode_id, ts, title, rank}]}; `description` null when absent.
[[nodiscard]] std::string curated_search_json(std::string_view workspace, std::string_view query,
                                              std::string_view scope,
                                              const std::vector<curated::SearchHit>& results,
                                              const std::vector<curated::EpisodeHit>& episodes);

// `stats` (§8), made by the command; this only spells it.
struct CuratedTopRow {
  std::string name;
  curated::Axis axis;  // {count, last_at}
};
struct CuratedAxisStats {
  std::uint64_t total = 0;         // reads.<axis>
  std::vector<CuratedTopRow> top;  // top.<axis>: count descending, then name, at most 10
};
struct CuratedFloorSize {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
};
struct CuratedStats {
  std::uint64_t rows = 0;  // live
  std::uint64_t deleted = 0;
  std::map<std::string, std::uint64_t> by_type;    // every type, live rows
  std::map<std::string, std::uint64_t> by_class;   // every class, live rows
  std::map<std::string, std::uint64_t> by_status;  // every status and "none", live threads
  std::uint64_t live_pending = 0;
  std::uint64_t links = 0;  // Link: lines on live rows
  CuratedAxisStats deliberate;
  CuratedAxisStats injection;
  CuratedAxisStats kernel;
  CuratedFloorSize events;  // store-wide
  CuratedFloorSize episodes;
};
[[nodiscard]] std::string curated_stats_json(std::string_view workspace, const CuratedStats& stats);

// `conflicts`: {workspace, threshold_permille, pairs: [{a, b, similarity_permille, shared,
// union}]}. Canonical JSON has no floats: the threshold and each Jaccard similarity are in
// thousandths (the similarity rounded down), and `shared` / `union` give it exactly.
struct CuratedConflict {
  std::string a;  // a < b, bytewise
  std::string b;
  std::uint64_t shared = 0;      // terms in both bodies
  std::uint64_t union_size = 0;  // terms in either body
  std::uint64_t permille = 0;    // floor(1000 * shared / union)
};
[[nodiscard]] std::string curated_conflicts_json(std::string_view workspace,
                                                 std::uint64_t threshold_permille,
                                                 const std::vector<CuratedConflict>& pairs);

// `lineage`: {workspace, seed, nodes: [{name, depth, role}], edges: [{src, dst, kind,
// created_at}]}.
[[nodiscard]] std::string curated_lineage_json(std::string_view workspace,
                                               const curated::Lineage& lineage);

// `story`: {workspace, seed, nodes, edges, timeline: [{ts, kind, node, from, to, detail}
// (+ approximate on a birth)], final_states: [{name, class, status, type, deleted, deleted_at,
// present, role}]}.
[[nodiscard]] std::string curated_story_json(std::string_view workspace,
                                             const curated::Story& story);

// ---- floors and telemetry (§9, §10) -------------------------------------------------------------

class Plan;

// `event add`, `episode add` and `episode show`: {workspace, path, record}; `path` is the day file
// and `record` the line's JSON object (`line`: canonical JSON, with or without its LF).
[[nodiscard]] std::string curated_floor_record_json(std::string_view workspace,
                                                    std::string_view path, std::string_view line);

// `floors prune`: {workspace, files, applied, plan}; `files` are the day files the plan removes,
// sorted; `plan` is null when nothing is past retention.
[[nodiscard]] std::string curated_floors_prune_json(std::string_view workspace,
                                                    const std::vector<std::string>& files,
                                                    const Plan* plan, bool applied);

// `telemetry compact`: {workspace, before, folded, kept, files, applied, plan}; `before` as RFC
// 3339 UTC with milliseconds, `folded` and `kept` the access.jsonl lines moved into the snapshot
// and left in the log, `files` the paths the plan writes, sorted; `plan` null when nothing folds.
[[nodiscard]] std::string curated_telemetry_compact_json(std::string_view workspace,
                                                         std::string_view before,
                                                         std::uint64_t folded, std::uint64_t kept,
                                                         const Plan* plan, bool applied);

}  // namespace memkit
