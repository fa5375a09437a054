// Archive files of MemoryBox (spec memorybox.md §7 "Archive files", compaction.md §10 step 1):
// names, the preamble, and where moved entries go, byte for byte.
#include <vector>

#include "moves_support.hpp"

using namespace moves_test;

namespace {

// The archive after adding `entries` to `existing` (nullopt: a new file).
std::string archived(const std::optional<std::string>& existing, const std::string& label,
                     ArchiveLayout layout, const std::vector<ArchivedEntry>& entries,
                     std::string_view new_terminator = "\n") {
  if (!existing) {
    return apply_splices("", archive_splices(nullptr, label, layout, entries, new_terminator));
  }
  const Document doc = parse_markdown(*existing);
  return apply_splices(*existing, archive_splices(&doc, label, layout, entries, new_terminator));
}

CivilDate date(const char* iso) { return *parse_iso_date(iso); }

}  // namespace

TEST_CASE("memorybox archive: names are <stem>-YYYY-MM.md, stems lower-case") {
  const CivilDate nov = date("2026-11-30");
  CHECK(archive_path("memory/SESSION_LOG.md", nov) == "memory/ARCHIVES/sessions-2026-11.md");
  CHECK(archive_path("memory/ACTIVE_TASKS.md", nov) == "memory/ARCHIVES/tasks-2026-11.md");
  CHECK(archive_path("memory/daily/2026-09-03.md", date("2026-09-03")) ==
        "memory/ARCHIVES/daily-2026-09.md");
  CHECK(archive_path("memory/MISTAKES.md", nov) == "memory/ARCHIVES/mistakes-2026-11.md");
  CHECK(archive_path("memory/LONG_TERM.md", date("2027-01-02")) ==
        "memory/ARCHIVES/long_term-2027-01.md");
  CHECK(archive_stem("brain/SOUL.md") == "soul");
  CHECK(archive_stem("memory/SELF_REFLECTIONS.md") == "self_reflections");
}

TEST_CASE("memorybox archive: a new file is the preamble, then the entries one empty line apart") {
  const std::vector<ArchivedEntry> entries = {{"- a\n  more\n", {}}, {"- b", {}}};
  // The unterminated last line gets a terminator; nothing else is added or changed.
  CHECK(archived(std::nullopt, "memory/ACTIVE_TASKS.md", ArchiveLayout::appended, entries) ==
        preamble("memory/ACTIVE_TASKS.md") + "- a\n  more\n\n- b\n");
}

TEST_CASE("memorybox archive: a new file takes the source's CRLF, moved bytes keep their own") {
  const std::vector<ArchivedEntry> entries = {{"- a\n", {}}, {"- b", {}}};
  CHECK(archived(std::nullopt, "memory/LONG_TERM.md", ArchiveLayout::appended, entries, "\r\n") ==
        "# Archived Memory: memory/LONG_TERM.md\r\n\r\n"
        "Complete entries moved out of active memory by reviewed compaction.\r\n"
        "Load this file only when explicitly asked; it is not part of normal task context.\r\n"
        "\r\n- a\n\r\n- b\r\n");
}

TEST_CASE("memorybox archive: appended after the last non-blank line, trailing blanks stay last") {
  const std::string existing = preamble("memory/ACTIVE_TASKS.md") + "- old\n\n\n";
  CHECK(archived(existing, "memory/ACTIVE_TASKS.md", ArchiveLayout::appended, {{"- new\n", {}}}) ==
        preamble("memory/ACTIVE_TASKS.md") + "- old\n\n- new\n\n\n");
  // An unterminated last line first gets the archive's terminator.
  CHECK(archived(preamble("memory/X.md") + "- old", "memory/X.md", ArchiveLayout::appended,
                 {{"- new\n", {}}}) == preamble("memory/X.md") + "- old\n\n- new\n");
}

TEST_CASE("memorybox archive: memkit's own preamble is replaced by the canonical one") {
  const std::string existing =
      "# Archived Memory: memory/MISTAKES.md\n\nOlder wording.\n\n## A\nx\n";
  CHECK(archived(existing, "memory/MISTAKES.md", ArchiveLayout::appended, {{"## B\ny\n", {}}}) ==
        preamble("memory/MISTAKES.md") + "## A\nx\n\n## B\ny\n");
}

TEST_CASE("memorybox archive: other text before the first entry stays, after the preamble") {
  CHECK(archived("My notes\n## A\nx\n", "memory/MISTAKES.md", ArchiveLayout::appended,
                 {{"## B\ny\n", {}}}) ==
        preamble("memory/MISTAKES.md") + "My notes\n\n## A\nx\n\n## B\ny\n");
  // A file of text only: all of it is the text before the first entry.
  CHECK(archived("notes", "memory/LONG_TERM.md", ArchiveLayout::appended, {{"- a\n", {}}}) ==
        preamble("memory/LONG_TERM.md") + "notes\n\n- a\n");
  // The header of another source is not memkit's own for this one.
  CHECK(archived("# Archived Memory: memory/OTHER.md\n- a\n", "memory/LONG_TERM.md",
                 ArchiveLayout::appended, {{"- b\n", {}}}) ==
        preamble("memory/LONG_TERM.md") + "# Archived Memory: memory/OTHER.md\n\n- a\n\n- b\n");
}

