// Inbox mode (spec compaction.md §8) and its §20 vectors.
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

InboxCompaction compact(std::map<std::string, std::string> files) {
  if (files.count("manifest.md") == 0) {
    files["manifest.md"] = "## MemoryCustodian Protocol\n- protocol_version: 0.7\n";
  }
  return plan_inbox_compaction(inputs_of(files), default_token_counter(), kNow);
}

std::vector<std::string> codes(const InboxCompaction& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.findings) {
    out.push_back(f.code + " " + std::string(severity_name(f.severity)) + " " + f.path);
  }
  return out;
}

}  // namespace

TEST_CASE("compact: the §20 inbox vector removes one duplicate with Plan ID 3d36af5e83bd5ddb") {
  const InboxCompaction r =
      compact({{"inbox.md", "# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n"}});
  CHECK(r.inbox_items == 3);
  CHECK(r.duplicates == 1);
  CHECK(r.tombstone_matches == 0);
  CHECK(r.candidates.size() == 2);
  REQUIRE(r.plan.has_value());
  CHECK(r.plan->id() == "3d36af5e83bd5ddb");
  CHECK(output_of(r.plan, "inbox.md") == "# Inbox\n\n- Use tabs\n- Keep CRLF\n");
  CHECK(r.findings.empty());
}

TEST_CASE("compact: the §20 loose and tight lists vector") {
  const InboxCompaction r = compact(
      {{"inbox.md",
        "# Memory Inbox\n\n- a\n- b\n\n- A\n  nested\n- a\n\n* * *\n- - -\n* * *\n\nText\n"}});
  CHECK(r.duplicates == 1);
  CHECK(r.candidates.size() == 3);
  CHECK(output_of(r.plan, "inbox.md") ==
        "# Memory Inbox\n\n- a\n- b\n\n- A\n  nested\n\n* * *\n- - -\n* * *\n\nText\n");
  REQUIRE(r.candidates.size() == 3);
  CHECK(r.candidates[2].label == "A");
  CHECK(r.candidates[2].continuation == std::vector<std::string_view>{"  nested"});
  CHECK(r.candidates[2].line == 6);
  CHECK(r.candidates[2].index == 3);
}

TEST_CASE("compact: the §20 tombstone vector matches whole titles and bullet keys") {
  const InboxCompaction r = compact(
      {{"do-not-use.md", "# Do Not Use\n\n## Tombstone: Redis cache\nGuard: x\n\n- use MongoDB\n"},
       {"inbox.md", "- redis CACHE\n- Use mongodb\n- Redis cache for sessions\n"}});
  CHECK(r.tombstone_matches == 2);
  CHECK(r.candidates.size() == 1);
  CHECK(r.candidates[0].label == "Redis cache for sessions");
  CHECK(output_of(r.plan, "inbox.md") == "- Redis cache for sessions\n");
}

TEST_CASE("compact: dash tombstone headings, and a duplicate of a tombstoned item") {
  const std::set<std::string> keys = tombstone_keys(parse_markdown(std::string(
      "## 2026-01-01 \xE2\x80\x94 TOMBSTONE: Kafka  \n## tombstone:\n## Note: tombstone: no\n")));
  CHECK(keys == std::set<std::string>{"kafka"});
  const InboxCompaction r =
      compact({{"do-not-use.md", "- kafka\n"}, {"inbox.md", "- Kafka\n- kafka\n- \n- x\n"}});
  CHECK(r.inbox_items == 4);
  CHECK(r.empty_items == 1);
  CHECK(r.tombstone_matches == 1);
  CHECK(r.duplicates == 1);
  CHECK(r.candidates.size() == 1);
  CHECK(r.inbox_items == r.empty_items + r.duplicates + r.tombstone_matches + r.candidates.size());
}

TEST_CASE("compact: nothing removable means no plan") {
  const InboxCompaction r = compact({{"inbox.md", "- a\n- b\n"}, {"changelog.md", "# L\n"}});
  CHECK_FALSE(r.plan.has_value());
  CHECK(r.candidates.size() == 2);
}

