// The PostgreSQL adapter of MemoryBox sync (spec memorybox.md §9) against a real server: a push of
// 100,000 records into a fresh workspace, a pull of all of them, the same push repeated (all
// acknowledged, nothing stored), a push of 100 changed records and a pull since the cursor that
// returns just those.
//
// The server comes from MEMKIT_BENCH_PG, a libpq connection string (tests/postgres/pg_server.py
// start DIR writes one to DIR/conninfo); without it every benchmark is skipped with a message.
// MEMKIT_BENCH_PG_RECORDS changes the 100,000. Times are wall-clock (UseRealTime): most of the
// work happens in the server's process. The records come from a fixed seed through SplitMix64:
// texts of about 150 bytes, 70% memories, 20% session logs, 10% daily logs.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "split_mix.hpp"
#include "sync/postgres/postgres.hpp"

namespace {

using memkit::memorybox::SyncRecord;
using memkit::memorybox::SyncTable;
using Random = memkit::bench::SplitMix64;

constexpr std::uint64_t kSeed = 0x7067737973796e63ULL;    // "pgsysync"
constexpr std::uint64_t kBaseMillis = 1'764'000'000'000;  // 2025-11-24
constexpr std::size_t kChanged = 100;

const char* const kWords[] = {"deploy",      "schema",      "migration",
                              "cache",       "review",      "token",
                              "agent",       "context",     "postgres",
                              "index",       "retry",       "budget",
                              "always",      "never",       "before",
                              "after",       "the",         "a",
                              "caf\xC3\xA9", "gro\xC3\x9F", "\xE8\xA8\x98\xE4\xBD\x8F"};

std::size_t record_count() {
  const char* text = std::getenv("MEMKIT_BENCH_PG_RECORDS");
  if (text == nullptr) return 100'000;
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

std::string utc_millis(std::uint64_t unix_millis) {
  const memkit::Result<memkit::ClockReading> reading =
      memkit::ClockReading::create(static_cast<std::int64_t>(unix_millis), 0);
  return reading->utc_rfc3339_millis();
}

std::string uuid(Random& random, std::uint64_t millis) {
  std::array<std::uint8_t, 10> bytes{};
  for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random.next());
  return memkit::memorybox::uuid_v7(millis, bytes);
}

// About 150 bytes: a bullet of words, sometimes with a second line.
std::string text_of(Random& random) {
  std::string text = "- ";
  const std::size_t target = random.between(120, 180);
  while (text.size() < target) {
    text += kWords[random.below(std::size(kWords))];
    text += random.one_in(12) ? "\n  " : " ";
  }
  text.back() = '\n';
  return text;
}

SyncRecord make_record(Random& random, const std::string& workspace, std::size_t i) {
  const std::uint64_t millis = kBaseMillis + i * 1000;
  const std::size_t kind = random.below(10);
  SyncRecord r;
  r.id = uuid(random, millis);
  r.workspace_id = workspace;
  r.text = text_of(random);
  r.updated_at = utc_millis(millis);
  if (kind < 7) {
    r.table = SyncTable::memories;
    r.file = "memory/LONG_TERM.md";
    r.category = random.one_in(3) ? std::optional<std::string>() : std::string("fact");
    r.confidence = static_cast<std::uint32_t>(random.between(40, 100));
    r.verified = "2025-11-24";
  } else if (kind < 9) {
    r.table = SyncTable::session_logs;
    r.file = "memory/SESSION_LOG.md";
  } else {
    r.table = SyncTable::daily_logs;
    r.file = "memory/daily/2025-11-24.md";
  }
  return r;
}

std::vector<SyncRecord> make_records(const std::string& workspace, std::size_t n) {
  Random random(kSeed);
  std::vector<SyncRecord> records;
  records.reserve(n);
  for (std::size_t i = 0; i < n; ++i) records.push_back(make_record(random, workspace, i));
  return records;
}

std::int64_t text_bytes(const std::vector<SyncRecord>& records) {
  std::int64_t bytes = 0;
  for (const SyncRecord& r : records) bytes += static_cast<std::int64_t>(r.text.size());
  return bytes;
}

// A connection per benchmark program, or nullptr (and the benchmark skipped) without a server.
memkit::sync::Remote* remote(benchmark::State& state) {
  static const std::unique_ptr<memkit::sync::Remote> opened = []() {
    const char* conninfo = std::getenv("MEMKIT_BENCH_PG");
    if (conninfo == nullptr) return std::unique_ptr<memkit::sync::Remote>();
    memkit::Result<std::unique_ptr<memkit::sync::Remote>> r =
        memkit::sync::open_postgres_remote(conninfo);
    if (!r.ok()) {
      std::fprintf(stderr, "postgres_bench: %s\n", r.status().message().c_str());
      return std::unique_ptr<memkit::sync::Remote>();
    }
    return std::move(r).value();
  }();
  if (opened == nullptr) {
    state.SkipWithError(std::getenv("MEMKIT_BENCH_PG") == nullptr
                            ? "MEMKIT_BENCH_PG is not set (a libpq connection string; see "
                              "tests/postgres/pg_server.py)"
                            : "cannot open the PostgreSQL remote of MEMKIT_BENCH_PG");
  }
  return opened.get();
}

// A fresh workspace id per call. Random, since runs against one server must never meet each
// other's rows; what is timed does not depend on it.
std::string fresh_workspace() {
  static std::random_device device;
  std::array<std::uint8_t, 10> bytes{};
  for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(device());
  return memkit::memorybox::uuid_v7(kBaseMillis, bytes);
}

// One workspace holding every record, shared by the pull and change benchmarks.
struct Filled {
  std::string workspace;
  std::vector<SyncRecord> records;
  std::string cursor;          // after the initial push
  std::uint64_t revision = 0;  // how many times records were changed
};

Filled* filled(benchmark::State& state, memkit::sync::Remote& r) {
  static std::unique_ptr<Filled> shared;
  if (shared == nullptr) {
    auto made = std::make_unique<Filled>();
    made->workspace = fresh_workspace();
    made->records = make_records(made->workspace, record_count());
    const auto pushed = r.push(made->workspace, made->records);
    if (!pushed.ok() || !pushed->empty()) {
      state.SkipWithError("the initial push failed");
      return nullptr;
    }
    const auto pulled = r.pull(made->workspace, "");
    if (!pulled.ok()) {
      state.SkipWithError("the initial pull failed");
      return nullptr;
    }
    made->cursor = pulled->cursor;
    shared = std::move(made);
  }
  return shared.get();
}

// The first kChanged records with a new text, one second later than their last version.
std::vector<SyncRecord> change_some(Filled& f) {
  ++f.revision;
  std::vector<SyncRecord> changed;
  for (std::size_t i = 0; i < kChanged && i < f.records.size(); ++i) {
    SyncRecord& r = f.records[i];
    r.text = "- changed " + std::to_string(f.revision) + ": " + r.text.substr(2);
    r.updated_at = utc_millis(kBaseMillis + 1'000'000'000 + f.revision * 1000 + i);
    changed.push_back(r);
  }
  return changed;
}

void BM_push_fresh_workspace(benchmark::State& state) {
  memkit::sync::Remote* r = remote(state);
  if (r == nullptr) return;
  std::int64_t records = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const std::vector<SyncRecord> input = make_records(fresh_workspace(), record_count());
    state.ResumeTiming();
    const auto pushed = r->push(input.front().workspace_id, input);
    if (!pushed.ok() || !pushed->empty()) {
      state.SkipWithError(pushed.ok() ? "records were refused" : "the push failed");
      return;
    }
    records += static_cast<std::int64_t>(input.size());
    bytes += text_bytes(input);
  }
  state.SetItemsProcessed(records);
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_push_fresh_workspace)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_pull_everything(benchmark::State& state) {
  memkit::sync::Remote* r = remote(state);
  if (r == nullptr) return;
  Filled* f = filled(state, *r);
  if (f == nullptr) return;
  std::int64_t records = 0;
  for (auto _ : state) {
    const auto pulled = r->pull(f->workspace, "");
    if (!pulled.ok() || pulled->records.size() != f->records.size()) {
      state.SkipWithError("the pull did not return every record");
      return;
    }
    records += static_cast<std::int64_t>(pulled->records.size());
  }
  state.SetItemsProcessed(records);
}
BENCHMARK(BM_pull_everything)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same records again (a push retried after a timeout): every one acknowledged, none stored.
void BM_push_repeated(benchmark::State& state) {
  memkit::sync::Remote* r = remote(state);
  if (r == nullptr) return;
  Filled* f = filled(state, *r);
  if (f == nullptr) return;
  for (auto _ : state) {
    const auto pushed = r->push(f->workspace, f->records);
    if (!pushed.ok() || !pushed->empty()) {
      state.SkipWithError("the repeated push was not acknowledged");
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f->records.size()));
}
BENCHMARK(BM_push_repeated)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_push_100_changed(benchmark::State& state) {
  memkit::sync::Remote* r = remote(state);
  if (r == nullptr) return;
  Filled* f = filled(state, *r);
  if (f == nullptr) return;
  for (auto _ : state) {
    state.PauseTiming();
    const std::vector<SyncRecord> changed = change_some(*f);
    state.ResumeTiming();
    const auto pushed = r->push(f->workspace, changed);
    if (!pushed.ok() || !pushed->empty()) {
      state.SkipWithError("the push of changed records failed");
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kChanged));
}
BENCHMARK(BM_push_100_changed)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_pull_since_cursor(benchmark::State& state) {
  memkit::sync::Remote* r = remote(state);
  if (r == nullptr) return;
  Filled* f = filled(state, *r);
  if (f == nullptr) return;
  for (auto _ : state) {
    state.PauseTiming();
    const auto before = r->pull(f->workspace, f->cursor);  // catch up on earlier benchmarks
    const auto pushed = r->push(f->workspace, change_some(*f));
    if (!before.ok() || !pushed.ok()) {
      state.SkipWithError("setting up the changed records failed");
      return;
    }
    f->cursor = before->cursor;
    state.ResumeTiming();
    const auto pulled = r->pull(f->workspace, f->cursor);
    if (!pulled.ok() || pulled->records.size() != kChanged) {
      state.SkipWithError("the pull since the cursor did not return just the changed records");
      return;
    }
    f->cursor = pulled->cursor;
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kChanged));
}
BENCHMARK(BM_pull_since_cursor)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
