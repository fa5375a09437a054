// forget (spec compaction.md §14).
#include "memkit/forget.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "compact/input_reader.hpp"
#include "memkit/compact.hpp"
#include "memkit/edit.hpp"
#include "memkit/layouts.hpp"
#include "memkit/text.hpp"

namespace memkit {
namespace {

// Returns true iff the casefolded contents of the bytes' lines, joined with LF, hold `needle`.
bool matches(std::string_view bytes, std::string_view needle) {
  std::string joined;
  LineCursor cursor(bytes, 0, bytes.size(), 1);
  Line line{};
  bool first = true;
  while (cursor.next(line)) {
    if (!first) joined += '\n';
    joined += line.content;
    first = false;
  }
  return casefold(joined).find(needle) != std::string::npos;
}

std::string first_line_summary(const Document& doc, const Unit& unit) {
  Line line{};
  LineCursor cursor = doc.lines(unit);
  cursor.next(line);
  std::string_view text = line.content;
  if (unit.kind == UnitKind::bullet_unit) text = text.substr(2);
  if (unit.kind == UnitKind::heading) return std::string(heading_text(text));
  return std::string(strip_w(text));
}

std::size_t non_w_code_points(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t pos = 0; pos < text.size();) n += !is_w(decode_utf8(text, pos));
  return n;
}

// The outcome of searching one file: spans to remove, what they were, and blocking text.
struct FileSearch {
  std::vector<UnitSpan> removed;
  std::vector<std::string> summaries;
  std::vector<std::string> blocker_kinds;
};

FileSearch search_file(const Document& doc, std::string_view needle, bool tombstones_only) {
  FileSearch result;
  const std::span<const Unit> units = doc.units();
  std::set<std::size_t> decision_lines;
  for (const custodian::DecisionEntry& d :
       custodian::decision_entries(doc, default_token_counter())) {
    decision_lines.insert(d.line);
  }
  for (const Section& section : doc.sections()) {
    const std::size_t last = section.first_unit + section.unit_count - 1;
    if (section.kind == SectionKind::section) {
      const std::string_view heading = *section_heading(doc, section);
      const bool tombstone = starts_with_ascii_ci(heading, "tombstone:");
      const bool entry = tombstone || is_formal_entry_heading(heading) ||
                         decision_lines.count(section.first_line) != 0;
      if (tombstones_only) {
        // do-not-use.md in hard and purge: tombstone sections go; any other match blocks.
        if (tombstone) {
          if (matches(doc.text(section), needle)) {
            result.removed.push_back(UnitSpan{section.first_unit, last});
            result.summaries.push_back(std::string(heading));
          }
        } else if (matches(doc.text(section), needle)) {
          result.blocker_kinds.emplace_back("do-not-use text");
        }
        continue;
      }
      if (entry) {
        if (matches(doc.text(section), needle)) {
          result.removed.push_back(UnitSpan{section.first_unit, last});
          result.summaries.push_back(std::string(heading));
        }
        continue;
      }
    } else if (tombstones_only) {
      if (matches(doc.text(section), needle)) result.blocker_kinds.emplace_back("do-not-use text");
      continue;
    }
    // An ordinary section or the preamble: bullets go one by one, other text blocks.
    std::vector<UnitSpan> bullets;
    std::vector<std::string> bullet_summaries;
    std::size_t bullet_count = 0;
    bool other_text = false;
    for (std::size_t u = section.first_unit; u <= last; ++u) {
      const Unit& unit = units[u];
      if (unit.kind == UnitKind::blank) continue;
      const bool is_h2 = unit.kind == UnitKind::heading && unit.heading_level == 2 &&
                         section.kind == SectionKind::section && u == section.first_unit;
      if (unit.kind == UnitKind::bullet_unit) {
        ++bullet_count;
        if (matches(doc.text(unit), needle)) {
          bullets.push_back(UnitSpan{u, u});
          bullet_summaries.push_back(first_line_summary(doc, unit));
        }
        continue;
      }
      if (!is_h2) other_text = true;
      if (is_h2) {
        if (matches(doc.text(unit), needle) && bullet_count == 0 && section.unit_count == 1) {
          result.blocker_kinds.emplace_back("heading-only section");
        } else if (matches(doc.text(unit), needle)) {
          result.blocker_kinds.emplace_back("heading");
        }
        continue;
      }
      if (matches(doc.text(unit), needle)) {
        const bool title = unit.kind == UnitKind::heading && unit.heading_level == 1;
        result.blocker_kinds.emplace_back(title                            ? "title"
                                          : unit.kind == UnitKind::heading ? "heading"
                                                                           : "text");
      }
    }
    const bool whole_section = section.kind == SectionKind::section && bullet_count > 0 &&
                               bullets.size() == bullet_count && !other_text;
    if (whole_section) {
      // Every bullet goes and only the heading would be left: the section goes as one removal
      // (a heading that itself matched is then removed with it, not a blocker).
      const std::string heading(*section_heading(doc, section));
      if (!result.blocker_kinds.empty() && result.blocker_kinds.back() == "heading" &&
          matches(doc.text(units[section.first_unit]), needle)) {
        result.blocker_kinds.pop_back();
      }
      result.removed.push_back(UnitSpan{section.first_unit, last});
      for (std::string& s : bullet_summaries) result.summaries.push_back(std::move(s));
    } else {
      for (std::size_t i = 0; i < bullets.size(); ++i) {
        result.removed.push_back(bullets[i]);
        result.summaries.push_back(std::move(bullet_summaries[i]));
      }
    }
  }
  return result;
}

// Removals first, then an insertion placed on the result: an insertion point inside a removed
// section (today's changelog date, say) would otherwise be lost with it. The result is one
// whole-file splice; these files are small.
template <class Insert>
std::vector<Splice> remove_then_insert(const std::string& base, std::vector<Splice> removals,
                                       Insert&& insert) {
  const std::string removed = apply_splices(base, removals);
  const Document after = parse_markdown(removed);
  const std::vector<Splice> insertion = {insert(after)};
  return {Splice{0, base.size(), apply_splices(removed, insertion)}};
}

}  // namespace

