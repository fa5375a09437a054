// The custodian layout's rules (spec compaction.md §3, §5, §16).
#include <doctest/doctest.h>

#include "memkit/layouts.hpp"
#include "memkit/tokens.hpp"

using namespace memkit;

TEST_CASE("layouts: the §5 budget table, inclusive bounds") {
  CHECK(custodian::budget_for("brief.md")->limit() == 500);
  CHECK(custodian::budget_for("decisions.md")->limit() == 800);
  CHECK(custodian::budget_for("constraints.md")->limit() == 400);
  CHECK(custodian::budget_for("do-not-use.md")->limit() == 400);
  CHECK(custodian::budget_for("preferences.md")->limit() == 300);
  CHECK(custodian::budget_for("changelog.md")->limit() == 800);
  CHECK(custodian::budget_for("rules/x.md")->limit() == 400);
  CHECK(custodian::budget_for("profiles/x.md")->limit() == 500);
  CHECK(custodian::budget_for("areas/x.md")->limit() == 600);
  CHECK(custodian::budget_for("areas/x.md")->bound() == Bound::inclusive);
  CHECK_FALSE(custodian::budget_for("manifest.md").has_value());
  CHECK_FALSE(custodian::budget_for("inbox.md").has_value());
  CHECK_FALSE(custodian::budget_for("rules/README.md").has_value());
  CHECK_FALSE(custodian::budget_for("archive/decisions-2026-01-01.md").has_value());
  CHECK_FALSE(custodian::budget_for("areas/sub/x.md").has_value());
  CHECK_FALSE(custodian::budget_for("notes.md").has_value());
}

TEST_CASE("layouts: 800 tokens is within the decisions budget and 801 is over") {
  const Budget b = *custodian::budget_for("decisions.md");
  CHECK(b.classify(639) == BudgetState::ok);
  CHECK(b.classify(640) == BudgetState::near_limit);
  CHECK(b.classify(800) == BudgetState::near_limit);
  CHECK(b.classify(801) == BudgetState::over_budget);
}

TEST_CASE("layouts: the memory directory must lie strictly inside docs/") {
  const LayoutProfile& p = custodian_layout();
  CHECK(*normalize_memory_dir("docs/memory", p) == "docs/memory");
  CHECK(*normalize_memory_dir("./docs//memory/", p) == "docs/memory");
  CHECK(*normalize_memory_dir("docs\\agent\\memory", p) == "docs/agent/memory");
  CHECK(*normalize_memory_dir("docs/x/../memory", p) == "docs/memory");
  for (const char* bad : {"docs", "docs/", "memory", "/abs/docs/memory", "../docs/memory",
                          "docs/..", "C:/docs/memory", "", "docs/memory/../.."}) {
    CAPTURE(bad);
    const Result<std::string> r = normalize_memory_dir(bad, p);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Errc::layout);
  }
  CHECK(normalize_memory_dir("docs", p).status().message() ==
        "--memory-dir: docs: must lie strictly inside docs/");
}

TEST_CASE("layouts: route paths are relative .md paths without odd segments") {
  for (const char* ok : {"brief.md", "rules/a.md", "areas/x-y.md"})
    CHECK(custodian::is_safe_route(ok));
  for (const char* bad : {"../x.md", "/x.md", "a//b.md", "./a.md", "a/./b.md", "a\\b.md", "x.txt",
                          "", "C:x.md", "archive/"}) {
    CAPTURE(bad);
    CHECK_FALSE(custodian::is_safe_route(bad));
  }
}

TEST_CASE("layouts: protocol versions 0.5, 0.6 and 0.7 are supported, compared by dotted parts") {
  using custodian::ProtocolSupport;
  CHECK(custodian::protocol_support("0.5") == ProtocolSupport::supported);
  CHECK(custodian::protocol_support("0.6") == ProtocolSupport::supported);
  CHECK(custodian::protocol_support("0.7") == ProtocolSupport::supported);
  CHECK(custodian::protocol_support("0.7.0") == ProtocolSupport::supported);
  CHECK(custodian::protocol_support("0.10") == ProtocolSupport::unsupported);
  CHECK(custodian::protocol_support("0.8") == ProtocolSupport::unsupported);
  CHECK(custodian::protocol_support("0.4") == ProtocolSupport::unsupported);
  CHECK(custodian::protocol_support("1.0") == ProtocolSupport::unsupported);
  CHECK(custodian::protocol_support("0.7.1") == ProtocolSupport::unsupported);
  CHECK(custodian::protocol_support("0.6.9") == ProtocolSupport::unsupported);
  CHECK(custodian::protocol_support("0.5.0.0") == ProtocolSupport::supported);
  CHECK(custodian::protocol_support("00.06") == ProtocolSupport::supported);
  CHECK(custodian::protocol_support("seven") == ProtocolSupport::invalid);
  CHECK(custodian::protocol_support("0.") == ProtocolSupport::invalid);
  CHECK(custodian::protocol_support("7") == ProtocolSupport::invalid);
}

