// Throughput of the Markdown model (spec compaction.md §6.4): parse_markdown alone, parse then
// render_markdown (the round trip every rewrite pays), and unit_key over every bullet unit (the
// dedupe pass). Bytes/s counts input bytes: the goal is 1 GB/s of parse on one core.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "input_sizes.hpp"
#include "memkit/markdown.hpp"
#include "synthetic_memory.hpp"

namespace {

using memkit::bench::Flavour;

std::int64_t as_count(std::size_t n) { return static_cast<std::int64_t>(n); }

// The input of a size benchmark, or nullptr after SkipWithError when it does not parse: a
// generator bug would otherwise be timed as a fast error path.
std::shared_ptr<const std::string> parseable_input(benchmark::State& state, Flavour flavour) {
  auto bytes =
      memkit::bench::shared_synthetic_memory(flavour, static_cast<std::size_t>(state.range(0)));
  const memkit::Document doc = memkit::parse_markdown(bytes);
  if (!doc.parseable()) {
    state.SkipWithError("synthetic input does not parse (generator bug)");
    return nullptr;
  }
  state.counters["units"] = static_cast<double>(doc.units().size());
  state.counters["lines"] = static_cast<double>(doc.line_count());
  return bytes;
}

// The shared_ptr overload views the caller's buffer, so no copy of the input is timed.
void parse(benchmark::State& state, const std::shared_ptr<const std::string>& bytes) {
  for (auto _ : state) {
    memkit::Document doc = memkit::parse_markdown(bytes);
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(state.iterations() * as_count(bytes->size()));
}

void BM_parse_markdown(benchmark::State& state, Flavour flavour) {
  if (const auto bytes = parseable_input(state, flavour)) parse(state, bytes);
}
BENCHMARK_CAPTURE(BM_parse_markdown, ascii, Flavour::ascii)->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_parse_markdown, mixed_utf8, Flavour::mixed_utf8)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_parse_markdown, crlf, Flavour::crlf)->Apply(memkit::bench::mebibyte_sizes);

void BM_parse_and_render_markdown(benchmark::State& state, Flavour flavour) {
  const auto bytes = parseable_input(state, flavour);
  if (!bytes) return;
  if (memkit::render_markdown(memkit::parse_markdown(bytes)) != *bytes) {
    state.SkipWithError("render_markdown(parse_markdown(bytes)) != bytes");
    return;
  }
  for (auto _ : state) {
    std::string rendered = memkit::render_markdown(memkit::parse_markdown(bytes));
    benchmark::DoNotOptimize(rendered);
  }
  state.SetBytesProcessed(state.iterations() * as_count(bytes->size()));
}
BENCHMARK_CAPTURE(BM_parse_and_render_markdown, ascii, Flavour::ascii)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_parse_and_render_markdown, mixed_utf8, Flavour::mixed_utf8)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_parse_and_render_markdown, crlf, Flavour::crlf)
    ->Apply(memkit::bench::mebibyte_sizes);

// Bytes/s here counts the bytes of the bullet units keyed, not of the whole file; items/s counts
// the units.
void BM_unit_key(benchmark::State& state, Flavour flavour) {
  const auto bytes = parseable_input(state, flavour);
  if (!bytes) return;
  const memkit::Document doc = memkit::parse_markdown(bytes);
  std::vector<memkit::Unit> bullets;
  std::size_t bullet_bytes = 0;
  for (const memkit::Unit& unit : doc.units()) {
    if (unit.kind != memkit::UnitKind::bullet_unit) continue;
    bullets.push_back(unit);
    bullet_bytes += unit.end - unit.begin;
  }
  for (auto _ : state) {
    for (const memkit::Unit& unit : bullets) {
      std::optional<std::string> key = memkit::unit_key(doc, unit);
      benchmark::DoNotOptimize(key);
    }
  }
  state.SetBytesProcessed(state.iterations() * as_count(bullet_bytes));
  state.SetItemsProcessed(state.iterations() * as_count(bullets.size()));
}
BENCHMARK_CAPTURE(BM_unit_key, ascii, Flavour::ascii)->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_unit_key, mixed_utf8, Flavour::mixed_utf8)
    ->Apply(memkit::bench::mebibyte_sizes);
BENCHMARK_CAPTURE(BM_unit_key, crlf, Flavour::crlf)->Apply(memkit::bench::mebibyte_sizes);

// Real files, when MEMKIT_CORPORA_DIR names them. Corpus files are not all parseable (one
// unclosed fence swallows the rest of the buffer); "parseable" reports which case was timed.
void BM_parse_markdown_corpora(benchmark::State& state) {
  const memkit::bench::Corpus& corpus = memkit::bench::corpus_from_environment();
  if (!corpus.bytes) {
    state.SkipWithError(corpus.error.c_str());
    return;
  }
  const memkit::Document doc = memkit::parse_markdown(corpus.bytes);
  state.counters["files"] = static_cast<double>(corpus.files);
  state.counters["units"] = static_cast<double>(doc.units().size());
  state.counters["lines"] = static_cast<double>(doc.line_count());
  state.counters["parseable"] = doc.parseable() ? 1 : 0;
  parse(state, corpus.bytes);
}
BENCHMARK(BM_parse_markdown_corpora)->Unit(benchmark::kMillisecond);

}  // namespace
