// `add` (spec compaction.md §13): targets, entry bytes, positions, guides and validation.
#include "memkit/add.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "memory_inputs.hpp"

using namespace memkit;
using memkit::testing::inputs_of;
using memkit::testing::output_of;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-03-07T10:00:00+00:00");
const std::string kManifest =
    "## MemoryCustodian Protocol\n- protocol_version: 0.7\n\n## Optional module index\n\n"
    "### Enabled rules\n\n### Enabled profiles\n\n### Enabled areas\n";

AddPlanning plan(AddRequest request, std::map<std::string, std::string> files = {}) {
  if (files.count("manifest.md") == 0) files["manifest.md"] = kManifest;
  const CustodianInputs in = inputs_of(files);
  REQUIRE(validate_add(request).ok());
  return plan_add(in, request, default_token_counter(), kNow);
}

AddRequest request(std::string message, std::string type) {
  AddRequest r;
  r.message = std::move(message);
  r.type = std::move(type);
  return r;
}

}  // namespace

TEST_CASE("add: a decision goes before the first entry, with its reason") {
  AddRequest r = request("Use Postgres\nfor readings", "decision");
  r.reason = "window queries";
  const AddPlanning a = plan(
      r, {{"decisions.md", "# Decisions\n\nNewest first.\n\n## 2026-01-01 - Old\nDecision: x\n"}});
  CHECK(a.target == "decisions.md");
  CHECK(output_of(a.plan, "decisions.md") ==
        "# Decisions\n\nNewest first.\n\n## 2026-03-07 - Use Postgres for readings\nDecision:\nUse "
        "Postgres\nfor readings\nReason:\nwindow queries\n\n## 2026-01-01 - Old\nDecision: x\n");
  REQUIRE(a.decision_entry_tokens.has_value());
  CHECK(a.findings.empty());
}

TEST_CASE("add: decision titles are cut to 72 code points, tombstone titles never are") {
  const std::string long_message(40, 'a');
  const std::string message =
      long_message + " " + std::string(30, 'b') + " \xC3\xA9\xC3\xA9\xC3\xA9zzz";
  const AddPlanning d = plan(request(message, "decision"), {{"decisions.md", "# D\n"}});
  // The first 72 code points of the collapsed message, as the reference cuts them: a space that
  // falls on the 72nd stays.
  CHECK(output_of(d.plan, "decisions.md")
            .find("## 2026-03-07 - " + long_message + " " + std::string(30, 'b') + " \n") !=
        std::string::npos);
  const AddPlanning t = plan(request("  Redis   cache\tfor sessions ", "do-not-use"),
                             {{"do-not-use.md", "# Do Not Use\n"}});
  CHECK(t.type == "tombstone");
  CHECK(output_of(t.plan, "do-not-use.md") ==
        "# Do Not Use\n\n## Tombstone: Redis cache for sessions\nGuard: keep this out of active "
        "memory unless the user reverses it.\nReason: not given\nDate: 2026-03-07\n");
}

TEST_CASE("add: bullets append tight and keep multi-line messages in one unit") {
  const AddPlanning a =
      plan(request("first\n\nsecond", "constraint"), {{"constraints.md", "# C\n\n- old\n"}});
  CHECK(output_of(a.plan, "constraints.md") == "# C\n\n- old\n- first\n\n  second\n");
}

TEST_CASE("add: inbox notes go under today's heading, newest first") {
  const AddPlanning a =
      plan(request("note", "inbox"),
           {{"inbox.md", "# Inbox\n\n## 2026-03-07\n- earlier\n\n## 2026-03-06\n- old\n"}});
  CHECK(output_of(a.plan, "inbox.md") ==
        "# Inbox\n\n## 2026-03-07\n- note\n- earlier\n\n## 2026-03-06\n- old\n");
  const AddPlanning fresh =
      plan(request("note", "inbox"), {{"inbox.md", "# Inbox\n\n## 2026-03-06\n- old\n"}});
  CHECK(output_of(fresh.plan, "inbox.md") ==
        "# Inbox\n\n## 2026-03-07\n- note\n\n## 2026-03-06\n- old\n");
}

