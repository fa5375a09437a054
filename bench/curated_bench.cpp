// Curated memory's pure core (spec curated.md, issue 7): reading row files (§4) and a workspace's
// six of them, the live pending set and the digest (§8), search (§8), the read counters folded
// from access.jsonl (§9), history.jsonl read back (§6), the planning of one `add` (§6: what a
// write costs before its journal) and a story over a large lineage (§10).
//
// Every input comes from a fixed seed through SplitMix64, never <random>'s distributions, so every
// run and every machine times the same bytes. The files are rendered by the core's own writers
// (render_entry, history_line, access_line), so they are exactly what memkit writes. Inputs are
// made once per size and kept: google benchmark calls each function several times while it tunes
// the iteration count.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/curated/story.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/snapshot.hpp"
#include "split_mix.hpp"

namespace {

namespace curated = memkit::curated;

constexpr std::uint64_t kSeed = 0x6375726174656431ULL;  // "curated1"
constexpr std::string_view kWorkspace = "ws1";
constexpr std::int64_t kMillisPerMinute = 60'000;
constexpr std::int64_t kMillisPerDay = 24 * 60 * kMillisPerMinute;
// 2026-01-01T00:00:00.000Z: the first row's creation; every row and read is later.
constexpr std::int64_t kStartMillis = 1'767'225'600'000;
// The clock of the planned writes: after every generated timestamp.
constexpr std::string_view kNow = "2026-11-30T09:00:00.000Z";

using Random = memkit::bench::SplitMix64;

// Body words: ASCII (some of them the searched terms), accented and CJK.
const char* const kWords[] = {"memory",
                              "agent",
                              "context",
                              "budget",
                              "tabs",
                              "config",
                              "deploy",
                              "cache",
                              "index",
                              "review",
                              "Kafka",
                              "build",
                              "schema",
                              "turn",
                              "theme",
                              "global",
                              "window",
                              "token",
                              "flaky",
                              "runner",
                              "timeout",
                              "retry",
                              "migration",
                              "queue",
                              "latency",
                              "owner",
                              "caf\xC3\xA9",
                              "gro\xC3\x9F",
                              "\xE8\xA8\x98\xE4\xBD\x8F"};
// Slug words: [a-z]+ only.
const char* const kSlugWords[] = {"cache",  "deploy", "index",  "schema", "queue",  "build",
                                  "review", "token",  "window", "budget", "runner", "retry",
                                  "owner",  "agent",  "theme",  "config"};

void append_words(Random& random, std::size_t count, std::string& out) {
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += ' ';
    out += kWords[random.below(std::size(kWords))];
  }
}

std::string words(Random& random, std::size_t count) {
  std::string out;
  append_words(random, count, out);
  return out;
}

std::string stamp(std::int64_t unix_millis) {
  return memkit::ClockReading::create(unix_millis, 0)->utc_rfc3339_millis();
}

// ---- rows
// ----------------------------------------------------------------------------------------

// One to ten lines: paragraphs, bullets, now and then a "## Evidence" section (§4 allows any
// heading that is not a slug).
std::string body_of(Random& random) {
  std::string body;
  const std::size_t lines = 1 + random.below(10);
  for (std::size_t n = 0; n < lines; ++n) {
    if (n > 0) body += '\n';
    const std::size_t kind = random.below(10);
    if (kind < 5 || n == 0) {
      append_words(random, 6 + random.below(14), body);
    } else if (kind < 9) {
      body += "- ";
      append_words(random, 4 + random.below(10), body);
    } else {
      body += "\n## Evidence\n\n";
      append_words(random, 6 + random.below(10), body);
    }
  }
  return body;
}

constexpr std::array<std::pair<curated::RowType, std::size_t>, 6> kTypeShares = {{
    {curated::RowType::project, 30},
    {curated::RowType::feedback, 15},
    {curated::RowType::user, 10},
    {curated::RowType::atom, 15},
    {curated::RowType::decision, 20},
    {curated::RowType::negative, 10},
}};

