// The plan-confirmed flow of every command that moves or removes text (compaction.md §12.3),
// whatever it writes to: the dry run, the lock, planning again, the confirmed ID, the apply.
#include <algorithm>

#include "commands/flow.hpp"
#include "files/progress.hpp"

namespace memkit::commands_detail {

std::optional<Finding> refuse_unconfirmed(const std::optional<std::string>& confirmed,
                                          const std::string& plan_id) {
  if (!confirmed) {
    return make_finding("MK-PLAN-002", Severity::blocker, "",
                        "--apply needs --confirm-plan " + plan_id,
                        "review the dry run, then confirm its Plan ID");
  }
  if (*confirmed != plan_id) {
    return make_finding("MK-PLAN-001", Severity::blocker, "",
                        "stale or mismatched plan: confirmed " + *confirmed + ", current plan is " +
                            plan_id + "; no files written",
                        "review the current dry run and confirm its Plan ID");
  }
  return std::nullopt;
}

void run_planned(const CommandRequest& inv, CommandReply& reply, const PlanWriter& writer,
                 const std::function<Result<PlannedRun>(bool under_lock)>& plan_now) {
  const bool apply = has_flag(inv, "--apply");
  const auto confirm = inv.options.find("--confirm-plan");
  if (confirm != inv.options.end() && !apply) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--confirm-plan: only with --apply")));
    return;
  }
  // Long work is told as it goes (issue 31): the planning, then the apply's own stage.
  const progress::Stage stage("planning " + inv.group + " " + inv.command, 0,
                              progress::Unit::bytes);
  const bool text = inv.format == OutputFormat::text;
  auto finish = [&](const PlannedRun& run, bool applied, const std::vector<std::string>& written) {
    for (const Finding& f : run.findings) reply.findings.push_back(f);
    reply.plan = run.plan;
    reply.applied = applied;
    reply.inbox = run.inbox;
    reply.data = run.data(applied, written);
    if (text) reply.text = run.text(applied, written);
  };
  if (!apply || confirm == inv.options.end()) {
    // A dry run, or an apply without a confirmed ID (which can only be refused): no lock.
    Result<PlannedRun> run = plan_now(false);
    if (!run) {
      reply.findings.push_back(finding_from(run.status()));
      return;
    }
    if (apply && !stops(run->findings) && run->plan) {
      reply.findings.push_back(*refuse_unconfirmed(std::nullopt, run->plan->id()));
    }
    finish(*run, false, {});
    return;
  }
  Result<std::unique_ptr<LockHandle>> lock = writer.lock();
  if (!lock) {
    reply.findings.push_back(finding_from(lock.status()));
    return;
  }
  if (writer.ready && !writer.ready(reply)) return;
  // Planned from disk under the lock, once: what was reviewed must still be what gets written.
  Result<PlannedRun> run = plan_now(true);
  if (!run) {
    reply.findings.push_back(finding_from(run.status()));
    return;
  }
  if (run->unfinished_transactions > 0) {
    reply.findings.push_back(unfinished_transaction(writer.recover_hint));
    finish(*run, false, {});
    return;
  }
  if (stops(run->findings)) {
    finish(*run, false, {});
    return;
  }
  if (!run->plan) {
    if (confirm != inv.options.end()) {
      reply.findings.push_back(
          make_finding("MK-PLAN-003", Severity::warning, "",
                       "confirmed plan " + confirm->second + " has nothing left to apply"));
    }
    finish(*run, false, {});
    return;
  }
  if (std::optional<Finding> refused = refuse_unconfirmed(confirm->second, run->plan->id())) {
    reply.findings.push_back(std::move(*refused));
    finish(*run, false, {});
    return;
  }
  if (!run->gates.empty()) {
    // A gate is the error its dry-run warning becomes: the warning goes, so each is told once.
    std::erase_if(run->findings, [&](const Finding& f) {
      return std::any_of(run->gates.begin(), run->gates.end(),
                         [&](const Finding& gate) { return gate.code == f.code; });
    });
    for (const Finding& gate : run->gates) reply.findings.push_back(gate);
    finish(*run, false, {});
    return;
  }
  Result<std::vector<std::string>> written = writer.apply(*run->plan);
  if (!written) {
    reply.findings.push_back(finding_from(written.status()));
    finish(*run, false, {});
    // Not a dry run: the failure's finding says what happened, and no view offers the apply
    // again as if nothing had been tried.
    reply.text = {};
    return;
  }
  if (run->after_apply) {
    if (Status after = run->after_apply(); !after.ok())
      reply.findings.push_back(finding_from(after));
  }
  finish(*run, true, *written);
}

bool finish_transactions(const std::function<Result<Recovery>(bool apply)>& recover,
                         std::string_view group, CommandReply& reply) {
  Result<Recovery> listed = recover(false);
  if (!listed) {
    reply.findings.push_back(finding_from(listed.status()));
    return false;
  }
  if (listed->clean()) return true;
  const std::string prefix = std::string(group) + " ";
  const bool ours = std::all_of(listed->transactions.begin(), listed->transactions.end(),
                                [&](const Transaction& t) {
                                  return t.phase == "prepared" || t.command.rfind(prefix, 0) == 0;
                                });
  if (ours) {
    Result<Recovery> done = recover(true);
    if (!done) {
      reply.findings.push_back(finding_from(done.status()));
      return false;
    }
    for (const Finding& f : done->findings) reply.findings.push_back(f);
    if (done->clean()) return true;
  }
  if (ours) {
    reply.findings.push_back(unfinished_transaction(
        "resolve the conflicting files by hand, then remove the transaction"));
    return false;
  }
  // Another group's transaction: that group's recover finishes it.
  const auto foreign =
      std::find_if(listed->transactions.begin(), listed->transactions.end(),
                   [&](const Transaction& t) { return t.command.rfind(prefix, 0) != 0; });
  const std::string other = foreign->command.substr(0, foreign->command.find(' '));
  reply.findings.push_back(unfinished_transaction(
      "finish it with the command that started it (`memkit " + other + " recover`)"));
  return false;
}

void run_recover(const CommandRequest& inv, CommandReply& reply,
                 const std::function<Result<std::unique_ptr<LockHandle>>()>& lock,
                 const std::function<Result<Recovery>(bool apply, bool rollback)>& recover) {
  const bool apply = has_flag(inv, "--apply");
  const bool rollback = has_flag(inv, "--rollback");
  if (rollback && !apply) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--rollback: only with --apply")));
    return;
  }
  std::unique_ptr<LockHandle> held;
  if (apply) {
    Result<std::unique_ptr<LockHandle>> locked = lock();
    if (!locked) {
      reply.findings.push_back(finding_from(locked.status()));
      return;
    }
    held = std::move(locked).value();
  }
  const Result<Recovery> recovery = recover(apply, rollback);
  if (!recovery) {
    reply.findings.push_back(finding_from(recovery.status()));
    return;
  }
  reply.findings = recovery->findings;
  reply.data = fixed(recovery_json(*recovery));
  if (inv.format == OutputFormat::text) reply.text = fixed(view::recovery_text(*recovery));
}

}  // namespace memkit::commands_detail
