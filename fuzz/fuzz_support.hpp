// What every fuzz target shares: the input as text, split into parts, and invariant checks that
// stop the run (libFuzzer keeps the input) when one fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

// An invariant of the parser under test; a violation is a crash the fuzzer reports, named first.
#define MEMKIT_FUZZ_CHECK(condition)                                                    \
  do {                                                                                  \
    if (!(condition)) {                                                                 \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #condition); \
      __builtin_trap();                                                                 \
    }                                                                                   \
  } while (false)

namespace memkit::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input cut at each "\x00\x00" into at most `count` parts (the last takes the rest), so that
// one input can feed a parser several texts. Missing parts are empty.
inline std::vector<std::string_view> split(std::string_view text, std::size_t count) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < count) {
    const std::size_t at = text.find(std::string_view("\0\0", 2));
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + 2);
  }
  parts.push_back(text);
  parts.resize(count);
  return parts;
}

}  // namespace memkit::fuzz
