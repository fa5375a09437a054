// A custodian plan inside another command's JSON (compaction.md §12.2): the plan's own JSON as a
// value, or null when there is no plan. Internal to src/json.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "json/json.hpp"

namespace memkit::detail {

[[nodiscard]] inline nlohmann::json plan_or_null(const Plan* plan) {
  return plan ? nlohmann::json::parse(plan_json(*plan)) : nlohmann::json(nullptr);
}

[[nodiscard]] inline nlohmann::json plan_or_null(const std::optional<Plan>& plan) {
  return plan_or_null(plan ? &*plan : nullptr);
}

}  // namespace memkit::detail
