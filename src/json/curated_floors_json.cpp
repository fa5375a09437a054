// The data JSON of the curated floors and telemetry commands (curated.md §9, §10 "Floors"): the
// record a floor command appended or found, and the plans of `floors prune` and
// `telemetry compact`.
#include "codec/canonical.hpp"
#include "json/curated_json.hpp"
#include "json/json.hpp"
#include "json/plan_value.hpp"
#include "memkit/plan.hpp"

namespace memkit {
namespace {

using detail::plan_or_null;
using nlohmann::json;

}  // namespace

std::string curated_floor_record_json(std::string_view workspace, std::string_view path,
                                      std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  return detail::canonical_dump(json{{"workspace", detail::utf8(workspace)},
                                     {"path", detail::utf8(path)},
                                     {"record", json::parse(line)}});
}

std::string curated_floors_prune_json(std::string_view workspace,
                                      const std::vector<std::string>& files, const Plan* plan,
                                      bool applied) {
  return detail::canonical_dump(json{{"workspace", detail::utf8(workspace)},
                                     {"files", detail::utf8_array(files)},
                                     {"applied", applied},
                                     {"plan", plan_or_null(plan)}});
}

std::string curated_telemetry_compact_json(std::string_view workspace, std::string_view before,
                                           std::uint64_t folded, std::uint64_t kept,
                                           const Plan* plan, bool applied) {
  std::vector<std::string> files;
  if (plan) {
    for (const PlanOperation& op : plan->operations()) files.push_back(op.path);
  }
  return detail::canonical_dump(json{{"workspace", detail::utf8(workspace)},
                                     {"before", detail::utf8(before)},
                                     {"folded", folded},
                                     {"kept", kept},
                                     {"files", detail::utf8_array(files)},
                                     {"applied", applied},
                                     {"plan", plan_or_null(plan)}});
}

}  // namespace memkit
