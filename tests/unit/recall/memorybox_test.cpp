// Recall's MemoryBox units (memorybox.md §3): one per entry with its ID, kind and facets, archives
// read as the files they collect (§7), and the refusal of an unparseable file.
#include "memkit/memorybox.hpp"

#include <doctest/doctest.h>

#include <string>

#include "memkit/digest.hpp"
#include "memkit/markdown.hpp"
#include "memkit/recall.hpp"
#include "recall_test_support.hpp"

namespace memkit::recall {
namespace {

using test::facet;

FileUnits read_box(const std::string& path, std::string_view bytes, int tier) {
  return test::read(Layout::memorybox, "", path, bytes, tier);
}

FileUnits read_example(const std::string& path, int tier) {
  return test::read_example(Layout::memorybox, "memorybox", path, tier);
}

std::string id_of(std::string_view path, std::string_view identity_key) {
  return std::string(path) + "#" + sha256_hex(identity_key).substr(0, 12);
}

TEST_CASE("recall memorybox: LONG_TERM.md's bullets, with read_entries' IDs and every facet") {
  const std::string bytes = test::example_bytes("memorybox/memory/LONG_TERM.md");
  const FileUnits read = read_box("memory/LONG_TERM.md", bytes, 2);
  CHECK(read.findings.empty());
  const std::vector<memorybox::Entry> entries =
      memorybox::read_entries("memory/LONG_TERM.md", parse_markdown(bytes));
  REQUIRE(read.units.size() == 4);
  REQUIRE(entries.size() == 4);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    CHECK(read.units[i].id == entries[i].id);
    CHECK(read.units[i].kind == "bullet");
    CHECK(read.units[i].first_line == entries[i].first_line);
    CHECK(read.units[i].last_line == entries[i].last_line);
  }
  CHECK(read.units[0].first_line == 4);
  CHECK(read.units[0].last_line == 8);
  CHECK(read.units[0].text.starts_with("- The billing service runs on PostgreSQL 15"));
  CHECK(read.units[0].text.ends_with("  Source: infra runbook\n"));
  CHECK(read.units[0].facets ==
        search::Facets{
            {"tier", "2"}, {"category", "Stack"}, {"confidence", "0.95"}, {"date", "2026-11-02"}});
  CHECK(facet(read.units[1], "confidence") == "0.85");
  CHECK(facet(read.units[2], "category") == "Team");
  CHECK(facet(read.units[2], "confidence") == "0.80");
  CHECK(facet(read.units[3], "date") == "2026-11-25");  // Verified, not the later Decay-Trigger
}

TEST_CASE("recall memorybox: section files, sessions and daily files from the example root") {
  const FileUnits patterns = read_example("memory/PATTERNS.md", 3);
  REQUIRE(patterns.units.size() == 1);
  CHECK(patterns.units[0].kind == "section");
  CHECK(patterns.units[0].id == id_of("memory/PATTERNS.md", "flaky webhook tests"));
  CHECK(patterns.units[0].first_line == 3);
  CHECK(patterns.units[0].last_line == 8);
  CHECK(patterns.units[0].facets == search::Facets{{"tier", "3"},
                                                   {"category", "PATTERNS"},
                                                   {"confidence", "0.85"},
                                                   {"date", "2026-11-20"}});

  const FileUnits mistakes = read_example("memory/MISTAKES.md", 3);
  REQUIRE(mistakes.units.size() == 1);
  CHECK(facet(mistakes.units[0], "status") == "resolved");
  CHECK_FALSE(facet(mistakes.units[0], "confidence"));

  const FileUnits tasks = read_example("memory/ACTIVE_TASKS.md", 2);
  REQUIRE(tasks.units.size() == 4);
  CHECK(tasks.units[3].first_line == 9);
  CHECK(tasks.units[3].last_line == 10);
  CHECK(facet(tasks.units[3], "date") == "2026-11-27");  // its Done field
  CHECK(facet(tasks.units[0], "category") == "In progress");

  const FileUnits sessions = read_example("memory/SESSION_LOG.md", 4);
  REQUIRE(sessions.units.size() == 2);
  CHECK(sessions.units[0].kind == "session");
  CHECK(sessions.units[0].id ==
        id_of("memory/SESSION_LOG.md", "session:2026-11-28 \xE2\x80\x94 webhook retries"));
  CHECK(sessions.units[0].first_line == 3);
  CHECK(sessions.units[0].last_line == 4);
  CHECK(sessions.units[0].facets == search::Facets{{"tier", "4"}, {"date", "2026-11-28"}});
  CHECK(sessions.units[1].first_line == 6);
  CHECK(facet(sessions.units[1], "date") == "2026-11-29");

  const FileUnits daily = read_example("memory/daily/2026-10-15.md", 4);
  REQUIRE(daily.units.size() == 1);
  CHECK(daily.units[0].kind == "daily");
  CHECK(daily.units[0].id == id_of("memory/daily/2026-10-15.md", "daily:2026-10-15"));
  CHECK(daily.units[0].first_line == 1);
  CHECK(daily.units[0].last_line == 3);
  CHECK(daily.units[0].facets == search::Facets{{"tier", "4"}, {"date", "2026-10-15"}});

  const FileUnits user = read_example("brain/USER.md", 1);
  REQUIRE(user.units.size() == 1);
  CHECK(user.units[0].facets == search::Facets{{"tier", "1"},
                                               {"category", "Preferences"},
                                               {"confidence", "0.90"},
                                               {"date", "2026-10-20"}});
}

TEST_CASE("recall memorybox: every file of the example root gives units and no finding") {
  for (const char* path :
       {"brain/SOUL.md", "brain/STATE.md", "brain/USER.md", "memory/SOP_LIBRARY.md",
        "memory/PATTERNS.md", "memory/SELF_REFLECTIONS.md", "memory/LONG_TERM.md",
        "memory/SESSION_LOG.md", "memory/DECISIONS.md", "memory/MISTAKES.md",
        "memory/daily/2026-10-15.md", "memory/daily/2026-11-29.md", "memory/ACTIVE_TASKS.md",
        "memory/ARCHIVES/sessions-2026-10.md"}) {
    CAPTURE(path);
    const FileUnits read = read_example(path, 0);
    CHECK(read.findings.empty());
    CHECK_FALSE(read.units.empty());
    for (const Unit& unit : read.units) {
      CHECK(unit.id.starts_with(std::string(path) + "#"));
      CHECK_FALSE(facet(unit, "tier"));  // tier 0: unknown
    }
  }
}

TEST_CASE("recall memorybox: a sessions archive holds session entries, named under its path") {
  const FileUnits read = read_example("memory/ARCHIVES/sessions-2026-10.md", 5);
  REQUIRE(read.units.size() == 1);
  CHECK(read.units[0].kind == "session");
  CHECK(read.units[0].id ==
        id_of("memory/ARCHIVES/sessions-2026-10.md", "session:2026-10-02 \xE2\x80\x94 setup"));
  CHECK(read.units[0].first_line == 3);
  CHECK(read.units[0].last_line == 4);
  CHECK(read.units[0].facets == search::Facets{{"tier", "5"}, {"date", "2026-10-02"}});
}

TEST_CASE("recall memorybox: a daily archive's days and a mistakes archive's sections") {
  const std::string daily =
      "# Archived Memory: memory/daily/\n"
      "\n"
      "Complete entries moved out of active memory by reviewed compaction.\n"
      "Load this file only when explicitly asked; it is not part of normal task context.\n"
      "\n"
      "## 2026-10-15\n"  // 6
      "\n"
      "Id: 0199e7a8-5c00-7000-8000-000000000001\n"
      "\n"
      "- Paired with Dana.\n"  // 10
      "\n"
      "## 2026-10-16\n"  // 12
      "\n"
      "- Reviewed the export.\n";
  const FileUnits days = read_box("memory/ARCHIVES/daily-2026-10.md", daily, 5);
  CHECK(days.findings.empty());
  REQUIRE(days.units.size() == 2);
  CHECK(days.units[0].kind == "daily");
  CHECK(days.units[0].id == id_of("memory/ARCHIVES/daily-2026-10.md", "daily:2026-10-15"));
  CHECK(days.units[0].first_line == 6);
  CHECK(days.units[0].last_line == 10);
  CHECK(days.units[0].facets == search::Facets{{"tier", "5"}, {"date", "2026-10-15"}});
  CHECK(days.units[1].first_line == 12);
  CHECK(days.units[1].last_line == 14);

  const FileUnits mistakes = read_box("memory/ARCHIVES/mistakes-2026-11.md",
                                      "# Archived Memory: memory/MISTAKES.md\n\n"
                                      "## Ran the migration late\nStatus: resolved\n\nText.\n",
                                      5);
  REQUIRE(mistakes.units.size() == 1);
  CHECK(mistakes.units[0].kind == "section");
  CHECK(mistakes.units[0].id ==
        id_of("memory/ARCHIVES/mistakes-2026-11.md", "ran the migration late"));
  CHECK(mistakes.units[0].facets ==
        search::Facets{{"tier", "5"}, {"category", "MISTAKES"}, {"status", "resolved"}});
}

TEST_CASE("recall memorybox: the latest date wins, an invalid confidence is no facet") {
  const FileUnits read = read_box("memory/LONG_TERM.md",
                                  "## Stack\n"
                                  "- Uses PostgreSQL\n"
                                  "  Confidence: high\n"
                                  "  Verified: 2026-11-02\n"
                                  "  Updated: 2026-12-01T09:00:00.000Z\n"
                                  "- Before any date\n"
                                  "  Confidence: 1\n",
                                  2);
  REQUIRE(read.units.size() == 2);
  CHECK(read.units[0].facets ==
        search::Facets{{"tier", "2"}, {"category", "Stack"}, {"date", "2026-12-01"}});
  CHECK(read.units[1].facets ==
        search::Facets{{"tier", "2"}, {"category", "Stack"}, {"confidence", "1.00"}});
}

TEST_CASE(
    "recall memorybox: an empty daily file gives no unit, and an unclosed comment a warning") {
  CHECK(read_box("memory/daily/2026-11-30.md", "", 4).units.empty());
  const FileUnits read = read_box("memory/PATTERNS.md", "## P\n<!-- open\n", 3);
  CHECK(read.units.empty());
  REQUIRE(read.findings.size() == 1);
  CHECK(read.findings[0].code == "MK-PARSE-001");
  CHECK(read.findings[0].severity == Severity::warning);
  CHECK(read.findings[0].message == "memory/PATTERNS.md:2: unclosed HTML comment");
}

}  // namespace
}  // namespace memkit::recall
