// Pull and resolve (spec memorybox.md §9 Session start, Conflict rules, `sync resolve`): remote
// records merged into the local files as one plan, byte for byte, and one open conflict settled.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "moves_support.hpp"

using namespace moves_test;

namespace {

constexpr std::string_view kWorkspace = "0192f3a4-5b6c-7d8e-9f00-112233445566";
constexpr std::string_view kOtherWorkspace = "0192f3a4-5b6c-7d8e-9f00-aaaaaaaaaaaa";
constexpr std::string_view kNowUtc = "2026-11-30T09:00:00.000Z";  // kNow in UTC
constexpr std::string_view kT8 = "2026-11-30T08:00:00.000Z";
const std::string kConflicts(kSyncConflictsFile);
const std::string kLongTerm = "memory/LONG_TERM.md";

using Files = std::map<std::string, std::string>;

// What both sides held at the last sync: every local entry has its Id.
const Files kLocal = {
    {"memory/LONG_TERM.md",
     "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
     "  Source: ops chat\n  Id: id-a\n\n## Team\n- Alice leads\n  Confidence: 0.80\n"
     "  Verified: 2026-11-01\n  Id: id-b\n"},
    {"memory/PATTERNS.md",
     "# PATTERNS\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\nId: id-p\nUse backoff.\n"},
    {"memory/SESSION_LOG.md", "# SESSION_LOG\n\n### 2026-11-29 deploy\nId: id-s\nDeployed.\n"},
    {"memory/daily/2026-11-29.md", "Id: id-day\n\n- a\n"},
};

// The tier files of `files` (SYNC_CONFLICTS.md is passed on its own, as the shell does).
Inputs tier_inputs(const Files& files) {
  Files tiers = files;
  tiers.erase(kConflicts);
  return inputs_of(tiers);
}

LocalScan scan(const Files& files) {
  const Result<LocalScan> s = scan_local(tier_inputs(files), kWorkspace, {}, kNow);
  REQUIRE(s);
  REQUIRE(s->findings.empty());
  return *s;
}

SyncBase base_of(const Files& files) {
  SyncBase base;
  for (const LocalRecord& r : scan(files).records) {
    base.insert_or_assign(r.record.id,
                          BaseEntry{r.record.table, r.record.file, record_digest(r.record)});
  }
  return base;
}

// The local record of `id` in `files`, as a remote that holds the same would send it.
SyncRecord record_of(const Files& files, std::string_view id) {
  for (const LocalRecord& r : scan(files).records) {
    if (r.record.id == id) return r.record;
  }
  FAIL("no record " << id);
  return {};
}

SyncRecord remote_fact(std::string id, std::string file, std::optional<std::string> category,
                       std::string text, std::uint32_t confidence, std::string verified,
                       std::string_view updated_at = kT8) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = std::string(kWorkspace),
                    .table = SyncTable::memories,
                    .file = std::move(file),
                    .category = std::move(category),
                    .text = std::move(text),
                    .confidence = confidence,
                    .verified = std::move(verified),
                    .updated_at = std::string(updated_at),
                    .deleted = false};
}

SyncRecord remote_log(std::string id, SyncTable table, std::string file, std::string text,
                      std::string_view updated_at = kT8) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = std::string(kWorkspace),
                    .table = table,
                    .file = std::move(file),
                    .category = std::nullopt,
                    .text = std::move(text),
                    .confidence = std::nullopt,
                    .verified = std::nullopt,
                    .updated_at = std::string(updated_at),
                    .deleted = false};
}

SyncRecord remote_tombstone(const SyncRecord& r, std::string_view updated_at = kT8) {
  return tombstone(r.id, r.workspace_id, r.table, r.file, std::string(updated_at));
}

// The pull's input over `files`, kept alive with it.
struct Setup {
  Inputs inputs;
  LocalScan local;
  SyncBase base;
  std::optional<FileSnapshot> conflicts_file;
  PullInput input(std::vector<SyncRecord> remote, std::vector<SyncRecord> open) const {
    return PullInput{.inputs = &inputs,
                     .local = &local,
                     .base = &base,
                     .remote = std::move(remote),
                     .open_conflicts = std::move(open),
                     .workspace_id = kWorkspace,
                     .conflicts_file = conflicts_file ? &*conflicts_file : nullptr};
  }
};

Setup setup(const Files& files, SyncBase base) {
  Setup s{tier_inputs(files), scan(files), std::move(base), std::nullopt};
  if (const auto c = files.find(kConflicts); c != files.end()) {
    s.conflicts_file = FileSnapshot{kConflicts, EntryState::file,
                                    std::make_shared<const std::string>(c->second), ""};
  }
  return s;
}

// The pull's plan, checked to be the same when the scan reads in full only the entries that changed
// since `base` and the ids pulled or in conflict (ScanFocus), as the command scans, and when files
// are scanned and read back in two shares.
Result<PullPlanning> plan(const Files& files, const SyncBase& base, std::vector<SyncRecord> remote,
                          std::vector<SyncRecord> open = {}, const ClockReading& now = kNow) {
  const Setup s = setup(files, base);
  Result<PullPlanning> full = plan_pull(s.input(remote, open), now);
  ScanFocus focus{&base, {}};
  for (const SyncRecord& r : remote) focus.ids.insert(r.id);
  for (const SyncRecord& r : open) focus.ids.insert(r.id);
  focus.parallel_bytes = 0;  // and each file's entries read in halves on two cores
  const Result<LocalScan> local = scan_local(s.inputs, kWorkspace, {}, kNow, focus);
  REQUIRE(local);
  Setup focused = s;
  focused.local = *local;
  PullInput halves = focused.input(remote, open);
  halves.parallel_bytes = 0;  // and each written file read back in halves on two cores
  const Result<PullPlanning> same = plan_pull(halves, now);
  REQUIRE(same.ok() == full.ok());
  if (!full) {
    CHECK(same.status().message() == full.status().message());
    return full;
  }
  CHECK(same->plan.has_value() == full->plan.has_value());
  if (full->plan) CHECK(same->plan->id() == full->plan->id());
  CHECK(same->needs_confirmation == full->needs_confirmation);
  CHECK(same->base_changes == full->base_changes);
  CHECK(same->conflicts == full->conflicts);
  CHECK(same->findings == full->findings);
  REQUIRE(same->items.size() == full->items.size());
  for (std::size_t i = 0; i < full->items.size(); ++i) {
    CHECK(same->items[i].id == full->items[i].id);
    CHECK(same->items[i].file == full->items[i].file);
    CHECK(same->items[i].action == full->items[i].action);
    CHECK(same->items[i].rule == full->items[i].rule);
  }
  return full;
}

