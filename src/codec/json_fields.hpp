// Fields of the JSON objects memkit keeps for itself (transaction journals, applied records), read
// so that a field of the wrong type counts as absent: nlohmann's value() throws type_error on
// one, and a damaged state file must be reported or skipped, never end the process. Internal to
// src/.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace memkit::detail {

// object[key] when `object` is an object holding a string there, else `fallback`.
[[nodiscard]] inline std::string string_field(const nlohmann::json& object, std::string_view key,
                                              std::string fallback = {}) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// object[key] when `object` is an object holding a boolean there, else `fallback`.
[[nodiscard]] inline bool bool_field(const nlohmann::json& object, std::string_view key,
                                     bool fallback = false) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// object[key] when `object` is an object holding a non-negative integer there, else `fallback`.
[[nodiscard]] inline std::uint64_t uint_field(const nlohmann::json& object, std::string_view key,
                                              std::uint64_t fallback = 0) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : fallback;
}

// object[key] when it is an array, else an empty array.
[[nodiscard]] inline nlohmann::json array_field(const nlohmann::json& object,
                                                std::string_view key) {
  if (!object.is_object()) return nlohmann::json::array();
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : nlohmann::json::array();
}

}  // namespace memkit::detail
