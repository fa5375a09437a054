// The shared vectors (tests/vectors/README.md) run through the C ABI alone: every step calls the
// mk_* functions a binding calls, and its typed values and JSON bytes must equal what the CLI
// wrote. C++ only for reading case.json and copying folders; nothing here calls the C++ library.
#include <memkit.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

int failures = 0;

void fail(const std::string& where, const std::string& what) {
  std::cerr << where << ": " << what << " (last error: " << mk_last_error_message() << ")\n";
  ++failures;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string take(mk_buf& buf) {
  std::string text(buf.ptr == nullptr ? "" : std::string(buf.ptr, buf.size));
  mk_buf_dispose(&buf);
  return text;
}

const char* str_or_null(const json& step, const char* key) {
  return step.contains(key) && step[key].is_string()
             ? step[key].get_ref<const std::string&>().c_str()
             : nullptr;
}

bool flag(const json& step, const char* key) {
  return step.contains(key) && step[key].is_boolean() && step[key].get<bool>();
}

// A gate step's judge: `answers` maps a gate's name to the host's answer (mk_gate's forms); a
// gate it lacks is abstained from. The question must be JSON naming the gate asked.
struct GateJudge {
  const json* answers;
  std::string problem;  // the first thing wrong with a question, reported after the call
};

constexpr const char* kGateNames[] = {"VALUE", "ALIGNMENT", "REDUNDANCY", "FRESHNESS", "PLACEMENT"};

extern "C" std::int32_t judge_from_answers(mk_gate gate, const char* question,
                                           std::size_t question_size, mk_write_fn answer,
                                           void* answer_payload, void* payload) {
  auto& judge = *static_cast<GateJudge*>(payload);
  try {  // nothing may unwind into the library
    if (gate < MK_GATE_VALUE || gate > MK_GATE_PLACEMENT) {
      judge.problem = "asked about gate " + std::to_string(gate);
      return MK_E_CALLBACK;
    }
    const std::string name = kGateNames[gate];
    const json asked = json::parse(std::string(question, question_size));
    if (asked.at("gate") != name && judge.problem.empty()) {
      judge.problem = "the question for " + name + " names gate " + asked.at("gate").dump();
    }
    const auto said = judge.answers->find(name);
    if (said == judge.answers->end()) return MK_JUDGE_ABSTAIN;
    const std::string& text = said->get_ref<const std::string&>();
    if (answer(text.data(), text.size(), answer_payload) != MK_OK) return MK_E_CALLBACK;
    return MK_JUDGE_ANSWER;
  } catch (const std::exception& e) {
    if (judge.problem.empty()) judge.problem = std::string("judge: ") + e.what();
    return MK_E_CALLBACK;
  }
}

// The CLI name of each mk_tiers_command, in the order of its values.
constexpr const char* kTiersCommands[] = {
    "init",        "session-init", "log-turn",    "read-logs",      "persist-turn",
    "write-theme", "read-theme",   "read-global", "write-global",   "list-themes",
    "write-data",  "read-data",    "list-data",   "archive-themes", "template"};
static_assert(sizeof kTiersCommands / sizeof kTiersCommands[0] == MK_TIERS_TEMPLATE + 1);

// Sets an options struct's fields from a step's `args`: a string for a text field, an integer for
// an int64 one, true for a flag, and the resolved Plan ID for `confirm_key` (confirm_plan_id of
// tiers and curated, confirm_plan of sync). A key that is no field, or a value of the wrong
// kind, is the case's mistake: reported, and false.
bool fill_arguments(const json& step, const std::string& where, std::string_view group,
                    std::span<const std::pair<const char*, const char**>> texts,
                    std::span<const std::pair<const char*, std::int64_t*>> numbers,
                    std::span<const std::pair<const char*, std::int32_t*>> flags,
                    std::string_view confirm_key, const char** confirm_field,
                    const std::string& confirm_plan_id) {
  if (!step.contains("args")) return true;
  for (const auto& [key, value] : step.at("args").items()) {
    bool known = false;
    if (key == confirm_key && value.is_string()) {
      *confirm_field = confirm_plan_id.c_str();
      known = true;
    }
    for (const auto& [name, field] : texts) {
      if (key == name && value.is_string()) {
        *field = value.get_ref<const std::string&>().c_str();
        known = true;
      }
    }
    for (const auto& [name, field] : numbers) {
      if (key == name && value.is_number_integer()) {
        *field = value.get<std::int64_t>();
        known = true;
      }
    }
    for (const auto& [name, field] : flags) {
      if (key == name && value.is_boolean() && value.get<bool>()) {
        *field = 1;
        known = true;
      }
    }
    if (!known) {
      fail(where, std::string(group) + " argument " + key + " = " + value.dump());
      return false;
    }
  }
  return true;
}

// A tiers step: its `args` keys are mk_tiers_options field names (fill_arguments); a mistake in
// them is MK_E_ARG.
mk_status run_tiers(mk_result** result, mk_workspace* ws, const mk_clock& now, const json& step,
                    const std::string& confirm_plan_id, const std::string& where) {
  const std::string command = step.at("command").get<std::string>();
  mk_tiers_command number = -1;
  for (std::size_t i = 0; i < sizeof kTiersCommands / sizeof kTiersCommands[0]; ++i) {
    if (command == kTiersCommands[i]) number = static_cast<mk_tiers_command>(i);
  }
  if (number < 0) {
    fail(where, "unknown tiers command " + command);
    return MK_E_ARG;
  }
  mk_tiers_options opts;
  mk_tiers_options_init(&opts);
  const std::pair<const char*, const char**> texts[] = {
      {"content", &opts.content},
      {"raw_content", &opts.raw_content},
      {"extracted_content", &opts.extracted_content},
      {"theme", &opts.theme},
      {"template_name", &opts.template_name},
      {"title", &opts.title},
      {"entry_type", &opts.entry_type},
      {"session_id", &opts.session_id},
      {"tools_json", &opts.tools_json},
      {"name", &opts.name},
      {"csv_content", &opts.csv_content},
      {"source_file", &opts.source_file},
      {"description", &opts.description},
      {"source_label", &opts.source_label},
      {"columns_json", &opts.columns_json}};
  const std::pair<const char*, std::int64_t*> numbers[] = {{"recent_days", &opts.recent_days},
                                                           {"theme_limit", &opts.theme_limit},
                                                           {"max_tokens", &opts.max_tokens},
                                                           {"days_back", &opts.days_back},
                                                           {"limit", &opts.limit},
                                                           {"hours_back", &opts.hours_back},
                                                           {"head", &opts.head},
                                                           {"days", &opts.days}};
  const std::pair<const char*, std::int32_t*> flags[] = {{"no_log", &opts.no_log},
                                                         {"promote_global", &opts.promote_global},
                                                         {"append", &opts.append},
                                                         {"replace", &opts.replace}};
  if (!fill_arguments(step, where, "tiers", texts, numbers, flags, "confirm_plan_id",
                      &opts.confirm_plan_id, confirm_plan_id)) {
    return MK_E_ARG;
  }
  return mk_tiers_run(result, ws, &now, number, &opts);
}

// The CLI words of each mk_curated_command, in the order of its values.
constexpr const char* kCuratedCommands[] = {
    "add",    "append",    "edit",        "reclassify",   "link",         "unlink",
    "delete", "restore",   "checkpoint",  "batch",        "get-relevant", "kernel",
    "show",   "list",      "search",      "stats",        "conflicts",    "lineage",
    "story",  "event add", "episode add", "episode show", "floors prune", "telemetry compact",
    "recover"};
static_assert(sizeof kCuratedCommands / sizeof kCuratedCommands[0] == MK_CURATED_RECOVER + 1);

// A curated step: its `args` keys are mk_curated_options field names, as for tiers.
mk_status run_curated(mk_result** result, mk_workspace* ws, const mk_clock& now, const json& step,
                      const std::string& confirm_plan_id, const std::string& where) {
  const std::string command = step.at("command").get<std::string>();
  mk_curated_command number = -1;
  for (std::size_t i = 0; i < sizeof kCuratedCommands / sizeof kCuratedCommands[0]; ++i) {
    if (command == kCuratedCommands[i]) number = static_cast<mk_curated_command>(i);
  }
  if (number < 0) {
    fail(where, "unknown curated command " + command);
    return MK_E_ARG;
  }
  mk_curated_options opts;
  mk_curated_options_init(&opts);
  const std::pair<const char*, const char**> texts[] = {{"workspace", &opts.workspace},
                                                        {"actor", &opts.actor},
                                                        {"name", &opts.name},
                                                        {"dst", &opts.dst},
                                                        {"query", &opts.query},
                                                        {"id", &opts.id},
                                                        {"type", &opts.type},
                                                        {"body", &opts.body},
                                                        {"body_file", &opts.body_file},
                                                        {"description", &opts.description},
                                                        {"row_class", &opts.row_class},
                                                        {"status", &opts.status},
                                                        {"initiative", &opts.initiative},
                                                        {"project_ref", &opts.project_ref},
                                                        {"audience", &opts.audience},
                                                        {"origin_session", &opts.origin_session},
                                                        {"field", &opts.field},
                                                        {"content", &opts.content},
                                                        {"kind", &opts.kind},
                                                        {"file", &opts.file},
                                                        {"sort", &opts.sort},
                                                        {"order", &opts.order},
                                                        {"scope", &opts.scope},
                                                        {"threshold", &opts.threshold},
                                                        {"before", &opts.before},
                                                        {"source", &opts.source},
                                                        {"agent", &opts.agent},
                                                        {"result", &opts.result},
                                                        {"severity", &opts.severity},
                                                        {"payload", &opts.payload}};
  const std::pair<const char*, std::int64_t*> numbers[] = {
      {"max_chars", &opts.max_chars}, {"limit", &opts.limit}, {"max_depth", &opts.max_depth}};
  const std::pair<const char*, std::int32_t*> flags[] = {{"dry_run", &opts.dry_run},
                                                         {"links", &opts.links},
                                                         {"history", &opts.history},
                                                         {"include_deleted", &opts.include_deleted},
                                                         {"yes", &opts.yes},
                                                         {"hard", &opts.hard},
                                                         {"delete_link", &opts.delete_link},
                                                         {"apply", &opts.apply},
                                                         {"rollback", &opts.rollback}};
  if (!fill_arguments(step, where, "curated", texts, numbers, flags, "confirm_plan_id",
                      &opts.confirm_plan_id, confirm_plan_id)) {
    return MK_E_ARG;
  }
  return mk_curated_run(result, ws, &now, number, &opts);
}

// The CLI verb of each mk_sync_command, in the order of its values.
constexpr const char* kSyncCommands[] = {"pull", "push", "status", "resolve"};
static_assert(sizeof kSyncCommands / sizeof kSyncCommands[0] == MK_SYNC_RESOLVE + 1);

// A sync step: its `args` keys are mk_sync_options field names, as for tiers.
mk_status run_sync(mk_result** result, mk_workspace* ws, const mk_clock& now, const json& step,
                   const std::string& confirm_plan, const std::string& where) {
  const std::string command = step.at("command").get<std::string>();
  mk_sync_command number = -1;
  for (std::size_t i = 0; i < sizeof kSyncCommands / sizeof kSyncCommands[0]; ++i) {
    if (command == kSyncCommands[i]) number = static_cast<mk_sync_command>(i);
  }
  if (number < 0) {
    fail(where, "unknown sync command " + command);
    return MK_E_ARG;
  }
  mk_sync_options opts;
  mk_sync_options_init(&opts);
  const std::pair<const char*, const char**> texts[] = {{"remote", &opts.remote},
                                                        {"conninfo", &opts.conninfo},
                                                        {"workspace_id", &opts.workspace_id},
                                                        {"id", &opts.id},
                                                        {"take", &opts.take}};
  const std::pair<const char*, std::int32_t*> flags[] = {{"apply", &opts.apply}};
  if (!fill_arguments(step, where, "sync", texts, {}, flags, "confirm_plan", &opts.confirm_plan,
                      confirm_plan)) {
    return MK_E_ARG;
  }
  return mk_memorybox_sync(result, ws, &now, number, &opts);
}

// Runs one command step; returns the result (nullptr after reporting a failure).
mk_result* run_step(mk_workspace* ws, const mk_clock& now, const json& step,
                    const std::vector<std::string>& plan_ids, const std::string& where) {
  // A value "$N" is the Plan ID step N returned.
  auto ref_of = [&](const json& holder, const char* key) -> std::string {
    const std::string value = holder.at(key).get<std::string>();
    if (!value.empty() && value[0] == '$') return plan_ids.at(std::stoul(value.substr(1)) - 1);
    return value;
  };
  auto ref = [&](const char* key) { return ref_of(step, key); };
  const std::string op = step.at("op").get<std::string>();
  mk_result* result = nullptr;
  mk_status status = MK_E_INTERNAL;
  mk_compact_options compact;
  mk_compact_options_init(&compact);
  compact.target = str_or_null(step, "target");
  if (flag(step, "archive_oldest")) compact.flags |= MK_COMPACT_ARCHIVE_OLDEST;
  mk_forget_options forget;
  mk_forget_options_init(&forget);
  if (step.contains("mode")) {
    const std::string mode = step["mode"].get<std::string>();
    forget.mode = mode == "hard"    ? MK_FORGET_HARD
                  : mode == "purge" ? MK_FORGET_PURGE
                                    : MK_FORGET_SOFT;
  }
  if (flag(step, "allow_broad_match")) forget.flags |= MK_FORGET_ALLOW_BROAD_MATCH;
  const std::string topic = step.value("topic", "");
  if (op == "init") {
    status = mk_workspace_init(&result, ws, &now, flag(step, "extended") ? MK_INIT_EXTENDED : 0);
  } else if (op == "status") {
    status = mk_workspace_status(&result, ws, &now);
  } else if (op == "load") {
    status = mk_workspace_load(&result, ws, &now, step.value("tier", 0), str_or_null(step, "file"),
                               flag(step, "include_archive") ? MK_LOAD_INCLUDE_ARCHIVE : 0);
  } else if (op == "update") {
    mk_update_options update;
    mk_update_options_init(&update);
    const std::string event = step.at("event").get<std::string>();
    update.event = event == "confirm"        ? MK_UPDATE_CONFIRM
                   : event == "contradict"   ? MK_UPDATE_CONTRADICT
                   : event == "resolve_keep" ? MK_UPDATE_RESOLVE_KEEP
                                             : MK_UPDATE_VERIFY;
    update.note = str_or_null(step, "note");
    if (step.contains("confidence")) update.confidence = step["confidence"].get<int>();
    status = mk_workspace_update(&result, ws, &now, step.at("entry").get<std::string>().c_str(),
                                 &update);
  } else if (op == "gate") {
    mk_gate_candidate candidate;
    mk_gate_candidate_init(&candidate);
    const std::string text = step.at("text").get<std::string>();
    candidate.text = text.data();
    candidate.text_size = text.size();
    candidate.confidence = str_or_null(step, "confidence");
    candidate.title = str_or_null(step, "title");
    candidate.source = str_or_null(step, "source");
    candidate.client = str_or_null(step, "client");
    const json answers = step.value("answers", json::object());
    GateJudge judge{&answers, {}};
    status = mk_workspace_gate(&result, ws, &now, &candidate, judge_from_answers, &judge,
                               flag(step, "apply") ? MK_GATE_APPLY : 0);
    if (!judge.problem.empty()) fail(where, judge.problem);
  } else if (op == "plan_memorybox_compact" || op == "apply_memorybox_compact") {
    const std::uint32_t flags = flag(step, "force") ? MK_MEMORYBOX_COMPACT_FORCE : 0;
    status = op == "plan_memorybox_compact"
                 ? mk_workspace_plan_memorybox_compact(&result, ws, &now, str_or_null(step, "file"),
                                                       flags)
                 : mk_workspace_apply_memorybox_compact(
                       &result, ws, &now, str_or_null(step, "file"), flags, ref("confirm").c_str());
  } else if (op == "plan_promote") {
    status = mk_workspace_plan_promote(&result, ws, &now, str_or_null(step, "entry"));
  } else if (op == "apply_promote") {
    status = mk_workspace_apply_promote(&result, ws, &now, str_or_null(step, "entry"),
                                        ref("confirm").c_str());
  } else if (op == "plan_archive_entry") {
    status = mk_workspace_plan_archive_entry(&result, ws, &now, str_or_null(step, "entry"));
  } else if (op == "apply_archive_entry") {
    status = mk_workspace_apply_archive_entry(&result, ws, &now, str_or_null(step, "entry"),
                                              ref("confirm").c_str());
  } else if (op == "hygiene") {
    status = mk_workspace_hygiene(&result, ws, &now);
  } else if (op == "decay") {
    status = mk_workspace_decay(&result, ws, &now, str_or_null(step, "file"));
  } else if (op == "check") {
    status = mk_workspace_check(&result, ws, &now);
  } else if (op == "plan_compaction") {
    status = mk_workspace_plan_compaction(&result, ws, &now, &compact);
  } else if (op == "apply_compaction") {
    status = mk_workspace_apply_compaction(&result, ws, &now, &compact, ref("confirm").c_str());
  } else if (op == "add") {
    mk_add_options add;
    mk_add_options_init(&add);
    add.type = str_or_null(step, "type");
    add.reason = str_or_null(step, "reason");
    add.name = str_or_null(step, "name");
    add.area = str_or_null(step, "area");
    if (flag(step, "allow_long")) add.flags |= MK_ADD_ALLOW_LONG;
    const std::string message = step.at("message").get<std::string>();
    status = mk_workspace_add(&result, ws, &now, message.data(), message.size(), &add);
  } else if (op == "plan_forget") {
    status = mk_workspace_plan_forget(&result, ws, &now, topic.data(), topic.size(), &forget);
  } else if (op == "apply_forget") {
    status = mk_workspace_apply_forget(&result, ws, &now, topic.data(), topic.size(), &forget,
                                       ref("confirm").c_str());
  } else if (op == "plan_undo") {
    status = mk_workspace_plan_undo(&result, ws, &now, ref("plan_id").c_str());
  } else if (op == "apply_undo") {
    status =
        mk_workspace_apply_undo(&result, ws, &now, ref("plan_id").c_str(), ref("confirm").c_str());
  } else if (op == "tiers") {
    const json args = step.value("args", json::object());
    const std::string confirm =
        args.contains("confirm_plan_id") ? ref_of(args, "confirm_plan_id") : std::string();
    status = run_tiers(&result, ws, now, step, confirm, where);
  } else if (op == "curated") {
    const json args = step.value("args", json::object());
    const std::string confirm =
        args.contains("confirm_plan_id") ? ref_of(args, "confirm_plan_id") : std::string();
    status = run_curated(&result, ws, now, step, confirm, where);
  } else if (op == "sync") {
    const json args = step.value("args", json::object());
    const std::string confirm =
        args.contains("confirm_plan") ? ref_of(args, "confirm_plan") : std::string();
    status = run_sync(&result, ws, now, step, confirm, where);
  } else if (op == "recover") {
    std::uint32_t flags = flag(step, "apply") ? MK_RECOVER_APPLY : 0;
    if (flag(step, "rollback")) flags |= MK_RECOVER_ROLLBACK;
    status = mk_workspace_recover(&result, ws, &now, flags);
  } else {
    fail(where, "unknown op " + op);
    return nullptr;
  }
  if (status != MK_OK) {
    fail(where, std::string("status ") + mk_status_name(status));
    return nullptr;
  }
  return result;
}

void check_result(mk_result* result, const json& expect, const fs::path& case_dir,
                  const std::string& where) {
  if (mk_result_exit_code(result) != expect.at("exit_code").get<int>()) {
    fail(where, "exit code " + std::to_string(mk_result_exit_code(result)));
  }
  const char* id = mk_result_plan_id(result);
  const json got_id = id == nullptr ? json(nullptr) : json(id);
  if (got_id != expect.at("plan_id")) fail(where, "plan_id " + got_id.dump());
  if ((mk_result_applied(result) == 1) != expect.at("applied").get<bool>()) {
    fail(where, "applied " + std::to_string(mk_result_applied(result)));
  }
  mk_inbox_counts counts{};
  const mk_status counted = mk_result_inbox_counts(&counts, result);
  if (expect.contains("inbox_counts")) {
    const json& c = expect["inbox_counts"];
    if (counted != MK_OK || counts.inbox_items != c["inbox_items"] ||
        counts.empty_items != c["empty_items"] || counts.duplicates != c["duplicates"] ||
        counts.tombstone_matches != c["tombstone_matches"] ||
        counts.candidates != c["candidates"]) {
      fail(where, "inbox counts");
    }
  } else if (counted != MK_E_NOT_FOUND) {
    fail(where, "inbox counts where none were expected");
  }
  if (expect.contains("budget_rows")) {
    const json& rows = expect["budget_rows"];
    if (mk_result_budget_row_count(result) != rows.size()) fail(where, "budget row count");
    for (std::size_t i = 0; i < rows.size() && i < mk_result_budget_row_count(result); ++i) {
      mk_budget_row row{};
      if (mk_result_budget_row(&row, result, i) != MK_OK || rows[i]["path"] != row.path ||
          rows[i]["tokens"] != row.tokens || rows[i]["limit"] != row.limit ||
          rows[i]["state"] != row.state) {
        fail(where, "budget row " + std::to_string(i));
      }
    }
  }
  mk_buf buf{nullptr, 0};
  if (mk_result_json(&buf, result) != MK_OK) fail(where, "mk_result_json");
  const std::string got = take(buf);
  const std::string expected = read_file(case_dir / expect.at("json").get<std::string>());
  if (got != expected) fail(where, "JSON differs:\n  expected " + expected + "\n  got      " + got);
}

void run_case(const fs::path& case_dir, const fs::path& scratch) {
  const json c = json::parse(read_file(case_dir / "case.json"));
  const fs::path root = scratch / case_dir.filename();
  fs::remove_all(root);
  fs::copy(case_dir / "files", root, fs::copy_options::recursive);
  mk_clock now{};
  if (mk_clock_parse(&now, c.at("clock").get<std::string>().c_str()) != MK_OK) {
    fail(case_dir.filename().string(), "clock");
    return;
  }
  mk_workspace* ws = nullptr;
  mk_workspace_options options;
  mk_workspace_options_init(&options);
  const std::string layout = c.value("layout", "custodian");
  if (layout == "memorybox") options.layout = MK_LAYOUT_MEMORYBOX;
  if (layout == "tiers") options.layout = MK_LAYOUT_TIERS;
  if (layout == "curated") options.layout = MK_LAYOUT_CURATED;
  if (mk_workspace_open(&ws, root.c_str(), &options) != MK_OK) {
    fail(case_dir.filename().string(), "mk_workspace_open");
    return;
  }
  std::vector<std::string> plan_ids;
  std::size_t n = 0;
  for (const json& step : c.at("steps")) {
    const std::string where = case_dir.filename().string() + " step " + std::to_string(++n);
    const json& expect = step.at("expect");
    if (step.at("op") == "units") {
      const std::string bytes = read_file(root / step.at("file").get<std::string>());
      mk_document* doc = nullptr;
      mk_buf buf{nullptr, 0};
      if (mk_document_parse(&doc, bytes.data(), bytes.size()) != MK_OK ||
          mk_document_json(&buf, doc) != MK_OK) {
        fail(where, "document");
      } else if (take(buf) != read_file(case_dir / expect.at("json").get<std::string>())) {
        fail(where, "document JSON differs");
      }
      mk_document_destroy(doc);
      plan_ids.emplace_back();
      continue;
    }
    // cli.py runs each step in the case's folder: a relative path the library resolves against
    // the working directory (curated --file, --body-file) must find the same file here.
    const fs::path cwd = fs::current_path();
    fs::current_path(root);
    mk_result* result = run_step(ws, now, step, plan_ids, where);
    fs::current_path(cwd);
    if (result == nullptr) {
      plan_ids.emplace_back();
      continue;
    }
    const char* id = mk_result_plan_id(result);
    plan_ids.emplace_back(id == nullptr ? "" : id);
    check_result(result, expect, case_dir, where);
    mk_result_destroy(result);
  }
  mk_workspace_destroy(ws);
  fs::remove_all(root);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: capi_vectors VECTORS_DIR SCRATCH_DIR\n";
    return 2;
  }
  const fs::path vectors = argv[1];
  const fs::path scratch = argv[2];
  fs::create_directories(scratch);
  int cases = 0;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(vectors)) {
    if (fs::exists(entry.path() / "case.json")) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& dir : dirs) {
    run_case(dir, scratch);
    ++cases;
  }
  std::cout << cases << " case(s), " << failures << " failure(s)\n";
  return failures == 0 && cases > 0 ? 0 : 1;
}
