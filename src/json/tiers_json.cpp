// The data JSON of the `tiers` commands (tiers3.md §8): the reference script's keys, with paths
// relative to the workspace and sizes in bytes.
#include <nlohmann/json.hpp>

#include "codec/canonical.hpp"
#include "json/json.hpp"

namespace memkit {
namespace {

using detail::canonical_dump;
using detail::text_or_null;
using detail::utf8;
using detail::utf8_array;
using nlohmann::json;

json entry_json(const tiers::DataEntry& entry) {
  json columns = json(nullptr);
  if (entry.declared_columns) columns = utf8_array(*entry.declared_columns);
  return json{{"name", utf8(entry.name)},
              {"path", utf8(std::string(tiers::kDataDir) + "/" + entry.name)},
              {"updated_at", entry.updated_at},
              {"source_label", text_or_null(entry.source_label)},
              {"description", text_or_null(entry.description)},
              {"declared_columns", columns},
              {"detected_columns", utf8_array(entry.detected_columns)},
              {"row_count", entry.row_count},
              {"column_count", entry.column_count},
              {"size_bytes", entry.size_bytes}};
}

json metadata_json(const std::optional<std::string>& metadata) {
  return metadata ? json::parse(*metadata) : json(nullptr);
}

json log_json(const tiers::LogRead& log) {
  json out{{"date", log.file.date}, {"path", log.file.path}, {"size", log.size}};
  if (log.content) out["content"] = utf8(*log.content);
  return out;
}

}  // namespace

std::string tiers_init_json(const std::vector<std::string>& created) {
  return canonical_dump(json{{"created", utf8_array(created)}});
}

std::string tiers_write_json(std::string_view command, const tiers::Written& written,
                             bool replace) {
  const std::string global(tiers::kGlobalPath);
  json data;
  if (command == "log-turn") {
    data = {{"path", written.l1_path}};
  } else if (command == "persist-turn") {
    data = {{"l1_written", true},
            {"l1_path", written.l1_path},
            {"l2_written", written.l2_path.has_value()},
            {"l2_path", text_or_null(written.l2_path)},
            {"theme", text_or_null(written.theme)},
            {"global_updated", written.global_updated},
            {"global_path", global}};
  } else if (command == "write-theme") {
    data = {{"l1_written", true},
            {"l1_path", written.l1_path},
            {"path", text_or_null(written.l2_path)},
            {"theme", text_or_null(written.theme)},
            {"global_updated", written.global_updated},
            {"global_path", global}};
  } else if (command == "write-global") {
    data = {{"l1_written", true},
            {"l1_path", written.l1_path},
            {"path", global},
            {"mode", replace ? "replace" : "append"},
            {"backup_path", text_or_null(written.backup_path)}};
  } else {  // write-data
    data = {{"l1_written", true},
            {"l1_path", written.l1_path},
            {"data_path", text_or_null(written.data_path)},
            {"manifest_entry",
             written.manifest_entry ? entry_json(*written.manifest_entry) : json(nullptr)}};
  }
  return canonical_dump(data);
}

std::string tiers_session_init_json(const tiers::SessionInitData& init) {
  json logs = json::array();
  for (const tiers::LogRead& log : init.recent_logs) logs.push_back(log_json(log));
  json themes = json::array();
  for (const tiers::NoteRead& note : init.recent_themes) {
    themes.push_back({{"theme", note.note.theme},
                      {"timestamp", note.note.timestamp},
                      {"path", note.note.path},
                      {"preview", utf8(note.content)}});
  }
  json data{{"global_path", std::string(tiers::kGlobalPath)},
            {"global_exists", init.global_exists},
            {"global_excerpt", utf8(init.global_excerpt)},
            {"recent_logs", logs},
            {"recent_themes", themes},
            {"l2_archive_due", init.l2_archive_due},
            {"log_written", init.log_path.has_value()},
            {"log_path", text_or_null(init.log_path)}};
  if (init.context) {
    json dropped = json::array();
    for (const tiers::ContextItem& item : init.context->dropped) {
      dropped.push_back({{"kind", item.kind},
                         {"name", utf8(item.name)},
                         {"path", utf8(item.path)},
                         {"tokens", item.tokens}});
    }
    data["context"] = utf8(init.context->text);
    data["tokens_used"] = init.context->tokens_used;
    data["tokens_limit"] = init.tokens_limit;
    data["dropped"] = dropped;
  }
  return canonical_dump(data);
}

std::string tiers_logs_json(const std::vector<tiers::LogRead>& logs) {
  json list = json::array();
  for (const tiers::LogRead& log : logs) list.push_back(log_json(log));
  return canonical_dump(json{{"logs", list}});
}

std::string tiers_theme_json(const std::vector<tiers::NoteRead>& notes) {
  json list = json::array();
  for (const tiers::NoteRead& note : notes) {
    list.push_back({{"timestamp", note.note.timestamp},
                    {"path", note.note.path},
                    {"content", utf8(note.content)}});
  }
  return canonical_dump(json{{"memories", list}});
}

std::string tiers_global_json(const tiers::GlobalRead& global) {
  json order = json::array();
  for (const tiers::ReadOrderItem& item : global.order) {
    order.push_back(
        {{"section", item.section},
         {"heading", text_or_null(item.heading)},
         {"found", item.found()},
         {"content",
          item.found()
              ? utf8(std::string_view(global.content).substr(item.begin, item.end - item.begin))
              : json(nullptr)}});
  }
  return canonical_dump(json{{"path", std::string(tiers::kGlobalPath)},
                             {"exists", global.exists},
                             {"content", utf8(global.content)},
                             {"read_order", order}});
}

std::string tiers_themes_json(const std::vector<std::string>& themes) {
  return canonical_dump(json{{"themes", utf8_array(themes)}});
}

std::string tiers_data_json(const tiers::DataFile& file) {
  return canonical_dump(json{{"data",
                              {{"name", utf8(file.name)},
                               {"path", utf8(std::string(tiers::kDataDir) + "/" + file.name)},
                               {"size", file.size},
                               {"metadata", metadata_json(file.metadata)},
                               {"content", utf8(file.content)},
                               {"truncated", file.truncated}}}});
}

std::string tiers_data_list_json(const std::vector<tiers::DataFile>& files) {
  json list = json::array();
  for (const tiers::DataFile& file : files) {
    json item{{"name", utf8(file.name)},
              {"path", utf8(std::string(tiers::kDataDir) + "/" + file.name)},
              {"size", file.size}};
    if (file.metadata) item["metadata"] = metadata_json(file.metadata);
    list.push_back(item);
  }
  return canonical_dump(json{{"data_files", list}});
}

std::string tiers_archive_json(const tiers::ArchivePlan& archive, bool applied,
                               const std::vector<std::string>& written) {
  json candidates = json::array();
  for (const tiers::NoteFile& note : archive.candidates) {
    candidates.push_back(
        {{"theme", note.theme}, {"path", note.path}, {"timestamp", note.timestamp}});
  }
  return canonical_dump(
      json{{"candidates", candidates},
           {"plan", archive.plan ? json::parse(plan_json(*archive.plan)) : json(nullptr)},
           {"applied", applied},
           {"written", utf8_array(written)}});
}

std::string tiers_template_json(tiers::Template t) {
  return canonical_dump(json{{"text", std::string(tiers::template_body(t))}});
}

}  // namespace memkit
