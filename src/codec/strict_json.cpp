// Strict JSON reading: one parse that sees every object's keys.
#include "codec/strict_json.hpp"

#include <set>
#include <vector>

#include "codec/bounded_json.hpp"
#include "memkit/text.hpp"

namespace memkit::detail {

std::optional<nlohmann::json> parse_strict_json(std::string_view text, std::string& problem) {
  using nlohmann::json;
  if (const std::optional<std::size_t> at = find_invalid_utf8(text)) {
    problem = "invalid UTF-8 at byte " + std::to_string(*at);
    return std::nullopt;
  }
  if (const std::optional<std::size_t> at = find_too_deep_json(text)) {
    problem = too_deep_json_problem(*at);
    return std::nullopt;
  }
  std::vector<std::set<std::string>> keys;  // one set per object being read
  std::string twice;
  const json::parser_callback_t watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      keys.emplace_back();
    } else if (event == json::parse_event_t::object_end && !keys.empty()) {
      keys.pop_back();
    } else if (event == json::parse_event_t::key && !keys.empty() && parsed.is_string()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!keys.back().insert(key).second && twice.empty()) twice = key;
    }
    return true;
  };
  json value = json::parse(text, watch, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    problem = "not valid JSON";
    return std::nullopt;
  }
  if (!twice.empty()) {
    problem = "key '" + twice + "' given twice in one object";
    return std::nullopt;
  }
  return value;
}

}  // namespace memkit::detail
