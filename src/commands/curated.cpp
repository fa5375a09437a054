// `memkit curated ...` (curated.md): the store opened, the workspace and configuration checked,
// and what every curated command shares: reads of the rows and logs, the recording of counted
// reads (§9) and the one write flow (§6 "Transactions"). The commands themselves live in
// curated_writes.cpp, curated_reads.cpp and curated_floors.cpp.
#include <algorithm>
#include <map>

#include "commands/curated_flow.hpp"
#include "json/json.hpp"
#include "memkit/curated/floors.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {

void curated_refuse(CuratedRun& run, std::string code, std::string message) {
  run.reply.findings.push_back(make_fatal(std::move(code), "", std::move(message)));
}

Finding curated_finding(const Status& status) {
  if (status.code() == Errc::unsafe_path) {
    return make_finding("MK-IO-002", Severity::blocker, "", status.message(),
                        "replace the link with the folder or file it points to");
  }
  return finding_from(status);
}

bool curated_failed(CuratedRun& run, const Status& status) {
  if (status.ok()) return false;
  run.reply.findings.push_back(curated_finding(status));
  return true;
}

bool writer_allowed(CuratedRun& run, std::string_view remediation) {
  if (curated::may_write(run.config, run.actor)) return true;
  run.reply.findings.push_back(
      make_finding("MK-CUR-002", Severity::error, "",
                   "writer_forbidden: actor '" + *run.actor + "' is not in config.json's writers",
                   std::string(remediation)));
  return false;
}

bool positionals(CuratedRun& run, std::size_t count, std::string_view usage) {
  if (run.inv.positionals.size() == count) return true;
  curated_refuse(run, "MK-ARG-001",
                 "curated " + std::string(usage) + ": expected " + std::to_string(count) +
                     " argument" + (count == 1 ? "" : "s") + ", got " +
                     std::to_string(run.inv.positionals.size()));
  return false;
}

std::optional<std::string> curated_required(CuratedRun& run, std::string_view name) {
  std::optional<std::string> value = option(run.inv, name);
  if (!value) {
    curated_refuse(run, "MK-ARG-001",
                   "curated " + run.inv.command + ": " + std::string(name) + " is required");
  }
  return value;
}

std::optional<std::uint64_t> curated_count(CuratedRun& run, std::string_view name,
                                           std::uint64_t fallback) {
  const Result<std::uint64_t> value = count_option(run.inv, name, fallback);
  if (!value) {
    curated_refuse(run, "MK-ARG-001", value.status().message());
    return std::nullopt;
  }
  return *value;
}

std::optional<std::string> text_argument(CuratedRun& run, std::string_view inline_option,
                                         std::string_view file_option, bool required) {
  std::optional<std::string> text = option(run.inv, inline_option);
  const std::optional<std::string> file = option(run.inv, file_option);
  if (text && file) {
    curated_refuse(run, "MK-ARG-001",
                   std::string(inline_option) + ", " + std::string(file_option) + ": give one");
    return std::nullopt;
  }
  if (!text && !file) {
    if (required) {
      curated_refuse(run, "MK-ARG-001",
                     "curated " + run.inv.command + ": " + std::string(inline_option) + " or " +
                         std::string(file_option) + " is required");
    }
    return std::nullopt;
  }
  if (text) return text;
  return file_text(run, file_option, *file);
}

std::optional<std::string> file_text(CuratedRun& run, std::string_view option_name,
                                     const std::string& file) {
  Result<std::string> bytes = read_input(run.env, option_name, file);
  if (!bytes) {
    curated_refuse(run, "MK-ARG-001", shown_text(bytes.status().message()));
    return std::nullopt;
  }
  return std::move(bytes).value();
}

bool is_dry_run(const CuratedRun& run) { return has_flag(run.inv, "--dry-run"); }

// ---- reads --------------------------------------------------------------------------------------

const curated::Row* CuratedRows::find(std::string_view name) const noexcept {
  const auto at =
      std::lower_bound(rows.begin(), rows.end(), name,
                       [](const curated::Row& row, std::string_view n) { return row.name < n; });
  return at != rows.end() && at->name == name ? &*at : nullptr;
}

