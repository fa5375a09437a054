// Bloat prevention (spec memorybox.md §7): five rules, each acting only when its threshold is
// breached (or with --force), moving entries verbatim into archive files and listing review
// candidates. memkit never summarises, merges or deletes an entry's text.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "memkit/similarity.hpp"
#include "memorybox/bloat_limits.hpp"
#include "memorybox/move_set.hpp"

namespace memkit::memorybox {
namespace {

using limits::kActiveTaskItems;
using limits::kDailyKeepDays;
using limits::kEntryItems;
using limits::kSessionLogLines;
constexpr std::int64_t kSessionKeepDays = 14;
constexpr std::size_t kSessionsKept = 10;
constexpr std::int64_t kTaskKeepDays = 7;
constexpr std::int64_t kLowUseDays = 90;
constexpr std::uint32_t kPromotion = 80;  // hundredths of effective confidence

// What the rules share while they run.
struct CompactRun {
  const Inputs& inputs;
  CivilDate today;
  bool force;
  detail::Documents docs;
  detail::MoveSet moves;
  Compaction out;

  CompactRun(const Inputs& in, const ClockReading& now, bool f)
      : inputs(in), today(now.local_date()), force(f), docs(in), moves(docs) {}

  // The rule's row; returns true iff the rule acts.
  bool check(BloatRule rule, std::uint64_t threshold, std::uint64_t value) {
    const bool breached = value >= threshold;
    out.rules.push_back(
        RuleCheck{rule, std::string(bloat_rule_file(rule)), threshold, value, breached});
    return breached || force;
  }

  void act(BloatRule rule, ActionKind kind, std::string path, std::string detail) {
    out.actions.push_back(CompactAction{rule, kind, std::move(path), std::move(detail)});
  }

  // The parsed file, or nullptr when it is missing or no regular file (nothing to count or move
  // then); an unparseable file adds MK-PARSE-001, since nothing in it can be moved safely.
  const Document* parsed(const std::string& path) {
    const FileSnapshot* file = docs.file(path);
    if (file == nullptr || !file->exists()) return nullptr;
    const Document& doc = docs.parsed(path);
    if (const auto& issue = doc.parse_error()) {
      out.findings.push_back(
          make_finding("MK-PARSE-001", Severity::blocker, path, describe_issue(*issue, path)));
      return nullptr;
    }
    return &doc;
  }

