// config.json (curated.md §11).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "codec/strict_json.hpp"
#include "memkit/curated/config.hpp"

namespace memkit::curated {
namespace {

using json = nlohmann::json;

ConfigRead refuse(std::string_view path, const std::string& what) {
  ConfigRead read;
  read.refused = make_fatal("MK-PARSE-001", std::string(path), std::string(path) + ": " + what);
  return read;
}

bool retention(const json& value, std::uint32_t& out) {
  if (!value.is_number_integer()) return false;
  const auto days = value.get<std::int64_t>();
  if (days < 1 || days > 100000) return false;
  out = static_cast<std::uint32_t>(days);
  return true;
}

}  // namespace

ConfigRead parse_config(const std::optional<std::string>& bytes, std::string_view path) {
  ConfigRead read;
  if (!bytes) return read;
  std::string problem;
  const std::optional<json> parsed = detail::parse_strict_json(*bytes, problem);
  if (!parsed) return refuse(path, problem);
  const json& doc = *parsed;
  if (!doc.is_object()) return refuse(path, "not a JSON object");
  Config& config = read.config;
  for (const auto& [key, value] : doc.items()) {
    if (key == "writers") {
      if (!value.is_array()) return refuse(path, "\"writers\" must be an array of names");
      for (const json& name : value) {
        if (!name.is_string()) return refuse(path, "\"writers\" must be an array of names");
        config.writers.push_back(name.get<std::string>());
      }
    } else if (key == "kernel") {
      if (!value.is_object()) return refuse(path, "\"kernel\" must be an object");
      for (const auto& [field, filter] : value.items()) {
        if (field != "type" && field != "audience") {
          return refuse(path, "\"kernel\": unknown key \"" + field + "\"");
        }
        if (filter.is_null()) {
          if (field == "type") config.kernel.type = std::nullopt;
          if (field == "audience") config.kernel.audience = std::nullopt;
          continue;
        }
        const std::string text = filter.is_string() ? filter.get<std::string>() : std::string();
        if (field == "type") {
          config.kernel.type = parse_row_type(text);
          if (!config.kernel.type) return refuse(path, "\"kernel\".\"type\": not a row type");
        } else {
          config.kernel.audience = parse_audience(text);
          if (!config.kernel.audience) {
            return refuse(path, "\"kernel\".\"audience\": not an audience");
          }
        }
      }
    } else if (key == "retention_days") {
      if (!value.is_object()) return refuse(path, "\"retention_days\" must be an object");
      for (const auto& [floor, days] : value.items()) {
        std::uint32_t* target = floor == "events"     ? &config.events_days
                                : floor == "episodes" ? &config.episodes_days
                                                      : nullptr;
        if (target == nullptr) {
          return refuse(path, "\"retention_days\": unknown floor \"" + floor + "\"");
        }
        if (!retention(days, *target)) {
          return refuse(path, "\"retention_days\".\"" + floor + "\" must be a positive integer");
        }
      }
    } else if (key == "footer") {
      if (value.is_null()) continue;
      if (!value.is_string()) return refuse(path, "\"footer\" must be a string or null");
      config.footer = value.get<std::string>();
    } else {
      return refuse(path, "unknown key \"" + key + "\"");
    }
  }
  return read;
}

bool may_write(const Config& config, const std::optional<std::string>& actor) {
  if (config.writers.empty() || !actor) return true;
  return std::find(config.writers.begin(), config.writers.end(), *actor) != config.writers.end();
}

}  // namespace memkit::curated