struct Pulled {
  PullPlanning planning;
  Files after;    // the files with the plan applied
  SyncBase base;  // the base after: the input's with the planning's changes
};

Pulled pull(const Files& files, const SyncBase& base, std::vector<SyncRecord> remote,
            std::vector<SyncRecord> open = {}, const ClockReading& now = kNow) {
  Result<PullPlanning> p = plan(files, base, std::move(remote), std::move(open), now);
  REQUIRE(p);
  Pulled out{std::move(*p), files, {}};
  out.base = merged_base(base, out.planning.base_changes);
  if (out.planning.plan) {
    CHECK(out.planning.plan->command() == "memorybox sync pull");
    out.after = applied(files, *out.planning.plan);
  }
  return out;
}

Status pull_failure(const Files& files, std::vector<SyncRecord> remote) {
  const Result<PullPlanning> p = plan(files, base_of(files), std::move(remote));
  REQUIRE_FALSE(p);
  return p.status();
}

struct Resolved {
  Resolution resolution;
  Files after;
  SyncBase base;  // the base after
};

Resolved resolve(const Files& files, const SyncBase& base, const std::vector<SyncRecord>& open,
                 std::string_view id, bool take_remote, const ClockReading& now = kNow) {
  const Setup s = setup(files, base);
  Result<Resolution> r = plan_resolve(s.input({}, open), id, take_remote, now);
  REQUIRE(r);
  Resolved out{std::move(*r), files, {}};
  out.base = merged_base(base, out.resolution.base_changes);
  if (out.resolution.plan) {
    CHECK(out.resolution.plan->command() == "memorybox sync resolve");
    out.after = applied(files, *out.resolution.plan);
  }
  return out;
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

const PullItem& item_of(const PullPlanning& p, std::string_view id) {
  const auto it =
      std::find_if(p.items.begin(), p.items.end(), [&](const PullItem& i) { return i.id == id; });
  REQUIRE(it != p.items.end());
  return *it;
}

std::vector<std::string> written_paths(const Plan& plan) {
  std::vector<std::string> paths;
  for (const PlanOperation& op : plan.operations()) paths.push_back(op.path);
  return paths;
}

}  // namespace

// ---- added ----

TEST_CASE("plan_pull: a new remote bullet goes under its category, tight after its last entry") {
  const SyncBase base = base_of(kLocal);
  const SyncRecord r =
      remote_fact("id-new", kLongTerm, "Stack", "- Uses Redis 7\n", 70, "2026-11-25");
  const Pulled p = pull(kLocal, base, {r});
  REQUIRE(p.planning.plan);
  CHECK(written_paths(*p.planning.plan) == std::vector<std::string>{kLongTerm});
  CHECK(
      p.after.at(kLongTerm) ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
      "  Source: ops chat\n  Id: id-a\n- Uses Redis 7\n  Confidence: 0.70\n"
      "  Verified: 2026-11-25\n  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-new\n\n## Team\n"
      "- Alice leads\n  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n");
  REQUIRE(p.planning.items.size() == 1);
  const PullItem& item = p.planning.items[0];
  CHECK(item.id == "id-new");
  CHECK(item.table == SyncTable::memories);
  CHECK(item.file == kLongTerm);
  CHECK(item.action == PullAction::added);
  CHECK_FALSE(item.rule.has_value());
  CHECK_FALSE(p.planning.needs_confirmation);
  SyncBase expected = base;
  expected.insert_or_assign("id-new", BaseEntry{SyncTable::memories, kLongTerm, record_digest(r)});
  CHECK(p.base == expected);
  CHECK(p.planning.conflicts.empty());
  CHECK(p.planning.findings.empty());
}

TEST_CASE("plan_pull: a bullet of a category the file lacks gets a new ## Category block") {
  const SyncRecord r = remote_fact("id-new", kLongTerm, "Infra", "- Uses Redis 7\n  on port 6380\n",
                                   70, "2026-11-25");
  const Pulled p = pull(kLocal, base_of(kLocal), {r});
  CHECK(p.after.at(kLongTerm) ==
        kLocal.at(kLongTerm) +
            "\n## Infra\n\n- Uses Redis 7\n  on port 6380\n  Confidence: 0.70\n"
            "  Verified: 2026-11-25\n  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-new\n");
  CHECK(item_of(p.planning, "id-new").action == PullAction::added);
  CHECK_FALSE(p.planning.needs_confirmation);
}

TEST_CASE("plan_pull: new sections are appended to their file, with Category when not the stem") {
  const SyncRecord breaker =
      remote_fact("id-p2", "memory/PATTERNS.md", "PATTERNS",
                  "## Circuit breaker\nOpen after 5 failures.\n", 75, "2026-11-28");
  const SyncRecord canary = remote_fact("id-p3", "memory/PATTERNS.md", "Ops",
                                        "## Canary\nShip to 1% first.\n", 60, "2026-11-28");
  // A file that does not exist yet starts as `init` would write it.
  const SyncRecord mistake =
      remote_fact("id-m", "memory/MISTAKES.md", "MISTAKES",
                  "## Forgot the time zone\nAlways store UTC.\n", 100, "2026-11-30");
  const Pulled p = pull(kLocal, base_of(kLocal), {canary, mistake, breaker});
  REQUIRE(p.planning.plan);
  CHECK(p.after.at("memory/PATTERNS.md") ==
        "# PATTERNS\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\nId: id-p\nUse backoff.\n"
        "\n## Circuit breaker\nConfidence: 0.75\nVerified: 2026-11-28\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-p2\nOpen after 5 failures.\n"
        "\n## Canary\nConfidence: 0.60\nVerified: 2026-11-28\nCategory: Ops\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-p3\nShip to 1% first.\n");
  CHECK(p.after.at("memory/MISTAKES.md") ==
        "# MISTAKES\n\n## Forgot the time zone\nConfidence: 1.00\nVerified: 2026-11-30\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-m\nAlways store UTC.\n");
  for (const PlanOperation& op : p.planning.plan->operations()) {
    CAPTURE(op.path);
    CHECK(op.kind ==
          (op.path == "memory/MISTAKES.md" ? OperationKind::create : OperationKind::replace));
  }
  // Items by table, then id.
  REQUIRE(p.planning.items.size() == 3);
  CHECK(p.planning.items[0].id == "id-m");
  CHECK(p.planning.items[1].id == "id-p2");
  CHECK(p.planning.items[2].id == "id-p3");
  CHECK_FALSE(p.planning.needs_confirmation);
}

