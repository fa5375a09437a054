// The local side of MemoryBox sync (spec memorybox.md §9) at the scale: what every sync
// command pays before the remote is reached. A LONG_TERM.md of N scored facts that all carry an
// Id (about 200 bytes each; 20 MB at N = 100,000) and the base of the last sync that holds every
// one of them unchanged:
//   parse_sync_base   .memkit/sync/base.tsv parsed into the SyncBase (N lines, about 10 MB)
//   entry_layout      visit_entry_layout over the file: where each entry and its fields are
//   scan_local        the focused scan: every entry located and digested, none changed
// scan_local runs as the CLI does (a file of 1 MiB or more read in two shares on two cores), with
// the scan cache a push leaves (scan.cache: every bullet found there, none read), and with one
// reader, to show what the second core gives.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include "memkit/clock.hpp"
#include "memkit/markdown.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"

namespace {

using namespace memkit;
using namespace memkit::memorybox;

constexpr std::string_view kWorkspace = "0192f3a4-1b2c-7d3e-8f40-5a6b7c8d9e0f";
constexpr std::string_view kPath = "memory/LONG_TERM.md";

ClockReading now() { return *ClockReading::parse_rfc3339("2026-11-30T18:00:00Z"); }

// The root of sync_commands.py after its first push: N facts under five categories, each with
// its fields and Id.
std::shared_ptr<const std::string> long_term(std::size_t n) {
  static constexpr const char* kCategories[] = {"Infrastructure", "Billing", "Customers",
                                                "Release process", "Security"};
  std::string out = "# LONG_TERM\n\n";
  out.reserve(n * 220);
  const std::size_t per = n / 5 + 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % per == 0) out += fmt::format("## {}\n\n", kCategories[i / per]);
    out += fmt::format(
        "- Fact {}: the service {} answers on port {} and its owner is team {}\n"
        "  Confidence: 0.90\n  Verified: 2026-11-20\n  Updated: 2026-11-20T10:00:00.000Z\n"
        "  Id: 01a22d9d-1900-7000-8000-{:012x}\n",
        i, i % 97, 1000 + i % 50000, i % 13, i);
  }
  return std::make_shared<const std::string>(std::move(out));
}

Inputs inputs_of(std::shared_ptr<const std::string> bytes) {
  Inputs in;
  in.snapshot =
      Snapshot({FileSnapshot{std::string(kPath), EntryState::file, std::move(bytes), ""}});
  in.all_files.emplace_back(kPath);
  return in;
}

// The base that holds every record of `in` as it is (a full scan's digests).
std::string base_of(const Inputs& in) {
  const Result<LocalScan> full = scan_local(in, kWorkspace, {}, now(), ScanFocus{});
  SyncBase base;
  for (const LocalRecord& r : full->records) {
    base.insert_or_assign(r.record.id, BaseEntry{r.record.table, r.record.file, r.digest});
  }
  return render_sync_base(base);
}

struct Root {
  Inputs inputs;
  std::string base_bytes;
  SyncBase base;
};

const Root& root_of(std::size_t n) {
  static std::map<std::size_t, Root> roots;
  auto found = roots.find(n);
  if (found == roots.end()) {
    Root root;
    root.inputs = inputs_of(long_term(n));
    root.base_bytes = base_of(root.inputs);
    root.base = *parse_sync_base(root.base_bytes);
    found = roots.emplace(n, std::move(root)).first;
  }
  return found->second;
}

std::size_t entries(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0));
}

void BM_parse_sync_base(benchmark::State& state) {
  const Root& root = root_of(entries(state));
  for (auto _ : state) {
    Result<SyncBase> base = parse_sync_base(root.base_bytes);
    if (!base || base->size() != entries(state)) state.SkipWithError("the base does not parse");
    benchmark::DoNotOptimize(base);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(root.base_bytes.size()));
}
BENCHMARK(BM_parse_sync_base)
    ->ArgName("entries")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_entry_layout(benchmark::State& state) {
  const Root& root = root_of(entries(state));
  const Document doc = parse_markdown(root.inputs.snapshot.find(kPath)->bytes);
  for (auto _ : state) {
    std::size_t seen = 0;
    visit_entry_layout(kPath, doc, [&](Entry&) { ++seen; });
    if (seen != entries(state)) state.SkipWithError("not every entry was laid out");
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.bytes().size()));
}
BENCHMARK(BM_entry_layout)
    ->ArgName("entries")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// The scan cache of a scan of the root (every bullet), as a push leaves it.
const ScanCache& cache_of(std::size_t n) {
  static std::map<std::size_t, ScanCache> caches;
  auto found = caches.find(n);
  if (found == caches.end()) {
    const Root& root = root_of(n);
    const Result<LocalScan> full =
        scan_local(root.inputs, kWorkspace, {}, now(), ScanFocus{.base = &root.base, .ids = {}});
    found = caches.emplace(n, *parse_scan_cache(render_scan_cache(full->cache))).first;
  }
  return found->second;
}

void scan(benchmark::State& state, std::size_t parallel_bytes, bool cached = false) {
  const Root& root = root_of(entries(state));
  ScanFocus focus{.base = &root.base, .ids = {}};
  focus.parallel_bytes = parallel_bytes;
  if (cached) focus.cache = &cache_of(entries(state));
  for (auto _ : state) {
    const Result<LocalScan> scanned = scan_local(root.inputs, kWorkspace, {}, now(), focus);
    if (!scanned || !scanned->records.empty() || scanned->unchanged.size() != entries(state)) {
      state.SkipWithError("the scan found a change in an unchanged root");
    }
    benchmark::DoNotOptimize(scanned);
  }
  state.SetBytesProcessed(
      state.iterations() *
      static_cast<std::int64_t>(root.inputs.snapshot.find(kPath)->text().size()));
}

void BM_scan_local_unchanged(benchmark::State& state) { scan(state, ScanFocus{}.parallel_bytes); }
BENCHMARK(BM_scan_local_unchanged)
    ->ArgName("entries")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_scan_local_unchanged_cached(benchmark::State& state) {
  scan(state, ScanFocus{}.parallel_bytes, true);
}
BENCHMARK(BM_scan_local_unchanged_cached)
    ->ArgName("entries")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_scan_local_unchanged_one_reader(benchmark::State& state) {
  scan(state, std::numeric_limits<std::size_t>::max());
}
BENCHMARK(BM_scan_local_unchanged_one_reader)
    ->ArgName("entries")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
