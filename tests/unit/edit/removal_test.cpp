// §7.1 removal: exactly the removed units' lines, plus the blank gap rule.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/edit.hpp"

using namespace memkit;

namespace {

// Removes the bullet units whose text (first line) is listed, by their order of appearance.
std::string remove_units(const std::string& bytes, const std::vector<std::size_t>& nth_bullets) {
  const Document doc = parse_markdown(bytes);
  std::vector<UnitSpan> spans;
  std::size_t bullet = 0;
  for (std::size_t u = 0; u < doc.units().size(); ++u) {
    if (doc.units()[u].kind != UnitKind::bullet_unit) continue;
    for (std::size_t n : nth_bullets) {
      if (n == bullet) spans.push_back(UnitSpan{u, u});
    }
    ++bullet;
  }
  const std::vector<Splice> splices = removal_splices(doc, spans);
  const std::string out = apply_splices(doc.bytes(), splices);
  CHECK(sha256_of_splices(doc.bytes(), splices) == sha256(out));
  return out;
}

// Removes H2 sections from index `from` (0-based among sections with a heading) to the end.
std::string remove_sections_from(const std::string& bytes, std::size_t from) {
  const Document doc = parse_markdown(bytes);
  std::vector<UnitSpan> spans;
  std::size_t h2 = 0;
  for (const Section& s : doc.sections()) {
    if (s.kind != SectionKind::section) continue;
    if (h2++ >= from) spans.push_back(UnitSpan{s.first_unit, s.first_unit + s.unit_count - 1});
  }
  return apply_splices(doc.bytes(), removal_splices(doc, spans));
}

}  // namespace

TEST_CASE("edit: the §7.1 examples keep the blank line before following text") {
  CHECK(remove_units("- a\n\n- b\n\n- a\n\nText\n", {2}) == "- a\n\n- b\n\nText\n");
  CHECK(remove_units("- a\n- a\n\nText\n", {1}) == "- a\n\nText\n");
}

TEST_CASE("edit: the §20 inbox vector deletes only line 4") {
  CHECK(remove_units("# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n", {1}) ==
        "# Inbox\n\n- Use tabs\n- Keep CRLF\n");
}

TEST_CASE("edit: the §20 loose and tight lists vector keeps A") {
  CHECK(remove_units(
            "# Memory Inbox\n\n- a\n- b\n\n- A\n  nested\n- a\n\n* * *\n- - -\n* * *\n\nText\n",
            {3}) == "# Memory Inbox\n\n- a\n- b\n\n- A\n  nested\n\n* * *\n- - -\n* * *\n\nText\n");
}

TEST_CASE("edit: a run reaching the end of the file takes the blank lines before it") {
  CHECK(remove_sections_from("# D\n\n## c\nz\n\n## b\ny\n\n## a\nx\n", 2) ==
        "# D\n\n## c\nz\n\n## b\ny\n");
  CHECK(remove_sections_from("# D\n\n## c\nz\n\n## b\ny\n\n## a\nx\n", 1) == "# D\n\n## c\nz\n");
  CHECK(remove_units("- a\n\n- b\n\n\n", {1}) == "- a\n");
}

TEST_CASE("edit: spans separated only by blank lines form one run") {
  CHECK(remove_units("- a\n\n- b\n\n- c\n\n- d\nText\n", {1, 2}) == "- a\n\n- d\nText\n");
  CHECK(remove_units("- a\n- b\n\n- c\nText\n", {1, 2}) == "- a\nText\n");
  CHECK(remove_units("- a\n- b\nText\n- c\n", {0, 2}) == "- b\nText\n");
}

TEST_CASE("edit: CRLF, a BOM and an unterminated last line are kept as they are") {
  CHECK(remove_units("\xEF\xBB\xBF- a\r\n- b\r\n- c", {2}) == "\xEF\xBB\xBF- a\r\n- b\r\n");
  CHECK(remove_units("\xEF\xBB\xBF- a\r\n- b\r\n", {0}) == "\xEF\xBB\xBF- b\r\n");
  CHECK(remove_units("\xEF\xBB\xBF- a\n", {0}) == "\xEF\xBB\xBF");
  CHECK(remove_units("x  \n- a\n\tcontinued \n\n  tail\ny\n", {0}) == "x  \ny\n");
}

namespace {

// §7.1 read off the partition's units, as the spec words it: the independent reading the
// line-based removal is checked against.
std::string remove_by_units(const Document& doc, const std::vector<UnitSpan>& spans) {
  const auto units = doc.units();
  auto blank = [&](std::size_t u) { return units[u].kind == UnitKind::blank; };
  std::vector<Splice> splices;
  std::size_t i = 0;
  while (i < spans.size()) {
    const std::size_t first = spans[i].first_unit;
    std::size_t last = spans[i].last_unit;
    for (++i; i < spans.size(); ++i) {
      bool only_blank = true;
      for (std::size_t u = last + 1; u < spans[i].first_unit; ++u) only_blank &= blank(u);
      if (!only_blank) break;
      last = spans[i].last_unit;
    }
    const bool has_before = first > 0 && blank(first - 1);
    const bool has_after = last + 1 < units.size() && blank(last + 1);
    const bool reaches_end = (has_after ? last + 2 : last + 1) >= units.size();
    std::size_t begin = units[first].begin;
    std::size_t end = units[last].end;
    if (reaches_end) {
      if (has_before) begin = units[first - 1].begin;
      if (has_after) end = units[last + 1].end;
    } else if (has_before && has_after) {
      end = units[last + 1].end;
    }
    splices.push_back(Splice{begin, end, {}});
  }
  return apply_splices(doc.bytes(), splices);
}

}  // namespace

TEST_CASE("edit: line-based removal equals the rule read off the units, on generated files") {
  const char* const kLines[] = {"- a",   "- b",  "  more",  "",      "   ",    "\t",
                                "text",  "## H", "```",     "* c",   "<!-- x", "-->",
                                "  - d", "# T",  "    ```", "+ e\t", "---",    "- "};
  std::uint64_t state = 20261130;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  int checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = next() % 5 == 0 ? "\xEF\xBB\xBF" : "";
    const char* terminator = next() % 3 == 0 ? "\r\n" : "\n";
    for (std::size_t n = next() % 14; n > 0; --n) {
      bytes += kLines[next() % (sizeof kLines / sizeof kLines[0])];
      bytes += terminator;
    }
    if (next() % 4 == 0 && !bytes.empty()) bytes.resize(bytes.size() - (terminator[1] ? 2 : 1));
    const Document doc = parse_markdown(bytes);
    if (!doc.parseable()) continue;
    std::vector<UnitSpan> spans;
    for (std::size_t u = 0; u < doc.units().size(); ++u) {
      if (doc.units()[u].kind != UnitKind::blank && next() % 3 == 0) spans.push_back({u, u});
    }
    INFO("input: " << bytes);
    CHECK(apply_splices(doc.bytes(), removal_splices(doc, spans)) == remove_by_units(doc, spans));
    ++checked;
  }
  CHECK(checked > 1500);  // the others left a fence or comment open
}
