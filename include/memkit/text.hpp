// The text model's character rules (spec compaction.md §2.1-§2.2, §6.3): UTF-8 checks and decoding,
// the whitespace set W with strip / rstrip / collapse, and Unicode 15.0.0 full case folding.
// Everything here works on UTF-8 bytes and never allocates unless it returns a std::string.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "memkit/result.hpp"

namespace memkit {

inline constexpr char32_t kReplacementCharacter = U'\uFFFD';

// The UTF-8 byte order mark. A file that starts with it keeps it; its text starts after it.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Where the text of `bytes` starts: 3 after a BOM, else 0.
[[nodiscard]] constexpr std::size_t bom_size(std::string_view bytes) noexcept {
  return bytes.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
}

// Decodes the code point that starts at bytes[pos] and advances pos past it. An ill-formed
// sequence yields U+FFFD and advances past its maximal subpart (Unicode §3.9, the rule Python's
// bytes.decode("utf-8", "replace") follows), so every byte is consumed exactly once.
// REQUIRES: pos < bytes.size()
[[nodiscard]] char32_t decode_utf8(std::string_view bytes, std::size_t& pos) noexcept;

// Returns the byte offset of the first ill-formed UTF-8 sequence, or nullopt when the bytes are
// well-formed. Runs at memory-bandwidth speed on ASCII.
[[nodiscard]] std::optional<std::size_t> find_invalid_utf8(std::string_view bytes) noexcept;

// The number of LF bytes in `bytes` (memchr's speed: several times std::count's on large files).
[[nodiscard]] std::size_t count_newlines(std::string_view bytes) noexcept;

// Returns OK iff `text` is well-formed UTF-8 without a NUL byte: what memkit accepts as text to
// write into a memory file. Otherwise Errc::invalid_argument, "<what>: invalid UTF-8 at byte N"
// or "<what>: a NUL byte at byte N".
[[nodiscard]] Status check_plain_text(std::string_view what, std::string_view text);

// Returns the bytes with every ill-formed sequence replaced as decode_utf8 reads it; JSON strings
// are made with this.
[[nodiscard]] std::string to_valid_utf8(std::string_view bytes);

// The number of code points in `text` as decode_utf8 reads them (an ill-formed sequence counts as
// one U+FFFD).
[[nodiscard]] std::size_t count_code_points(std::string_view text) noexcept;

// The bytes of the first `n` code points of `text`, as they stand (an ill-formed sequence counts
// as the one U+FFFD decode_utf8 reads it as).
[[nodiscard]] std::string_view first_code_points(std::string_view text, std::size_t n) noexcept;

// Appends the UTF-8 encoding of cp to out.
void append_utf8(char32_t cp, std::string& out);

// Returns true iff cp is in W (spec §2.2): U+0009-U+000D, U+001C-U+001F, U+0020, U+0085, U+00A0,
// U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
[[nodiscard]] bool is_w(char32_t cp) noexcept;

// strip / rstrip remove W characters from both ends / the right end; the result views the input.
[[nodiscard]] std::string_view strip_w(std::string_view text) noexcept;
[[nodiscard]] std::string_view rstrip_w(std::string_view text) noexcept;
[[nodiscard]] std::string_view lstrip_w(std::string_view text) noexcept;

// collapse: every run of W characters becomes one space, then the result is stripped.
[[nodiscard]] std::string collapse_w(std::string_view text);

// Returns true iff `text` starts with `lower_prefix` under ASCII case-insensitivity (the spec's
// "ASCII case-insensitive" matches). REQUIRES: lower_prefix has no upper-case ASCII letters.
[[nodiscard]] bool starts_with_ascii_ci(std::string_view text,
                                        std::string_view lower_prefix) noexcept;

// Unicode 15.0.0 full case folding (CaseFolding.txt status C and F). Ill-formed sequences fold to
// U+FFFD first, so the result is always well-formed UTF-8.
[[nodiscard]] std::string casefold(std::string_view text);
void casefold_append(std::string_view text, std::string& out);

}  // namespace memkit
