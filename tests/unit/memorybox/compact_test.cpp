// Bloat prevention (spec memorybox.md §7): thresholds at their boundaries, what each rule moves,
// keeps and lists, and that every moved byte lands in an archive.
#include <algorithm>
#include <vector>

#include "memkit/similarity.hpp"
#include "moves_support.hpp"

using namespace moves_test;

namespace {

const std::string kLog = "memory/SESSION_LOG.md";
const std::string kTasks = "memory/ACTIVE_TASKS.md";
const std::string kMistakes = "memory/MISTAKES.md";
const std::string kPatterns = "memory/PATTERNS.md";

const CompactRequest kAll{};
const CompactRequest kForce{std::nullopt, true};

// Sessions "### <date> s<i>" with one line each, an empty line after each.
std::string sessions(const std::vector<std::string>& dates, int first = 0) {
  std::string out;
  for (std::size_t i = 0; i < dates.size(); ++i) {
    const std::string n = std::to_string(first + static_cast<int>(i));
    out += "### " + dates[i] + " s" + n + "\n- note " + n + "\n\n";
  }
  return out;
}

// The ten dates 2026-11-20 ... 2026-11-29: sessions that always stay.
std::vector<std::string> recent_ten() {
  std::vector<std::string> dates;
  for (int d = 20; d <= 29; ++d) dates.push_back("2026-11-" + std::to_string(d));
  return dates;
}

// A session log of exactly `lines` lines: a title, filler text, then the sessions.
std::string session_log(std::uint64_t lines, const std::string& body) {
  std::string head = "# SESSION_LOG\n";
  while (line_count(head + body) < lines) head += "intro\n";
  REQUIRE(line_count(head + body) == lines);
  return head + body;
}

std::vector<std::string> paths_of(const Compaction& c, ActionKind kind) {
  std::vector<std::string> out;
  for (const CompactAction& a : c.actions) {
    if (a.kind == kind) out.push_back(a.path);
  }
  return out;
}

const RuleCheck& rule(const Compaction& c, BloatRule r) {
  const auto it = std::find_if(c.rules.begin(), c.rules.end(),
                               [r](const RuleCheck& check) { return check.rule == r; });
  REQUIRE(it != c.rules.end());
  return *it;
}

// The non-blank lines of a text, sorted: what no move may lose or duplicate.
std::vector<std::string> non_blank_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) out.push_back(line);
    start = end + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The archive's lines without its preamble's.
std::vector<std::string> archived_lines(const std::string& archive) {
  std::vector<std::string> lines = non_blank_lines(archive);
  for (const char* own :
       {"Complete entries moved out of active memory by reviewed compaction.",
        "Load this file only when explicitly asked; it is not part of normal task context."}) {
    lines.erase(std::find(lines.begin(), lines.end(), own));
  }
  lines.erase(std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.rfind("# Archived Memory: ", 0) == 0;
  }));
  return lines;
}

// Checks that the plan moved `source`'s lines into its archives and lost or doubled none.
void check_nothing_lost(const std::map<std::string, std::string>& before,
                        const std::map<std::string, std::string>& after,
                        const std::string& source) {
  std::vector<std::string> kept =
      after.count(source) ? non_blank_lines(after.at(source)) : std::vector<std::string>{};
  for (const auto& [path, bytes] : after) {
    const std::string title = "# Archived Memory: " + source;
    if (bytes.rfind(title + "\n", 0) != 0 && bytes.rfind(title + "\r\n", 0) != 0) continue;
    const std::vector<std::string> moved = archived_lines(bytes);
    kept.insert(kept.end(), moved.begin(), moved.end());
  }
  std::sort(kept.begin(), kept.end());
  CHECK(kept == non_blank_lines(before.at(source)));
}

}  // namespace

