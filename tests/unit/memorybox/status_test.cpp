// MemoryBox tiers and status (spec memorybox.md §2, §7 thresholds): line counts, the stay-under
// bound at its edges, items, the tier-1 total and the bloat rules that are due.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/memorybox.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");

Inputs inputs_of(const std::map<std::string, std::string>& files) {
  Inputs in;
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(
        FileSnapshot{path, EntryState::file, std::make_shared<const std::string>(bytes), ""});
    if (path.rfind("memory/daily/", 0) == 0) in.daily_files.push_back(path);
    if (path.rfind("memory/ARCHIVES/", 0) == 0) in.archive_files.push_back(path);
  }
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

std::string lines(std::size_t n, const std::string& text = "- x") {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += text + " " + std::to_string(i) + "\n";
  return out;
}

const FileStatus& file(const Report& status, std::string_view path) {
  for (const Tier& tier : status.tiers) {
    for (const FileStatus& f : tier.files) {
      if (f.path == path) return f;
    }
  }
  FAIL("no row for " << path);
  return status.tiers[0].files[0];
}

}  // namespace

TEST_CASE("memorybox: lines are terminated lines plus an unterminated last one, BOM excluded") {
  CHECK(line_count("") == 0);
  CHECK(line_count("\xEF\xBB\xBF") == 0);
  CHECK(line_count("a") == 1);
  CHECK(line_count("a\n") == 1);
  CHECK(line_count("a\r\nb") == 2);
  CHECK(line_count("\n\n") == 2);
}

TEST_CASE("memorybox: daily file names are valid calendar dates") {
  CHECK(daily_date("2026-11-30.md") == CivilDate{2026, 11, 30});
  CHECK(daily_date("2024-02-29.md").has_value());
  CHECK_FALSE(daily_date("2026-02-29.md").has_value());
  CHECK_FALSE(daily_date("2026-11-30.txt").has_value());
  CHECK_FALSE(daily_date("notes.md").has_value());
}

TEST_CASE("memorybox: a limit is a stay-under bound: at the limit is over, 80% is near") {
  const Report at = memorybox_status(inputs_of({{"memory/LONG_TERM.md", lines(300)}}), kNow);
  CHECK(file(at, "memory/LONG_TERM.md").state == BudgetState::over_budget);
  const Report below = memorybox_status(inputs_of({{"memory/LONG_TERM.md", lines(299)}}), kNow);
  CHECK(file(below, "memory/LONG_TERM.md").state == BudgetState::near_limit);
  const Report near = memorybox_status(inputs_of({{"memory/DECISIONS.md", lines(160)}}), kNow);
  CHECK(file(near, "memory/DECISIONS.md").state == BudgetState::near_limit);
  const Report ok = memorybox_status(inputs_of({{"memory/DECISIONS.md", lines(159)}}), kNow);
  CHECK(file(ok, "memory/DECISIONS.md").state == BudgetState::ok);
  CHECK(ok.findings.empty());
  REQUIRE(near.findings.size() == 1);
  CHECK(near.findings[0].code == "MK-BOX-012");
  CHECK(near.findings[0].severity == Severity::warning);
}

TEST_CASE("memorybox: tier 1 is judged by its combined lines, its files have no limit") {
  const Report status = memorybox_status(
      inputs_of({{"brain/SOUL.md", lines(1300)}, {"brain/USER.md", lines(1200)}}), kNow);
  const Tier& tier1 = status.tiers[0];
  REQUIRE(tier1.combined.has_value());
  CHECK(tier1.combined->lines == 2500);
  CHECK(tier1.combined->state == BudgetState::over_budget);
  CHECK_FALSE(file(status, "brain/SOUL.md").budget.has_value());
  CHECK(file(status, "brain/STATE.md").exists == false);
  CHECK(file(status, "brain/STATE.md").lines == 0);
  REQUIRE(status.findings.size() == 1);
  CHECK(status.findings[0].path == "brain/");
}

TEST_CASE("memorybox: items are tasks, or entries (H2 sections, else bullets), never guessed") {
  const Report status = memorybox_status(
      inputs_of({{"memory/ACTIVE_TASKS.md", "# T\n## Now\n- [ ] a\n  note\n- [x] b\n"},
                 {"memory/MISTAKES.md", "# M\n## one\ntext\n- not an entry\n## two\n"},
                 {"memory/PATTERNS.md", "- a\n- b\n- c\n"},
                 {"memory/LONG_TERM.md", "- a\n"}}),
      kNow);
  CHECK(file(status, "memory/ACTIVE_TASKS.md").items == 2u);
  CHECK(file(status, "memory/MISTAKES.md").items == 2u);
  CHECK(file(status, "memory/PATTERNS.md").items == 3u);
  CHECK_FALSE(file(status, "memory/LONG_TERM.md").items.has_value());
  CHECK(file(status, "memory/SOP_LIBRARY.md").items == std::nullopt);
  const Report missing = memorybox_status(inputs_of({}), kNow);
  CHECK(file(missing, "memory/ACTIVE_TASKS.md").items == 0u);
  const Report open_fence =
      memorybox_status(inputs_of({{"memory/PATTERNS.md", "```\n- a\n"}}), kNow);
  CHECK_FALSE(file(open_fence, "memory/PATTERNS.md").items.has_value());
  REQUIRE(open_fence.findings.size() == 1);
  CHECK(open_fence.findings[0].code == "MK-PARSE-001");
}

