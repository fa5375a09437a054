// The one JSON output contract (spec README.md "Result envelope"; compaction.md §12.1 canonical
// encoding). The CLI prints these bytes, and the C API and every binding return the same bytes,
// so no front end can drift.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/add.hpp"
#include "memkit/audit.hpp"
#include "memkit/bench.hpp"
#include "memkit/compact.hpp"
#include "memkit/findings.hpp"
#include "memkit/forget.hpp"
#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/memorybox/canon.hpp"
#include "memkit/memorybox/clients.hpp"
#include "memkit/memorybox/gate.hpp"
#include "memkit/memorybox/log.hpp"
#include "memkit/memorybox/moves.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memkit/plan.hpp"
#include "memkit/tiers.hpp"
#include "memkit/undo.hpp"

namespace memkit {

// Receives streamed output as consecutive pieces; the writers below call it with pieces of
// about 64 KiB, so a result larger than memory can go straight to a file or a pipe.
using TextSink = std::function<void(std::string_view)>;

// Writes a result's data (canonical JSON) to a sink.
using JsonWriter = std::function<void(const TextSink&)>;

// {"command","data","exit_class","findings","output_schema_version":1,"status"} on one line.
// REQUIRES: data_json is canonical JSON (one of the *_json functions below, or "{}").
[[nodiscard]] std::string envelope_json(std::string_view command, std::string_view data_json,
                                        const std::vector<Finding>& findings);

// The same envelope, streamed, with `data` written in place by `write_data`.
void write_envelope_json(std::string_view command, const JsonWriter& write_data,
                         const std::vector<Finding>& findings, const TextSink& sink);

// `markdown units` data (§6.4): {"sections":[...],"units":[...]}, both null when unparseable.
[[nodiscard]] std::string document_json(const Document& doc);

[[nodiscard]] std::string status_json(const StatusReport& report);
[[nodiscard]] std::string check_json(const CheckReport& report);
[[nodiscard]] std::string init_json(const InitResult& result);

// `custodian compact --target` data (§9).
[[nodiscard]] std::string target_compaction_json(const TargetCompaction& report, bool applied,
                                                 const std::vector<std::string>& written);

// `custodian forget` data (§14); in hard and purge nothing in it names the topic.
[[nodiscard]] std::string forget_json(const ForgetPlanning& forget, bool applied,
                                      const std::vector<std::string>& written);

// `custodian add` data (§13).
[[nodiscard]] std::string add_json(const AddPlanning& add, const std::vector<std::string>& written);

// `custodian undo` data (§12.6).
[[nodiscard]] std::string undo_json(const UndoPlanning& undo, bool applied,
                                    const std::vector<std::string>& written);

// `custodian recover` data (§12.5).
[[nodiscard]] std::string recovery_json(const Recovery& recovery);

// data.plan (§12.2): {"budget_results","operations","plan_id","sensitive"}; a sensitive plan's
// operations carry no digests.
[[nodiscard]] std::string plan_json(const Plan& plan);

// `custodian compact` data in inbox mode (§8); `written` lists the paths an apply wrote.
[[nodiscard]] std::string inbox_compaction_json(const InboxCompaction& report, bool applied,
                                                const std::vector<std::string>& written);

// The same, streamed: an inbox's candidates can outweigh the inbox itself. With `limit`, only the
// first `limit` candidates are listed (their number is still inbox_items - empty_items -
// duplicates - tombstone_matches).
void write_inbox_compaction_json(const InboxCompaction& report, bool applied,
                                 const std::vector<std::string>& written, const TextSink& sink,
                                 std::optional<std::uint64_t> limit = std::nullopt);

// `memorybox status` data (memorybox.md §2): {"bloat_due","tiers"}.
[[nodiscard]] std::string memorybox_status_json(const memorybox::Report& status);

// `memorybox decay` data (memorybox.md §6): {"entries","unscored"}; confidences in hundredths.
[[nodiscard]] std::string memorybox_decay_json(const memorybox::DecayReport& report);

// `memorybox load` data (memorybox.md §11): {"files":[{content, lines, path, tier}]}.
[[nodiscard]] std::string memorybox_load_json(const std::vector<memorybox::LoadedFile>& files);

// `memorybox update` data (memorybox.md §11): {"after","before","entry_id","written"}, each state
// {band, effective, review, stored, verified} with confidences in hundredths.
[[nodiscard]] std::string memorybox_update_json(const memorybox::UpdatePlanning& update,
                                                const std::vector<std::string>& written);

// `memorybox log` data: {"daily_entry_id","daily_file","daily_text","session_entry_id",
// "session_text","written"}.
[[nodiscard]] std::string memorybox_log_json(const memorybox::SessionLog& log,
                                             const std::vector<std::string>& written);

// `memorybox hygiene` data (memorybox.md §8): {"items","orphans"}.
[[nodiscard]] std::string memorybox_hygiene_json(const memorybox::Hygiene& hygiene);

// `memorybox init` data (memorybox.md §11): {"created"}.
[[nodiscard]] std::string memorybox_init_json(const MemoryBoxInit& init);

// `memorybox gate` data (memorybox.md §4): {"applied","budget","category","entry_id",
// "entry_text","file","gates","near_duplicates","outcome","stopped_at","tier","written"}.
[[nodiscard]] std::string memorybox_gate_json(const memorybox::GateVerdict& verdict, bool applied,
                                              const std::vector<std::string>& written);

// `memorybox canon add|verify` data (memorybox.md §10): {"ledger","unrecorded","violations",
// "written"}.
[[nodiscard]] std::string memorybox_canon_json(const memorybox::CanonCheck& check,
                                               const std::vector<std::string>& written);

// A gate's question to a host outside C++ (the C ABI's judge callback): {"candidate",
// "categories","category","category_entries","gate","near_duplicates"}.
[[nodiscard]] std::string memorybox_gate_question_json(const memorybox::GateQuestion& question);

// `memorybox sync pull` data (memorybox.md §9): {"applied","items","needs_confirmation",
// "open_conflicts","plan","pulled","unchanged","workspace_id","written"}; items are
// {"action","file","id","rule","table"}, one per pulled record that was not unchanged.
[[nodiscard]] std::string memorybox_sync_pull_json(const memorybox::PullPlanning& pull,
                                                   const std::string& workspace_id,
                                                   std::uint64_t pulled, bool applied,
                                                   const std::vector<std::string>& written);
// `memorybox sync push` data: {"assigned","held","last_push_at","last_push_ok","refused","sent",
// "workspace_id"}; refused are {"id","reason","table"}.
[[nodiscard]] std::string memorybox_sync_push_json(const memorybox::PushReport& push);
// `memorybox sync status` data: {"last_pull_at","last_push_at","last_push_ok","open_conflicts",
// "pending_pull","pending_push","workspace_id"}.
[[nodiscard]] std::string memorybox_sync_status_json(const memorybox::SyncStatus& status);
// `memorybox sync resolve` data: {"file","id","plan","take","written"}.
[[nodiscard]] std::string memorybox_sync_resolve_json(const memorybox::Resolution& resolution,
                                                      const std::vector<std::string>& written);

// `bench compaction` data (docs/benchmarks.md): {"command":"compaction","runs","sizes":[{"size",
// "bytes","items","rounds","plan_id","peak_rss_kib","phases":[{"phase","wall_us":{"median","min",
// "max"},"cpu_us","page_faults","bytes_per_second"}]}]}.
[[nodiscard]] std::string bench_compaction_json(const bench::CompactionFigures& figures);
// `bench recall` data (docs/benchmarks.md): {"command":"recall","input","synthetic_entries","runs",
// "files","units","memory_bytes","index_bytes","packs","peak_rss_kib","build":{"wall_us":{"median",
// "min","max"},"cpu_us","page_faults","bytes_per_second"},"updates":[{"change","file","wall_us",
// "cpu_us","page_faults","packs_kept","packs_built","files_read"}],"queries":{"count","limit",
// "latency_us":{"p50","p90","p99","max"},"queries_per_second","cold":{"queries","wall_us",...}}}.
[[nodiscard]] std::string bench_recall_json(const bench::RecallFigures& figures);

// `memorybox compact` data (memorybox.md §7): {"actions","actions_total","applied","plan","rules",
// "written"}, at most `limit` actions.
[[nodiscard]] std::string memorybox_compact_json(const memorybox::Compaction& compaction,
                                                 bool applied,
                                                 const std::vector<std::string>& written,
                                                 std::optional<std::uint64_t> limit = std::nullopt);

// `memorybox promote` data (memorybox.md §11): {"applied","plan","written"}.
[[nodiscard]] std::string memorybox_promote_json(const memorybox::EntryMove& move, bool applied,
                                                 const std::vector<std::string>& written);

// `memorybox update --resolve archive` data (memorybox.md §11): {"after","applied","before",
// "entry_id","plan","written"}; the entry moves verbatim, so "after" is "before".
[[nodiscard]] std::string memorybox_resolve_archive_json(const memorybox::EntryMove& move,
                                                         bool applied,
                                                         const std::vector<std::string>& written);

// `memorybox client set` data (memorybox.md §11): {"applied","client","from","plan","to",
// "written"}.
[[nodiscard]] std::string memorybox_client_set_json(const memorybox::ClientSet& set, bool applied,
                                                    const std::vector<std::string>& written);

// The data of the `tiers` commands (tiers3.md §8): the reference script's keys, paths relative to
// the workspace. `tiers init`: {"created"}.
[[nodiscard]] std::string tiers_init_json(const std::vector<std::string>& created);
// log-turn {"path"}; persist-turn {"global_path","global_updated","l1_path","l1_written",
// "l2_path","l2_written","theme"}; write-theme {"global_path","global_updated","l1_path",
// "l1_written","path","theme"}; write-global {"backup_path","l1_path","l1_written","mode","path"};
// write-data {"data_path","l1_path","l1_written","manifest_entry"}. `command` is the bare name.
[[nodiscard]] std::string tiers_write_json(std::string_view command, const tiers::Written& written,
                                           bool replace = false);
[[nodiscard]] std::string tiers_session_init_json(const tiers::SessionInitData& data);
[[nodiscard]] std::string tiers_logs_json(const std::vector<tiers::LogRead>& logs);  // {"logs"}
[[nodiscard]] std::string tiers_theme_json(
    const std::vector<tiers::NoteRead>& notes);  // {"memories"}
// {"content","exists","path","read_order"}
[[nodiscard]] std::string tiers_global_json(const tiers::GlobalRead& global);
[[nodiscard]] std::string tiers_themes_json(const std::vector<std::string>& themes);  // {"themes"}
// {"data":{content,metadata,name,path,size,truncated}}
[[nodiscard]] std::string tiers_data_json(const tiers::DataFile& file);
// {"data_files":[{metadata?,name,path,size}]}
[[nodiscard]] std::string tiers_data_list_json(const std::vector<tiers::DataFile>& files);
// {"applied","candidates","plan","written"}
[[nodiscard]] std::string tiers_archive_json(const tiers::ArchivePlan& archive, bool applied,
                                             const std::vector<std::string>& written);
[[nodiscard]] std::string tiers_template_json(tiers::Template t);  // {"text"}

// Encodes a string as a canonical JSON string literal; ill-formed UTF-8 reads as U+FFFD.
[[nodiscard]] std::string json_string(std::string_view text);

}  // namespace memkit
