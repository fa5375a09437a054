// Synthetic agent memory files for the benchmarks: the shapes memkit meets in practice (front
// matter, H1 file headers, dated H2 sections, bullet units with nested and continuation lines,
// fences, HTML comments, formal MC- entries), generated from a fixed seed so every run and every
// machine times the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace memkit::bench {

// What distinguishes the inputs a benchmark compares. All three share one document structure
// (the same seed draws the same sections, units and lines); only words and terminators differ.
enum class Flavour : std::uint8_t {
  ascii,       // ASCII only, LF only
  mixed_utf8,  // about 1 word in 10 accented Latin, Greek, Cyrillic or CJK; 1 line in 50 ends CRLF
  crlf,        // ASCII only, every line ends CRLF (a file last saved on Windows)
};

inline constexpr std::uint64_t kSyntheticSeed = 0x6D656D6B69742D31ULL;  // "memkit-1"

// "ascii", "mixed_utf8", "crlf".
[[nodiscard]] std::string_view flavour_name(Flavour flavour) noexcept;
[[nodiscard]] std::optional<Flavour> flavour_from_name(std::string_view name) noexcept;

// Returns a memory file of at least min_bytes bytes. It stops at the first section boundary past
// min_bytes (a few kilobytes over at most), so every fence and comment is closed and the file
// parses. The bytes depend only on the arguments: the generator uses its own PRNG, never
// <random>'s distributions, whose output differs between standard libraries.
[[nodiscard]] std::string synthetic_memory(Flavour flavour, std::size_t min_bytes,
                                           std::uint64_t seed = kSyntheticSeed);

// The synthetic_memory(flavour, mib MiB) buffer, made on first use and kept for the life of the
// process: a benchmark is called several times while its iteration count is tuned, and
// generating 100 MiB each time would dominate the run.
[[nodiscard]] std::shared_ptr<const std::string> shared_synthetic_memory(Flavour flavour,
                                                                         std::size_t mib);

}  // namespace memkit::bench
