// User text in messages, and the names memkit may create (issue 24, defect 12). Pure.
#pragma once

#include <string>
#include <string_view>

namespace memkit {

// `text` as a message may show it: C0 controls, DEL and the C1 controls (U+0080-U+009F) escaped
// visibly (\n, \r, \t, \e as \x1b, the others \xNN, a C1 control as its UTF-8 bytes \xc2\xNN), and
// every byte of an ill-formed UTF-8 sequence as \xNN. Printable text, including non-ASCII, is kept.
// Used wherever a name, path or argument the user gave is echoed, so that a message never moves a
// terminal's cursor or hides what was sent.
[[nodiscard]] std::string shown_text(std::string_view text);

// Whether memkit may create a file or folder of this name (or path): well-formed UTF-8 with no
// control character (C0, DEL, C1). A line feed in a folder name breaks every line-based tool that
// lists it, and an escape sequence in one rewrites the terminal of whoever lists it.
[[nodiscard]] bool is_creatable_name(std::string_view name) noexcept;

// Whether `path` is relative and each of its '/'-separated parts is a plain name (none empty, "."
// or ".."): joined to a folder, it stays below it.
[[nodiscard]] bool is_plain_relative_path(std::string_view path) noexcept;

}  // namespace memkit