TEST_CASE("plan_pull: a new session is appended to the log, a new day is a new daily file") {
  const SyncRecord session = remote_log("id-s2", SyncTable::session_logs, "memory/SESSION_LOG.md",
                                        "### 2026-11-30 review\nReviewed.\n- item\n");
  const SyncRecord day =
      remote_log("id-d30", SyncTable::daily_logs, "memory/daily/2026-11-30.md", "- did x\n");
  const Pulled p = pull(kLocal, base_of(kLocal), {day, session});
  REQUIRE(p.planning.plan);
  CHECK(
      p.after.at("memory/SESSION_LOG.md") ==
      "# SESSION_LOG\n\n### 2026-11-29 deploy\nId: id-s\nDeployed.\n"
      "\n### 2026-11-30 review\nUpdated: 2026-11-30T08:00:00.000Z\nId: id-s2\nReviewed.\n- item\n");
  CHECK(p.after.at("memory/daily/2026-11-30.md") == "Id: id-d30\n\n- did x\n");
  // Items: session_logs before daily_logs (the table order).
  REQUIRE(p.planning.items.size() == 2);
  CHECK(p.planning.items[0].id == "id-s2");
  CHECK(p.planning.items[0].action == PullAction::added);
  CHECK(p.planning.items[1].id == "id-d30");
  CHECK(p.planning.items[1].action == PullAction::added);
  CHECK(p.planning.items[1].file == "memory/daily/2026-11-30.md");
  CHECK_FALSE(p.planning.needs_confirmation);
}

TEST_CASE("plan_pull: the scan's new Id lines are written with the pull") {
  Files files = kLocal;
  files[kLongTerm] += "- Bob joins\n  Confidence: 0.60\n  Verified: 2026-11-20\n";
  const LocalScan local = scan(files);
  const auto assigned = std::find_if(local.records.begin(), local.records.end(),
                                     [](const LocalRecord& r) { return r.assigned; });
  REQUIRE(assigned != local.records.end());
  const std::string bob = assigned->record.id;
  CHECK(assigned->record.text == "- Bob joins\n");
  const SyncRecord r =
      remote_fact("id-new", kLongTerm, "Stack", "- Uses Redis 7\n", 70, "2026-11-25");
  const Pulled p = pull(files, base_of(kLocal), {r});
  CHECK(p.after.at(kLongTerm).ends_with(
      "  Id: id-a\n- Uses Redis 7\n  Confidence: 0.70\n  Verified: 2026-11-25\n"
      "  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-new\n\n## Team\n- Alice leads\n"
      "  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n- Bob joins\n"
      "  Confidence: 0.60\n  Verified: 2026-11-20\n  Id: " +
      bob + "\n"));
  // With nothing to pull, the Id lines alone make the plan.
  const Pulled only_ids = pull(files, base_of(kLocal), {});
  REQUIRE(only_ids.planning.plan);
  CHECK(only_ids.after.at(kLongTerm) == files.at(kLongTerm) + "  Id: " + bob + "\n");
  CHECK(only_ids.planning.items.empty());
}

// ---- updated, moved, deleted ----

TEST_CASE("plan_pull: a remote edit of an unchanged entry replaces it in place, keeping fields") {
  const SyncBase base = base_of(kLocal);
  const SyncRecord r =
      remote_fact("id-a", kLongTerm, "Stack", "- Uses PostgreSQL 16\n", 95, "2026-11-30");
  const Pulled p = pull(kLocal, base, {r});
  REQUIRE(p.planning.plan);
  CHECK(written_paths(*p.planning.plan) == std::vector<std::string>{kLongTerm});
  CHECK(
      p.after.at(kLongTerm) ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 16\n  Confidence: 0.95\n  Verified: 2026-11-30\n"
      "  Source: ops chat\n  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-a\n\n## Team\n"
      "- Alice leads\n  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n");
  const PullItem& item = item_of(p.planning, "id-a");
  CHECK(item.action == PullAction::updated);
  CHECK(item.rule == MergeRule::only_remote_changed);
  CHECK(item.file == kLongTerm);
  CHECK(p.planning.needs_confirmation);
  CHECK(p.base.at("id-a") == BaseEntry{SyncTable::memories, kLongTerm, record_digest(r)});
  CHECK(p.base.at("id-b") == base.at("id-b"));
}

TEST_CASE("plan_pull: an in-place edit keeps the entry's layout and the file's last bytes") {
  // Fields after the first line stay there; text after them follows them.
  Files files = kLocal;
  files[kLongTerm] =
      "## Stack\r\n- fact\r\n  Confidence: 0.9\r\n  Verified: 2026-11-01\r\n  Id: id-m\r\n"
      "  detail line\r\n\r\n\r\n- other\r\n  Confidence: 0.9\r\n  Verified: 2026-11-01\r\n"
      "  Id: id-o";  // unterminated
  const SyncBase base = base_of(files);
  const SyncRecord m =
      remote_fact("id-m", kLongTerm, "Stack", "- fact v2\r\n  detail line\r\n  second detail\r\n",
                  90, "2026-11-01");
  const SyncRecord o = remote_fact("id-o", kLongTerm, "Stack", "- other v2\r\n", 90, "2026-11-01");
  const Pulled p = pull(files, base, {m, o});
  CHECK(p.after.at(kLongTerm) ==
        "## Stack\r\n- fact v2\r\n  Confidence: 0.90\r\n  Verified: 2026-11-01\r\n"
        "  Updated: 2026-11-30T08:00:00.000Z\r\n  Id: id-m\r\n  detail line\r\n  second detail\r\n"
        "\r\n\r\n- other v2\r\n  Confidence: 0.90\r\n  Verified: 2026-11-01\r\n"
        "  Updated: 2026-11-30T08:00:00.000Z\r\n  Id: id-o");
  CHECK(item_of(p.planning, "id-m").action == PullAction::updated);
  CHECK(item_of(p.planning, "id-o").action == PullAction::updated);
}

TEST_CASE("plan_pull: remote edits of a section and a daily file replace them in place") {
  const SyncRecord pattern = remote_fact("id-p", "memory/PATTERNS.md", "PATTERNS",
                                         "## Retry\nUse backoff with jitter.\n", 85, "2026-11-20");
  const SyncRecord day = remote_log("id-day", SyncTable::daily_logs, "memory/daily/2026-11-29.md",
                                    "- a\n- b from the laptop\n");
  const Pulled p = pull(kLocal, base_of(kLocal), {pattern, day});
  CHECK(p.after.at("memory/PATTERNS.md") ==
        "# PATTERNS\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-p\nUse backoff with jitter.\n");
  CHECK(p.after.at("memory/daily/2026-11-29.md") == "Id: id-day\n\n- a\n- b from the laptop\n");
  CHECK(item_of(p.planning, "id-p").action == PullAction::updated);
  CHECK(item_of(p.planning, "id-day").action == PullAction::updated);
  CHECK(p.planning.needs_confirmation);
}

