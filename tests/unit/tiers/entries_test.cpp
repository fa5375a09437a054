// The bytes of the three tiers (spec tiers3.md §4 L1, §5 L2, §6 global.md and its skeleton), the
// §15 persist-turn vectors, and global.md's read contract (§6 read_order).
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/tiers.hpp"
#include "tiers_support.hpp"

using namespace memkit;
using namespace memkit::tiers;
using tiers_test::at;
using tiers_test::spec_now;

namespace {

Turn turn_of(TurnArguments args, std::string_view content) {
  Turn turn;
  const std::vector<Finding> refused = check_turn(args, "--raw-content", content, turn);
  REQUIRE(refused.empty());
  return turn;
}

// The §15 persist-turn's L1 fields.
Turn spec_turn() {
  TurnArguments args;
  args.entry_type = "assistant";
  args.session_id = "s1";
  args.tools_json = R"(["search","read"])";
  return turn_of(args, "  Raw one  ");
}

Note note_of(std::optional<Template> templ, std::optional<std::string> title,
             std::string content = "Use persist-turn.") {
  return Note{"decision", templ, std::move(title), std::move(content)};
}

const ReadOrderItem& item(const std::vector<ReadOrderItem>& order, std::string_view section) {
  for (const ReadOrderItem& i : order) {
    if (i.section == section) return i;
  }
  FAIL("no read-order item " << section);
  return order.front();
}

std::string_view content_of(std::string_view global, const ReadOrderItem& i) {
  return global.substr(i.begin, i.end - i.begin);
}

constexpr std::string_view kSkeleton =
    "# Global Memory\n\nRead Order: Active Mission -> Key Constraints -> Research Index -> User "
    "Preferences\n\n## 1. Active Mission\n### Mission Snapshot\n### Key Constraints "
    "(Immutable)\n### Next Useful Reads\n\n## 2. Research Index\n\n## 3. Decisions\n\n## 4. User "
    "Preferences\n";

}  // namespace

TEST_CASE("tiers bytes: the global.md skeleton is the seed's, ending with LF") {
  CHECK(global_skeleton() == kSkeleton);
}

TEST_CASE("tiers bytes: §15 first persist-turn, the L1 file") {
  CHECK(session_log_path(spec_now()) == "memory/sessions/2026-03-07.md");
  CHECK(append_session_entry(std::nullopt, spec_turn(), spec_now()) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n**Session:** s1\n"
        "**Tools:** search, read\n\nRaw one\n\n---");
}

TEST_CASE("tiers bytes: §15 first persist-turn, the L2 file") {
  CHECK(theme_note_path("decision", spec_now()) == "memory/decision/2026-03-07_14.md");
  CHECK(append_theme_entry(std::nullopt, note_of(Template::decision, "Default command"),
                           spec_now()) ==
        "## Decision Record: Default command\n\nUse persist-turn.\n");
}

TEST_CASE("tiers bytes: §15 second turn at 14:30:00 appends to both files") {
  const ClockReading later = at("2026-03-07T14:30:00+00:00");
  const std::string l1 = append_session_entry(std::nullopt, spec_turn(), spec_now());
  const std::string l2 =
      append_theme_entry(std::nullopt, note_of(Template::decision, "Default command"), spec_now());
  CHECK(session_log_path(later) == session_log_path(spec_now()));
  CHECK(theme_note_path("decision", later) == theme_note_path("decision", spec_now()));
  CHECK(append_session_entry(l1, turn_of({}, "second"), later) ==
        l1 + "\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---");
  CHECK(append_theme_entry(l2, note_of(std::nullopt, std::nullopt, "second note"), later) ==
        l2 + "\n\n## 2026-03-07 14:30:00\n\nsecond note\n");
}

