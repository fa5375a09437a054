// UTF-8 checks and decoding (spec compaction.md §2.1): every byte round-trips, and the code-point
// rules read ill-formed input exactly as Python's bytes.decode("utf-8", "replace") does.
#include <bit>
#include <cassert>
#include <cstdint>
#include <cstring>

#include "memkit/text.hpp"
#include "text/utf8_decode.hpp"
#include "text/utf8_simd.hpp"

namespace memkit {
namespace {

using detail::byte_data;
using detail::kHighBits;
constexpr std::string_view kReplacementUtf8 = "\xEF\xBF\xBD";

std::uint64_t load_u64(const unsigned char* p) noexcept {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);  // the one portable unaligned load; compiles to a mov
  return word;
}

// Returns the index of the lowest-addressed byte whose high bit is set in a nonzero mask.
std::size_t first_high_byte(std::uint64_t high_bits) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    return static_cast<std::size_t>(std::countr_zero(high_bits)) / 8;
  } else {
    return static_cast<std::size_t>(std::countl_zero(high_bits)) / 8;
  }
}

// Returns the index of the first byte >= 0x80 at or after i, or n. Most Markdown is ASCII, so this
// loop decides the speed of validation: 16 bytes per iteration, two loads and one test.
std::size_t skip_ascii(const unsigned char* p, std::size_t i, std::size_t n) noexcept {
  while (n - i >= 16) {
    const std::uint64_t low = load_u64(p + i) & kHighBits;
    const std::uint64_t high = load_u64(p + i + 8) & kHighBits;
    if ((low | high) != 0) {
      return i + (low != 0 ? first_high_byte(low) : 8 + first_high_byte(high));
    }
    i += 16;
  }
  if (n - i >= 8) {
    const std::uint64_t word = load_u64(p + i) & kHighBits;
    if (word != 0) return i + first_high_byte(word);
    i += 8;
  }
  while (i < n && p[i] < 0x80U) ++i;
  return i;
}

}  // namespace

char32_t decode_utf8(std::string_view bytes, std::size_t& pos) noexcept {
  assert(pos < bytes.size());
  // Release builds still must not read past the end; not advancing makes the caller's bug visible
  // as a hang in its tests rather than as a silent out-of-bounds read.
  if (pos >= bytes.size()) return kReplacementCharacter;
  const detail::DecodedChar c = detail::decode_char(byte_data(bytes) + pos, bytes.size() - pos);
  pos += c.size;
  return c.cp;
}

std::optional<std::size_t> find_invalid_utf8(std::string_view bytes) noexcept {
  const unsigned char* p = byte_data(bytes);
  const std::size_t n = bytes.size();
  // The vector validator skips the valid prefix; the scalar loop pins down the exact offset of an
  // error, and handles machines without a vector unit.
  std::size_t i = n >= 64 ? detail::valid_utf8_prefix(p, n) : 0;
  while (i < n) {
    if (p[i] < 0x80U) {
      i = skip_ascii(p, i, n);
      if (i == n) break;
    }
    const detail::DecodedChar c = detail::decode_char(p + i, n - i);
    if (!c.valid) return i;
    i += c.size;
  }
  return std::nullopt;
}

std::string to_valid_utf8(std::string_view bytes) {
  std::optional<std::size_t> bad = find_invalid_utf8(bytes);
  if (!bad) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + kReplacementUtf8.size());
  // Copy well-formed stretches whole, so text with a few bad bytes still runs on the fast path.
  while (bad) {
    out.append(bytes.substr(0, *bad));
    const detail::DecodedChar c = detail::decode_char(byte_data(bytes) + *bad, bytes.size() - *bad);
    out.append(kReplacementUtf8);
    bytes.remove_prefix(*bad + c.size);
    bad = find_invalid_utf8(bytes);
  }
  out.append(bytes);
  return out;
}

std::size_t count_code_points(std::string_view text) noexcept {
  std::size_t count = 0;
  for (std::size_t pos = 0; pos < text.size(); ++count) (void)decode_utf8(text, pos);
  return count;
}

std::string_view first_code_points(std::string_view text, std::size_t n) noexcept {
  std::size_t pos = 0;
  for (std::size_t count = 0; count < n && pos < text.size(); ++count) (void)decode_utf8(text, pos);
  return text.substr(0, pos);
}

void append_utf8(char32_t cp, std::string& out) {
  // A surrogate or a value above U+10FFFF has no UTF-8 form; writing its bit pattern anyway would
  // break the promise that memkit only produces well-formed text, so it becomes U+FFFD.
  if (cp > 0x10FFFFU || (cp >= 0xD800U && cp <= 0xDFFFU)) cp = kReplacementCharacter;
  char buf[4];
  std::size_t len;
  if (cp < 0x80U) {
    buf[0] = static_cast<char>(cp);
    len = 1;
  } else if (cp < 0x800U) {
    buf[0] = static_cast<char>(0xC0U | (cp >> 6));
    buf[1] = static_cast<char>(0x80U | (cp & 0x3FU));
    len = 2;
  } else if (cp < 0x10000U) {
    buf[0] = static_cast<char>(0xE0U | (cp >> 12));
    buf[1] = static_cast<char>(0x80U | ((cp >> 6) & 0x3FU));
    buf[2] = static_cast<char>(0x80U | (cp & 0x3FU));
    len = 3;
  } else {
    buf[0] = static_cast<char>(0xF0U | (cp >> 18));
    buf[1] = static_cast<char>(0x80U | ((cp >> 12) & 0x3FU));
    buf[2] = static_cast<char>(0x80U | ((cp >> 6) & 0x3FU));
    buf[3] = static_cast<char>(0x80U | (cp & 0x3FU));
    len = 4;
  }
  out.append(buf, len);
}

Status check_plain_text(std::string_view what, std::string_view text) {
  if (const std::optional<std::size_t> bad = find_invalid_utf8(text)) {
    return Status(Errc::invalid_argument,
                  std::string(what) + ": invalid UTF-8 at byte " + std::to_string(*bad));
  }
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return Status(Errc::invalid_argument,
                  std::string(what) + ": a NUL byte at byte " + std::to_string(nul));
  }
  return Status();
}

}  // namespace memkit
