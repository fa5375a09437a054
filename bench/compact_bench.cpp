// Planning inbox compaction (spec compaction.md §8, issue 3): keys, duplicates, tombstones,
// candidates, removal splices and the two SHA-256 digests of the plan, on generated inboxes of
// 1, 10 and 100 MiB with about 5% exact duplicates. Bytes/s counts inbox bytes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "input_sizes.hpp"
#include "memkit/compact.hpp"

namespace {

// A fixed-seed inbox: dated sections of bullets, some with continuation lines, about one in
// twenty repeating an earlier item with other case or trailing spaces.
std::shared_ptr<const std::string> inbox_of(std::size_t mib) {
  static std::map<std::size_t, std::shared_ptr<const std::string>> made;
  if (auto it = made.find(mib); it != made.end()) return it->second;
  std::mt19937_64 rng(20261130);
  static const char* const kWords[] = {
      "memory", "agent", "context", "budget", "tabs",  "config",      "deploy",
      "cache",  "index", "review",  "Kafka",  "build", "caf\xC3\xA9", "\xE8\xA8\x98\xE4\xBD\x8F"};
  std::string out = "# Memory Inbox\n\nNotes waiting for review.\n";
  std::vector<std::string> items;
  std::size_t day = 0;
  while (out.size() < mib * 1024 * 1024) {
    if (rng() % 40 == 0) {
      out += "\n## 2026-" + std::to_string(1 + day / 28 % 12) + "-" + std::to_string(1 + day % 28) +
             "\n";
      ++day;
    }
    std::string item;
    if (!items.empty() && rng() % 20 == 0) {
      item = items[rng() % items.size()];
      item[2] = static_cast<char>(std::toupper(static_cast<unsigned char>(item[2])));
    } else {
      item = "- ";
      for (std::uint64_t w = 0, n = 4 + rng() % 10; w < n; ++w) {
        item += kWords[rng() % (sizeof kWords / sizeof kWords[0])];
        item += ' ';
      }
      item += std::to_string(items.size()) + "\n";
      if (rng() % 10 == 0) item += "  with a continuation line\n";
      items.push_back(item);
    }
    out += item;
  }
  return made[mib] = std::make_shared<const std::string>(std::move(out));
}

memkit::CustodianInputs inputs_of(std::shared_ptr<const std::string> inbox) {
  memkit::CustodianInputs in;
  in.memory_dir = "docs/memory";
  in.memory_dir_exists = true;
  std::vector<memkit::FileSnapshot> files;
  files.push_back(
      {"manifest.md", memkit::EntryState::file, std::make_shared<const std::string>("# M\n"), ""});
  files.push_back(
      {"do-not-use.md", memkit::EntryState::file,
       std::make_shared<const std::string>("## Tombstone: Kafka cache\n- use MongoDB\n"), ""});
  files.push_back({"inbox.md", memkit::EntryState::file, std::move(inbox), ""});
  in.snapshot = memkit::Snapshot(std::move(files));
  return in;
}

void BM_plan_inbox_compaction(benchmark::State& state) {
  const auto inbox = inbox_of(static_cast<std::size_t>(state.range(0)));
  const memkit::CustodianInputs in = inputs_of(inbox);
  const memkit::ClockReading now = *memkit::ClockReading::parse_rfc3339("2026-11-30T10:00:00Z");
  std::uint64_t duplicates = 0;
  for (auto _ : state) {
    const memkit::InboxCompaction report =
        memkit::plan_inbox_compaction(in, memkit::default_token_counter(), now);
    duplicates = report.duplicates;
    benchmark::DoNotOptimize(report.plan);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * inbox->size()));
  state.counters["duplicates"] = static_cast<double>(duplicates);
}
BENCHMARK(BM_plan_inbox_compaction)->Apply(memkit::bench::mebibyte_sizes);

}  // namespace
