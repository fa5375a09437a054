// The human views of each result (spec README.md: text is not a stable contract). Tables are
// aligned; colour is used only when stdout is a terminal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "apply/apply.hpp"
#include "json/json.hpp"
#include "memkit/audit.hpp"
#include "memkit/compact.hpp"
#include "memkit/findings.hpp"
#include "memkit/forget.hpp"
#include "memkit/markdown.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/memorybox/moves.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memkit/plan.hpp"
#include "memkit/undo.hpp"
#include "store/agent_root.hpp"
#include "store/workspace.hpp"

namespace memkit::view {

struct Style {
  bool colour = false;
};

[[nodiscard]] std::string status_text(const StatusReport& report, Style style);
[[nodiscard]] std::string check_text(const CheckReport& report, Style style);
[[nodiscard]] std::string memorybox_status_text(const memorybox::Report& status, Style style);
[[nodiscard]] std::string memorybox_init_text(const MemoryBoxInit& init);
[[nodiscard]] std::string memorybox_hygiene_text(const memorybox::Hygiene& hygiene, Style style);
[[nodiscard]] std::string memorybox_decay_text(const memorybox::DecayReport& report, Style style);
[[nodiscard]] std::string init_text(const InitResult& result);
[[nodiscard]] std::string plan_text(const Plan& plan);
[[nodiscard]] std::string recovery_text(const Recovery& recovery);
[[nodiscard]] std::string forget_text(const ForgetPlanning& forget, bool applied,
                                      const std::vector<std::string>& written);
[[nodiscard]] std::string undo_text(const UndoPlanning& undo, bool applied,
                                    const std::vector<std::string>& written);
[[nodiscard]] std::string target_compaction_text(const TargetCompaction& report, bool applied,
                                                 const std::vector<std::string>& written);
// Streamed: the candidates of a large inbox outweigh the inbox. The counts and the plan (its ID)
// come first, then the candidates, at most `limit` of them and a line counting the rest.
void write_compaction_text(const InboxCompaction& report, bool applied,
                           const std::vector<std::string>& written, const TextSink& sink,
                           std::optional<std::uint64_t> limit = std::nullopt);
[[nodiscard]] std::string units_text(const Document& doc, Style style);
[[nodiscard]] std::string findings_text(const std::vector<Finding>& findings, Style style);

// compaction.md §12.2's view of a MemoryBox plan (its budget results in lines), what was written,
// or "Nothing to apply." without a plan.
[[nodiscard]] std::string memorybox_plan_outcome(const std::optional<Plan>& plan, bool applied,
                                                 const std::vector<std::string>& written);

// memorybox.md §7 `compact`: the rules, the plan (its budget results in lines) or what was
// written, then what moves where: at most `limit` actions and a line counting the rest. The moves
// of one entry (§6 `--resolve archive`, §11 `promote`): what moves where, then the plan.
[[nodiscard]] std::string memorybox_compact_text(const memorybox::Compaction& compaction,
                                                 bool applied,
                                                 const std::vector<std::string>& written,
                                                 Style style,
                                                 std::optional<std::uint64_t> limit = std::nullopt);
[[nodiscard]] std::string memorybox_move_text(const memorybox::EntryMove& move, bool applied,
                                              const std::vector<std::string>& written);

// memorybox.md §9 `sync pull|push|status|resolve`.
[[nodiscard]] std::string memorybox_sync_pull_text(const memorybox::PullPlanning& pull,
                                                   std::uint64_t pulled, bool applied);
[[nodiscard]] std::string memorybox_sync_push_text(const memorybox::PushReport& report);
[[nodiscard]] std::string memorybox_sync_status_text(const memorybox::SyncStatus& status);
[[nodiscard]] std::string memorybox_sync_resolve_text(std::string_view id, std::string_view take,
                                                      const memorybox::Resolution& resolution);

// Lays out rows under a header with every column padded to its widest cell.
[[nodiscard]] std::string table_text(const std::vector<std::vector<std::string>>& rows,
                                     Style style);

}  // namespace memkit::view