// A session updated from the remote keeps its field lines after its heading.
TEST_CASE("plan_pull: a remote edit of a session keeps its field lines after its heading") {
  const SyncRecord session = remote_log("id-s", SyncTable::session_logs, "memory/SESSION_LOG.md",
                                        "### 2026-11-29 deploy\nDeployed, then rolled back.\n");
  const Pulled p = pull(kLocal, base_of(kLocal), {session});
  CHECK(p.after.at("memory/SESSION_LOG.md") ==
        "# SESSION_LOG\n\n### 2026-11-29 deploy\nUpdated: 2026-11-30T08:00:00.000Z\nId: id-s\n"
        "Deployed, then rolled back.\n");
  CHECK(item_of(p.planning, "id-s").action == PullAction::updated);
}

TEST_CASE("plan_pull: a remote edit of a session is written and reads back as the record") {
  const SyncRecord session = remote_log("id-s", SyncTable::session_logs, "memory/SESSION_LOG.md",
                                        "### 2026-11-29 deploy\nDeployed, then rolled back.\n");
  const Pulled p = pull(kLocal, base_of(kLocal), {session});
  REQUIRE(p.planning.plan);
  CHECK(item_of(p.planning, "id-s").action == PullAction::updated);
  SyncRecord back = record_of(p.after, "id-s");
  CHECK(back.text == session.text);
  CHECK(back.updated_at == kT8);
  CHECK(
      p.after.at("memory/SESSION_LOG.md").starts_with("# SESSION_LOG\n\n### 2026-11-29 deploy\n"));
}

TEST_CASE("plan_pull: a remote move to another category removes the entry and adds it there") {
  const SyncRecord r = remote_fact("id-b", kLongTerm, "Stack", "- Alice leads\n", 80, "2026-11-01");
  const Pulled p = pull(kLocal, base_of(kLocal), {r});
  CHECK(
      p.after.at(kLongTerm) ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
      "  Source: ops chat\n  Id: id-a\n- Alice leads\n  Confidence: 0.80\n"
      "  Verified: 2026-11-01\n  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-b\n\n## Team\n");
  const PullItem& item = item_of(p.planning, "id-b");
  CHECK(item.action == PullAction::moved);
  CHECK(item.rule == MergeRule::only_remote_changed);
  CHECK(p.planning.needs_confirmation);
}

TEST_CASE("plan_pull: a remote move to another file removes the entry and adds it there") {
  const SyncRecord r = remote_fact("id-p", "memory/MISTAKES.md", "MISTAKES",
                                   "## Retry\nUse backoff.\n", 85, "2026-11-20");
  const Pulled p = pull(kLocal, base_of(kLocal), {r});
  REQUIRE(p.planning.plan);
  CHECK(written_paths(*p.planning.plan) ==
        std::vector<std::string>{"memory/MISTAKES.md", "memory/PATTERNS.md"});
  CHECK(p.after.at("memory/PATTERNS.md") == "# PATTERNS\n");
  CHECK(p.after.at("memory/MISTAKES.md") ==
        "# MISTAKES\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-p\nUse backoff.\n");
  const PullItem& item = item_of(p.planning, "id-p");
  CHECK(item.action == PullAction::moved);
  CHECK(item.file == "memory/MISTAKES.md");
  CHECK(p.planning.needs_confirmation);
  CHECK(p.base.at("id-p") ==
        BaseEntry{SyncTable::memories, "memory/MISTAKES.md", record_digest(r)});
  // No archive: the entry lives on in its new file.
  CHECK_FALSE(std::any_of(p.after.begin(), p.after.end(),
                          [](const auto& f) { return f.first.starts_with("memory/ARCHIVES/"); }));
}

TEST_CASE("plan_pull: a remote tombstone removes the entry and archives a copy") {
  const SyncBase base = base_of(kLocal);
  const SyncRecord gone = remote_tombstone(record_of(kLocal, "id-b"));
  const SyncRecord gone_session = remote_tombstone(record_of(kLocal, "id-s"));
  const SyncRecord gone_day = remote_tombstone(record_of(kLocal, "id-day"));
  const Pulled p = pull(kLocal, base, {gone, gone_session, gone_day});
  REQUIRE(p.planning.plan);
  CHECK(
      p.after.at(kLongTerm) ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 15\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
      "  Source: ops chat\n  Id: id-a\n\n## Team\n");
  CHECK(p.after.at("memory/ARCHIVES/long_term-2026-11.md") ==
        preamble("memory/LONG_TERM.md") +
            "- Alice leads\n  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n");
  CHECK(p.after.at("memory/SESSION_LOG.md") == "# SESSION_LOG\n");
  CHECK(p.after.at("memory/ARCHIVES/sessions-2026-11.md") ==
        preamble("memory/SESSION_LOG.md") + "### 2026-11-29 deploy\nId: id-s\nDeployed.\n");
  // A daily file is one entry: the file goes, whole, to the daily archive.
  CHECK_FALSE(p.after.contains("memory/daily/2026-11-29.md"));
  CHECK(p.after.at("memory/ARCHIVES/daily-2026-11.md") ==
        preamble("memory/daily/") + "## 2026-11-29\n\nId: id-day\n\n- a\n");
  for (const SyncRecord* r : {&gone, &gone_session, &gone_day}) {
    CAPTURE(r->id);
    CHECK(item_of(p.planning, r->id).action == PullAction::deleted);
    CHECK(p.base.at(r->id) == BaseEntry{r->table, r->file, record_digest(*r)});
  }
  CHECK(p.planning.needs_confirmation);
  // A tombstone of an id never seen here changes nothing but the base.
  const SyncRecord stranger =
      tombstone("id-x", std::string(kWorkspace), SyncTable::memories, kLongTerm, std::string(kT8));
  const Pulled q = pull(kLocal, base, {stranger});
  CHECK_FALSE(q.planning.plan.has_value());
  CHECK(item_of(q.planning, "id-x").action == PullAction::unchanged);
  CHECK(q.base.at("id-x") == BaseEntry{SyncTable::memories, kLongTerm, record_digest(stranger)});
  CHECK_FALSE(q.planning.needs_confirmation);
}

// ---- kept_local, conflicts ----

