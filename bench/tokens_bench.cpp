// Throughput of the token estimate (spec compaction.md §4), which runs over whole files on every
// status and plan.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "corpus.hpp"
#include "input_sizes.hpp"
#include "memkit/tokens.hpp"
#include "synthetic_memory.hpp"

namespace {

using memkit::bench::Flavour;

void estimate(benchmark::State& state, const std::string& bytes) {
  std::uint64_t tokens = 0;
  for (auto _ : state) {
    tokens = memkit::estimate_tokens(bytes);
    benchmark::DoNotOptimize(tokens);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
  state.counters["tokens"] = static_cast<double>(tokens);
}

void BM_estimate_tokens(benchmark::State& state, Flavour flavour) {
  estimate(state, *memkit::bench::shared_synthetic_memory(
                      flavour, static_cast<std::size_t>(state.range(0))));
}
BENCHMARK_CAPTURE(BM_estimate_tokens, ascii, Flavour::ascii)->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_estimate_tokens, mixed_utf8, Flavour::mixed_utf8)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_estimate_tokens, crlf, Flavour::crlf)->Apply(memkit::bench::mebibyte_sizes);

void BM_estimate_tokens_corpora(benchmark::State& state) {
  const memkit::bench::Corpus& corpus = memkit::bench::corpus_from_environment();
  if (!corpus.bytes) {
    state.SkipWithError(corpus.error.c_str());
    return;
  }
  estimate(state, *corpus.bytes);
}
BENCHMARK(BM_estimate_tokens_corpora)->Unit(benchmark::kMillisecond);

}  // namespace