curated::RowType type_of(Random& random) {
  std::size_t pick = random.below(100);
  for (const auto& [type, share] : kTypeShares) {
    if (pick < share) return type;
    pick -= share;
  }
  return curated::RowType::project;
}

curated::LinkKind link_kind_of(Random& random) {
  const std::size_t pick = random.below(10);
  if (pick < 5) return curated::LinkKind::relates_to;
  if (pick < 8) return curated::LinkKind::derived_from;
  return pick < 9 ? curated::LinkKind::supersedes : curated::LinkKind::graduated_to;
}

// Row `i` of `n`, created in order over about ten months; one in four links to 1 to 3 earlier
// rows. 35% are threads (40% open, 20% carry_forward, the rest closed or graduated), three
// rows in four have one of n/40 initiatives, 2% are soft-deleted.
curated::Row make_row(Random& random, std::size_t i, std::size_t n, curated::RowType type,
                      const std::vector<curated::Row>& earlier) {
  curated::Row row;
  row.type = type;
  const std::string_view kind = curated::name_of(type);
  char index[16];
  std::snprintf(index, sizeof index, "_%07zu_", i);
  row.name = std::string(kind) + index + kSlugWords[random.below(std::size(kSlugWords))];
  const std::size_t pick = random.below(100);
  row.row_class = pick < 35   ? curated::RowClass::thread
                  : pick < 65 ? curated::RowClass::anchor
                              : curated::RowClass::log;
  if (row.row_class == curated::RowClass::thread) {
    const std::size_t s = random.below(100);
    row.status = s < 40   ? curated::RowStatus::open
                 : s < 60 ? curated::RowStatus::carry_forward
                 : s < 85 ? curated::RowStatus::closed
                          : curated::RowStatus::graduated;
  }
  const std::size_t initiatives = std::max<std::size_t>(5, n / 40);
  if (!random.one_in(4)) {
    const std::size_t k = random.below(initiatives);
    row.initiative = std::string(kSlugWords[k % std::size(kSlugWords)]) + "_" + std::to_string(k);
  }
  if (type == curated::RowType::user) {
    row.audience = random.one_in(2) ? curated::Audience::executor : curated::Audience::any;
  } else {
    const std::size_t a = random.below(100);
    row.audience = a < 85   ? curated::Audience::any
                   : a < 95 ? curated::Audience::orchestrator
                            : curated::Audience::executor;
  }
  if (random.below(100) < 85) row.description = words(random, 4 + random.below(9));
  if (random.one_in(5)) row.project_ref = "/srv/repos/" + row.initiative.value_or("misc") + "/.git";
  if (random.below(10) < 3) row.origin_session = "s-" + std::to_string(i / 7);
  const std::int64_t step =
      300 * kMillisPerDay / static_cast<std::int64_t>(std::max<std::size_t>(n, 1));
  const std::int64_t created = kStartMillis + step * static_cast<std::int64_t>(i) +
                               static_cast<std::int64_t>(random.below(1000));
  const std::int64_t updated =
      created + static_cast<std::int64_t>(random.below(20 * 24 * 60)) * kMillisPerMinute;
  row.created = stamp(created);
  row.updated = stamp(updated);
  if (random.one_in(50)) row.deleted = row.updated;
  if (!earlier.empty() && random.one_in(4)) {
    for (std::size_t k = 0, links = 1 + random.below(3); k < links; ++k) {
      curated::Link link{.kind = link_kind_of(random),
                         .dst = earlier[random.below(earlier.size())].name,
                         .created_at = stamp(created + kMillisPerMinute)};
      const bool twice = std::any_of(row.links.begin(), row.links.end(), [&](const auto& l) {
        return l.kind == link.kind && l.dst == link.dst;
      });
      if (!twice) row.links.push_back(std::move(link));
    }
    std::sort(row.links.begin(), row.links.end(), [](const auto& a, const auto& b) {
      return std::pair(curated::name_of(a.kind), std::string_view(a.dst)) <
             std::pair(curated::name_of(b.kind), std::string_view(b.dst));
    });
  }
  row.body = body_of(random);
  return row;
}

