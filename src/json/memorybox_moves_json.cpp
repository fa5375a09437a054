// JSON of the MemoryBox commands that move entries (spec memorybox.md §6 `--resolve archive`,
// §7 `compact`, §11 `promote`). `plan` is the custodian plan's own JSON (compaction.md §12.2).
#include "codec/canonical.hpp"
#include "json/json.hpp"
#include "json/plan_value.hpp"

namespace memkit {
namespace {

using detail::plan_or_null;
using detail::utf8;
using detail::utf8_array;
using nlohmann::json;

}  // namespace

std::string memorybox_compact_json(const memorybox::Compaction& compaction, bool applied,
                                   const std::vector<std::string>& written,
                                   std::optional<std::uint64_t> limit) {
  json rules = json::array();
  for (const memorybox::RuleCheck& r : compaction.rules) {
    rules.push_back(json{{"rule", std::string(memorybox::bloat_rule_name(r.rule))},
                         {"file", utf8(r.file)},
                         {"threshold", r.threshold},
                         {"value", r.value},
                         {"breached", r.breached}});
  }
  json actions = json::array();
  for (const memorybox::CompactAction& a : compaction.actions) {
    if (limit && actions.size() >= *limit) break;
    actions.push_back(json{{"rule", std::string(memorybox::bloat_rule_name(a.rule))},
                           {"kind", std::string(memorybox::action_kind_name(a.kind))},
                           {"path", utf8(a.path)},
                           {"detail", utf8(a.detail)}});
  }
  return detail::canonical_dump(json{{"rules", rules},
                                     {"actions", actions},
                                     {"actions_total", compaction.actions.size()},
                                     {"plan", plan_or_null(compaction.plan)},
                                     {"applied", applied},
                                     {"written", utf8_array(written)}});
}

std::string memorybox_promote_json(const memorybox::EntryMove& move, bool applied,
                                   const std::vector<std::string>& written) {
  return detail::canonical_dump(json{
      {"plan", plan_or_null(move.plan)}, {"applied", applied}, {"written", utf8_array(written)}});
}

std::string memorybox_resolve_archive_json(const memorybox::EntryMove& move, bool applied,
                                           const std::vector<std::string>& written) {
  // The keys `update` has for every event, then this event's plan.
  const memorybox::UpdatePlanning states{move.entry_id, move.path, move.before, move.after, {}, {}};
  json data = json::parse(memorybox_update_json(states, written));
  data["plan"] = plan_or_null(move.plan);
  data["applied"] = applied;
  return detail::canonical_dump(data);
}

}  // namespace memkit
