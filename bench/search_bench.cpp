// Search (memkit/search.hpp, issue 28): building the in-memory index over short synthetic memory
// entries (about 100 bytes, a Zipf vocabulary of 50,000 words, a fixed seed) and top-10 queries
// of each class the issue names: a rare, a mid-frequency and a common term, two terms ANDed and
// three ORed. These are the exhaustive-scoring baseline that the on-disk index and its skipping
// top-k are measured against; the side-by-side with SQLite FTS5 comes with them.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "memkit/search.hpp"
#include "split_mix.hpp"

namespace {

constexpr std::size_t kVocabulary = 50'000;

// The word of each rank: "w" and the rank in base 26 letters, so every word is one term.
std::string word(std::size_t rank) {
  std::string out = "w";
  do {
    out.push_back(static_cast<char>('a' + rank % 26));
    rank /= 26;
  } while (rank > 0);
  return out;
}

// Entries of 12 to 20 words drawn from a Zipf(1) distribution over the vocabulary.
std::vector<std::string> entries(std::size_t count) {
  std::vector<double> cumulative(kVocabulary);
  double total = 0;
  for (std::size_t r = 0; r < kVocabulary; ++r) cumulative[r] = total += 1.0 / static_cast<double>(r + 1);
  memkit::bench::SplitMix64 random(0x7365617263682D31ULL);  // "search-1"
  std::vector<std::string> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::string entry;
    const std::size_t words = random.between(12, 20);
    for (std::size_t w = 0; w < words; ++w) {
      const double u = static_cast<double>(random.next() >> 11) * 0x1.0p-53 * total;
      const auto rank = static_cast<std::size_t>(
          std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      entry += (w == 0 ? "" : " ") + word(std::min(rank, kVocabulary - 1));
    }
    out.push_back(std::move(entry));
  }
  return out;
}

const memkit::search::Index& shared_index(std::size_t count) {
  static std::size_t built_for = 0;
  static std::unique_ptr<memkit::search::Index> index;
  if (!index || built_for != count) {
    index = std::make_unique<memkit::search::Index>();
    for (const std::string& e : entries(count)) index->add(e);
    built_for = count;
  }
  return *index;
}

void BM_build(benchmark::State& state) {
  const std::vector<std::string> input = entries(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    memkit::search::Index index;
    for (const std::string& e : input) index.add(e);
    benchmark::DoNotOptimize(index.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_build)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);

void query(benchmark::State& state, const std::string& text) {
  const memkit::search::Index& index = shared_index(static_cast<std::size_t>(state.range(0)));
  const memkit::search::Query q = *memkit::search::parse_query(text);
  std::size_t hits = 0;
  for (auto _ : state) {
    hits = index.search(q, 10).size();
    benchmark::DoNotOptimize(hits);
  }
  state.counters["matches"] = static_cast<double>(index.count(q));
}
BENCHMARK_CAPTURE(query, rare, word(30'000))->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query, mid, word(300))->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query, common, word(1))->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query, and_two, word(20) + " " + word(200))->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(query, or_three, word(50) + " OR " + word(500) + " OR " + word(5'000))
    ->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

}  // namespace
