// The commands every front end runs (spec README.md "CLI shape", compaction.md §8-§16): a request
// in, the findings, the JSON data and the human view out. The CLI and the C ABI both call
// execute(), so they cannot drift.
#include "memkit/commands.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include "commands/text_view.hpp"
#include "memkit/add.hpp"
#include "memkit/agent_root.hpp"
#include "memkit/compact.hpp"
#include "memkit/forget.hpp"
#include "memkit/text.hpp"
#include "memkit/workspace.hpp"

namespace memkit {

using commands_detail::fixed;
using namespace view;  // NOLINT: the text views of the commands below

const std::map<std::string, CommandOptions>& command_options() {
  static const std::map<std::string, CommandOptions> known = {
      {"custodian init", {{"--project-root", "--memory-dir"}, {"--extended"}}},
      {"custodian status", {{"--project-root", "--memory-dir"}, {}}},
      {"custodian check", {{"--project-root", "--memory-dir"}, {}}},
      {"custodian compact",
       {{"--project-root", "--memory-dir", "--confirm-plan", "--target"},
        {"--apply", "--archive-oldest"}}},
      {"custodian recover", {{"--project-root", "--memory-dir"}, {"--apply", "--rollback"}}},
      {"custodian undo", {{"--project-root", "--memory-dir", "--confirm-plan"}, {"--apply"}}},
      {"custodian forget",
       {{"--project-root", "--memory-dir", "--mode", "--confirm-plan"},
        {"--apply", "--allow-broad-match"}}},
      {"custodian add",
       {{"--project-root", "--memory-dir", "--type", "--reason", "--name", "--area"},
        {"--allow-long"}}},
      {"markdown units", {{}, {}}},
      {"memorybox init", {{"--root"}, {}}},
      {"memorybox status", {{"--root"}, {}}},
      {"memorybox decay", {{"--root", "--file"}, {}}},
      {"memorybox load", {{"--root", "--tier", "--file"}, {"--include-archive"}}},
      {"memorybox hygiene", {{"--root"}, {}}},
      {"memorybox update",
       {{"--root", "--entry", "--note", "--resolve", "--confidence"},
        {"--verify", "--confirm", "--contradict"}}},
  };
  return known;
}

// Failures of the invocation or environment become fatal findings (spec README.md exit classes).
Finding finding_from(const Status& status) {
  switch (status.code()) {
    case Errc::invalid_argument:
      return make_fatal("MK-ARG-001", "", status.message());
    case Errc::layout:
    case Errc::unsafe_path:
      return make_fatal("MK-LAYOUT-001", "", status.message());
    case Errc::lock_busy:
      return make_finding("MK-LOCK-001", Severity::blocker, "", status.message(),
                          "retry when the other memkit process has finished");
    default:
      return make_fatal("MK-IO-001", "", status.message());
  }
}

namespace {

Result<ClockReading> clock_of(const CommandRequest& inv, const CommandEnvironment& env) {
  if (inv.now) return ClockReading::parse_rfc3339(*inv.now, "--now");
  if (env.memkit_now) return ClockReading::parse_rfc3339(*env.memkit_now, "MEMKIT_NOW");
  return env.system_clock();
}

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

bool has_flag(const CommandRequest& inv, std::string_view flag) {
  for (const std::string& f : inv.flags) {
    if (f == flag) return true;
  }
  return false;
}

Status no_positionals(const CommandRequest& inv) {
  if (inv.positionals.empty()) return Status();
  return Status(Errc::invalid_argument, "unexpected argument '" + inv.positionals[0] + "'");
}

// One compaction, in either mode: what the planner found, and how to show it.
struct CompactionRun {
  std::vector<Finding> findings;
  std::optional<Plan> plan;
  std::vector<Finding> gates;  // apply-time refusals (§9 decision gate, §14 forget refusals)
  std::function<Status()> after_apply;           // shell work once the plan is written, if any
  std::uint32_t unfinished_transactions = 0;     // what the planner's read of .memkit/txn found
  std::shared_ptr<const InboxCompaction> inbox;  // inbox mode only, for typed access
  std::function<JsonWriter(bool, const std::vector<std::string>&)> data;
  std::function<TextWriter(bool, const std::vector<std::string>&)> text;
};

// §12.3, shared by every plan-making command: a dry run by default; --apply --confirm-plan ID
// rebuilds the plan under the lock and writes only when the rebuilt ID is the confirmed one and
// no gate refuses.
void run_planned(const CommandRequest& inv, const ClockReading& now, Workspace& ws,
                 CommandReply& reply, const std::function<Result<CompactionRun>()>& plan_now) {
  const bool apply = has_flag(inv, "--apply");
  const auto confirm = inv.options.find("--confirm-plan");
  if (confirm != inv.options.end() && !apply) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--confirm-plan: only with --apply")));
    return;
  }
  const bool text = inv.format == OutputFormat::text;
  auto finish = [&](const CompactionRun& run, bool applied,
                    const std::vector<std::string>& written) {
    for (const Finding& f : run.findings) reply.findings.push_back(f);
    reply.plan = run.plan;
    reply.applied = applied;
    reply.inbox = run.inbox;
    reply.data = run.data(applied, written);
    if (text) reply.text = run.text(applied, written);
  };
  auto stops = [](const std::vector<Finding>& findings) {
    const ExitClass c = derive_exit_class(findings);
    return c == ExitClass::fatal || c == ExitClass::blocker;
  };
  if (!apply || confirm == inv.options.end()) {
    // A dry run, or an apply without a confirmed ID (which can only be refused): no lock.
    Result<CompactionRun> run = plan_now();
    if (!run) {
      reply.findings.push_back(finding_from(run.status()));
      return;
    }
    if (apply && !stops(run->findings) && run->plan) {
      reply.findings.push_back(make_finding("MK-PLAN-002", Severity::blocker, "",
                                            "--apply needs --confirm-plan " + run->plan->id(),
                                            "review the dry run, then confirm its Plan ID"));
    }
    finish(*run, false, {});
    return;
  }
  Result<std::unique_ptr<LockHandle>> lock = ws.lock();
  if (!lock) {
    reply.findings.push_back(finding_from(lock.status()));
    return;
  }
  // Planned from disk under the lock, once: what was reviewed must still be what gets written.
  Result<CompactionRun> run = plan_now();
  if (!run) {
    reply.findings.push_back(finding_from(run.status()));
    return;
  }
  if (run->unfinished_transactions > 0) {
    reply.findings.push_back(make_finding("MK-TXN-001", Severity::blocker, "",
                                          "an unfinished transaction is in .memkit/txn",
                                          "run `memkit custodian recover`"));
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
  if (run->plan->id() != confirm->second) {
    reply.findings.push_back(make_finding("MK-PLAN-001", Severity::blocker, "",
                                          "stale or mismatched plan: confirmed " + confirm->second +
                                              ", current plan is " + run->plan->id() +
                                              "; no files written",
                                          "review the current dry run and confirm its Plan ID"));
    finish(*run, false, {});
    return;
  }
  if (!run->gates.empty()) {
    for (const Finding& gate : run->gates) reply.findings.push_back(gate);
    finish(*run, false, {});
    return;
  }
  Result<std::vector<std::string>> written = ws.apply(*run->plan, now);
  if (!written) {
    reply.findings.push_back(finding_from(written.status()));
    finish(*run, false, {});
    return;
  }
  if (run->after_apply) {
    if (Status after = run->after_apply(); !after.ok())
      reply.findings.push_back(finding_from(after));
  }
  finish(*run, true, *written);
}

// §8 and §9: inbox mode, or target mode with --target.
void run_compact(const CommandRequest& inv, const ClockReading& now, Workspace& ws,
                 CommandReply& reply) {
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
  run_planned(inv, now, ws, reply, [&]() -> Result<CompactionRun> {
    std::vector<std::string> extra;
    if (target) extra = {"archive/README.md", archive_path_for(*target, now)};
    Result<CustodianInputs> inputs = ws.read_custodian_inputs(extra);
    if (!inputs) return inputs.status();
    CompactionRun run;
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
      run.data = [report](bool applied, const std::vector<std::string>& written) {
        return [report, applied, written](const TextSink& sink) {
          write_inbox_compaction_json(*report, applied, written, sink);
        };
      };
      run.text = [report](bool applied, const std::vector<std::string>& written) {
        return [report, applied, written](const TextSink& sink) {
          write_compaction_text(*report, applied, written, sink);
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
  Result<std::unique_ptr<LockHandle>> lock = ws.lock();
  if (!lock) {
    reply.findings.push_back(finding_from(lock.status()));
    return;
  }
  Result<CustodianInputs> inputs = ws.read_custodian_inputs({add_target(request)});
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  const AddPlanning add = plan_add(*inputs, request, default_token_counter(), now);
  reply.findings = add.findings;
  std::vector<std::string> written;
  const ExitClass verdict = derive_exit_class(add.findings);
  const bool stopped = verdict == ExitClass::fatal || verdict == ExitClass::blocker ||
                       verdict == ExitClass::domain_failure;
  if (!stopped && add.plan) {
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
  run_planned(inv, now, ws, reply, [&]() -> Result<CompactionRun> {
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
    CompactionRun run;
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
  run_planned(inv, now, ws, reply, [&]() -> Result<CompactionRun> {
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
    CompactionRun run;
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

// §12.5: a listing by default; --apply finishes (or with --rollback undoes) each transaction.
void run_recover(const CommandRequest& inv, Workspace& ws, CommandReply& reply) {
  const bool apply = has_flag(inv, "--apply");
  const bool rollback = has_flag(inv, "--rollback");
  if (rollback && !apply) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--rollback: only with --apply")));
    return;
  }
  std::unique_ptr<LockHandle> held;
  if (apply) {
    Result<std::unique_ptr<LockHandle>> lock = ws.lock();
    if (!lock) {
      reply.findings.push_back(finding_from(lock.status()));
      return;
    }
    held = std::move(lock).value();
  }
  const Result<Recovery> recovery = ws.recover(apply, rollback);
  if (!recovery) {
    reply.findings.push_back(finding_from(recovery.status()));
    return;
  }
  reply.findings = recovery->findings;
  reply.data = fixed(recovery_json(*recovery));
  if (inv.format == OutputFormat::text) reply.text = fixed(recovery_text(*recovery));
}

// What every command checks first: no stray positional (unless it takes some), and the clock;
// every command reads it, so a bad --now fails the same way everywhere.
std::optional<ClockReading> start_command(const CommandRequest& inv, const CommandEnvironment& env,
                                          CommandReply& reply, bool takes_positionals) {
  if (Status extra = no_positionals(inv); !extra.ok() && !takes_positionals) {
    reply.findings.push_back(finding_from(extra));
    return std::nullopt;
  }
  Result<ClockReading> now = clock_of(inv, env);
  if (!now) {
    reply.findings.push_back(finding_from(now.status()));
    return std::nullopt;
  }
  return *now;
}

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
    const Result<InitResult> result = ws->init_custodian(has_flag(inv, "--extended"), *now);
    if (!result) {
      reply.findings.push_back(finding_from(result.status()));
      return;
    }
    reply.data = fixed(init_json(*result));
    if (inv.format == OutputFormat::text) reply.text = fixed(init_text(*result));
    return;
  }
  if (inv.command == "compact") {
    run_compact(inv, *now, *ws, reply);
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
    run_recover(inv, *ws, reply);
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

// Paths in output are relative to the current directory and never absolute (spec README.md).
std::string display_path(const std::string& given, const CommandEnvironment& env) {
  const std::filesystem::path path(given);
  if (!path.is_absolute()) return path.lexically_normal().generic_string();
  return path.lexically_relative(env.current_directory).generic_string();
}

void run_markdown_units(const CommandRequest& inv, const CommandEnvironment& env,
                        CommandReply& reply) {
  if (inv.positionals.size() != 1) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "markdown units: expected exactly one FILE")));
    return;
  }
  const std::string path = display_path(inv.positionals[0], env);
  // A read-only tool may follow a link to the file the user named; only writes refuse links.
  std::error_code resolve_error;
  const std::filesystem::path resolved =
      std::filesystem::canonical(inv.positionals[0], resolve_error);
  const std::string target = resolve_error ? inv.positionals[0] : resolved.string();
  Result<std::string> bytes = posix_file_system().read_file(target);
  if (!bytes) {
    Status failed = bytes.status();
    std::string message = failed.message();
    // Name the file as the user will recognise it, not as the OS spelled it.
    if (message.rfind(target, 0) == 0) message = path + message.substr(target.size());
    Finding finding = make_fatal("MK-IO-001", path, message);
    reply.findings.push_back(std::move(finding));
    return;
  }
  const Document doc = parse_markdown(std::move(bytes).value());
  if (const auto& issue = doc.parse_error()) {
    reply.findings.push_back(
        make_finding("MK-PARSE-001", Severity::error, path, describe_issue(*issue, path)));
  }
  if (const auto& issue = doc.utf8_error()) {
    reply.findings.push_back(
        make_finding("MK-UTF8-001", Severity::error, path, describe_issue(*issue, path)));
  }
  if (inv.format == OutputFormat::json) {
    reply.data = fixed(document_json(doc));
    return;
  }
  reply.text = fixed(units_text(doc, Style{env.stdout_is_terminal && !env.no_colour}));
}

// memorybox.md §6: exactly one event of `memorybox update`.
Result<memorybox::UpdateRequest> update_request(const CommandRequest& inv) {
  memkit::memorybox::UpdateRequest request;
  const auto entry = inv.options.find("--entry");
  if (entry == inv.options.end()) return Status(Errc::invalid_argument, "--entry: required");
  request.entry_id = entry->second;
  std::vector<memorybox::UpdateEvent> events;
  if (has_flag(inv, "--verify")) events.push_back(memorybox::UpdateEvent::verify);
  if (has_flag(inv, "--confirm")) events.push_back(memorybox::UpdateEvent::confirm);
  if (has_flag(inv, "--contradict")) events.push_back(memorybox::UpdateEvent::contradict);
  if (const auto resolve = inv.options.find("--resolve"); resolve != inv.options.end()) {
    if (resolve->second == "archive") {
      return Status(Errc::invalid_argument,
                    "--resolve archive: not in this version of memkit; use --resolve keep");
    }
    if (resolve->second != "keep") {
      return Status(Errc::invalid_argument,
                    "--resolve: expected keep, got '" + resolve->second + "'");
    }
    events.push_back(memorybox::UpdateEvent::resolve_keep);
  }
  if (events.size() != 1) {
    return Status(Errc::invalid_argument,
                  "memorybox update: give exactly one of --verify, --confirm, --contradict and "
                  "--resolve keep");
  }
  request.event = events[0];
  if (const auto note = inv.options.find("--note"); note != inv.options.end()) {
    if (request.event != memorybox::UpdateEvent::contradict) {
      return Status(Errc::invalid_argument, "--note: only with --contradict");
    }
    if (Status text = check_plain_text("--note", note->second); !text.ok()) return text;
    request.note = note->second;
  }
  if (const auto confidence = inv.options.find("--confidence"); confidence != inv.options.end()) {
    if (request.event != memorybox::UpdateEvent::resolve_keep) {
      return Status(Errc::invalid_argument, "--confidence: only with --resolve keep");
    }
    request.confidence = memorybox::parse_confidence(confidence->second);
    if (!request.confidence) {
      return Status(Errc::invalid_argument,
                    "--confidence: expected 0 to 1 with at most two "
                    "decimals, got '" +
                        confidence->second + "'");
    }
  }
  return request;
}

// memorybox.md §2 and §11: the MemoryBox layout under an agent root (--root, default ".").
void run_memorybox(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  const Style style{env.stdout_is_terminal && !env.no_colour};
  const std::optional<ClockReading> now = start_command(inv, env, reply, false);
  if (!now) return;
  const auto given = inv.options.find("--root");
  Result<AgentRoot> root =
      AgentRoot::open(posix_file_system(), given == inv.options.end() ? "." : given->second);
  if (!root) {
    reply.findings.push_back(finding_from(root.status()));
    return;
  }
  if (inv.command == "init") {
    const Result<MemoryBoxInit> made = root->init_memorybox();
    if (!made) {
      reply.findings.push_back(finding_from(made.status()));
      return;
    }
    reply.data = fixed(memorybox_init_json(*made));
    if (inv.format == OutputFormat::text) reply.text = fixed(memorybox_init_text(*made));
    return;
  }
  const Result<memorybox::Inputs> inputs = root->read_memorybox_inputs();
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  if (inv.command == "hygiene") {
    const memorybox::Hygiene hygiene = memorybox::memorybox_hygiene(*inputs, *now);
    reply.findings = hygiene.findings;
    reply.data = fixed(memorybox_hygiene_json(hygiene));
    if (inv.format == OutputFormat::text)
      reply.text = fixed(memorybox_hygiene_text(hygiene, style));
    return;
  }
  if (inv.command == "update") {
    const Result<memorybox::UpdateRequest> request = update_request(inv);
    if (!request) {
      // An invalid confidence argument has its own code (memorybox.md §12).
      const bool confidence = request.status().message().rfind("--confidence:", 0) == 0;
      reply.findings.push_back(confidence ? make_fatal("MK-BOX-001", "", request.status().message())
                                          : finding_from(request.status()));
      return;
    }
    const Result<memorybox::UpdatePlanning> update =
        memorybox::plan_update(*inputs, *request, *now);
    if (!update) {
      reply.findings.push_back(finding_from(update.status()));
      return;
    }
    const FileSnapshot* file = inputs->snapshot.find(update->path);
    if (Status written =
            root->write_file(update->path, apply_splices(file->text(), update->splices));
        !written.ok()) {
      reply.findings.push_back(finding_from(written));
      reply.data = fixed(memorybox_update_json(*update, {}));
      return;
    }
    reply.applied = true;
    reply.data = fixed(memorybox_update_json(*update, {update->path}));
    if (inv.format == OutputFormat::text) {
      reply.text = fixed("Updated " + update->entry_id + " in " + update->path + "\n");
    }
    return;
  }
  if (inv.command == "load") {
    std::optional<int> tier;
    if (const auto given_tier = inv.options.find("--tier"); given_tier != inv.options.end()) {
      const std::string& text = given_tier->second;
      if (text.size() != 1 || text[0] < '0' || text[0] > '9') {
        reply.findings.push_back(finding_from(
            Status(Errc::invalid_argument, "--tier: expected 1 to 5, got '" + text + "'")));
        return;
      }
      tier = text[0] - '0';
    }
    std::optional<std::string_view> file;
    if (const auto given_file = inv.options.find("--file"); given_file != inv.options.end()) {
      file = given_file->second;
    }
    const Result<std::vector<memorybox::LoadedFile>> loaded =
        memorybox::load_files(*inputs, tier, file, has_flag(inv, "--include-archive"));
    if (!loaded) {
      reply.findings.push_back(finding_from(loaded.status()));
      return;
    }
    reply.data = fixed(memorybox_load_json(*loaded));
    if (inv.format == OutputFormat::text) {
      std::string text;
      for (const memorybox::LoadedFile& f : *loaded) {
        text += "== " + f.path + " (tier " + std::to_string(f.tier) + ", " +
                std::to_string(f.lines) + " lines) ==\n" + *f.content;
        if (!f.content->empty() && f.content->back() != '\n') text += '\n';
      }
      reply.text = fixed(text.empty() ? "No file to load.\n" : text);
    }
    return;
  }
  if (inv.command == "decay") {
    std::optional<std::string> only;
    if (const auto file = inv.options.find("--file"); file != inv.options.end()) {
      only = file->second;
      bool known = false;
      for (const memorybox::TierSpec& tier : memorybox::default_tiers()) {
        known = known || (tier.tier <= 4 && std::find(tier.files.begin(), tier.files.end(),
                                                      *only) != tier.files.end());
      }
      known = known || std::find(inputs->daily_files.begin(), inputs->daily_files.end(), *only) !=
                           inputs->daily_files.end();
      if (!known) {
        reply.findings.push_back(finding_from(
            Status(Errc::invalid_argument,
                   "--file: " + *only +
                       ": not a tier 1-4 file of this agent root (memory/LONG_TERM.md, "
                       "memory/daily/YYYY-MM-DD.md, ...)")));
        return;
      }
    }
    const memorybox::DecayReport decay = memorybox::memorybox_decay(*inputs, *now, only);
    reply.findings = decay.findings;
    reply.data = fixed(memorybox_decay_json(decay));
    if (inv.format == OutputFormat::text) reply.text = fixed(memorybox_decay_text(decay, style));
    return;
  }
  const memorybox::Report status = memorybox::memorybox_status(*inputs, *now);
  reply.findings = status.findings;
  reply.data = fixed(memorybox_status_json(status));
  if (inv.format == OutputFormat::text) reply.text = fixed(memorybox_status_text(status, style));
}

}  // namespace

CommandReply execute(const CommandRequest& request, const CommandEnvironment& env) {
  CommandReply reply;
  reply.command = request.group + (request.command.empty() ? "" : " " + request.command);
  const auto known = command_options().find(reply.command);
  if (known != command_options().end()) {
    // The CLI's parser refuses these already; a request built elsewhere (the C ABI) gets the
    // same refusal here.
    auto takes = [](const std::vector<std::string>& list, const std::string& name) {
      return std::find(list.begin(), list.end(), name) != list.end();
    };
    for (const auto& [name, value] : request.options) {
      if (!takes(known->second.with_value, name)) {
        reply.findings.push_back(finding_from(
            Status(Errc::invalid_argument, "unknown option " + name + " for " + reply.command)));
        return reply;
      }
    }
    for (const std::string& name : request.flags) {
      if (!takes(known->second.flags, name)) {
        reply.findings.push_back(finding_from(
            Status(Errc::invalid_argument, "unknown option " + name + " for " + reply.command)));
        return reply;
      }
    }
  }
  if (command_options().count(reply.command) == 0) {
    reply.findings.push_back(finding_from(Status(
        Errc::invalid_argument,
        request.command.empty() ? "missing command for '" + request.group + "'; see --help"
                                : "unknown command '" + reply.command + "'; see memkit --help")));
  } else if (request.group == "custodian") {
    run_custodian(request, env, reply);
  } else if (request.group == "memorybox") {
    run_memorybox(request, env, reply);
  } else {
    run_markdown_units(request, env, reply);
  }
  return reply;
}

void write_reply_json(const CommandReply& reply, const TextSink& sink) {
  std::vector<Finding> findings = reply.findings;
  sort_findings(findings);
  const JsonWriter data =
      reply.data ? reply.data : JsonWriter([](const TextSink& out) { out("{}"); });
  write_envelope_json(reply.command, data, findings, sink);
}

}  // namespace memkit
