// The custodian commands (compaction.md §8-§16): init, status, check, compact, add, forget, undo
// and recover over a Workspace, with the shared plan-confirmed flow of §12.3.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>

#include "commands/flow.hpp"
#include "commands/text_view.hpp"
#include "memkit/add.hpp"
#include "memkit/compact.hpp"
#include "memkit/forget.hpp"
#include "memkit/text.hpp"
#include "store/workspace.hpp"

namespace memkit::commands_detail {

using namespace view;  // NOLINT: the text views of the commands below

namespace {

Result<Workspace> open_workspace(const CommandRequest& inv) {
  for (const char* name : {"--project-root", "--memory-dir"}) {
    const auto it = inv.options.find(name);
    if (it != inv.options.end() && it->second.empty()) {
      return Status(Errc::invalid_argument, std::string(name) + ": empty path");
    }
  }
  WorkspaceOptions options;
  if (const auto it = inv.options.find("--project-root"); it != inv.options.end()) {
    options.project_root = it->second;
  }
  if (const auto it = inv.options.find("--memory-dir"); it != inv.options.end()) {
    options.memory_dir = it->second;
  }
  options.lock_timeout_seconds = inv.lock_timeout_seconds;
  return Workspace::open(posix_file_system(), custodian_layout(), std::move(options));
}

// A custodian workspace as the writer of confirmed plans: recover is a command of its own, so an
// unfinished transaction the planner finds only stops the apply.
PlanWriter writer_of(Workspace& ws, const ClockReading& now) {
  PlanWriter writer;
  writer.lock = [&ws] { return ws.lock(); };
  writer.apply = [&ws, now](const Plan& plan) { return ws.apply(plan, now); };
  writer.recover_hint = "run `memkit custodian recover`";
  return writer;
}

// §8 and §9: inbox mode, or target mode with --target.
void run_compact(const CommandRequest& inv, const CommandEnvironment& env, const ClockReading& now,
                 Workspace& ws, CommandReply& reply) {
  const std::optional<ListLimits> limits = list_limits(inv, env, reply);
  if (!limits) return;
  const bool archive_oldest = has_flag(inv, "--archive-oldest");
  std::optional<std::string> target;
  if (const auto given = inv.options.find("--target"); given != inv.options.end()) {
    Result<std::string> normalized = normalize_compaction_target(given->second);
    if (!normalized) {
      reply.findings.push_back(make_fatal("MK-TARGET-001", "", normalized.status().message()));
      return;
    }
    target = *normalized;
  }
  run_planned(inv, reply, writer_of(ws, now), [&](bool) -> Result<PlannedRun> {
    std::vector<std::string> extra;
    if (target) extra = {"archive/README.md", archive_path_for(*target, now)};
    Result<CustodianInputs> inputs = ws.read_custodian_inputs(extra);
    if (!inputs) return inputs.status();
    PlannedRun run;
    run.unfinished_transactions = inputs->unfinished_transactions;
    if (target) {
      auto report = std::make_shared<TargetCompaction>(
          plan_target_compaction(*inputs, *target, default_token_counter(), now));
      run.findings = report->findings;
      run.plan = report->plan;
      run.gates = decision_gates(*report, archive_oldest);
      run.data = [report](bool applied, const std::vector<std::string>& written) {
        return fixed(target_compaction_json(*report, applied, written));
      };
      run.text = [report](bool applied, const std::vector<std::string>& written) {
        return fixed(target_compaction_text(*report, applied, written));
      };
    } else {
      auto report = std::make_shared<InboxCompaction>(
          plan_inbox_compaction(*inputs, default_token_counter(), now));
      run.findings = report->findings;
      run.plan = report->plan;
      run.inbox = report;
      run.data = [report, limit = limits->json](bool applied,
                                                const std::vector<std::string>& written) {
        return [report, applied, written, limit](const TextSink& sink) {
          write_inbox_compaction_json(*report, applied, written, sink, limit);
        };
      };
      run.text = [report, limit = limits->text](bool applied,
                                                const std::vector<std::string>& written) {
        return [report, applied, written, limit](const TextSink& sink) {
          write_compaction_text(*report, applied, written, sink, limit);
        };
      };
    }
    return run;
  });
}

// §13: an additive write, applied directly under the lock; nothing is written when a finding
// stops it (MK-ADD-001, a blocker).
void run_add(const CommandRequest& inv, const ClockReading& now, Workspace& ws,
             CommandReply& reply) {
  AddRequest request;
  auto option = [&](const char* name) -> std::optional<std::string> {
    const auto it = inv.options.find(name);
    return it == inv.options.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  if (inv.positionals.size() != 1) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "custodian add: expected one MESSAGE argument")));
    return;
  }
  request.message = inv.positionals[0];
  request.type = option("--type").value_or("");
  request.reason = option("--reason");
  request.name = option("--name");
  request.area = option("--area");
  request.allow_long = has_flag(inv, "--allow-long");
  if (Status valid = validate_add(request); !valid.ok()) {
    reply.findings.push_back(finding_from(valid));
    return;
  }
  auto refused = [](const AddPlanning& add) {
    const ExitClass verdict = derive_exit_class(add.findings);
    return verdict == ExitClass::fatal || verdict == ExitClass::blocker ||
           verdict == ExitClass::domain_failure;
  };
  // Planned first without the lock, so that a refused add leaves no .memkit/ behind; then again
  // from the files read under it, since another writer may have changed them meanwhile (an add
  // planned from older bytes would undo that writer's entry).
  Result<CustodianInputs> inputs = ws.read_custodian_inputs({add_target(request)});
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  AddPlanning add = plan_add(*inputs, request, default_token_counter(), now);
  std::vector<std::string> written;
  std::unique_ptr<LockHandle> held;
  if (!refused(add) && add.plan) {
    Result<std::unique_ptr<LockHandle>> lock = ws.lock();
    if (!lock) {
      reply.findings.push_back(finding_from(lock.status()));
      return;
    }
    held = std::move(lock).value();
    inputs = ws.read_custodian_inputs({add_target(request)});
    if (!inputs) {
      reply.findings.push_back(finding_from(inputs.status()));
      return;
    }
    // compaction.md §12.5: an unfinished transaction's files must not change until it is
    // finished, or `recover` can no longer roll it forward.
    if (inputs->unfinished_transactions > 0) {
      reply.findings.push_back(unfinished_transaction("run `memkit custodian recover`"));
      return;
    }
    add = plan_add(*inputs, request, default_token_counter(), now);
  }
  reply.findings = add.findings;
  if (held && !refused(add) && add.plan) {
    Result<std::vector<std::string>> done = ws.apply(*add.plan, now, false);
    if (!done) {
      reply.findings.push_back(finding_from(done.status()));
    } else {
      written = *done;
    }
  }
  reply.applied = !written.empty();  // an additive write: applied directly, no Plan ID
  reply.data = fixed(add_json(add, written));
  if (inv.format == OutputFormat::text) {
    std::string text = written.empty() ? "Nothing written.\n" : "Written:\n";
    for (const std::string& path : written) text += "- " + path + "\n";
    if (add.maintenance_preview) {
      text += "Maintenance preview (dry run only): " + add.maintenance_preview->command + "\n";
      for (const std::string& advice : add.maintenance_preview->advice)
        text += "- " + advice + "\n";
    }
    reply.text = fixed(text);
  }
}

