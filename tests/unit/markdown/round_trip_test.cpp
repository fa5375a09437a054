// Generated adversarial inputs: every byte round-trips and the units partition the file exactly.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>

#include "markdown/line_kinds.hpp"
#include "memkit/markdown.hpp"

namespace {

// Fragments chosen to hit every rule: markers, fences of both characters and lengths, comment
// openers and closers, front matter, headings, formal sections, odd whitespace, invalid bytes.
constexpr std::array<const char*, 40> kFragments = {
    "- a",         "* b",          "+ c",           "-",         "- ",
    "  nested",    "\tindented",   "    code",      "```",       "````",
    "~~~",         "  ```",        "   ~~~~",       "```x`y",    "<!--",
    "<!-- x -->",  "-->",          "  <!-- a",      "---",       "...",
    "# T",         "## S",         "## MC-DEC-1 x", "### sub",   "####### no",
    "* * *",       "- - -",        "___",           "text",      "",
    " ",           "\t",           "\xEF\xBB\xBF",  "\xC3\x28",  "\xFF",
    "caf\xC3\xA9", "\xE8\xA8\x98", "a\rb",          "Decision:", "1. item"};

std::string generate(std::mt19937& rng) {
  std::string out;
  if (rng() % 8 == 0) out += "\xEF\xBB\xBF";
  const auto lines = static_cast<std::uint32_t>(rng() % 24);
  for (std::uint32_t i = 0; i < lines; ++i) {
    out += kFragments[rng() % kFragments.size()];
    if (rng() % 3 == 0) out += kFragments[rng() % kFragments.size()];
    const auto end = static_cast<std::uint32_t>(rng() % 10);
    if (i + 1 == lines && end == 0) break;  // an unterminated last line
    out += end == 1 ? "\r\n" : "\n";
  }
  return out;
}

void check_partition(const memkit::Document& doc) {
  std::size_t expected_begin = doc.content_begin();
  std::uint32_t expected_line = 1;
  for (const memkit::Unit& unit : doc.units()) {
    REQUIRE(unit.begin == expected_begin);
    REQUIRE(unit.first_line == expected_line);
    REQUIRE(unit.last_line >= unit.first_line);
    std::uint32_t count = 0;
    memkit::LineCursor cursor = doc.lines(unit);
    memkit::Line line{};
    while (cursor.next(line)) {
      ++count;
      if (unit.kind == memkit::UnitKind::blank) CHECK(memkit::detail::is_blank(line.content));
    }
    CHECK(count == unit.last_line - unit.first_line + 1);
    if (unit.kind == memkit::UnitKind::heading) CHECK(unit.first_line == unit.last_line);
    expected_begin = unit.end;
    expected_line = unit.last_line + 1;
  }
  CHECK(expected_begin == doc.bytes().size());
  CHECK(expected_line == doc.line_count() + 1);
  for (const memkit::Section& section : doc.sections()) {
    CHECK(section.first_line >= 1);
    CHECK(section.last_line <= doc.line_count());
    CHECK(doc.units()[section.first_unit].first_line == section.first_line);
    CHECK(doc.units()[section.first_unit + section.unit_count - 1].last_line == section.last_line);
  }
}

}  // namespace

TEST_CASE("markdown: 20000 generated inputs round-trip byte for byte and partition exactly") {
  std::mt19937 rng(20261130);
  int unparseable = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string bytes = generate(rng);
    CAPTURE(bytes);
    const memkit::Document doc = memkit::parse_markdown(bytes);
    REQUIRE(memkit::render_markdown(doc) == bytes);
    if (!doc.parseable()) {
      ++unparseable;
      CHECK(doc.parse_error()->line >= 1);
      CHECK(doc.parse_error()->line <= doc.line_count());
      continue;
    }
    check_partition(doc);
  }
  // The fragments open fences and comments often enough that both outcomes are exercised.
  CHECK(unparseable > 1000);
  CHECK(unparseable < 19000);
}