TEST_CASE("plan_pull: a local edit against an unchanged remote is kept, nothing written") {
  const SyncBase base = base_of(kLocal);
  const SyncRecord remote = record_of(kLocal, "id-a");  // what both had at the last sync
  Files edited = kLocal;
  edited[kLongTerm] = replaced(edited[kLongTerm], "PostgreSQL 15", "PostgreSQL 16");
  const Pulled p = pull(edited, base, {remote});
  CHECK_FALSE(p.planning.plan.has_value());
  CHECK(item_of(p.planning, "id-a").action == PullAction::kept_local);
  CHECK_FALSE(item_of(p.planning, "id-a").rule.has_value());
  CHECK(p.base == base);  // the edit is still to push
  CHECK_FALSE(p.planning.needs_confirmation);
  // The same content on both sides: nothing to do either.
  const Pulled same = pull(kLocal, base, {remote});
  CHECK_FALSE(same.planning.plan.has_value());
  CHECK(item_of(same.planning, "id-a").action == PullAction::unchanged);
  CHECK(same.base == base);
}

namespace {

// Both sides edited id-a since the last sync: the local edit is newer (08:30), the remote one
// has the higher effective confidence (0.95 against 0.90).
Files conflicting_local() {
  Files edited = kLocal;
  edited[kLongTerm] = replaced(replaced(edited[kLongTerm], "PostgreSQL 15", "PostgreSQL 16"),
                               "  Id: id-a\n", "  Updated: 2026-11-30T08:30:00.000Z\n  Id: id-a\n");
  return edited;
}

const SyncRecord kConflictingRemote =
    remote_fact("id-a", "memory/LONG_TERM.md", "Stack", "- Uses PostgreSQL 17\n", 95, "2026-11-30");

// The local version as the conflict block records it.
const SyncRecord kConflictingLocal =
    remote_fact("id-a", "memory/LONG_TERM.md", "Stack", "- Uses PostgreSQL 16\n", 90, "2026-11-01",
                "2026-11-30T08:30:00.000Z");

const std::string kLocalConflicted =
    "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 16\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
    "  Source: ops chat\n  Review: sync conflict 2026-11-30\n"
    "  Updated: 2026-11-30T08:30:00.000Z\n  Id: id-a\n\n## Team\n- Alice leads\n"
    "  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n";

}  // namespace

TEST_CASE("plan_pull: newer and higher disagree -> conflict: Review line, SYNC_CONFLICTS.md") {
  const SyncBase base = base_of(kLocal);
  const Files local = conflicting_local();
  const Pulled p = pull(local, base, {kConflictingRemote});
  REQUIRE(p.planning.plan);
  CHECK(written_paths(*p.planning.plan) == std::vector<std::string>{kLongTerm, kConflicts});
  CHECK(p.after.at(kLongTerm) == kLocalConflicted);
  const std::string block =
      conflict_block("id-a", "2026-11-30", kConflictingLocal, kConflictingRemote);
  CHECK(block.starts_with("## id-a \xE2\x80\x94 2026-11-30\n"));
  const std::string& notes = p.after.at(kConflicts);
  CHECK(notes.starts_with("# SYNC_CONFLICTS\n\n"));
  CHECK(notes.ends_with("\n\n" + block));
  const PullItem& item = item_of(p.planning, "id-a");
  CHECK(item.action == PullAction::conflict);
  CHECK(item.rule == MergeRule::fact_ambiguous);
  CHECK(item.file == kLongTerm);
  CHECK(p.planning.conflicts == std::vector<SyncRecord>{kConflictingRemote});
  CHECK(p.base == base);  // held: neither side is taken
  CHECK_FALSE(p.planning.needs_confirmation);
  REQUIRE(p.planning.findings.size() == 1);
  CHECK(p.planning.findings[0].code == "MK-BOX-021");
  CHECK(p.planning.findings[0].severity == Severity::warning);
  CHECK(p.planning.findings[0].path == kConflicts);
  CHECK(p.planning.findings[0].message == "1 sync conflict is open");
  // The local version is held from the push.
  const Inputs in = tier_inputs(p.after);
  const LocalScan s = scan(p.after);
  const PushSelection push = select_push(in, s, p.base, {"id-a"}, kWorkspace, kNow);
  CHECK(push.records.empty());
  CHECK(push.held == std::vector<std::string>{"id-a"});
}

// SYNC_CONFLICTS.md blocks are separated by exactly one empty line (compaction.md §7.3).
TEST_CASE("plan_pull: a conflict block follows one empty line in SYNC_CONFLICTS.md") {
  const Pulled p = pull(conflicting_local(), base_of(kLocal), {kConflictingRemote});
  CHECK(p.after.at(kConflicts) ==
        "# SYNC_CONFLICTS\n\n" + conflict_block("id-a", "2026-11-30", kConflictingLocal,
                                                kConflictingRemote));
}

TEST_CASE("plan_pull: a conflict goes after what SYNC_CONFLICTS.md holds, a second stays open") {
  const SyncBase base = base_of(kLocal);
  Files local = conflicting_local();
  local[kConflicts] = "# SYNC_CONFLICTS\n\n## old \xE2\x80\x94 2026-11-01\n\nResolved.\n";
  const Pulled p = pull(local, base, {kConflictingRemote});
  CHECK(p.after.at(kConflicts).starts_with(local.at(kConflicts)));
  CHECK(p.after.at(kConflicts)
            .ends_with(conflict_block("id-a", "2026-11-30", kConflictingLocal, kConflictingRemote)));
  // Pulled again while still open: the newest remote version is kept, nothing is written.
  SyncRecord newer = kConflictingRemote;
  newer.text = "- Uses PostgreSQL 18\n";
  newer.updated_at = "2026-11-30T08:45:00.000Z";
  const Pulled again = pull(p.after, base, {newer}, p.planning.conflicts);
  CHECK_FALSE(again.planning.plan.has_value());
  CHECK(item_of(again.planning, "id-a").action == PullAction::conflict);
  CHECK(again.planning.conflicts == std::vector<SyncRecord>{newer});
  CHECK(again.base == base);
  REQUIRE(again.planning.findings.size() == 1);
  CHECK(again.planning.findings[0].code == "MK-BOX-021");
  // An open conflict that is not pulled again stays open.
  const Pulled quiet = pull(p.after, base, {}, p.planning.conflicts);
  CHECK(quiet.planning.conflicts == p.planning.conflicts);
}

