// One "Key: value" line written over a file's bytes (spec memorybox.md §3 field lines, §10 a client
// profile's `Lifecycle:` line): an existing line's content replaced in place, or a new line
// inserted at a line boundary with the file's terminator. Shared by `update`'s field edits and
// `client set`. Internal to src/memorybox.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "memkit/edit.hpp"

namespace memkit::memorybox::detail {

// "Key: value", the one spelling of a field line's content.
[[nodiscard]] inline std::string field_line(std::string_view key, std::string_view value) {
  std::string line(key);
  line += ": ";
  line += value;
  return line;
}

// Replaces a line's content, bytes [content_begin, content_end) (after its indentation, before
// its terminator), with `line`: the indentation and the terminator stay byte for byte.
[[nodiscard]] inline Splice replace_line_content(std::size_t content_begin, std::size_t content_end,
                                                 std::string line) {
  return Splice{content_begin, content_end, std::move(line)};
}

// Inserts `line` and `terminator` at `at`, the start of a line or the end of `bytes`. When `at`
// ends an unterminated last line (one that starts after `content_begin`, the offset after a
// BOM), that line first gets `terminator`, once: `end_terminated` records that an earlier insert
// at the same offset did it.
[[nodiscard]] inline Splice insert_line(std::string_view bytes, std::size_t content_begin,
                                        std::size_t at, std::string_view line,
                                        std::string_view terminator, bool& end_terminated) {
  std::string text;
  if (at == bytes.size() && at > content_begin && bytes[at - 1] != '\n' && !end_terminated) {
    text += terminator;
    end_terminated = true;
  }
  text += line;
  text += terminator;
  return Splice{at, at, std::move(text)};
}

}  // namespace memkit::memorybox::detail
