// Inbox mode (spec compaction.md §8) and its §20 vectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>

#include "memkit/compact.hpp"
#include "memory_inputs.hpp"

using namespace memkit;
using memkit::testing::candidates_of;
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
  CHECK(candidates_of(r)[2].label == "A");
  CHECK(candidates_of(r)[2].continuation == std::vector<std::string_view>{"  nested"});
  CHECK(candidates_of(r)[2].line == 6);
  CHECK(candidates_of(r)[2].index == 3);
}

TEST_CASE("compact: the §20 tombstone vector matches whole titles and bullet keys") {
  const InboxCompaction r = compact(
      {{"do-not-use.md", "# Do Not Use\n\n## Tombstone: Redis cache\nGuard: x\n\n- use MongoDB\n"},
       {"inbox.md", "- redis CACHE\n- Use mongodb\n- Redis cache for sessions\n"}});
  CHECK(r.tombstone_matches == 2);
  CHECK(r.candidates.size() == 1);
  CHECK(candidates_of(r)[0].label == "Redis cache for sessions");
  CHECK(output_of(r.plan, "inbox.md") == "- Redis cache for sessions\n");
}

TEST_CASE("compact: dash tombstone headings, and a duplicate of a tombstoned item") {
  const std::vector<custodian::Tombstone> found = custodian::tombstones(parse_markdown(std::string(
      "## 2026-01-01 \xE2\x80\x94 TOMBSTONE: Kafka  \n## tombstone:\n## Note: tombstone: no\n"
      "- Use  MongoDB\n  for sessions\n")));
  REQUIRE(found.size() == 2);
  CHECK(found[0].key == "kafka");
  CHECK(found[0].title == "Kafka");
  CHECK(found[0].line == 1);
  CHECK(found[1].title == "Use  MongoDB");  // a bullet's first line, as written
  CHECK(found[1].line == 4);
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

TEST_CASE("compact: an unsupported protocol blocks, a missing one warns") {
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

namespace {

// An inbox over 1 MiB, which the planner reads in two parts on two threads, split at the first
// H2 line after 45% of its bytes: `days` dated sections of ten items each, where every fifth
// item of the later half repeats one of the earlier half. `middle` goes in at 44%.
struct LargeInbox {
  std::string bytes;
  std::string expected;  // the inbox without its repeats
  std::uint64_t repeats = 0;
};

LargeInbox large_inbox(std::size_t days = 2400, std::string_view middle = "") {
  LargeInbox inbox;
  inbox.bytes = "# Memory Inbox\n\n";
  inbox.expected = inbox.bytes;
  for (std::size_t d = 0; d < days; ++d) {
    if (d == days * 44 / 100) {
      inbox.bytes += middle;
      inbox.expected += middle;
    }
    const std::string heading = "## day " + std::to_string(d) + "\n\n";
    inbox.bytes += heading;
    inbox.expected += heading;
    for (std::size_t i = 0; i < 10; ++i) {
      const bool repeat = d >= days / 2 && i % 5 == 0;
      const std::size_t day = repeat ? d - days / 2 : d;
      std::string item = "- a note about the memory engine, day " + std::to_string(day) +
                         ", item " + std::to_string(i) + "\n";
      if (repeat) {
        item[2] = 'A';  // case does not matter
        ++inbox.repeats;
      } else {
        inbox.expected += item;
      }
      inbox.bytes += item;
    }
    inbox.bytes += "\n";
    inbox.expected += "\n";
  }
  return inbox;
}

}  // namespace

TEST_CASE("compact: a large inbox read on two threads gives what one scan gives") {
  const LargeInbox inbox = large_inbox();
  REQUIRE(inbox.bytes.size() > (std::size_t{1} << 20));
  const InboxCompaction r = compact({{"inbox.md", inbox.bytes}});
  CHECK(r.inbox_items == 24000);
  CHECK(r.duplicates == inbox.repeats);
  CHECK(r.candidates.size() == 24000 - inbox.repeats);
  CHECK(output_of(r.plan, "inbox.md") == inbox.expected);
  // Candidates come back in file order, with their line numbers, after the split too.
  std::uint32_t last_line = 0;
  std::uint64_t seen = 0;
  r.candidates.for_each([&](const Candidate& c) {
    CHECK(c.line > last_line);
    CHECK(c.index == ++seen);
    last_line = c.line;
  });
  CHECK(seen == r.candidates.size());
}

TEST_CASE("compact: a fence across the two threads' split point is read as one scan reads it") {
  // Where the second thread would start, an H2 line sits inside a fence: its lines are not
  // items, and the fence does not end the section.
  std::string fence = "```\n";
  for (int i = 0; i < 3000; ++i) fence += "## not a heading " + std::to_string(i) + "\n- no item\n";
  fence += "```\n\n";
  const LargeInbox inbox = large_inbox(2400, fence);
  const std::size_t opener = inbox.bytes.find("```");
  REQUIRE(opener < inbox.bytes.size() * 9 / 20);
  REQUIRE(inbox.bytes.find("```", opener + 3) > inbox.bytes.size() * 9 / 20);
  const InboxCompaction r = compact({{"inbox.md", inbox.bytes}});
  CHECK(r.inbox_items == 24000);
  CHECK(r.duplicates == inbox.repeats);
  CHECK(output_of(r.plan, "inbox.md") == inbox.expected);
}

TEST_CASE("compact: problems in the second part name the line of the whole file") {
  const LargeInbox inbox = large_inbox();
  const std::size_t lines_before =
      static_cast<std::size_t>(std::count(inbox.bytes.begin(), inbox.bytes.end(), '\n'));
  const InboxCompaction fence = compact({{"inbox.md", inbox.bytes + "## end\n\n```\n- a\n"}});
  REQUIRE(fence.findings.size() == 1);
  CHECK(fence.findings[0].message ==
        "inbox.md:" + std::to_string(lines_before + 3) + ": unclosed code fence");
  const InboxCompaction utf8 = compact({{"inbox.md", inbox.bytes + "## end\n- caf\xC3\n"}});
  REQUIRE(utf8.findings.size() == 1);
  CHECK(utf8.findings[0].message ==
        "inbox.md:" + std::to_string(lines_before + 2) + ": invalid UTF-8 sequence");
  CHECK_FALSE(utf8.plan.has_value());
}
