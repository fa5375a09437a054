// The monthly hygiene checklist (spec memorybox.md §8): items, values, limits and orphaned links.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/memorybox.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");

// The files are read; `others` exist under the root but are not read (link targets).
Inputs inputs_of(const std::map<std::string, std::string>& files,
                 const std::vector<std::string>& others = {}) {
  Inputs in;
  std::vector<FileSnapshot> snaps;
  for (const auto& [path, bytes] : files) {
    snaps.push_back(FileSnapshot{path, memkit::EntryState::file,
                                 std::make_shared<const std::string>(bytes), ""});
    if (path.rfind("memory/daily/", 0) == 0) in.daily_files.push_back(path);
    if (path.rfind("brain/", 0) == 0 && path.find('/', 6) == std::string::npos) {
      in.brain_files.push_back(path);
    }
    in.all_files.push_back(path);
  }
  in.all_files.insert(in.all_files.end(), others.begin(), others.end());
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

const HygieneItem& item(const Hygiene& h, int n) {
  return h.items.at(static_cast<std::size_t>(n - 1));
}

}  // namespace

TEST_CASE("memorybox hygiene: ten items, limits are stay-under bounds") {
  std::string log;
  for (int i = 0; i < 200; ++i) log += "line\n";
  const Hygiene h = memorybox_hygiene(inputs_of({{"memory/SESSION_LOG.md", log}}), kNow);
  REQUIRE(h.items.size() == 10);
  CHECK(item(h, 1).result == "FAIL");
  CHECK(item(h, 1).value == 200u);
  CHECK(item(h, 1).limit == 200u);
  CHECK(item(h, 2).result == "PASS");
  CHECK(item(h, 10).result == "N/A");
  CHECK_FALSE(item(h, 10).value.has_value());
  REQUIRE(h.findings.size() == 1);
  CHECK(h.findings[0].code == "MK-BOX-013");
}

TEST_CASE("memorybox hygiene: duplicate entries fail items 3 and 4 whatever their count") {
  const Hygiene h = memorybox_hygiene(
      inputs_of({{"memory/MISTAKES.md", "## Lock\na\n## lock\nb\n## Other\n## LOCK\n"}}), kNow);
  CHECK(item(h, 3).result == "FAIL");
  CHECK(item(h, 3).value == 4u);
  REQUIRE(item(h, 3).details.size() == 1);  // each duplicated ID once
  CHECK(item(h, 3).details[0].reason == "duplicate");
  CHECK(item(h, 4).result == "PASS");
}

TEST_CASE("memorybox hygiene: LONG_TERM facts list their reasons in the spec's order") {
  const Hygiene h =
      memorybox_hygiene(inputs_of({{"memory/LONG_TERM.md",
                                    "- ok\n  Confidence: 0.99\n  Verified: 2026-11-29\n"
                                    "- old\n  Confidence: 0.55\n  Verified: 2026-08-01\n"
                                    "  Review: contradicted 2026-11-01: no\n"
                                    "- bare\n"}}),
                        kNow);
  const HygieneItem& five = item(h, 5);
  CHECK(five.result == "REVIEW");
  CHECK_FALSE(five.limit.has_value());
  REQUIRE(five.details.size() == 2);
  // 0.55 - 0.30 = 0.25: low band, so its interval has passed.
  CHECK(five.details[0].reasons ==
        std::vector<std::string>{"review_interval", "penalty", "low_band", "contradicted"});
  CHECK(five.details[1].reasons == std::vector<std::string>{"unscored"});
}

TEST_CASE("memorybox hygiene: SOPs, daily files and the brain/ total") {
  std::string brain;
  for (int i = 0; i < 1250; ++i) brain += "x\n";
  const Hygiene h = memorybox_hygiene(inputs_of({{"memory/SOP_LIBRARY.md",
                                                  "## Fresh\nVerified: 2026-11-20\n## Stale\n"
                                                  "Verified: 2026-10-01\n## Never\n"},
                                                 {"memory/daily/2026-10-30.md", "- a\n"},
                                                 {"memory/daily/2026-10-31.md", "- b\n"},
                                                 {"brain/SOUL.md", brain},
                                                 {"brain/EXTRA.md", brain}}),
                                      kNow);
  REQUIRE(item(h, 6).details.size() == 2);
  CHECK(item(h, 6).details[0].days == 60u);
  CHECK_FALSE(item(h, 6).details[1].verified.has_value());
  REQUIRE(item(h, 7).details.size() == 1);  // 31 days old; 30 is kept
  CHECK(item(h, 7).details[0].path == "memory/daily/2026-10-30.md");
  CHECK(item(h, 8).value == 2500u);
  CHECK(item(h, 8).result == "FAIL");
}