TEST_CASE("compact: an existing changelog gets today's maintenance line and a budget result") {
  const InboxCompaction r =
      compact({{"inbox.md", "- a\n- a\n"},
               {"changelog.md", "# Memory Changelog\n\n## 2026-03-06\n- old\n"}});
  CHECK(
      output_of(r.plan, "changelog.md") ==
      "# Memory Changelog\n\n## 2026-03-07\n- inbox.md cleanup: removed 1 exact duplicate(s) and 0 "
      "exact tombstone match(es).\n\n## 2026-03-06\n- old\n");
  REQUIRE(r.plan->budget_results().size() == 1);
  const BudgetResult& b = r.plan->budget_results()[0];
  CHECK(b.path == "changelog.md");
  CHECK(b.before == estimate_tokens("# Memory Changelog\n\n## 2026-03-06\n- old\n"));
  CHECK(b.after == estimate_tokens(output_of(r.plan, "changelog.md")));
  CHECK(b.limit == 800);
  CHECK(r.plan->operations().size() == 2);
}

TEST_CASE("compact: missing inputs and unparseable files block the plan") {
  CHECK(codes(compact({})) == std::vector<std::string>{"MK-LAYOUT-002 BLOCKER inbox.md"});
  const InboxCompaction fence = compact({{"inbox.md", "- a\n- a\n```\n"}});
  CHECK(codes(fence) == std::vector<std::string>{"MK-PARSE-001 BLOCKER inbox.md"});
  CHECK_FALSE(fence.plan.has_value());
  const InboxCompaction dnu = compact({{"inbox.md", "- a\n- a\n"}, {"do-not-use.md", "<!--\n"}});
  CHECK(codes(dnu) == std::vector<std::string>{"MK-PARSE-001 BLOCKER do-not-use.md"});
  CHECK_FALSE(dnu.plan.has_value());
}

TEST_CASE("compact: invalid UTF-8 blocks only the files the plan would change") {
  const InboxCompaction inbox = compact({{"inbox.md", "- a\n- a\n- \xFF\n"}});
  CHECK(codes(inbox) == std::vector<std::string>{"MK-UTF8-001 BLOCKER inbox.md"});
  CHECK_FALSE(inbox.plan.has_value());
  const InboxCompaction read_only =
      compact({{"inbox.md", "- a\n- a\n"}, {"do-not-use.md", "- \xFF\n"}});
  CHECK(codes(read_only) == std::vector<std::string>{"MK-UTF8-001 WARNING do-not-use.md"});
  CHECK(read_only.plan.has_value());
  const InboxCompaction changelog =
      compact({{"inbox.md", "- a\n- a\n"}, {"changelog.md", "# L \xFF\n"}});
  CHECK(codes(changelog) == std::vector<std::string>{"MK-UTF8-001 BLOCKER changelog.md"});
  CHECK_FALSE(changelog.plan.has_value());
  const InboxCompaction untouched =
      compact({{"inbox.md", "- a\n"}, {"changelog.md", "# L \xFF\n"}});
  CHECK(codes(untouched) == std::vector<std::string>{"MK-UTF8-001 WARNING changelog.md"});
}

TEST_CASE("compact: an unsupported protocol blocks; a missing one warns") {
  const InboxCompaction newer =
      compact({{"manifest.md", "## MemoryCustodian Protocol\n- protocol_version: 0.9\n"},
               {"inbox.md", "- a\n- a\n"}});
  CHECK(codes(newer) == std::vector<std::string>{"MK-PROTO-001 BLOCKER manifest.md"});
  CHECK_FALSE(newer.plan.has_value());
  const InboxCompaction missing = compact({{"manifest.md", "# M\n"}, {"inbox.md", "- a\n- a\n"}});
  CHECK(codes(missing) == std::vector<std::string>{"MK-PROTO-002 WARNING manifest.md"});
  CHECK(missing.plan.has_value());
  CHECK(missing.protocol_version == std::optional<std::string>("0.5"));
}

TEST_CASE("compact: the plan ID follows the inputs and the date") {
  const std::map<std::string, std::string> files = {{"inbox.md", "- a\n- a\n"},
                                                    {"changelog.md", "# L\n"}};
  const std::string id = compact(files).plan->id();
  CHECK(compact(files).plan->id() == id);
  auto later =
      inputs_of({{"manifest.md", "# M\n"}, {"inbox.md", "- a\n- a\n"}, {"changelog.md", "# L\n"}});
  const ClockReading tomorrow = *ClockReading::parse_rfc3339("2026-03-08T10:00:00+00:00");
  CHECK(plan_inbox_compaction(later, default_token_counter(), kNow).plan->id() == id);
  CHECK(plan_inbox_compaction(later, default_token_counter(), tomorrow).plan->id() != id);
}
