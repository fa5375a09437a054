// The moves of one entry: `promote` (spec memorybox.md §7 PATTERNS, §11) and `update --resolve
// archive` (§6), byte for byte.
#include <vector>

#include "moves_support.hpp"

using namespace moves_test;

namespace {

const std::string kPatterns = "memory/PATTERNS.md";
const std::string kSop = "memory/SOP_LIBRARY.md";

// The files after promoting `entry`, which must make a plan.
std::map<std::string, std::string> promoted(const std::map<std::string, std::string>& files,
                                            const std::string& entry) {
  const Result<EntryMove> move = plan_promote(inputs_of(files), entry, kNow);
  REQUIRE(move);
  REQUIRE(move->plan.has_value());
  CHECK(move->findings.empty());
  return applied(files, *move->plan);
}

std::map<std::string, std::string> archived(const std::map<std::string, std::string>& files,
                                            const std::string& entry) {
  const Result<EntryMove> move = plan_resolve_archive(inputs_of(files), entry, kNow);
  REQUIRE(move);
  REQUIRE(move->plan.has_value());
  CHECK(move->findings.empty());
  return applied(files, *move->plan);
}

}  // namespace

TEST_CASE("memorybox promote: a pattern moves verbatim to the end of SOP_LIBRARY.md") {
  const std::string patterns =
      "# PATTERNS\n\n## Retry\nConfidence: 0.90\nVerified: 2026-11-01\nUse backoff.\n\n"
      "## Other\nx\n";
  const std::map<std::string, std::string> files = {
      {kPatterns, patterns}, {kSop, "# SOP_LIBRARY\n\n## Deploy\nsteps\n\n"}};
  const std::string id = id_of(kPatterns, patterns, 0);
  const Result<EntryMove> move = plan_promote(inputs_of(files), id, kNow);
  REQUIRE(move);
  CHECK(move->destination == kSop);
  CHECK(move->before.stored == 90u);
  CHECK(move->after.stored == 90u);
  REQUIRE(move->plan.has_value());
  CHECK(move->plan->command() == "memorybox promote");
  CHECK(move->plan->arguments() == PlanArguments{{"entry", id}});
  // Both files have line budgets (tiers 3 and 2).
  REQUIRE(move->plan->budget_results().size() == 2);
  CHECK(move->plan->budget_results()[0].path == kPatterns);
  CHECK(move->plan->budget_results()[0].before == 9);
  CHECK(move->plan->budget_results()[0].after == 4);
  CHECK(move->plan->budget_results()[0].limit == 200);
  CHECK(move->plan->budget_results()[1].path == kSop);
  CHECK(move->plan->budget_results()[1].after == 10);
  CHECK(move->plan->budget_results()[1].limit == 300);

  const std::map<std::string, std::string> after = applied(files, *move->plan);
  CHECK(after.at(kPatterns) == "# PATTERNS\n\n## Other\nx\n");
  // compaction.md §7.3 append: after the last non-blank line, one empty line first; the
  // trailing blank line stays last.
  CHECK(after.at(kSop) ==
        "# SOP_LIBRARY\n\n## Deploy\nsteps\n\n## Retry\nConfidence: 0.90\nVerified: 2026-11-01\n"
        "Use backoff.\n\n");
}

TEST_CASE("memorybox promote: a bullet follows a bullet tightly, an unterminated line is ended") {
  const std::string patterns = "- retry with backoff\n  Confidence: 0.8\n- other\n";
  const std::map<std::string, std::string> after = promoted(
      {{kPatterns, patterns}, {kSop, "# SOP\n\n- deploy steps"}}, id_of(kPatterns, patterns, 0));
  CHECK(after.at(kPatterns) == "- other\n");
  CHECK(after.at(kSop) == "# SOP\n\n- deploy steps\n- retry with backoff\n  Confidence: 0.8\n");
}

