// The one UTF-8 decoding step that every code-point rule shares (spec compaction.md §2.1), inline
// so that the hot loops of find_invalid_utf8, casefold and estimate_tokens pay no call per
// character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace memkit::detail {

// Eight bytes at a time (SWAR): a word with every byte 0x01, and one with every byte's high bit.
inline constexpr std::uint64_t kEachByte = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// The bytes of a string as unsigned, as the decoders read them.
[[nodiscard]] inline const unsigned char* byte_data(std::string_view text) noexcept {
  return reinterpret_cast<const unsigned char*>(text.data());
}

struct DecodedChar {
  char32_t cp;         // U+FFFD when !valid
  std::uint32_t size;  // bytes consumed: the whole character, or the maximal subpart when !valid
  bool valid;
};

// Returns true iff b is a continuation byte (10xxxxxx).
[[nodiscard]] constexpr bool is_continuation(unsigned char b) noexcept {
  return (b & 0xC0U) == 0x80U;
}

// Decodes one character at p. Ill-formed input follows Unicode §3.9 "maximal subpart" (Table 3-7),
// the rule of Python's bytes.decode("utf-8", "replace"): the lead byte and every following byte
// that still lies on some well-formed path form one subpart, so E0 80 is two subparts (80 cannot
// follow E0), ED A0 80 is three (no surrogates) and a truncated E2 82 at the end is one.
// REQUIRES: avail >= 1
[[nodiscard]] inline DecodedChar decode_char(const unsigned char* p, std::size_t avail) noexcept {
  constexpr DecodedChar kLoneByte{U'\uFFFD', 1, false};
  const unsigned char lead = p[0];
  if (lead < 0x80U) return {lead, 1, true};
  if (lead < 0xC2U || lead > 0xF4U) return kLoneByte;  // stray continuation, overlong C0/C1, > F4

  // The second byte's range is the only one that depends on the lead: it is where overlongs
  // (E0, F0), surrogates (ED) and code points above U+10FFFF (F4) are ruled out.
  std::uint32_t tail;
  unsigned char low = 0x80U;
  unsigned char high = 0xBFU;
  char32_t cp;
  if (lead < 0xE0U) {
    tail = 1;
    cp = lead & 0x1FU;
  } else if (lead < 0xF0U) {
    tail = 2;
    cp = lead & 0x0FU;
    if (lead == 0xE0U) low = 0xA0U;
    if (lead == 0xEDU) high = 0x9FU;
  } else {
    tail = 3;
    cp = lead & 0x07U;
    if (lead == 0xF0U) low = 0x90U;
    if (lead == 0xF4U) high = 0x8FU;
  }
  if (avail < 2 || p[1] < low || p[1] > high) return kLoneByte;
  cp = (cp << 6) | (p[1] & 0x3FU);
  for (std::uint32_t i = 2; i <= tail; ++i) {
    if (avail <= i || !is_continuation(p[i])) return {U'\uFFFD', i, false};
    cp = (cp << 6) | (p[i] & 0x3FU);
  }
  return {cp, tail + 1, true};
}

}  // namespace memkit::detail