TEST_CASE("tiers bytes: an L1 entry without session or tools has neither line") {
  CHECK(append_session_entry(std::nullopt, turn_of({}, "hello"), spec_now()) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nhello\n\n---");
  TurnArguments empty_tools;
  empty_tools.tools_json = "[]";
  CHECK(append_session_entry(std::nullopt, turn_of(empty_tools, "hello"), spec_now()) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nhello\n\n---");
  TurnArguments only_tools;
  only_tools.tools_json = R"(["grep"])";
  CHECK(append_session_entry("x", turn_of(only_tools, "hi"), spec_now()) ==
        "x\n\n### [2026-03-07 14:05:09] TURN\n**Tools:** grep\n\nhi\n\n---");
}

TEST_CASE("tiers bytes: the content's inner line breaks are written as they are") {
  CHECK(append_session_entry(std::nullopt, turn_of({}, " a\r\nb\n\nc "), spec_now()) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\na\r\nb\n\nc\n\n---");
}

TEST_CASE("tiers bytes: stamps and file names use local wall time, not UTC") {
  // 00:30 local on 03-08 is still 03-07 in UTC.
  const ClockReading ahead = at("2026-03-08T00:30:05+01:00");
  CHECK(session_log_path(ahead) == "memory/sessions/2026-03-08.md");
  CHECK(theme_note_path("t", ahead) == "memory/t/2026-03-08_00.md");
  CHECK(append_session_entry(std::nullopt, turn_of({}, "x"), ahead) ==
        "# Session Log - 2026-03-08\n\n### [2026-03-08 00:30:05] TURN\n\nx\n\n---");
  const ClockReading behind = at("2026-03-07T23:59:59-05:30");
  CHECK(theme_note_path("t", behind) == "memory/t/2026-03-07_23.md");
  CHECK(append_theme_entry(std::nullopt, note_of(std::nullopt, std::nullopt, "x"), behind) ==
        "## 2026-03-07 23:59:59\n\nx\n");
}

TEST_CASE("tiers bytes: the four L2 heading forms") {
  const ClockReading now = spec_now();
  CHECK(append_theme_entry(std::nullopt, note_of(Template::error, "Crash"), now) ==
        "## Error Record: Crash\n\nUse persist-turn.\n");
  CHECK(append_theme_entry(std::nullopt, note_of(std::nullopt, "Crash"), now) ==
        "## Crash\n\nUse persist-turn.\n");
  CHECK(append_theme_entry(std::nullopt, note_of(Template::task, std::nullopt), now) ==
        "## Task Record - 2026-03-07 14:05:09\n\nUse persist-turn.\n");
  CHECK(append_theme_entry(std::nullopt, note_of(std::nullopt, std::nullopt), now) ==
        "## 2026-03-07 14:05:09\n\nUse persist-turn.\n");
}

TEST_CASE("tiers bytes: consecutive L2 entries are separated by two empty lines") {
  const std::string first =
      append_theme_entry(std::nullopt, note_of(std::nullopt, "one", "A"), spec_now());
  const std::string both = append_theme_entry(first, note_of(std::nullopt, "two", "B"), spec_now());
  CHECK(both == "## one\n\nA\n\n\n## two\n\nB\n");
}

TEST_CASE("tiers bytes: a global append adds LF LF and the stripped block, no final LF") {
  CHECK(append_global_block(std::string_view("# G\n"), "  block\n\n") == "# G\n\n\nblock");
  CHECK(append_global_block(std::string_view("# G"), "b") == "# G\n\nb");
}

TEST_CASE("tiers bytes: a global append to a missing file starts from the skeleton") {
  CHECK(append_global_block(std::nullopt, "## Persisted Turn Promotion - 2026-03-07 14:05\n\nX") ==
        std::string(kSkeleton) + "\n\n## Persisted Turn Promotion - 2026-03-07 14:05\n\nX");
  // An existing empty file is not missing: no skeleton.
  CHECK(append_global_block(std::string_view(""), "X") == "\n\nX");
}

TEST_CASE("tiers read order: the skeleton's four sections and their content") {
  const std::vector<ReadOrderItem> order = read_order(kSkeleton);
  REQUIRE(order.size() == 4);
  CHECK(order[0].section == "Active Mission");
  CHECK(order[1].section == "Key Constraints");
  CHECK(order[2].section == "Research Index");
  CHECK(order[3].section == "User Preferences");
  for (const ReadOrderItem& i : order) CHECK(i.found());

  CHECK(order[0].heading == std::optional<std::string>("1. Active Mission"));
  CHECK(order[0].level == 2);
  CHECK(content_of(kSkeleton, order[0]) ==
        "## 1. Active Mission\n### Mission Snapshot\n### Key Constraints (Immutable)\n"
        "### Next Useful Reads\n\n");
  // Key Constraints is an H3 inside Active Mission; it ends at the next H3.
  CHECK(order[1].heading == std::optional<std::string>("Key Constraints (Immutable)"));
  CHECK(order[1].level == 3);
  CHECK(content_of(kSkeleton, order[1]) == "### Key Constraints (Immutable)\n");
  CHECK(order[2].heading == std::optional<std::string>("2. Research Index"));
  CHECK(content_of(kSkeleton, order[2]) == "## 2. Research Index\n\n");
  CHECK(order[3].heading == std::optional<std::string>("4. User Preferences"));
  CHECK(content_of(kSkeleton, order[3]) == "## 4. User Preferences\n");
}

TEST_CASE("tiers read order: numbering with extra spaces is removed, the heading kept as is") {
  const std::string global = "# G\n## 2.  Research Index\n- a\n## 12. User Preferences\n- b\n";
  const std::vector<ReadOrderItem> order = read_order(global);
  CHECK(item(order, "Research Index").heading == std::optional<std::string>("2.  Research Index"));
  CHECK(content_of(global, item(order, "Research Index")) == "## 2.  Research Index\n- a\n");
  CHECK(item(order, "User Preferences").heading ==
        std::optional<std::string>("12. User Preferences"));
  CHECK(content_of(global, item(order, "User Preferences")) == "## 12. User Preferences\n- b\n");
}

TEST_CASE("tiers read order: headings match case-folded, by prefix") {
  const std::string global =
      "## ACTIVE MISSION\nm\n### key constraints\nk\n## Research Index v2\nr\n"
      "## USER preferences (ours)\nu\n";
  const std::vector<ReadOrderItem> order = read_order(global);
  CHECK(item(order, "Active Mission").heading == std::optional<std::string>("ACTIVE MISSION"));
  CHECK(item(order, "Key Constraints").heading == std::optional<std::string>("key constraints"));
  CHECK(item(order, "Research Index").heading == std::optional<std::string>("Research Index v2"));
  CHECK(item(order, "User Preferences").heading ==
        std::optional<std::string>("USER preferences (ours)"));
  // Not a prefix: the section name must start the text.
  const std::vector<ReadOrderItem> other = read_order("## The Active Mission\n## Missions\n");
  CHECK_FALSE(item(other, "Active Mission").found());
}

TEST_CASE("tiers read order: the first match in file order wins") {
  const std::string global = "## Research Index\nfirst\n## Research Index\nsecond\n";
  const std::vector<ReadOrderItem> order = read_order(global);
  const ReadOrderItem& found = item(order, "Research Index");
  CHECK(content_of(global, found) == "## Research Index\nfirst\n");
  CHECK(found.begin == 0);
}

TEST_CASE("tiers read order: a missing section is not found and has no heading") {
  const std::vector<ReadOrderItem> order = read_order("# G\n## 1. Active Mission\nm\n");
  REQUIRE(order.size() == 4);
  CHECK(item(order, "Active Mission").found());
  for (const std::string_view section : {"Key Constraints", "Research Index", "User Preferences"}) {
    CAPTURE(section);
    CHECK_FALSE(item(order, section).found());
    CHECK_FALSE(item(order, section).heading.has_value());
  }
  for (const ReadOrderItem& i : read_order("")) CHECK_FALSE(i.found());
}

TEST_CASE("tiers read order: only H2 and H3 headings match") {
  const std::vector<ReadOrderItem> order =
      read_order("# Active Mission\n#### Key Constraints\n##### Research Index\n");
  for (const ReadOrderItem& i : order) CHECK_FALSE(i.found());
}

TEST_CASE("tiers read order: a heading inside a code fence is not a heading") {
  const std::string global =
      "# G\n```md\n## Active Mission\n```\n## 1. Active Mission\nreal\n~~~\n## User Preferences\n"
      "~~~\n";
  const std::vector<ReadOrderItem> order = read_order(global);
  const ReadOrderItem& mission = item(order, "Active Mission");
  CHECK(mission.heading == std::optional<std::string>("1. Active Mission"));
  // The fenced "heading" neither matches nor ends the section.
  CHECK(content_of(global, mission) ==
        "## 1. Active Mission\nreal\n~~~\n## User Preferences\n~~~\n");
  CHECK_FALSE(item(order, "User Preferences").found());
}

TEST_CASE("tiers read order: content ends at the next heading of the same or a higher level") {
  const std::string global =
      "## Active Mission\na\n### Key Constraints\nk\n#### detail\nd\n### Other\no\n## Research "
      "Index\nr\n### sub\ns\n# Top\nt\n## User Preferences\nu";
  const std::vector<ReadOrderItem> order = read_order(global);
  CHECK(content_of(global, item(order, "Active Mission")) ==
        "## Active Mission\na\n### Key Constraints\nk\n#### detail\nd\n### Other\no\n");
  CHECK(content_of(global, item(order, "Key Constraints")) ==
        "### Key Constraints\nk\n#### detail\nd\n");
  CHECK(content_of(global, item(order, "Research Index")) == "## Research Index\nr\n### sub\ns\n");
  // The last section runs to the end of the file, final line without LF included.
  CHECK(content_of(global, item(order, "User Preferences")) == "## User Preferences\nu");
}
