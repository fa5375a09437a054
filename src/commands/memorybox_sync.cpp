// `memkit memorybox sync pull|push|status|resolve` (memorybox.md §9): the local files, the sync
// state in .memkit/ and a remote (a folder or PostgreSQL), under the agent root's lock.
//
// Write order, so that a crash anywhere leaves a state the next run repairs: a pull writes the
// open conflicts, then the plan (one transaction), then the base, then sync.json; a push writes the
// Id lines first, then sends, then the base and sync.json. Sending again what was acknowledged, or
// pulling again what was merged, changes nothing.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "commands/flow.hpp"
#include "files/progress.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memkit/text.hpp"
#include "parallel/run_both.hpp"
#include "store/sync_state.hpp"
#include "sync/remote.hpp"

namespace memkit::commands_detail {

namespace {

using memorybox::SyncRecord;

// A remote's failure: unreachable or refused (MK-BOX-023), a newer schema (MK-BOX-024), a record
// that fails validation (MK-BOX-025). Every one is fatal: nothing was written.
Finding remote_finding(const Status& status) {
  switch (status.code()) {
    case Errc::layout:
      return make_fatal("MK-BOX-024", "", status.message());
    case Errc::parse:
      return make_fatal("MK-BOX-025", "", status.message());
    case Errc::invalid_argument:
      return finding_from(status);
    default:
      return make_fatal("MK-BOX-023", "", status.message());
  }
}

// A local file that cannot be read as entries: the parse and UTF-8 codes of compaction.md §17.
Finding local_finding(const Status& status) {
  switch (status.code()) {
    case Errc::parse:
      return make_fatal("MK-PARSE-001", "", status.message());
    case Errc::invalid_utf8:
      return make_fatal("MK-UTF8-001", "", status.message());
    default:
      return finding_from(status);
  }
}

// --remote dir:PATH | postgres. The connection string comes from --conninfo-file (its first
// line) or MEMKIT_SYNC_CONNINFO, else libpq's defaults (PG* variables, ~/.pgpass, services).
Result<std::unique_ptr<sync::Remote>> open_remote(const CommandRequest& inv,
                                                  const CommandEnvironment& env,
                                                  const std::string& spec) {
  if (spec.rfind("dir:", 0) == 0 && spec.size() > 4) {
    return sync::open_directory_remote(spec.substr(4));
  }
  if (spec != "postgres") {
    return Status(Errc::invalid_argument,
                  "--remote: expected dir:PATH or postgres, got '" + spec + "'");
  }
  if (!env.open_postgres) {
    return Status(Errc::invalid_argument,
                  "--remote: this build of memkit has no PostgreSQL adapter "
                  "(MEMKIT_WITH_POSTGRES=OFF)");
  }
  std::string conninfo;
  if (const std::optional<std::string> file = option(inv, "--conninfo-file")) {
    Result<std::string> bytes = posix_file_system().read_file(*file);
    if (!bytes) {
      return Status(Errc::invalid_argument, "--conninfo-file: " + bytes.status().message());
    }
    conninfo = bytes->substr(0, bytes->find_first_of("\r\n"));
  } else if (env.sync_conninfo) {
    conninfo = *env.sync_conninfo;
  }
  return env.open_postgres(conninfo);
}

// The root's files and the sync state, read at once: the state (the base, parsed) on a second core
// while the files are read and parsed, since the base takes longer. A failure of the files is
// told first, as a finding of its own kind. `started`, if any, is called once the state's thread
// is running: a caller starts the remote's opening there, which loads libpq, and glibc makes a
// thread started while a library loads wait for the load to end.
struct RootRead {
  memorybox::Inputs inputs;
  SyncStateRead state;
  memorybox::ParsedFiles parsed;
};
std::optional<RootRead> read_root(MemoryBoxRun& run, SyncStateRead* earlier = nullptr,
                                  const std::function<void()>& started = {}) {
  Result<memorybox::Inputs> inputs = Status(Errc::internal, "not read");
  Result<SyncStateRead> state = Status(Errc::internal, "not read");
  memorybox::ParsedFiles parsed;
  const auto read_files = [&] {
    inputs = run.root.read_memorybox_inputs();
    if (inputs) parsed = memorybox::parse_synced_files(*inputs);
  };
  memkit::detail::run_both(
      [&] {
        if (started) started();
        read_files();
      },
      [&] { state = read_sync_state(run.root, earlier); });
  if (!inputs) {
    run.reply.findings.push_back(finding_from(inputs.status()));
    return std::nullopt;
  }
  Result<memorybox::ModifiedTimes> modified =
      state ? run.root.modified_times(*inputs) : Result<memorybox::ModifiedTimes>(state.status());
  if (!modified) {
    run.reply.findings.push_back(local_finding(modified.status()));
    return std::nullopt;
  }
  state->files.modified = std::move(*modified);
  return RootRead{std::move(*inputs), std::move(*state), std::move(parsed)};
}

std::set<std::string, std::less<>> conflict_ids(const std::vector<SyncRecord>& conflicts) {
  std::set<std::string, std::less<>> ids;
  for (const SyncRecord& r : conflicts) ids.insert(r.id);
  return ids;
}

// The workspace of this root: sync.json's, else --workspace-id, else a new one (when `create`).
Result<std::optional<std::string>> workspace_of(const MemoryBoxRun& run,
                                                const std::optional<memorybox::SyncState>& sync,
                                                bool create) {
  const std::optional<std::string> given = option(run.inv, "--workspace-id");
  if (given && !memorybox::is_uuid(*given)) {
    return Status(
        Errc::invalid_argument,
        "--workspace-id: expected a UUID in lower-case 8-4-4-4-12 form, got '" + *given + "'");
  }
  if (sync) {
    if (given && *given != sync->workspace_id) {
      return Status(Errc::invalid_argument, "--workspace-id: this root already syncs workspace " +
                                                sync->workspace_id + " (.memkit/sync.json)");
    }
    return std::optional<std::string>(sync->workspace_id);
  }
  if (given) return given;
  if (!create) return std::optional<std::string>();
  if (!run.env.random_bytes) {
    return Status(Errc::invalid_argument,
                  "--workspace-id: required for a first sync where no random source is given");
  }
  return std::optional<std::string>(memorybox::uuid_v7(
      static_cast<std::uint64_t>(run.now.unix_millis()), run.env.random_bytes()));
}

// The plan of what a push writes before sending: Id lines and Updated lines, written directly
// (field updates, memorybox.md §1).
std::optional<Plan> field_plan(const memorybox::Inputs& inputs,
                               const std::map<std::string, std::vector<Splice>>& splices) {
  std::vector<PlanOperation> operations;
  for (const auto& [path, edits] : splices) {
    const FileSnapshot* f = inputs.snapshot.find(path);
    operations.push_back(plan_write(path, f->bytes, true, edits));
  }
  if (operations.empty()) return std::nullopt;
  return Plan::create("memorybox sync push", {}, std::move(operations), {});
}

// The later of the last push and the last pull ("" before either): an entry whose own `Updated`
// is later was given its time since, and a push leaves it as it is (select_push).
std::string last_synced(const std::optional<memorybox::SyncState>& sync) {
  if (!sync) return {};
  return std::max(sync->last_push_at.value_or(""), sync->last_pull_at.value_or(""));
}

// The shared start of every sync command: the lock, what a crash left, the files read again.
struct Locked {
  std::unique_ptr<LockHandle> lock;
  memorybox::Inputs inputs;
  SyncStateRead state;
  memorybox::ParsedFiles parsed;
};

// With `may_write` false, a transaction a crash left is not finished: it stops with an error and
// nothing written (the caller is not yet connected to its remote; the next run finishes it).
// `started` is read_root's, not called at all if it stops before reading.
std::optional<Locked> lock_and_read(MemoryBoxRun& run, SyncStateRead* earlier = nullptr,
                                    bool may_write = true,
                                    const std::function<void()>& started = {}) {
  Locked out;
  Result<std::unique_ptr<LockHandle>> lock = run.root.lock(run.inv.lock_timeout_seconds);
  if (!lock) {
    run.reply.findings.push_back(finding_from(lock.status()));
    return std::nullopt;
  }
  out.lock = std::move(*lock);
  const auto recover = [&run, may_write](bool apply) -> Result<Recovery> {
    if (apply && !may_write) {
      return Status(Errc::io,
                    ".memkit/txn: a transaction was left while this push started; nothing was "
                    "written: run it again to finish the transaction first");
    }
    return run.root.recover(apply);
  };
  if (!finish_transactions(recover, "memorybox", run.reply)) return std::nullopt;
  std::optional<RootRead> read = read_root(run, earlier, started);
  if (!read) return std::nullopt;
  out.inputs = std::move(read->inputs);
  out.state = std::move(read->state);
  out.parsed = std::move(read->parsed);
  return out;
}

// Whether two reads of a root found the same bytes: then a plan made from the first holds for
// the second, and is not made again.
bool same_reads(const memorybox::Inputs& a, const SyncStateRead& sa, const memorybox::Inputs& b,
                const SyncStateRead& sb) {
  const auto same_file = [](const FileSnapshot& x, const FileSnapshot& y) {
    return x.path == y.path && x.state == y.state && x.text() == y.text();
  };
  const std::vector<FileSnapshot>& fa = a.snapshot.files();
  const std::vector<FileSnapshot>& fb = b.snapshot.files();
  return fa.size() == fb.size() && std::equal(fa.begin(), fa.end(), fb.begin(), same_file) &&
         same_file(sa.files.conflicts_file, sb.files.conflicts_file) &&
         sa.files.state == sb.files.state && sa.base_read == sb.base_read &&
         sa.files.conflicts == sb.files.conflicts && sa.files.modified == sb.files.modified;
}

bool failed(MemoryBoxRun& run, const Status& status) {
  if (status.ok()) return false;
  run.reply.findings.push_back(finding_from(status));
  return true;
}

// Pulls first, without the lock, so that an unreachable remote, a refused login or an invalid
// record stops the pull with nothing written (not even .memkit/); then, under the lock, plans
// (again, when it planned first) from the files as they are then, with the records pulled.
void run_pull(MemoryBoxRun& run) {
  const progress::Stage stage("memorybox sync pull", 0, progress::Unit::items);
  const std::optional<std::string> spec = option(run.inv, "--remote");
  if (!spec) {
    failed(run, Status(Errc::invalid_argument, "--remote: required (dir:PATH or postgres)"));
    return;
  }
  const bool apply = has_flag(run.inv, "--apply");
  const std::optional<std::string> confirm = option(run.inv, "--confirm-plan");
  if (confirm && !apply) {
    failed(run, Status(Errc::invalid_argument, "--confirm-plan: only with --apply"));
    return;
  }
  // Confirmed, the pull reads the files once, under the lock (where compaction.md §12.3 makes the
  // plan again anyway): before it, only .memkit/sync.json, for the workspace and the cursor.
  // Otherwise it connects while it reads the root (nothing is written until both are done).
  const bool confirmed = apply && confirm;
  std::optional<RootRead> unlocked;
  Result<std::unique_ptr<sync::Remote>> remote = Status(Errc::internal, "not connected");
  if (confirmed) {
    Result<SyncStateRead> sync = read_sync_json(run.root);
    if (!sync) {
      run.reply.findings.push_back(local_finding(sync.status()));
      return;
    }
    unlocked = RootRead{{}, std::move(*sync), {}};
  } else {
    std::optional<memkit::detail::Background> opening;
    unlocked = read_root(run, nullptr, [&] {
      opening.emplace([&] { remote = open_remote(run.inv, run.env, *spec); });
    });
    if (opening) opening->join();
    if (!unlocked) return;
  }
  Result<std::optional<std::string>> workspace = workspace_of(run, unlocked->state.sync, true);
  if (!workspace) {
    failed(run, workspace.status());
    return;
  }
  const std::string ws = **workspace;
  if (confirmed) remote = open_remote(run.inv, run.env, *spec);
  if (!remote) {
    run.reply.findings.push_back(remote_finding(remote.status()));
    return;
  }
  const std::string cursor =
      unlocked->state.sync ? unlocked->state.sync->pull_cursor : std::string();
  Result<sync::Pulled> pulled = (*remote)->pull(ws, cursor);
  if (!pulled) {
    run.reply.findings.push_back(remote_finding(pulled.status()));
    return;
  }
  if (Status checked = memorybox::check_pulled(pulled->records, ws); !checked.ok()) {
    run.reply.findings.push_back(remote_finding(checked));
    return;
  }
  const std::uint64_t count = pulled->records.size();
  // The scan cache of the last plan's scan (written once the pull has written its base).
  std::vector<memorybox::CachedEntry> cache_all;
  std::vector<memorybox::CachedEntry> cache_read;
  // Plans the pull over the files and state as read; an unreadable file or two entries with one
  // Id (MK-BOX-022) come back as findings that stop it.
  const auto plan =
      [&](const memorybox::Inputs& inputs, const SyncStateRead& state,
          const memorybox::ParsedFiles& parsed) -> std::shared_ptr<memorybox::PullPlanning> {
    memorybox::ScanFocus focus{
        .base = &state.base, .ids = {}, .parsed = &parsed, .cache = state.scan_cache()};
    for (const SyncRecord& r : pulled->records) focus.ids.insert(r.id);
    for (const SyncRecord& r : state.conflicts) focus.ids.insert(r.id);
    Result<memorybox::LocalScan> scan =
        memorybox::scan_local(inputs, ws, state.files.modified, run.now, focus);
    if (!scan) {
      run.reply.findings.push_back(local_finding(scan.status()));
      return nullptr;
    }
    if (!scan->findings.empty()) {
      run.reply.findings = scan->findings;
      return nullptr;
    }
    memorybox::PullInput input{.inputs = &inputs,
                               .local = &*scan,
                               .base = &state.base,
                               .remote = pulled->records,
                               .open_conflicts = state.conflicts,
                               .workspace_id = ws,
                               .conflicts_file = &state.files.conflicts_file};
    Result<memorybox::PullPlanning> pull = memorybox::plan_pull(input, run.now);
    if (!pull) {
      run.reply.findings.push_back(remote_finding(pull.status()));
      return nullptr;
    }
    cache_all = std::move(scan->cache);
    cache_read = std::move(scan->cache_read);
    return std::make_shared<memorybox::PullPlanning>(std::move(*pull));
  };
  // The reply, once, at the end: the plan is moved into it (its new bytes can be the size of a
  // file) after the JSON and text that name it.
  const auto finish = [&](const std::shared_ptr<memorybox::PullPlanning>& shown, bool applied,
                          const std::vector<std::string>& written) {
    for (const Finding& f : shown->findings) run.reply.findings.push_back(f);
    run.reply.applied = applied;
    run.reply.data = fixed(memorybox_sync_pull_json(*shown, ws, count, applied, written));
    if (run.inv.format == OutputFormat::text) {
      run.reply.text = fixed(view::memorybox_sync_pull_text(*shown, count, applied));
    }
    run.reply.plan = std::move(shown->plan);
  };
  // What needs a confirmed Plan ID stops here unless it is confirmed.
  const auto unconfirmed = [&](const std::shared_ptr<memorybox::PullPlanning>& shown) {
    if (stops(shown->findings)) return true;
    if (!shown->needs_confirmation) return false;
    if (!apply) return true;
    std::optional<Finding> refused = refuse_unconfirmed(confirm, shown->plan->id());
    if (refused) run.reply.findings.push_back(std::move(*refused));
    return refused.has_value();
  };
  std::shared_ptr<memorybox::PullPlanning> first;
  if (!confirmed) {
    first = plan(unlocked->inputs, unlocked->state, unlocked->parsed);
    if (!first) return;
    if (unconfirmed(first)) {
      finish(first, false, {});
      return;
    }
  }
  std::optional<Locked> locked = lock_and_read(run, confirmed ? nullptr : &unlocked->state);
  if (!locked) return;
  if (locked->state.sync && locked->state.sync->workspace_id != ws) {
    failed(run, Status(Errc::invalid_argument,
                       ".memkit/sync.json: the workspace changed while pulling; pull again"));
    return;
  }
  // Planned again only when the files changed since the first read.
  const std::shared_ptr<memorybox::PullPlanning> shared =
      first && same_reads(unlocked->inputs, unlocked->state, locked->inputs, locked->state)
          ? first
          : plan(locked->inputs, locked->state, locked->parsed);
  if (!shared) return;
  if (unconfirmed(shared)) {
    finish(shared, false, {});
    return;
  }
  // Open conflicts first: a crash after this leaves them open, and the next pull finds the same.
  if (shared->conflicts != locked->state.conflicts &&
      failed(run, write_sync_conflicts(run.root, shared->conflicts))) {
    return;
  }
  std::vector<std::string> written;
  if (shared->plan) {
    Result<std::vector<std::string>> applied = run.root.apply(*shared->plan, run.now);
    if (!applied) {
      failed(run, applied.status());
      return;
    }
    written = std::move(*applied);
  }
  if (failed(run, write_sync_base(run.root, locked->state, shared->base_changes))) return;
  std::optional<memkit::detail::Background> caching;  // the scan cache written meanwhile
  write_scan_cache(run.root, locked->state, cache_all, cache_read, caching);
  memorybox::SyncState sync =
      locked->state.sync.value_or(memorybox::SyncState{.workspace_id = ws,
                                                       .last_pull_at = {},
                                                       .last_push_at = {},
                                                       .last_push_ok = false,
                                                       .pull_cursor = ""});
  sync.last_pull_at = run.now.utc_rfc3339_millis();
  sync.pull_cursor = pulled->cursor;
  if (failed(run, write_sync_json(run.root, sync))) {
    return;
  }
  finish(shared, shared->plan.has_value(), written);
}

void run_push(MemoryBoxRun& run) {
  const progress::Stage stage("memorybox sync push", 0, progress::Unit::items);
  const std::optional<std::string> spec = option(run.inv, "--remote");
  if (!spec) {
    failed(run, Status(Errc::invalid_argument, "--remote: required (dir:PATH or postgres)"));
    return;
  }
  // What to send, found under the lock: the root read and scanned, the records selected. Nothing
  // is written until the remote is connected; a stop is told in run.reply and gives nullopt.
  struct Prepared {
    Locked locked;
    memorybox::SyncState sync;
    memorybox::LocalScan scan;
    memorybox::PushSelection selection;
  };
  const auto prepare = [&run](bool may_write,
                              const std::function<void()>& started) -> std::optional<Prepared> {
    std::optional<Locked> locked = lock_and_read(run, nullptr, may_write, started);
    if (!locked) return std::nullopt;
    Result<std::optional<std::string>> workspace = workspace_of(run, locked->state.sync, true);
    if (!workspace) {
      failed(run, workspace.status());
      return std::nullopt;
    }
    memorybox::SyncState sync =
        locked->state.sync.value_or(memorybox::SyncState{.workspace_id = **workspace,
                                                         .last_pull_at = {},
                                                         .last_push_at = {},
                                                         .last_push_ok = false,
                                                         .pull_cursor = ""});
    Result<memorybox::LocalScan> scan = memorybox::scan_local(
        locked->inputs, sync.workspace_id, locked->state.files.modified, run.now,
        {.base = &locked->state.base,
         .ids = {},
         .parsed = &locked->parsed,
         .cache = locked->state.scan_cache()});
    if (!scan) {
      run.reply.findings.push_back(local_finding(scan.status()));
      return std::nullopt;
    }
    if (!scan->findings.empty()) {  // MK-BOX-022: nothing is written or sent
      run.reply.findings = scan->findings;
      run.reply.data = fixed("{}");
      return std::nullopt;
    }
    memorybox::PushSelection selection = memorybox::select_push(
        locked->inputs, *scan, locked->state.base, conflict_ids(locked->state.conflicts),
        sync.workspace_id, run.now, last_synced(locked->state.sync));
    return Prepared{std::move(*locked), std::move(sync), std::move(*scan), std::move(selection)};
  };
  // Connected before anything is written: an unreachable remote or a refused login writes
  // nothing. Where taking the lock writes nothing either (an earlier sync made its files and no
  // transaction waits), it connects while it prepares, and a remote that fails is told alone, as
  // if it had connected first; else it connects first.
  Result<std::unique_ptr<sync::Remote>> remote = Status(Errc::internal, "not connected");
  std::optional<Prepared> prepared;
  if (run.root.lock_writes_nothing()) {
    CommandReply before = run.reply;
    // Opened while the root is read and scanned, from when the state's thread is running.
    std::optional<memkit::detail::Background> opening;
    prepared = prepare(false, [&] {
      opening.emplace([&] {
        remote = open_remote(run.inv, run.env, *spec);
        if (remote) (*remote)->prepare_push();
      });
    });
    if (opening) {
      opening->join();
    } else {
      remote = open_remote(run.inv, run.env, *spec);  // it stopped before reading
    }
    if (!remote) {
      prepared.reset();  // the lock too
      run.reply = std::move(before);
      run.reply.findings.push_back(remote_finding(remote.status()));
      return;
    }
  } else {
    remote = open_remote(run.inv, run.env, *spec);
    if (!remote) {
      run.reply.findings.push_back(remote_finding(remote.status()));
      return;
    }
    prepared = prepare(true, {});
  }
  if (!prepared) return;
  Locked& locked = prepared->locked;
  memorybox::SyncState& sync = prepared->sync;
  const memorybox::PushSelection& selection = prepared->selection;
  memorybox::PushReport report;
  report.workspace_id = sync.workspace_id;
  for (const memorybox::LocalRecord& r : prepared->scan.records) {
    if (r.assigned) report.assigned.push_back(r.record.id);
  }
  // The field lines written and the records sent. Where Ids were assigned, the fields go first:
  // once a record is sent, its entry must carry the Id it was sent with. Else the two run at once
  // (the records then carry only Ids their entries hold): a write that fails after the remote
  // stored the records leaves the base as it was, so the next push sends them again, the same
  // rows upserted with a later time.
  const std::optional<Plan> fields = field_plan(locked.inputs, selection.splices);
  Result<std::vector<std::string>> applied = std::vector<std::string>{};
  Result<std::vector<sync::Refusal>> refused = std::vector<sync::Refusal>{};
  const auto write_fields = [&] {
    if (fields) applied = run.root.apply(*fields, run.now);
  };
  const auto send = [&] {
    if (!selection.records.empty()) refused = (*remote)->push(sync.workspace_id, selection.records);
  };
  if (fields && !selection.records.empty() && report.assigned.empty()) {
    memkit::detail::run_both(write_fields, send);  // the progress line shows the write
  } else {
    write_fields();
    if (applied && !selection.records.empty()) {
      // The remote takes the records at once: the line says how many, and for how long.
      const progress::Stage sending(fmt::format("memorybox sync push: sending {} entries to {}",
                                                selection.records.size(), (*remote)->describe()),
                                    0, progress::Unit::items);
      send();
    }
  }
  if (!applied) {
    failed(run, applied.status());
    return;
  }
  report.sent = selection.records.size();
  report.held = selection.held;
  if (!refused) {
    // Nothing acknowledged: the records wait for the next push (the offline queue is the base).
    sync.last_push_ok = false;
    if (failed(run, write_sync_json(run.root, sync))) {
      return;
    }
    run.reply.findings.push_back(remote_finding(refused.status()));
    return;
  }
  report.refused = std::move(*refused);
  std::set<std::string_view> not_stored;
  for (const sync::Refusal& r : report.refused) not_stored.insert(r.id);
  const memorybox::BaseDigests digests = locked.state.base.digests();
  memorybox::SyncBase acknowledged(digests);
  for (const SyncRecord& r : selection.records) {
    if (!not_stored.contains(r.id)) {
      acknowledged.insert_or_assign(
          r.id, memorybox::BaseEntry{r.table, r.file, memorybox::record_digest(r, digests)});
    }
  }
  if (failed(run, write_sync_base(run.root, locked.state, acknowledged))) return;
  std::optional<memkit::detail::Background> caching;  // the scan cache written meanwhile
  write_scan_cache(run.root, locked.state, prepared->scan.cache, prepared->scan.cache_read,
                   caching);
  sync.last_push_at = run.now.utc_rfc3339_millis();
  sync.last_push_ok = report.refused.empty();
  if (failed(run, write_sync_json(run.root, sync))) {
    return;
  }
  report.last_push_at = sync.last_push_at;
  report.last_push_ok = sync.last_push_ok;
  for (const sync::Refusal& r : report.refused) {
    run.reply.findings.push_back(
        make_finding("MK-BOX-020", Severity::error, "",
                     fmt::format("not acknowledged: {} {}: {}", memorybox::sync_table_name(r.table),
                                 r.id, r.reason),
                     "run `memkit memorybox sync pull`, then push again"));
  }
  if (!report.held.empty()) {
    run.reply.findings.push_back(make_finding(
        "MK-BOX-021", Severity::warning, std::string(memorybox::kSyncConflictsFile),
        fmt::format("{} record(s) held back by open sync conflicts", report.held.size()),
        "settle each with `memkit memorybox sync resolve --id ID --take local|remote`"));
  }
  run.reply.data = fixed(memorybox_sync_push_json(report));
  if (run.inv.format == OutputFormat::text) {
    run.reply.text = fixed(view::memorybox_sync_push_text(report));
  }
}

// What a push would send now (sync status, hygiene item 10), with the scan's findings.
struct PendingPush {
  memorybox::PushSelection selection;
  std::vector<Finding> findings;
};
Result<PendingPush> pending_push(const memorybox::Inputs& inputs, const SyncStateRead& state,
                                 const memorybox::ParsedFiles* parsed,
                                 std::string_view workspace, const ClockReading& now) {
  Result<memorybox::LocalScan> scan = memorybox::scan_local(
      inputs, workspace, state.files.modified, now,
      {.base = &state.base, .ids = {}, .parsed = parsed, .cache = state.scan_cache()});
  if (!scan) return scan.status();
  return PendingPush{memorybox::select_push(inputs, *scan, state.base, conflict_ids(state.conflicts),
                                            workspace, now, last_synced(state.sync)),
                     std::move(scan->findings)};
}

void run_status(MemoryBoxRun& run) {
  std::optional<RootRead> read = read_root(run);
  if (!read) return;
  const SyncStateRead& state = read->state;
  memorybox::SyncStatus status;
  if (state.sync) {
    status.workspace_id = state.sync->workspace_id;
    status.last_pull_at = state.sync->last_pull_at;
    status.last_push_at = state.sync->last_push_at;
    status.last_push_ok = state.sync->last_push_ok;
  }
  const std::string workspace = status.workspace_id.value_or(std::string(36, '0'));
  Result<PendingPush> outgoing =
      pending_push(read->inputs, state, &read->parsed, workspace, run.now);
  if (!outgoing) {
    run.reply.findings.push_back(local_finding(outgoing.status()));
    return;
  }
  run.reply.findings = std::move(outgoing->findings);
  status.pending_push = outgoing->selection.records.size();
  for (const SyncRecord& r : state.conflicts) status.open_conflicts.push_back(r.id);
  std::sort(status.open_conflicts.begin(), status.open_conflicts.end());
  if (const std::optional<std::string> spec = option(run.inv, "--remote");
      spec && status.workspace_id) {
    Result<std::unique_ptr<sync::Remote>> remote = open_remote(run.inv, run.env, *spec);
    if (!remote) {
      run.reply.findings.push_back(remote_finding(remote.status()));
      return;
    }
    Result<sync::Pulled> pulled = (*remote)->pull(workspace, state.sync->pull_cursor);
    if (!pulled) {
      run.reply.findings.push_back(remote_finding(pulled.status()));
      return;
    }
    std::uint64_t pending = 0;
    for (const SyncRecord& r : pulled->records) {
      const std::optional<std::array<char, 32>> known = state.base.digest(r.id);
      if (!known || std::string_view(known->data(), known->size()) !=
                        memorybox::record_digest(r, state.base.digests())) {
        ++pending;
      }
    }
    status.pending_pull = pending;
  } else if (spec) {
    status.pending_pull = 0;  // no workspace yet: nothing of it can be remote
  }
  if (!status.open_conflicts.empty()) {
    run.reply.findings.push_back(make_finding(
        "MK-BOX-021", Severity::warning, std::string(memorybox::kSyncConflictsFile),
        fmt::format("{} sync conflict{} open", status.open_conflicts.size(),
                    status.open_conflicts.size() == 1 ? " is" : "s are"),
        "settle each with `memkit memorybox sync resolve --id ID --take local|remote`"));
  }
  run.reply.data = fixed(memorybox_sync_status_json(status));
  if (run.inv.format == OutputFormat::text) {
    run.reply.text = fixed(view::memorybox_sync_status_text(status));
  }
}

void run_resolve(MemoryBoxRun& run) {
  const std::optional<std::string> id = option(run.inv, "--id");
  const std::optional<std::string> take = option(run.inv, "--take");
  if (!id || !take) {
    failed(run, Status(Errc::invalid_argument,
                       "memorybox sync resolve: --id ID and --take local|remote are required"));
    return;
  }
  if (*take != "local" && *take != "remote") {
    failed(run,
           Status(Errc::invalid_argument, "--take: expected local or remote, got '" + *take + "'"));
    return;
  }
  std::optional<Locked> locked = lock_and_read(run);
  if (!locked) return;
  if (!locked->state.sync) {
    failed(run, Status(Errc::invalid_argument, "--id: " + *id + ": no open sync conflict"));
    return;
  }
  const std::string workspace = locked->state.sync->workspace_id;
  memorybox::ScanFocus focus{.base = &locked->state.base,
                             .ids = {*id},
                             .parsed = &locked->parsed,
                             .cache = locked->state.scan_cache()};
  Result<memorybox::LocalScan> scan = memorybox::scan_local(
      locked->inputs, workspace, locked->state.files.modified, run.now, focus);
  if (!scan) {
    run.reply.findings.push_back(local_finding(scan.status()));
    return;
  }
  memorybox::LocalScan without_ids = std::move(*scan);
  // Resolving writes no new Ids: entries without one keep that for the next push.
  std::erase_if(without_ids.records, [](const memorybox::LocalRecord& r) { return r.assigned; });
  without_ids.id_splices.clear();
  memorybox::PullInput input{.inputs = &locked->inputs,
                             .local = &without_ids,
                             .base = &locked->state.base,
                             .remote = {},
                             .open_conflicts = locked->state.conflicts,
                             .workspace_id = workspace,
                             .conflicts_file = &locked->state.files.conflicts_file};
  Result<memorybox::Resolution> resolution =
      memorybox::plan_resolve(input, *id, *take == "remote", run.now);
  if (!resolution) {
    run.reply.findings.push_back(resolution.status().code() == Errc::parse
                                     ? remote_finding(resolution.status())
                                     : finding_from(resolution.status()));
    return;
  }
  std::vector<std::string> written;
  if (resolution->plan) {
    Result<std::vector<std::string>> applied = run.root.apply(*resolution->plan, run.now);
    if (!applied) {
      failed(run, applied.status());
      return;
    }
    written = std::move(*applied);
  }
  if (failed(run, write_sync_base(run.root, locked->state, resolution->base_changes)) ||
      failed(run, write_sync_conflicts(run.root, resolution->conflicts))) {
    return;
  }
  run.reply.plan = resolution->plan;
  run.reply.applied = resolution->plan.has_value();
  run.reply.data = fixed(memorybox_sync_resolve_json(*resolution, written));
  if (run.inv.format == OutputFormat::text) {
    run.reply.text = fixed(view::memorybox_sync_resolve_text(*id, *take, *resolution));
  }
}

}  // namespace

Result<std::optional<memorybox::SyncHygiene>> sync_hygiene_of(MemoryBoxRun& run) {
  Result<SyncStateRead> state = read_sync_state(run.root, run.inputs);
  if (!state) return state.status();
  if (!state->sync) return std::optional<memorybox::SyncHygiene>();
  memorybox::SyncHygiene sync;
  sync.last_push_at = state->sync->last_push_at;
  sync.last_push_ok = state->sync->last_push_ok;
  for (const auto& file : state->files.modified) sync.synced_files.push_back(file.first);
  // A synced file that cannot be read as entries counts as changed: what it holds is unknown
  // (hygiene reports it).
  Result<PendingPush> pending =
      pending_push(run.inputs, *state, nullptr, state->sync->workspace_id, run.now);
  std::set<std::string> changed;
  if (pending) {
    for (const SyncRecord& r : pending->selection.records) changed.insert(r.file);
  } else {
    changed.insert(sync.synced_files.begin(), sync.synced_files.end());
  }
  sync.changed_files.assign(changed.begin(), changed.end());
  for (const SyncRecord& r : state->conflicts) sync.open_conflicts.push_back(r.id);
  std::sort(sync.open_conflicts.begin(), sync.open_conflicts.end());
  return std::optional<memorybox::SyncHygiene>(std::move(sync));
}

bool memorybox_reads_its_own_files(const CommandRequest& inv) { return inv.command == "sync"; }

void run_memorybox_sync(MemoryBoxRun& run) {
  // execute() resolved the verb and checked its arguments against the command table.
  const std::vector<std::string>& words = run.inv.positionals;
  if (words.size() != 1) {
    failed(run, Status(Errc::invalid_argument, "memorybox sync " + words.at(0) +
                                                   ": takes no other word"));
    return;
  }
  run.reply.command = "memorybox sync " + words[0];
  if (words[0] == "pull") {
    run_pull(run);
  } else if (words[0] == "push") {
    run_push(run);
  } else if (words[0] == "status") {
    run_status(run);
  } else {
    run_resolve(run);
  }
}

}  // namespace memkit::commands_detail
