// Target mode (spec compaction.md §9) and its §20 vector.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "memkit/compact.hpp"
#include "memory_inputs.hpp"

using namespace memkit;
using memkit::testing::inputs_of;
using memkit::testing::output_of;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-03-07T10:00:00+00:00");

std::string words(std::size_t n) {  // n tokens
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += " x";
  return s;
}

TargetCompaction compact(std::map<std::string, std::string> files, const std::string& target) {
  if (files.count("manifest.md") == 0)
    files["manifest.md"] = "## MemoryCustodian Protocol\n- protocol_version: 0.7\n";
  const CustodianInputs in = inputs_of(files);
  return plan_target_compaction(in, target, default_token_counter(), kNow);
}

std::vector<std::string> codes(const TargetCompaction& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.findings) out.push_back(f.code);
  return out;
}

const std::string kX = "-" + words(300);  // 301 tokens
const std::string kChangelog = "# Memory Changelog\n\n## 2026-03-07\n" + kX +
                               "\n\n## 2026-03-06\n" + kX + "\n\n## 2026-03-05\n" + kX + "\n";

}  // namespace

TEST_CASE("compact: the §20 changelog archival vector has Plan ID 6d7b146d885f8313") {
  const TargetCompaction r =
      compact({{"changelog.md", kChangelog}, {"archive/README.md", "# Archive\n"}}, "changelog.md");
  CHECK(r.tokens == 927);
  CHECK(r.state == BudgetState::over_budget);
  CHECK(r.action == TargetAction::archive);
  CHECK(r.keep_entries == 2);
  CHECK(r.archive_entries == 1);
  CHECK(r.archive_path == "archive/changelog-2026-03-07.md");
  CHECK(r.projected_tokens == std::optional<std::uint64_t>(619));
  CHECK(output_of(r.plan, "changelog.md") ==
        "# Memory Changelog\n\n## 2026-03-07\n" + kX + "\n\n## 2026-03-06\n" + kX + "\n");
  CHECK(output_of(r.plan, "archive/changelog-2026-03-07.md") ==
        "# Archived Memory: changelog.md\n\nComplete entries moved out of active memory by "
        "reviewed compaction.\nLoad this file only when explicitly asked; it is not part of normal "
        "task context.\n\n## 2026-03-05\n" +
            kX + "\n");
  CHECK(r.plan->id() == "6d7b146d885f8313");
  CHECK(r.plan->operations().size() == 2);
}

TEST_CASE("compact: a missing archive README joins the plan") {
  const TargetCompaction r = compact({{"changelog.md", kChangelog}}, "changelog.md");
  CHECK(output_of(r.plan, "archive/README.md") == custodian::archive_readme());
  CHECK(r.plan->id() != "6d7b146d885f8313");
}

TEST_CASE("compact: targets are normalised and refused as §9 says") {
  CHECK(*normalize_compaction_target(" rules\\a.md ") == "rules/a.md");
  for (const char* bad :
       {"/abs/decisions.md", "C:/x.md", "../decisions.md", "a//b.md", "./brief.md", "notes.txt",
        "manifest.md", "inbox.md", "archive/x.md", "notes.md", ""}) {
    CAPTURE(bad);
    const Result<std::string> r = normalize_compaction_target(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Errc::invalid_argument);
  }
  CHECK(normalize_compaction_target("inbox.md").status().message() ==
        "--target: inbox.md: use `memkit custodian compact` without --target");
}

TEST_CASE("compact: within budget there is no plan, NEAR LIMIT previews maintenance") {
  const TargetCompaction ok = compact({{"constraints.md", "- a\n"}}, "constraints.md");
  CHECK(ok.action == TargetAction::none);
  CHECK_FALSE(ok.plan.has_value());
  CHECK(ok.findings.empty());
  const TargetCompaction near =
      compact({{"constraints.md", "-" + words(339) + "\n"}}, "constraints.md");
  CHECK(near.state == BudgetState::near_limit);
  CHECK(codes(near) == std::vector<std::string>{"MK-BUDGET-002"});
  REQUIRE(near.maintenance_preview.has_value());
  CHECK(near.maintenance_preview->size() == 1);
}