TEST_CASE("plan_pull: take_local when the local side is not newer sets Updated to now") {
  const SyncBase base = base_of(kLocal);
  // Same instant on both sides, local has the higher confidence: local wins by rule 2.
  Files local = kLocal;
  local[kLongTerm] =
      replaced(replaced(local[kLongTerm], "- Uses PostgreSQL 15\n  Confidence: 0.90\n",
                        "- Uses PostgreSQL 16\n  Confidence: 0.95\n"),
               "  Id: id-a\n", "  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-a\n");
  const SyncRecord remote =
      remote_fact("id-a", kLongTerm, "Stack", "- Uses PostgreSQL 17\n", 80, "2026-11-01");
  const Pulled p = pull(local, base, {remote});
  REQUIRE(p.planning.plan);
  CHECK(p.after.at(kLongTerm) == replaced(local.at(kLongTerm),
                                          "  Updated: 2026-11-30T08:00:00.000Z\n",
                                          "  Updated: 2026-11-30T09:00:00.000Z\n"));
  const PullItem& item = item_of(p.planning, "id-a");
  CHECK(item.action == PullAction::kept_local);
  CHECK(item.rule == MergeRule::fact_higher);
  CHECK(p.base.at("id-a") == BaseEntry{SyncTable::memories, kLongTerm, record_digest(remote)});
  CHECK(p.planning.conflicts.empty());
  CHECK_FALSE(p.planning.needs_confirmation);
  // The next push sends the local version, stamped now.
  const LocalScan s = scan(p.after);
  const PushSelection push = select_push(tier_inputs(p.after), s, p.base, {}, kWorkspace, kNow);
  REQUIRE(push.records.size() == 1);
  CHECK(push.records[0].id == "id-a");
  CHECK(push.records[0].text == "- Uses PostgreSQL 16\n");
  CHECK(push.records[0].updated_at == kNowUtc);
}

TEST_CASE("plan_pull: take_local when the local side is newer writes nothing") {
  const SyncBase base = base_of(kLocal);
  Files local = kLocal;
  local["memory/SESSION_LOG.md"] =
      "# SESSION_LOG\n\n### 2026-11-29 deploy\nUpdated: 2026-11-30T08:30:00.000Z\nId: id-s\n"
      "Deployed twice.\n";
  const SyncRecord remote = remote_log("id-s", SyncTable::session_logs, "memory/SESSION_LOG.md",
                                       "### 2026-11-29 deploy\nDeployed once.\n");
  const Pulled p = pull(local, base, {remote});
  CHECK_FALSE(p.planning.plan.has_value());
  const PullItem& item = item_of(p.planning, "id-s");
  CHECK(item.action == PullAction::kept_local);
  CHECK(item.rule == MergeRule::log_newer);
  CHECK(p.base.at("id-s") ==
        BaseEntry{SyncTable::session_logs, "memory/SESSION_LOG.md", record_digest(remote)});
}

TEST_CASE("plan_pull: a remote day whose file exists here under another Id is a conflict") {
  const SyncBase base = base_of(kLocal);
  const SyncRecord day = remote_log("id-other", SyncTable::daily_logs, "memory/daily/2026-11-29.md",
                                    "- b from the laptop\n");
  const Pulled p = pull(kLocal, base, {day});
  REQUIRE(p.planning.plan);
  CHECK(written_paths(*p.planning.plan) == std::vector<std::string>{kConflicts});
  CHECK(p.after.at("memory/daily/2026-11-29.md") == kLocal.at("memory/daily/2026-11-29.md"));
  const std::string& notes = p.after.at(kConflicts);
  CHECK(notes.find("## id-other \xE2\x80\x94 2026-11-30\n\nLocal:\n\n"
                   "- file: memory/daily/2026-11-29.md\n") != std::string::npos);
  CHECK(notes.find("\n\n```\n- a\n```\n\nRemote:\n\n") != std::string::npos);
  CHECK(notes.ends_with("\n\n```\n- b from the laptop\n```\n"));
  const PullItem& item = item_of(p.planning, "id-other");
  CHECK(item.action == PullAction::conflict);
  CHECK(item.file == "memory/daily/2026-11-29.md");
  CHECK(p.planning.conflicts == std::vector<SyncRecord>{day});
  CHECK_FALSE(p.base.contains("id-other"));
  CHECK(p.base == base);
}

TEST_CASE("plan_pull: an id unscored here is left alone") {
  const SyncBase base = base_of(kLocal);
  Files local = kLocal;
  local[kLongTerm] = replaced(local[kLongTerm], "  Confidence: 0.90\n", "");
  const SyncRecord r =
      remote_fact("id-a", kLongTerm, "Stack", "- Uses PostgreSQL 16\n", 95, "2026-11-30");
  const Pulled p = pull(local, base, {r});
  CHECK_FALSE(p.planning.plan.has_value());
  CHECK(item_of(p.planning, "id-a").action == PullAction::unchanged);
}

// A section file that holds bullets (no H2) takes a remote bullet as a bullet, at its end.
TEST_CASE("plan_pull: a new bullet of a section file that holds bullets is added as a bullet") {
  Files files = kLocal;
  files["memory/DECISIONS.md"] =
      "# DECISIONS\n\n- Use UTC\n  Confidence: 0.90\n  Verified: 2026-11-01\n  Id: id-dec\n";
  const SyncRecord r =
      remote_fact("id-new", "memory/DECISIONS.md", "DECISIONS", "- Use NTP\n", 90, "2026-11-01");
  const Result<PullPlanning> p = plan(files, base_of(files), {r});
  REQUIRE(p);
  REQUIRE(p->plan);
  const Files after = applied(files, *p->plan);
  CHECK(after.at("memory/DECISIONS.md").starts_with(files.at("memory/DECISIONS.md")));
  CHECK(record_digest(record_of(after, "id-new")) == record_digest(r));
}

// A section whose remote category is back to the file stem loses its stale Category line.
TEST_CASE("plan_pull: a remote edit back to the stem's category drops the Category line") {
  Files files = kLocal;
  files["memory/PATTERNS.md"] =
      "# PATTERNS\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\nCategory: Ops\nId: id-p\n"
      "Use backoff.\n";
  const SyncRecord r = remote_fact("id-p", "memory/PATTERNS.md", "PATTERNS",
                                   "## Retry\nUse backoff.\n", 85, "2026-11-20");
  const Result<PullPlanning> p = plan(files, base_of(files), {r});
  REQUIRE(p);
  REQUIRE(p->plan);
  CHECK(applied(files, *p->plan).at("memory/PATTERNS.md") ==
        "# PATTERNS\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-p\nUse backoff.\n");
  CHECK(item_of(*p, "id-p").action == PullAction::updated);
}

TEST_CASE("plan_pull: a remote edit to another category of a section file sets Category") {
  const SyncRecord r = remote_fact("id-p", "memory/PATTERNS.md", "Ops", "## Retry\nUse backoff.\n",
                                   85, "2026-11-20");
  const Pulled p = pull(kLocal, base_of(kLocal), {r});
  CHECK(p.after.at("memory/PATTERNS.md") ==
        "# PATTERNS\n\n## Retry\nConfidence: 0.85\nVerified: 2026-11-20\nCategory: Ops\n"
        "Updated: 2026-11-30T08:00:00.000Z\nId: id-p\nUse backoff.\n");
  // Not a move: a section file's category is a field.
  CHECK(item_of(p.planning, "id-p").action == PullAction::updated);
}