TEST_CASE("memorybox: bloat rules are due at their thresholds, in the order of §7") {
  auto due = [](const std::map<std::string, std::string>& files) {
    return memorybox_status(inputs_of(files), kNow).bloat_due;
  };
  std::string sections;
  for (int i = 0; i < 30; ++i) sections += "## entry " + std::to_string(i) + "\n";
  std::string fewer;
  for (int i = 0; i < 29; ++i) fewer += "## entry " + std::to_string(i) + "\n";
  CHECK(due({{"memory/SESSION_LOG.md", lines(200)}}) == std::vector<std::string>{"session_log"});
  CHECK(due({{"memory/SESSION_LOG.md", lines(199)}}).empty());
  CHECK(due({{"memory/ACTIVE_TASKS.md", lines(50, "- [ ] t")}}) ==
        std::vector<std::string>{"active_tasks"});
  CHECK(due({{"memory/ACTIVE_TASKS.md", lines(49, "- [ ] t")}}).empty());
  CHECK(due({{"memory/PATTERNS.md", sections}, {"memory/MISTAKES.md", sections}}) ==
        std::vector<std::string>{"mistakes", "patterns"});
  CHECK(due({{"memory/MISTAKES.md", fewer}}).empty());
  // Daily files: more than 30 days old and from an earlier month (today is 2026-11-30).
  CHECK(due({{"memory/daily/2026-10-31.md", "- a\n"}}).empty());  // 30 days old: kept
  CHECK(due({{"memory/daily/2026-10-30.md", "- a\n"}}) == std::vector<std::string>{"daily"});
  CHECK(due({{"memory/daily/2026-11-01.md", "- a\n"}}).empty());  // this month
}

TEST_CASE("memorybox: load gives a tier's existing files, and tier 5 only when asked") {
  const Inputs in = inputs_of({{"brain/SOUL.md", "# SOUL\n"},
                               {"memory/SESSION_LOG.md", "a\nb"},
                               {"memory/daily/2026-11-29.md", "- d\n"},
                               {"memory/ARCHIVES/x.md", "# A\n"}});
  const Result<std::vector<LoadedFile>> tier1 = load_files(in, 1, std::nullopt, false);
  REQUIRE(tier1);
  REQUIRE(tier1->size() == 1);  // USER.md and STATE.md do not exist
  CHECK((*tier1)[0].path == "brain/SOUL.md");
  CHECK(*(*tier1)[0].content == "# SOUL\n");
  const Result<std::vector<LoadedFile>> tier4 = load_files(in, 4, std::nullopt, false);
  REQUIRE(tier4);
  REQUIRE(tier4->size() == 2);
  CHECK((*tier4)[0].lines == 2u);
  CHECK((*tier4)[1].path == "memory/daily/2026-11-29.md");
  CHECK((*tier4)[1].tier == 4);
  const Result<std::vector<LoadedFile>> refused = load_files(in, 5, std::nullopt, false);
  REQUIRE_FALSE(refused);
  CHECK(refused.status().message().find("--include-archive") != std::string::npos);
  CHECK(load_files(in, 5, std::nullopt, true)->size() == 1);
  const auto archive =
      load_files(in, std::nullopt, std::string_view("memory/ARCHIVES/x.md"), false);
  REQUIRE(archive);
  CHECK((*archive)[0].tier == 5);
  CHECK_FALSE(load_files(in, std::nullopt, std::string_view("notes.md"), false));
  CHECK_FALSE(load_files(in, 6, std::nullopt, false));
  CHECK_FALSE(load_files(in, 1, std::string_view("brain/SOUL.md"), false));  // not both
  CHECK(tier_of(in, "memory/LONG_TERM.md") == 2);
  CHECK(tier_of(in, "elsewhere.md") == 0);
}

TEST_CASE("memorybox: status reports a file whose items it cannot count as MK-PARSE-001, an ERROR") {
  const Report status = memorybox_status(inputs_of({{"memory/PATTERNS.md", "## a\n```\n"}}), kNow);
  REQUIRE(status.findings.size() == 1);
  CHECK(status.findings[0].code == "MK-PARSE-001");
  CHECK(status.findings[0].severity == Severity::error);
  CHECK(status.findings[0].message.find("memory/PATTERNS.md:2: ") == 0);
}
