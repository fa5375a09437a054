// User text in messages, and the names memkit may create.
#include "text/shown_text.hpp"

#include "text/utf8_decode.hpp"

namespace memkit {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_byte(std::string& out, unsigned char byte) {
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xFU];
}

bool is_control(char32_t cp) noexcept { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

}  // namespace

std::string shown_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const detail::DecodedChar c = detail::decode_char(bytes + pos, text.size() - pos);
    if (c.valid && !is_control(c.cp)) {
      out.append(text.substr(pos, c.size));
    } else if (c.valid && c.cp == '\n') {
      out += "\\n";
    } else if (c.valid && c.cp == '\r') {
      out += "\\r";
    } else if (c.valid && c.cp == '\t') {
      out += "\\t";
    } else {
      for (std::size_t i = 0; i < c.size; ++i) append_byte(out, bytes[pos + i]);
    }
    pos += c.size;
  }
  return out;
}

bool is_creatable_name(std::string_view name) noexcept {
  const auto* bytes = reinterpret_cast<const unsigned char*>(name.data());
  std::size_t pos = 0;
  while (pos < name.size()) {
    const detail::DecodedChar c = detail::decode_char(bytes + pos, name.size() - pos);
    if (!c.valid || is_control(c.cp)) return false;
    pos += c.size;
  }
  return true;
}

bool is_plain_relative_path(std::string_view path) noexcept {
  if (path.empty() || path.front() == '/') return false;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    const std::string_view part = path.substr(pos, slash - pos);
    if (part.empty() || part == "." || part == "..") return false;
    pos = slash + 1;
  }
  return true;
}

}  // namespace memkit
