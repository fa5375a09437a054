// `memkit memorybox sync pull|push|status|resolve` (memorybox.md §9): the local files, the sync
// state in .memkit/ and a remote (a folder or PostgreSQL), under the agent root's lock.
//
// Write order, so that a crash anywhere leaves a state the next run repairs: a pull writes the
// open conflicts, then the plan (one transaction), then the base, then sync.json; a push writes the
// Id lines first, then sends, then the base and sync.json. Sending again what was acknowledged, or
// pulling again what was merged, changes nothing.
#include "memkit/memorybox_sync.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "commands/flow.hpp"
#include "memkit/digest.hpp"
#include "memkit/sync_remote.hpp"
#include "memkit/text.hpp"
#include "parallel/run_both.hpp"

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

// A state file as read, told apart from another read by its XXH3-128 (its bytes are not kept).
struct FileMark {
  std::size_t size = 0;
  std::array<std::uint8_t, 16> digest{};
  friend bool operator==(const FileMark&, const FileMark&) = default;
};

// The sync state as read: sync.json, the base and the open conflicts.
struct State {
  SyncFiles files;  // files.base dropped once parsed: base_read tells it apart
  std::optional<FileMark> base_read;
  std::optional<memorybox::SyncState> sync;
  memorybox::SyncBase base;
  // base.tsv has a torn last line, or more than twice the lines the base needs: the next change
  // writes it whole instead of appending.
  bool base_rewrite = false;
  std::vector<SyncRecord> conflicts;
  // .memkit/sync/scan.cache, when there is a base and the file is a scan cache (its blocks up to
  // the first that does not read whole); else the scans read every entry in full, which gives the
  // same answers.
  std::optional<memorybox::ScanCache> cache;
  [[nodiscard]] const memorybox::ScanCache* scan_cache() const noexcept {
    return cache ? &*cache : nullptr;
  }
};

// .memkit/sync.json alone: what a confirmed pull reads before it takes the lock.
Result<State> read_sync_json(const AgentRoot& root) {
  State state;
  Result<std::optional<std::string>> bytes = root.read_state_file("sync.json");
  if (!bytes) return bytes.status();
  if (*bytes) {
    Result<memorybox::SyncState> parsed = memorybox::parse_sync_state(**bytes);
    if (!parsed) return parsed.status();
    state.sync = std::move(*parsed);
  }
  return state;
}

// The scan cache (memorybox::ScanCache), under .memkit.
constexpr const char* kScanCache = "sync/scan.cache";

// The state files read and parsed, all but the modification times (which need the root's files).
// `earlier`, when given, is a State read before: when the base file has not changed since, its
// parsed base is moved from it rather than parsed again.
Result<State> read_state_files(const AgentRoot& root, State* earlier) {
  State state;
  Result<SyncFiles> files = root.read_sync_files();
  if (!files) return files.status();
  state.files = std::move(*files);
  if (state.files.state) {
    Result<memorybox::SyncState> parsed = memorybox::parse_sync_state(*state.files.state);
    if (!parsed) return parsed.status();
    state.sync = std::move(*parsed);
  }
  if (state.files.base) {
    const std::string_view bytes = *state.files.base;
    state.base_read = FileMark{bytes.size(), xxh3_128(bytes)};
    if (earlier != nullptr && earlier->base_read == state.base_read) {
      state.base = std::move(earlier->base);
      state.base_rewrite = earlier->base_rewrite;
      state.cache = std::move(earlier->cache);
    } else {
      Result<memorybox::SyncBase> base = memorybox::parse_sync_base(bytes);
      if (!base) return base.status();
      state.base = std::move(*base);
      const auto lines = static_cast<std::size_t>(count_newlines(bytes));
      state.base_rewrite =
          (!bytes.empty() && bytes.back() != '\n') || lines > 2 * state.base.size() + 1024;
    }
    // Parsed, the base keeps none of its bytes: their memory (10 MB at 100,000 ids) goes back to
    // the heap for what the scan makes next.
    state.files.base.reset();
    if (!state.cache) {
      Result<std::optional<std::string>> cache = root.read_state_file(kScanCache);
      if (cache && *cache) {
        Result<memorybox::ScanCache> parsed = memorybox::parse_scan_cache(std::move(**cache));
        if (parsed) state.cache = std::move(*parsed);
      }
    }
  }
  if (state.files.conflicts) {
    std::string_view rest = *state.files.conflicts;
    std::size_t line = 0;
    while (!rest.empty()) {
      ++line;
      const std::size_t lf = rest.find('\n');
      Result<SyncRecord> r = memorybox::parse_record_line(rest.substr(0, lf));
      if (!r) {
        return Status(Errc::parse, fmt::format(".memkit/sync/conflicts.jsonl:{}: {}", line,
                                               r.status().message()));
      }
      state.conflicts.push_back(std::move(*r));
      rest = lf == std::string_view::npos ? std::string_view() : rest.substr(lf + 1);
    }
  }
  return state;
}