// §14: forget a topic; hard and purge output never names it.
void run_forget(const CommandRequest& inv, const ClockReading& now, Workspace& ws,
                CommandReply& reply) {
  if (inv.positionals.size() != 1) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "custodian forget: expected one TOPIC argument")));
    return;
  }
  if (Status text = check_plain_text("custodian forget: the topic", inv.positionals[0]);
      !text.ok()) {
    reply.findings.push_back(finding_from(text));
    return;
  }
  const std::string topic(strip_w(inv.positionals[0]));
  if (topic.empty()) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "custodian forget: the topic is empty")));
    return;
  }
  const auto mode_option = inv.options.find("--mode");
  const std::optional<ForgetMode> mode =
      parse_forget_mode(mode_option == inv.options.end() ? "soft" : mode_option->second);
  if (!mode) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--mode: expected soft, hard or purge, got '" +
                                                        mode_option->second + "'")));
    return;
  }
  const bool allow_broad = has_flag(inv, "--allow-broad-match");
  run_planned(inv, reply, writer_of(ws, now), [&](bool) -> Result<PlannedRun> {
    std::vector<std::string> extra;
    if (*mode == ForgetMode::purge) {
      Result<std::vector<std::string>> all = ws.list_markdown_files();
      if (!all) return all.status();
      extra = std::move(all).value();
    }
    Result<CustodianInputs> inputs = ws.read_custodian_inputs(extra);
    if (!inputs) return inputs.status();
    auto forget = std::make_shared<ForgetPlanning>(
        plan_forget(*inputs, topic, *mode, default_token_counter(), now));
    PlannedRun run;
    run.unfinished_transactions = inputs->unfinished_transactions;
    run.findings = forget->findings;
    run.plan = forget->plan;
    run.gates = forget_gates(*forget, allow_broad);
    if (*mode == ForgetMode::purge) {
      run.after_apply = [&ws, needle = casefold(topic)]() {
        return ws.purge_applied_records(needle);
      };
    }
    run.data = [forget](bool applied, const std::vector<std::string>& written) {
      return fixed(forget_json(*forget, applied, written));
    };
    run.text = [forget](bool applied, const std::vector<std::string>& written) {
      return fixed(forget_text(*forget, applied, written));
    };
    return run;
  });
}

