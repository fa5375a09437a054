#include "text/utf8_simd.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define MEMKIT_UTF8_SSSE3 1
#endif

namespace memkit::detail {
namespace {

// Steps back from a block boundary t to the lead byte of a sequence that straddles it, if any,
// so that the scalar decoder restarts on a character boundary.
std::size_t back_to_boundary(const unsigned char* p, std::size_t t) noexcept {
  for (std::size_t k = 1; k <= 3 && k <= t; ++k) {
    const unsigned char b = p[t - k];
    if (b >= 0xC0) return t - k;  // a lead byte: its sequence may run past t
    if (b < 0x80) break;          // ASCII: nothing before it straddles t
  }
  return t;
}

#ifdef MEMKIT_UTF8_SSSE3

// Error classes of a byte pair (previous byte, this byte), one bit each; a pair is invalid iff the
// three table lookups below share a bit.
constexpr unsigned char kTooShort = 1 << 0;      // 11______ followed by 0_______ or 11______
constexpr unsigned char kTooLong = 1 << 1;       // 0_______ followed by 10______
constexpr unsigned char kOverlong3 = 1 << 2;     // 11100000 100_____
constexpr unsigned char kTooLarge = 1 << 3;      // 11110100 1001____ and above
constexpr unsigned char kSurrogate = 1 << 4;     // 11101101 101_____
constexpr unsigned char kOverlong2 = 1 << 5;     // 1100000_ 10______
constexpr unsigned char kTooLarge1000 = 1 << 6;  // 11110101 1000____ and above
constexpr unsigned char kOverlong4 = 1 << 6;     // 11110000 1000____
constexpr unsigned char kTwoConts = 1 << 7;      // 10______ 10______ (legal only inside 3 and 4)
constexpr unsigned char kCarry = kTooShort | kTooLong | kTwoConts;

__attribute__((target("ssse3"))) inline __m128i lookup(__m128i nibbles, __m128i table) {
  return _mm_shuffle_epi8(table, nibbles);
}

__attribute__((target("ssse3"))) inline __m128i high_nibbles(__m128i v) {
  return _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
}

__attribute__((target("ssse3"))) inline __m128i block_errors(__m128i input, __m128i previous) {
  const __m128i prev1 = _mm_alignr_epi8(input, previous, 15);
  const __m128i byte_1_high =
      lookup(high_nibbles(prev1),
             _mm_setr_epi8(kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong,
                           kTooLong, static_cast<char>(kTwoConts), static_cast<char>(kTwoConts),
                           static_cast<char>(kTwoConts), static_cast<char>(kTwoConts),
                           kTooShort | kOverlong2, kTooShort, kTooShort | kOverlong3 | kSurrogate,
                           kTooShort | kTooLarge | kTooLarge1000 | kOverlong4));
  const __m128i byte_1_low =
      lookup(_mm_and_si128(prev1, _mm_set1_epi8(0x0F)),
             _mm_setr_epi8(static_cast<char>(kCarry | kOverlong3 | kOverlong2 | kOverlong4),
                           static_cast<char>(kCarry | kOverlong2), static_cast<char>(kCarry),
                           static_cast<char>(kCarry), static_cast<char>(kCarry | kTooLarge),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000 | kSurrogate),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                           static_cast<char>(kCarry | kTooLarge | kTooLarge1000)));
  constexpr unsigned char kCont = kTooLong | kOverlong2 | kTwoConts;
  const __m128i byte_2_high = lookup(
      high_nibbles(input),
      _mm_setr_epi8(kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
                    kTooShort, static_cast<char>(kCont | kOverlong3 | kTooLarge1000 | kOverlong4),
                    static_cast<char>(kCont | kOverlong3 | kTooLarge),
                    static_cast<char>(kCont | kSurrogate | kTooLarge),
                    static_cast<char>(kCont | kSurrogate | kTooLarge), kTooShort, kTooShort,
                    kTooShort, kTooShort));
  const __m128i special = _mm_and_si128(_mm_and_si128(byte_1_high, byte_1_low), byte_2_high);
  // A byte two or three after a 3- or 4-byte lead must be a continuation: that is the one pair
  // the tables mark as an error (kTwoConts) when it is in fact required.
  const __m128i prev2 = _mm_alignr_epi8(input, previous, 14);
  const __m128i prev3 = _mm_alignr_epi8(input, previous, 13);
  const __m128i third = _mm_subs_epu8(prev2, _mm_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m128i fourth = _mm_subs_epu8(prev3, _mm_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  const __m128i must_continue =
      _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8(static_cast<char>(0x80)));
  return _mm_xor_si128(must_continue, special);
}

// Nonzero where the last bytes start a sequence that needs bytes from the next block.
__attribute__((target("ssse3"))) inline __m128i incomplete_at_end(__m128i input) {
  const __m128i max =
      _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(0xF0 - 1),
                    static_cast<char>(0xE0 - 1), static_cast<char>(0xC0 - 1));
  return _mm_subs_epu8(input, max);
}

// Returns true iff every byte of v is zero (not merely free of high bits).
__attribute__((target("ssse3"))) inline bool is_zero(__m128i v) {
  return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) == 0xFFFF;
}

// Returns true iff the 64 bytes at p are all ASCII.
__attribute__((target("ssse3"))) inline bool all_ascii_64(const unsigned char* p) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32));
  const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 48));
  return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) == 0;
}

__attribute__((target("ssse3"))) std::size_t valid_prefix_ssse3(const unsigned char* p,
                                                                std::size_t n) noexcept {
  __m128i previous = _mm_setzero_si128();
  __m128i pending = _mm_setzero_si128();  // an incomplete sequence at the previous block's end
  std::size_t i = 0;
  while (i + 16 <= n) {
    // Most Markdown is ASCII: test 64 bytes at a time while nothing is left open.
    if (i + 64 <= n && is_zero(pending) && all_ascii_64(p + i)) {
      previous = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 48));
      i += 64;
      continue;
    }
    const __m128i input = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i errors;
    if (_mm_movemask_epi8(input) == 0) {
      errors = pending;  // pure ASCII: only a sequence left open before it can be wrong
    } else {
      errors = block_errors(input, previous);
    }
    if (!is_zero(errors)) {
      return back_to_boundary(p, i);
    }
    pending = incomplete_at_end(input);
    previous = input;
    i += 16;
  }
  return back_to_boundary(p, i);
}

#endif

}  // namespace

std::size_t valid_utf8_prefix(const unsigned char* p, std::size_t n) noexcept {
#ifdef MEMKIT_UTF8_SSSE3
  // cpuid itself, once, when first needed: __builtin_cpu_supports links libgcc's feature
  // detection in as a constructor that runs at every start of every program, parsing or not.
  static const bool has_ssse3 = [] {
    unsigned a = 0;
    unsigned b = 0;
    unsigned c = 0;
    unsigned d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_SSSE3) != 0;
  }();
  if (has_ssse3) return valid_prefix_ssse3(p, n);
#endif
  (void)p;
  (void)n;
  return 0;
}

}  // namespace memkit::detail
