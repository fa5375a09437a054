// Throughput of the text model's byte rules (spec compaction.md §2.1, §6.3): UTF-8 validation,
// which parse_markdown runs over every file, and full case folding, which every key goes through.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "corpus.hpp"
#include "input_sizes.hpp"
#include "memkit/text.hpp"
#include "synthetic_memory.hpp"

namespace {

using memkit::bench::Flavour;

std::int64_t as_count(std::size_t n) { return static_cast<std::int64_t>(n); }

const std::string& sized_input(const benchmark::State& state, Flavour flavour) {
  return *memkit::bench::shared_synthetic_memory(flavour, static_cast<std::size_t>(state.range(0)));
}

void validate(benchmark::State& state, const std::string& bytes) {
  for (auto _ : state) {
    std::optional<std::size_t> bad = memkit::find_invalid_utf8(bytes);
    benchmark::DoNotOptimize(bad);
  }
  state.SetBytesProcessed(state.iterations() * as_count(bytes.size()));
}

void BM_find_invalid_utf8(benchmark::State& state, Flavour flavour) {
  validate(state, sized_input(state, flavour));
}
BENCHMARK_CAPTURE(BM_find_invalid_utf8, ascii, Flavour::ascii)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_find_invalid_utf8, mixed_utf8, Flavour::mixed_utf8)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_find_invalid_utf8, crlf, Flavour::crlf)->Apply(memkit::bench::mebibyte_sizes);

void BM_find_invalid_utf8_corpora(benchmark::State& state) {
  const memkit::bench::Corpus& corpus = memkit::bench::corpus_from_environment();
  if (!corpus.bytes) {
    state.SkipWithError(corpus.error.c_str());
    return;
  }
  validate(state, *corpus.bytes);
}
BENCHMARK(BM_find_invalid_utf8_corpora)->Unit(benchmark::kMillisecond);

// casefold_append into one reused string: casefold() would allocate (and page-fault in) a fresh
// 100 MiB result per iteration, timing the kernel rather than the folding. Real keys are short;
// BM_unit_key in markdown_bench times casefold() at that size.
void BM_casefold(benchmark::State& state, Flavour flavour) {
  const std::string& bytes = sized_input(state, flavour);
  std::string folded;
  folded.reserve(bytes.size() + bytes.size() / 4);
  for (auto _ : state) {
    folded.clear();
    memkit::casefold_append(bytes, folded);
    benchmark::DoNotOptimize(folded.data());
  }
  state.SetBytesProcessed(state.iterations() * as_count(bytes.size()));
}
BENCHMARK_CAPTURE(BM_casefold, ascii, Flavour::ascii)->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_casefold, mixed_utf8, Flavour::mixed_utf8)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_casefold, crlf, Flavour::crlf)->Apply(memkit::bench::mebibyte_sizes);

}  // namespace
