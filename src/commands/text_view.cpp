#include "commands/text_view.hpp"

#include <fmt/format.h>

#include <map>

#include "memkit/text.hpp"
#include "text/shown_text.hpp"

namespace memkit::view {
namespace {

constexpr const char* kReset = "\x1b[0m";

const char* state_colour(std::string_view state) {
  if (state == "OK" || state == "PASS") return "\x1b[32m";
  if (state == "NEAR LIMIT" || state == "WARNING" || state == "REVIEW") return "\x1b[33m";
  if (state == "NOT ENABLED" || state == "INFO") return "\x1b[2m";
  return "\x1b[31m";
}

std::string paint(std::string_view text, Style style) {
  if (!style.colour) return std::string(text);
  return std::string(state_colour(text)) + std::string(text) + kReset;
}

// Display width in code points, so that non-ASCII keys still line up.
std::size_t width(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string number_or_dash(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

// Keys hold line breaks; a table row shows them as the two characters \n. Runs without a break
// or tab are copied whole: a large inbox's candidate list goes through here.
void append_one_line(std::string& out, std::string_view text, bool known_valid = false) {
  std::string repaired;
  if (!known_valid && find_invalid_utf8(text)) {
    repaired = to_valid_utf8(text);
    text = repaired;
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '\n' && c != '\r' && c != '\t') continue;
    out.append(text.substr(start, i - start));
    out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
    start = i + 1;
  }
  out.append(text.substr(start));
}

std::string one_line(std::string_view text) {
  std::string out;
  append_one_line(out, text);
  return out;
}

}  // namespace

std::string table_text(const std::vector<std::vector<std::string>>& rows, Style style) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], width(row[c]));
  }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const std::string& cell = rows[r][c];
      const bool last = c + 1 == rows[r].size();
      const bool is_state_column = r > 0 && c == 1;
      line += is_state_column ? paint(cell, style) : cell;
      if (!last) line += std::string(widths[c] - width(cell) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string findings_text(const std::vector<Finding>& findings, Style style) {
  std::string out;
  for (const Finding& f : findings) {
    out += fmt::format("{} {}: {}\n", paint(severity_name(f.severity), style), f.code,
                       shown_text(f.message));
    if (!f.remediation.empty()) out += "  " + shown_text(f.remediation) + "\n";
  }
  return out;
}

std::string status_text(const StatusReport& report, Style style) {
  std::string out = fmt::format("Memory directory: {}\nProtocol version: {}\n\n", report.memory_dir,
                                report.protocol_version ? *report.protocol_version : "-");
  std::vector<std::vector<std::string>> rows = {{"FILE", "STATE", "TOKENS", "LIMIT", "NOTES"}};
  for (const FileStatus& f : report.files) {
    std::vector<std::string> notes;
    if (f.items) notes.push_back(fmt::format("{} items", *f.items));
    if (f.compaction_recommended) notes.push_back("compaction recommended");
    if (f.entries) notes.push_back(fmt::format("{} entries", *f.entries));
    if (!f.long_decisions.empty()) {
      notes.push_back(fmt::format("{} long decision(s)", f.long_decisions.size()));
    }
    if (f.needs_curation) notes.push_back("needs curation");
    rows.push_back({f.path, std::string(file_state_name(f.state)), number_or_dash(f.tokens),
                    number_or_dash(f.limit), fmt::format("{}", fmt::join(notes, ", "))});
  }
  out += table_text(rows, style);
  out += fmt::format("archive/: {} file(s)\n", report.archive_files);
  return out;
}

std::string memorybox_status_text(const memorybox::Report& status, Style style) {
  std::vector<std::vector<std::string>> rows = {
      {"TIER", "FILE", "STATE", "LINES", "LIMIT", "NOTES"}};
  for (const memorybox::Tier& tier : status.tiers) {
    for (const memorybox::FileStatus& f : tier.files) {
      std::vector<std::string> notes;
      if (!f.exists) notes.push_back("missing");
      if (f.items) notes.push_back(fmt::format("{} items", *f.items));
      rows.push_back({std::to_string(tier.tier), f.path,
                      f.budget ? std::string(budget_state_name(f.state)) : "-",
                      std::to_string(f.lines),
                      f.budget ? "< " + std::to_string(f.budget->limit()) : "-",
                      fmt::format("{}", fmt::join(notes, ", "))});
    }
    if (tier.combined) {
      rows.push_back({std::to_string(tier.tier), "(tier 1 combined)",
                      std::string(budget_state_name(tier.combined->state)),
                      std::to_string(tier.combined->lines),
                      "< " + std::to_string(tier.combined->budget.limit()), ""});
    }
  }
  std::string out = table_text(rows, style);
  out += "Bloat rules due: ";
  out += status.bloat_due.empty() ? "none" : fmt::format("{}", fmt::join(status.bloat_due, ", "));
  out += "\n";
  return out;
}

std::string memorybox_decay_text(const memorybox::DecayReport& report, Style style) {
  std::vector<std::vector<std::string>> rows = {
      {"ENTRY", "STORED", "DAYS", "EFFECTIVE", "BAND", "REVIEW", "FLAGS"}};
  auto hundredths = [](std::uint32_t v) { return fmt::format("{}.{:02}", v / 100, v % 100); };
  for (const memorybox::Decay& d : report.entries) {
    rows.push_back({d.entry_id, hundredths(d.stored), std::to_string(d.days),
                    hundredths(d.effective), std::string(memorybox::band_name(d.band)),
                    d.review_due ? "due" : "-", fmt::format("{}", fmt::join(d.flags, ", "))});
  }
  std::string out = table_text(rows, style);
  out += fmt::format("Unscored entries: {}\n", report.unscored.size());
  return out;
}

std::string memorybox_hygiene_text(const memorybox::Hygiene& hygiene, Style style) {
  std::vector<std::vector<std::string>> rows = {{"#", "RESULT", "VALUE", "LIMIT", "CHECK"}};
  for (const memorybox::HygieneItem& it : hygiene.items) {
    rows.push_back({std::to_string(it.n), it.result, it.value ? std::to_string(*it.value) : "-",
                    it.limit ? std::to_string(*it.limit) : "-", it.check});
  }
  std::string out = table_text(rows, style);
  for (const memorybox::Orphan& o : hygiene.orphans) {
    out += fmt::format("orphan  {}:{}  {} -> {}\n", o.file, o.line, one_line(o.link), o.target);
  }
  return out;
}

std::string memorybox_init_text(const MemoryBoxInit& init) {
  if (init.created.empty()) return "Nothing to create: every file is there.\n";
  std::string out;
  for (const std::string& path : init.created) out += "created  " + path + "\n";
  return out;
}

std::string check_text(const CheckReport& report, Style style) {
  std::string out = fmt::format("Memory directory: {}\nCheck: {}\n", report.memory_dir,
                                paint(report.passed ? "OK" : "FAILED", style));
  return out;
}

std::string init_text(const InitResult& result) {
  std::string out = fmt::format("Memory directory: {}\n", result.memory_dir);
  for (const std::string& path : result.created) out += "created  " + path + "\n";
  for (const std::string& path : result.existing) out += "kept     " + path + "\n";
  if (result.created.empty()) out += "Nothing to create: every file exists.\n";
  return out;
}

std::string units_text(const Document& doc, Style style) {
  if (!doc.parseable()) return {};
  std::vector<std::vector<std::string>> rows = {{"LINES", "KIND", "KEY"}};
  for (const Unit& unit : doc.units()) {
    const std::optional<std::string> key = unit_key(doc, unit);
    rows.push_back({fmt::format("{}-{}", unit.first_line, unit.last_line),
                    std::string(unit_kind_name(unit.kind)), key ? one_line(*key) : ""});
  }
  std::string out = table_text(rows, Style{});
  (void)style;
  out += "\n";
  std::vector<std::vector<std::string>> sections = {{"LINES", "SECTION", "HEADING"}};
  for (const Section& s : doc.sections()) {
    const std::optional<std::string_view> heading = section_heading(doc, s);
    sections.push_back({fmt::format("{}-{}", s.first_line, s.last_line),
                        s.kind == SectionKind::preamble ? "preamble" : "section",
                        heading ? one_line(*heading) : ""});
  }
  out += table_text(sections, Style{});
  return out;
}

namespace {

// What follows a report: the applied paths, the plan and how to apply it, or nothing to apply.
std::string plan_outcome(const std::optional<Plan>& plan, bool applied,
                         const std::vector<std::string>& written, std::string_view extra_flags) {
  if (!plan) return "Nothing to apply.\n";
  if (applied) {
    std::string out = "Applied plan " + plan->id() + ". Written:\n";
    for (const std::string& path : written) out += "- " + one_line(path) + "\n";
    return out;
  }
  return plan_text(*plan) + "Dry run only. Apply with: --apply --confirm-plan " + plan->id() +
         std::string(extra_flags) + "\n";
}

}  // namespace

// §12.2: the dry-run view, whose "Plan ID:" line is a stable contract.
std::string plan_text(const Plan& plan) {
  std::string out = "Plan ID: " + plan.id() + "\nTarget files:\n";
  for (const PlanOperation& op : plan.operations()) {
    out += fmt::format("- {}\n  Operation: {}\n", one_line(op.path), operation_kind_name(op.kind));
    if (!plan.sensitive()) {
      out += fmt::format("  Base SHA-256: {}\n  Expected SHA-256: {}\n", to_hex(op.base_sha256()),
                         to_hex(op.output_sha256()));
    }
  }
  out += "Estimated budget result:\n";
  if (plan.budget_results().empty()) out += "- unchanged or not applicable\n";
  for (const BudgetResult& b : plan.budget_results()) {
    out += fmt::format("- {}: {} -> {} tokens (limit {}, state {})\n", one_line(b.path), b.before,
                       b.after, b.limit, budget_state_name(b.state));
  }
  return out;
}

void write_compaction_text(const InboxCompaction& report, bool applied,
                           const std::vector<std::string>& written, const TextSink& sink,
                           std::optional<std::uint64_t> limit) {
  constexpr std::size_t kPiece = std::size_t{64} << 10;
  // The summary and the plan first: a person reads them without scrolling past the candidates.
  std::string out = fmt::format(
      "Inbox items: {}\nExact duplicates removable: {}\nExact tombstone matches removable: {}\n"
      "Candidates requiring review: {}\n\n",
      report.inbox_items, report.duplicates, report.tombstone_matches, report.candidates.size());
  out += plan_outcome(report.plan, applied, written, "");
  const std::uint64_t total = report.candidates.size();
  const std::uint64_t shown = limit ? std::min(*limit, total) : total;
  if (shown > 0) out += "\nCandidates:\n";
  const bool valid = report.candidates.valid_utf8();
  report.candidates.for_each([&](const Candidate& c) {
    if (c.index > shown) return false;
    out += std::to_string(c.index);
    out += ". ";
    append_one_line(out, c.label, valid);
    out += " (line ";
    out += std::to_string(c.line);
    out += ")\n";
    for (std::string_view line : c.continuation) {
      out += "   ";
      append_one_line(out, line, valid);
      out += '\n';
    }
    if (out.size() >= kPiece) {
      sink(out);
      out.clear();
    }
    return true;
  });
  if (shown < total) {
    out += fmt::format("... and {} more: --all lists every one, --limit N the first N\n",
                       total - shown);
  }
  sink(out);
}

std::string recovery_text(const Recovery& recovery) {
  std::string out;
  for (const std::string& path : recovery.written) out += "recovered  " + one_line(path) + "\n";
  if (recovery.clean()) return out + "Recovery status: clean\n";
  out += "Recovery status: recovery-required\n";
  for (const Transaction& t : recovery.transactions) {
    out += fmt::format("\nTransaction {} ({}, phase {})\n", t.txid, one_line(t.command), t.phase);
    for (const TransactionTarget& target : t.targets) {
      out += fmt::format("- {}: {}\n", one_line(target.path), target_state_name(target.state));
    }
    out += fmt::format("complete safe: {}, rollback safe: {}\n", t.complete_safe ? "yes" : "no",
                       t.rollback_safe ? "yes" : "no");
  }
  return out;
}

std::string target_compaction_text(const TargetCompaction& report, bool applied,
                                   const std::vector<std::string>& written) {
  std::string out = fmt::format("Target: {}\nCurrent tokens: {}/{} max ({})\nAction: {}\n",
                                one_line(report.target), report.tokens, report.limit,
                                budget_state_name(report.state), target_action_name(report.action));
  if (!report.reason.empty()) out += "Reason: " + one_line(report.reason) + "\n";
  for (const custodian::DecisionEntry& d : report.long_decisions) {
    out += fmt::format("Long decision: {} ({} tokens)\n", one_line(d.title), d.tokens);
  }
  if (report.action == TargetAction::dedupe) {
    out += fmt::format("Exact duplicates removable: {}\n", report.duplicates_removed);
  }
  if (report.action == TargetAction::archive) {
    out += fmt::format("Keep entries: {}\nArchive entries: {}\nArchive path: {}\n",
                       report.keep_entries, report.archive_entries, one_line(report.archive_path));
  }
  if (report.projected_tokens)
    out += fmt::format("Projected tokens: {}\n", *report.projected_tokens);
  if (report.maintenance_preview) {
    out += "Maintenance preview (dry run only):\n";
    for (const std::string& advice : *report.maintenance_preview) out += "- " + advice + "\n";
  }
  out += "\n";
  const bool gated = report.target == "decisions.md" && report.action == TargetAction::archive;
  out += plan_outcome(report.plan, applied, written, gated ? " --archive-oldest" : "");
  return out;
}

std::string undo_text(const UndoPlanning& undo, bool applied,
                      const std::vector<std::string>& written) {
  std::string out = "Undo of plan " + one_line(undo.undone_plan_id) + "\n";
  for (const TransactionTarget& t : undo.targets) {
    out +=
        fmt::format("- {}: {}\n", one_line(t.path),
                    t.state == TargetState::output ? "unchanged since the apply" : "changed since");
  }
  out += "\n" + plan_outcome(undo.plan, applied, written, "");
  return out;
}

std::string forget_text(const ForgetPlanning& forget, bool applied,
                        const std::vector<std::string>& written) {
  std::string out =
      fmt::format("Mode: {}\nSearched files: {}\nMatches: {}\n", forget_mode_name(forget.mode),
                  forget.searched_files.size(), forget.matches.size());
  for (const ForgetMatch& m : forget.matches) {
    out += "- " + one_line(m.path) + ": " + one_line(m.summary) + "\n";
  }
  if (!forget.blockers.empty()) out += "Blockers (rewrite by hand):\n";
  for (const ForgetBlocker& b : forget.blockers) {
    out += "- " + one_line(b.path) + ": " + b.kind + "\n";
  }
  out += fmt::format("Tombstones: {} ({} matched)\nBroad: {}\n\n", forget.tombstone_action,
                     forget.tombstones_matched, forget.broad ? "yes" : "no");
  out += plan_outcome(forget.plan, applied, written, forget.broad ? " --allow-broad-match" : "");
  return out;
}

std::string memorybox_plan_outcome(const std::optional<Plan>& plan, bool applied,
                                   const std::vector<std::string>& written) {
  if (!plan) return "Nothing to apply.\n";
  if (applied) {
    std::string out = "Applied plan " + plan->id() + ". Written:\n";
    for (const std::string& path : written) out += "- " + one_line(path) + "\n";
    return out;
  }
  std::string out = "Plan ID: " + plan->id() + "\nTarget files:\n";
  for (const PlanOperation& op : plan->operations()) {
    out += fmt::format("- {}\n  Operation: {}\n  Base SHA-256: {}\n  Expected SHA-256: {}\n",
                       one_line(op.path), operation_kind_name(op.kind), to_hex(op.base_sha256()),
                       to_hex(op.output_sha256()));
  }
  out += "Estimated budget result:\n";
  if (plan->budget_results().empty()) out += "- unchanged or not applicable\n";
  for (const BudgetResult& b : plan->budget_results()) {
    out += fmt::format("- {}: {} -> {} lines (limit {}, state {})\n", one_line(b.path), b.before,
                       b.after, b.limit, budget_state_name(b.state));
  }
  return out + "Dry run only. Apply with: --apply --confirm-plan " + plan->id() + "\n";
}

std::string memorybox_compact_text(const memorybox::Compaction& compaction, bool applied,
                                   const std::vector<std::string>& written, Style style,
                                   std::optional<std::uint64_t> limit) {
  std::vector<std::vector<std::string>> rows = {{"RULE", "STATE", "VALUE", "THRESHOLD", "FILE"}};
  for (const memorybox::RuleCheck& r : compaction.rules) {
    rows.push_back({std::string(memorybox::bloat_rule_name(r.rule)), r.breached ? "BREACHED" : "OK",
                    std::to_string(r.value), std::to_string(r.threshold), one_line(r.file)});
  }
  // The rules and the plan first: a person reads them without scrolling past the actions.
  std::string out = table_text(rows, style);
  out += "\n" + memorybox_plan_outcome(compaction.plan, applied, written);
  const std::size_t total = compaction.actions.size();
  const std::size_t shown = limit ? static_cast<std::size_t>(std::min<std::uint64_t>(*limit, total))
                                  : total;
  out += total == 0 ? "\nActions: none\n" : fmt::format("\nActions ({}):\n", total);
  for (std::size_t i = 0; i < shown; ++i) {
    const memorybox::CompactAction& a = compaction.actions[i];
    const std::string_view kind = memorybox::action_kind_name(a.kind);
    out += fmt::format("- {}: {} {}", memorybox::bloat_rule_name(a.rule), kind, one_line(a.path));
    if (a.kind == memorybox::ActionKind::list) {
      out += ": " + one_line(a.detail) + "\n";
    } else if (a.kind == memorybox::ActionKind::remove) {
      out += "\n";
    } else {
      out += " -> " + one_line(a.detail) + "\n";
    }
  }
  if (shown < total) {
    out += fmt::format("... and {} more: --all lists every one, --limit N the first N\n",
                       total - shown);
  }
  return out;
}

std::string memorybox_move_text(const memorybox::EntryMove& move, bool applied,
                                const std::vector<std::string>& written) {
  std::string out = fmt::format("Entry: {}\nFrom: {}\nTo: {}\n\n", one_line(move.entry_id),
                                one_line(move.path), one_line(move.destination));
  return out + memorybox_plan_outcome(move.plan, applied, written);
}

std::string memorybox_sync_pull_text(const memorybox::PullPlanning& pull, std::uint64_t pulled,
                                     bool applied) {
  std::map<std::string_view, std::uint64_t> counts;
  for (const memorybox::PullItem& item : pull.items) {
    ++counts[memorybox::pull_action_name(item.action)];
  }
  std::string out = fmt::format("Pulled {} record(s)", pulled);
  for (const auto& [action, n] : counts) out += fmt::format(", {} {}", n, action);
  out += ".\n";
  if (pull.plan && !applied) {
    out += fmt::format(
        "Plan {} replaces or removes local text; review it, then run `memkit memorybox sync pull "
        "--apply --confirm-plan {}`.\n",
        pull.plan->id(), pull.plan->id());
  } else if (applied) {
    out += "Written.\n";
  }
  for (const memorybox::SyncRecord& c : pull.conflicts) out += "Open conflict: " + c.id + "\n";
  return out;
}

std::string memorybox_sync_push_text(const memorybox::PushReport& report) {
  return fmt::format(
      "Pushed {} record(s): {} acknowledged, {} refused{}.\n", report.sent,
      report.sent - report.refused.size(), report.refused.size(),
      report.assigned.empty() ? "" : fmt::format("; {} new Id(s) written", report.assigned.size()));
}

std::string memorybox_sync_status_text(const memorybox::SyncStatus& status) {
  std::string text =
      fmt::format("workspace {}\nlast pull {}\nlast push {} ({})\npending push {}\n",
                  status.workspace_id.value_or("(none: never synced)"),
                  status.last_pull_at.value_or("never"), status.last_push_at.value_or("never"),
                  status.last_push_ok ? "ok" : "not acknowledged", status.pending_push);
  if (status.pending_pull) text += fmt::format("pending pull {}\n", *status.pending_pull);
  for (const std::string& id : status.open_conflicts) text += "open conflict " + id + "\n";
  return text;
}

std::string memorybox_sync_resolve_text(std::string_view id, std::string_view take,
                                        const memorybox::Resolution& resolution) {
  return fmt::format("Resolved {}: took the {} version ({}).\n", id, take, resolution.file);
}

}  // namespace memkit::view