TEST_CASE("layouts: decision entries need a visible Decision line, and size is the section's") {
  const Document doc = parse_markdown(std::string(
      "# Decisions\n\n## 2026-01-02 - A\nDecision: use X\n\n## 2026-01-01 - B\nDecision:\n\n"
      "## Notes\n```\nDecision: in a fence\n```\n\n## C\nDecisions: plural\n"));
  const auto entries = custodian::decision_entries(doc, default_token_counter());
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].title == "2026-01-02 - A");
  CHECK(entries[0].line == 3);
  CHECK(entries[0].tokens == estimate_tokens("## 2026-01-02 - A\nDecision: use X\n"));
  CHECK(entries[1].title == "2026-01-01 - B");
}

TEST_CASE("layouts: the manifest init writes reads back with every route and subsection") {
  const ClockReading now = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");
  const auto files = custodian::init_templates(false, "0.1.0", now);
  REQUIRE(files.size() == 6);
  CHECK(files[0].path == "manifest.md");
  const custodian::Manifest m = custodian::read_manifest(parse_markdown(files[0].bytes));
  CHECK(m.has_protocol_section);
  CHECK(m.protocol.at("protocol_version") == "0.7");
  CHECK(m.protocol.at("initialized_with") == "memkit 0.1.0");
  CHECK(m.always_load_sections == 1);
  for (const auto& subsection : m.task_subsections) {
    CAPTURE(subsection.first);
    CHECK(subsection.second == 1);
  }
  for (const custodian::Route& r : m.routes) CHECK(custodian::is_safe_route(r.path));
  CHECK(m.routes.size() >= 3);
  CHECK(m.module_index.empty());
  for (const custodian::TemplateFile& f : files) {
    const auto budget = custodian::budget_for(f.path);
    if (budget) CHECK(budget->classify(estimate_tokens(f.bytes)) == BudgetState::ok);
  }
}

TEST_CASE("layouts: the extended set dates the changelog with the local date") {
  const ClockReading late = *ClockReading::parse_rfc3339("2026-11-30T23:30:00-01:00");
  const auto files = custodian::init_templates(true, "0.1.0", late);
  CHECK(files.size() == 12);
  bool found = false;
  for (const auto& f : files) {
    if (f.path == "changelog.md") {
      found = true;
      CHECK(f.bytes.find("## 2026-11-30\n- changelog enabled\n") != std::string::npos);
    }
  }
  CHECK(found);
}

TEST_CASE("layouts: manifest routes are read from labels, backticks and the module index") {
  const Document doc = parse_markdown(std::string(
      "## Always load\n- brief.md\n- `constraints.md`\n\n## Load by task\n### Preferences\n"
      "Load if present:\n- preferences.md\nLoad:\n- decisions.md\n### Preferences\n\n"
      "## Optional module index\n### Enabled rules\n- None enabled.\n### Enabled areas\n"
      "- `areas/db.md`: when the database is touched\n"
      "## Always load\n"));
  const custodian::Manifest m = custodian::read_manifest(doc);
  CHECK(m.always_load_sections == 2);
  CHECK(m.task_subsections.at("Preferences") == 2);
  CHECK(m.task_subsections.at("Memory maintenance") == 0);
  REQUIRE(m.routes.size() == 4);
  CHECK(m.routes[1].path == "constraints.md");
  CHECK(m.routes[2].path == "preferences.md");
  CHECK_FALSE(m.routes[2].required);
  CHECK(m.routes[3].required);
  REQUIRE(m.module_index.size() == 1);
  CHECK(m.module_index[0].path == "areas/db.md");
  CHECK_FALSE(m.has_protocol_section);
}