TEST_CASE("compact: an over-budget bullet file loses its exact duplicates, first kept") {
  const std::string line = "-" + words(150) + "\n";
  const TargetCompaction r =
      compact({{"constraints.md", line + "- keep\n" + line + line}, {"changelog.md", "# L\n"}},
              "constraints.md");
  CHECK(r.action == TargetAction::dedupe);
  CHECK(r.duplicates_removed == 2);
  CHECK(output_of(r.plan, "constraints.md") == line + "- keep\n");
  CHECK(codes(r).empty());
  CHECK(output_of(r.plan, "changelog.md") ==
        "# L\n\n## 2026-03-07\n- constraints.md compaction: removed 2 exact duplicate bullet "
        "unit(s).\n");
  REQUIRE(r.plan->budget_results().size() == 2);
}

TEST_CASE("compact: dedupe that still leaves the file over budget asks for review") {
  const std::string line = "-" + words(250) + "\n";
  const TargetCompaction r =
      compact({{"constraints.md", line + line + "-" + words(200) + "\n"}}, "constraints.md");
  CHECK(r.plan.has_value());
  CHECK(codes(r) == std::vector<std::string>{"MK-REVIEW-001"});
  const TargetCompaction none =
      compact({{"constraints.md", "-" + words(450) + "\n"}}, "constraints.md");
  CHECK(none.action == TargetAction::manual_review);
  CHECK_FALSE(none.plan.has_value());
}

TEST_CASE("compact: brief, do-not-use and modules are manual review only") {
  for (const char* target : {"brief.md", "do-not-use.md", "rules/x.md"}) {
    CAPTURE(target);
    const TargetCompaction r = compact({{target, "-" + words(700) + "\n"}}, target);
    CHECK(r.action == TargetAction::manual_review);
    CHECK_FALSE(r.plan.has_value());
    CHECK(codes(r) == std::vector<std::string>{"MK-REVIEW-001"});
  }
}

TEST_CASE("compact: decisions archival keeps long decisions visible to the gate") {
  const std::string decisions = "# Decisions\n\n## 2026-03-03 - C\nDecision:" + words(130) +
                                "\n\n## 2026-03-02 - B\nDecision:" + words(700) +
                                "\n\n## 2026-03-01 - A\nDecision:" + words(100) + "\n";
  const TargetCompaction r = compact({{"decisions.md", decisions}}, "decisions.md");
  CHECK(r.action == TargetAction::archive);
  CHECK(r.keep_entries == 1);
  REQUIRE(r.kept_long_decisions.size() == 1);
  CHECK(r.kept_long_decisions[0].title == "2026-03-03 - C");
  CHECK(codes(r) == std::vector<std::string>{"MK-REVIEW-001"});
  std::vector<std::string> gates;
  for (const Finding& f : decision_gates(r, false)) gates.push_back(f.code);
  CHECK(gates == std::vector<std::string>{"MK-GATE-001", "MK-GATE-002"});
  CHECK(decision_gates(r, true).size() == 1);
}

TEST_CASE("compact: archival never archives everything and needs two entries") {
  const TargetCompaction all = compact(
      {{"changelog.md", "# L\n\n## b\n-" + words(900) + "\n\n## a\n- x\n"}}, "changelog.md");
  CHECK(all.action == TargetAction::manual_review);
  const TargetCompaction one =
      compact({{"changelog.md", "## a\n-" + words(900) + "\n"}}, "changelog.md");
  CHECK(one.action == TargetAction::manual_review);
  const TargetCompaction h1 =
      compact({{"changelog.md", "## b\n-" + words(500) + "\n# Title\n## a\n-" + words(500) + "\n"}},
              "changelog.md");
  CHECK(h1.action == TargetAction::manual_review);
}
