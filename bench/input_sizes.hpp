// The input sizes every synthetic benchmark runs at: the range, 1 MiB to 100 MiB.
#pragma once

#include <benchmark/benchmark.h>

namespace memkit::bench {

// Use as ->Apply(mebibyte_sizes): state.range(0) is the input size in MiB (1, 10, 100), shown as
// "MiB:N" in the benchmark name.
inline void mebibyte_sizes(benchmark::internal::Benchmark* b) {
  b->ArgName("MiB")->RangeMultiplier(10)->Range(1, 100)->Unit(benchmark::kMillisecond);
}

}  // namespace memkit::bench