TEST_CASE("memorybox promote: a missing SOP_LIBRARY.md is created with the entry alone") {
  const std::string patterns = "## Retry\nUse backoff.";
  const std::map<std::string, std::string> after =
      promoted({{kPatterns, patterns}}, id_of(kPatterns, patterns, 0));
  CHECK(after.at(kPatterns).empty());
  CHECK(after.at(kSop) == "## Retry\nUse backoff.\n");
  // In a CRLF file the moved text keeps its bytes; only the missing terminator is CRLF.
  const std::map<std::string, std::string> crlf =
      promoted({{kPatterns, patterns}, {kSop, "# SOP\r\n"}}, id_of(kPatterns, patterns, 0));
  CHECK(crlf.at(kSop) == "# SOP\r\n\r\n## Retry\nUse backoff.\r\n");
}

TEST_CASE("memorybox promote: only a pattern, and only into a file of the same entry shape") {
  const std::string patterns = "## Retry\nx\n";
  const std::string id = id_of(kPatterns, patterns, 0);
  const Inputs in = inputs_of(
      {{kPatterns, patterns}, {"memory/MISTAKES.md", "## Retry\nx\n"}, {kSop, "- a bullet SOP\n"}});
  const Result<EntryMove> other =
      plan_promote(in, id_of("memory/MISTAKES.md", "## Retry\nx\n", 0), kNow);
  REQUIRE_FALSE(other);
  CHECK(other.status().code() == Errc::invalid_argument);
  CHECK(other.status().message().find("promote takes an entry of memory/PATTERNS.md") !=
        std::string::npos);
  CHECK_FALSE(plan_promote(in, "memory/PATTERNS.md#000000000000", kNow));
  CHECK_FALSE(plan_promote(in, "no-hash", kNow));
  // A section after bullets would turn SOP_LIBRARY.md's bullets into preamble text.
  const Result<EntryMove> shape = plan_promote(in, id, kNow);
  REQUIRE_FALSE(shape);
  CHECK(shape.status().message().find("holds bullets") != std::string::npos);
  const std::string bullet = "- retry\n";
  const Result<EntryMove> reverse =
      plan_promote(inputs_of({{kPatterns, bullet}, {kSop, "## Deploy\nx\n"}}),
                   id_of(kPatterns, bullet, 0), kNow);
  REQUIRE_FALSE(reverse);
  CHECK(reverse.status().message().find("holds H2 sections") != std::string::npos);
  // A file with a title only has no entries yet: any shape is welcome.
  CHECK(plan_promote(inputs_of({{kPatterns, patterns}, {kSop, "# SOP\n"}}), id, kNow));
}

TEST_CASE("memorybox promote: an unparseable SOP_LIBRARY.md stops the plan") {
  const std::string patterns = "## Retry\nx\n";
  const Result<EntryMove> move =
      plan_promote(inputs_of({{kPatterns, patterns}, {kSop, "```\nopen\n"}}),
                   id_of(kPatterns, patterns, 0), kNow);
  REQUIRE(move);
  REQUIRE(move->findings.size() == 1);
  CHECK(move->findings[0].code == "MK-PARSE-001");
  CHECK(move->findings[0].severity == Severity::blocker);
  CHECK_FALSE(move->plan.has_value());
}

TEST_CASE("memorybox update --resolve archive: an entry moves to <stem>-<this month>.md") {
  const std::string path = "memory/LONG_TERM.md";
  const std::string text =
      "# LONG_TERM\n\n## Infra\n- old fact\n  Confidence: 0.85\n  Verified: 2026-01-01\n"
      "  Review: contradicted 2026-11-01: moved\n- kept fact\n";
  const std::string id = id_of(path, text, 0);
  const Result<EntryMove> move = plan_resolve_archive(inputs_of({{path, text}}), id, kNow);
  REQUIRE(move);
  CHECK(move->destination == "memory/ARCHIVES/long_term-2026-11.md");
  CHECK(move->before.stored == 85u);
  CHECK(move->before.effective == 55u);
  CHECK(move->before.review == std::optional<std::string>("contradicted 2026-11-01: moved"));
  CHECK(move->after.effective == move->before.effective);
  REQUIRE(move->plan.has_value());
  CHECK(move->plan->command() == "memorybox update");
  CHECK(move->plan->arguments() == PlanArguments{{"entry", id}, {"resolve", "archive"}});
  const std::map<std::string, std::string> after = applied({{path, text}}, *move->plan);
  CHECK(after.at(path) == "# LONG_TERM\n\n## Infra\n- kept fact\n");
  CHECK(after.at("memory/ARCHIVES/long_term-2026-11.md") ==
        preamble(path) +
            "- old fact\n  Confidence: 0.85\n  Verified: 2026-01-01\n"
            "  Review: contradicted 2026-11-01: moved\n");
}

