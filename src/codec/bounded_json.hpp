// The one nesting limit of every JSON text memkit reads (docs/limits.md): files it keeps (manifest.json,
// journals, applied records, sync state, curated logs and config) and host-supplied text (payloads,
// episode and batch files, tools and columns arguments). Deeper text is refused before nlohmann parses
// it, because a value's copy, comparison, printing and memkit's own walks over it take a stack frame
// per level: 20,000 nested arrays overflowed the stack, and a deep manifest.json was rewritten ~7,000
// times larger. Internal to src/.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace memkit::detail {

// Arrays and objects nest at most this many levels: `[[1]]` is 2 levels, a scalar 0.
inline constexpr std::size_t kJsonNestingLimit = 512;

// The byte offset of the '[' or '{' that opens level kJsonNestingLimit + 1 of `text`, read as JSON
// (brackets inside strings do not count), or nullopt when there is none. Exact for valid JSON; on
// invalid JSON it still never reports a bracket that sits inside a string.
[[nodiscard]] std::optional<std::size_t> find_too_deep_json(std::string_view text) noexcept;

// "nested more than 512 levels deep (at byte N)": the problem text every reader reports.
[[nodiscard]] std::string too_deep_json_problem(std::size_t at);

// nlohmann's parse(text, nullptr, false) within the limit: a discarded value when `text` is not JSON
// or nests too deeply. In the second case `problem` (when given) is set to the limit's problem; in
// any other it is left as the caller set it (each reader keeps its own words for "not JSON").
template <class Json = nlohmann::json>
[[nodiscard]] Json parse_bounded_json(std::string_view text, std::string* problem = nullptr) {
  if (const std::optional<std::size_t> at = find_too_deep_json(text)) {
    if (problem) *problem = too_deep_json_problem(*at);
    return Json(Json::value_t::discarded);
  }
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace memkit::detail
