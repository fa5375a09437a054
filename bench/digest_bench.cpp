// Throughput of SHA-256 (plan IDs and file digests, spec compaction.md §12.1): memkit's own, with
// the processor's SHA extensions where it has them and the portable loop for the others.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "digest/sha256_blocks.hpp"
#include "memkit/digest.hpp"

namespace {

std::string bytes_of(std::size_t size) {
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<char>((i * 131 + 7) % 251);
  return out;
}

void BM_sha256(benchmark::State& state) {
  const std::string bytes = bytes_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    memkit::Sha256 digest = memkit::sha256(bytes);
    benchmark::DoNotOptimize(digest);
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
  state.SetLabel(memkit::detail::sha256_hardware() ? "SHA extensions" : "portable");
}
BENCHMARK(BM_sha256)->Arg(64)->Arg(4096)->Arg(1 << 20);

void BM_sha256_portable_blocks(benchmark::State& state) {
  const std::string bytes = bytes_of(1 << 20);
  std::uint32_t digest_state[8] = {};
  for (auto _ : state) {
    memkit::detail::sha256_blocks(digest_state, reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                  bytes.size() / 64, memkit::detail::Sha256Engine::portable);
    benchmark::DoNotOptimize(digest_state);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
}
BENCHMARK(BM_sha256_portable_blocks);

}  // namespace