Result<State> read_state(const AgentRoot& root, const memorybox::Inputs& inputs,
                         State* earlier = nullptr) {
  Result<State> state = read_state_files(root, earlier);
  if (!state) return state;
  Result<memorybox::ModifiedTimes> modified = root.modified_times(inputs);
  if (!modified) return modified.status();
  state->files.modified = std::move(*modified);
  return state;
}

// The root's files and the sync state, read at once: the state (the base, parsed) on a second core
// while the files are read and parsed, since the base takes longer. A failure of the files is
// told first, as a finding of its own kind. `started`, if any, is called once the state's thread
// is running: a caller starts the remote's opening there, which loads libpq, and glibc makes a
// thread started while a library loads wait for the load to end.
struct RootRead {
  memorybox::Inputs inputs;
  State state;
  memorybox::ParsedFiles parsed;
};
std::optional<RootRead> read_root(MemoryBoxRun& run, State* earlier = nullptr,
                                  const std::function<void()>& started = {}) {
  Result<memorybox::Inputs> inputs = Status(Errc::internal, "not read");
  Result<State> state = Status(Errc::internal, "not read");
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
      [&] { state = read_state_files(run.root, earlier); });
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

// Sets `changes` (digests made as the base's are) in .memkit/sync/base.tsv: appended (a sync of
// 100 entries writes 100 lines), or the whole base written when there is none yet (its first line
// says its version) or State::base_rewrite.
Status write_base(AgentRoot& root, const State& state, const memorybox::SyncBase& changes) {
  if (changes.empty()) return Status();
  if (state.base_rewrite || !state.base_read || state.base_read->size == 0) {
    return root.write_state_file(
        "sync/base.tsv", memorybox::render_sync_base(memorybox::merged_base(state.base, changes)));
  }
  return root.append_state_file("sync/base.tsv", memorybox::render_sync_base_lines(changes));
}

// The scan cache of a scan, once a sync has written its base, when the scan read bullets in full:
// those appended as a block to the cache it was given; or, when there was none that read whole or
// it would hold more than twice the bullets found, all written anew in `caching` (joined by its
// owner). A cache that cannot be written is left as it was: it only makes scans faster, and the
// base settles every hit.
void write_scan_cache(AgentRoot& root, const State& state,
                      const std::vector<memorybox::CachedEntry>& all,
                      const std::vector<memorybox::CachedEntry>& read,
                      std::optional<memkit::detail::Background>& caching) {
  if (read.empty()) return;
  const memorybox::ScanCache* given = state.scan_cache();
  if (given != nullptr && given->whole() && given->size() + read.size() <= 2 * all.size() + 1024) {
    (void)root.append_state_file(kScanCache, memorybox::render_scan_cache_block(read));
    return;
  }
  caching.emplace([&root, &all] {
    (void)root.write_state_file(kScanCache, memorybox::render_scan_cache(all));
  });
}

std::string conflicts_bytes(const std::vector<SyncRecord>& conflicts) {
  std::string out;
  for (const SyncRecord& r : conflicts) out += memorybox::record_line(r);
  return out;
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
  State state;
  memorybox::ParsedFiles parsed;
};