TEST_CASE("memorybox update --resolve archive: a daily file is archived whole, then deleted") {
  const std::string day = "memory/daily/2026-09-14.md";
  const std::map<std::string, std::string> files = {
      {day, "Id: 0190a0b0-0000-7000-8000-000000000000\n\n- went well\n"},
      {"memory/ARCHIVES/daily-2026-11.md",
       preamble("memory/daily/") + "## 2026-09-20\n\n- later\n"}};
  const std::string id = id_of(day, files.at(day), 0);
  CHECK(id.rfind(day + "#", 0) == 0);
  const std::map<std::string, std::string> after = archived(files, id);
  CHECK(after.count(day) == 0);
  // The month of today names the archive; the day's own date orders it.
  CHECK(after.at("memory/ARCHIVES/daily-2026-11.md") ==
        preamble("memory/daily/") +
            "## 2026-09-14\n\nId: 0190a0b0-0000-7000-8000-000000000000\n\n- went well\n\n"
            "## 2026-09-20\n\n- later\n");
}

TEST_CASE("memorybox update --resolve archive: sessions and sections keep their layouts") {
  const std::string log = "memory/SESSION_LOG.md";
  const std::string sessions = "# LOG\n\n### 2026-11-02 a\nA\n\n### 2026-11-03 b\nB\n";
  const std::map<std::string, std::string> after =
      archived({{log, sessions},
                {"memory/ARCHIVES/sessions-2026-11.md", preamble(log) + "### 2026-11-05 c\nC\n"}},
               id_of(log, sessions, 0));
  CHECK(after.at(log) == "# LOG\n\n### 2026-11-03 b\nB\n");
  CHECK(after.at("memory/ARCHIVES/sessions-2026-11.md") ==
        preamble(log) + "### 2026-11-02 a\nA\n\n### 2026-11-05 c\nC\n");

  const std::string mistakes = "memory/MISTAKES.md";
  const std::string text = "## A\nStatus: open\n\n## B\nb\n";
  const std::map<std::string, std::string> m = archived(
      {{mistakes, text}, {"memory/ARCHIVES/mistakes-2026-11.md", preamble(mistakes) + "## Z\nz"}},
      id_of(mistakes, text, 1));
  CHECK(m.at(mistakes) == "## A\nStatus: open\n");
  CHECK(m.at("memory/ARCHIVES/mistakes-2026-11.md") == preamble(mistakes) + "## Z\nz\n\n## B\nb\n");
}

TEST_CASE("memorybox update --resolve archive: only entries of tier 1-4 files") {
  const std::string canon = "brain/MARKETING_CANON.md";
  const Inputs in = inputs_of({{canon, "- immutable\n"},
                               {"memory/ARCHIVES/x-2026-01.md", "- archived\n"},
                               {"memory/LONG_TERM.md", "- fact\n"}});
  const Result<EntryMove> refused =
      plan_resolve_archive(in, id_of(canon, "- immutable\n", 0), kNow);
  REQUIRE_FALSE(refused);
  CHECK(refused.status().message() == "--entry: brain/MARKETING_CANON.md: canon entries are immutable");
  CHECK_FALSE(
      plan_resolve_archive(in, id_of("memory/ARCHIVES/x-2026-01.md", "- archived\n", 0), kNow));
  const Result<EntryMove> unknown =
      plan_resolve_archive(in, "memory/LONG_TERM.md#000000000000", kNow);
  REQUIRE_FALSE(unknown);
  CHECK(unknown.status().message() == "--entry: memory/LONG_TERM.md#000000000000: no such entry");
  const Result<EntryMove> missing =
      plan_resolve_archive(in, "memory/DECISIONS.md#000000000000", kNow);
  REQUIRE_FALSE(missing);
  CHECK(missing.status().message() == "--entry: memory/DECISIONS.md: no such file");
}
