// Line classification of the text model (spec compaction.md §2.2-§2.4). Each predicate reads a
// line's content only (no terminator, no BOM) and looks at as few bytes as it can: these run on
// every line of every file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace memkit::detail {

inline bool is_indent_byte(char c) noexcept { return c == ' ' || c == '\t'; }

// Blank: empty, or only spaces and tabs.
inline bool is_blank(std::string_view content) noexcept {
  for (char c : content) {
    if (!is_indent_byte(c)) return false;
  }
  return true;
}

// REQUIRES: !is_blank(content). Indented: the first byte is a space or a tab.
inline bool is_indented(std::string_view content) noexcept { return is_indent_byte(content[0]); }

// Returns the number of leading spaces when it is 0-3, else 4 (only U+0020 counts here, §2.3).
inline std::size_t leading_spaces_upto_4(std::string_view content) noexcept {
  std::size_t n = 0;
  while (n < 4 && n < content.size() && content[n] == ' ') ++n;
  return n;
}

struct FenceOpener {
  char fence_char;  // 0 when the line opens no fence
  std::size_t length;
};

// §2.3: 0-3 spaces, then at least 3 backticks or tildes; a backtick run may not be followed by
// another backtick on the line.
inline FenceOpener fence_opener(std::string_view content) noexcept {
  const std::size_t indent = leading_spaces_upto_4(content);
  if (indent > 3 || indent + 3 > content.size()) return {0, 0};
  const char c = content[indent];
  if (c != '`' && c != '~') return {0, 0};
  std::size_t run = indent;
  while (run < content.size() && content[run] == c) ++run;
  const std::size_t length = run - indent;
  if (length < 3) return {0, 0};
  if (c == '`' && content.find('`', run) != std::string_view::npos) return {0, 0};
  return {c, length};
}

// Returns true iff the line closes a fence of fence_char and at least `length`: 0-3 spaces, the
// run, then only spaces or tabs.
inline bool closes_fence(std::string_view content, char fence_char, std::size_t length) noexcept {
  const std::size_t indent = leading_spaces_upto_4(content);
  if (indent > 3) return false;
  std::size_t i = indent;
  while (i < content.size() && content[i] == fence_char) ++i;
  if (i - indent < length) return false;
  for (; i < content.size(); ++i) {
    if (!is_indent_byte(content[i])) return false;
  }
  return true;
}

// Returns the offset just past the "<!--" of a comment opener (0-3 spaces, then "<!--"), or 0.
inline std::size_t comment_opener_end(std::string_view content) noexcept {
  const std::size_t indent = leading_spaces_upto_4(content);
  if (indent > 3) return 0;
  if (content.substr(indent, 4) != "<!--") return 0;
  return indent + 4;
}

inline bool contains_comment_close(std::string_view text) noexcept {
  return text.find("-->") != std::string_view::npos;
}

// REQUIRES: a column-0 line. §2.4: after removing spaces and tabs, three or more copies of one
// of '-', '*', '_'.
inline bool is_thematic_break(std::string_view content) noexcept {
  const char c = content[0];
  if (c != '-' && c != '*' && c != '_') return false;
  std::size_t count = 0;
  for (char b : content) {
    if (b == c) {
      ++count;
    } else if (!is_indent_byte(b)) {
      return false;
    }
  }
  return count >= 3;
}

// REQUIRES: a column-0 line. "- ", "* " or "+ " and not a thematic break.
inline bool is_bullet_line(std::string_view content) noexcept {
  if (content.size() < 2 || content[1] != ' ') return false;
  const char c = content[0];
  if (c != '-' && c != '*' && c != '+') return false;
  return !is_thematic_break(content);
}

// REQUIRES: a column-0 line. Returns 1-6 for an ATX heading line (1-6 '#' then the end, a space
// or a tab), else 0.
inline std::uint8_t heading_level(std::string_view content) noexcept {
  std::size_t n = 0;
  while (n < content.size() && n < 7 && content[n] == '#') ++n;
  if (n == 0 || n > 6) return 0;
  if (n < content.size() && !is_indent_byte(content[n])) return 0;
  return static_cast<std::uint8_t>(n);
}

// Returns true iff content with trailing spaces and tabs removed equals `marker`.
inline bool equals_trimmed(std::string_view content, std::string_view marker) noexcept {
  while (!content.empty() && is_indent_byte(content.back())) content.remove_suffix(1);
  return content == marker;
}

}  // namespace memkit::detail
