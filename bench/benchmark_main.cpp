// The main() of every benchmark program: BENCHMARK_MAIN plus a fixed allocator policy.
//
// glibc raises its mmap and trim thresholds as a process frees large blocks, so a benchmark that
// runs after a bigger one reuses warm heap pages that the same benchmark run alone would fault in
// afresh: parse_markdown/crlf/MiB:1 measured 1.9 GB/s after the ascii benchmarks and 1.1 GB/s
// alone. Pinning the thresholds to glibc's defaults makes every iteration pay what a one-shot
// process (the CLI) pays, whatever ran before. Setting GLIBC_TUNABLES (for example
// glibc.malloc.trim_threshold and glibc.malloc.mmap_threshold to 1 GiB, a long-lived host that
// keeps its heap) leaves the allocator as the user tuned it.
#include <benchmark/benchmark.h>

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

void pin_allocator_policy() {
#if defined(__GLIBC__)
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
  constexpr int kGlibcDefaultThreshold = 128 * 1024;
  mallopt(M_MMAP_THRESHOLD, kGlibcDefaultThreshold);  // setting either disables the adaptation
  mallopt(M_TRIM_THRESHOLD, kGlibcDefaultThreshold);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  pin_allocator_policy();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
