// The curated floors and telemetry commands (curated.md §1, §2, §9, §10 "Floors"): `event add`
// and `episode add` append one JSON line to the day file as one journalled append under the lock
// (reading only the file's end), `episode show` reads the episodes floor, and `floors prune` and
// `telemetry compact` are plan-confirmed, like every removal or rewrite memkit makes (compaction.md
// §12.3).
#include <algorithm>
#include <memory>

#include "commands/curated_flow.hpp"
#include "json/curated_json.hpp"
#include "json/json.hpp"
#include "memkit/curated/floors.hpp"

namespace memkit::commands_detail {
namespace {

// The sub-command, the first positional: `usage` is what the command takes ("event add").
bool sub_command(CuratedRun& run, std::string_view word, std::size_t count,
                 std::string_view usage) {
  const std::vector<std::string>& words = run.inv.positionals;
  if (!words.empty() && words[0] == word && words.size() == count) {
    run.reply.command = "curated " + run.inv.command + " " + std::string(word);  // the whole verb
    return true;
  }
  curated_refuse(run, "MK-ARG-001",
                 "curated " + run.inv.command + ": expected `" + std::string(usage) + "`");
  return false;
}

constexpr std::string_view kAskWriter = "ask a writer to record it";
constexpr std::string_view kWriterApplies =
    "review the dry run (without --apply) and let a writer apply its plan";

// Why a day file cannot be appended to, as the store's appends say it; ok for a file or none.
Status appendable(const FileSnapshot& day_file) {
  switch (day_file.state) {
    case EntryState::symlink:
      return day_file.error.empty()
                 ? Status(Errc::unsafe_path, day_file.path +
                                                 ": a symbolic link; memkit never writes or "
                                                 "appends through one")
                 : Status(Errc::unsafe_path, day_file.error +
                                                 ": a symbolic link; memkit never writes or reads "
                                                 "through one");
    case EntryState::not_a_file:
      return Status(Errc::io, day_file.path + ": not a regular file");
    case EntryState::unreadable:
      return Status(Errc::io, day_file.path + ": " + day_file.error);
    case EntryState::file:
    case EntryState::missing:
      break;
  }
  return Status();
}

// Appends a checked floor line and replies with it: one journalled append under .memkit/lock, so
// a crash leaves the day file without the line or with all of it (issue 31), never a part.
void append_line(CuratedRun& run, const curated::FloorLine& line, std::string_view what) {
  if (line.refused) {
    run.reply.findings.push_back(*line.refused);
    return;
  }
  // A day file that cannot be appended to refuses before the lock: a refusal writes nothing, not
  // even .memkit/. Under the lock it is read again: another writer may have appended meanwhile.
  const auto read = [&]() -> std::optional<FileSnapshot> {
    const Result<Snapshot> files = run.store.read({}, {line.path});
    if (curated_failed(run, files.status())) return std::nullopt;
    const FileSnapshot& day_file = *files->find(line.path);
    if (curated_failed(run, appendable(day_file))) return std::nullopt;
    return day_file;
  };
  if (!read()) return;
  Result<std::unique_ptr<LockHandle>> lock = run.store.lock(run.inv.lock_timeout_seconds);
  if (curated_failed(run, lock.status())) return;
  const Result<Recovery> pending = run.store.recover(false, false);
  if (curated_failed(run, pending.status())) return;
  if (!pending->clean()) {
    run.reply.findings.push_back(unfinished_transaction("run `memkit curated recover`"));
    return;
  }
  const std::optional<FileSnapshot> day_file = read();
  if (!day_file) return;
  if (curated_failed(
          run,
          run.store.write(run.reply.command, {curated::plan_floor_append(*day_file, line)}, run.now)
              .status())) {
    return;
  }
  run.reply.applied = true;
  run.reply.data = fixed(curated_floor_record_json(run.workspace, line.path, line.line));
  run.reply.text = fixed("Appended " + std::string(what) + " to:\n  " + line.path + "\n");
}

void event_add(CuratedRun& run) {
  const std::optional<std::string> type = curated_required(run, "--type");
  if (!type) return;
  if (!writer_allowed(run, kAskWriter)) return;
  const curated::EventRequest request{.type = *type,
                                      .source = option(run.inv, "--source"),
                                      .agent = option(run.inv, "--agent"),
                                      .result = option(run.inv, "--result"),
                                      .severity = option(run.inv, "--severity"),
                                      .payload = option(run.inv, "--payload")};
  append_line(run, curated::event_line(request, run.workspace, run.ts), "the event");
}

void episode_add(CuratedRun& run) {
  const std::optional<std::string> file = curated_required(run, "--file");
  if (!file) return;
  const std::optional<std::string> text = file_text(run, "--file", *file);
  if (!text) return;
  if (!writer_allowed(run, kAskWriter)) return;
  append_line(run, curated::episode_line(*text, run.workspace, run.ts), "the episode");
}

void episode_show(CuratedRun& run) {
  const std::string& id = run.inv.positionals[1];
  const std::optional<std::vector<std::string>> paths = day_files(run, curated::kEpisodesDir);
  if (!paths) return;
  Result<Snapshot> files = run.store.read(*paths);
  if (curated_failed(run, files.status())) return;
  // The same id twice (appends are not checked for uniqueness): the latest `ts` wins, and among
  // equal ones the line appended last, as the day files and their lines are in time order.
  std::optional<curated::Episode> found;
  std::string found_path;
  for (const FileSnapshot& file : files->files()) {
    if (!file.exists()) continue;  // gone since it was listed
    curated::EpisodeFile read = curated::parse_episodes(file.text(), file.path, run.workspace);
    for (Finding& f : read.findings) run.reply.findings.push_back(std::move(f));
    for (curated::Episode& episode : read.episodes) {
      if (episode.episode_id != id || (found && episode.ts < found->ts)) continue;
      found = std::move(episode);
      found_path = file.path;
    }
  }
  if (!found) {
    run.reply.findings.push_back(
        make_finding("MK-CUR-011", Severity::error, "",
                     "no episode '" + id + "' in workspace '" + run.workspace + "'",
                     "find it with `memkit curated search --scope episodes`"));
    return;
  }
  run.reply.data = fixed(curated_floor_record_json(run.workspace, found_path, found->json));
  run.reply.text = fixed(found_path + "\n" + found->json + "\n");
}

// The writer of a floor or telemetry plan: the store's lock, MK-TXN-001 when a transaction is
// unfinished (as every curated write, §6: `curated recover` finishes it), the store's apply.
PlanWriter plan_writer(CuratedRun& run) {
  PlanWriter writer;
  writer.lock = [&run] { return run.store.lock(run.inv.lock_timeout_seconds); };
  writer.ready = [&run](CommandReply& reply) {
    const Result<Recovery> pending = run.store.recover(false, false);
    if (!pending) {
      reply.findings.push_back(curated_finding(pending.status()));
      return false;
    }
    if (pending->clean()) return true;
    reply.findings.push_back(unfinished_transaction("run `memkit curated recover`"));
    return false;
  };
  writer.apply = [&run](const Plan& plan) { return run.store.apply(plan, run.now); };
  writer.recover_hint = "run `memkit curated recover`";
  return writer;
}

// The text view of a plan's outcome: the files, then the plan or what was written.
std::string plan_text(const std::optional<Plan>& plan, bool applied,
                      const std::vector<std::string>& written) {
  if (!plan) return "Nothing to apply.\n";
  if (applied) {
    std::string out = "Applied plan " + plan->id() + ". Written:\n";
    for (const std::string& path : written) out += "  " + path + "\n";
    return out;
  }
  std::string out = "Plan ID: " + plan->id() + "\n";
  for (const PlanOperation& op : plan->operations()) {
    out += "  " + std::string(operation_kind_name(op.kind)) + " " + op.path + "\n";
  }
  return out + "Dry run only. Apply with: --apply --confirm-plan " + plan->id() + "\n";
}

// ---- floors prune -------------------------------------------------------------------------------

struct PrunePlan {
  std::vector<std::string> files;
  std::optional<Plan> plan;
};

Result<PlannedRun> plan_prune(CuratedRun& run) {
  PlannedRun made;
  auto prune = std::make_shared<PrunePlan>();
  std::vector<std::string> paths;
  for (const auto& [floor, days] : {std::pair{curated::kEventsDir, run.config.events_days},
                                    std::pair{curated::kEpisodesDir, run.config.episodes_days}}) {
    Result<std::vector<std::string>> names = run.store.file_names(std::string(floor));
    if (!names) {
      made.findings.push_back(curated_finding(names.status()));
      continue;
    }
    for (std::string& path : curated::prunable_days(*names, floor, run.now, days)) {
      paths.push_back(std::move(path));
    }
  }
  if (made.findings.empty() && !paths.empty()) {
    Result<Snapshot> files = run.store.read(paths);
    if (!files) return files.status();
    std::vector<PlanOperation> operations;
    for (const FileSnapshot& file : files->files()) {
      if (!file.exists()) {
        made.findings.push_back(
            make_fatal("MK-IO-001", file.path, file.path + ": not a readable regular file"));
        continue;
      }
      prune->files.push_back(file.path);
      operations.push_back(plan_remove(file));
    }
    if (made.findings.empty()) {
      prune->plan = Plan::create("curated floors prune",
                                 {{"events_days", std::to_string(run.config.events_days)},
                                  {"episodes_days", std::to_string(run.config.episodes_days)}},
                                 std::move(operations), {});
    } else {
      prune->files.clear();
    }
  }
  made.plan = prune->plan;
  const std::string workspace = run.workspace;
  made.data = [prune, workspace](bool applied, const std::vector<std::string>&) {
    return fixed(curated_floors_prune_json(workspace, prune->files,
                                           prune->plan ? &*prune->plan : nullptr, applied));
  };
  made.text = [prune](bool applied, const std::vector<std::string>& written) {
    std::string text = "Day files past retention: " + std::to_string(prune->files.size()) + "\n";
    for (const std::string& path : prune->files) text += "  " + path + "\n";
    return fixed(text + "\n" + plan_text(prune->plan, applied, written));
  };
  return made;
}

// ---- telemetry compact --------------------------------------------------------------------------

struct CompactPlan {
  std::uint64_t folded = 0;
  std::uint64_t kept = 0;
  std::optional<Plan> plan;
};

std::uint64_t line_count(std::string_view bytes) {
  std::uint64_t n = 0;
  for (std::size_t at = 0; at < bytes.size(); ++n) {
    const std::size_t lf = bytes.find('\n', at);
    at = lf == std::string_view::npos ? bytes.size() : lf + 1;
  }
  return n;
}

Result<PlannedRun> plan_compact(CuratedRun& run, const std::string& before) {
  PlannedRun made;
  auto compact = std::make_shared<CompactPlan>();
  const std::string access_path = curated::access_path(run.workspace);
  const std::string snapshot_path = curated::snapshot_path(run.workspace);
  Result<Snapshot> files = run.store.read({access_path, snapshot_path});
  if (!files) return files.status();
  const FileSnapshot& access = *files->find(access_path);
  const FileSnapshot& snapshot = *files->find(snapshot_path);
  for (const FileSnapshot* file : {&access, &snapshot}) {
    if (file->state == EntryState::symlink) {
      made.findings.push_back(make_finding(
          "MK-IO-002", Severity::blocker, file->path,
          file->path + ": a symbolic link, or a link on the way to it; memkit never writes through "
                       "one",
          "replace the link with the folder or file it points to"));
    } else if (file->state != EntryState::file && file->state != EntryState::missing) {
      made.findings.push_back(
          make_fatal("MK-IO-001", file->path, file->path + ": not a readable regular file"));
    }
  }
  if (made.findings.empty()) {
    // A snapshot entry that does not read is skipped by every read, but compaction rewrites the
    // snapshot from what it reads and would drop it for good: it must be fixed first. An
    // unreadable access line is kept as it stands, so it only warns.
    curated::Telemetry read =
        curated::fold_telemetry(snapshot.text(), access.text(), snapshot_path, access_path);
    for (Finding& f : read.findings) {
      if (f.path == snapshot_path) {
        for (const std::string_view tail : {"; it is skipped", "; it is ignored"}) {
          if (f.message.ends_with(tail)) f.message.resize(f.message.size() - tail.size());
        }
        f.message += "; compacting would drop it";
        f.severity = Severity::blocker;
        f.remediation = "correct or remove it, then compact";
      }
      made.findings.push_back(std::move(f));
    }
  }
  const bool stops = std::ranges::any_of(
      made.findings, [](const Finding& f) { return f.severity == Severity::blocker; });
  if (!stops) {
    const curated::CompactedTelemetry out =
        curated::compact_telemetry(snapshot.text(), access.text(), before);
    compact->kept = line_count(out.access);
    compact->folded = line_count(access.text()) - compact->kept;
    if (compact->folded > 0) {
      std::vector<PlanOperation> operations;
      const auto rewrite = [&](const FileSnapshot& file, const std::string& bytes) {
        if (file.exists() && file.text() == bytes) return;
        auto base = file.exists() ? file.bytes : std::make_shared<const std::string>();
        operations.push_back(
            plan_write(file.path, base, file.exists(),
                       {Splice{.begin = 0, .end = base->size(), .insert = bytes}}));
      };
      rewrite(access, out.access);
      rewrite(snapshot, out.snapshot);
      compact->plan = Plan::create("curated telemetry compact",
                                   {{"before", before}, {"workspace", run.workspace}},
                                   std::move(operations), {});
    }
  }
  made.plan = compact->plan;
  const std::string workspace = run.workspace;
  made.data = [compact, workspace, before](bool applied, const std::vector<std::string>&) {
    return fixed(curated_telemetry_compact_json(workspace, before, compact->folded, compact->kept,
                                                compact->plan ? &*compact->plan : nullptr,
                                                applied));
  };
  made.text = [compact, before](bool applied, const std::vector<std::string>& written) {
    std::string text = "Access records before " + before + ": " + std::to_string(compact->folded) +
                       " to fold, " + std::to_string(compact->kept) + " kept\n\n";
    return fixed(text + plan_text(compact->plan, applied, written));
  };
  return made;
}

}  // namespace

void run_curated_event(CuratedRun& run) {
  if (!sub_command(run, "add", 1, "event add --type T")) return;
  event_add(run);
}

void run_curated_episode(CuratedRun& run) {
  const std::vector<std::string>& words = run.inv.positionals;
  if (!words.empty() && words[0] == "show") {
    if (sub_command(run, "show", 2, "episode show <id>")) episode_show(run);
    return;
  }
  if (!sub_command(run, "add", 1, "episode add --file F|- or episode show <id>")) return;
  episode_add(run);
}

void run_curated_floors(CuratedRun& run) {
  if (!sub_command(run, "prune", 1, "floors prune [--apply --confirm-plan ID]")) return;
  if (has_flag(run.inv, "--apply") && !writer_allowed(run, kWriterApplies)) return;
  run_planned(run.inv, run.reply, plan_writer(run), [&](bool) { return plan_prune(run); });
}

void run_curated_telemetry(CuratedRun& run) {
  if (!sub_command(run, "compact", 1, "telemetry compact --before TS [--apply --confirm-plan ID]"))
    return;
  const std::optional<std::string> text = curated_required(run, "--before");
  if (!text) return;
  const Result<ClockReading> before = ClockReading::parse_rfc3339(*text, "--before");
  if (!before) {
    run.reply.findings.push_back(finding_from(before.status()));
    return;
  }
  // Records are compared as text (§2: string order is time order), so `before` is spelled as
  // they are: UTC with milliseconds, whatever offset it was given with.
  const std::string utc = before->utc_rfc3339_millis();
  if (has_flag(run.inv, "--apply") && !writer_allowed(run, kWriterApplies)) return;
  run_planned(run.inv, run.reply, plan_writer(run), [&](bool) { return plan_compact(run, utc); });
}

}  // namespace memkit::commands_detail
