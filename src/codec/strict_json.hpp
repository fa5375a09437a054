// Host-supplied JSON read strictly (curated.md §2, §10: checkpoint payloads, batch files, event
// payloads, episode files, config.json): nlohmann would accept a key given twice in one object,
// letting the later value win unseen, so such text is refused, as is ill-formed UTF-8. Internal to
// src/json, src/curated and src/commands.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace memkit::detail {

// The JSON value of `text`, or nullopt with `problem` set: "invalid UTF-8 at byte N", "nested more
// than 512 levels deep (at byte N)" (bounded_json.hpp), "not valid JSON", or "key 'K' given twice in
// one object".
[[nodiscard]] std::optional<nlohmann::json> parse_strict_json(std::string_view text,
                                                              std::string& problem);

}  // namespace memkit::detail
