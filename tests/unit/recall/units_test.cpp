// Recall's units, what every layout shares: names, display paths, the files a layout does not read,
// the UTF-8 refusal, and hostile bytes read without a throw.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/recall.hpp"
#include "recall_test_support.hpp"

namespace memkit::recall {
namespace {

using test::read;

TEST_CASE("recall: the layouts' names are the layout: filter's words") {
  CHECK(layout_name(Layout::custodian) == "custodian");
  CHECK(layout_name(Layout::memorybox) == "memorybox");
  CHECK(layout_name(Layout::tiers) == "tiers");
  CHECK(layout_name(Layout::curated) == "curated");
}

TEST_CASE("recall: a display path joins the layout's root and the file's path") {
  CHECK(
      display_path(Source{
          .layout = Layout::custodian, .root = "docs/memory", .path = "decisions.md", .tier = 0}) ==
      "docs/memory/decisions.md");
  CHECK(display_path(
            Source{.layout = Layout::tiers, .root = "", .path = "memory/global.md", .tier = 0}) ==
        "memory/global.md");
}

TEST_CASE("recall: a file its layout does not read gives no unit and no finding") {
  const std::string text = "# T\n\n- a bullet\n\n## Heading\nText\n";
  const std::string not_utf8 = "- bad \xff\n";
  struct Case {
    Layout layout;
    std::string path;
  };
  const std::vector<Case> cases = {
      {Layout::custodian, "notes.txt"},
      {Layout::custodian, "manifest.md"},
      {Layout::custodian, "archive/README.md"},
      {Layout::custodian, "rules/README.md"},
      {Layout::memorybox, "README.md"},
      {Layout::memorybox, ".memkit/profile"},
      {Layout::memorybox, "memory/notes.txt"},
      {Layout::tiers, "memory/data/ledger.csv"},
      {Layout::tiers, "memory/data/notes.md"},
      {Layout::tiers, "memory/sessions/2026-11-29.txt"},
      {Layout::tiers, "memory/archive/global/global-20261130T090000.md"},
      {Layout::tiers, "memory/Bad Theme/2026-11-29_09.md"},
      {Layout::tiers, "memory/decision/deep/2026-11-29_09.md"},
      {Layout::tiers, "notes.md"},
      {Layout::curated, "checkpoint.json"},
      {Layout::curated, "config.json"},
      {Layout::curated, "log/billing/history.jsonl"},
      {Layout::curated, "floors/events/2026-11-30.jsonl"},
      {Layout::curated, "floors/episodes/notes.jsonl"},
      {Layout::curated, "rows/billing/notes.md"},
      {Layout::curated, "rows/Billing/project.md"},
      {Layout::curated, "rows/project.md"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    for (const std::string& bytes : {text, not_utf8}) {
      const FileUnits read_back = read(c.layout, "root", c.path, bytes);
      CHECK(read_back.units.empty());
      CHECK(read_back.findings.empty());
    }
  }
}

TEST_CASE("recall: a file that is not UTF-8 gives no unit and one warning naming its line") {
  struct Case {
    Layout layout;
    std::string root;
    std::string path;
  };
  const std::vector<Case> cases = {
      {Layout::custodian, "docs/memory", "decisions.md"},
      {Layout::memorybox, "", "memory/LONG_TERM.md"},
      {Layout::tiers, "", "memory/global.md"},
      {Layout::tiers, "", "memory/data/manifest.json"},
      {Layout::curated, "", "rows/billing/project.md"},
      {Layout::curated, "", "floors/episodes/2026-11-30.jsonl"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const FileUnits read_back = read(c.layout, c.root, c.path, "## a\n- b\n- c \xc3\x28 d\n");
    CHECK(read_back.units.empty());
    REQUIRE(read_back.findings.size() == 1);
    const Finding& f = read_back.findings[0];
    const std::string shown = c.root.empty() ? c.path : c.root + "/" + c.path;
    CHECK(f.code == "MK-UTF8-001");
    CHECK(f.severity == Severity::warning);
    CHECK(f.path == shown);
    CHECK(f.message == shown + ":3: invalid UTF-8 sequence");
  }
}

TEST_CASE("recall: hostile bytes give units or findings, never a throw") {
  const std::vector<std::string> inputs = {
      "",
      "\xEF\xBB\xBF",
      "\n\n\n",
      "```\n## a\n",
      "<!--\n- x\n",
      "{",
      "{\"a\": [1, {\"b\": \"}\"}]",
      "[]",
      "null",
      std::string(2000, '['),
      std::string(2000, '{'),
      "{\"x.csv\": {\"name\": 1, \"detected_columns\": \"no\"}}",
      "## \n### \n#### x\n- \n",
      "## project_a\nType: project\n",
      "{\"episode_id\": 1}\n\n{}\n",
      std::string("a\0b\n- c\0\n", 10),
      "- a\r\n  Confidence: 2\r\n  Verified: 9999-99-99\r\n",
  };
  const std::vector<std::pair<Layout, std::string>> files = {
      {Layout::custodian, "inbox.md"},
      {Layout::custodian, "archive/decisions-2026-01-01.md"},
      {Layout::memorybox, "memory/LONG_TERM.md"},
      {Layout::memorybox, "memory/SESSION_LOG.md"},
      {Layout::memorybox, "memory/daily/2026-11-30.md"},
      {Layout::memorybox, "memory/ARCHIVES/daily-2026-10.md"},
      {Layout::memorybox, "memory/ARCHIVES/sessions-2026-10.md"},
      {Layout::tiers, "memory/global.md"},
      {Layout::tiers, "memory/sessions/2026-11-30.md"},
      {Layout::tiers, "memory/decision/2026-11-30_09.md"},
      {Layout::tiers, "memory/data/manifest.json"},
      {Layout::curated, "rows/billing/project.md"},
      {Layout::curated, "floors/episodes/2026-11-30.jsonl"},
  };
  for (const auto& file : files) {
    for (const std::string& bytes : inputs) {
      CAPTURE(file.second);
      CAPTURE(bytes.size());
      FileUnits read_back;
      CHECK_NOTHROW(read_back = read(file.first, "", file.second, bytes));
      for (const Unit& unit : read_back.units) {
        CHECK(unit.first_line >= 1);
        CHECK(unit.last_line >= unit.first_line);
      }
    }
  }
}

}  // namespace
}  // namespace memkit::recall
