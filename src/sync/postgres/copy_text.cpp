// COPY's text format (copy_text.hpp).
#include "copy_text.hpp"

namespace memkit::detail::pg {

void append_copy_field(std::string& out, std::string_view text) {
  std::size_t from = 0;
  // Runs without a special byte, the usual case, are copied in one piece.
  for (std::size_t at = 0; at < text.size(); ++at) {
    char escaped = 0;
    switch (text[at]) {
      case '\\':
        escaped = '\\';
        break;
      case '\t':
        escaped = 't';
        break;
      case '\n':
        escaped = 'n';
        break;
      case '\r':
        escaped = 'r';
        break;
      default:
        continue;
    }
    out.append(text, from, at - from);
    out += '\\';
    out += escaped;
    from = at + 1;
  }
  out.append(text, from, std::string_view::npos);
}

}  // namespace memkit::detail::pg