// ---- refusals ----

TEST_CASE("plan_pull: a remote record whose file is not a synced file of its table is refused") {
  const auto refused = [](SyncRecord r) {
    const Status s = pull_failure(
        kLocal,
        {remote_fact("id-ok", kLongTerm, "Stack", "- ok\n", 70, "2026-11-25"), std::move(r)});
    CHECK(s.code() == Errc::parse);
    return s.message();
  };
  CHECK(refused(remote_fact("id-x", "memory/../x.md", "x", "- x\n", 70, "2026-11-25")) ==
        "remote record id-x (memories memory/../x.md): its file is not a synced file of its table");
  CHECK(refused(remote_fact("id-x", "brain/x.md", "x", "- x\n", 70, "2026-11-25")) ==
        "remote record id-x (memories brain/x.md): its file is not a synced file of its table");
  CHECK(refused(remote_fact("id-x", "memory/ACTIVE_TASKS.md", "x", "- x\n", 70, "2026-11-25")) ==
        "remote record id-x (memories memory/ACTIVE_TASKS.md): its file is not a synced file of "
        "its table");
  CHECK(refused(remote_fact("id-x", "/etc/passwd", "x", "- x\n", 70, "2026-11-25")) ==
        "remote record id-x (memories /etc/passwd): its file is not a synced file of its table");
  CHECK(refused(remote_fact("id-x", "memory/SESSION_LOG.md", "x", "- x\n", 70, "2026-11-25")) ==
        "remote record id-x (memories memory/SESSION_LOG.md): its file is not a synced file of its "
        "table");
  CHECK(refused(remote_log("id-x", SyncTable::session_logs, kLongTerm, "### 2026-11-30\n")) ==
        "remote record id-x (session_logs memory/LONG_TERM.md): its file is not a synced file of "
        "its table");
  CHECK(refused(remote_log("id-x", SyncTable::daily_logs, "memory/daily/2026-02-30.md", "x\n")) ==
        "remote record id-x (daily_logs memory/daily/2026-02-30.md): its file is not a synced "
        "file of its table");
  CHECK(refused(remote_log("id-x", SyncTable::daily_logs, "memory/daily/../../x/2026-11-30.md",
                           "x\n")) ==
        "remote record id-x (daily_logs memory/daily/../../x/2026-11-30.md): its file is not a "
        "synced file of its table");
  SyncRecord foreign = remote_fact("id-x", kLongTerm, "Stack", "- x\n", 70, "2026-11-25");
  foreign.workspace_id = std::string(kOtherWorkspace);
  CHECK(refused(foreign) ==
        "remote record id-x (memories memory/LONG_TERM.md): belongs to another workspace");
  CHECK(refused(remote_fact("id-ok", kLongTerm, "Stack", "- again\n", 70, "2026-11-25")) ==
        "remote record id-ok (memories memory/LONG_TERM.md): the remote holds this id twice");
}

TEST_CASE("plan_pull: a remote text that would not read back as one entry is refused") {
  const auto refused = [](SyncRecord r) {
    const Status s = pull_failure(kLocal, {std::move(r)});
    CHECK(s.code() == Errc::parse);
    return s.message();
  };
  const std::string lt =
      "remote record id-x (memories memory/LONG_TERM.md): its text does not "
      "read back as one entry of memory/LONG_TERM.md";
  // A heading inside a bullet's text.
  CHECK(refused(remote_fact("id-x", kLongTerm, "Stack", "- fact\n## Other\n", 70, "2026-11-25")) ==
        lt);
  // Two bullets.
  CHECK(refused(remote_fact("id-x", kLongTerm, "Stack", "- one\n- two\n", 70, "2026-11-25")) == lt);
  // A line that reads as a field line.
  CHECK(refused(remote_fact("id-x", kLongTerm, "Stack", "- fact\n  Source: me\n", 70,
                            "2026-11-25")) == lt);
  // Not a bullet at all.
  CHECK(refused(remote_fact("id-x", kLongTerm, "Stack", "plain text\n", 70, "2026-11-25")) == lt);
  // A section text without its heading, and a session text without its session heading.
  CHECK(refused(remote_fact("id-x", "memory/PATTERNS.md", "PATTERNS", "no heading\n", 70,
                            "2026-11-25")) ==
        "remote record id-x (memories memory/PATTERNS.md): its text does not read back as one "
        "entry of memory/PATTERNS.md");
  CHECK(refused(
            remote_log("id-x", SyncTable::session_logs, "memory/SESSION_LOG.md", "no heading\n")) ==
        "remote record id-x (session_logs memory/SESSION_LOG.md): its text does not read back as "
        "one entry of memory/SESSION_LOG.md");
  // The same holds for an edit in place.
  CHECK(refused(remote_fact("id-a", kLongTerm, "Stack", "- fact\n## Other\n", 70, "2026-11-25")) ==
        "remote record id-a (memories memory/LONG_TERM.md): its text does not read back as one "
        "entry of memory/LONG_TERM.md");
}

// ---- pulling again ----

TEST_CASE("plan_pull: pulling the same records again after applying plans nothing") {
  const SyncBase base = base_of(kLocal);
  const std::vector<SyncRecord> remote = {
      remote_fact("id-new", kLongTerm, "Stack", "- Uses Redis 7\n", 70, "2026-11-25"),
      remote_fact("id-top", kLongTerm, std::nullopt, "- Before any heading\n", 70, "2026-11-25"),
      remote_fact("id-infra", kLongTerm, "Infra", "- Uses nginx\n", 70, "2026-11-25"),
      remote_fact("id-a", kLongTerm, "Stack", "- Uses PostgreSQL 16\n", 95, "2026-11-30"),
      remote_fact("id-b", kLongTerm, "Stack", "- Alice leads\n", 80, "2026-11-01"),
      remote_fact("id-p2", "memory/PATTERNS.md", "Ops", "## Canary\nShip to 1% first.\n", 60,
                  "2026-11-28"),
      remote_tombstone(record_of(kLocal, "id-p")),
      remote_log("id-s2", SyncTable::session_logs, "memory/SESSION_LOG.md",
                 "### 2026-11-30 review\nReviewed.\n"),
      remote_log("id-day", SyncTable::daily_logs, "memory/daily/2026-11-29.md", "- a\n- b\n"),
      remote_log("id-d30", SyncTable::daily_logs, "memory/daily/2026-11-30.md", "- did x\n"),
  };
  const Pulled first = pull(kLocal, base, remote);
  REQUIRE(first.planning.plan);
  CHECK(first.planning.needs_confirmation);
  CHECK(first.planning.findings.empty());
  CHECK(first.planning.conflicts.empty());
  CHECK(item_of(first.planning, "id-top").action == PullAction::added);
  CHECK(first.after.at(kLongTerm).starts_with(
      "# LONG_TERM\n- Before any heading\n  Confidence: 0.70\n  Verified: 2026-11-25\n"
      "  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-top\n\n## Stack\n"));
  // Every record reads back as itself.
  const LocalScan s = scan(first.after);
  for (const SyncRecord& r : remote) {
    CAPTURE(r.id);
    if (r.deleted) continue;
    const auto it = std::find_if(s.records.begin(), s.records.end(),
                                 [&](const LocalRecord& l) { return l.record.id == r.id; });
    REQUIRE(it != s.records.end());
    CHECK(record_digest(it->record) == record_digest(r));
  }
  const Pulled second = pull(first.after, first.base, remote);
  CHECK_FALSE(second.planning.plan.has_value());
  CHECK_FALSE(second.planning.needs_confirmation);
  CHECK(second.base == first.base);
  CHECK(second.planning.items.size() == remote.size());
  for (const PullItem& item : second.planning.items) {
    CAPTURE(item.id);
    CHECK(item.action == PullAction::unchanged);
  }
  // And a push has nothing to send.
  const PushSelection push =
      select_push(tier_inputs(first.after), s, first.base, {}, kWorkspace, kNow);
  CHECK(push.records.empty());
  CHECK(push.splices.empty());
}