// `n` rows in creation order; all of `only` when given, else the six types by their shares.
std::vector<curated::Row> make_rows(std::uint64_t seed, std::size_t n,
                                    std::optional<curated::RowType> only = std::nullopt) {
  Random random(seed);
  std::vector<curated::Row> rows;
  rows.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const curated::RowType type = only ? *only : type_of(random);
    curated::Row row = make_row(random, i, n, type, rows);
    rows.push_back(std::move(row));
  }
  return rows;
}

// rows/<ws>/<type>.md as memkit writes it: the header, then the entries sorted by name, one empty
// line apart.
std::string row_file_of(curated::RowType type, std::vector<const curated::Row*> rows) {
  std::sort(rows.begin(), rows.end(),
            [](const curated::Row* a, const curated::Row* b) { return a->name < b->name; });
  std::string out = curated::row_file_header(type);
  for (const curated::Row* row : rows) {
    out += '\n';
    out += curated::render_entry(*row);
  }
  return out;
}

curated::HistoryRecord record_of(curated::HistoryOp op, const curated::Row& row, std::string ts,
                                 std::optional<curated::RowState> before,
                                 std::optional<curated::RowState> after) {
  return curated::HistoryRecord{.ts = std::move(ts),
                                .name = row.name,
                                .op = op,
                                .before = std::move(before),
                                .after = std::move(after),
                                .link_kind = std::nullopt,
                                .link_dst = {},
                                .actor = std::nullopt};
}

// history.jsonl for `rows`: an insert per row (its body's first line), an append when the body
// has more, a reclassify for one thread in three, a link record per link and a delete record per
// soft-deleted row.
std::string history_of(const std::vector<curated::Row>& rows) {
  std::string out;
  for (const curated::Row& row : rows) {
    curated::RowState state = curated::state_of(row);
    state.deleted_at.reset();
    curated::RowState first = state;
    first.body = row.body.substr(0, row.body.find('\n'));
    out += curated::history_line(
        record_of(curated::HistoryOp::insert, row, *row.created, std::nullopt, first));
    if (first.body != state.body) {
      out += curated::history_line(
          record_of(curated::HistoryOp::append, row, *row.updated, first, state));
    }
    if (row.status && row.name.size() % 3 == 0) {
      curated::RowState open = state;
      open.status = curated::RowStatus::open;
      out += curated::history_line(
          record_of(curated::HistoryOp::reclassify, row, *row.updated, open, state));
    }
    for (const curated::Link& link : row.links) {
      curated::HistoryRecord record =
          record_of(curated::HistoryOp::link, row, link.created_at, std::nullopt, std::nullopt);
      record.link_kind = link.kind;
      record.link_dst = link.dst;
      out += curated::history_line(record);
    }
    if (row.deleted) {
      curated::RowState gone = state;
      gone.deleted_at = row.deleted;
      out += curated::history_line(
          record_of(curated::HistoryOp::remove, row, *row.deleted, state, gone));
    }
  }
  return out;
}

// A workspace of `n` rows as a write reads it: the six row files, history.jsonl, and no access
// log (write_inputs' other paths, missing).
struct Workspace {
  std::vector<curated::Row> rows;  // by name, as read_workspace gives them
  memkit::Snapshot snapshot;
  std::size_t row_bytes = 0;
  std::size_t history_bytes = 0;
};

std::shared_ptr<const Workspace> workspace_of(std::size_t n) {
  static std::map<std::size_t, std::shared_ptr<const Workspace>> made;
  if (auto it = made.find(n); it != made.end()) return it->second;
  auto out = std::make_shared<Workspace>();
  std::vector<curated::Row> rows = make_rows(kSeed + n, n);
  std::vector<memkit::FileSnapshot> files;
  for (const auto& [type, share] : kTypeShares) {
    std::vector<const curated::Row*> of_type;
    for (const curated::Row& row : rows) {
      if (row.type == type) of_type.push_back(&row);
    }
    auto bytes = std::make_shared<const std::string>(row_file_of(type, of_type));
    out->row_bytes += bytes->size();
    files.push_back(
        {curated::rows_path(kWorkspace, type), memkit::EntryState::file, std::move(bytes), ""});
  }
  auto history = std::make_shared<const std::string>(history_of(rows));
  out->history_bytes = history->size();
  files.push_back(
      {curated::history_path(kWorkspace), memkit::EntryState::file, std::move(history), ""});
  for (const std::string& path :
       {curated::access_path(kWorkspace), curated::snapshot_path(kWorkspace)}) {
    files.push_back({path, memkit::EntryState::missing, nullptr, ""});
  }
  std::sort(rows.begin(), rows.end(),
            [](const curated::Row& a, const curated::Row& b) { return a.name < b.name; });
  out->rows = std::move(rows);
  out->snapshot = memkit::Snapshot(std::move(files));
  return made[n] = std::move(out);
}

