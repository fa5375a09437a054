// Recall's curated units (curated.md §4, §10): live rows with their facets, episodes of every
// workspace with their line numbers, and refusals.
#include <doctest/doctest.h>

#include <string>

#include "memkit/recall.hpp"
#include "recall_test_support.hpp"

namespace memkit::recall {
namespace {

using test::facet;

FileUnits read_curated(const std::string& path, std::string_view bytes) {
  return test::read(Layout::curated, "", path, bytes);
}

FileUnits read_example(const std::string& path) {
  return test::read_example(Layout::curated, "curated", path);
}

TEST_CASE("recall curated: the example store's project rows, named, spanned and faceted") {
  const FileUnits read = read_example("rows/billing/project.md");
  CHECK(read.findings.empty());
  REQUIRE(read.units.size() == 3);
  const Unit& resend = read.units[0];
  CHECK(resend.kind == "row");
  CHECK(resend.id == "project_invoice_resend");
  CHECK(resend.first_line == 3);
  CHECK(resend.last_line == 13);
  CHECK(resend.text ==
        "project_invoice_resend\nResend failed invoices by hand every Monday\n"
        "Stopgap until the mailer retries on its own.");
  CHECK(resend.facets == search::Facets{{"class", "thread"},
                                        {"status", "carry_forward"},
                                        {"type", "project"},
                                        {"initiative", "invoicing"},
                                        {"date", "2026-11-02"}});
  CHECK(read.units[1].id == "project_invoice_retry");
  CHECK(read.units[1].first_line == 15);
  CHECK(read.units[1].last_line == 27);
  CHECK(facet(read.units[1], "date") == "2026-11-28");
  CHECK(read.units[2].id == "project_vat_rates_2027");
  CHECK(read.units[2].first_line == 29);
  CHECK(read.units[2].last_line == 40);
  CHECK(facet(read.units[2], "initiative") == "tax_rules");  // "Tax Rules", normalised (§3)
}

TEST_CASE("recall curated: anchors have no status, and the other example files") {
  const FileUnits decision = read_example("rows/billing/decision.md");
  REQUIRE(decision.units.size() == 1);
  CHECK(decision.units[0].facets ==
        search::Facets{{"class", "anchor"}, {"type", "decision"}, {"date", "2026-10-14"}});
  CHECK(read_example("rows/billing/user.md").units.size() == 1);
  const FileUnits checkpoint = read_example("checkpoint.json");
  CHECK(checkpoint.units.empty());
  CHECK(checkpoint.findings.empty());
}

TEST_CASE("recall curated: soft-deleted rows are not searched, and a class-less row is a log") {
  const FileUnits read = read_curated("rows/ws1/atom.md",
                                      "# Curated memory: atom\n"
                                      "\n"
                                      "## atom_gone\n"
                                      "Type: atom\n"
                                      "Created: 2026-11-01T00:00:00.000Z\n"
                                      "Updated: 2026-11-02T00:00:00.000Z\n"
                                      "Deleted: 2026-11-03T00:00:00.000Z\n"
                                      "\n"
                                      "Gone.\n"
                                      "\n"
                                      "## atom_kept\n"
                                      "Type: atom\n"
                                      "Created: 2026-11-01T00:00:00.000Z\n"
                                      "\n"
                                      "Kept.\n");
  REQUIRE(read.units.size() == 1);
  CHECK(read.units[0].id == "atom_kept");
  CHECK(read.units[0].first_line == 11);
  CHECK(read.units[0].last_line == 15);
  CHECK(read.units[0].text == "atom_kept\nKept.");
  CHECK(read.units[0].facets ==
        search::Facets{{"class", "log"}, {"type", "atom"}, {"date", "2026-11-01"}});
}

TEST_CASE("recall curated: an unclosed fence refuses the row file with one warning") {
  const FileUnits read = read_curated("rows/ws1/project.md",
                                      "# Curated memory: project\n\n## project_a\nType: project\n\n"
                                      "```\nopen fence\n");
  CHECK(read.units.empty());
  REQUIRE(read.findings.size() == 1);
  CHECK(read.findings[0].code == "MK-PARSE-001");
  CHECK(read.findings[0].severity == Severity::warning);
  CHECK(read.findings[0].path == "rows/ws1/project.md");
  CHECK(read.findings[0].message == "rows/ws1/project.md:6: unclosed code fence");
}

TEST_CASE(
    "recall curated: episodes of every workspace, one per line, and a bad line is a warning") {
  const std::string bytes =
      R"({"episode_id":"e1","ts":"2026-11-30T09:00:00.000Z","workspace":"ws1",)"
      R"("title":"Build failed","prompt":"fix the linker error","tags":["ci","linker"]})"
      "\n"
      "not json\n"
      R"({"episode_id":"e2","ts":"2026-11-30T10:00:00.000Z","workspace":"ws2","title":"Deploy"})"
      "\n";
  const FileUnits read = read_curated("floors/episodes/2026-11-30.jsonl", bytes);
  REQUIRE(read.units.size() == 2);
  CHECK(read.units[0].kind == "episode");
  CHECK(read.units[0].id == "e1");
  CHECK(read.units[0].first_line == 1);
  CHECK(read.units[0].last_line == 1);
  CHECK(read.units[0].text == "Build failed\nfix the linker error\nci linker");
  CHECK(read.units[0].facets == search::Facets{{"date", "2026-11-30"}});
  CHECK(read.units[1].id == "e2");
  CHECK(read.units[1].first_line == 3);
  CHECK(read.units[1].text == "Deploy");
  REQUIRE(read.findings.size() == 1);
  CHECK(read.findings[0].code == "MK-PARSE-001");
  CHECK(read.findings[0].severity == Severity::warning);
  CHECK(read.findings[0].message.starts_with("floors/episodes/2026-11-30.jsonl:2: not an episode"));
}

}  // namespace
}  // namespace memkit::recall
