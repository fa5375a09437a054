// The data JSON of the curated writes other than `add` (curated.md §6, §7, §10), and the reading
// of a `batch --file`.
#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "codec/strict_json.hpp"
#include "json/curated_json.hpp"
#include "json/curated_parts.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

using detail::enum_or_null;
using detail::text_or_null;
using detail::utf8;
using nlohmann::json;

// `entry` of a dry run: the exact entry text of `name` after the write, when the plan made one.
void add_entry(json& data, bool dry_run, const curated::Write& write, const std::string& name) {
  if (!dry_run) return;
  const auto entry = write.entries.find(name);
  if (entry != write.entries.end()) data["entry"] = utf8(entry->second);
}

// {workspace, dry_run, files, result, name, updated_at} (+ entry): append, edit and restore.
std::string row_write_json(std::string_view workspace, bool dry_run, const curated::Write& write) {
  json data = detail::write_base_json(workspace, dry_run, write);
  const curated::Row& row = *write.row;
  data["name"] = utf8(row.name);
  data["updated_at"] = text_or_null(row.updated);
  add_entry(data, dry_run, write, row.name);
  return detail::canonical_dump(data);
}

json memory_status(const curated::Row& row) {
  return row.row_class == curated::RowClass::thread ? enum_or_null(row.status) : json(nullptr);
}

json checkpoint_operation(const curated::CheckpointOperation& op) {
  json out{{"op", op.op}, {"name", utf8(op.name)}, {"result", op.result}};
  if (op.op == "link") {
    out["kind"] = std::string(curated::name_of(curated::LinkKind::derived_from));
    out["dst"] = text_or_null(op.dst);
  }
  if (op.action) out["action"] = *op.action;
  if (op.row_class) {
    // An upsert that ran: its class and thread status (null for a non-thread).
    out["class"] = std::string(curated::name_of(*op.row_class));
    out["memory_status"] =
        *op.row_class == curated::RowClass::thread ? enum_or_null(op.memory_status) : nullptr;
  }
  if (op.error) out["error"] = *op.error;
  return out;
}

// ---- batch file
// -----------------------------------------------------------------------------------

struct OpKeys {
  std::string_view op;
  std::vector<std::string_view> required;
  std::vector<std::string_view> optional;
};

const std::vector<OpKeys>& op_keys() {
  static const std::vector<OpKeys> keys = {
      {.op = "add",
       .required = {"name", "type", "body"},
       .optional = {"description", "class", "status", "initiative", "project_ref", "audience",
                    "origin_session"}},
      {.op = "append", .required = {"name", "body"}, .optional = {}},
      {.op = "edit",
       .required = {"name", "field", "content"},
       .optional = {"audience", "initiative", "project_ref"}},
      {.op = "reclassify", .required = {"name"}, .optional = {"class", "status"}},
      {.op = "link", .required = {"src", "dst", "kind"}, .optional = {}},
      {.op = "unlink", .required = {"src", "dst", "kind"}, .optional = {}},
      {.op = "delete", .required = {"name"}, .optional = {"hard", "yes"}},
  };
  return keys;
}

bool has(const std::vector<std::string_view>& list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

// One operation object, or `problem` set.
std::optional<CuratedBatchItem> read_item(const json& value, std::size_t index,
                                          std::string& problem) {
  const std::string where = "[" + std::to_string(index) + "]";
  if (!value.is_object()) {
    problem = where + ": expected an object, got " + std::string(value.type_name());
    return std::nullopt;
  }
  const auto op = value.find("op");
  if (op == value.end() || !op->is_string()) {
    problem = where + ": expected \"op\", a string";
    return std::nullopt;
  }
  const std::string& name = op->get_ref<const std::string&>();
  const auto keys = std::find_if(op_keys().begin(), op_keys().end(),
                                 [&](const OpKeys& k) { return k.op == name; });
  if (keys == op_keys().end()) {
    problem = where + ".op: expected add, append, edit, reclassify, link, unlink or delete, got '" +
              to_valid_utf8(name) + "'";
    return std::nullopt;
  }
  CuratedBatchItem item;
  item.op = name;
  for (const auto& [key, field] : value.items()) {
    if (key == "op") continue;
    if (!has(keys->required, key) && !has(keys->optional, key)) {
      problem = where + ": " + name + " takes no '" + to_valid_utf8(key) + "'";
      return std::nullopt;
    }
    if (key == "hard" || key == "yes") {
      if (!field.is_boolean()) {
        problem = where + "." + key + ": expected a boolean, got " + field.type_name();
        return std::nullopt;
      }
      (key == "hard" ? item.hard : item.yes) = field.get<bool>();
      continue;
    }
    if (!field.is_string()) {
      problem = where + "." + key + ": expected a string, got " + field.type_name();
      return std::nullopt;
    }
    item.arguments.push_back(
        CuratedBatchArgument{.key = key, .value = field.get_ref<const std::string&>()});
  }
  for (const std::string_view required : keys->required) {
    if (!value.contains(required)) {
      problem = where + ": " + name + " needs '" + std::string(required) + "'";
      return std::nullopt;
    }
  }
  return item;
}

}  // namespace

