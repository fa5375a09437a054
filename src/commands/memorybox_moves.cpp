// The MemoryBox commands that move entries (memorybox.md §6 `update --resolve archive`, §7
// `compact`, §11 `promote`), each a dry run by default and written by --apply --confirm-plan ID
// under the agent root's lock: compaction.md §12.3, as custodian's commands do it.
#include "memkit/memorybox_moves.hpp"

#include <algorithm>
#include <functional>
#include <memory>

#include "commands/flow.hpp"
#include "commands/text_view.hpp"

namespace memkit::commands_detail {
namespace {

// One plan a memorybox command made: its findings and how to show it.
struct MoveRun {
  std::vector<Finding> findings;
  std::optional<Plan> plan;
  std::function<JsonWriter(bool, const std::vector<std::string>&)> data;
  std::function<TextWriter(bool, const std::vector<std::string>&)> text;
};

using Planner = std::function<Result<MoveRun>(const memorybox::Inputs&)>;

bool stops(const std::vector<Finding>& findings) {
  const ExitClass c = derive_exit_class(findings);
  return c == ExitClass::fatal || c == ExitClass::blocker;
}

// What a crash left in .memkit/txn is finished before anything else is planned: memorybox has no
// `recover` command of its own, so its own transactions are rolled forward here (what they write
// was confirmed already), and any transaction that never began to commit touched no file and is
// dropped. Another command's committing transaction, or a conflict, stops the apply.
// REQUIRES: the lock is held. Returns true iff nothing is left unfinished.
bool recovered(MemoryBoxRun& run) {
  Result<Recovery> listed = run.root.recover(false);
  if (!listed) {
    run.reply.findings.push_back(finding_from(listed.status()));
    return false;
  }
  const bool ours = std::all_of(
      listed->transactions.begin(), listed->transactions.end(), [](const Transaction& t) {
        return t.phase == "prepared" || t.command.rfind("memorybox ", 0) == 0;
      });
  if (listed->clean()) return true;
  if (ours) {
    Result<Recovery> done = run.root.recover(true);
    if (!done) {
      run.reply.findings.push_back(finding_from(done.status()));
      return false;
    }
    for (const Finding& f : done->findings) run.reply.findings.push_back(f);
    if (done->clean()) return true;
  }
  run.reply.findings.push_back(make_finding(
      "MK-TXN-001", Severity::blocker, "", "an unfinished transaction is in .memkit/txn",
      ours ? "resolve the conflicting files by hand, then remove the transaction"
           : "finish it with the command that started it (`memkit custodian recover`)"));
  return false;
}

// compaction.md §12.3: a dry run by default; --apply --confirm-plan ID plans again from disk
// under the lock and writes only when the new plan's ID is the confirmed one.
void run_planned_moves(MemoryBoxRun& run, const Planner& plan_now) {
  CommandReply& reply = run.reply;
  const bool apply = has_flag(run.inv, "--apply");
  const std::optional<std::string> confirm = option(run.inv, "--confirm-plan");
  if (confirm && !apply) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--confirm-plan: only with --apply")));
    return;
  }
  const bool text = run.inv.format == OutputFormat::text;
  auto finish = [&](const MoveRun& made, bool applied, const std::vector<std::string>& written) {
    for (const Finding& f : made.findings) reply.findings.push_back(f);
    reply.plan = made.plan;
    reply.applied = applied;
    reply.data = made.data(applied, written);
    if (text) reply.text = made.text(applied, written);
  };
  if (!apply || !confirm) {
    // A dry run, or an apply without a confirmed ID (which can only be refused): no lock.
    Result<MoveRun> made = plan_now(run.inputs);
    if (!made) {
      reply.findings.push_back(finding_from(made.status()));
      return;
    }
    if (apply && !stops(made->findings) && made->plan) {
      reply.findings.push_back(make_finding("MK-PLAN-002", Severity::blocker, "",
                                            "--apply needs --confirm-plan " + made->plan->id(),
                                            "review the dry run, then confirm its Plan ID"));
    }
    finish(*made, false, {});
    return;
  }
  Result<std::unique_ptr<LockHandle>> lock = run.root.lock(run.inv.lock_timeout_seconds);
  if (!lock) {
    reply.findings.push_back(finding_from(lock.status()));
    return;
  }
  if (!recovered(run)) return;
  // Planned from disk under the lock, once: what was reviewed must still be what gets written.
  const Result<memorybox::Inputs> inputs = run.root.read_memorybox_inputs();
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  Result<MoveRun> made = plan_now(*inputs);
  if (!made) {
    reply.findings.push_back(finding_from(made.status()));
    return;
  }
  if (stops(made->findings)) {
    finish(*made, false, {});
    return;
  }
  if (!made->plan) {
    reply.findings.push_back(
        make_finding("MK-PLAN-003", Severity::warning, "",
                     "confirmed plan " + *confirm + " has nothing left to apply"));
    finish(*made, false, {});
    return;
  }
  if (made->plan->id() != *confirm) {
    reply.findings.push_back(make_finding("MK-PLAN-001", Severity::blocker, "",
                                          "stale or mismatched plan: confirmed " + *confirm +
                                              ", current plan is " + made->plan->id() +
                                              "; no files written",
                                          "review the current dry run and confirm its Plan ID"));
    finish(*made, false, {});
    return;
  }
  Result<std::vector<std::string>> written = run.root.apply(*made->plan, run.now);
  if (!written) {
    reply.findings.push_back(finding_from(written.status()));
    finish(*made, false, {});
    return;
  }
  finish(*made, true, *written);
}

// The run of a planner of one entry (`promote`, `update --resolve archive`).
MoveRun entry_move_run(std::shared_ptr<const memorybox::EntryMove> move,
                       std::string (*json)(const memorybox::EntryMove&, bool,
                                           const std::vector<std::string>&)) {
  MoveRun made;
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
  const view::Style style = run.style;
  run_planned_moves(run, [&](const memorybox::Inputs& inputs) -> Result<MoveRun> {
    auto compaction = std::make_shared<const memorybox::Compaction>(
        memorybox::plan_memorybox_compaction(inputs, request, run.now));
    MoveRun made;
    made.findings = compaction->findings;
    made.plan = compaction->plan;
    made.data = [compaction](bool applied, const std::vector<std::string>& written) {
      return fixed(memorybox_compact_json(*compaction, applied, written));
    };
    made.text = [compaction, style](bool applied, const std::vector<std::string>& written) {
      return fixed(view::memorybox_compact_text(*compaction, applied, written, style));
    };
    return made;
  });
}

void run_memorybox_promote(MemoryBoxRun& run) {
  const std::optional<std::string> entry = required_entry(run);
  if (!entry) return;
  run_planned_moves(run, [&](const memorybox::Inputs& inputs) -> Result<MoveRun> {
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
  run_planned_moves(run, [&](const memorybox::Inputs& inputs) -> Result<MoveRun> {
    Result<memorybox::EntryMove> move = memorybox::plan_resolve_archive(inputs, *entry, run.now);
    if (!move) return move.status();
    return entry_move_run(std::make_shared<const memorybox::EntryMove>(std::move(move).value()),
                          &memorybox_resolve_archive_json);
  });
}

}  // namespace memkit::commands_detail