// ---- §4: one row file
// ----------------------------------------------------------------------------

std::shared_ptr<const std::string> project_file_of(std::size_t n) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(n); it != made.end()) return it->second;
  const std::vector<curated::Row> rows = make_rows(kSeed ^ n, n, curated::RowType::project);
  std::vector<const curated::Row*> all;
  for (const curated::Row& row : rows) all.push_back(&row);
  return made[n] = std::make_shared<const std::string>(
             row_file_of(curated::RowType::project, std::move(all)));
}

void entry_counts(benchmark::internal::Benchmark* b) {
  b->ArgName("entries")->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
}

void row_counts(benchmark::internal::Benchmark* b) {
  b->ArgName("rows")->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
}

void BM_parse_row_file(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto file = project_file_of(n);
  std::size_t entries = 0;
  for (auto _ : state) {
    const curated::RowFile parsed = curated::parse_row_file(*file, "rows/ws1/project.md");
    entries = parsed.entries.size();
    benchmark::DoNotOptimize(parsed.entries.data());
  }
  if (entries != n) state.SkipWithError("parse_row_file did not find every entry");
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file->size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["file_bytes"] = static_cast<double>(file->size());
}
BENCHMARK(BM_parse_row_file)->Apply(entry_counts);

// What every read command does first: the six row files parsed, each name once, sorted.
void BM_read_workspace(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto ws = workspace_of(n);
  std::size_t rows = 0;
  for (auto _ : state) {
    const curated::Workspace read = curated::read_workspace(ws->snapshot, kWorkspace);
    rows = read.rows.size();
    benchmark::DoNotOptimize(read.rows.data());
  }
  if (rows != n) state.SkipWithError("read_workspace did not give every row");
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(ws->row_bytes));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}
BENCHMARK(BM_read_workspace)->Apply(row_counts);

// ---- §8: reads over the rows
// ---------------------------------------------------------------------

void BM_live_pending(benchmark::State& state) {
  const auto ws = workspace_of(static_cast<std::size_t>(state.range(0)));
  std::size_t pending = 0;
  for (auto _ : state) {
    const std::vector<const curated::Row*> live = curated::live_pending(ws->rows);
    pending = live.size();
    benchmark::DoNotOptimize(live.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ws->rows.size()));
  state.counters["pending"] = static_cast<double>(pending);
}
BENCHMARK(BM_live_pending)->Apply(row_counts);

// get-relevant's digest: live pending, grouped by initiative (n/40 of them), under 800 code points.
void BM_digest(benchmark::State& state) {
  const auto ws = workspace_of(static_cast<std::size_t>(state.range(0)));
  std::uint64_t buckets = 0;
  for (auto _ : state) {
    const curated::Digest digest = curated::digest(ws->rows);
    buckets = digest.items.size() + digest.overflow_initiatives;
    benchmark::DoNotOptimize(digest.block.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ws->rows.size()));
  state.counters["buckets"] = static_cast<double>(buckets);
}
BENCHMARK(BM_digest)->Apply(row_counts);

