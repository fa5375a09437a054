// The token estimate (spec compaction.md §4), the reference rule the peers use, so counts match
// theirs exactly. It runs over whole files on every status and plan, so it never allocates and
// decodes only bytes >= 0x80.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "memkit/text.hpp"
#include "memkit/tokens.hpp"
#include "text/utf8_decode.hpp"

namespace memkit {
namespace {

// Per byte: kWord bytes form runs that count once, kSeparate bytes count one each and kSpace bytes
// (the ASCII part of W, §2.2) count nothing. The values are chosen so the byte loop can count with
// shifts and masks: a compare there compiles to a branch that mispredicts on every word boundary.
// Bytes >= 0x80 are kDecode: a multi-byte character or an ill-formed subpart, never in a word run.
enum ByteClass : std::uint8_t { kSpace = 0, kWord = 1, kSeparate = 2, kDecode = 4 };

constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (std::size_t b = 0; b < classes.size(); ++b) {
    if (b >= 0x80) {
      classes[b] = kDecode;
    } else if ((b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
               b == '_') {
      classes[b] = kWord;
    } else if ((b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x20)) {
      classes[b] = kSpace;
    } else {
      classes[b] = kSeparate;
    }
  }
  return classes;
}

constexpr std::array<std::uint8_t, 256> kByteClass = make_byte_classes();

using detail::kEachByte;
using detail::kHighBits;

// Marks (with bit 7) each byte of an all-ASCII word that lies in [lo, hi]. Adding 0x80 - lo sets
// bit 7 iff the byte is >= lo, adding 0x7F - hi iff it is > hi; bytes below 0x80 never carry.
constexpr std::uint64_t bytes_in_range(std::uint64_t word, std::uint64_t lo, std::uint64_t hi) {
  return (word + kEachByte * (0x80 - lo)) & ~(word + kEachByte * (0x7F - hi)) & kHighBits;
}

// Returns the number of bytes of marks (bit 7 per byte) without relying on a popcount instruction.
constexpr std::uint64_t count_marks(std::uint64_t marks) {
  return ((marks >> 7) * kEachByte) >> 56;
}

// The block loop below reads byte k's predecessor from byte k - 1 by shifting left, which holds
// only when the lowest address is the least significant byte.
constexpr bool kBlocks = std::endian::native == std::endian::little;

}  // namespace

std::uint64_t estimate_tokens(std::string_view utf8) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const std::size_t n = utf8.size();
  std::uint64_t tokens = 0;
  std::uint64_t in_word = 0;  // 1 iff the previous code point was a word byte
  std::size_t i = 0;
  while (i < n) {
    if constexpr (kBlocks) {
      // Eight ASCII bytes at a time: word starts and separators both count one, and they are
      // disjoint, so one count of their union gives the tokens of the block.
      std::uint64_t before = in_word << 7;  // the word mark of the byte before the block
      while (n - i >= 8) {
        std::uint64_t block;
        std::memcpy(&block, p + i, sizeof block);
        if ((block & kHighBits) != 0) break;
        const std::uint64_t word = bytes_in_range(block | kEachByte * 0x20, 'a', 'z') |
                                   bytes_in_range(block, '0', '9') |
                                   bytes_in_range(block, '_', '_');
        const std::uint64_t space =
            bytes_in_range(block, 0x09, 0x0D) | bytes_in_range(block, 0x1C, 0x20);
        const std::uint64_t separate = kHighBits & ~(word | space);
        const std::uint64_t word_start = word & ~((word << 8) | before);
        tokens += count_marks(word_start | separate);
        before = word >> 56;
        i += 8;
      }
      in_word = before >> 7;
    }
    // Byte by byte up to and including the next non-ASCII character (or to the end), then back to
    // blocks.
    while (i < n) {
      const std::uint8_t cls = kByteClass[p[i]];
      if (cls != kDecode) {
        tokens += (cls >> 1) | (cls & ~in_word & 1U);
        in_word = cls & 1U;
        ++i;
        continue;
      }
      const detail::DecodedChar c = detail::decode_char(p + i, n - i);
      // U+FFFD for an ill-formed subpart is not W, so each subpart counts one.
      if (!c.valid || !is_w(c.cp)) ++tokens;
      in_word = 0;
      i += c.size;
      break;
    }
  }
  return tokens;
}

}  // namespace memkit
