// What the read commands select (spec tiers3.md §8 read-logs, read-theme, session-init,
// list-themes; §11 archive candidates), note previews, and session-init's context under
// --max-tokens.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "memkit/tiers.hpp"
#include "memkit/tokens.hpp"
#include "tiers_support.hpp"

using namespace memkit;
using namespace memkit::tiers;
using tiers_test::at;
using tiers_test::snapshot;

namespace {

TiersTree logs_tree(std::vector<std::string> files) {
  TiersTree tree;
  tree.memory_exists = true;
  tree.session_files = std::move(files);
  return tree;
}

std::vector<std::string> dates_of(const std::vector<LogFile>& logs) {
  std::vector<std::string> dates;
  for (const LogFile& log : logs) dates.push_back(log.date);
  return dates;
}

std::vector<std::string> paths_of(const std::vector<NoteFile>& notes) {
  std::vector<std::string> paths;
  for (const NoteFile& note : notes) paths.push_back(note.path);
  return paths;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("tiers read-logs: a file exactly days_back days old is in at midnight, out after it") {
  const TiersTree tree = logs_tree({"2026-02-27.md", "2026-02-28.md", "2026-03-01.md"});
  CHECK(dates_of(select_logs(tree, at("2026-03-07T00:00:00+00:00"), 7, 20)) ==
        Strings{"2026-03-01", "2026-02-28"});
  CHECK(dates_of(select_logs(tree, at("2026-03-07T00:00:00.001+00:00"), 7, 20)) ==
        Strings{"2026-03-01"});
  CHECK(dates_of(select_logs(tree, at("2026-03-07T23:59:59+00:00"), 7, 20)) ==
        Strings{"2026-03-01"});
  CHECK(dates_of(select_logs(tree, at("2026-03-07T14:05:09+00:00"), 8, 20)) ==
        Strings{"2026-03-01", "2026-02-28"});
}

TEST_CASE("tiers read-logs: the window is in local wall time") {
  const TiersTree tree = logs_tree({"2026-02-27.md", "2026-02-28.md"});
  // 23:30 local on 03-06 is 00:30 UTC on 03-07: locally 02-28 is still inside the window.
  CHECK(dates_of(select_logs(tree, at("2026-03-06T23:30:00-01:00"), 7, 20)) ==
        Strings{"2026-02-28"});
  // Local midnight east of UTC.
  CHECK(dates_of(select_logs(tree, at("2026-03-07T00:00:00+05:00"), 7, 20)) ==
        Strings{"2026-02-28"});
}

TEST_CASE("tiers read-logs: names that are no valid date are skipped, newest first, limit") {
  const TiersTree tree =
      logs_tree({"2026-02-30.md", "2026-03-01.md", "2026-03-02.md", "2026-03-03.md", "2026-3-04.md",
                 "2026-03-06.txt", "2026-03-06a.md", "notes.md", "x2026-03-06.md"});
  const std::vector<LogFile> all = select_logs(tree, at("2026-03-07T12:00:00+00:00"), 30, 20);
  CHECK(dates_of(all) == Strings{"2026-03-03", "2026-03-02", "2026-03-01"});
  REQUIRE(all.size() == 3);
  CHECK(all[0].path == "memory/sessions/2026-03-03.md");
  CHECK(dates_of(select_logs(tree, at("2026-03-07T12:00:00+00:00"), 30, 2)) ==
        Strings{"2026-03-03", "2026-03-02"});
  CHECK(select_logs(tree, at("2026-03-07T12:00:00+00:00"), 30, 0).empty());
  CHECK(select_logs(logs_tree({}), at("2026-03-07T12:00:00+00:00"), 7, 20).empty());
}

TEST_CASE("tiers read-logs: days_back 0 keeps today's file and a future one") {
  const TiersTree tree = logs_tree({"2026-03-06.md", "2026-03-07.md", "2026-03-09.md"});
  CHECK(dates_of(select_logs(tree, at("2026-03-07T00:00:00+00:00"), 0, 20)) ==
        Strings{"2026-03-09", "2026-03-07"});
  // Past midnight today's file is older than now - 0 h.
  CHECK(dates_of(select_logs(tree, at("2026-03-07T09:00:00+00:00"), 0, 20)) ==
        Strings{"2026-03-09"});
  // A huge window reaches every file without overflowing.
  CHECK(select_logs(tree, at("2026-03-07T09:00:00+00:00"), UINT64_MAX, 20).size() == 3);
}

TEST_CASE("tiers read-theme: the notes whose hour is within hours_back, newest first") {
  TiersTree tree;
  tree.theme_folders["decision"] = {"2026-03-06_14.md", "2026-03-06_15.md", "2026-03-07_09.md",
                                    "2026-03-07_14.md"};
  const std::vector<NoteFile> notes =
      select_notes(tree, "decision", at("2026-03-07T14:05:09+00:00"), 24, 20);
  // 2026-03-06 14:00 is before now - 24 h (14:05:09).
  CHECK(paths_of(notes) == Strings{"memory/decision/2026-03-07_14.md",
                                   "memory/decision/2026-03-07_09.md",
                                   "memory/decision/2026-03-06_15.md"});
  REQUIRE(notes.size() == 3);
  CHECK(notes[0].theme == "decision");
  CHECK(notes[0].timestamp == "2026-03-07T14:00:00");
  CHECK(notes[2].timestamp == "2026-03-06T15:00:00");
  CHECK(notes[2].hour_millis == naive_millis(CivilDate{2026, 3, 6}, 15));
  // At exactly 14:00:00 the note of the same hour a day earlier is on the bound, so included.
  CHECK(select_notes(tree, "decision", at("2026-03-07T14:00:00+00:00"), 24, 20).size() == 4);
  CHECK(paths_of(select_notes(tree, "decision", at("2026-03-07T14:05:09+00:00"), 24, 1)) ==
        Strings{"memory/decision/2026-03-07_14.md"});
  // A window of 0 hours keeps no note of an earlier hour.
  CHECK(select_notes(tree, "decision", at("2026-03-07T14:05:09+00:00"), 0, 20).empty());
  CHECK(select_notes(tree, "decision", at("2026-03-07T14:00:00+00:00"), 0, 20).size() == 1);
}

TEST_CASE("tiers read-theme: a missing theme folder gives nothing, bad names are skipped") {
  TiersTree tree;
  tree.theme_folders["t"] = {"2026-03-07_24.md", "2026-03-07-10.md", "2026-02-30_10.md",
                             "2026-03-07_1.md",  "notes.md",         "2026-03-07_10.md",
                             "2026-03-07_10.txt"};
  CHECK(paths_of(select_notes(tree, "t", at("2026-03-07T14:00:00+00:00"), 24, 20)) ==
        Strings{"memory/t/2026-03-07_10.md"});
  CHECK(select_notes(tree, "missing", at("2026-03-07T14:00:00+00:00"), 24, 20).empty());
}

TEST_CASE("tiers read-theme: the hour window is in local wall time") {
  TiersTree tree;
  tree.theme_folders["t"] = {"2026-03-07_09.md", "2026-03-07_10.md"};
  // 11:30 local (+02:00) is 09:30 UTC; two hours back is 09:30 local, so only the 10:00 note.
  CHECK(paths_of(select_notes(tree, "t", at("2026-03-07T11:30:00+02:00"), 2, 20)) ==
        Strings{"memory/t/2026-03-07_10.md"});
}

TEST_CASE("tiers session-init: recent notes, newest per theme, by time then theme, limited") {
  TiersTree tree;
  tree.theme_folders["beta"] = {"2026-03-07_10.md", "2026-03-07_12.md"};
  tree.theme_folders["alpha"] = {"2026-03-07_12.md"};
  tree.theme_folders["gamma"] = {"2026-03-07_13.md"};
  tree.theme_folders["old"] = {"2026-02-01_10.md"};
  tree.theme_folders["Not A Theme"] = {"2026-03-07_14.md"};
  const ClockReading now = at("2026-03-07T14:05:09+00:00");
  CHECK(paths_of(recent_notes(tree, now, 7 * 24, 8)) == Strings{"memory/gamma/2026-03-07_13.md",
                                                                "memory/alpha/2026-03-07_12.md",
                                                                "memory/beta/2026-03-07_12.md"});
  CHECK(paths_of(recent_notes(tree, now, 7 * 24, 2)) ==
        Strings{"memory/gamma/2026-03-07_13.md", "memory/alpha/2026-03-07_12.md"});
  CHECK(recent_notes(tree, now, 7 * 24, 0).empty());
  // A theme whose newest note is outside the window is left out, not replaced by an older one.
  CHECK(paths_of(recent_notes(tree, now, 2, 8)) == Strings{"memory/gamma/2026-03-07_13.md"});
}

TEST_CASE("tiers archive-themes: candidates are the notes older than now - days x 24 h") {
  TiersTree tree;
  tree.theme_folders["b"] = {"2025-12-07_13.md", "2025-12-07_14.md", "2025-12-07_15.md"};
  tree.theme_folders["a"] = {"2025-01-01_00.md", "2026-03-07_14.md"};
  tree.theme_folders["Bad"] = {"2020-01-01_00.md"};
  // now - 90 days = 2025-12-07 14:05:09.
  const std::vector<NoteFile> old = archive_candidates(tree, at("2026-03-07T14:05:09+00:00"), 90);
  CHECK(paths_of(old) == Strings{"memory/a/2025-01-01_00.md", "memory/b/2025-12-07_13.md",
                                 "memory/b/2025-12-07_14.md"});
  // An hour exactly on the bound is not older.
  CHECK(paths_of(archive_candidates(tree, at("2026-03-07T14:00:00+00:00"), 90)) ==
        Strings{"memory/a/2025-01-01_00.md", "memory/b/2025-12-07_13.md"});
  CHECK(archive_candidates(tree, at("2026-03-07T14:00:00+00:00"), UINT64_MAX).empty());
}

TEST_CASE("tiers list-themes: valid themes sorted, reserved names silent, others reported") {
  TiersTree tree;
  for (const char* name :
       {"zeta", "alpha", "Bad Name", "x.y", "archive", "sessions", "data", ".git", "UPPER", "9x"}) {
    tree.theme_folders[name] = {};
  }
  std::vector<std::string> not_themes;
  CHECK(theme_names(tree, &not_themes) == Strings{"9x", "alpha", "zeta"});
  CHECK(not_themes == Strings{"Bad Name", "UPPER", "x.y"});
  CHECK(theme_names(tree) == Strings{"9x", "alpha", "zeta"});
  CHECK(theme_names(TiersTree{}).empty());
}

TEST_CASE("tiers previews: stripped, CRLF and LF as spaces, a lone CR kept") {
  CHECK(note_preview("  ## Head\r\n\r\nline1\nline2  \n") == "## Head  line1 line2");
  CHECK(note_preview("a\rb") == "a\rb");
  CHECK(note_preview("\n\n") == "");
}

TEST_CASE("tiers previews: cut to 160 code points, never inside a character") {
  CHECK(note_preview(std::string(200, 'x')) == std::string(160, 'x'));
  CHECK(note_preview(std::string(160, 'x')) == std::string(160, 'x'));
  std::string cjk;
  for (int i = 0; i < 200; ++i) cjk += "\xE8\xA8\x98";  // U+8A18
  const std::string preview = note_preview(cjk);
  CHECK(preview.size() == 160 * 3);
  CHECK(preview == cjk.substr(0, 160 * 3));
  // 159 ASCII letters then a 4-byte emoji: the emoji is the 160th code point, kept whole.
  const std::string mixed = std::string(159, 'a') + "\xF0\x9F\x98\x80" + "tail";
  CHECK(note_preview(mixed) == std::string(159, 'a') + "\xF0\x9F\x98\x80");
  // Each line break is one code point of the preview, as its space.
  CHECK(note_preview(std::string(80, 'a') + "\r\n" + std::string(100, 'b')) ==
        std::string(80, 'a') + " " + std::string(79, 'b'));
}

TEST_CASE("tiers previews: first_code_points reads ill-formed bytes as U+FFFD") {
  CHECK(first_code_points("ab\xFF"
                          "cd",
                          4) ==
        "ab\xEF\xBF\xBD"
        "c");
  CHECK(first_code_points("\xC3\xA9\xC3\xA9", 1) == "\xC3\xA9");
  CHECK(first_code_points("abc", 0) == "");
  CHECK(first_code_points("abc", 10) == "abc");
}

// ---- session-init --max-tokens ------------------------------------------------------------------

namespace {

const std::string kGlobal =
    "# Global Memory\n\nRead Order: Active Mission -> Key Constraints\n\n"
    "## 1. Active Mission\nShip v2.\n### Key Constraints (Immutable)\n- never force-push\n"
    "### Next Useful Reads\n- docs/plan.md\n\n## 2. Research Index\n- r1\n\n## 3. Decisions\n"
    "- d1\n\n## 4. User Preferences\n- tabs\n";
const std::string kMission =
    "## 1. Active Mission\nShip v2.\n### Next Useful Reads\n- docs/plan.md";
const std::string kConstraints = "### Key Constraints (Immutable)\n- never force-push";
const std::string kResearch = "## 2. Research Index\n- r1";
const std::string kPreferences = "## 4. User Preferences\n- tabs";
const std::string kTheme = "## Decision Record: x\n\nUse it.";
const std::string kLog =
    "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nhi\n\n---";

const std::vector<NoteFile> kThemes = {
    NoteFile{"decision", "memory/decision/2026-03-07_14.md", "2026-03-07T14:00:00", 0}};
const std::vector<LogFile> kLogs = {LogFile{"2026-03-07", "memory/sessions/2026-03-07.md"}};

Snapshot full_snapshot() {
  return snapshot({{"memory/global.md", kGlobal},
                   {"memory/decision/2026-03-07_14.md", "\n" + kTheme + "\n\n"},
                   {"memory/sessions/2026-03-07.md", kLog}});
}

std::string joined(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& t : texts) out += (out.empty() ? "" : "\n\n") + t;
  return out.empty() ? out : out + "\n";
}

std::vector<std::string> names_of(const std::vector<ContextItem>& items) {
  std::vector<std::string> names;
  for (const ContextItem& i : items) names.push_back(i.kind + ":" + i.name);
  return names;
}

}  // namespace

TEST_CASE("tiers context: items in read order, each line in its innermost section only") {
  const Context context = assemble_context(full_snapshot(), kThemes, kLogs, 100000);
  CHECK(context.text == joined({kMission, kConstraints, kResearch, kPreferences, kTheme, kLog}));
  CHECK(context.tokens_used == estimate_tokens(context.text));
  CHECK(context.dropped.empty());
  CHECK_FALSE(context.over_budget);
  // The Key Constraints lines are not repeated inside Active Mission.
  CHECK(context.text.find("never force-push") == context.text.rfind("never force-push"));
  // Decisions is no read-order section.
  CHECK(context.text.find("d1") == std::string::npos);
}

TEST_CASE("tiers context: the skeleton gives four items, Key Constraints not in Active Mission") {
  const Context context = assemble_context(
      snapshot({{"memory/global.md", std::string(global_skeleton())}}), {}, {}, 1000);
  CHECK(context.text ==
        "## 1. Active Mission\n### Mission Snapshot\n### Next Useful Reads\n\n"
        "### Key Constraints (Immutable)\n\n## 2. Research Index\n\n## 4. User Preferences\n");
}

TEST_CASE("tiers context: the bound is inclusive, items are dropped from the end") {
  const std::string all = joined({kMission, kConstraints, kResearch, kPreferences, kTheme, kLog});
  const std::string no_log = joined({kMission, kConstraints, kResearch, kPreferences, kTheme});
  const std::string no_theme = joined({kMission, kConstraints, kResearch, kPreferences});
  REQUIRE(estimate_tokens(no_log) < estimate_tokens(all));

  const Context fits = assemble_context(full_snapshot(), kThemes, kLogs, estimate_tokens(all));
  CHECK(fits.text == all);
  CHECK(fits.dropped.empty());

  const Context one_less =
      assemble_context(full_snapshot(), kThemes, kLogs, estimate_tokens(all) - 1);
  CHECK(one_less.text == no_log);
  CHECK(one_less.tokens_used == estimate_tokens(no_log));
  REQUIRE(one_less.dropped.size() == 1);
  CHECK(one_less.dropped[0].kind == "log");
  CHECK(one_less.dropped[0].name == "2026-03-07");
  CHECK(one_less.dropped[0].path == "memory/sessions/2026-03-07.md");
  CHECK(one_less.dropped[0].tokens == estimate_tokens(kLog));

  const Context two_less =
      assemble_context(full_snapshot(), kThemes, kLogs, estimate_tokens(no_log) - 1);
  CHECK(two_less.text == no_theme);
  // `dropped` is in read order, not in the order of dropping.
  CHECK(names_of(two_less.dropped) == Strings{"theme:decision", "log:2026-03-07"});
  CHECK(two_less.dropped[0].path == "memory/decision/2026-03-07_14.md");
  CHECK(two_less.dropped[0].tokens == estimate_tokens(kTheme));
  CHECK_FALSE(two_less.over_budget);
}

TEST_CASE("tiers context: Active Mission is never dropped, alone over budget it is kept") {
  const Context zero = assemble_context(full_snapshot(), kThemes, kLogs, 0);
  CHECK(zero.text == kMission + "\n");
  CHECK(zero.tokens_used == estimate_tokens(kMission + "\n"));
  CHECK(zero.over_budget);
  CHECK(names_of(zero.dropped) == Strings{"global:Key Constraints", "global:Research Index",
                                          "global:User Preferences", "theme:decision",
                                          "log:2026-03-07"});
  CHECK(zero.dropped[0].path == "memory/global.md");
  CHECK(zero.dropped[0].tokens == estimate_tokens(kConstraints));

  const Context exact =
      assemble_context(full_snapshot(), kThemes, kLogs, estimate_tokens(kMission + "\n"));
  CHECK(exact.text == kMission + "\n");
  CHECK_FALSE(exact.over_budget);
}

TEST_CASE("tiers context: without Active Mission everything may be dropped, giving \"\"") {
  const Snapshot files = snapshot(
      {{"memory/global.md", "## Research Index\n- r\n"}, {"memory/sessions/2026-03-07.md", "log"}});
  const Context context = assemble_context(files, {}, kLogs, 0);
  CHECK(context.text == "");
  CHECK(context.tokens_used == 0);
  CHECK_FALSE(context.over_budget);
  CHECK(names_of(context.dropped) == Strings{"global:Research Index", "log:2026-03-07"});
}

TEST_CASE("tiers context: nothing to keep gives an empty context") {
  const Context none = assemble_context(snapshot({}), {}, {}, 100);
  CHECK(none.text == "");
  CHECK(none.tokens_used == 0);
  CHECK(none.dropped.empty());
  // Items whose text is empty after strip are left out, not dropped; missing files likewise.
  const Snapshot blank = snapshot({{"memory/global.md", "# G\nno sections\n"},
                                   {"memory/decision/2026-03-07_14.md", " \n\n "},
                                   {"memory/sessions/2026-03-07.md", std::nullopt}});
  const Context empty = assemble_context(blank, kThemes, kLogs, 0);
  CHECK(empty.text == "");
  CHECK(empty.dropped.empty());
  CHECK_FALSE(empty.over_budget);
}

TEST_CASE("tiers context: identical input gives byte-identical output") {
  for (const std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{25}, std::uint64_t{100000}}) {
    CAPTURE(budget);
    const Context a = assemble_context(full_snapshot(), kThemes, kLogs, budget);
    const Context b = assemble_context(full_snapshot(), kThemes, kLogs, budget);
    CHECK(a.text == b.text);
    CHECK(a.tokens_used == b.tokens_used);
    CHECK(names_of(a.dropped) == names_of(b.dropped));
    CHECK(a.over_budget == b.over_budget);
  }
}

TEST_CASE("tiers context: themes and logs in the order given, newest first") {
  const std::vector<NoteFile> themes = {
      NoteFile{"b", "memory/b/2026-03-07_14.md", "2026-03-07T14:00:00", 0},
      NoteFile{"a", "memory/a/2026-03-07_10.md", "2026-03-07T10:00:00", 0}};
  const std::vector<LogFile> logs = {LogFile{"2026-03-07", "memory/sessions/2026-03-07.md"},
                                     LogFile{"2026-03-06", "memory/sessions/2026-03-06.md"}};
  const Snapshot files = snapshot({{"memory/b/2026-03-07_14.md", "B"},
                                   {"memory/a/2026-03-07_10.md", "A"},
                                   {"memory/sessions/2026-03-07.md", "L7"},
                                   {"memory/sessions/2026-03-06.md", "L6"}});
  CHECK(assemble_context(files, themes, logs, 1000).text == "B\n\nA\n\nL7\n\nL6\n");
  // Each text is one token; a budget of 2 keeps the two notes only.
  const Context cut = assemble_context(files, themes, logs, 2);
  CHECK(cut.text == "B\n\nA\n");
  CHECK(names_of(cut.dropped) == Strings{"log:2026-03-07", "log:2026-03-06"});
}
