// §7.2 terminators and §7.3 insertion.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/edit.hpp"

using namespace memkit;

namespace {

std::string apply_one(const Document& doc, const Splice& splice) {
  return apply_splices(doc.bytes(), std::vector<Splice>{splice});
}

std::size_t first_unit_of_kind(const Document& doc, UnitKind kind) {
  for (std::size_t u = 0; u < doc.units().size(); ++u) {
    if (doc.units()[u].kind == kind) return u;
  }
  FAIL("no such unit");
  return 0;
}

const std::vector<std::string> kEntry = {"## 2026-03-07 - T", "Decision: x"};
const std::vector<std::string> kBullet = {"- new"};

}  // namespace

TEST_CASE("edit: new lines take CRLF only when the first terminated line has it") {
  CHECK(new_line_terminator(parse_markdown(std::string("a\r\nb\n"))) == "\r\n");
  CHECK(new_line_terminator(parse_markdown(std::string("a\nb\r\n"))) == "\n");
  CHECK(new_line_terminator(parse_markdown(std::string("\xEF\xBB\xBF\r\n"))) == "\r\n");
  CHECK(new_line_terminator(parse_markdown(std::string("no newline"))) == "\n");
  CHECK(new_line_terminator(parse_markdown(std::string())) == "\n");
}

TEST_CASE("edit: insert-before adds an empty line on each non-blank side") {
  const Document tight = parse_markdown(std::string("# Decisions\n## old\nx\n"));
  CHECK(apply_one(tight, insert_before(tight, 1, kEntry)) ==
        "# Decisions\n\n## 2026-03-07 - T\nDecision: x\n\n## old\nx\n");
  const Document loose = parse_markdown(std::string("# Decisions\n\n## old\nx\n"));
  CHECK(apply_one(loose, insert_before(loose, 2, kEntry)) ==
        "# Decisions\n\n## 2026-03-07 - T\nDecision: x\n\n## old\nx\n");
  const Document first = parse_markdown(std::string("## old\r\nx\r\n"));
  CHECK(apply_one(first, insert_before(first, 0, kEntry)) ==
        "## 2026-03-07 - T\r\nDecision: x\r\n\r\n## old\r\nx\r\n");
}

TEST_CASE("edit: append is tight after a bullet unit and loose after anything else") {
  const Document list = parse_markdown(std::string("# C\n\n- a\n  more\n\n\n"));
  CHECK(apply_one(list, append_block(list, kBullet, true)) == "# C\n\n- a\n  more\n- new\n\n\n");
  CHECK(apply_one(list, append_block(list, kEntry, false)) ==
        "# C\n\n- a\n  more\n\n## 2026-03-07 - T\nDecision: x\n\n\n");
  const Document text = parse_markdown(std::string("# C\nintro"));
  CHECK(apply_one(text, append_block(text, kBullet, true)) == "# C\nintro\n\n- new\n");
  const Document unterminated = parse_markdown(std::string("- a"));
  CHECK(apply_one(unterminated, append_block(unterminated, kBullet, true)) == "- a\n- new\n");
}

TEST_CASE("edit: append into an empty or blank file puts the block first, after the BOM") {
  const Document empty = parse_markdown(std::string());
  CHECK(apply_one(empty, append_block(empty, kBullet, true)) == "- new\n");
  const Document blank = parse_markdown(std::string("\xEF\xBB\xBF\n\n"));
  CHECK(apply_one(blank, append_block(blank, kBullet, true)) == "\xEF\xBB\xBF- new\n\n\n");
}

TEST_CASE("edit: insert-into-section goes before the first bullet, else right after the heading") {
  const Document with_bullets = parse_markdown(std::string("## 2026-03-07\nnote\n- b\n- c\n"));
  CHECK(apply_one(with_bullets, insert_into_section(with_bullets, 0, kBullet)) ==
        "## 2026-03-07\nnote\n- new\n- b\n- c\n");
  const Document bare = parse_markdown(std::string("# L\n\n## 2026-03-07\ntext\n"));
  CHECK(apply_one(bare, insert_into_section(bare, 1, kBullet)) ==
        "# L\n\n## 2026-03-07\n- new\ntext\n");
  const Document unterminated = parse_markdown(std::string("## 2026-03-07"));
  CHECK(apply_one(unterminated, insert_into_section(unterminated, 0, kBullet)) ==
        "## 2026-03-07\n- new\n");
  CHECK(first_unit_of_kind(with_bullets, UnitKind::bullet_unit) == 2);
}
