// The shared vectors (tests/vectors/README.md) run through the C ABI alone: every step is a
// request, as a binding makes it, and its typed values and JSON bytes must equal what the CLI
// wrote. C++ only for reading case.json and copying folders; nothing here calls the C++ library.
#include <memkit.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
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
  std::cerr << where << ": " << what << " (last error: " << mk_error_message() << ")\n";
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

// Runs one command step as a request: `run` is "group verb" (or the group alone: "search"), each of `args` is set by its type (a
// string, an integer, true or false, a list of strings), "$N" being step N's Plan ID; a gate's
// `answers` are its judge's. Returns the result (nullptr after reporting a failure).
mk_result* run_step(mk_workspace* ws, const mk_clock& now, const json& step,
                    const std::vector<std::string>& plan_ids, const std::string& where) {
  const std::string run = step.at("run").get<std::string>();
  const std::size_t space = run.find(' ');
  mk_request* req = nullptr;
  const std::string verb = space == std::string::npos ? "" : run.substr(space + 1);  // "search"
  mk_status status = mk_request_create(&req, run.substr(0, space).c_str(), verb.c_str());
  const json args = step.value("args", json::object());
  for (const auto& [name, value] : args.items()) {
    if (status != MK_OK) break;
    if (value.is_boolean()) {
      status = mk_request_set_bool(req, name.c_str(), value.get<bool>() ? 1 : 0);
    } else if (value.is_number_integer()) {
      status = mk_request_set_int(req, name.c_str(), value.get<std::int64_t>());
    } else if (value.is_array()) {
      std::vector<std::string> items = value.get<std::vector<std::string>>();
      std::vector<const char*> pointers;
      for (const std::string& item : items) pointers.push_back(item.c_str());
      status = mk_request_set_list(req, name.c_str(), pointers.data(), pointers.size());
    } else {
      std::string text = value.get<std::string>();
      if (!text.empty() && text[0] == '$') text = plan_ids.at(std::stoul(text.substr(1)) - 1);
      status = mk_request_set_string(req, name.c_str(), text.c_str());
    }
  }
  const json answers = step.value("answers", json::object());
  GateJudge judge{&answers, {}};
  if (status == MK_OK && run == "memorybox gate") {
    status = mk_request_set_judge(req, judge_from_answers, &judge);
  }
  mk_result* result = nullptr;
  if (status == MK_OK) status = mk_workspace_run(&result, ws, &now, req);
  mk_request_destroy(req);
  if (!judge.problem.empty()) fail(where, judge.problem);
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
  mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION);
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
    if (step.value("op", "") == "units") {
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