// With `may_write` false, a transaction a crash left is not finished: it stops with an error and
// nothing written (the caller is not yet connected to its remote; the next run finishes it).
// `started` is read_root's, not called at all if it stops before reading.
std::optional<Locked> lock_and_read(MemoryBoxRun& run, State* earlier = nullptr,
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
bool same_reads(const memorybox::Inputs& a, const State& sa, const memorybox::Inputs& b,
                const State& sb) {
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

std::string pull_text(const memorybox::PullPlanning& pull, std::uint64_t pulled, bool applied) {
  std::map<std::string_view, std::uint64_t> counts;
  for (const memorybox::PullItem& item : pull.items) {
    ++counts[memorybox::pull_action_name(item.action)];
  }
  std::string out = fmt::format("Pulled {} record(s)", pulled);
  for (const auto& [action, n] : counts) out += fmt::format(", {} {}", n, action);
  out += ".\n";
  if (pull.plan && !applied) {
    out += fmt::format(
        "Plan {} replaces or removes local text; review it, then run `memkit memorybox sync pull "
        "--apply --confirm-plan {}`.\n",
        pull.plan->id(), pull.plan->id());
  } else if (applied) {
    out += "Written.\n";
  }
  for (const SyncRecord& c : pull.conflicts) out += "Open conflict: " + c.id + "\n";
  return out;
}

// Pulls first, without the lock, so that an unreachable remote, a refused login or an invalid
// record stops the pull with nothing written (not even .memkit/); then, under the lock, plans
// (again, when it planned first) from the files as they are then, with the records pulled.
void run_pull(MemoryBoxRun& run) {
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
    Result<State> sync = read_sync_json(run.root);
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
      [&](const memorybox::Inputs& inputs, const State& state,
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
      run.reply.text = fixed(pull_text(*shown, count, applied));
    }
    run.reply.plan = std::move(shown->plan);
  };
  // What needs a confirmed Plan ID stops here unless it is confirmed.
  const auto unconfirmed = [&](const std::shared_ptr<memorybox::PullPlanning>& shown) {
    if (stops(shown->findings)) return true;
    if (!shown->needs_confirmation) return false;
    if (!apply) return true;
    if (!confirm) {
      run.reply.findings.push_back(make_finding("MK-PLAN-002", Severity::blocker, "",
                                                "--apply needs --confirm-plan " + shown->plan->id(),
                                                "review the dry run, then confirm its Plan ID"));
      return true;
    }
    if (*confirm != shown->plan->id()) {
      run.reply.findings.push_back(
          make_finding("MK-PLAN-001", Severity::blocker, "",
                       "stale or mismatched plan: confirmed " + *confirm + ", current plan is " +
                           shown->plan->id() + "; no files written",
                       "review the current dry run and confirm its Plan ID"));
      return true;
    }
    return false;
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
      failed(run, run.root.write_state_file("sync/conflicts.jsonl",
                                            conflicts_bytes(shared->conflicts)))) {
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
  if (failed(run, write_base(run.root, locked->state, shared->base_changes))) return;
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
  if (failed(run, run.root.write_state_file("sync.json", memorybox::render_sync_state(sync)))) {
    return;
  }
  finish(shared, shared->plan.has_value(), written);
}

void run_push(MemoryBoxRun& run) {
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
    memkit::detail::run_both(write_fields, send);
  } else {
    write_fields();
    if (applied) send();
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
    if (failed(run, run.root.write_state_file("sync.json", memorybox::render_sync_state(sync)))) {
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
  if (failed(run, write_base(run.root, locked.state, acknowledged))) return;
  std::optional<memkit::detail::Background> caching;  // the scan cache written meanwhile
  write_scan_cache(run.root, locked.state, prepared->scan.cache, prepared->scan.cache_read,
                   caching);
  sync.last_push_at = run.now.utc_rfc3339_millis();
  sync.last_push_ok = report.refused.empty();
  if (failed(run, run.root.write_state_file("sync.json", memorybox::render_sync_state(sync)))) {
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
    run.reply.text = fixed(fmt::format(
        "Pushed {} record(s): {} acknowledged, {} refused{}.\n", report.sent,
        report.sent - report.refused.size(), report.refused.size(),
        report.assigned.empty() ? ""
                                : fmt::format("; {} new Id(s) written", report.assigned.size())));
  }
}

void run_status(MemoryBoxRun& run) {
  std::optional<RootRead> read = read_root(run);
  if (!read) return;
  const State& state = read->state;
  memorybox::SyncStatus status;
  if (state.sync) {
    status.workspace_id = state.sync->workspace_id;
    status.last_pull_at = state.sync->last_pull_at;
    status.last_push_at = state.sync->last_push_at;
    status.last_push_ok = state.sync->last_push_ok;
  }
  const std::string workspace = status.workspace_id.value_or(std::string(36, '0'));
  Result<memorybox::LocalScan> scan = memorybox::scan_local(
      read->inputs, workspace, state.files.modified, run.now,
      {.base = &state.base, .ids = {}, .parsed = &read->parsed, .cache = state.scan_cache()});
  if (!scan) {
    run.reply.findings.push_back(local_finding(scan.status()));
    return;
  }
  run.reply.findings = scan->findings;
  const memorybox::PushSelection selection =
      memorybox::select_push(read->inputs, *scan, state.base, conflict_ids(state.conflicts),
                             workspace, run.now, last_synced(state.sync));
  status.pending_push = selection.records.size();
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
    std::string text =
        fmt::format("workspace {}\nlast pull {}\nlast push {} ({})\npending push {}\n",
                    status.workspace_id.value_or("(none: never synced)"),
                    status.last_pull_at.value_or("never"), status.last_push_at.value_or("never"),
                    status.last_push_ok ? "ok" : "not acknowledged", status.pending_push);
    if (status.pending_pull) text += fmt::format("pending pull {}\n", *status.pending_pull);
    for (const std::string& id : status.open_conflicts) text += "open conflict " + id + "\n";
    run.reply.text = fixed(text);
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
  if (failed(run, write_base(run.root, locked->state, resolution->base_changes)) ||
      failed(run, run.root.write_state_file("sync/conflicts.jsonl",
                                            conflicts_bytes(resolution->conflicts)))) {
    return;
  }
  run.reply.plan = resolution->plan;
  run.reply.applied = resolution->plan.has_value();
  run.reply.data = fixed(memorybox_sync_resolve_json(*resolution, written));
  if (run.inv.format == OutputFormat::text) {
    run.reply.text = fixed(
        fmt::format("Resolved {}: took the {} version ({}).\n", *id, *take, resolution->file));
  }
}

}  // namespace

Result<std::optional<memorybox::SyncHygiene>> sync_hygiene_of(MemoryBoxRun& run) {
  Result<State> state = read_state(run.root, run.inputs);
  if (!state) return state.status();
  if (!state->sync) return std::optional<memorybox::SyncHygiene>();
  memorybox::SyncHygiene sync;
  sync.last_push_at = state->sync->last_push_at;
  sync.last_push_ok = state->sync->last_push_ok;
  sync.modified = state->files.modified;
  for (const SyncRecord& r : state->conflicts) sync.open_conflicts.push_back(r.id);
  std::sort(sync.open_conflicts.begin(), sync.open_conflicts.end());
  return std::optional<memorybox::SyncHygiene>(std::move(sync));
}

bool memorybox_reads_its_own_files(const CommandRequest& inv) { return inv.command == "sync"; }

void run_memorybox_sync(MemoryBoxRun& run) {
  const std::vector<std::string>& words = run.inv.positionals;
  if (words.size() != 1 ||
      (words[0] != "pull" && words[0] != "push" && words[0] != "status" && words[0] != "resolve")) {
    failed(run, Status(Errc::invalid_argument,
                       "memorybox sync: expected pull, push, status or resolve"));
    return;
  }
  run.reply.command = "memorybox sync " + words[0];
  const auto only = [&](std::initializer_list<const char*> options, bool apply) {
    for (const auto& given : run.inv.options) {
      const auto& name = given.first;  // clang 14 cannot capture a structured binding
      if (name == "--root") continue;
      if (std::none_of(options.begin(), options.end(), [&](const char* o) { return name == o; })) {
        failed(run, Status(Errc::invalid_argument,
                           name + ": not an option of memorybox sync " + words[0]));
        return false;
      }
    }
    if (!apply && has_flag(run.inv, "--apply")) {
      failed(run, Status(Errc::invalid_argument, "--apply: only with memorybox sync pull (" +
                                                     words[0] + " writes directly)"));
      return false;
    }
    return true;
  };
  if (words[0] == "pull") {
    if (only({"--remote", "--conninfo-file", "--workspace-id", "--confirm-plan"}, true)) {
      run_pull(run);
    }
  } else if (words[0] == "push") {
    if (only({"--remote", "--conninfo-file", "--workspace-id"}, false)) run_push(run);
  } else if (words[0] == "status") {
    if (only({"--remote", "--conninfo-file"}, false)) run_status(run);
  } else if (only({"--id", "--take"}, false)) {
    run_resolve(run);
  }
}

}  // namespace memkit::commands_detail
