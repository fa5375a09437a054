// The whitespace set W and the strip / collapse rules built on it (spec compaction.md §2.2). They
// work on UTF-8 bytes: a W character is recognised only where the forward decode (§2.1) reads it,
// and an ill-formed sequence reads as U+FFFD, which is not W, so invalid bytes are never stripped.
#include "memkit/text.hpp"
#include "text/utf8_decode.hpp"

namespace memkit {

bool starts_with_ascii_ci(std::string_view text, std::string_view lower_prefix) noexcept {
  if (text.size() < lower_prefix.size()) return false;
  for (std::size_t i = 0; i < lower_prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_prefix[i]) return false;
  }
  return true;
}
namespace {

using detail::byte_data;

// Returns the length of the W prefix of text.
std::size_t w_prefix_length(std::string_view text) noexcept {
  const unsigned char* p = byte_data(text);
  std::size_t i = 0;
  while (i < text.size()) {
    const detail::DecodedChar c = detail::decode_char(p + i, text.size() - i);
    if (!c.valid || !is_w(c.cp)) break;
    i += c.size;
  }
  return i;
}

// Returns the length of text without its W suffix. Decoding backwards is safe here: a byte that is
// not a continuation byte always starts a step of the forward decode, so a well-formed character
// that starts at such a byte and ends at the end is exactly what the forward decode reads there.
std::size_t w_suffix_start(std::string_view text) noexcept {
  const unsigned char* p = byte_data(text);
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t start = end - 1;
    // Every W character is at most 3 bytes long, so its lead byte is at most 2 bytes further back.
    while (start > 0 && end - start < 3 && detail::is_continuation(p[start])) --start;
    const detail::DecodedChar c = detail::decode_char(p + start, end - start);
    if (!c.valid || start + c.size != end || !is_w(c.cp)) break;
    end = start;
  }
  return end;
}

}  // namespace

bool is_w(char32_t cp) noexcept {
  if (cp <= 0x20U) return (cp >= 0x09U && cp <= 0x0DU) || cp >= 0x1CU;
  if (cp < 0x85U) return false;
  return cp == 0x85U || cp == 0xA0U || cp == 0x1680U || (cp >= 0x2000U && cp <= 0x200AU) ||
         cp == 0x2028U || cp == 0x2029U || cp == 0x202FU || cp == 0x205FU || cp == 0x3000U;
}

std::string_view strip_w(std::string_view text) noexcept { return lstrip_w(rstrip_w(text)); }

std::string_view rstrip_w(std::string_view text) noexcept {
  return text.substr(0, w_suffix_start(text));
}

std::string_view lstrip_w(std::string_view text) noexcept {
  return text.substr(w_prefix_length(text));
}

std::string collapse_w(std::string_view text) {
  const unsigned char* p = byte_data(text);
  std::string out;
  out.reserve(text.size());
  bool space_pending = false;
  std::size_t i = 0;
  while (i < text.size()) {
    const detail::DecodedChar c = detail::decode_char(p + i, text.size() - i);
    if (c.valid && is_w(c.cp)) {
      // A run at the start is dropped and a run at the end never gets flushed: that is the strip.
      space_pending = !out.empty();
    } else {
      if (space_pending) out.push_back(' ');
      space_pending = false;
      // Ill-formed bytes are copied as they are: collapse changes whitespace and nothing else.
      out.append(text.data() + i, c.size);
    }
    i += c.size;
  }
  return out;
}

}  // namespace memkit
