// JSON for reports and the envelope.
#include <fmt/format.h>

#include "codec/canonical.hpp"
#include "json/json.hpp"

namespace memkit {

using detail::utf8;
using nlohmann::json;

std::string json_string(std::string_view text) {
  std::string out;
  detail::append_json_string(out, text);
  return out;
}

std::string envelope_json(std::string_view command, std::string_view data_json,
                          const std::vector<Finding>& findings) {
  std::string out;
  write_envelope_json(
      command, [&](const TextSink& sink) { sink(data_json); }, findings,
      [&](std::string_view piece) { out += piece; });
  return out;
}

void write_envelope_json(std::string_view command, const JsonWriter& write_data,
                         const std::vector<Finding>& findings, const TextSink& sink) {
  json list = json::array();
  for (const Finding& f : findings) {
    list.push_back(json{{"code", utf8(f.code)},
                        {"severity", std::string(severity_name(f.severity))},
                        {"fatal", f.fatal},
                        {"path", utf8(f.path)},
                        {"message", utf8(f.message)},
                        {"remediation", utf8(f.remediation)}});
  }
  // Keys in bytewise order; `data` is spliced in as the canonical text it already is.
  sink(R"({"command":)" + json_string(command) + R"(,"data":)");
  write_data(sink);
  sink(fmt::format(R"(,"exit_class":"{}","findings":{},"output_schema_version":1,"status":"{}"}})",
                   exit_class_name(derive_exit_class(findings)), detail::canonical_dump(list),
                   report_status_name(derive_status(findings))));
}

namespace detail {

void append_json_string(std::string& out, std::string_view text, bool known_valid) {
  static constexpr char kHex[] = "0123456789abcdef";
  // Almost every string is well-formed already; only the others are copied to be repaired.
  std::string repaired;
  std::string_view valid = text;
  if (!known_valid && find_invalid_utf8(text)) {
    repaired = to_valid_utf8(text);
    valid = repaired;
  }
  out += '"';
  // Runs that need no escape are copied whole.
  std::size_t start = 0;
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(valid.substr(start, i - start));
    start = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out += kHex[(c >> 4) & 0xF];
        out += kHex[c & 0xF];
    }
  }
  out.append(valid.substr(start));
  out += '"';
}

}  // namespace detail

// Streamed rather than built as a value tree: a large file has millions of units. Keys are
// written in their canonical (bytewise) order.
std::string document_json(const Document& doc) {
  if (!doc.parseable()) return R"({"sections":null,"units":null})";
  std::string out;
  out.reserve(64 * (doc.units().size() + doc.sections().size()) + 32);
  out += R"({"sections":[)";
  bool first = true;
  for (const Section& section : doc.sections()) {
    out += first ? "" : ",";
    first = false;
    out += R"({"first_line":)" + std::to_string(section.first_line) + R"(,"heading":)";
    if (const std::optional<std::string_view> heading = section_heading(doc, section)) {
      detail::append_json_string(out, *heading);
    } else {
      out += "null";
    }
    out += section.kind == SectionKind::preamble ? R"(,"kind":"preamble")" : R"(,"kind":"section")";
    out += R"(,"last_line":)" + std::to_string(section.last_line) + "}";
  }
  out += R"(],"units":[)";
  first = true;
  for (const Unit& unit : doc.units()) {
    out += first ? "" : ",";
    first = false;
    out += R"({"first_line":)" + std::to_string(unit.first_line) + R"(,"key":)";
    if (const std::optional<std::string> key = unit_key(doc, unit)) {
      detail::append_json_string(out, *key);
    } else {
      out += "null";
    }
    out += R"(,"kind":")";
    out += unit_kind_name(unit.kind);
    out += R"(","last_line":)" + std::to_string(unit.last_line) + "}";
  }
  out += "]}";
  return out;
}

