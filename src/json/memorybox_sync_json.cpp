// JSON of `memorybox sync pull|push|status|resolve` (spec memorybox.md §9, §11).
#include "codec/canonical.hpp"
#include "json/json.hpp"
#include "json/plan_value.hpp"

namespace memkit {
namespace {

using detail::plan_or_null;
using detail::text_or_null;
using detail::utf8;
using detail::utf8_array;
using nlohmann::json;

}  // namespace

std::string memorybox_sync_pull_json(const memorybox::PullPlanning& pull,
                                     const std::string& workspace_id, std::uint64_t pulled,
                                     bool applied, const std::vector<std::string>& written) {
  json items = json::array();
  std::uint64_t unchanged = 0;
  for (const memorybox::PullItem& item : pull.items) {
    if (item.action == memorybox::PullAction::unchanged) {
      ++unchanged;
      continue;
    }
    items.push_back(
        json{{"id", utf8(item.id)},
             {"table", std::string(memorybox::sync_table_name(item.table))},
             {"file", utf8(item.file)},
             {"action", std::string(memorybox::pull_action_name(item.action))},
             {"rule", item.rule ? json(std::string(memorybox::merge_rule_name(*item.rule)))
                                : json(nullptr)}});
  }
  json conflicts = json::array();
  for (const memorybox::SyncRecord& r : pull.conflicts) conflicts.push_back(utf8(r.id));
  return detail::canonical_dump(json{{"workspace_id", utf8(workspace_id)},
                                     {"pulled", pulled},
                                     {"items", items},
                                     {"unchanged", unchanged},
                                     {"open_conflicts", conflicts},
                                     {"plan", plan_or_null(pull.plan)},
                                     {"needs_confirmation", pull.needs_confirmation},
                                     {"applied", applied},
                                     {"written", utf8_array(written)}});
}

std::string memorybox_sync_push_json(const memorybox::PushReport& push) {
  json refused = json::array();
  for (const memorybox::PushRefusal& r : push.refused) {
    refused.push_back(json{{"id", utf8(r.id)},
                           {"table", std::string(memorybox::sync_table_name(r.table))},
                           {"reason", utf8(r.reason)}});
  }
  return detail::canonical_dump(json{{"workspace_id", utf8(push.workspace_id)},
                                     {"assigned", utf8_array(push.assigned)},
                                     {"sent", push.sent},
                                     {"refused", refused},
                                     {"held", utf8_array(push.held)},
                                     {"last_push_at", text_or_null(push.last_push_at)},
                                     {"last_push_ok", push.last_push_ok}});
}

std::string memorybox_sync_status_json(const memorybox::SyncStatus& status) {
  return detail::canonical_dump(
      json{{"workspace_id", text_or_null(status.workspace_id)},
           {"last_pull_at", text_or_null(status.last_pull_at)},
           {"last_push_at", text_or_null(status.last_push_at)},
           {"last_push_ok", status.last_push_ok},
           {"pending_push", status.pending_push},
           {"open_conflicts", utf8_array(status.open_conflicts)},
           {"pending_pull", status.pending_pull ? json(*status.pending_pull) : json(nullptr)}});
}

std::string memorybox_sync_resolve_json(const memorybox::Resolution& resolution,
                                        const std::vector<std::string>& written) {
  return detail::canonical_dump(json{{"id", utf8(resolution.id)},
                                     {"take", resolution.take},
                                     {"file", utf8(resolution.file)},
                                     {"plan", plan_or_null(resolution.plan)},
                                     {"written", utf8_array(written)}});
}

}  // namespace memkit
