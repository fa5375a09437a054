// Target mode (spec compaction.md §9): exact dedupe of simple bullet files, archival of the
// oldest complete H2 entries of history files, manual review for everything else.
#include <fmt/format.h>

#include "compact/input_reader.hpp"
#include "compact/key_index.hpp"
#include "memkit/compact.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void manual_review(TargetCompaction& report, std::string reason) {
  report.action = TargetAction::manual_review;
  report.reason = std::move(reason);
  report.findings.push_back(make_finding("MK-REVIEW-001", Severity::warning, report.target,
                                         report.target + ": manual review: " + report.reason));
}

std::string reason_for_manual_target(std::string_view target) {
  if (target == "brief.md") {
    return "it is the one-screen current summary and must be rewritten semantically, not archived";
  }
  if (target == "do-not-use.md") {
    return "tombstones stay active; consolidate or shorten them, never archive them to meet a "
           "budget";
  }
  return "shorten, merge, or split into scoped modules";
}

// The H2 sections (not the preamble) of a document, as indices into sections().
std::vector<std::size_t> h2_sections(const Document& doc) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < doc.sections().size(); ++i) {
    if (doc.sections()[i].kind == SectionKind::section) out.push_back(i);
  }
  return out;
}

// The pieces shared by every plan of this command: the target, an optional changelog line, and
// the budget results of the budgeted files written.
struct PlanParts {
  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;

  void add(PlanOperation op, const TokenCounter& counter, std::uint64_t before) {
    if (const std::optional<Budget> budget = custodian::budget_for(op.path)) {
      const std::uint64_t after = counter.count(op.output.render());
      budgets.push_back(BudgetResult{op.path, op.kind == OperationKind::create ? 0 : before, after,
                                     budget->limit(), budget->classify(after)});
    }
    operations.push_back(std::move(op));
  }
};

}  // namespace

std::string_view target_action_name(TargetAction action) noexcept {
  switch (action) {
    case TargetAction::none:
      return "none";
    case TargetAction::dedupe:
      return "dedupe";
    case TargetAction::archive:
      return "archive";
    case TargetAction::manual_review:
      return "manual-review";
  }
  return "none";
}

Result<std::string> normalize_compaction_target(std::string_view target) {
  std::string path(strip_w(target));
  for (char& c : path) {
    if (c == '\\') c = '/';
  }
  auto refuse = [&](std::string_view why) {
    return Status(Errc::invalid_argument, "--target: " + path + ": " + std::string(why));
  };
  if (path.empty()) return refuse("empty path");
  if (path.front() == '/' || (path.size() >= 2 && path[1] == ':')) {
    return refuse("must be relative to the memory directory");
  }
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    const std::string_view part = std::string_view(path).substr(pos, slash - pos);
    if (part.empty() || part == "." || part == "..") return refuse("empty, . or .. path segment");
    pos = slash + 1;
  }
  if (!ends_with(path, ".md")) return refuse("not a .md file");
  if (path == "manifest.md") return refuse("the manifest is never compacted");
  if (path == "inbox.md") return refuse("use `memkit custodian compact` without --target");
  if (path.rfind("archive/", 0) == 0) return refuse("archive files are never compacted");
  if (!custodian::budget_for(path)) return refuse("has no budget");
  return path;
}

std::string archive_path_for(std::string_view target, const ClockReading& now) {
  std::string stem(target.substr(0, target.size() - 3));
  for (char& c : stem) {
    if (c == '/') c = '-';
  }
  return "archive/" + stem + "-" + now.local_date_iso() + ".md";
}

std::vector<std::string> maintenance_advice(std::string_view target) {
  if (target == "decisions.md" || target.rfind("areas/", 0) == 0) {
    return {"Shorten entries over 120 tokens.", "Merge duplicates and link superseded decisions.",
            "Move subsystem-specific knowledge to the matching area.",
            "Confirm active invariants stay reachable before archival."};
  }
  return {"Review duplicates, obsolete detail, and content that belongs in a scoped module."};
}