namespace {

json optional_number(const std::optional<std::uint64_t>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace

std::string status_json(const StatusReport& report) {
  json files = json::array();
  for (const FileStatus& f : report.files) {
    json long_decisions = json::array();
    for (const custodian::DecisionEntry& d : f.long_decisions) {
      long_decisions.push_back(
          json{{"title", utf8(d.title)}, {"line", d.line}, {"tokens", d.tokens}});
    }
    json row{{"path", utf8(f.path)},
             {"exists", f.exists},
             {"tokens", optional_number(f.tokens)},
             {"limit", optional_number(f.limit)},
             {"state", std::string(file_state_name(f.state))},
             {"long_decisions", long_decisions},
             {"needs_curation", f.needs_curation}};
    if (f.path == "inbox.md") {
      row["items"] = optional_number(f.items);
      row["compaction_recommended"] = f.compaction_recommended;
    }
    if (f.path == "decisions.md" || f.path == "do-not-use.md") {
      row["entries"] = optional_number(f.entries);
    }
    files.push_back(std::move(row));
  }
  return detail::canonical_dump(
      json{{"memory_dir", utf8(report.memory_dir)},
           {"protocol_version",
            report.protocol_version ? utf8(*report.protocol_version) : json(nullptr)},
           {"files", files},
           {"archive_files", report.archive_files}});
}

std::string check_json(const CheckReport& report) {
  return detail::canonical_dump(json{{"memory_dir", utf8(report.memory_dir)},
                                     {"check_status", report.passed ? "OK" : "FAILED"}});
}

std::string init_json(const InitResult& result) {
  json created = json::array();
  for (const std::string& path : result.created) created.push_back(utf8(path));
  json existing = json::array();
  for (const std::string& path : result.existing) existing.push_back(utf8(path));
  return detail::canonical_dump(json{{"memory_dir", utf8(result.memory_dir)},
                                     {"created", created},
                                     {"existing", existing},
                                     {"written", created}});
}

namespace {

json plan_value(const Plan& plan) {
  json operations = json::array();
  for (const PlanOperation& op : plan.operations()) {
    json row{{"path", utf8(op.path)}, {"operation", std::string(operation_kind_name(op.kind))}};
    if (!plan.sensitive()) {
      row["base_sha256"] = to_hex(op.base_sha256());
      row["expected_output_sha256"] = to_hex(op.output_sha256());
    }
    operations.push_back(std::move(row));
  }
  json budgets = json::array();
  for (const BudgetResult& b : plan.budget_results()) {
    budgets.push_back(json{{"path", utf8(b.path)},
                           {"before", b.before},
                           {"after", b.after},
                           {"limit", b.limit},
                           {"state", std::string(budget_state_name(b.state))}});
  }
  return json{{"plan_id", plan.id()},
              {"operations", operations},
              {"budget_results", budgets},
              {"sensitive", plan.sensitive()}};
}

}  // namespace

std::string recovery_json(const Recovery& recovery) {
  json transactions = json::array();
  for (const Transaction& t : recovery.transactions) {
    json targets = json::array();
    for (const TransactionTarget& target : t.targets) {
      targets.push_back(json{{"path", utf8(target.path)},
                             {"state", std::string(target_state_name(target.state))}});
    }
    transactions.push_back(json{{"txid", utf8(t.txid)},
                                {"phase", utf8(t.phase)},
                                {"command", utf8(t.command)},
                                {"targets", targets},
                                {"complete_safe", t.complete_safe},
                                {"rollback_safe", t.rollback_safe}});
  }
  json written = json::array();
  for (const std::string& path : recovery.written) written.push_back(utf8(path));
  return detail::canonical_dump(
      json{{"transactions", transactions},
           {"recovery_status", recovery.clean() ? "clean" : "recovery-required"},
           {"written", written}});
}

std::string plan_json(const Plan& plan) { return detail::canonical_dump(plan_value(plan)); }

// Streamed: an inbox can hold millions of candidates. Keys in canonical (bytewise) order.
std::string inbox_compaction_json(const InboxCompaction& report, bool applied,
                                  const std::vector<std::string>& written) {
  std::string out;
  write_inbox_compaction_json(report, applied, written,
                              [&](std::string_view piece) { out += piece; });
  return out;
}

void write_inbox_compaction_json(const InboxCompaction& report, bool applied,
                                 const std::vector<std::string>& written, const TextSink& sink,
                                 std::optional<std::uint64_t> limit) {
  constexpr std::size_t kPiece = std::size_t{64} << 10;
  std::string out;
  out.reserve(kPiece + 4096);
  out += R"({"applied":)";
  out += applied ? "true" : "false";
  out += R"(,"candidates":[)";
  bool first = true;
  const bool valid = report.candidates.valid_utf8();
  report.candidates.for_each([&](const Candidate& c) {
    if (limit && c.index > *limit) return false;
    out += first ? R"({"continuation":[)" : R"(,{"continuation":[)";
    first = false;
    for (std::size_t i = 0; i < c.continuation.size(); ++i) {
      if (i > 0) out += ',';
      detail::append_json_string(out, c.continuation[i], valid);
    }
    out += R"(],"index":)";
    out += std::to_string(c.index);
    out += R"(,"label":)";
    detail::append_json_string(out, c.label, valid);
    out += R"(,"line":)";
    out += std::to_string(c.line);
    out += '}';
    if (out.size() >= kPiece) {
      sink(out);
      out.clear();
    }
    return true;
  });
  out += R"(],"duplicates":)" + std::to_string(report.duplicates);
  out += R"(,"empty_items":)" + std::to_string(report.empty_items);
  out += R"(,"inbox_items":)" + std::to_string(report.inbox_items);
  out += R"(,"memory_dir":)";
  detail::append_json_string(out, report.memory_dir);
  out += R"(,"mode":"inbox","plan":)";
  out += report.plan ? detail::canonical_dump(plan_value(*report.plan)) : "null";
  out += R"(,"protocol_version":)";
  if (report.protocol_version) {
    detail::append_json_string(out, *report.protocol_version);
  } else {
    out += "null";
  }
  out += R"(,"tombstone_matches":)" + std::to_string(report.tombstone_matches);
  out += R"(,"written":[)";
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (i > 0) out += ',';
    detail::append_json_string(out, written[i]);
  }
  out += "]}";
  sink(out);
}

std::string target_compaction_json(const TargetCompaction& report, bool applied,
                                   const std::vector<std::string>& written) {
  auto decisions = [](const std::vector<custodian::DecisionEntry>& list) {
    json out = json::array();
    for (const custodian::DecisionEntry& d : list) {
      out.push_back(json{{"title", utf8(d.title)}, {"tokens", d.tokens}});
    }
    return out;
  };
  json paths = json::array();
  for (const std::string& path : written) paths.push_back(utf8(path));
  json data{{"mode", "target"},
            {"protocol_version",
             report.protocol_version ? utf8(*report.protocol_version) : json(nullptr)},
            {"memory_dir", utf8(report.memory_dir)},
            {"target", utf8(report.target)},
            {"tokens", report.tokens},
            {"limit", report.limit},
            {"state", std::string(budget_state_name(report.state))},
            {"long_decisions", decisions(report.long_decisions)},
            {"action", std::string(target_action_name(report.action))},
            {"reason", utf8(report.reason)},
            {"plan", report.plan ? plan_value(*report.plan) : json(nullptr)},
            {"applied", applied},
            {"written", paths}};
  json preview = nullptr;
  if (report.maintenance_preview) {
    preview = json::array();
    for (const std::string& advice : *report.maintenance_preview) preview.push_back(advice);
  }
  data["maintenance_preview"] = preview;
  if (report.action == TargetAction::dedupe) {
    data["duplicates_removed"] = report.duplicates_removed;
    data["projected_tokens"] = report.projected_tokens.value_or(0);
  }
  if (report.action == TargetAction::archive) {
    data["keep_entries"] = report.keep_entries;
    data["archive_entries"] = report.archive_entries;
    data["archive_path"] = utf8(report.archive_path);
    data["projected_tokens"] = report.projected_tokens.value_or(0);
    data["kept_long_decisions"] = decisions(report.kept_long_decisions);
  }
  return detail::canonical_dump(data);
}

std::string undo_json(const UndoPlanning& undo, bool applied,
                      const std::vector<std::string>& written) {
  json targets = json::array();
  for (const TransactionTarget& t : undo.targets) {
    targets.push_back(
        json{{"path", utf8(t.path)}, {"state", std::string(target_state_name(t.state))}});
  }
  json paths = json::array();
  for (const std::string& path : written) paths.push_back(utf8(path));
  return detail::canonical_dump(json{{"undone_plan_id", utf8(undo.undone_plan_id)},
                                     {"targets", targets},
                                     {"plan", undo.plan ? plan_value(*undo.plan) : json(nullptr)},
                                     {"applied", applied},
                                     {"written", paths}});
}

std::string add_json(const AddPlanning& add, const std::vector<std::string>& written) {
  json paths = json::array();
  for (const std::string& path : written) paths.push_back(utf8(path));
  json data{{"type", add.type}, {"target", utf8(add.target)}, {"written", paths}};
  data["budget_result"] =
      add.budget_result ? json{{"path", utf8(add.budget_result->path)},
                               {"tokens", add.budget_result->after},
                               {"limit", add.budget_result->limit},
                               {"state", std::string(budget_state_name(add.budget_result->state))}}
                        : json(nullptr);
  if (add.type == "decision") {
    data["decision_entry_tokens"] =
        add.decision_entry_tokens ? json(*add.decision_entry_tokens) : json(nullptr);
  }
  json preview = nullptr;
  if (add.maintenance_preview) {
    preview = json{{"required", add.maintenance_preview->required},
                   {"advice", add.maintenance_preview->advice},
                   {"command", add.maintenance_preview->command}};
  }
  data["maintenance_preview"] = preview;
  return detail::canonical_dump(data);
}

std::string forget_json(const ForgetPlanning& forget, bool applied,
                        const std::vector<std::string>& written) {
  auto strings = [](const std::vector<std::string>& list) {
    json out = json::array();
    for (const std::string& s : list) out.push_back(utf8(s));
    return out;
  };
  json matches = json::array();
  for (const ForgetMatch& m : forget.matches) {
    matches.push_back(json{{"path", utf8(m.path)}, {"summary", utf8(m.summary)}});
  }
  json blockers = json::array();
  for (const ForgetBlocker& b : forget.blockers) {
    blockers.push_back(json{{"path", utf8(b.path)}, {"kind", b.kind}});
  }
  return detail::canonical_dump(
      json{{"mode", std::string(forget_mode_name(forget.mode))},
           {"searched_files", strings(forget.searched_files)},
           {"matched_files", strings(forget.matched_files)},
           {"matches", matches},
           {"tombstones_matched", forget.tombstones_matched},
           {"tombstone_action", forget.tombstone_action},
           {"changelog", forget.changelog},
           {"broad", json{{"required", forget.broad}, {"reasons", strings(forget.broad_reasons)}}},
           {"blockers", blockers},
           {"plan", forget.plan ? plan_value(*forget.plan) : json(nullptr)},
           {"applied", applied},
           {"written", strings(written)}});
}

}  // namespace memkit
