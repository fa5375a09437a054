// The MemoryBox commands that move entries (memorybox.md §6 `update --resolve archive`, §7
// `compact`, §11 `promote`), each a dry run by default and written by --apply --confirm-plan ID
// under the agent root's lock: compaction.md §12.3, as custodian's commands do it.
#include "memkit/memorybox/moves.hpp"

#include <algorithm>
#include <functional>
#include <memory>

#include "commands/flow.hpp"
#include "commands/text_view.hpp"

namespace memkit::commands_detail {

// What a crash left in .memkit/txn is finished before anything else is planned: memorybox has no
// `recover` command of its own, so its own transactions are rolled forward here (what they write
// was confirmed already), and any transaction that never began to commit touched no file and is
// dropped. Another command's committing transaction, or a conflict, stops the apply.
PlanWriter writer_of(MemoryBoxRun& run) {
  PlanWriter writer;
  writer.lock = [&run] { return run.root.lock(run.inv.lock_timeout_seconds); };
  writer.ready = [&run](CommandReply& reply) {
    return finish_transactions([&run](bool apply) { return run.root.recover(apply); }, "memorybox",
                               reply);
  };
  writer.apply = [&run](const Plan& plan) { return run.root.apply(plan, run.now); };
  return writer;
}

std::unique_ptr<LockHandle> lock_for_write(MemoryBoxRun& run) {
  Result<std::unique_ptr<LockHandle>> lock = run.root.lock(run.inv.lock_timeout_seconds);
  if (!lock) {
    run.reply.findings.push_back(finding_from(lock.status()));
    return nullptr;
  }
  if (!finish_transactions([&run](bool apply) { return run.root.recover(apply); }, "memorybox",
                           run.reply)) {
    return nullptr;
  }
  return std::move(lock).value();
}

namespace {

// A planner that reads the files again under the lock.
using Planner = std::function<Result<PlannedRun>(const memorybox::Inputs&)>;

void run_planned_moves(MemoryBoxRun& run, const Planner& plan) {
  run_planned(run.inv, run.reply, writer_of(run), [&](bool under_lock) -> Result<PlannedRun> {
    if (!under_lock) return plan(run.inputs);
    const Result<memorybox::Inputs> inputs = run.root.read_memorybox_inputs();
    if (!inputs) return inputs.status();
    return plan(*inputs);
  });
}

// The run of a planner of one entry (`promote`, `update --resolve archive`).
PlannedRun entry_move_run(std::shared_ptr<const memorybox::EntryMove> move,
                          std::string (*json)(const memorybox::EntryMove&, bool,
                                              const std::vector<std::string>&)) {
  PlannedRun made;
  made.findings = move->findings;
  made.plan = move->plan;
  made.data = [move, json](bool applied, const std::vector<std::string>& written) {
    return fixed(json(*move, applied, written));
  };
  made.text = [move](bool applied, const std::vector<std::string>& written) {
    return fixed(view::memorybox_move_text(*move, applied, written));
  };
  return made;
}

std::optional<std::string> required_entry(MemoryBoxRun& run) {
  std::optional<std::string> entry = option(run.inv, "--entry");
  if (!entry) {
    run.reply.findings.push_back(finding_from(Status(Errc::invalid_argument, "--entry: required")));
  }
  return entry;
}

}  // namespace

void run_memorybox_compact(MemoryBoxRun& run) {
  memorybox::CompactRequest request;
  if (const std::optional<std::string> file = option(run.inv, "--file")) {
    request.only = memorybox::bloat_rule_of_file(*file);
    if (!request.only) {
      run.reply.findings.push_back(finding_from(Status(
          Errc::invalid_argument,
          "--file: expected memory/SESSION_LOG.md, memory/ACTIVE_TASKS.md, memory/MISTAKES.md, "
          "memory/PATTERNS.md or memory/daily/, got '" +
              *file + "'")));
      return;
    }
  }
  request.force = has_flag(run.inv, "--force");
  const std::optional<ListLimits> limits = list_limits(run.inv, run.env, run.reply);
  if (!limits) return;
  const view::Style style = run.style;
  run_planned_moves(run, [&](const memorybox::Inputs& inputs) -> Result<PlannedRun> {
    auto compaction = std::make_shared<const memorybox::Compaction>(
        memorybox::plan_memorybox_compaction(inputs, request, run.now));
    PlannedRun made;
    made.findings = compaction->findings;
    made.plan = compaction->plan;
    made.data = [compaction, limit = limits->json](bool applied,
                                                   const std::vector<std::string>& written) {
      return fixed(memorybox_compact_json(*compaction, applied, written, limit));
    };
    made.text = [compaction, style, limit = limits->text](bool applied,
                                                          const std::vector<std::string>& written) {
      return fixed(view::memorybox_compact_text(*compaction, applied, written, style, limit));
    };
    return made;
  });
}

void run_memorybox_promote(MemoryBoxRun& run) {
  const std::optional<std::string> entry = required_entry(run);
  if (!entry) return;
  run_planned_moves(run, [&](const memorybox::Inputs& inputs) -> Result<PlannedRun> {
    Result<memorybox::EntryMove> move = memorybox::plan_promote(inputs, *entry, run.now);
    if (!move) return move.status();
    return entry_move_run(std::make_shared<const memorybox::EntryMove>(std::move(move).value()),
                          &memorybox_promote_json);
  });
}

void run_memorybox_resolve_archive(MemoryBoxRun& run) {
  for (const char* other : {"--verify", "--confirm", "--contradict"}) {
    if (has_flag(run.inv, other)) {
      run.reply.findings.push_back(
          finding_from(Status(Errc::invalid_argument,
                              "memorybox update: give exactly one of --verify, --confirm, "
                              "--contradict and --resolve keep|archive")));
      return;
    }
  }
  for (const char* other : {"--note", "--confidence"}) {
    if (option(run.inv, other)) {
      run.reply.findings.push_back(finding_from(
          Status(Errc::invalid_argument, std::string(other) + ": not with --resolve archive")));
      return;
    }
  }
  const std::optional<std::string> entry = required_entry(run);
  if (!entry) return;
  run_planned_moves(run, [&](const memorybox::Inputs& inputs) -> Result<PlannedRun> {
    Result<memorybox::EntryMove> move = memorybox::plan_resolve_archive(inputs, *entry, run.now);
    if (!move) return move.status();
    return entry_move_run(std::make_shared<const memorybox::EntryMove>(std::move(move).value()),
                          &memorybox_resolve_archive_json);
  });
}

}  // namespace memkit::commands_detail
