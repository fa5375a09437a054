// JSON lines read directly, for the fast readers that skip a JSON tree when a line is in the form
// memkit writes (sync records, curated history). A line they do not accept goes to the JSON
// parser, which reads any valid form and names what is wrong.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace memkit::detail {

enum class JsonEscapes : unsigned char {
  // Only what canonical JSON writes: \" \\ \b \f \n \r \t, and \u00xx (lower-case hex) for the
  // other control characters.
  canonical,
  // Also \/ and \uXXXX (either case) below U+0080.
  ascii,
};

// Reads the string literal at the start of `in` (its opening quote first) into `out`. Returns the
// bytes read, through the closing quote, or 0 when `in` does not start with a literal of the
// `escapes` set (a raw control character, another escape, no closing quote). The bytes between
// escapes are copied as they are (the caller checks UTF-8).
[[nodiscard]] std::size_t read_json_string(std::string_view in, std::string& out,
                                           JsonEscapes escapes);

// A cursor over one line in the form its writer produces (keys in order, no whitespace): each step
// matches exactly or returns false, and the line then goes to the JSON parser.
class CanonicalCursor {
 public:
  CanonicalCursor(std::string_view line, JsonEscapes escapes) noexcept
      : rest_(line), escapes_(escapes) {}

  [[nodiscard]] bool done() const noexcept { return rest_.empty(); }
  bool literal(std::string_view text) noexcept;
  bool string(std::string& out);
  bool optional_string(std::optional<std::string>& out);  // a string or null
  bool boolean(bool& out) noexcept;

 protected:
  std::string_view rest_;  // what is not read yet

 private:
  JsonEscapes escapes_;
};

}  // namespace memkit::detail