TEST_CASE("add: a new module file is created and indexed in the manifest") {
  AddRequest r = request("Run the tests", "rule");
  r.name = "testing";
  const AddPlanning a = plan(r);
  CHECK(a.target == "rules/testing.md");
  CHECK(output_of(a.plan, "rules/testing.md").find("\n- Run the tests\n") != std::string::npos);
  CHECK(output_of(a.plan, "manifest.md")
            .find("### Enabled rules\n- `rules/testing.md`: Load when the task clearly matches "
                  "this rule.\n") != std::string::npos);
  REQUIRE(a.plan.has_value());
  CHECK(a.plan->operations().size() == 2);
}

TEST_CASE("add: a decision over 120 tokens is refused unless --allow-long") {
  std::string words;
  for (int i = 0; i < 130; ++i) words += "w ";
  const AddPlanning refused = plan(request(words, "decision"), {{"decisions.md", "# D\n"}});
  REQUIRE(refused.findings.size() == 1);
  CHECK(refused.findings[0].code == "MK-ADD-001");
  CHECK_FALSE(refused.plan.has_value());
  AddRequest allowed = request(words, "decision");
  allowed.allow_long = true;
  CHECK(plan(allowed, {{"decisions.md", "# D\n"}}).plan.has_value());
  std::string near;
  for (int i = 0; i < 60; ++i) near += "w ";  // 106 tokens with the heading
  const AddPlanning warned = plan(request(near, "decision"), {{"decisions.md", "# D\n"}});
  REQUIRE_FALSE(warned.findings.empty());
  CHECK(warned.findings[0].code == "MK-ADD-002");
}

TEST_CASE("add: a write that reaches NEAR LIMIT carries a maintenance preview") {
  std::string big = "# C\n\n-";
  for (int i = 0; i < 330; ++i) big += " x";
  const AddPlanning a = plan(request("one more", "constraint"), {{"constraints.md", big + "\n"}});
  REQUIRE(a.budget_result.has_value());
  CHECK(a.budget_result->state == BudgetState::near_limit);
  REQUIRE(a.maintenance_preview.has_value());
  CHECK_FALSE(a.maintenance_preview->required);
  CHECK(a.maintenance_preview->command == "memkit custodian compact --target constraints.md");
  CHECK(a.findings[0].code == "MK-BUDGET-002");
}

TEST_CASE("add: arguments are validated before anything is read") {
  auto refused = [](AddRequest r) { return validate_add(r).message(); };
  CHECK(refused(request("  ", "inbox")) == "add: the message is empty");
  CHECK(refused(request("caf\xC3", "inbox")) == "add: the message: invalid UTF-8 at byte 3");
  CHECK(refused(request(std::string("a\0b", 3), "inbox")) ==
        "add: the message: a NUL byte at byte 1");
  AddRequest bad_reason = request("x", "decision");
  bad_reason.reason = "\xFF";
  CHECK(refused(bad_reason) == "--reason: invalid UTF-8 at byte 0");
  CHECK(refused(request("x", "note")).rfind("--type: expected", 0) == 0);
  AddRequest long_inbox = request("x", "inbox");
  long_inbox.allow_long = true;
  CHECK(refused(long_inbox) == "--allow-long: only with --type decision");
  CHECK(refused(request("x", "rule")) == "--name: required with --type rule");
  AddRequest both = request("x", "decision");
  both.area = "db";
  both.name = "n";
  CHECK(refused(both) == "--area: conflicts with --name");
  AddRequest bad_name = request("x", "area");
  bad_name.name = "../etc";
  CHECK(refused(bad_name) == "--name: invalid name '../etc'");
  CHECK(refused(request("a\n## H2\nb", "decision")) ==
        "add: a decision message may not contain the line '## H2'");
  CHECK(refused(request("a\nReason:", "decision")) ==
        "add: a decision message may not contain the line 'Reason:'");
}

TEST_CASE("add: --area sends decisions and bullets to the area file") {
  AddRequest r = request("Use pooling", "decision");
  r.area = "db";
  CHECK(add_target(r) == "areas/db.md");
  const AddPlanning a = plan(r);
  CHECK(output_of(a.plan, "areas/db.md")
            .find("## 2026-03-07 - Use pooling\nDecision:\nUse pooling\n") != std::string::npos);
}
