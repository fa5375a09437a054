// Task states and completion dates of ACTIVE_TASKS.md (spec memorybox.md §7 "Task states").
#include "memkit/memorybox/moves.hpp"
#include "similarity/word_chars.hpp"
#include "text/utf8_decode.hpp"

namespace memkit::memorybox {
namespace {

// Returns true iff cp is a letter or a decimal digit (General Category Lu, Ll, Lt, Lm, Lo or
// Nd): §4's word characters without `_`.
bool is_letter_or_digit(char32_t cp) noexcept {
  return cp != U'_' && similarity::detail::is_word_code_point(cp);
}

// The code point that ends just before `pos`, or nullopt at the start of the line. An ill-formed
// sequence reads as U+FFFD, which is no letter.
std::optional<char32_t> code_point_before(std::string_view line, std::size_t pos) noexcept {
  if (pos == 0) return std::nullopt;
  std::size_t start = pos - 1;
  while (start > 0 && pos - start < 4 &&
         memkit::detail::is_continuation(static_cast<unsigned char>(line[start]))) {
    --start;
  }
  const auto* p = reinterpret_cast<const unsigned char*>(line.data()) + start;
  const memkit::detail::DecodedChar c = memkit::detail::decode_char(p, line.size() - start);
  return start + c.size == pos ? c.cp : U'\uFFFD';
}

std::optional<char32_t> code_point_at(std::string_view line, std::size_t pos) noexcept {
  if (pos >= line.size()) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(line.data()) + pos;
  return memkit::detail::decode_char(p, line.size() - pos).cp;
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// Returns true iff line[pos, pos + 10) has the shape NNNN-NN-NN.
bool date_shaped(std::string_view line, std::size_t pos) noexcept {
  for (std::size_t i = 0; i < 10; ++i) {
    const char c = line[pos + i];
    if (i == 4 || i == 7 ? c != '-' : !is_digit(c)) return false;
  }
  return true;
}

}  // namespace

bool is_completed_task(std::string_view first_line_content) noexcept {
  const std::string_view text = first_line_content.size() > 2 ? first_line_content.substr(2) : "";
  return text.rfind("[x] ", 0) == 0 || text.rfind("[X] ", 0) == 0;
}

std::optional<CivilDate> last_date_token(std::string_view line) noexcept {
  for (std::size_t pos = line.size() < 10 ? 0 : line.size() - 10 + 1; pos-- > 0;) {
    if (!date_shaped(line, pos)) continue;
    const std::optional<CivilDate> date = parse_iso_date(line.substr(pos, 10));
    if (!date) continue;
    const std::optional<char32_t> left = code_point_before(line, pos);
    const std::optional<char32_t> right = code_point_at(line, pos + 10);
    if ((left && is_letter_or_digit(*left)) || (right && is_letter_or_digit(*right))) continue;
    return date;
  }
  return std::nullopt;
}

}  // namespace memkit::memorybox
