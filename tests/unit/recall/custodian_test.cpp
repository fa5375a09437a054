// Recall's custodian units (compaction.md §14 "Units and matching"): entry sections, bullet units
// outside them, their dates and ids, archives, and the refusal of an unparseable file.
#include <doctest/doctest.h>

#include <string>

#include "memkit/recall.hpp"
#include "recall_test_support.hpp"

namespace memkit::recall {
namespace {

using test::facet;

FileUnits read_custodian(const std::string& path, std::string_view bytes) {
  return test::read(Layout::custodian, "docs/memory", path, bytes);
}

FileUnits read_example(const std::string& path) {
  return test::read_example(Layout::custodian, "project/docs/memory", path);
}

TEST_CASE("recall custodian: entry sections are one unit, bullets outside them one each") {
  const std::string bytes =
      "# Decisions\n"                         // 1
      "\n"                                    // 2
      "- A preamble bullet\n"                 // 3
      "  continued\n"                         // 4
      "\n"                                    // 5
      "## 2026-11-20 - Store readings\n"      // 6
      "Decision: PostgreSQL 15.\n"            // 7
      "- a detail bullet inside the entry\n"  // 8
      "\n"                                    // 9
      "## MC-DEC-0042: Formal entry\n"        // 10
      "- not a bullet unit here\n"            // 11
      "\n"                                    // 12
      "## Tombstone: MQTT on the gateways\n"  // 13
      "Guard: keep it out.\n"                 // 14
      "Date: 2026-09-14\n"                    // 15
      "\n"                                    // 16
      "## 2026-11-29\n"                       // 17
      "- Ask about CSV export.\n"             // 18
      "Some paragraph text, not a unit.\n"    // 19
      "- Use tabs.\n"                         // 20
      "\n"                                    // 21
      "## Plain heading\n"                    // 22
      "- undated bullet\n";                   // 23
  const FileUnits read = read_custodian("decisions.md", bytes);
  CHECK(read.findings.empty());
  REQUIRE(read.units.size() == 7);

  const Unit& preamble = read.units[0];
  CHECK(preamble.kind == "bullet");
  CHECK(preamble.first_line == 3);
  CHECK(preamble.last_line == 4);
  CHECK(preamble.text == "- A preamble bullet\n  continued\n");
  CHECK(preamble.id.empty());
  CHECK(preamble.facets.empty());

  const Unit& decision = read.units[1];
  CHECK(decision.kind == "entry");
  CHECK(decision.first_line == 6);
  CHECK(decision.last_line == 8);
  CHECK(decision.text ==
        "## 2026-11-20 - Store readings\nDecision: PostgreSQL 15.\n"
        "- a detail bullet inside the entry\n");
  CHECK(decision.id.empty());
  CHECK(facet(decision, "date") == "2026-11-20");

  const Unit& formal = read.units[2];
  CHECK(formal.kind == "entry");
  CHECK(formal.id == "MC-DEC-0042");
  CHECK(formal.first_line == 10);
  CHECK(formal.last_line == 11);
  CHECK_FALSE(facet(formal, "date"));

  const Unit& tombstone = read.units[3];
  CHECK(tombstone.kind == "entry");
  CHECK(tombstone.first_line == 13);
  CHECK(tombstone.last_line == 15);
  CHECK(tombstone.facets == search::Facets{{"date", "2026-09-14"}});

  CHECK(read.units[4].kind == "bullet");
  CHECK(read.units[4].first_line == 18);
  CHECK(read.units[4].last_line == 18);
  CHECK(facet(read.units[4], "date") == "2026-11-29");
  CHECK(read.units[5].first_line == 20);
  CHECK(facet(read.units[5], "date") == "2026-11-29");
  CHECK(read.units[6].first_line == 23);
  CHECK(read.units[6].text == "- undated bullet\n");
  CHECK(read.units[6].facets.empty());
}

TEST_CASE("recall custodian: a section without a Decision: line is no entry") {
  const FileUnits read = read_custodian("areas/api.md", "## Notes\nSome text.\n\n## Other\n");
  CHECK(read.units.empty());
  CHECK(read.findings.empty());
}

TEST_CASE("recall custodian: the units of archive/ files are archived") {
  const FileUnits read =
      read_custodian("archive/decisions-2026-12-01.md",
                     "# Archived Memory: decisions.md\n\n## 2026-01-02 - Old\nDecision: old.\n");
  REQUIRE(read.units.size() == 1);
  CHECK(read.units[0].facets == search::Facets{{"date", "2026-01-02"}, {"status", "archived"}});
  CHECK(read.units[0].first_line == 3);
  CHECK(read.units[0].last_line == 4);
}

TEST_CASE("recall custodian: an unclosed fence refuses the file with one warning") {
  const FileUnits read = read_custodian("inbox.md", "# Inbox\n\n```\n- a\n");
  CHECK(read.units.empty());
  REQUIRE(read.findings.size() == 1);
  CHECK(read.findings[0].code == "MK-PARSE-001");
  CHECK(read.findings[0].severity == Severity::warning);
  CHECK(read.findings[0].path == "docs/memory/inbox.md");
  CHECK(read.findings[0].message == "docs/memory/inbox.md:3: unclosed code fence");
}

TEST_CASE("recall custodian: CRLF files and a BOM keep their line numbers") {
  const FileUnits read = read_custodian("constraints.md", "\xEF\xBB\xBF# C\r\n\r\n- one\r\n- two");
  REQUIRE(read.units.size() == 2);
  CHECK(read.units[0].first_line == 3);
  CHECK(read.units[0].text == "- one\r\n");
  CHECK(read.units[1].first_line == 4);
  CHECK(read.units[1].last_line == 4);
  CHECK(read.units[1].text == "- two");
}

TEST_CASE("recall custodian: the example project's memory") {
  struct Expected {
    std::string path;
    std::size_t units;
  };
  for (const Expected& e :
       {Expected{"brief.md", 3}, Expected{"constraints.md", 2}, Expected{"inbox.md", 4},
        Expected{"decisions.md", 2}, Expected{"do-not-use.md", 1},
        Expected{"areas/collector.md", 2}, Expected{"manifest.md", 0}}) {
    CAPTURE(e.path);
    const FileUnits read = read_example(e.path);
    CHECK(read.findings.empty());
    CHECK(read.units.size() == e.units);
  }

  const FileUnits decisions = read_example("decisions.md");
  REQUIRE(decisions.units.size() == 2);
  CHECK(decisions.units[0].kind == "entry");
  CHECK(decisions.units[0].first_line == 5);
  CHECK(decisions.units[0].last_line == 7);
  CHECK(decisions.units[0].text.starts_with("## 2026-11-20 - Store readings in PostgreSQL\n"));
  CHECK(facet(decisions.units[0], "date") == "2026-11-20");
  CHECK(decisions.units[1].first_line == 9);
  CHECK(decisions.units[1].last_line == 11);
  CHECK(facet(decisions.units[1], "date") == "2026-10-02");

  const FileUnits inbox = read_example("inbox.md");
  REQUIRE(inbox.units.size() == 4);
  for (std::size_t i = 0; i < inbox.units.size(); ++i) {
    CHECK(inbox.units[i].kind == "bullet");
    CHECK(inbox.units[i].first_line == 6 + i);
    CHECK(inbox.units[i].facets == search::Facets{{"date", "2026-11-29"}});
  }

  const FileUnits tombstones = read_example("do-not-use.md");
  REQUIRE(tombstones.units.size() == 1);
  CHECK(tombstones.units[0].first_line == 5);
  CHECK(tombstones.units[0].last_line == 8);
  CHECK(facet(tombstones.units[0], "date") == "2026-09-14");
}

}  // namespace
}  // namespace memkit::recall