// §12.6: the undo of an earlier apply, itself a plan.
void run_undo(const CommandRequest& inv, const ClockReading& now, Workspace& ws,
              CommandReply& reply) {
  if (inv.positionals.size() != 1 || !is_plan_id(inv.positionals[0])) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument,
                            "custodian undo: expected one PLAN_ID of 16 lowercase hex digits")));
    return;
  }
  const std::string plan_id = inv.positionals[0];
  run_planned(inv, reply, writer_of(ws, now), [&](bool) -> Result<PlannedRun> {
    Result<std::optional<AppliedRecord>> record = ws.read_applied_record(plan_id);
    if (!record) return record.status();
    std::vector<std::string> paths;
    if (*record) {
      for (const AppliedRecord::Target& t : (*record)->targets) paths.push_back(t.path);
    }
    Result<CustodianInputs> inputs = ws.read_custodian_inputs(paths);
    if (!inputs) return inputs.status();
    auto undo = std::make_shared<UndoPlanning>(
        plan_undo(*record, plan_id, *inputs, default_token_counter()));
    PlannedRun run;
    run.unfinished_transactions = inputs->unfinished_transactions;
    run.findings = undo->findings;
    run.plan = undo->plan;
    run.data = [undo](bool applied, const std::vector<std::string>& written) {
      return fixed(undo_json(*undo, applied, written));
    };
    run.text = [undo](bool applied, const std::vector<std::string>& written) {
      return fixed(undo_text(*undo, applied, written));
    };
    return run;
  });
}

}  // namespace

void run_custodian(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  const Style style{env.stdout_is_terminal && !env.no_colour};
  const std::optional<ClockReading> now = start_command(
      inv, env, reply, inv.command == "undo" || inv.command == "add" || inv.command == "forget");
  if (!now) return;
  Result<Workspace> ws = open_workspace(inv);
  if (!ws) {
    reply.findings.push_back(finding_from(ws.status()));
    return;
  }
  if (inv.command == "init") {
    const Result<std::unique_ptr<LockHandle>> lock = ws->lock();
    if (!lock) {
      reply.findings.push_back(finding_from(lock.status()));
      return;
    }
    // compaction.md §12.5: nothing changes under an unfinished transaction, a new file neither.
    const Result<Recovery> pending = ws->recover(false, false);
    if (!pending || !pending->clean()) {
      reply.findings.push_back(pending ? unfinished_transaction("run `memkit custodian recover`")
                                       : finding_from(pending.status()));
      return;
    }
    const Result<InitResult> result = ws->init_custodian(has_flag(inv, "--extended"), *now);
    if (!result) {
      reply.findings.push_back(finding_from(result.status()));
      return;
    }
    reply.data = fixed(init_json(*result));
    if (inv.format == OutputFormat::text) reply.text = fixed(init_text(*result));
    return;
  }
  if (inv.command == "read") {
    run_custodian_read(inv, env, reply);
    return;
  }
  if (inv.command == "compact") {
    run_compact(inv, env, *now, *ws, reply);
    return;
  }
  if (inv.command == "forget") {
    run_forget(inv, *now, *ws, reply);
    return;
  }
  if (inv.command == "add") {
    run_add(inv, *now, *ws, reply);
    return;
  }
  if (inv.command == "undo") {
    run_undo(inv, *now, *ws, reply);
    return;
  }
  if (inv.command == "recover") {
    run_recover(
        inv, reply, [&] { return ws->lock(); },
        [&](bool apply, bool rollback) { return ws->recover(apply, rollback); });
    return;
  }
  const Result<CustodianInputs> inputs = ws->read_custodian_inputs();
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  if (inv.command == "status") {
    const StatusReport report = custodian_status(*inputs, default_token_counter());
    reply.status = std::make_shared<const StatusReport>(report);
    reply.findings = report.findings;
    reply.data = fixed(status_json(report));
    if (inv.format == OutputFormat::text) reply.text = fixed(status_text(report, style));
  } else {
    const CheckReport report = custodian_check(*inputs, default_token_counter());
    reply.findings = report.findings;
    reply.data = fixed(check_json(report));
    if (inv.format == OutputFormat::text) reply.text = fixed(check_text(report, style));
  }
}

}  // namespace memkit::commands_detail