  // Moves one entry of `path` into `archive` (§7 "Archive files").
  void move(BloatRule rule, const std::string& path, const Document& doc, const Entry& entry,
            const std::string& archive, ArchiveLayout layout, CivilDate date) {
    moves.remove(path, entry);
    moves.archive(archive, path, layout, new_line_terminator(doc),
                  ArchivedEntry{detail::entry_bytes(doc, entry), date});
    act(rule, ActionKind::move, entry.id, archive);
  }
};

std::string_view first_line(const Document& doc, const Entry& entry) {
  LineCursor cursor(doc.bytes(), entry.begin, entry.end, entry.first_line);
  Line line{};
  cursor.next(line);
  return line.content;
}

// §4 "Texts": the entry's lines without its field lines, joined with LF.
std::string entry_text(const Document& doc, const Entry& entry) {
  std::string text;
  LineCursor cursor(doc.bytes(), entry.begin, entry.end, entry.first_line);
  Line line{};
  auto field = entry.fields.begin();  // in line order
  bool first = true;
  while (cursor.next(line)) {
    while (field != entry.fields.end() && field->line < line.number) ++field;
    if (field != entry.fields.end() && field->line == line.number) continue;
    if (!first) text += '\n';
    text.append(line.content);
    first = false;
  }
  return text;
}

// SESSION_LOG.md: sessions more than 14 days old move to their own month's archive; the 10
// newest always stay (of two on one date, the later in the file is newer).
void session_log_rule(CompactRun& run) {
  const std::string path(bloat_rule_file(BloatRule::session_log));
  const FileSnapshot* file = run.docs.file(path);
  const std::uint64_t lines = file != nullptr && file->exists() ? line_count(file->text()) : 0;
  if (!run.check(BloatRule::session_log, kSessionLogLines, lines)) return;
  const Document* doc = run.parsed(path);
  if (doc == nullptr) return;
  const std::vector<Entry> sessions = read_entries(path, *doc);
  std::vector<CivilDate> dates;
  for (const Entry& e : sessions) dates.push_back(detail::session_date(*doc, e));
  std::vector<std::size_t> newest(sessions.size());
  std::iota(newest.begin(), newest.end(), std::size_t{0});
  std::sort(newest.begin(), newest.end(), [&](std::size_t a, std::size_t b) {
    const std::int64_t later = days_between(dates[b], dates[a]);  // > 0: a is later
    return later != 0 ? later > 0 : a > b;
  });
  std::vector<bool> kept(sessions.size(), false);
  for (std::size_t i = 0; i < newest.size() && i < kSessionsKept; ++i) kept[newest[i]] = true;
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    if (kept[i] || days_between(dates[i], run.today) <= kSessionKeepDays) continue;
    run.move(BloatRule::session_log, path, *doc, sessions[i], archive_path(path, dates[i]),
             ArchiveLayout::sessions, dates[i]);
  }
}

// ACTIVE_TASKS.md: completed tasks whose completion date is more than 7 days old move to the
// archive of that date's month; completed tasks without a date are listed.
void active_tasks_rule(CompactRun& run) {
  const std::string path(bloat_rule_file(BloatRule::active_tasks));
  const Document* doc = run.parsed(path);
  const std::uint64_t items = doc != nullptr ? item_count(path, *doc).value_or(0) : 0;
  if (!run.check(BloatRule::active_tasks, kActiveTaskItems, items) || doc == nullptr) return;
  for (const Entry& task : read_entries(path, *doc)) {
    const std::string_view line = first_line(*doc, task);
    if (!is_completed_task(line)) continue;
    std::optional<CivilDate> done;
    if (const std::optional<std::string_view> field = task.field("Done")) {
      done = parse_iso_date(*field);
      if (!done) {
        const auto at = std::find_if(task.fields.begin(), task.fields.end(),
                                     [](const Field& f) { return f.key == "Done"; });
        run.out.findings.push_back(
            make_finding("MK-BOX-001", Severity::warning, path,
                         fmt::format("{}:{}: invalid Done value '{}'; the task counts as undated",
                                     path, at->line, *field)));
      }
    } else {
      done = last_date_token(line);
    }
    if (!done) {
      run.act(BloatRule::active_tasks, ActionKind::list, task.id, "completed without a date");
    } else if (days_between(*done, run.today) > kTaskKeepDays) {
      run.move(BloatRule::active_tasks, path, *doc, task, archive_path(path, *done),
               ArchiveLayout::appended, *done);
    }
  }
}

// The entries of MISTAKES.md or PATTERNS.md left after (a): exact duplicates (same ID, the first
// kept) move to the archive of today's month, with `also_moved` entries (MISTAKES' resolved).
template <class AlsoMoved>
std::vector<const Entry*> move_duplicates(CompactRun& run, BloatRule rule, const std::string& path,
                                          const Document& doc, const std::vector<Entry>& entries,
                                          AlsoMoved&& also_moved) {
  std::vector<const Entry*> remaining;
  std::set<std::string_view> seen;
  const std::string archive = archive_path(path, run.today);
  for (const Entry& e : entries) {
    if (seen.insert(e.id).second && !also_moved(e)) {
      remaining.push_back(&e);
    } else {
      run.move(rule, path, doc, e, archive, ArchiveLayout::appended, run.today);
    }
  }
  return remaining;
}

// MISTAKES.md: (a) duplicates and (b) resolved entries move; (c) near-duplicate pairs of the
// rest are listed as merge candidates.
void mistakes_rule(CompactRun& run) {
  const std::string path(bloat_rule_file(BloatRule::mistakes));
  const Document* doc = run.parsed(path);
  const std::uint64_t items = doc != nullptr ? item_count(path, *doc).value_or(0) : 0;
  if (!run.check(BloatRule::mistakes, kEntryItems, items) || doc == nullptr) return;
  const std::vector<Entry> entries = read_entries(path, *doc);
  std::vector<const Entry*> remaining =
      move_duplicates(run, BloatRule::mistakes, path, *doc, entries, [](const Entry& e) {
        return e.field("Status") == std::optional<std::string_view>("resolved");
      });
  // Ranked by similarity, then by the pair's IDs: with the entries in ID order, pair indices
  // order as their IDs do, and the first of a pair has the smaller ID.
  std::sort(remaining.begin(), remaining.end(),
            [](const Entry* a, const Entry* b) { return a->id < b->id; });
  std::vector<std::string> texts;
  for (const Entry* e : remaining) texts.push_back(entry_text(*doc, *e));
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  for (const similarity::Pair& pair : similarity::near_duplicate_pairs(views)) {
    run.act(BloatRule::mistakes, ActionKind::list, remaining[pair.first]->id,
            fmt::format("merge candidate: {}, similarity {}", remaining[pair.second]->id,
                        format_hundredths(pair.hundredths)));
  }
}

// PATTERNS.md: (a) duplicates move; (b) promotion candidates (effective confidence >= 0.80) and
// (c) low-use candidates (Last-Used missing or 90 or more days old) are listed.
void patterns_rule(CompactRun& run) {
  const std::string path(bloat_rule_file(BloatRule::patterns));
  const Document* doc = run.parsed(path);
  const std::uint64_t items = doc != nullptr ? item_count(path, *doc).value_or(0) : 0;
  if (!run.check(BloatRule::patterns, kEntryItems, items) || doc == nullptr) return;
  const std::vector<Entry> entries = read_entries(path, *doc);
  const std::vector<const Entry*> remaining = move_duplicates(
      run, BloatRule::patterns, path, *doc, entries, [](const Entry&) { return false; });
  for (const Entry* e : remaining) {
    const std::optional<std::string_view> c = e->field("Confidence");
    const std::optional<std::string_view> v = e->field("Verified");
    const std::optional<std::uint32_t> stored = c ? parse_confidence(*c) : std::nullopt;
    const std::optional<CivilDate> verified = v ? parse_iso_date(*v) : std::nullopt;
    if (!stored || !verified) continue;
    const std::int64_t days = std::max<std::int64_t>(0, days_between(*verified, run.today));
    const std::uint32_t effective = effective_confidence(*stored, static_cast<std::uint64_t>(days));
    if (effective >= kPromotion) {
      run.act(BloatRule::patterns, ActionKind::list, e->id,
              "promotion candidate: effective " + format_hundredths(effective));
    }
  }
  for (const Entry* e : remaining) {
    const std::optional<std::string_view> used = e->field("Last-Used");
    const std::optional<CivilDate> date = used ? parse_iso_date(*used) : std::nullopt;
    if (used && !date) {
      const auto at = std::find_if(e->fields.begin(), e->fields.end(),
                                   [](const Field& f) { return f.key == "Last-Used"; });
      run.out.findings.push_back(
          make_finding("MK-BOX-001", Severity::warning, path,
                       fmt::format("{}:{}: invalid Last-Used value '{}'; it counts as missing",
                                   path, at->line, *used)));
    }
    if (!date) {
      run.act(BloatRule::patterns, ActionKind::list, e->id, "low use: Last-Used missing");
    } else if (days_between(*date, run.today) >= kLowUseDays) {
      run.act(BloatRule::patterns, ActionKind::list, e->id,
              "low use: Last-Used " + std::string(*used));
    }
  }
}

// daily/: a daily file of an earlier month and more than 30 days old goes, whole, into its
// month's archive and is then deleted.
void daily_rule(CompactRun& run) {
  std::vector<std::pair<std::string, CivilDate>> due;
  for (const std::string& path : run.inputs.daily_files) {
    const CivilDate date = *daily_date(path.substr(path.rfind('/') + 1));
    const bool earlier_month =
        date.year < run.today.year || (date.year == run.today.year && date.month < run.today.month);
    if (!earlier_month || days_between(date, run.today) <= kDailyKeepDays) continue;
    const FileSnapshot* file = run.docs.file(path);
    if (file == nullptr || !file->exists()) {
      run.out.findings.push_back(make_finding("MK-IO-001", Severity::warning, path,
                                              path + ": not a regular file; left in place"));
      continue;
    }
    due.emplace_back(path, date);
  }
  if (!run.check(BloatRule::daily, 1, due.size())) return;
  for (const auto& [path, date] : due) {
    const Document& doc = run.docs.parsed(path);
    const std::string archive = archive_path(path, date);
    run.moves.delete_file(path);
    run.moves.archive(archive, std::string(kDailyFolder) + "/", ArchiveLayout::daily,
                      new_line_terminator(doc), ArchivedEntry{detail::daily_bytes(doc), date});
    run.act(BloatRule::daily, ActionKind::archive, path, archive);
    run.act(BloatRule::daily, ActionKind::remove, path, archive);
  }
}

}  // namespace