TEST_CASE("memorybox archive: an empty file or a BOM-only file gets the preamble, a BOM stays") {
  CHECK(archived("", "memory/LONG_TERM.md", ArchiveLayout::appended, {{"- a\n", {}}}) ==
        preamble("memory/LONG_TERM.md") + "- a\n");
  CHECK(archived("\xEF\xBB\xBF" + preamble("memory/LONG_TERM.md") + "- a\n", "memory/LONG_TERM.md",
                 ArchiveLayout::appended, {{"- b\n", {}}}) ==
        "\xEF\xBB\xBF" + preamble("memory/LONG_TERM.md") + "- a\n\n- b\n");
}

TEST_CASE("memorybox archive: sessions go before the first archived session with a later date") {
  const std::string existing =
      preamble("memory/SESSION_LOG.md") + "### 2026-09-01 a\nA\n\n### 2026-09-20 c\nC\n";
  const std::vector<ArchivedEntry> entries = {
      {"### 2026-09-25 d\nD\n", date("2026-09-25")},
      {"### 2026-08-30 z\nZ", date("2026-08-30")},
      {"### 2026-09-10 b\nB\n", date("2026-09-10")},
      {"### 2026-09-01 a2\nA2\n", date("2026-09-01")},  // after the archived one of its date
  };
  CHECK(archived(existing, "memory/SESSION_LOG.md", ArchiveLayout::sessions, entries) ==
        preamble("memory/SESSION_LOG.md") +
            "### 2026-08-30 z\nZ\n\n### 2026-09-01 a\nA\n\n### 2026-09-01 a2\nA2\n\n"
            "### 2026-09-10 b\nB\n\n### 2026-09-20 c\nC\n\n### 2026-09-25 d\nD\n");
}

TEST_CASE("memorybox archive: a session inserted between tight sessions gets empty lines") {
  const std::string existing =
      preamble("memory/SESSION_LOG.md") + "### 2026-09-01 a\nA\n### 2026-09-20 c\nC\n";
  CHECK(archived(existing, "memory/SESSION_LOG.md", ArchiveLayout::sessions,
                 {{"### 2026-09-10 b\nB\n", date("2026-09-10")}}) ==
        preamble("memory/SESSION_LOG.md") +
            "### 2026-09-01 a\nA\n\n### 2026-09-10 b\nB\n\n### 2026-09-20 c\nC\n");
}

TEST_CASE("memorybox archive: a new sessions file holds its sessions in chronological order") {
  CHECK(archived(std::nullopt, "memory/SESSION_LOG.md", ArchiveLayout::sessions,
                 {{"### 2026-09-20 c\nC\n", date("2026-09-20")},
                  {"### 2026-09-01 a\nA\n", date("2026-09-01")}}) ==
        preamble("memory/SESSION_LOG.md") + "### 2026-09-01 a\nA\n\n### 2026-09-20 c\nC\n");
}

TEST_CASE("memorybox archive: days become ## YYYY-MM-DD sections, in date order") {
  const std::string t = "\r\n";
  const std::string existing =
      "# Archived Memory: memory/daily/\r\n\r\n"
      "Complete entries moved out of active memory by reviewed compaction.\r\n"
      "Load this file only when explicitly asked; it is not part of normal task context.\r\n"
      "\r\n## 2026-09-10\r\n\r\nold\r\n";
  const std::vector<ArchivedEntry> entries = {{"Id: x\n\n- did\n", date("2026-09-05")},
                                              {"- late", date("2026-09-20")}};
  // Generated lines follow the archive (CRLF); the days' own bytes keep theirs (LF).
  CHECK(archived(existing, "memory/daily/", ArchiveLayout::daily, entries) ==
        "# Archived Memory: memory/daily/\r\n\r\n"
        "Complete entries moved out of active memory by reviewed compaction.\r\n"
        "Load this file only when explicitly asked; it is not part of normal task context.\r\n"
        "\r\n## 2026-09-05\r\n\r\nId: x\n\n- did\n\r\n## 2026-09-10\r\n\r\nold\r\n"
        "\r\n## 2026-09-20\r\n\r\n- late\r\n");
}

TEST_CASE("memorybox archive: an empty day is its heading alone") {
  CHECK(archived(std::nullopt, "memory/daily/", ArchiveLayout::daily,
                 {{"", date("2026-09-05")}, {"- b\n", date("2026-09-06")}}) ==
        preamble("memory/daily/") + "## 2026-09-05\n\n## 2026-09-06\n\n- b\n");
}