TEST_CASE("memorybox compact: nothing breached, nothing listed, no plan, five rules in order") {
  const Compaction c = plan_memorybox_compaction(inputs_of({}), kAll, kNow);
  REQUIRE(c.rules.size() == 5);
  CHECK(bloat_rule_name(c.rules[0].rule) == "session_log");
  CHECK(c.rules[0].file == kLog);
  CHECK(c.rules[1].file == kTasks);
  CHECK(c.rules[2].file == kMistakes);
  CHECK(c.rules[3].file == kPatterns);
  CHECK(c.rules[4].file == "memory/daily/");
  CHECK(c.rules[4].threshold == 1);
  CHECK(c.actions.empty());
  CHECK_FALSE(c.plan.has_value());
  CHECK(c.findings.empty());
}

TEST_CASE("memorybox compact: SESSION_LOG acts at 200 lines, not at 199") {
  std::vector<std::string> dates = {"2026-09-01", "2026-09-02"};
  for (const std::string& d : recent_ten()) dates.push_back(d);
  const std::string body = sessions(dates);
  const Compaction under =
      plan_memorybox_compaction(inputs_of({{kLog, session_log(199, body)}}), kAll, kNow);
  CHECK(rule(under, BloatRule::session_log).value == 199);
  CHECK_FALSE(rule(under, BloatRule::session_log).breached);
  CHECK(under.actions.empty());
  CHECK_FALSE(under.plan.has_value());

  const std::string log = session_log(200, body);
  const Compaction at = plan_memorybox_compaction(inputs_of({{kLog, log}}), kAll, kNow);
  CHECK(rule(at, BloatRule::session_log).breached);
  CHECK(paths_of(at, ActionKind::move) ==
        std::vector<std::string>{id_of(kLog, log, 0), id_of(kLog, log, 1)});
  CHECK(at.actions[0].detail == "memory/ARCHIVES/sessions-2026-09.md");
  REQUIRE(at.plan.has_value());
  CHECK(at.plan->command() == "memorybox compact");
  CHECK(at.plan->arguments() == PlanArguments{{"file", "*"}, {"force", PlanArgument::flag(false)}});
  // §7: "force" is a JSON bool in the canonical plan, so the Plan ID hashes false, not "false".
  CHECK(at.plan->canonical_json().find(R"("arguments":{"file":"*","force":false})") !=
        std::string::npos);
}

TEST_CASE("memorybox compact: the 10 newest sessions stay, on one date the later one is newer") {
  // Eleven sessions on one old date: only the first in the file is the oldest.
  const std::string same = "# S\n" + sessions(std::vector<std::string>(11, "2026-10-01"));
  const Compaction c = plan_memorybox_compaction(inputs_of({{kLog, same}}), kForce, kNow);
  CHECK(paths_of(c, ActionKind::move) == std::vector<std::string>{id_of(kLog, same, 0)});

  // Newer means a later date, wherever the session sits in the file.
  std::vector<std::string> dates = {"2026-10-05", "2026-09-01", "2026-10-10", "2026-10-06",
                                    "2026-10-07", "2026-10-08", "2026-10-09", "2026-10-11",
                                    "2026-10-12", "2026-10-13", "2026-10-14", "2026-08-31"};
  const std::string mixed = sessions(dates);
  const Compaction m = plan_memorybox_compaction(inputs_of({{kLog, mixed}}), kForce, kNow);
  CHECK(paths_of(m, ActionKind::move) ==
        std::vector<std::string>{id_of(kLog, mixed, 1), id_of(kLog, mixed, 11)});
  CHECK(m.actions[0].detail == "memory/ARCHIVES/sessions-2026-09.md");
  CHECK(m.actions[1].detail == "memory/ARCHIVES/sessions-2026-08.md");
}

TEST_CASE("memorybox compact: a session 14 days old stays, 15 days old moves") {
  std::vector<std::string> dates = recent_ten();
  dates.push_back("2026-11-16");
  dates.push_back("2026-11-15");
  const std::string log = sessions(dates);
  const Compaction c = plan_memorybox_compaction(inputs_of({{kLog, log}}), kForce, kNow);
  CHECK(paths_of(c, ActionKind::move) == std::vector<std::string>{id_of(kLog, log, 11)});
  CHECK(c.actions[0].detail == "memory/ARCHIVES/sessions-2026-11.md");
}