TEST_CASE("memorybox hygiene: wiki and Markdown links resolve by the spec's rules") {
  const std::string soul =
      "[[skills/INDEX]] [[memory/ACTIVE_TASKS.template]] ![[diagram.PNG]] [[Notes#h|alias]]\n"
      "[[]] [[#same page]] ``[[not/a/link]]`` `[x](gone.md)`\n"
      "[up](../memory/LONG_TERM.md#facts) [enc](../memory/My%20File.md) [web](https://x.org)\n"
      "[abs](/etc/passwd) [frag](#top) [lost](nowhere/../lost.md) [[missing/PAGE]]\n"
      "```\n[[in/fence]]\n```\n";
  const Hygiene h =
      memorybox_hygiene(inputs_of({{"brain/SOUL.md", soul}, {"memory/LONG_TERM.md", "- a\n"}},
                                  {"skills/INDEX.md", "memory/ACTIVE_TASKS.template.md",
                                   "assets/diagram.png", "deep/notes.md", "memory/My File.md"}),
                        kNow);
  REQUIRE(h.orphans.size() == 2);
  CHECK(h.orphans[0].line == 4);
  CHECK(h.orphans[0].link == "[lost](nowhere/../lost.md)");
  CHECK(h.orphans[0].target == "brain/lost.md");
  CHECK(h.orphans[1].link == "[[missing/PAGE]]");
  CHECK(h.orphans[1].target == "missing/PAGE.md");
  CHECK(item(h, 9).value == 2u);
  CHECK(item(h, 9).result == "FAIL");
}

TEST_CASE("memorybox hygiene: front matter, fences and comments hold no links, <…> destinations are") {
  const std::string soul =
      "---\n[[fm/one]]\n---\n"                            // front matter (closed)
      "<!-- [[comment/one-line]] -->\n"                   // a comment on one line
      "<!-- opener [[comment/opener]]\n[[comment/inner]]\n-->\n"
      "~~~ [[fence/info]]\n[[fence/inner]]\n~~~\n"
      "- a bullet\n  ```\n  [[fence/in-bullet]]\n  ```\n"
      "[sp](<gone file.md>) [ok](<kept file.md>)\n";
  const Hygiene h = memorybox_hygiene(
      inputs_of({{"brain/SOUL.md", soul}}, {"brain/kept file.md"}), kNow);
  REQUIRE(h.orphans.size() == 1);
  CHECK(h.orphans[0].link == "[sp](<gone file.md>)");
  CHECK(h.orphans[0].target == "brain/gone file.md");
  CHECK(h.orphans[0].line == 15);
}

TEST_CASE("memorybox hygiene: a --- line without a closing one is no front matter") {
  const Hygiene h =
      memorybox_hygiene(inputs_of({{"brain/SOUL.md", "---\n[[not/front/matter]]\n"}}), kNow);
  REQUIRE(h.orphans.size() == 1);
  CHECK(h.orphans[0].link == "[[not/front/matter]]");
}

TEST_CASE("memorybox hygiene: an unparseable file fails the items that read it, MK-PARSE-001") {
  std::string tasks;
  for (int i = 0; i < 60; ++i) tasks += "- [ ] task " + std::to_string(i) + "\n";
  tasks += "```\nunclosed\n";
  const Hygiene h = memorybox_hygiene(
      inputs_of({{"memory/ACTIVE_TASKS.md", tasks}, {"memory/MISTAKES.md", "## a\n<!--\n"}}), kNow);
  for (int n : {2, 3, 9}) {
    CAPTURE(n);
    CHECK(item(h, n).result == "FAIL");
  }
  CHECK_FALSE(item(h, 2).value.has_value());
  REQUIRE(item(h, 2).details.size() == 1);
  CHECK(item(h, 2).details[0].path == "memory/ACTIVE_TASKS.md");
  CHECK(item(h, 2).details[0].reason == "unparseable");
  CHECK(item(h, 9).details.size() == 2);
  CHECK(item(h, 4).result == "PASS");  // PATTERNS.md is missing, not unparseable
  std::vector<std::string> parse_errors;
  for (const Finding& f : h.findings) {
    if (f.code == "MK-PARSE-001") {
      CHECK(f.severity == Severity::error);
      parse_errors.push_back(f.path);
    }
  }
  CHECK(parse_errors == std::vector<std::string>{"memory/ACTIVE_TASKS.md", "memory/MISTAKES.md"});
}
