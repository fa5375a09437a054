// The JSON nesting limit: a scan of brackets outside strings, so that no parse starts on text that
// is too deep.
#include "codec/bounded_json.hpp"

namespace memkit::detail {

std::optional<std::size_t> find_too_deep_json(std::string_view text) noexcept {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // an escape's next byte never ends the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kJsonNestingLimit) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string too_deep_json_problem(std::size_t at) {
  return "nested more than " + std::to_string(kJsonNestingLimit) + " levels deep (at byte " +
         std::to_string(at) + ")";
}

}  // namespace memkit::detail