TEST_CASE("memorybox compact: text before the first session stays, an H2 ends a session early") {
  const std::string recent = sessions(recent_ten(), 2);
  const std::string log =
      "# SESSION_LOG\nintro text\n\n### 2026-09-01 a\nA\n### not a date\nstill a\n"
      "## Notes\nkept note\n\n### 2026-09-02 b\nB\n\n" +
      recent;
  const std::map<std::string, std::string> files = {{kLog, log}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  REQUIRE(c.plan.has_value());
  const std::map<std::string, std::string> after = applied(files, *c.plan);
  CHECK(after.at(kLog) == "# SESSION_LOG\nintro text\n\n## Notes\nkept note\n\n" + recent);
  CHECK(after.at("memory/ARCHIVES/sessions-2026-09.md") ==
        preamble(kLog) + "### 2026-09-01 a\nA\n### not a date\nstill a\n\n### 2026-09-02 b\nB\n");
  check_nothing_lost(files, after, kLog);
}

TEST_CASE("memorybox compact: CRLF and an unterminated last session move byte for byte") {
  std::string log;
  for (const std::string& d : recent_ten()) log += "### " + d + " r\r\n- x " + d + "\r\n\r\n";
  log += "### 2026-09-01 old\r\n- tail";
  const std::map<std::string, std::string> files = {{kLog, log}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  REQUIRE(c.plan.has_value());
  const std::map<std::string, std::string> after = applied(files, *c.plan);
  // The run reaches the end: the gap before it goes too, and the kept line keeps its CRLF.
  CHECK(after.at(kLog) == log.substr(0, log.find("\r\n\r\n### 2026-09-01") + 2));
  CHECK(after.at("memory/ARCHIVES/sessions-2026-09.md") ==
        "# Archived Memory: memory/SESSION_LOG.md\r\n\r\n"
        "Complete entries moved out of active memory by reviewed compaction.\r\n"
        "Load this file only when explicitly asked; it is not part of normal task context.\r\n"
        "\r\n### 2026-09-01 old\r\n- tail\r\n");
  check_nothing_lost(files, after, kLog);
}

TEST_CASE("memorybox compact: moved sessions join an existing archive in date order") {
  const std::string archive = "memory/ARCHIVES/sessions-2026-09.md";
  const std::string log = sessions({"2026-09-03"}) + sessions(recent_ten(), 1);
  const std::map<std::string, std::string> files = {
      {kLog, log}, {archive, preamble(kLog) + "### 2026-09-01 x\nX\n\n### 2026-09-09 y\nY\n"}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  REQUIRE(c.plan.has_value());
  CHECK(c.plan->operations().at(0).kind == OperationKind::replace);
  CHECK(applied(files, *c.plan).at(archive) ==
        preamble(kLog) +
            "### 2026-09-01 x\nX\n\n### 2026-09-03 s0\n- note 0\n\n### 2026-09-09 y\nY\n");
}

TEST_CASE("memorybox compact: ACTIVE_TASKS acts at 50 items, not at 49") {
  std::string tasks = "- [x] done long ago 2026-01-01\n";
  for (int i = 1; i < 49; ++i) tasks += "- [ ] open " + std::to_string(i) + "\n";
  const Compaction under = plan_memorybox_compaction(inputs_of({{kTasks, tasks}}), kAll, kNow);
  CHECK(rule(under, BloatRule::active_tasks).value == 49);
  CHECK_FALSE(rule(under, BloatRule::active_tasks).breached);
  CHECK(under.actions.empty());
  tasks += "- [ ] open 49\n";
  const Compaction at = plan_memorybox_compaction(inputs_of({{kTasks, tasks}}), kAll, kNow);
  CHECK(rule(at, BloatRule::active_tasks).breached);
  CHECK(paths_of(at, ActionKind::move) == std::vector<std::string>{id_of(kTasks, tasks, 0)});
  CHECK(at.actions[0].detail == "memory/ARCHIVES/tasks-2026-01.md");
  // ACTIVE_TASKS.md has a line budget: its plan says how many lines stay.
  REQUIRE(at.plan->budget_results().size() == 1);
  const BudgetResult& b = at.plan->budget_results()[0];
  CHECK(b.path == kTasks);
  CHECK(b.before == 50);
  CHECK(b.after == 49);
  CHECK(b.limit == 300);
  CHECK(b.state == BudgetState::ok);
}

TEST_CASE("memorybox compact: task states, completion dates and the 7-day rule") {
  const std::string tasks =
      "- [x] shipped 2026-11-23\n"       // 0: 7 days: stays
      "- [x] shipped 2026-11-22\n"       // 1: 8 days: moves
      "- [ ] open 2026-01-01\n"          // 2: open
      "- [x] x2026-10-01 no token\n"     // 3: listed
      "- [x] build 2026-10-012\n"        // 4: listed
      "- [x] fixed (done 2026-10-01)\n"  // 5: moves to October
      "- [X] upper 2026-11-01\n"         // 6: moves
      "- [x]no space 2026-01-01\n"       // 7: not completed
      "- [x] field wins 2026-11-29\n"    // 8: Done: decides
      "  Done: 2026-10-15\n"
      "- [x] bad field 2026-01-01\n"  // 9: invalid Done: undated
      "  Done: 2026-13-01\n";
  const std::map<std::string, std::string> files = {{kTasks, tasks}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  auto id = [&](std::size_t n) { return id_of(kTasks, tasks, n); };
  REQUIRE(c.actions.size() == 7);
  CHECK(c.actions[0].path == id(1));
  CHECK(c.actions[0].detail == "memory/ARCHIVES/tasks-2026-11.md");
  CHECK(c.actions[1].path == id(3));
  CHECK(c.actions[1].kind == ActionKind::list);
  CHECK(c.actions[1].detail == "completed without a date");
  CHECK(c.actions[2].path == id(4));
  CHECK(c.actions[2].kind == ActionKind::list);
  CHECK(c.actions[3].path == id(5));
  CHECK(c.actions[3].detail == "memory/ARCHIVES/tasks-2026-10.md");
  CHECK(c.actions[4].path == id(6));
  CHECK(c.actions[5].path == id(8));
  CHECK(c.actions[5].detail == "memory/ARCHIVES/tasks-2026-10.md");
  // The invalid Done: task is listed, though its line holds a date token.
  CHECK(c.actions[6].path == id(9));
  CHECK(c.actions[6].detail == "completed without a date");
  REQUIRE(c.findings.size() == 1);
  CHECK(c.findings[0].code == "MK-BOX-001");
  CHECK(c.findings[0].severity == Severity::warning);
  CHECK(c.findings[0].message ==
        "memory/ACTIVE_TASKS.md:12: invalid Done value '2026-13-01'; the task counts as undated");
  REQUIRE(c.plan.has_value());
  const std::map<std::string, std::string> after = applied(files, *c.plan);
  CHECK(after.at(kTasks) ==
        "- [x] shipped 2026-11-23\n- [ ] open 2026-01-01\n- [x] x2026-10-01 no token\n"
        "- [x] build 2026-10-012\n- [x]no space 2026-01-01\n- [x] bad field 2026-01-01\n"
        "  Done: 2026-13-01\n");
  CHECK(after.at("memory/ARCHIVES/tasks-2026-10.md") ==
        preamble(kTasks) +
            "- [x] fixed (done 2026-10-01)\n\n- [x] field wins 2026-11-29\n"
            "  Done: 2026-10-15\n");
  CHECK(after.at("memory/ARCHIVES/tasks-2026-11.md") ==
        preamble(kTasks) + "- [x] shipped 2026-11-22\n\n- [X] upper 2026-11-01\n");
  check_nothing_lost(files, after, kTasks);
}

TEST_CASE("memorybox compact: a completed task has a state only with its marker and a space") {
  CHECK(is_completed_task("- [x] a"));
  CHECK(is_completed_task("* [X] a"));
  CHECK_FALSE(is_completed_task("- [ ] a"));
  CHECK_FALSE(is_completed_task("- [x]"));
  CHECK_FALSE(is_completed_task("- [x]a"));
  CHECK_FALSE(is_completed_task("- x a"));
}

TEST_CASE("memorybox compact: a date token has no letter or digit next to it") {
  CHECK_FALSE(last_date_token("x2026-10-01").has_value());
  CHECK_FALSE(last_date_token("2026-10-012").has_value());
  CHECK_FALSE(last_date_token("12026-10-01").has_value());
  CHECK_FALSE(last_date_token("2026-02-30").has_value());  // no such day
  CHECK_FALSE(last_date_token("\xC3\xA9"
                              "2026-10-01")
                  .has_value());  // é, a letter
  CHECK_FALSE(last_date_token("\xD9\xA3"
                              "2026-10-01")
                  .has_value());  // ٣, a digit (Nd)
  CHECK(last_date_token("(done 2026-10-01)") == parse_iso_date("2026-10-01"));
  CHECK(last_date_token("2026-10-01") == parse_iso_date("2026-10-01"));
  CHECK(last_date_token("_2026-10-01_") == parse_iso_date("2026-10-01"));  // `_` is no letter
  CHECK(last_date_token("\xE2\x80\x94"
                        "2026-10-01") == parse_iso_date("2026-10-01"));  // —
  CHECK(last_date_token("a 2026-01-01 b 2026-02-03 c") == parse_iso_date("2026-02-03"));
  CHECK(last_date_token("2026-01-01 then 2026-02-03x") == parse_iso_date("2026-01-01"));
}

TEST_CASE("memorybox compact: a daily file moves when more than 30 days old, not at 30") {
  const std::string day = "\xEF\xBB\xBFId: 0190a0b0-0000-7000-8000-000000000000\n\n- worked\n\n";
  const std::map<std::string, std::string> files = {{"memory/daily/2026-10-30.md", day},
                                                    {"memory/daily/2026-10-31.md", "- kept\n"},
                                                    {"memory/daily/2026-11-02.md", "- now\n"}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kAll, kNow);
  CHECK(rule(c, BloatRule::daily).value == 1);
  CHECK(rule(c, BloatRule::daily).breached);
  REQUIRE(c.actions.size() == 2);
  CHECK(c.actions[0].kind == ActionKind::archive);
  CHECK(c.actions[0].path == "memory/daily/2026-10-30.md");
  CHECK(c.actions[0].detail == "memory/ARCHIVES/daily-2026-10.md");
  CHECK(c.actions[1].kind == ActionKind::remove);
  CHECK(action_kind_name(c.actions[1].kind) == "delete");
  CHECK(c.actions[1].path == "memory/daily/2026-10-30.md");
  REQUIRE(c.plan.has_value());
  REQUIRE(c.plan->operations().size() == 2);
  CHECK(c.plan->operations()[1].kind == OperationKind::remove);
  const std::map<std::string, std::string> after = applied(files, *c.plan);
  CHECK(after.count("memory/daily/2026-10-30.md") == 0);
  // The day's bytes without the BOM, its Id: line included.
  CHECK(after.at("memory/ARCHIVES/daily-2026-10.md") ==
        preamble("memory/daily/") +
            "## 2026-10-30\n\nId: 0190a0b0-0000-7000-8000-000000000000\n\n- worked\n");
}

TEST_CASE("memorybox compact: daily files of an earlier month, judged by age") {
  const std::map<std::string, std::string> files = {{"memory/daily/2026-10-31.md", "- a\n"},
                                                    {"memory/daily/2026-11-01.md", "- b\n"}};
  // On 2026-12-01, 2026-11-01 is 30 days old (stays) and 2026-10-31 is 31 (moves).
  const Compaction c =
      plan_memorybox_compaction(inputs_of(files), kAll, at("2026-12-01T08:00:00+00:00"));
  CHECK(rule(c, BloatRule::daily).value == 1);
  CHECK(paths_of(c, ActionKind::archive) == std::vector<std::string>{"memory/daily/2026-10-31.md"});
  // On 2026-11-30 neither is more than 30 days old: the rule does not act, even forced.
  const Compaction none = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  CHECK(rule(none, BloatRule::daily).value == 0);
  CHECK_FALSE(rule(none, BloatRule::daily).breached);
  CHECK(none.actions.empty());
  CHECK_FALSE(none.plan.has_value());
}

namespace {

// MISTAKES.md with `n` distinct filler entries after the given ones.
std::string mistakes(const std::string& first, int n) {
  std::string out = "# MISTAKES\n\n" + first;
  for (int i = 0; i < n; ++i) {
    out += "## Mistake " + std::to_string(i) + "\nFiller " + std::to_string(i) + "\n\n";
  }
  return out;
}

}  // namespace

TEST_CASE("memorybox compact: MISTAKES acts at 30 entries, not at 29") {
  const std::string dup = "## Twice\nx\n\n## Twice\ny\n\n";
  const Compaction under =
      plan_memorybox_compaction(inputs_of({{kMistakes, mistakes(dup, 27)}}), kAll, kNow);
  CHECK(rule(under, BloatRule::mistakes).value == 29);
  CHECK_FALSE(rule(under, BloatRule::mistakes).breached);
  CHECK(under.actions.empty());
  const Compaction at =
      plan_memorybox_compaction(inputs_of({{kMistakes, mistakes(dup, 28)}}), kAll, kNow);
  CHECK(rule(at, BloatRule::mistakes).value == 30);
  CHECK(paths_of(at, ActionKind::move).size() == 1);
}

TEST_CASE("memorybox compact: MISTAKES moves duplicates and resolved entries, lists merges") {
  const std::string a =
      "## Deploy without tests\nWe deployed on friday without running the integration tests "
      "first.\n\n";
  const std::string b =
      "## Deployed without tests\nWe deployed on friday without running the integration tests "
      "again.\n\n";
  const std::string text = mistakes(
      a + "## Fixed thing\nStatus: resolved\nIt was fixed.\n\n## Deploy without tests\nagain\n\n" +
          "## Capital status\nStatus: Resolved\n\n" + b,
      2);
  const std::map<std::string, std::string> files = {{kMistakes, text}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  auto id = [&](std::size_t n) { return id_of(kMistakes, text, n); };
  REQUIRE(c.actions.size() == 3);
  CHECK(c.actions[0].path == id(1));  // resolved
  CHECK(c.actions[0].detail == "memory/ARCHIVES/mistakes-2026-11.md");
  CHECK(c.actions[1].path == id(2));  // the second "Deploy without tests"
  CHECK(id(2) == id(0));
  // The pair names the smaller ID first; the similarity is the exact §4 one, rounded down.
  const std::string first = std::min(id(0), id(4));
  const std::string second = std::max(id(0), id(4));
  const similarity::Match sim = similarity::similarity(
      "## Deploy without tests\nWe deployed on friday without running the integration tests "
      "first.",
      "## Deployed without tests\nWe deployed on friday without running the integration tests "
      "again.");
  REQUIRE(sim.hundredths >= 60);
  CHECK(c.actions[2].kind == ActionKind::list);
  CHECK(c.actions[2].path == first);
  CHECK(c.actions[2].detail ==
        "merge candidate: " + second + ", similarity 0." + std::to_string(sim.hundredths));
  REQUIRE(c.plan.has_value());
  const std::map<std::string, std::string> after = applied(files, *c.plan);
  CHECK(after.at("memory/ARCHIVES/mistakes-2026-11.md") ==
        preamble(kMistakes) +
            "## Fixed thing\nStatus: resolved\nIt was fixed.\n\n## Deploy without tests\nagain\n");
  check_nothing_lost(files, after, kMistakes);
}

TEST_CASE("memorybox compact: merge candidates are ranked by similarity, then by IDs") {
  // Three near-identical entries: three pairs, equal similarity, so ordered by their IDs.
  const std::string body = "one two three four five six seven eight nine ten\n\n";
  const std::string text =
      mistakes("## Alpha\n" + body + "## Beta\n" + body + "## Gamma\n" + body, 0);
  const Compaction c = plan_memorybox_compaction(inputs_of({{kMistakes, text}}), kForce, kNow);
  std::vector<std::string> ids = {id_of(kMistakes, text, 0), id_of(kMistakes, text, 1),
                                  id_of(kMistakes, text, 2)};
  std::sort(ids.begin(), ids.end());
  REQUIRE(c.actions.size() == 3);
  CHECK(c.actions[0].path == ids[0]);
  CHECK(c.actions[0].detail.rfind("merge candidate: " + ids[1] + ", similarity 0.", 0) == 0);
  CHECK(c.actions[1].path == ids[0]);
  CHECK(c.actions[1].detail.rfind("merge candidate: " + ids[2], 0) == 0);
  CHECK(c.actions[2].path == ids[1]);
  CHECK_FALSE(c.plan.has_value());  // lists only: nothing to write
}

TEST_CASE("memorybox compact: PATTERNS acts at 30 entries, promotion and low-use candidates") {
  std::string filler;
  for (int i = 0; i < 23; ++i) {
    filler += "## Filler " + std::to_string(i) + "\nLast-Used: 2026-11-29\n\n";
  }
  const std::string text =
      "# PATTERNS\n\n## Use retries\nConfidence: 0.90\nVerified: 2026-11-01\n"
      "Last-Used: 2026-11-20\n\n"
      "## Cache everything\nConfidence: 0.85\nVerified: 2026-10-01\n\n"
      "## Old habit\nLast-Used: 2026-09-01\n\n"
      "## Recent habit\nLast-Used: 2026-09-02\n\n"
      "## Broken date\nLast-Used: yesterday\n\n"
      "## Use retries\nLast-Used: 2026-11-29\n\n"
      "## Exactly at the bound\nConfidence: 0.90\nVerified: 2026-10-01\n\n" +
      filler;
  const Compaction under = plan_memorybox_compaction(
      inputs_of({{kPatterns, text.substr(0, text.rfind("## Filler 22"))}}), kAll, kNow);
  CHECK(rule(under, BloatRule::patterns).value == 29);
  CHECK(under.actions.empty());
  CHECK(under.findings.empty());  // a rule that does not act reads no field

  const Compaction c = plan_memorybox_compaction(inputs_of({{kPatterns, text}}), kAll, kNow);
  CHECK(rule(c, BloatRule::patterns).value == 30);
  auto id = [&](std::size_t n) { return id_of(kPatterns, text, n); };
  REQUIRE(c.actions.size() == 7);
  CHECK(c.actions[0].kind == ActionKind::move);
  CHECK(c.actions[0].path == id(5));
  CHECK(c.actions[0].detail == "memory/ARCHIVES/patterns-2026-11.md");
  CHECK(c.actions[1].path == id(0));
  CHECK(c.actions[1].detail == "promotion candidate: effective 0.90");
  CHECK(c.actions[2].path == id(6));  // 0.90 at 60 days is exactly 0.80
  CHECK(c.actions[2].detail == "promotion candidate: effective 0.80");
  CHECK(c.actions[3].path == id(1));  // 0.85 at 60 days is 0.75: no promotion; no Last-Used
  CHECK(c.actions[3].detail == "low use: Last-Used missing");
  CHECK(c.actions[4].path == id(2));  // 90 days; 89 days is not low use
  CHECK(c.actions[4].detail == "low use: Last-Used 2026-09-01");
  CHECK(c.actions[5].path == id(4));
  CHECK(c.actions[5].detail == "low use: Last-Used missing");
  CHECK(c.actions[6].path == id(6));
  REQUIRE(c.findings.size() == 1);
  CHECK(c.findings[0].code == "MK-BOX-001");
  CHECK(c.findings[0].message ==
        "memory/PATTERNS.md:19: invalid Last-Used value 'yesterday'; it counts as missing");
}

TEST_CASE("memorybox compact: --force acts under the threshold, --file runs one rule") {
  const std::string tasks = "- [x] old 2026-01-01\n- [ ] open\n";
  const std::map<std::string, std::string> files = {{kTasks, tasks},
                                                    {kLog, sessions({"2026-01-01"})}};
  CHECK(plan_memorybox_compaction(inputs_of(files), kAll, kNow).actions.empty());
  const Compaction forced = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  CHECK(forced.actions.size() == 1);  // the only session is among the 10 newest
  CHECK(forced.plan->arguments().at("force") == PlanArgument::flag(true));

  const Compaction one = plan_memorybox_compaction(
      inputs_of(files), CompactRequest{BloatRule::active_tasks, true}, kNow);
  REQUIRE(one.rules.size() == 1);
  CHECK(one.rules[0].rule == BloatRule::active_tasks);
  CHECK(one.plan->arguments().at("file") == kTasks);
  CHECK(one.plan->id() != forced.plan->id());
  CHECK(bloat_rule_of_file("memory/daily") == BloatRule::daily);
  CHECK(bloat_rule_of_file("memory/daily/") == BloatRule::daily);
  CHECK_FALSE(bloat_rule_of_file("memory/LONG_TERM.md").has_value());
}

TEST_CASE("memorybox compact: the Plan ID depends on the inputs and the date only") {
  const std::map<std::string, std::string> files = {{kTasks, "- [x] old 2026-01-01\n"}};
  const Compaction a = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  const Compaction b =
      plan_memorybox_compaction(inputs_of(files), kForce, at("2026-11-30T23:00:00+01:00"));
  const Compaction c =
      plan_memorybox_compaction(inputs_of({{kTasks, "- [x] old 2026-01-02\n"}}), kForce, kNow);
  CHECK(a.plan->id() == b.plan->id());
  CHECK(a.plan->id() != c.plan->id());
  CHECK(a.plan->id().size() == 16);
}

TEST_CASE("memorybox compact: an unparseable or ill-formed file stops the plan") {
  const Compaction fence = plan_memorybox_compaction(
      inputs_of({{kMistakes, "## A\n```\nnever closed\n"}, {kTasks, "- [x] old 2026-01-01\n"}}),
      kForce, kNow);
  REQUIRE(fence.findings.size() == 1);
  CHECK(fence.findings[0].code == "MK-PARSE-001");
  CHECK(fence.findings[0].severity == Severity::blocker);
  CHECK_FALSE(fence.plan.has_value());

  const Compaction utf8 = plan_memorybox_compaction(
      inputs_of({{kTasks, "- [x] old 2026-01-01\n- bad \xFF\n"}}), kForce, kNow);
  REQUIRE(utf8.findings.size() == 1);
  CHECK(utf8.findings[0].code == "MK-UTF8-001");
  CHECK_FALSE(utf8.plan.has_value());
  CHECK(utf8.actions.size() == 1);  // what would move is still shown

  // An archive file that is not memkit's to write stops it too.
  const Compaction broken = plan_memorybox_compaction(
      inputs_of({{kTasks, "- [x] old 2026-01-01\n"},
                 {"memory/ARCHIVES/tasks-2026-01.md", "<!-- never closed\n"}}),
      kForce, kNow);
  REQUIRE(broken.findings.size() == 1);
  CHECK(broken.findings[0].path == "memory/ARCHIVES/tasks-2026-01.md");
  CHECK_FALSE(broken.plan.has_value());
}

TEST_CASE("memorybox compact: actions come rule by rule, in the order of the table") {
  const std::map<std::string, std::string> files = {
      {"memory/daily/2026-01-01.md", "- d\n"},
      {kTasks, "- [x] old 2026-01-01\n"},
      {kLog, sessions(recent_ten()) + sessions({"2026-01-01"}, 10)}};
  const Compaction c = plan_memorybox_compaction(inputs_of(files), kForce, kNow);
  REQUIRE(c.actions.size() == 4);
  CHECK(c.actions[0].rule == BloatRule::session_log);
  CHECK(c.actions[1].rule == BloatRule::active_tasks);
  CHECK(c.actions[2].rule == BloatRule::daily);
  CHECK(c.actions[3].rule == BloatRule::daily);
  REQUIRE(c.plan.has_value());
  CHECK(c.plan->operations().size() == 6);  // 3 archives, 2 sources, 1 deleted day
  const std::map<std::string, std::string> after = applied(files, *c.plan);
  check_nothing_lost(files, after, kTasks);
}