std::string curated_append_json(std::string_view workspace, bool dry_run,
                                const curated::Write& write) {
  return row_write_json(workspace, dry_run, write);
}

std::string curated_edit_json(std::string_view workspace, bool dry_run,
                              const curated::Write& write) {
  return row_write_json(workspace, dry_run, write);
}

std::string curated_restore_json(std::string_view workspace, bool dry_run,
                                 const curated::Write& write) {
  return row_write_json(workspace, dry_run, write);
}

std::string curated_reclassify_json(std::string_view workspace, bool dry_run,
                                    const curated::Write& write) {
  json data = detail::write_base_json(workspace, dry_run, write);
  const curated::Row& row = *write.row;
  data["name"] = utf8(row.name);
  data["class"] = std::string(curated::name_of(row.row_class));
  data["memory_status"] = memory_status(row);
  data["updated_at"] = text_or_null(row.updated);
  add_entry(data, dry_run, write, row.name);
  return detail::canonical_dump(data);
}

std::string curated_link_json(std::string_view workspace, bool dry_run, const curated::Write& write,
                              bool remove, std::string_view src, std::string_view dst,
                              std::string_view kind) {
  json data = detail::write_base_json(workspace, dry_run, write);
  data["op"] = remove ? "unlink" : "link";
  data["src"] = utf8(src);
  data["dst"] = utf8(dst);
  data["kind"] = utf8(kind);
  data["created_at"] = text_or_null(write.link_created_at);
  return detail::canonical_dump(data);
}

std::string curated_delete_json(std::string_view workspace, bool dry_run,
                                const curated::Write& write, std::string_view name, bool hard) {
  json data = detail::write_base_json(workspace, dry_run, write);
  data["name"] = utf8(name);
  data["mode"] = hard ? "hard" : "soft";
  data["deleted_at"] = hard || !write.row ? json(nullptr) : text_or_null(write.row->deleted);
  if (!hard) add_entry(data, dry_run, write, std::string(name));
  return detail::canonical_dump(data);
}

std::string curated_checkpoint_json(std::string_view workspace, bool dry_run,
                                    const curated::Checkpoint& checkpoint, std::string_view now) {
  json operations = json::array();
  for (const curated::CheckpointOperation& op : checkpoint.operations) {
    operations.push_back(checkpoint_operation(op));
  }
  json files = json::array();
  if (!checkpoint.rejected) {
    for (const std::string& path : checkpoint.write.files()) files.push_back(utf8(path));
  }
  json data{{"status", checkpoint.rejected ? "rejected" : "applied"},
            {"workspace", utf8(workspace)},
            {"operations", std::move(operations)},
            {"updated_at", checkpoint.rejected ? json(nullptr) : utf8(now)},
            {"dry_run", dry_run},
            {"files", std::move(files)}};
  if (dry_run && !checkpoint.rejected) {
    json entries = json::object();
    for (const auto& [name, text] : checkpoint.write.entries) entries[name] = utf8(text);
    data["entries"] = std::move(entries);
  }
  return detail::canonical_dump(data);
}

CuratedBatch parse_curated_batch(std::string_view text) {
  CuratedBatch out;
  const std::optional<json> value = detail::parse_strict_json(text, out.problem);
  if (!value) return out;
  if (!value->is_array()) {
    out.problem = "expected an array of operations, got " + std::string(value->type_name());
    return out;
  }
  for (std::size_t i = 0; i < value->size(); ++i) {
    std::optional<CuratedBatchItem> item = read_item((*value)[i], i, out.problem);
    if (!item) {
      out.items.clear();
      return out;
    }
    out.items.push_back(std::move(*item));
  }
  return out;
}

std::string curated_batch_json(std::string_view workspace,
                               const std::vector<CuratedBatchResult>& results) {
  std::set<std::string> written;
  json list = json::array();
  for (const CuratedBatchResult& r : results) {
    json item{{"index", r.index}, {"op", r.op}, {"name", utf8(r.name)}, {"result", r.result}};
    if (!r.error.empty()) item["error"] = r.error;
    list.push_back(std::move(item));
    written.insert(r.files.begin(), r.files.end());
  }
  json files = json::array();
  for (const std::string& path : written) files.push_back(utf8(path));
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"dry_run", false},
                                     {"files", std::move(files)},
                                     {"results", std::move(list)}});
}

}  // namespace memkit
