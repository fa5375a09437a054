// forget (spec compaction.md §14): units, blockers, tombstones by mode, the broad guard.
#include "memkit/forget.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "memory_inputs.hpp"

using namespace memkit;
using memkit::testing::inputs_of;
using memkit::testing::output_of;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-03-07T10:00:00+00:00");

ForgetPlanning forget(std::map<std::string, std::string> files, const std::string& topic,
                      ForgetMode mode) {
  if (files.count("manifest.md") == 0) files["manifest.md"] = "# M\n";
  if (files.count("do-not-use.md") == 0) files["do-not-use.md"] = "# Do Not Use\n";
  const CustodianInputs in = inputs_of(files);
  return plan_forget(in, topic, mode, default_token_counter(), kNow);
}

}  // namespace

TEST_CASE("forget: soft removes matching bullets and leaves a tombstone") {
  const ForgetPlanning f =
      forget({{"inbox.md", "# Inbox\n\n## 2026-03-06\n- use Redis here\n- keep\n"}}, "redis",
             ForgetMode::soft);
  CHECK(output_of(f.plan, "inbox.md") == "# Inbox\n\n## 2026-03-06\n- keep\n");
  CHECK(
      output_of(f.plan, "do-not-use.md") ==
      "# Do Not Use\n\n## Tombstone: redis\nGuard: keep this out of active memory unless the user "
      "reverses it.\nReason: the user asked to forget this topic.\nMode: soft\nDate: 2026-03-07\n");
  REQUIRE(f.matches.size() == 1);
  CHECK(f.matches[0].summary == "use Redis here");
  CHECK(f.tombstone_action == "insert");
  CHECK(f.changelog == "disabled");
  CHECK_FALSE(f.plan->sensitive());
}

TEST_CASE("forget: an ordinary section that loses every bullet goes whole") {
  const ForgetPlanning f = forget(
      {{"inbox.md", "# Inbox\n\n## 2026-03-06\n- Redis a\n- redis b\n\n## 2026-03-05\n- other\n"}},
      "redis", ForgetMode::soft);
  CHECK(output_of(f.plan, "inbox.md") == "# Inbox\n\n## 2026-03-05\n- other\n");
  CHECK(f.broad);  // two units matched
}

TEST_CASE("forget: decision entries go whole, prose, titles and bare headings are blockers") {
  const ForgetPlanning f =
      forget({{"decisions.md",
               "# Decisions about Kafka\n\n## 2026-01-02 - Streams\nDecision: use Kafka\n\n"
               "## 2026-01-01 - Other\nDecision: x\n"},
              {"brief.md", "# Brief\n\nWe moved off Kafka last year.\n"},
              {"constraints.md", "# C\n\n## Kafka\n"}},
             "kafka", ForgetMode::soft);
  CHECK(output_of(f.plan, "decisions.md") ==
        "# Decisions about Kafka\n\n## 2026-01-01 - Other\nDecision: x\n");
  std::vector<std::string> kinds;
  for (const ForgetBlocker& b : f.blockers) kinds.push_back(b.path + " " + b.kind);
  CHECK(kinds == std::vector<std::string>{"brief.md text", "decisions.md title",
                                          "constraints.md heading-only section"});
  std::vector<std::string> gates;
  for (const Finding& g : forget_gates(f, true)) gates.push_back(g.code);
  CHECK(gates == std::vector<std::string>{"MK-FORGET-001"});
}

TEST_CASE("forget: hard replaces matching tombstones with one generic and names nothing") {
  const ForgetPlanning f = forget({{"do-not-use.md",
                                    "# Do Not Use\n\n## Tombstone: Secret project\nGuard: g\n\n## "
                                    "Tombstone: Other\nGuard: g\n"},
                                   {"inbox.md", "- secret project notes\n"},
                                   {"changelog.md", "# L\n\n## 2026-03-07\n- earlier\n"}},
                                  "Secret project", ForgetMode::hard);
  CHECK(f.tombstones_matched == 1);
  CHECK(output_of(f.plan, "do-not-use.md") ==
        "# Do Not Use\n\n## Tombstone: redacted\nGuard: a user-requested topic was removed; do not "
        "reconstruct it from earlier context.\n\n## Tombstone: Other\nGuard: g\n");
  CHECK(output_of(f.plan, "changelog.md") ==
        "# L\n\n## 2026-03-07\n- forget (hard): topic withheld\n- earlier\n");
  CHECK(f.plan->sensitive());
  for (const ForgetMatch& m : f.matches) CHECK(m.summary == "[redacted]");
  CHECK(f.changelog == "generic");
}

TEST_CASE("forget: purge searches archives, adds no tombstone and warns about copies") {
  const ForgetPlanning f =
      forget({{"archive/decisions-2026-01-01.md", "# Archived\n\n- old kafka note\n- keep\n"},
              {"do-not-use.md", "# Do Not Use\n\n## Tombstone: kafka\nGuard: g\n"}},
             "kafka", ForgetMode::purge);
  CHECK(output_of(f.plan, "archive/decisions-2026-01-01.md") == "# Archived\n\n- keep\n");
  CHECK(output_of(f.plan, "do-not-use.md") == "# Do Not Use\n");
  CHECK(f.tombstone_action == "remove");
  bool warned = false;
  for (const Finding& finding : f.findings) warned = warned || finding.code == "MK-FORGET-003";
  CHECK(warned);
}

TEST_CASE("forget: short topics are broad, and a broad apply needs the flag") {
  const ForgetPlanning f = forget({{"inbox.md", "- go away\n"}}, "go", ForgetMode::soft);
  CHECK(f.broad);
  CHECK(forget_gates(f, false).size() == 1);
  CHECK(forget_gates(f, true).empty());
  const ForgetPlanning one = forget({{"inbox.md", "- redis cache\n"}}, "redis", ForgetMode::soft);
  CHECK_FALSE(one.broad);
}

TEST_CASE("forget: a today's changelog section emptied by the forget still gets the line") {
  const ForgetPlanning f =
      forget({{"changelog.md", "# L\n\n## 2026-03-07\n- about kafka\n\n## 2026-03-06\n- x\n"}},
             "kafka", ForgetMode::soft);
  CHECK(output_of(f.plan, "changelog.md") ==
        "# L\n\n## 2026-03-07\n- forget (soft): kafka\n\n## 2026-03-06\n- x\n");
}