namespace {

// One file's bytes for a read: "" when missing; a link or unreadable file is a finding.
std::optional<std::string> log_bytes(CuratedRun& run, const FileSnapshot& file) {
  switch (file.state) {
    case EntryState::file:
      return std::string(file.text());
    case EntryState::missing:
      return std::string();
    case EntryState::symlink:
      run.reply.findings.push_back(
          make_finding("MK-IO-002", Severity::blocker, file.path,
                       file.path + ": a symbolic link; memkit never reads or writes through one",
                       "replace the link with the file it points to"));
      return std::nullopt;
    case EntryState::not_a_file:
      run.reply.findings.push_back(
          make_fatal("MK-IO-001", file.path, file.path + ": not a regular file"));
      return std::nullopt;
    case EntryState::unreadable:
      run.reply.findings.push_back(
          make_fatal("MK-IO-001", file.path, file.path + ": " + file.error));
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<CuratedRows> read_rows(CuratedRun& run) {
  std::vector<std::string> paths;
  for (const curated::RowType type :
       {curated::RowType::project, curated::RowType::user, curated::RowType::feedback,
        curated::RowType::atom, curated::RowType::decision, curated::RowType::negative}) {
    paths.push_back(curated::rows_path(run.workspace, type));
  }
  Result<Snapshot> files = run.store.read(paths);
  if (curated_failed(run, files.status())) return std::nullopt;
  CuratedRows out;
  out.stored = curated::read_workspace(*files, run.workspace);
  for (const Finding& f : out.stored.findings) run.reply.findings.push_back(f);
  // The rows are moved, not copied (a workspace may hold 100,000 of them): `stored` keeps the
  // findings only.
  out.rows.reserve(out.stored.rows.size());
  for (curated::StoredRow& stored : out.stored.rows) out.rows.push_back(std::move(stored.row));
  out.stored.rows.clear();
  return out;
}

std::optional<std::vector<curated::HistoryRecord>> read_history(CuratedRun& run) {
  const std::string path = curated::history_path(run.workspace);
  Result<Snapshot> files = run.store.read({path});
  if (curated_failed(run, files.status())) return std::nullopt;
  const std::optional<std::string> bytes = log_bytes(run, *files->find(path));
  if (!bytes) return std::nullopt;
  curated::HistoryLog log = curated::parse_history(*bytes, path);
  for (Finding& f : log.findings) run.reply.findings.push_back(std::move(f));
  return std::move(log.records);
}

std::optional<curated::Telemetry> read_telemetry(CuratedRun& run) {
  const std::string access = curated::access_path(run.workspace);
  const std::string snapshot = curated::snapshot_path(run.workspace);
  Result<Snapshot> files = run.store.read({snapshot, access});
  if (curated_failed(run, files.status())) return std::nullopt;
  // §2: telemetry meeting a link is skipped with a warning and the read goes on, so a linked
  // access log (or snapshot) counts as empty rather than failing the read.
  auto telemetry_bytes = [&](const std::string& path) -> std::optional<std::string> {
    const FileSnapshot& file = *files->find(path);
    if (file.state != EntryState::symlink) return log_bytes(run, file);
    const bool warned =
        std::any_of(run.reply.findings.begin(), run.reply.findings.end(),
                    [&](const Finding& f) { return f.code == "MK-CUR-031" && f.path == path; });
    if (!warned) {
      run.reply.findings.push_back(make_finding(
          "MK-CUR-031", Severity::warning, path,
          path + ": a symbolic link; memkit neither reads nor writes telemetry through one",
          "replace the link with the file it points to; the counters shown leave it out"));
    }
    return std::string();
  };
  const std::optional<std::string> folded = telemetry_bytes(snapshot);
  const std::optional<std::string> lines = telemetry_bytes(access);
  if (!folded || !lines) return std::nullopt;
  curated::Telemetry telemetry = curated::fold_telemetry(*folded, *lines, snapshot, access);
  for (const Finding& f : telemetry.findings) run.reply.findings.push_back(f);
  telemetry.findings.clear();
  return telemetry;
}

std::optional<std::vector<std::string>> day_files(CuratedRun& run, std::string_view floor_dir) {
  Result<std::vector<std::string>> names = run.store.file_names(std::string(floor_dir));
  if (curated_failed(run, names.status())) return std::nullopt;
  std::vector<std::string> paths;
  for (const std::string& name : *names) {  // sorted bytewise, so by date
    if (curated::day_of_file(name)) paths.push_back(std::string(floor_dir) + "/" + name);
  }
  return paths;
}

void record_reads(CuratedRun& run, curated::ReadKind kind, const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::string lines;
  for (const std::string& name : names) {
    lines += curated::access_line(curated::AccessRecord{
        .ts = run.ts, .name = name, .kind = kind, .surface = run.inv.command});
  }
  const std::string path = curated::access_path(run.workspace);
  if (const Status appended = run.store.append(path, lines); !appended.ok()) {
    run.reply.findings.push_back(make_finding(
        "MK-CUR-031", Severity::warning, path,
        "telemetry could not be recorded: " + appended.message(),
        "the read succeeded; check that " + path + " is a writable regular file, not a link"));
  }
}

// ---- writes -------------------------------------------------------------------------------------

bool same_files(const Snapshot& a, const Snapshot& b) {
  return std::equal(a.files().begin(), a.files().end(), b.files().begin(), b.files().end(),
                    [](const FileSnapshot& x, const FileSnapshot& y) {
                      return x.path == y.path && x.state == y.state && x.error == y.error &&
                             x.offset == y.offset && x.text() == y.text();
                    });
}

std::optional<Snapshot> read_inputs(CuratedRun& run, const curated::WriteInputs& inputs) {
  Result<Snapshot> files = run.store.read(inputs.whole, inputs.tails);
  if (curated_failed(run, files.status())) return std::nullopt;
  return std::move(files).value();
}

std::optional<LockedInputs> lock_and_read(CuratedRun& run, const curated::WriteInputs& inputs) {
  Result<std::unique_ptr<LockHandle>> lock = run.store.lock(run.inv.lock_timeout_seconds);
  if (curated_failed(run, lock.status())) return std::nullopt;
  const Result<Recovery> pending = run.store.recover(false, false);
  if (curated_failed(run, pending.status())) return std::nullopt;
  if (!pending->clean()) {
    run.reply.findings.push_back(unfinished_transaction("run `memkit curated recover`"));
    return std::nullopt;
  }
  std::optional<Snapshot> files = read_inputs(run, inputs);
  if (!files) return std::nullopt;
  return LockedInputs{.lock = std::move(lock).value(), .files = std::move(*files)};
}

std::optional<curated::Write> run_write(CuratedRun& run, bool dry_run, const CuratedPlanner& plan,
                                        bool purge) {
  auto finish = [&](curated::Write write) {
    for (const Finding& f : write.findings) run.reply.findings.push_back(f);
    return write;
  };
  if (run.staged != nullptr) {
    curated::Write write = plan(run.staged->files(), run.context());
    if (!dry_run && !write.refused() && write.changed) run.staged->stage(write.operations);
    return finish(std::move(write));
  }
  const curated::WriteInputs inputs = curated::write_inputs(run.workspace, purge);
  if (dry_run) {
    const std::optional<Snapshot> files = read_inputs(run, inputs);
    if (!files) return std::nullopt;
    return finish(plan(*files, run.context()));
  }
  if (!writer_allowed(run, "propose the change with --dry-run and let a writer apply it"))
    return std::nullopt;
  const std::optional<Snapshot> unlocked = read_inputs(run, inputs);
  if (!unlocked) return std::nullopt;
  std::optional<curated::Write> first = plan(*unlocked, run.context());
  if (first->refused()) return finish(std::move(*first));
  const std::optional<LockedInputs> locked = lock_and_read(run, inputs);
  if (!locked) return std::nullopt;
  // The plan is a pure function of the files (and of the run, the same both times): when the
  // files read under the lock are the ones read before it, byte for byte, the first plan is the
  // plan of the locked files. Only a change in between costs a second plan; comparing the bytes
  // costs far less than parsing and hashing them again.
  std::optional<curated::Write> write = std::move(first);
  if (!same_files(*unlocked, locked->files)) write = plan(locked->files, run.context());
  if (write->refused() || !write->changed) return finish(std::move(*write));
  std::vector<PlanOperation> operations = write->operations;
  Result<std::vector<std::string>> done =
      run.store.write("curated " + run.inv.command, std::move(operations), run.now);
  if (curated_failed(run, done.status())) return std::nullopt;
  run.reply.applied = true;
  return finish(std::move(*write));
}

// ---- dispatch -----------------------------------------------------------------------------------

namespace {

void run_curated_recover(CuratedRun& run) {
  if (!positionals(run, 0, "recover")) return;
  run_recover(
      run.inv, run.reply, [&] { return run.store.lock(run.inv.lock_timeout_seconds); },
      [&](bool apply, bool rollback) { return run.store.recover(apply, rollback); });
}

}  // namespace

void run_curated(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  const std::optional<ClockReading> now =
      start_command(inv, env, reply, /*takes_positionals=*/true);
  if (!now) return;
  // §2: the workspace is always explicit, and checked before the store is touched.
  const std::optional<std::string> workspace =
      option(inv, "--workspace") ? option(inv, "--workspace") : env.memkit_workspace;
  if (!workspace) {
    reply.findings.push_back(
        make_finding("MK-CUR-001", Severity::blocker, "", "missing_scope: no workspace given",
                     "pass --workspace NAME or set MEMKIT_WORKSPACE; memkit never infers it"));
    reply.findings.back().fatal = true;
    return;
  }
  if (!curated::is_workspace_name(*workspace)) {
    reply.findings.push_back(finding_from(Status(
        Errc::invalid_argument,
        "--workspace: '" + *workspace + "' is not a workspace name (^[a-z0-9][a-z0-9_-]{0,63}$)")));
    return;
  }
  const std::string root = option(inv, "--store")
                               ? *option(inv, "--store")
                               : env.memkit_store.value_or(env.current_directory + "/curated");
  Result<CuratedStore> store = CuratedStore::open(posix_file_system(), root);
  if (!store) {
    reply.findings.push_back(finding_from(store.status()));
    return;
  }
  Result<Snapshot> config_file = store->read({"config.json"});
  if (!config_file) {
    reply.findings.push_back(finding_from(config_file.status()));
    return;
  }
  const FileSnapshot* config_entry = config_file->find("config.json");
  if (config_entry->state != EntryState::file && config_entry->state != EntryState::missing) {
    reply.findings.push_back(
        make_fatal("MK-IO-001", "config.json", "config.json: not a readable regular file"));
    return;
  }
  curated::ConfigRead config = curated::parse_config(
      config_entry->exists() ? std::optional<std::string>(std::string(config_entry->text()))
                             : std::nullopt);
  if (config.refused) {
    reply.findings.push_back(std::move(*config.refused));
    return;
  }
  std::optional<std::string> actor = option(inv, "--actor");
  if (!actor) actor = env.memkit_actor;
  CuratedRun run{.inv = inv,
                 .env = env,
                 .now = *now,
                 .ts = now->utc_rfc3339_millis(),
                 .store = *store,
                 .workspace = *workspace,
                 .config = std::move(config.config),
                 .actor = std::move(actor),
                 .reply = reply};
  static const std::map<std::string, void (*)(CuratedRun&)> kCommands = {
      {"add", run_curated_add},         {"append", run_curated_append},
      {"edit", run_curated_edit},       {"reclassify", run_curated_reclassify},
      {"link", run_curated_link},       {"unlink", run_curated_link},
      {"delete", run_curated_delete},   {"restore", run_curated_restore},
      {"recover", run_curated_recover}, {"checkpoint", run_curated_checkpoint},
      {"batch", run_curated_batch},     {"get-relevant", run_curated_get_relevant},
      {"kernel", run_curated_kernel},   {"show", run_curated_show},
      {"list", run_curated_list},       {"search", run_curated_search},
      {"stats", run_curated_stats},     {"conflicts", run_curated_conflicts},
      {"lineage", run_curated_lineage}, {"story", run_curated_story},
      {"event", run_curated_event},     {"episode", run_curated_episode},
      {"floors", run_curated_floors},   {"telemetry", run_curated_telemetry},
  };
  kCommands.at(inv.command)(run);
}

}  // namespace memkit::commands_detail