std::vector<Finding> decision_gates(const TargetCompaction& report, bool archive_oldest) {
  std::vector<Finding> gates;
  if (report.target != "decisions.md" || report.action != TargetAction::archive) return gates;
  if (!report.kept_long_decisions.empty()) {
    gates.push_back(make_finding("MK-GATE-001", Severity::error, report.target,
                                 "decisions.md: shorten the kept long decisions before age-based "
                                 "archival"));
  }
  if (!archive_oldest) {
    gates.push_back(make_finding(
        "MK-GATE-002", Severity::error, report.target,
        "decisions.md: archival needs --archive-oldest",
        "give it only after confirming that the oldest entries hold no active invariant that "
        "would become unreachable"));
  }
  return gates;
}

TargetCompaction plan_target_compaction(const CustodianInputs& inputs, std::string_view target,
                                        const TokenCounter& counter, const ClockReading& now) {
  TargetCompaction report;
  report.memory_dir = inputs.memory_dir;
  report.target = std::string(target);
  std::vector<Finding>& out = report.findings;
  detail::InputReader reader(inputs, out);
  std::optional<Document> manifest;
  if (!detail::start_planning(inputs, reader, out, manifest, &report.protocol_version)) {
    return report;
  }
  const std::optional<Document> doc = reader.read(report.target, true, true);
  const bool is_changelog = report.target == "changelog.md";
  const std::optional<Document> changelog =
      is_changelog ? std::nullopt : reader.read("changelog.md", false, false);
  if (!doc || !doc->parseable()) {
    sort_findings(out);
    return report;
  }
  const FileSnapshot* entry = inputs.snapshot.find(report.target);
  const Budget budget = *custodian::budget_for(report.target);
  report.tokens = counter.count(entry->text());
  report.limit = budget.limit();
  report.state = budget.classify(report.tokens);
  for (custodian::DecisionEntry& d : custodian::decision_entries(*doc, counter)) {
    if (d.tokens > custodian::kDecisionEntryGuide) report.long_decisions.push_back(std::move(d));
  }

  if (report.state != BudgetState::over_budget) {
    if (!report.long_decisions.empty()) {
      report.findings.push_back(make_finding("MK-REVIEW-001", Severity::warning, report.target,
                                             report.target + ": shorten the long decisions"));
    } else if (report.state == BudgetState::near_limit) {
      report.maintenance_preview = maintenance_advice(report.target);
      report.findings.push_back(
          make_finding("MK-BUDGET-002", Severity::warning, report.target,
                       fmt::format("{}: near limit ({} of {} tokens)", report.target, report.tokens,
                                   report.limit),
                       "maintenance recommended before the next write"));
    }
    sort_findings(out);
    return report;
  }

  PlanParts parts;
  std::string changelog_message;
  const std::span<const Unit> units = doc->units();
  if (report.target == "constraints.md" || report.target == "preferences.md") {
    std::string earlier_scratch;
    detail::KeyIndex seen(units.size(), [&](std::uint32_t u, std::string& earlier) {
      unit_key_into(*doc, units[u], earlier, earlier_scratch);
    });
    std::vector<UnitSpan> removed;
    std::string key;
    std::string scratch;
    for (std::size_t u = 0; u < units.size(); ++u) {
      if (units[u].kind != UnitKind::bullet_unit) continue;
      unit_key_into(*doc, units[u], key, scratch);
      if (!key.empty() && seen.seen_or_insert(key, static_cast<std::uint32_t>(u))) {
        removed.push_back(UnitSpan{u, u});
      }
    }
    if (removed.empty()) {
      manual_review(report, "over budget without exact duplicates");
      sort_findings(out);
      return report;
    }
    report.action = TargetAction::dedupe;
    report.duplicates_removed = removed.size();
    PlanOperation op =
        plan_write(report.target, entry->bytes, true, removal_splices(*doc, removed));
    report.projected_tokens = counter.count(op.output.render());
    if (*report.projected_tokens > report.limit) {
      report.findings.push_back(
          make_finding("MK-REVIEW-001", Severity::warning, report.target,
                       report.target + ": remains over budget; manual review"));
    }
    parts.add(std::move(op), counter, report.tokens);
    changelog_message = fmt::format("{} compaction: removed {} exact duplicate bullet unit(s).",
                                    report.target, report.duplicates_removed);
  } else if (report.target == "decisions.md" || is_changelog) {
    const std::vector<std::size_t> h2 = h2_sections(*doc);
    if (h2.size() < 2 || doc->h1_after_h2()) {
      manual_review(report, h2.size() < 2 ? "archival needs at least two complete H2 entries"
                                          : "an H1 after the first H2 makes the layout "
                                            "unsupported for archival");
      sort_findings(out);
      return report;
    }
    const std::span<const Section> sections = doc->sections();
    auto candidate = [&](std::size_t keep) {
      const std::vector<UnitSpan> spans = {
          UnitSpan{sections[h2[keep]].first_unit,
                   sections[h2.back()].first_unit + sections[h2.back()].unit_count - 1}};
      return removal_splices(*doc, spans);
    };
    auto fits = [&](std::size_t keep) {
      return counter.count(apply_splices(doc->bytes(), candidate(keep))) <= report.limit;
    };
    // The largest newest-kept prefix that fits. Tokens never drop as entries are added back, so
    // a binary search finds the first fit of the spec's count-down from n-1 to 1.
    std::size_t low = 1;
    std::size_t high = h2.size() - 1;
    if (!fits(low)) {
      manual_review(report, "shorten, merge, split into modules, or archive after semantic review");
      sort_findings(out);
      return report;
    }
    while (low < high) {
      const std::size_t mid = low + (high - low + 1) / 2;
      if (fits(mid)) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    const std::size_t keep = low;
    report.action = TargetAction::archive;
    report.keep_entries = keep;
    report.archive_entries = h2.size() - keep;
    report.archive_path = archive_path_for(report.target, now);
    std::vector<std::string> archived;
    for (std::size_t i = keep; i < h2.size(); ++i) {
      archived.emplace_back(doc->text(sections[h2[i]]));
    }
    for (const custodian::DecisionEntry& d : report.long_decisions) {
      if (d.line < sections[h2[keep]].first_line) report.kept_long_decisions.push_back(d);
    }
    // Archive files first: the README when missing, then the dated archive.
    if (const FileSnapshot* readme = inputs.snapshot.find("archive/README.md");
        readme == nullptr || !readme->exists()) {
      parts.add(plan_write("archive/README.md", nullptr, false,
                           {Splice{0, 0, custodian::archive_readme()}}),
                counter, 0);
    }
    const std::optional<Document> archive = reader.read(report.archive_path, false, true);
    if (detail::blocked(out)) {
      sort_findings(out);
      return report;
    }
    const std::string archive_bytes = archive_file_bytes(
        archive ? &*archive : nullptr, report.target, archived, new_line_terminator(*doc));
    const FileSnapshot* archive_entry = inputs.snapshot.find(report.archive_path);
    if (archive) {
      parts.add(plan_write(report.archive_path, archive_entry->bytes, true,
                           {Splice{0, archive_entry->bytes->size(), archive_bytes}}),
                counter, 0);
    } else {
      parts.add(
          plan_write(report.archive_path, nullptr, false, only_splice(Splice{0, 0, archive_bytes})),
          counter, 0);
    }
    PlanOperation trimmed = plan_write(report.target, entry->bytes, true, candidate(keep));
    report.projected_tokens = counter.count(trimmed.output.render());
    parts.add(std::move(trimmed), counter, report.tokens);
    if (report.target == "decisions.md") {
      report.findings.push_back(make_finding(
          "MK-REVIEW-001", Severity::warning, report.target,
          "decisions.md: semantic review before archival: merge superseded entries, and keep every "
          "active invariant reachable in brief.md, constraints.md or a matching area"));
    }
    changelog_message = fmt::format("{} compaction: archived {} old entries to {}.", report.target,
                                    report.archive_entries, report.archive_path);
  } else {
    manual_review(report, reason_for_manual_target(report.target));
    sort_findings(out);
    return report;
  }

  if (changelog && changelog->parseable() && !is_changelog) {
    if (changelog->utf8_error()) {
      for (Finding& f : out) {
        if (f.code == "MK-UTF8-001" && f.path == "changelog.md") f.severity = Severity::blocker;
      }
    } else {
      const FileSnapshot* log = inputs.snapshot.find("changelog.md");
      parts.add(plan_write("changelog.md", log->bytes, true,
                           {changelog_line(*changelog, now.local_date_iso(), changelog_message)}),
                counter, counter.count(log->text()));
    }
  }
  if (!detail::blocked(out)) {
    report.plan = Plan::create("custodian compact",
                               {{"memory_dir", inputs.memory_dir}, {"target", report.target}},
                               std::move(parts.operations), std::move(parts.budgets));
  }
  sort_findings(out);
  return report;
}

}  // namespace memkit
