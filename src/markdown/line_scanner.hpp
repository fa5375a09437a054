// The parser's line walk: LineCursor's contract, with line ends found 64 bytes at a time.
// Calling memchr once per 50-byte line costs a call and a setup each time; one vector pass per
// 64-byte window serves every line that ends in it.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "memkit/markdown.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace memkit::detail {

class LineScanner final {
 public:
  LineScanner(std::string_view bytes, std::size_t begin, std::uint32_t first_number) noexcept
      : bytes_(bytes), pos_(begin), number_(first_number) {}

  // Returns true and fills `line` while lines remain (the same lines LineCursor gives).
  bool next(Line& line) noexcept {
    if (pos_ >= bytes_.size()) return false;
    pos_ = fill_line(bytes_, pos_, find_newline(pos_), bytes_.size(), number_++, line);
    return true;
  }

 private:
  // REQUIRES: calls come with non-decreasing `from` (lines are walked in order).
  std::size_t find_newline(std::size_t from) noexcept {
#if defined(__SSE2__)
    while (true) {
      const std::size_t window = from & ~std::size_t{63};
      if (window + 64 > bytes_.size()) break;  // the tail is left to memchr
      if (window != window_) {
        window_ = window;
        mask_ = newline_mask(bytes_.data() + window);
      }
      const std::uint64_t ahead = mask_ >> (from - window);
      if (ahead != 0) return from + static_cast<std::size_t>(std::countr_zero(ahead));
      from = window + 64;
    }
#endif
    if (from >= bytes_.size()) return std::string_view::npos;
    const void* nl = std::memchr(bytes_.data() + from, '\n', bytes_.size() - from);
    if (nl == nullptr) return std::string_view::npos;
    return static_cast<std::size_t>(static_cast<const char*>(nl) - bytes_.data());
  }

#if defined(__SSE2__)
  static std::uint64_t newline_mask(const char* p) noexcept {
    const __m128i lf = _mm_set1_epi8('\n');
    std::uint64_t mask = 0;
    for (int i = 0; i < 4; ++i) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      const auto bits = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, lf)));
      mask |= std::uint64_t{bits} << (16 * i);
    }
    return mask;
  }
#endif

  std::string_view bytes_;
  std::size_t pos_;
  std::uint32_t number_;
  std::size_t window_ = ~std::size_t{0};
  std::uint64_t mask_ = 0;
};

}  // namespace memkit::detail
