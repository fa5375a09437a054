// The MemoryBox tiers, line budgets and status report (spec memorybox.md §2, §7 thresholds, §11).
#include <fmt/format.h>

#include <algorithm>

#include "memkit/memorybox.hpp"
#include "memkit/text.hpp"
#include "memorybox/bloat_limits.hpp"

namespace memkit::memorybox {
namespace {

using limits::kActiveTaskItems;
using limits::kDailyKeepDays;
using limits::kEntryItems;
using limits::kSessionLogLines;

Budget stay_under(std::uint64_t limit) {
  return *Budget::create(limit, Bound::stay_under, Measure::lines);
}

std::uint64_t count_units(const Document& doc, UnitKind kind) {
  return static_cast<std::uint64_t>(std::count_if(
      doc.units().begin(), doc.units().end(), [kind](const Unit& u) { return u.kind == kind; }));
}

}  // namespace

const std::vector<TierSpec>& default_tiers() {
  static const std::vector<TierSpec> tiers = {
      {1, {"brain/SOUL.md", "brain/USER.md", "brain/STATE.md"}, std::nullopt, 2500},
      {2,
       {"memory/ACTIVE_TASKS.md", "memory/LONG_TERM.md", "memory/SOP_LIBRARY.md"},
       300,
       std::nullopt},
      {3, {"memory/PATTERNS.md", "memory/MISTAKES.md", "memory/DECISIONS.md"}, 200, std::nullopt},
      {4, {"memory/SESSION_LOG.md", "memory/SELF_REFLECTIONS.md"}, std::nullopt, std::nullopt},
      {5, {}, std::nullopt, std::nullopt},
  };
  return tiers;
}

std::uint64_t line_count(std::string_view bytes) noexcept {
  bytes.remove_prefix(bom_size(bytes));
  const auto terminated = static_cast<std::uint64_t>(count_newlines(bytes));
  return terminated + (!bytes.empty() && bytes.back() != '\n' ? 1 : 0);
}

std::optional<CivilDate> daily_date(std::string_view name) noexcept {
  if (name.size() != 13 || name.substr(10) != ".md") return std::nullopt;
  return parse_iso_date(name.substr(0, 10));
}

std::optional<std::uint64_t> item_count(std::string_view path, const Document& doc) {
  const bool tasks = path == "memory/ACTIVE_TASKS.md";
  const bool entries = path == "memory/MISTAKES.md" || path == "memory/PATTERNS.md";
  if (!tasks && !entries) return std::nullopt;
  if (!doc.parseable()) return std::nullopt;
  if (entries) {
    const std::uint64_t sections = static_cast<std::uint64_t>(
        std::count_if(doc.sections().begin(), doc.sections().end(),
                      [](const Section& s) { return s.kind == SectionKind::section; }));
    if (sections != 0) return sections;
  }
  return count_units(doc, UnitKind::bullet_unit);
}

Report memorybox_status(const Inputs& inputs, const ClockReading& now) {
  Report status;
  std::vector<Finding>& out = status.findings;
  auto file_status = [&](const std::string& path, std::optional<std::uint64_t> limit) {
    FileStatus file;
    file.path = path;
    const FileSnapshot* entry = inputs.snapshot.find(path);
    if (entry != nullptr && entry->state == EntryState::file) {
      file.exists = true;
      file.lines = line_count(entry->text());
      const Document doc = parse_markdown(entry->bytes);
      file.items = item_count(path, doc);
      if (const auto& issue = doc.parse_error();
          issue && (path == "memory/ACTIVE_TASKS.md" || path == "memory/MISTAKES.md" ||
                    path == "memory/PATTERNS.md")) {
        out.push_back(make_finding("MK-PARSE-001", Severity::error, path,
                                   describe_issue(*issue, path) + "; its items are not counted"));
      }
      if (const auto& issue = doc.utf8_error()) {
        out.push_back(make_finding("MK-UTF8-001", Severity::error, path,
                                   describe_issue(*issue, path),
                                   "fix the encoding; memkit will not change this file"));
      }
    } else if (entry != nullptr && entry->state != EntryState::missing) {
      out.push_back(
          make_finding("MK-IO-001", Severity::warning, path,
                       path + ": " + (entry->error.empty() ? "not a regular file" : entry->error)));
    }
    if (file.items == std::nullopt && file.exists == false &&
        (path == "memory/ACTIVE_TASKS.md" || path == "memory/MISTAKES.md" ||
         path == "memory/PATTERNS.md")) {
      file.items = 0;
    }
    if (limit) {
      file.budget = stay_under(*limit);
      file.state = file.budget->classify(file.lines);
      if (file.state != BudgetState::ok) {
        out.push_back(make_finding(
            "MK-BOX-012", Severity::warning, path,
            fmt::format("{}: {} lines, {} (stay under {})", path, file.lines,
                        budget_state_name(file.state), *limit),
            "move what is no longer active to a lower tier, or run `memkit memorybox compact`"));
      }
    }
    return file;
  };

  for (const TierSpec& spec : inputs.tiers) {
    Tier tier;
    tier.tier = spec.tier;
    for (const std::string& path : spec.files)
      tier.files.push_back(file_status(path, spec.file_limit));
    if (spec.tier == 4) {
      for (const std::string& path : inputs.daily_files)
        tier.files.push_back(file_status(path, {}));
    }
    if (spec.tier == 5) {
      for (const std::string& path : inputs.archive_files) {
        tier.files.push_back(file_status(path, {}));
      }
    }
    if (spec.combined_limit) {
      Combined combined{0, stay_under(*spec.combined_limit), BudgetState::ok};
      for (const FileStatus& f : tier.files) combined.lines += f.lines;
      combined.state = combined.budget.classify(combined.lines);
      if (combined.state != BudgetState::ok) {
        out.push_back(make_finding(
            "MK-BOX-012", Severity::warning, "brain/",
            fmt::format("brain/: {} lines in tier 1, {} (stay under {})", combined.lines,
                        budget_state_name(combined.state), *spec.combined_limit),
            "keep tier 1 concise: move detail to tier 2"));
      }
      tier.combined = combined;
    }
    status.tiers.push_back(std::move(tier));
  }

  // §7's thresholds, in its table's order.
  auto find = [&](std::string_view path) -> const FileStatus* {
    for (const Tier& t : status.tiers) {
      for (const FileStatus& f : t.files) {
        if (f.path == path) return &f;
      }
    }
    return nullptr;
  };
  if (const FileStatus* log = find("memory/SESSION_LOG.md");
      log && log->lines >= kSessionLogLines) {
    status.bloat_due.emplace_back("session_log");
  }
  if (const FileStatus* tasks = find("memory/ACTIVE_TASKS.md");
      tasks && tasks->items.value_or(0) >= kActiveTaskItems) {
    status.bloat_due.emplace_back("active_tasks");
  }
  if (const FileStatus* mistakes = find("memory/MISTAKES.md");
      mistakes && mistakes->items.value_or(0) >= kEntryItems) {
    status.bloat_due.emplace_back("mistakes");
  }
  if (const FileStatus* patterns = find("memory/PATTERNS.md");
      patterns && patterns->items.value_or(0) >= kEntryItems) {
    status.bloat_due.emplace_back("patterns");
  }
  const CivilDate today = now.local_date();
  for (const std::string& path : inputs.daily_files) {
    const std::optional<CivilDate> date = daily_date(file_name(path));
    const bool earlier_month = date && (date->year < today.year ||
                                        (date->year == today.year && date->month < today.month));
    if (date && earlier_month && days_between(*date, today) > kDailyKeepDays) {
      status.bloat_due.emplace_back("daily");
      break;
    }
  }
  sort_findings(out);
  return status;
}

std::string init_file_bytes(std::string_view path) {
  return "# " + std::string(file_stem(path)) + "\n";
}

}  // namespace memkit::memorybox
