// Canonical JSON (spec compaction.md §12.1): keys sorted bytewise, no whitespace, integers only,
// non-ASCII raw, only '"', '\' and control characters escaped -- byte-identical to Python's
// json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/text.hpp"

namespace memkit::detail {

// nlohmann's default object is a std::map<std::string, ...>, whose ordering is bytewise, and its
// dump with ensure_ascii=false escapes exactly the characters Python escapes. Strings must be
// valid UTF-8 before they enter a value: add them through utf8().
[[nodiscard]] inline std::string canonical_dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

[[nodiscard]] inline nlohmann::json utf8(std::string_view text) {
  return nlohmann::json(to_valid_utf8(text));
}

// A text as a JSON string, or null when absent.
[[nodiscard]] inline nlohmann::json text_or_null(const std::optional<std::string>& text) {
  return text ? utf8(*text) : nlohmann::json(nullptr);
}

// Texts (paths, names) as a JSON array of strings, in their order.
[[nodiscard]] inline nlohmann::json utf8_array(const std::vector<std::string>& texts) {
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& text : texts) out.push_back(utf8(text));
  return out;
}

// Appends `text` as a canonical JSON string literal, for writers that stream large arrays
// without building a value tree. The same bytes as canonical_dump(utf8(text)).
// `known_valid` skips the UTF-8 check for text already known to be well-formed.
void append_json_string(std::string& out, std::string_view text, bool known_valid = false);

}  // namespace memkit::detail