// Two whole-token terms over every live row's name, description and body.
void BM_search(benchmark::State& state) {
  const auto ws = workspace_of(static_cast<std::size_t>(state.range(0)));
  std::size_t text = 0;
  for (const curated::Row& row : ws->rows) {
    text += row.name.size() + row.body.size() + (row.description ? row.description->size() : 0);
  }
  std::size_t hits = 0;
  for (auto _ : state) {
    const std::vector<curated::SearchHit> found = curated::search(ws->rows, "cache deploy", 10);
    hits = found.size();
    benchmark::DoNotOptimize(found.data());
  }
  if (hits != 10) state.SkipWithError("search found fewer than 10 rows");
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ws->rows.size()));
}
BENCHMARK(BM_search)->Apply(row_counts);

// ---- §9: telemetry
// -------------------------------------------------------------------------------

// access.jsonl of `lines` reads over 10,000 rows, in time order.
std::shared_ptr<const std::string> access_of(std::size_t lines) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(lines); it != made.end()) return it->second;
  Random random(kSeed + 9 * lines);
  const auto ws = workspace_of(10000);
  std::string out;
  const std::int64_t step = 300 * kMillisPerDay / static_cast<std::int64_t>(lines);
  for (std::size_t i = 0; i < lines; ++i) {
    const std::size_t kind = random.below(20);
    const bool injection = kind >= 10 && kind < 17;
    out += curated::access_line(
        curated::AccessRecord{.ts = stamp(kStartMillis + step * static_cast<std::int64_t>(i)),
                              .name = ws->rows[random.below(ws->rows.size())].name,
                              .kind = kind < 10   ? curated::ReadKind::deliberate
                                      : injection ? curated::ReadKind::injection
                                                  : curated::ReadKind::kernel,
                              .surface = kind < 10   ? "show"
                                         : injection ? "get-relevant"
                                                     : "kernel"});
  }
  return made[lines] = std::make_shared<const std::string>(std::move(out));
}

// What show, list and stats do to derive the counters: every access line read.
void BM_fold_telemetry(benchmark::State& state) {
  const auto lines = static_cast<std::size_t>(state.range(0));
  const auto access = access_of(lines);
  std::size_t names = 0;
  for (auto _ : state) {
    const curated::Telemetry telemetry = curated::fold_telemetry(
        "", *access, "log/ws1/access-snapshot.json", "log/ws1/access.jsonl");
    names = telemetry.rows.size();
    if (!telemetry.findings.empty()) state.SkipWithError("an access line did not read");
    benchmark::DoNotOptimize(names);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(access->size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(lines));
  state.counters["rows"] = static_cast<double>(names);
}
BENCHMARK(BM_fold_telemetry)->ArgName("lines")->Arg(1000000)->Unit(benchmark::kMillisecond);

// ---- §6: history
// ---------------------------------------------------------------------------------

// history.jsonl of at least `records` records: the workspace history of enough rows, cut at a
// record boundary.
std::shared_ptr<const std::string> history_records(std::size_t records) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(records); it != made.end()) return it->second;
  const std::string all = history_of(make_rows(kSeed + 11, records));
  std::size_t end = 0;
  for (std::size_t n = 0; n < records; ++n) end = all.find('\n', end) + 1;
  return made[records] = std::make_shared<const std::string>(all.substr(0, end));
}

// What story and show --history read: every record, its before and after states whole.
void BM_parse_history(benchmark::State& state) {
  const auto records = static_cast<std::size_t>(state.range(0));
  const auto history = history_records(records);
  std::size_t read = 0;
  for (auto _ : state) {
    const curated::HistoryLog log = curated::parse_history(*history, "log/ws1/history.jsonl");
    read = log.records.size();
    benchmark::DoNotOptimize(log.records.data());
  }
  if (read != records) state.SkipWithError("parse_history skipped records");
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(history->size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(records));
}
BENCHMARK(BM_parse_history)->ArgName("records")->Arg(100000)->Unit(benchmark::kMillisecond);

// ---- §6: planning one write
// ----------------------------------------------------------------------

