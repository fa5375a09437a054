// SplitMix64 (Steele, Lea and Flood 2014): the one random source of the benchmark inputs. Tiny,
// fast, and the same sequence everywhere: the bytes depend on the seed alone, never on a standard
// library's distributions, so every machine times the same input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace memkit::bench {

class SplitMix64 final {
 public:
  explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}

  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // The modulo bias of these is irrelevant here; determinism is what matters.
  // A value in [0, n).
  std::size_t below(std::size_t n) noexcept { return static_cast<std::size_t>(next() % n); }
  // A value in [lo, hi].
  std::size_t between(std::size_t lo, std::size_t hi) noexcept { return lo + below(hi - lo + 1); }
  bool one_in(std::size_t n) noexcept { return below(n) == 0; }
  bool percent(std::uint64_t p) noexcept { return next() % 100 < p; }

 private:
  std::uint64_t state_;
};

}  // namespace memkit::bench