std::string_view bloat_rule_name(BloatRule rule) noexcept {
  switch (rule) {
    case BloatRule::session_log:
      return "session_log";
    case BloatRule::active_tasks:
      return "active_tasks";
    case BloatRule::mistakes:
      return "mistakes";
    case BloatRule::patterns:
      return "patterns";
    case BloatRule::daily:
      return "daily";
  }
  return "daily";
}

std::string_view bloat_rule_file(BloatRule rule) noexcept {
  switch (rule) {
    case BloatRule::session_log:
      return "memory/SESSION_LOG.md";
    case BloatRule::active_tasks:
      return "memory/ACTIVE_TASKS.md";
    case BloatRule::mistakes:
      return "memory/MISTAKES.md";
    case BloatRule::patterns:
      return "memory/PATTERNS.md";
    case BloatRule::daily:
      return "memory/daily/";
  }
  return "memory/daily/";
}

std::optional<BloatRule> bloat_rule_of_file(std::string_view file) noexcept {
  for (BloatRule rule : {BloatRule::session_log, BloatRule::active_tasks, BloatRule::mistakes,
                         BloatRule::patterns, BloatRule::daily}) {
    if (file == bloat_rule_file(rule)) return rule;
  }
  if (file == kDailyFolder) return BloatRule::daily;
  return std::nullopt;
}

