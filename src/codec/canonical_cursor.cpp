// JSON lines read directly (RFC 8259, restricted to the forms memkit writes).
#include "codec/canonical_cursor.hpp"

namespace memkit::detail {

namespace {

int hex_digit(char c, bool upper_too) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (upper_too && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::size_t read_json_string(std::string_view in, std::string& out, JsonEscapes escapes) {
  if (in.empty() || in[0] != '"') return 0;
  out.clear();
  const bool ascii = escapes == JsonEscapes::ascii;
  std::size_t at = 1;
  while (true) {
    const std::size_t run = at;  // bytes copied as they are
    while (at < in.size()) {
      const auto c = static_cast<unsigned char>(in[at]);
      if (c == '"' || c == '\\' || c < 0x20) break;
      ++at;
    }
    out.append(in.substr(run, at - run));
    if (at == in.size()) return 0;
    if (in[at] == '"') return at + 1;
    if (in[at] != '\\' || at + 1 == in.size()) return 0;  // a raw control character
    const char escape = in[at + 1];
    at += 2;
    switch (escape) {
      case '"':
      case '\\':
        out += escape;
        break;
      case '/':
        if (!ascii) return 0;
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        if (at + 4 > in.size()) return 0;
        unsigned code = 0;
        for (std::size_t k = 0; k < 4; ++k) {
          const int digit = hex_digit(in[at + k], ascii);
          if (digit < 0) return 0;
          code = code * 16 + static_cast<unsigned>(digit);
        }
        if (code >= (ascii ? 0x80u : 0x20u)) return 0;
        const char c = static_cast<char>(code);
        // Canonical JSON writes these five with their short escapes.
        if (!ascii && (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')) return 0;
        out += c;
        at += 4;
        break;
      }
      default:
        return 0;
    }
  }
}

bool CanonicalCursor::literal(std::string_view text) noexcept {
  if (!rest_.starts_with(text)) return false;
  rest_.remove_prefix(text.size());
  return true;
}

bool CanonicalCursor::string(std::string& out) {
  const std::size_t read = read_json_string(rest_, out, escapes_);
  rest_.remove_prefix(read);
  return read != 0;
}

bool CanonicalCursor::optional_string(std::optional<std::string>& out) {
  if (literal("null")) {
    out.reset();
    return true;
  }
  out.emplace();
  return string(*out);
}

bool CanonicalCursor::boolean(bool& out) noexcept {
  if (literal("true")) {
    out = true;
    return true;
  }
  out = false;
  return literal("false");
}

}  // namespace memkit::detail