// ---- plan_resolve ----

namespace {

// The state after the conflicting pull: the Review line, the note, the open conflict.
struct Conflicted {
  Files files;
  SyncBase base;
  std::vector<SyncRecord> open;
};

Conflicted conflicted() {
  const SyncBase base = base_of(kLocal);
  const Pulled p = pull(conflicting_local(), base, {kConflictingRemote});
  REQUIRE(p.planning.plan);
  return Conflicted{p.after, p.base, p.planning.conflicts};
}

}  // namespace

TEST_CASE("plan_resolve: --take remote writes the remote version without the Review line") {
  const Conflicted c = conflicted();
  const Resolved r = resolve(c.files, c.base, c.open, "id-a", true);
  REQUIRE(r.resolution.plan);
  CHECK(
      r.after.at(kLongTerm) ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 17\n  Confidence: 0.95\n  Verified: 2026-11-30\n"
      "  Source: ops chat\n  Updated: 2026-11-30T08:00:00.000Z\n  Id: id-a\n\n## Team\n"
      "- Alice leads\n  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n");
  CHECK(r.after.at(kConflicts).starts_with(c.files.at(kConflicts)));
  CHECK(
      r.after.at(kConflicts).ends_with("\nResolved id-a \xE2\x80\x94 2026-11-30: took remote.\n"));
  CHECK(r.resolution.id == "id-a");
  CHECK(r.resolution.take == "remote");
  CHECK(r.resolution.file == kLongTerm);
  CHECK(r.resolution.conflicts.empty());
  CHECK(r.base.at("id-a") ==
        BaseEntry{SyncTable::memories, kLongTerm, record_digest(kConflictingRemote)});
  CHECK(r.resolution.plan->arguments() ==
        PlanArguments{{"id", PlanArgument("id-a")}, {"take", PlanArgument("remote")}});
  // Settled: the remote's version pulled again changes nothing, and nothing is to push.
  const Pulled again = pull(r.after, r.base, {kConflictingRemote});
  CHECK_FALSE(again.planning.plan.has_value());
  CHECK(item_of(again.planning, "id-a").action == PullAction::unchanged);
  const PushSelection push =
      select_push(tier_inputs(r.after), scan(r.after), r.base, {}, kWorkspace, kNow);
  CHECK(push.records.empty());
}

TEST_CASE("plan_resolve: --take local clears Review and sets Updated to now") {
  const Conflicted c = conflicted();
  const ClockReading next_day = at("2026-12-01T10:00:00+01:00");
  const Resolved r = resolve(c.files, c.base, c.open, "id-a", false, next_day);
  REQUIRE(r.resolution.plan);
  CHECK(
      r.after.at(kLongTerm) ==
      "# LONG_TERM\n\n## Stack\n- Uses PostgreSQL 16\n  Confidence: 0.90\n  Verified: 2026-11-01\n"
      "  Source: ops chat\n  Updated: 2026-12-01T09:00:00.000Z\n  Id: id-a\n\n## Team\n"
      "- Alice leads\n  Confidence: 0.80\n  Verified: 2026-11-01\n  Id: id-b\n");
  CHECK(r.after.at(kConflicts).starts_with(c.files.at(kConflicts)));
  CHECK(r.after.at(kConflicts).ends_with("\nResolved id-a \xE2\x80\x94 2026-12-01: took local.\n"));
  CHECK(r.resolution.take == "local");
  CHECK(r.resolution.file == kLongTerm);
  CHECK(r.resolution.conflicts.empty());
  CHECK(r.base.at("id-a") ==
        BaseEntry{SyncTable::memories, kLongTerm, record_digest(kConflictingRemote)});
  // The local version is pushed next, over the remote's.
  const PushSelection push =
      select_push(tier_inputs(r.after), scan(r.after), r.base, {}, kWorkspace, next_day);
  REQUIRE(push.records.size() == 1);
  CHECK(push.records[0].text == "- Uses PostgreSQL 16\n");
  CHECK(push.records[0].updated_at == "2026-12-01T09:00:00.000Z");
}

TEST_CASE("plan_resolve: other open conflicts stay open") {
  Conflicted c = conflicted();
  SyncRecord other =
      remote_log("id-other", SyncTable::daily_logs, "memory/daily/2026-11-29.md", "- b\n");
  c.open.push_back(other);
  const Resolved r = resolve(c.files, c.base, c.open, "id-a", false);
  CHECK(r.resolution.conflicts == std::vector<SyncRecord>{other});
  CHECK_FALSE(r.base.contains("id-other"));
}

TEST_CASE("plan_resolve: an id without an open conflict is an invalid argument") {
  const Conflicted c = conflicted();
  const Setup s = setup(c.files, c.base);
  const Result<Resolution> r = plan_resolve(s.input({}, c.open), "id-b", true, kNow);
  REQUIRE_FALSE(r);
  CHECK(r.status().code() == Errc::invalid_argument);
  CHECK(r.status().message() == "--id: id-b: no open sync conflict");
  const Result<Resolution> none = plan_resolve(s.input({}, {}), "id-a", false, kNow);
  REQUIRE_FALSE(none);
  CHECK(none.status().code() == Errc::invalid_argument);
}