std::optional<ForgetMode> parse_forget_mode(std::string_view mode) noexcept {
  if (mode == "soft") return ForgetMode::soft;
  if (mode == "hard") return ForgetMode::hard;
  if (mode == "purge") return ForgetMode::purge;
  return std::nullopt;
}

std::string_view forget_mode_name(ForgetMode mode) noexcept {
  switch (mode) {
    case ForgetMode::soft:
      return "soft";
    case ForgetMode::hard:
      return "hard";
    case ForgetMode::purge:
      return "purge";
  }
  return "soft";
}

ForgetPlanning plan_forget(const CustodianInputs& inputs, std::string_view topic_arg,
                           ForgetMode mode, const TokenCounter& counter, const ClockReading& now) {
  ForgetPlanning f;
  f.mode = mode;
  const bool sensitive = mode != ForgetMode::soft;
  const std::string topic(strip_w(topic_arg));
  const std::string needle = casefold(topic);
  std::vector<Finding>& out = f.findings;
  detail::InputReader reader(inputs, out);
  std::optional<Document> manifest;
  if (!detail::start_planning(inputs, reader, out, manifest)) return f;
  const std::optional<Document> do_not_use = reader.read("do-not-use.md", true, true);
  if (detail::blocked(out)) {
    sort_findings(out);
    return f;
  }

  // The files to search (§14).
  std::vector<std::string> files;
  if (mode == ForgetMode::purge) {
    for (const FileSnapshot& file : inputs.snapshot.files()) {
      const bool readme =
          file.path == "README.md" ||
          (file.path.size() > 10 && file.path.substr(file.path.size() - 10) == "/README.md");
      if (file.path.size() > 3 && file.path.substr(file.path.size() - 3) == ".md" && !readme &&
          file.path != "manifest.md" && file.path != "do-not-use.md") {
        files.push_back(file.path);
      }
    }
  } else {
    for (const char* path : {"brief.md", "decisions.md", "constraints.md", "preferences.md",
                             "inbox.md", "changelog.md"}) {
      files.emplace_back(path);
    }
    if (manifest && manifest->parseable()) {
      for (const custodian::Route& entry : custodian::read_manifest(*manifest).module_index) {
        if (custodian::file_role(entry.path) == custodian::FileRole::module)
          files.push_back(entry.path);
      }
    }
  }

  std::map<std::string, std::vector<Splice>> edits;  // path -> splices
  std::map<std::string, Document> docs;
  std::size_t removed_units = 0;
  for (const std::string& path : files) {
    const FileSnapshot* entry = inputs.snapshot.find(path);
    if (entry == nullptr || entry->state == EntryState::missing) continue;
    const std::optional<Document> doc = reader.read(path, false, true);
    if (!doc) continue;
    f.searched_files.push_back(path);
    if (!doc->parseable()) continue;
    docs.emplace(path, *doc);
    FileSearch search = search_file(*doc, needle, false);
    for (std::string& kind : search.blocker_kinds) f.blockers.push_back(ForgetBlocker{path, kind});
    if (search.removed.empty() && search.blocker_kinds.empty()) continue;
    f.matched_files.push_back(path);
    for (std::string& summary : search.summaries) {
      f.matches.push_back(ForgetMatch{path, sensitive ? "[redacted]" : std::move(summary)});
    }
    removed_units += search.summaries.size();  // every matched unit, even when a section goes whole
    if (!search.removed.empty()) edits[path] = removal_splices(*doc, search.removed);
  }

  // do-not-use.md by mode.
  const std::string today = now.local_date_iso();
  if (do_not_use && do_not_use->parseable()) {
    std::vector<Splice> splices;
    const std::string& dnu_base = *inputs.snapshot.find("do-not-use.md")->bytes;
    if (mode == ForgetMode::soft) {
      f.tombstone_action = "insert";
      const std::vector<std::string> tombstone = {
          "## Tombstone: " + collapse_w(topic),
          "Guard: keep this out of active memory unless the user reverses it.",
          "Reason: the user asked to forget this topic.", "Mode: soft", "Date: " + today};
      splices.push_back(insert_entry(*do_not_use, tombstone));
    } else {
      FileSearch search = search_file(*do_not_use, needle, true);
      for (std::string& kind : search.blocker_kinds) {
        f.blockers.push_back(ForgetBlocker{"do-not-use.md", kind});
      }
      f.tombstones_matched = search.removed.size();
      splices = removal_splices(*do_not_use, search.removed);
      if (f.tombstones_matched > 0 || !search.blocker_kinds.empty()) {
        f.matched_files.push_back("do-not-use.md");
      }
      for (std::size_t i = 0; i < search.removed.size(); ++i) {
        f.matches.push_back(ForgetMatch{"do-not-use.md", "[redacted]"});
      }
      if (mode == ForgetMode::hard) {
        f.tombstone_action = "replace-with-generic";
        const std::vector<std::string> generic = {"## Tombstone: redacted",
                                                  "Guard: a user-requested topic was removed; do "
                                                  "not reconstruct it from earlier context."};
        const std::string generic_text = generic[0] + "\n" + generic[1];
        const bool present = do_not_use->bytes().find(generic_text) != std::string_view::npos;
        if (!present) {
          splices = remove_then_insert(dnu_base, std::move(splices), [&](const Document& doc) {
            return insert_entry(doc, generic);
          });
        }
      } else {
        f.tombstone_action = "remove";
      }
    }
    if (!splices.empty()) edits["do-not-use.md"] = std::move(splices);
  }

  // The changelog line joins whatever the changelog already loses.
  if (const auto log = docs.find("changelog.md");
      log != docs.end() || inputs.snapshot.find("changelog.md")) {
    const FileSnapshot* entry = inputs.snapshot.find("changelog.md");
    if (entry != nullptr && entry->exists()) {
      const Document doc = log != docs.end() ? log->second : parse_markdown(entry->bytes);
      if (doc.parseable()) {
        f.changelog = sensitive ? "generic" : "topic";
        const std::string message =
            sensitive ? fmt::format("forget ({}): topic withheld", forget_mode_name(mode))
                      : "forget (soft): " + collapse_w(topic);
        std::vector<Splice>& splices = edits["changelog.md"];
        splices = remove_then_insert(*entry->bytes, std::move(splices), [&](const Document& d) {
          return changelog_line(d, today, message);
        });
      }
    }
  }
  if (f.changelog.empty()) f.changelog = "disabled";

  // The broad-match guard and the refusals, as dry-run warnings; forget_gates makes them errors.
  if (non_w_code_points(topic) < 4)
    f.broad_reasons.emplace_back("the topic is shorter than 4 characters");
  if (removed_units + f.tombstones_matched + f.blockers.size() > 1) {
    f.broad_reasons.emplace_back("more than one unit, tombstone or blocker matched");
  }
  f.broad = !f.broad_reasons.empty();
  if (!f.blockers.empty()) {
    out.push_back(make_finding(
        "MK-FORGET-001", Severity::warning, "",
        fmt::format("{} place(s) mention the topic outside removable units", f.blockers.size()),
        "rewrite them by hand; an apply refuses while they remain"));
  }
  if (f.broad) {
    out.push_back(make_finding("MK-FORGET-002", Severity::warning, "", "the match is broad",
                               "apply with --allow-broad-match after reviewing the matches"));
  }
  if (mode == ForgetMode::purge) {
    out.push_back(make_finding("MK-FORGET-003", Severity::warning, "",
                               "version-control history, backups, caches and external copies are "
                               "outside memkit's reach"));
  }
  if (topic.empty()) {
    out.push_back(make_fatal("MK-ARG-001", "", "forget: the topic is empty"));
  }
  if (detail::blocked(out)) {
    sort_findings(out);
    return f;
  }
  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  for (auto& [path, splices] : edits) {
    if (splices.empty()) continue;
    const FileSnapshot* entry = inputs.snapshot.find(path);
    PlanOperation op = plan_write(path, entry->bytes, true, std::move(splices));
    if (const std::optional<Budget> budget = custodian::budget_for(path)) {
      const std::uint64_t after = counter.count(op.output.render());
      budgets.push_back(BudgetResult{path, counter.count(entry->text()), after, budget->limit(),
                                     budget->classify(after)});
    }
    operations.push_back(std::move(op));
  }
  if (!operations.empty()) {
    f.plan = Plan::create("custodian forget",
                          {{"memory_dir", inputs.memory_dir},
                           {"mode", std::string(forget_mode_name(mode))},
                           {"topic", topic}},
                          std::move(operations), std::move(budgets), sensitive);
  }
  sort_findings(out);
  return f;
}

std::vector<Finding> forget_gates(const ForgetPlanning& planning, bool allow_broad_match) {
  std::vector<Finding> gates;
  if (!planning.blockers.empty()) {
    gates.push_back(make_finding("MK-FORGET-001", Severity::error, "",
                                 fmt::format("{} place(s) mention the topic outside removable "
                                             "units; rewrite them by hand first",
                                             planning.blockers.size())));
  }
  if (planning.broad && !allow_broad_match) {
    gates.push_back(make_finding("MK-FORGET-002", Severity::error, "",
                                 "the match is broad; apply needs --allow-broad-match"));
  }
  return gates;
}

}  // namespace memkit
