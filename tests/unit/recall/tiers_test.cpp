// Recall's three-tier units (tiers3.md): L1 entries, L2 notes, global.md's sections, the CSV
// manifest's entries, archived notes, and refusals.
#include "memkit/tiers.hpp"

#include <doctest/doctest.h>

#include <string>

#include "memkit/recall.hpp"
#include "recall_test_support.hpp"

namespace memkit::recall {
namespace {

using test::facet;

FileUnits read_tiers(const std::string& path, std::string_view bytes) {
  return test::read(Layout::tiers, "", path, bytes);
}

FileUnits read_example(const std::string& path) {
  return test::read_example(Layout::tiers, "tiers", path);
}

TEST_CASE("recall tiers: an L1 file's entries, each through its closing ---") {
  const FileUnits read = read_example("memory/sessions/2026-11-29.md");
  CHECK(read.findings.empty());
  REQUIRE(read.units.size() == 2);
  CHECK(read.units[0].kind == "session");
  CHECK(read.units[0].id.empty());
  CHECK(read.units[0].first_line == 3);
  CHECK(read.units[0].last_line == 8);
  CHECK(read.units[0].text ==
        "### [2026-11-29 09:12:40] USER\n**Session:** s-41\n\n"
        "Can the export use semicolons for the German office?\n\n---\n");
  CHECK(read.units[0].facets == search::Facets{{"tier", "L1"}, {"date", "2026-11-29"}});
  CHECK(read.units[1].first_line == 10);
  CHECK(read.units[1].last_line == 16);
  CHECK(read.units[1].text.ends_with("Proposed a dialect flag.\n\n---"));
}

TEST_CASE("recall tiers: the L1 bytes tiers writes read back as one entry per turn") {
  tiers::Turn turn;
  turn.entry_type = "TURN";
  turn.content = "first turn";
  const ClockReading at = *ClockReading::parse_rfc3339("2026-03-07T14:05:09+00:00");
  std::string bytes = tiers::append_session_entry(std::nullopt, turn, at);
  turn.content = "second\n### not a heading of an entry\nturn";
  bytes = tiers::append_session_entry(bytes, turn, at);
  const FileUnits read = read_tiers(tiers::session_log_path(at), bytes);
  REQUIRE(read.units.size() == 2);
  CHECK(read.units[0].first_line == 3);
  CHECK(read.units[0].last_line == 7);
  CHECK(read.units[1].first_line == 9);
  CHECK(read.units[1].text.find("not a heading") != std::string::npos);
  CHECK(facet(read.units[1], "date") == "2026-03-07");
}

TEST_CASE("recall tiers: L2 notes, one unit per entry, with their theme and date") {
  const FileUnits decision = read_example("memory/decision/2026-11-29_09.md");
  CHECK(decision.findings.empty());
  REQUIRE(decision.units.size() == 1);
  CHECK(decision.units[0].kind == "note");
  CHECK(decision.units[0].first_line == 1);
  CHECK(decision.units[0].last_line == 8);
  CHECK(decision.units[0].facets ==
        search::Facets{{"tier", "L2"}, {"category", "decision"}, {"date", "2026-11-29"}});

  const FileUnits research = read_example("memory/research/2026-11-28_15.md");
  REQUIRE(research.units.size() == 1);
  CHECK(research.units[0].last_line == 4);
  CHECK(facet(research.units[0], "category") == "research");

  const FileUnits two = read_tiers("memory/ops/2026-11-30_14.md",
                                   "## 2026-11-30 14:05:09\n\nfirst note\n\n\n"
                                   "## Task Record: deploy\n\nsecond note\n");
  REQUIRE(two.units.size() == 2);
  CHECK(two.units[0].first_line == 1);
  CHECK(two.units[0].last_line == 3);
  CHECK(two.units[1].first_line == 6);
  CHECK(two.units[1].last_line == 8);

  const FileUnits bare = read_tiers("memory/ops/notes.md", "\n\nA note without a heading.\n\n");
  REQUIRE(bare.units.size() == 1);
  CHECK(bare.units[0].first_line == 3);
  CHECK(bare.units[0].last_line == 3);
  CHECK(bare.units[0].facets == search::Facets{{"tier", "L2"}, {"category", "ops"}});
}

TEST_CASE("recall tiers: an archived note is archived, and global.md's copies are not read") {
  const FileUnits read =
      read_tiers("memory/archive/decision/2026-01-02_09.md", "## Old\n\nold note\n");
  REQUIRE(read.units.size() == 1);
  CHECK(read.units[0].facets == search::Facets{{"tier", "L2"},
                                               {"category", "decision"},
                                               {"date", "2026-01-02"},
                                               {"status", "archived"}});
  CHECK(
      read_tiers("memory/archive/global/global-20261130T090000.md", "## A\ntext\n").units.empty());
  CHECK(read_tiers("memory/archive/decision/2026-01-02_24.md", "## A\ntext\n").units.empty());
}

TEST_CASE("recall tiers: global.md's H2 and H3 sections, empty ones left out") {
  const FileUnits read = read_example("memory/global.md");
  CHECK(read.findings.empty());
  REQUIRE(read.units.size() == 6);
  const std::pair<std::uint32_t, std::uint32_t> spans[] = {{6, 7},   {8, 10},  {11, 12},
                                                           {14, 16}, {18, 19}, {21, 22}};
  for (std::size_t i = 0; i < read.units.size(); ++i) {
    CAPTURE(i);
    CHECK(read.units[i].kind == "section");
    CHECK(read.units[i].first_line == spans[i].first);
    CHECK(read.units[i].last_line == spans[i].second);
    CHECK(read.units[i].facets == search::Facets{{"tier", "L3"}});
  }
  CHECK(read.units[1].text ==
        "### Key Constraints (Immutable)\n- Never store card numbers, not even masked.\n"
        "- Every export is reproducible from the ledger alone.\n");

  CHECK(read_tiers("memory/global.md", tiers::global_skeleton()).units.empty());
}

TEST_CASE(
    "recall tiers: the manifest's entries, each on its lines, and the CSV files are not read") {
  const FileUnits read = read_example("memory/data/manifest.json");
  CHECK(read.findings.empty());
  REQUIRE(read.units.size() == 1);
  const Unit& entry = read.units[0];
  CHECK(entry.kind == "data");
  CHECK(entry.id == "ledger_sample.csv");
  CHECK(entry.first_line == 2);
  CHECK(entry.last_line == 18);
  CHECK(entry.text ==
        "ledger_sample.csv\nTwo ledger lines with the header\nmanual_capture\n"
        "date, account, amount, memo");
  CHECK(entry.facets == search::Facets{{"tier", "data"}, {"date", "2026-11-28"}});

  const FileUnits csv = read_example("memory/data/ledger_sample.csv");
  CHECK(csv.units.empty());
  CHECK(csv.findings.empty());
}

TEST_CASE("recall tiers: manifest members are found past strings that hold JSON's brackets") {
  const std::string bytes =
      R"({"a.csv": {"name": "a.csv", "description": "has \"}, {\" and [", )"
      R"("declared_columns": ["x", "y"]},)"
      "\n"
      R"(  "b.csv" : {"name": "b.csv", "updated_at": "2026-12-01T10:00:00"}})";
  const FileUnits read = read_tiers("memory/data/manifest.json", bytes);
  CHECK(read.findings.empty());
  REQUIRE(read.units.size() == 2);
  CHECK(read.units[0].id == "a.csv");
  CHECK(read.units[0].first_line == 1);
  CHECK(read.units[0].last_line == 1);
  CHECK(read.units[0].text == "a.csv\nhas \"}, {\" and [\nx, y");
  CHECK(read.units[1].id == "b.csv");
  CHECK(read.units[1].first_line == 2);
  CHECK(read.units[1].last_line == 2);
  CHECK(facet(read.units[1], "date") == "2026-12-01");
}

TEST_CASE("recall tiers: an empty manifest has no entry, and one that is not an object a warning") {
  for (const char* empty : {"", "  \n", "{}\n"}) {
    const FileUnits read = read_tiers("memory/data/manifest.json", empty);
    CHECK(read.units.empty());
    CHECK(read.findings.empty());
  }
  for (const char* bad : {"{\"a.csv\": ", "[]", "{\"a\": 1} x"}) {
    CAPTURE(bad);
    const FileUnits read = read_tiers("memory/data/manifest.json", bad);
    CHECK(read.units.empty());
    REQUIRE(read.findings.size() == 1);
    CHECK(read.findings[0].code == "MK-PARSE-001");
    CHECK(read.findings[0].severity == Severity::warning);
    CHECK(read.findings[0].path == "memory/data/manifest.json");
  }
}

TEST_CASE("recall tiers: an unclosed fence refuses the file") {
  const FileUnits read = read_tiers("memory/global.md", "## 1. Active Mission\n~~~\nx\n");
  CHECK(read.units.empty());
  REQUIRE(read.findings.size() == 1);
  CHECK(read.findings[0].message == "memory/global.md:2: unclosed code fence");
}

}  // namespace
}  // namespace memkit::recall
