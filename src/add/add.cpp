// `add` (spec compaction.md §13): entries are inserted by the editing rules of §7.3, never by
// rewriting a file, and titles are never truncated where a match depends on them.
#include "memkit/add.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "compact/input_reader.hpp"
#include "memkit/compact.hpp"
#include "memkit/edit.hpp"
#include "memkit/layouts.hpp"
#include "memkit/text.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

Status bad(std::string message) { return Status(Errc::invalid_argument, std::move(message)); }

bool valid_name(std::string_view name) noexcept {
  if (name.empty()) return false;
  auto alnum = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  };
  if (!alnum(name[0])) return false;
  for (char c : name) {
    if (!alnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

std::string normalized_type(std::string_view type) {
  return type == "do-not-use" ? "tombstone" : std::string(type);
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (true) {
    const std::size_t lf = text.find('\n', pos);
    std::string_view line = text.substr(pos, lf == std::string_view::npos ? lf : lf - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    if (lf == std::string_view::npos) break;
    pos = lf + 1;
  }
  while (lines.size() > 1 && strip_w(lines.back()).empty()) lines.pop_back();
  return lines;
}

// A bullet whose later lines are indented by two spaces (blank lines stay blank), so the whole
// message stays one unit.
std::vector<std::string> bullet_lines(std::string_view message) {
  std::vector<std::string> lines = split_lines(strip_w(message));
  lines[0] = "- " + lines[0];
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (!strip_w(lines[i]).empty()) lines[i] = "  " + lines[i];
  }
  return lines;
}

// The tombstone of do-not-use.md whose key is the message's (as its bullet's, compaction.md §8:
// what compaction would remove from the inbox), or nullopt. An unparseable do-not-use.md is
// told (MK-PARSE-001 WARNING): its tombstones cannot be read.
std::optional<custodian::Tombstone> tombstoned(const CustodianInputs& inputs,
                                               std::string_view message,
                                               std::vector<Finding>& out) {
  const FileSnapshot* file = inputs.snapshot.find("do-not-use.md");
  if (file == nullptr || !file->exists()) return std::nullopt;
  const Document do_not_use = parse_markdown(file->bytes);
  if (const std::optional<TextIssue>& issue = do_not_use.parse_error()) {
    out.push_back(make_finding("MK-PARSE-001", Severity::warning, "do-not-use.md",
                               describe_issue(*issue, "do-not-use.md") +
                                   "; the message was not compared with its tombstones"));
    return std::nullopt;
  }
  std::string bullet;
  for (const std::string& line : bullet_lines(message)) bullet += line + "\n";
  const Document entry = parse_markdown(std::move(bullet));
  const std::optional<std::string> key =
      entry.units().empty() ? std::nullopt : unit_key(entry, entry.units()[0]);
  if (!key || key->empty()) return std::nullopt;
  for (custodian::Tombstone& t : custodian::tombstones(do_not_use)) {
    if (t.key == *key) return std::move(t);
  }
  return std::nullopt;
}

// Returns the code points of text cut to at most `limit`.
std::string cut_code_points(std::string_view text, std::size_t limit) {
  std::size_t pos = 0;
  for (std::size_t n = 0; n < limit && pos < text.size(); ++n) (void)decode_utf8(text, pos);
  return std::string(text.substr(0, pos));
}

std::string new_file_bytes(std::string_view target) {
  if (target == "decisions.md") return "# Decisions\n\nConfirmed decisions, newest first.\n";
  if (target == "do-not-use.md") return "# Do Not Use\n\nRejected paths and tombstones.\n";
  if (target == "inbox.md") return "# Memory Inbox\n\nNotes waiting for review.\n";
  if (target == "constraints.md") return "# Constraints\n\nHard requirements, one bullet each.\n";
  if (target == "preferences.md") return "# Preferences\n\nSoft preferences, one bullet each.\n";
  const std::size_t slash = target.find('/');
  const std::string_view folder = target.substr(0, slash);
  const std::string_view name = target.substr(slash + 1, target.size() - slash - 4);
  const char* scope = folder == "rules"      ? "Rule: %s\n\nRules for one kind of task"
                      : folder == "profiles" ? "Profile: %s\n\nRules for one way of working"
                                             : "Area: %s\n\nKnowledge about one part of the system";
  std::string text = "# " + std::string(scope);
  text.replace(text.find("%s"), 2, name);
  return text + "; load it only when the work matches.\n";
}

}  // namespace

Status validate_add(const AddRequest& request) {
  static const std::vector<std::string_view> kTypes = {"decision", "tombstone",  "do-not-use",
                                                       "inbox",    "constraint", "preference",
                                                       "rule",     "profile",    "area"};
  if (std::find(kTypes.begin(), kTypes.end(), request.type) == kTypes.end()) {
    return bad(
        "--type: expected decision, tombstone, inbox, constraint, preference, rule, "
        "profile or area, got '" +
        request.type + "'");
  }
  const std::string type = normalized_type(request.type);
  // Memory files are UTF-8 text: nothing that would make one unreadable is written.
  const std::pair<const char*, const std::optional<std::string>*> texts[] = {
      {"--reason", &request.reason}, {"--name", &request.name}, {"--area", &request.area}};
  if (Status text = check_plain_text("add: the message", request.message); !text.ok()) return text;
  for (const auto& [what, value] : texts) {
    if (*value) {
      if (Status text = check_plain_text(what, **value); !text.ok()) return text;
    }
  }
  if (strip_w(request.message).empty()) return bad("add: the message is empty");
  if (request.allow_long && type != "decision")
    return bad("--allow-long: only with --type decision");
  const bool module = type == "rule" || type == "profile" || type == "area";
  if (request.area) {
    if (type != "decision" && type != "constraint" && type != "preference" && type != "tombstone") {
      return bad("--area: only with decision, constraint, preference or tombstone");
    }
    if (request.name) return bad("--area: conflicts with --name");
    if (!valid_name(*request.area)) return bad("--area: invalid name '" + *request.area + "'");
  }
  if (module && !request.name) return bad("--name: required with --type " + type);
  if (request.name && !module) return bad("--name: only with rule, profile or area");
  if (request.name && !valid_name(*request.name)) {
    return bad("--name: invalid name '" + *request.name + "'");
  }
  if (type == "decision") {
    for (const std::string& line : split_lines(request.message)) {
      const bool h2 =
          line.rfind("##", 0) == 0 && (line.size() == 2 || line[2] == ' ' || line[2] == '\t');
      if (h2 || line == "Decision:" || line == "Reason:") {
        return bad("add: a decision message may not contain the line '" + line + "'");
      }
    }
  }
  return Status();
}

std::string add_target(const AddRequest& request) {
  const std::string type = normalized_type(request.type);
  if (request.area) return "areas/" + *request.area + ".md";
  if (type == "decision") return "decisions.md";
  if (type == "tombstone") return "do-not-use.md";
  if (type == "inbox") return "inbox.md";
  if (type == "constraint") return "constraints.md";
  if (type == "preference") return "preferences.md";
  const std::string folder = type == "rule" ? "rules" : type == "profile" ? "profiles" : "areas";
  return folder + "/" + *request.name + ".md";
}

AddPlanning plan_add(const CustodianInputs& inputs, const AddRequest& request,
                     const TokenCounter& counter, const ClockReading& now) {
  AddPlanning add;
  add.type = normalized_type(request.type);
  add.target = add_target(request);
  std::vector<Finding>& out = add.findings;
  detail::InputReader reader(inputs, out);
  std::optional<Document> manifest;
  if (!detail::start_planning(inputs, reader, out, manifest)) return add;
  std::optional<Document> target = reader.read(add.target, false, true);
  const std::optional<Document> changelog =
      add.target == "changelog.md" ? std::nullopt : reader.read("changelog.md", false, true);
  if (detail::blocked(out)) {
    sort_findings(out);
    return add;
  }
  // Seed 003: a topic listed in do-not-use.md is not resurrected; the user reverses a tombstone by
  // removing it.
  if (add.type != "tombstone") {
    if (const std::optional<custodian::Tombstone> t = tombstoned(inputs, request.message, out)) {
      out.push_back(make_finding(
          "MK-ADD-003", Severity::error, add.target,
          fmt::format("the message matches the tombstone '{}' at do-not-use.md:{}; nothing written",
                      shown_text(t->title), t->line),
          "tombstoned topics stay out of active memory; if the user reversed the decision, "
          "remove the tombstone from do-not-use.md first"));
      sort_findings(out);
      return add;
    }
  }
  const std::string today = now.local_date_iso();
  const bool created = !target.has_value();
  const auto base = created ? std::make_shared<const std::string>(new_file_bytes(add.target))
                            : inputs.snapshot.find(add.target)->bytes;
  const Document doc = created ? parse_markdown(base) : *target;

  std::vector<std::string> entry;
  Splice splice{0, 0, {}};
  if (add.type == "decision") {
    std::string title = cut_code_points(collapse_w(request.message), 72);
    if (title.empty()) title = "Untitled";
    entry.push_back("## " + today + " - " + title);
    entry.emplace_back("Decision:");
    for (std::string& line : split_lines(strip_w(request.message)))
      entry.push_back(std::move(line));
    if (request.reason) {
      entry.emplace_back("Reason:");
      for (std::string& line : split_lines(strip_w(*request.reason)))
        entry.push_back(std::move(line));
    }
    splice = insert_entry(doc, entry);
  } else if (add.type == "tombstone") {
    entry = {"## Tombstone: " + collapse_w(request.message),
             "Guard: keep this out of active memory unless the user reverses it.",
             "Reason: " + (request.reason ? collapse_w(*request.reason) : std::string("not given")),
             "Date: " + today};
    splice = insert_entry(doc, entry);
  } else if (add.type == "inbox") {
    entry = bullet_lines(request.message);
    splice = dated_bullet(doc, today, entry);  // one date heading per day, as in §11
  } else {
    entry = bullet_lines(request.message);
    splice = append_block(doc, entry, true);
  }

  // The entry's own size (§13 per-decision guide).
  std::string entry_text;
  for (const std::string& line : entry) entry_text += line + "\n";
  if (add.type == "decision") {
    add.decision_entry_tokens = counter.count(entry_text);
    if (*add.decision_entry_tokens > custodian::kDecisionEntryGuide && !request.allow_long) {
      out.push_back(make_finding(
          "MK-ADD-001", Severity::error, add.target,
          fmt::format("{}: the decision entry is {} tokens, over the {}-token guide", add.target,
                      *add.decision_entry_tokens, custodian::kDecisionEntryGuide),
          "shorten it, or pass --allow-long"));
      sort_findings(out);
      return add;
    }
    if (*add.decision_entry_tokens * 100 >= custodian::kDecisionEntryGuide * 80) {
      out.push_back(make_finding(
          "MK-ADD-002", Severity::warning, add.target,
          fmt::format("{}: the decision entry is {} tokens, near the "
                      "{}-token guide",
                      add.target, *add.decision_entry_tokens, custodian::kDecisionEntryGuide)));
    }
  }

  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  // A created file is written whole (template plus entry); an existing one gets the splice.
  PlanOperation op =
      created ? plan_write(add.target, nullptr, false,
                           {Splice{0, 0, apply_splices(*base, std::vector<Splice>{splice})}})
              : plan_write(add.target, base, true, {splice});
  if (const std::optional<Budget> budget = custodian::budget_for(add.target)) {
    const std::uint64_t before = created ? 0 : counter.count(*base);
    const std::uint64_t after = counter.count(op.output.render());
    const BudgetState state = budget->classify(after);
    add.budget_result = BudgetResult{add.target, before, after, budget->limit(), state};
    budgets.push_back(*add.budget_result);
    if (state != BudgetState::ok) {
      add.maintenance_preview =
          MaintenancePreview{state == BudgetState::over_budget, maintenance_advice(add.target),
                             "memkit custodian compact --target " + add.target};
      out.push_back(
          make_finding(state == BudgetState::over_budget ? "MK-BUDGET-001" : "MK-BUDGET-002",
                       Severity::warning, add.target,
                       fmt::format("{}: {} after the write ({} of {} tokens)", add.target,
                                   budget_state_name(state), after, budget->limit()),
                       "maintenance recommended before the next write"));
    }
  }
  operations.push_back(std::move(op));

  // A module file that is new or unindexed gets its manifest index entry.
  if (custodian::file_role(add.target) == custodian::FileRole::module && manifest) {
    const custodian::Manifest m = custodian::read_manifest(*manifest);
    const bool indexed =
        std::any_of(m.module_index.begin(), m.module_index.end(),
                    [&](const custodian::Route& r) { return r.path == add.target; });
    if (!indexed) {
      const std::string folder = add.target.substr(0, add.target.find('/'));
      const std::string kind = folder == "rules"      ? "rule"
                               : folder == "profiles" ? "profile"
                                                      : "area";
      const std::string heading = "Enabled " + folder;
      for (std::size_t u = 0; u < manifest->units().size(); ++u) {
        const Unit& unit = manifest->units()[u];
        if (unit.kind != UnitKind::heading || unit.heading_level != 3) continue;
        Line line{};
        LineCursor cursor = manifest->lines(unit);
        cursor.next(line);
        if (strip_w(heading_text(line.content)) != heading) continue;
        const std::string_view t = new_line_terminator(*manifest);
        std::string block;
        if (unit.end == manifest->bytes().size() && manifest->bytes().back() != '\n') block += t;
        block += "- `" + add.target + "`: Load when the task clearly matches this " + kind + ".";
        block += t;
        operations.push_back(plan_write("manifest.md", inputs.snapshot.find("manifest.md")->bytes,
                                        true, {Splice{unit.end, unit.end, block}}));
        break;
      }
    }
  }
  if (changelog && changelog->parseable() && !changelog->utf8_error()) {
    const FileSnapshot* log = inputs.snapshot.find("changelog.md");
    PlanOperation line = plan_write(
        "changelog.md", log->bytes, true,
        {changelog_line(*changelog, today, "add: " + add.type + " entry in " + add.target)});
    const Budget budget = *custodian::budget_for("changelog.md");
    const std::uint64_t after = counter.count(line.output.render());
    budgets.push_back(BudgetResult{"changelog.md", counter.count(log->text()), after,
                                   budget.limit(), budget.classify(after)});
    operations.push_back(std::move(line));
  }
  add.plan =
      Plan::create("custodian add", {{"memory_dir", inputs.memory_dir}, {"target", add.target}},
                   std::move(operations), std::move(budgets));
  sort_findings(out);
  return add;
}

}  // namespace memkit