// One `add` inserting a thread in the middle of project.md: the six files parsed, the entry
// rendered at its place, the history line appended, and each written file's two SHA-256 digests
// (base and output). The CLI plans every write twice (unlocked, then under the lock). Bytes/s
// counts the row files and history.jsonl; real time, as plan_write digests a file of 1 MiB or
// more on two threads.
void BM_plan_add(benchmark::State& state) {
  const auto ws = workspace_of(static_cast<std::size_t>(state.range(0)));
  std::vector<const curated::Row*> projects;
  for (const curated::Row& row : ws->rows) {
    if (row.type == curated::RowType::project) projects.push_back(&row);
  }
  curated::AddRequest request;
  request.name = projects[projects.size() / 2]->name + "_b";
  request.type = "project";
  request.body = "The deploy checklist misses the cache flush.\n\n- flush before deploy";
  request.description = "cache flush before deploy";
  request.row_class = "thread";
  request.status = "open";
  request.initiative = "bench";
  const curated::WriteContext context{
      .workspace = std::string(kWorkspace), .now = std::string(kNow), .actor = std::nullopt};
  for (auto _ : state) {
    const curated::Write write = curated::plan_add(ws->snapshot, context, request);
    if (write.refused() || write.operations.size() != 2) {
      state.SkipWithError("plan_add refused the insert");
      break;
    }
    benchmark::DoNotOptimize(write.operations.data());
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(ws->row_bytes + ws->history_bytes));
  state.counters["history_bytes"] = static_cast<double>(ws->history_bytes);
}
BENCHMARK(BM_plan_add)->Apply(row_counts)->UseRealTime();

// ---- §10: story
// ----------------------------------------------------------------------------------

struct StoryInput {
  std::vector<curated::Row> rows;  // by name
  std::vector<curated::HistoryRecord> history;
  std::string seed;
};

// A lineage of 1,000 nodes within three hops of the seed (9 rows derived from it, 10 from each of
// those, 10 from each of those), every node with its history, inside a workspace of 10,000 rows.
std::shared_ptr<const StoryInput> story_input() {
  static std::shared_ptr<const StoryInput> made;
  if (made) return made;
  auto out = std::make_shared<StoryInput>();
  std::vector<curated::Row> rows = make_rows(kSeed + 13, 9000);
  Random random(kSeed + 17);
  std::vector<curated::Row> lineage;
  std::vector<std::size_t> level_begin{0};
  auto add = [&](std::size_t parent) {
    curated::Row row =
        make_row(random, 9000 + lineage.size(), 10000, curated::RowType::decision, {});
    row.name = "decision_lineage_" + std::to_string(lineage.size());
    row.deleted.reset();
    if (parent != SIZE_MAX) {
      row.links.push_back(curated::Link{.kind = curated::LinkKind::derived_from,
                                        .dst = lineage[parent].name,
                                        .created_at = *row.created});
    }
    lineage.push_back(std::move(row));
  };
  add(SIZE_MAX);
  for (const std::size_t fan : {9, 10, 10}) {
    const std::size_t begin = level_begin.back();
    const std::size_t end = lineage.size();
    level_begin.push_back(end);
    for (std::size_t parent = begin; parent < end; ++parent) {
      for (std::size_t k = 0; k < fan; ++k) add(parent);
    }
  }
  out->seed = lineage.front().name;
  for (curated::Row& row : lineage) rows.push_back(std::move(row));
  const std::string history = history_of(rows);
  out->history = curated::parse_history(history, "log/ws1/history.jsonl").records;
  std::sort(rows.begin(), rows.end(),
            [](const curated::Row& a, const curated::Row& b) { return a.name < b.name; });
  out->rows = std::move(rows);
  made = std::move(out);
  return made;
}

void BM_story(benchmark::State& state) {
  const auto input = story_input();
  std::size_t nodes = 0;
  std::size_t events = 0;
  for (auto _ : state) {
    const curated::Story story = curated::story(input->rows, input->history, input->seed, 5);
    nodes = story.lineage.nodes.size();
    events = story.timeline.size();
    benchmark::DoNotOptimize(story.timeline.data());
  }
  if (nodes != 1000) state.SkipWithError("the lineage does not have 1000 nodes");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(nodes));
  state.counters["events"] = static_cast<double>(events);
  state.counters["history_records"] = static_cast<double>(input->history.size());
}
BENCHMARK(BM_story)->Unit(benchmark::kMillisecond);

}  // namespace
