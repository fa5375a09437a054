// The shared pieces of the curated data JSON (curated.md §6, §8) and the data of `add`.
#include "json/curated_json.hpp"

#include "json/curated_parts.hpp"

namespace memkit {
namespace detail {

using nlohmann::json;

json row_view_json(const curated::Row& row, std::string_view workspace, bool with_body) {
  json view{{"workspace", utf8(workspace)},
            {"name", utf8(row.name)},
            {"type", std::string(curated::name_of(row.type))},
            {"class", std::string(curated::name_of(row.row_class))},
            {"status",
             row.row_class == curated::RowClass::thread ? enum_or_null(row.status) : json(nullptr)},
            {"initiative", text_or_null(row.initiative)},
            {"audience", std::string(curated::name_of(row.audience))},
            {"description", text_or_null(row.description)},
            {"project_ref", text_or_null(row.project_ref)},
            {"origin_session", text_or_null(row.origin_session)},
            {"created_at", text_or_null(row.created)},
            {"updated_at", text_or_null(row.updated)},
            {"deleted", row.deleted.has_value()},
            {"deleted_at", text_or_null(row.deleted)}};
  if (with_body) view["body"] = utf8(row.body);
  return view;
}

void add_counters(json& view, const curated::ReadCounters& counters) {
  view["injection_count"] = counters.injection.count;
  view["last_injected_at"] = text_or_null(counters.injection.last_at);
  view["deliberate_count"] = counters.deliberate.count;
  view["last_deliberate_at"] = text_or_null(counters.deliberate.last_at);
  view["kernel_count"] = counters.kernel.count;
  view["last_kernel_at"] = text_or_null(counters.kernel.last_at);
}

json write_base_json(std::string_view workspace, bool dry_run, const curated::Write& write) {
  json files = json::array();
  for (const std::string& path : write.files()) files.push_back(utf8(path));
  return json{{"workspace", utf8(workspace)},
              {"dry_run", dry_run},
              {"files", std::move(files)},
              {"result", write.changed ? "applied" : "unchanged"}};
}

json history_json(const curated::HistoryRecord& record) {
  return json::parse(curated::history_line(record));
}

}  // namespace detail

std::string curated_add_json(std::string_view workspace, bool dry_run,
                             const curated::Write& write) {
  using detail::enum_or_null;
  using detail::text_or_null;
  using detail::utf8;
  nlohmann::json data = detail::write_base_json(workspace, dry_run, write);
  const curated::Row& row = *write.row;
  data["name"] = utf8(row.name);
  data["action"] = write.action;
  data["type"] = std::string(curated::name_of(row.type));
  data["class"] = std::string(curated::name_of(row.row_class));
  data["memory_status"] =
      row.row_class == curated::RowClass::thread ? enum_or_null(row.status) : nullptr;
  data["initiative"] = text_or_null(row.initiative);
  data["description"] = text_or_null(row.description);
  data["updated_at"] = text_or_null(row.updated);
  if (dry_run) {
    const auto entry = write.entries.find(row.name);
    if (entry != write.entries.end()) data["entry"] = utf8(entry->second);
  }
  return detail::canonical_dump(data);
}

}  // namespace memkit
