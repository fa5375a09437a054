// What the command flows share (src/commands): the clock, flags and the first checks every command
// makes, and one entry point per command group. Internal to src/commands.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands/commands.hpp"
#include "commands/text_view.hpp"
#include "files/file_system.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/recall.hpp"
#include "store/agent_root.hpp"

namespace memkit::commands_detail {

// --now, else MEMKIT_NOW, else the environment's clock.
[[nodiscard]] Result<ClockReading> clock_of(const CommandRequest& inv,
                                            const CommandEnvironment& env);

[[nodiscard]] bool has_flag(const CommandRequest& inv, std::string_view flag);

// The bytes of an input a command is given as `option` (--file, --body-file, --source-file):
// standard input for "-", else the file at `file` (relative to the current directory), at most
// kMaxInputBytes. Fails with Errc::invalid_argument naming the option and the file.
[[nodiscard]] Result<std::string> read_input(const CommandEnvironment& env, std::string_view option,
                                             const std::string& file);

// The value of an option, or nullopt when it was not given.
[[nodiscard]] std::optional<std::string> option(const CommandRequest& inv, std::string_view name);

// An option's value as a non-negative decimal integer, or `fallback` when it was not given. Fails
// with Errc::invalid_argument, "NAME: expected a non-negative integer, got 'X'".
[[nodiscard]] Result<std::uint64_t> count_option(const CommandRequest& inv, std::string_view name,
                                                 std::uint64_t fallback);

// How many items of a long list a report shows (compaction.md §8's candidates, memorybox.md §7's
// actions): --limit N in the text and the JSON; otherwise every one, but on a terminal, where the
// text shows kTerminalListItems unless --all. --limit with --all is MK-ARG-001 (in `reply`, and
// nullopt).
inline constexpr std::uint64_t kTerminalListItems = 20;
struct ListLimits {
  std::optional<std::uint64_t> text;
  std::optional<std::uint64_t> json;
};
[[nodiscard]] std::optional<ListLimits> list_limits(const CommandRequest& inv,
                                                    const CommandEnvironment& env,
                                                    CommandReply& reply);

// What every command checks first: no stray positional (unless it takes some), and the clock;
// every command reads it, so a bad --now fails the same way everywhere. On failure the finding is
// in `reply` and the result is nullopt.
[[nodiscard]] std::optional<ClockReading> start_command(const CommandRequest& inv,
                                                        const CommandEnvironment& env,
                                                        CommandReply& reply,
                                                        bool takes_positionals);

// What one plan-making command found, and how to show it (compaction.md §12.3).
struct PlannedRun {
  std::vector<Finding> findings;
  std::optional<Plan> plan;
  std::vector<Finding> gates;                    // apply-time refusals (§9 gate, §14 forget)
  std::function<Status()> after_apply;           // shell work once the plan is written, if any
  std::uint32_t unfinished_transactions = 0;     // what the planner's read of .memkit/txn found
  std::shared_ptr<const InboxCompaction> inbox;  // custodian compact, inbox mode: typed access
  std::function<JsonWriter(bool, const std::vector<std::string>&)> data;
  std::function<TextWriter(bool, const std::vector<std::string>&)> text;
};

// Where a confirmed plan is written: a custodian workspace or a MemoryBox agent root.
struct PlanWriter {
  std::function<Result<std::unique_ptr<LockHandle>>()> lock;
  // Under the lock, before planning again: deals with what a crash left, adding its findings to
  // the reply; false stops the apply. Empty: nothing to do.
  std::function<bool(CommandReply&)> ready;
  std::function<Result<std::vector<std::string>>(const Plan&)> apply;
  std::string recover_hint;  // MK-TXN-001's remediation when the planner found a transaction
};

// §12.3's test of a confirmation, the one every plan-confirmed write makes: nullopt when the plan
// `plan_id` may be written (--confirm-plan named it), else the finding that refuses it: MK-PLAN-002
// without --confirm-plan (`confirmed` nullopt), MK-PLAN-001 when it names another plan.
[[nodiscard]] std::optional<Finding> refuse_unconfirmed(const std::optional<std::string>& confirmed,
                                                        const std::string& plan_id);

// §12.3, shared by every plan-making command: a dry run by default; --apply --confirm-plan ID
// plans again under the lock (plan_now(true)) and writes only when the new plan's ID is the
// confirmed one and no gate refuses.
void run_planned(const CommandRequest& inv, CommandReply& reply, const PlanWriter& writer,
                 const std::function<Result<PlannedRun>(bool under_lock)>& plan_now);

// MK-TXN-001: a write refused because .memkit/txn holds an unfinished transaction; `remediation`
// says how to finish it.
[[nodiscard]] Finding unfinished_transaction(std::string remediation);

// What a crash left in .memkit/txn, before a write under the lock: the transactions of `group`'s
// commands (and prepared ones of any) are finished through `recover`; anything else stops the
// write with MK-TXN-001. Recovery's findings go to `reply`. REQUIRES: the lock is held. Returns
// true iff nothing is left unfinished.
[[nodiscard]] bool finish_transactions(const std::function<Result<Recovery>(bool apply)>& recover,
                                       std::string_view group, CommandReply& reply);

// `recover [--apply [--rollback]]` of a group with a journal (compaction.md §12.5): a listing, or
// under the lock the transactions finished (or rolled back).
void run_recover(const CommandRequest& inv, CommandReply& reply,
                 const std::function<Result<std::unique_ptr<LockHandle>>()>& lock,
                 const std::function<Result<Recovery>(bool apply, bool rollback)>& recover);

// One entry point per group.
void run_custodian(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_memorybox(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_tiers(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_curated(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_search(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
// `memkit bench compaction` (bench.cpp) and `bench recall` (bench_recall.cpp; docs/benchmarks.md):
// the CLI's alone.
void run_bench(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_bench_recall(const CommandRequest& inv, const CommandEnvironment& env,
                      CommandReply& reply);
// `search` over the root that `root_option` names, of one layout only when `only` is set
// (`tiers search`).
void run_search_in(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply,
                   const std::string& root_option, std::optional<recall::Layout> only);
void run_context(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_agent_init(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
// `custodian read`: run_context's compilation over the custodian's memory folder alone.
void run_custodian_read(const CommandRequest& inv, const CommandEnvironment& env,
                        CommandReply& reply);

// One `memorybox` command after the shared start: the clock read, the agent root open and its files
// read. A command that writes under the lock reads the files again there; one that reads them
// itself (memorybox_reads_its_own_files) gets empty `inputs`.
struct MemoryBoxRun {
  const CommandRequest& inv;
  const CommandEnvironment& env;
  ClockReading now;
  AgentRoot& root;
  const memorybox::Inputs& inputs;
  view::Style style;
  CommandReply& reply;
};

// memorybox.md §4: `memorybox gate` (memorybox_gate.cpp).
void run_memorybox_gate(MemoryBoxRun& run);

// memorybox.md §10: `memorybox canon add|verify` (memorybox_canon.cpp).
void run_memorybox_canon(MemoryBoxRun& run);

// The seed's Session End step 1: `memorybox log --text T [--session S]` (memorybox_log.cpp).
void run_memorybox_log(MemoryBoxRun& run);

// memorybox.md §7 `compact`, §11 `promote` and §6 `update --resolve archive`, plan-confirmed
// (memorybox_moves.cpp).
void run_memorybox_compact(MemoryBoxRun& run);
void run_memorybox_promote(MemoryBoxRun& run);
void run_memorybox_resolve_archive(MemoryBoxRun& run);

// The agent root of a run as the writer of confirmed plans: its lock, what a crash left in
// .memkit/txn finished first, AgentRoot::apply (memorybox_moves.cpp).
[[nodiscard]] PlanWriter writer_of(MemoryBoxRun& run);

// The start of a direct write to the root (gate --apply, update, canon add, client set's field
// update): the root's lock, then what a crash left in .memkit/txn finished as writer_of does
// (MK-TXN-001 when it cannot be). Returns the held lock, or nullptr with the findings in the
// reply; the caller then reads the files again and plans from them.
[[nodiscard]] std::unique_ptr<LockHandle> lock_for_write(MemoryBoxRun& run);

// memorybox.md §9 `sync pull|push|status|resolve` (memorybox_sync.cpp).
void run_memorybox_sync(MemoryBoxRun& run);
// Whether `inv` reads the root's files itself, so that the shared start does not read them first:
// every `sync` verb (it reads them with the sync state, the base parsed on a second core, and a
// push or a confirmed pull only under the lock).
[[nodiscard]] bool memorybox_reads_its_own_files(const CommandRequest& inv);
// What hygiene item 10 reads of the sync state: nullopt when the root never synced.
[[nodiscard]] Result<std::optional<memorybox::SyncHygiene>> sync_hygiene_of(MemoryBoxRun& run);

// memorybox.md §10 `client set`: a field update, or a plan-confirmed move (memorybox_clients.cpp).
void run_memorybox_client_set(MemoryBoxRun& run);

}  // namespace memkit::commands_detail