std::string_view action_kind_name(ActionKind kind) noexcept {
  switch (kind) {
    case ActionKind::move:
      return "move";
    case ActionKind::archive:
      return "archive";
    case ActionKind::remove:
      return "delete";
    case ActionKind::list:
      return "list";
  }
  return "list";
}

Compaction plan_memorybox_compaction(const Inputs& inputs, const CompactRequest& request,
                                     const ClockReading& now) {
  CompactRun run(inputs, now, request.force);
  using RuleFn = void (*)(CompactRun&);
  constexpr std::pair<BloatRule, RuleFn> kRules[] = {
      {BloatRule::session_log, session_log_rule},
      {BloatRule::active_tasks, active_tasks_rule},
      {BloatRule::mistakes, mistakes_rule},
      {BloatRule::patterns, patterns_rule},
      {BloatRule::daily, daily_rule},
  };
  for (const auto& [rule, apply_rule] : kRules) {
    if (!request.only || *request.only == rule) apply_rule(run);
  }
  if (!stops(run.out.findings)) {
    // §7: {"file": F or "*", "force": bool}.
    run.out.plan =
        run.moves.build("memorybox compact",
                        {{"file", request.only ? std::string(bloat_rule_file(*request.only)) : "*"},
                         {"force", PlanArgument::flag(request.force)}},
                        run.out.findings);
  }
  sort_findings(run.out.findings);
  return std::move(run.out);
}

}  // namespace memkit::memorybox
