// The grammar of spec compaction.md §2.3-§2.5 and §6.1-§6.4, one boundary at a time.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/markdown.hpp"

using memkit::Document;
using memkit::parse_markdown;
using memkit::UnitKind;

namespace {

// "kind first-last" for every unit, so a whole partition reads as one string in a failure.
std::string shape(const Document& doc) {
  std::string out;
  for (const memkit::Unit& u : doc.units()) {
    if (!out.empty()) out += ", ";
    out += std::string(memkit::unit_kind_name(u.kind)) + " " + std::to_string(u.first_line) + "-" +
           std::to_string(u.last_line);
  }
  return out;
}

std::string sections(const Document& doc) {
  std::string out;
  for (const memkit::Section& s : doc.sections()) {
    if (!out.empty()) out += ", ";
    out += s.kind == memkit::SectionKind::preamble ? "preamble " : "section ";
    out += std::to_string(s.first_line) + "-" + std::to_string(s.last_line);
  }
  return out;
}

}  // namespace

TEST_CASE("markdown: the worked example of §20 partitions as the spec lists") {
  const Document doc =
      parse_markdown(std::string("---\ntitle: x\n---\n# Notes\n\n- a\n  ~~~\n  - b\n  "
                                 "~~~\n\n\n<!-- c -->\n## S\ntext\nmore\n\n"
                                 "~~~\ncode\n~~~\n"));
  REQUIRE(doc.parseable());
  CHECK(shape(doc) ==
        "front_matter 1-3, heading 4-4, blank 5-5, bullet_unit 6-9, blank 10-11, comment 12-12, "
        "heading 13-13, text 14-15, blank 16-16, fence 17-19");
  CHECK(sections(doc) == "preamble 1-12, section 13-19");
  CHECK(doc.line_count() == 19);
}

TEST_CASE("markdown: a tight and a loose list, nested lines and thematic breaks") {
  const Document doc = parse_markdown(std::string(
      "# Memory Inbox\n\n- a\n- b\n\n- A\n  nested\n- a\n\n* * *\n- - -\n* * *\n\nText\n"));
  CHECK(shape(doc) ==
        "heading 1-1, blank 2-2, bullet_unit 3-3, bullet_unit 4-4, blank 5-5, bullet_unit 6-7, "
        "bullet_unit 8-8, blank 9-9, text 10-12, blank 13-13, text 14-14");
}

TEST_CASE("markdown: interior blank lines stay in the unit, trailing ones form the gap") {
  const Document doc = parse_markdown(std::string("- x\n\n  y\n\n\nz\n"));
  CHECK(shape(doc) == "bullet_unit 1-3, blank 4-5, text 6-6");
  const Document at_end = parse_markdown(std::string("- x\n  y\n\n\n"));
  CHECK(shape(at_end) == "bullet_unit 1-2, blank 3-4");
}

TEST_CASE("markdown: every line kind closes or continues a unit as §6.1 says") {
  SUBCASE("a column-0 paragraph closes it") {
    CHECK(shape(parse_markdown(std::string("- a\npara\n"))) == "bullet_unit 1-1, text 2-2");
  }
  SUBCASE("an indented line of any depth continues it") {
    CHECK(shape(parse_markdown(std::string("- a\n\tt\n        code\n"))) == "bullet_unit 1-3");
  }
  SUBCASE("a heading closes it") {
    CHECK(shape(parse_markdown(std::string("- a\n### H\n"))) == "bullet_unit 1-1, heading 2-2");
  }
  SUBCASE("a column-0 fence closes it; an indented one belongs to it") {
    CHECK(shape(parse_markdown(std::string("- a\n```\nx\n```\n"))) == "bullet_unit 1-1, fence 2-4");
    CHECK(shape(parse_markdown(std::string("- a\n   ```\nx\n   ```\nb\n"))) ==
          "bullet_unit 1-4, text 5-5");
  }
  SUBCASE("a column-0 line inside a fence that belongs to the unit does not close it") {
    CHECK(shape(parse_markdown(std::string("- a\n  ~~~\n- not a bullet\n~~~\n  tail\n"))) ==
          "bullet_unit 1-5");
  }
  SUBCASE("a bullet line opens the next unit") {
    CHECK(shape(parse_markdown(std::string("- a\n+ b\n* c\n"))) ==
          "bullet_unit 1-1, bullet_unit 2-2, bullet_unit 3-3");
  }
  SUBCASE("ordered items, markers without a space and 7 hashes are text") {
    CHECK(shape(parse_markdown(std::string("1. a\n-b\n#######\n#tag\n"))) == "text 1-4");
  }
  SUBCASE("a bare marker is a bullet unit") {
    CHECK(shape(parse_markdown(std::string("- \n"))) == "bullet_unit 1-1");
    CHECK(shape(parse_markdown(std::string("-\n"))) == "text 1-1");
  }
}

TEST_CASE("markdown: headings are 1 to 6 hashes followed by the end, a space or a tab") {
  const Document doc = parse_markdown(std::string("#\n##\tT\n###### six\n####### seven\n"));
  CHECK(shape(doc) == "heading 1-1, heading 2-2, heading 3-3, text 4-4");
  CHECK(doc.units()[1].heading_level == 2);
  CHECK(doc.units()[2].heading_level == 6);
}

TEST_CASE("markdown: fences need 3 of one character and close at the same length or longer") {
  SUBCASE("a 4-backtick fence does not close on 3") {
    CHECK(shape(parse_markdown(std::string("````\n```\n````\n"))) == "fence 1-3");
  }
  SUBCASE("a tilde fence does not close on backticks") {
    CHECK(shape(parse_markdown(std::string("~~~\n```\n~~~~  \n"))) == "fence 1-3");
  }
  SUBCASE("two characters open nothing") {
    CHECK(shape(parse_markdown(std::string("``\nx\n"))) == "text 1-2");
  }
  SUBCASE("a backtick run followed by another backtick is not an opener") {
    CHECK(shape(parse_markdown(std::string("```a`b\nx\n"))) == "text 1-2");
    CHECK(shape(parse_markdown(std::string("~~~a~b\nx\n~~~\n"))) == "fence 1-3");
  }
  SUBCASE("four spaces of indentation is not an opener; three is") {
    CHECK(shape(parse_markdown(std::string("    ```\nx\n"))) == "text 1-2");
    CHECK(shape(parse_markdown(std::string("   ```\nx\n   ```\n"))) == "fence 1-3");
  }
  SUBCASE("a tab is not indentation for an opener") {
    CHECK(shape(parse_markdown(std::string("\t```\nx\n"))) == "text 1-2");
  }
  SUBCASE("a closer may not carry text after the run") {
    const Document doc = parse_markdown(std::string("```\n``` x\n"));
    REQUIRE_FALSE(doc.parseable());
    CHECK(doc.parse_error()->problem == memkit::TextProblem::unclosed_fence);
    CHECK(doc.parse_error()->line == 1);
  }
  SUBCASE("headings and bullets inside a fence are opaque") {
    CHECK(shape(parse_markdown(std::string("```\n## H\n- b\n```\n## Real\n"))) ==
          "fence 1-4, heading 5-5");
  }
}

TEST_CASE("markdown: an unclosed fence or comment is a parse error at the opener's line") {
  const Document fence = parse_markdown(std::string("# T\n\n- a\n  ```\n  code\n"));
  REQUIRE(fence.parse_error().has_value());
  CHECK(fence.parse_error()->line == 4);
  CHECK(fence.units().empty());
  CHECK(fence.sections().empty());
  CHECK(memkit::describe_issue(*fence.parse_error(), "decisions.md") ==
        "decisions.md:4: unclosed code fence");
  CHECK(memkit::render_markdown(fence) == fence.bytes());

  const Document comment = parse_markdown(std::string("a\n<!-- open\nstill\n"));
  REQUIRE(comment.parse_error().has_value());
  CHECK(comment.parse_error()->problem == memkit::TextProblem::unclosed_comment);
  CHECK(memkit::describe_issue(*comment.parse_error(), "x.md") == "x.md:2: unclosed HTML comment");
}

TEST_CASE("markdown: only a parseable, well-formed file may be changed") {
  CHECK(memkit::check_editable(parse_markdown(std::string("- a\n")), "inbox.md").ok());
  const memkit::Status fence =
      memkit::check_editable(parse_markdown(std::string("a\n~~~\n")), "x.md");
  CHECK(fence.code() == memkit::Errc::parse);
  CHECK(fence.message() == "x.md:2: unclosed code fence");
  const memkit::Status utf8 = memkit::check_editable(parse_markdown(std::string("\xFF\n")), "y.md");
  CHECK(utf8.code() == memkit::Errc::invalid_utf8);
  CHECK(utf8.message() == "y.md:1: invalid UTF-8 sequence");
}

TEST_CASE("markdown: a comment ends at the first --> after its opener") {
  CHECK(shape(parse_markdown(std::string("<!-- a -->\n"))) == "comment 1-1");
  CHECK(shape(parse_markdown(std::string("<!-->\nb -->\nc\n"))) == "comment 1-2, text 3-3");
  CHECK(shape(parse_markdown(std::string("  <!--\n- x\n## y\n--> tail\n- z\n"))) ==
        "comment 1-4, bullet_unit 5-5");
  CHECK(shape(parse_markdown(std::string("text <!-- not an opener\n"))) == "text 1-1");
}

TEST_CASE("markdown: front matter needs a closing line") {
  CHECK(shape(parse_markdown(std::string("---  \na: 1\n...\n- b\n"))) ==
        "front_matter 1-3, bullet_unit 4-4");
  SUBCASE("without one, line 1 is a thematic break") {
    CHECK(shape(parse_markdown(std::string("---\n- b\n"))) == "text 1-1, bullet_unit 2-2");
  }
  SUBCASE("only line 1 can open it") {
    CHECK(shape(parse_markdown(std::string("\n---\na\n---\n"))) == "blank 1-1, text 2-4");
  }
  SUBCASE("a bullet inside front matter is no unit") {
    CHECK(shape(parse_markdown(std::string("---\n- a\n---\n"))) == "front_matter 1-3");
  }
}

TEST_CASE("markdown: bullets inside formal entry sections are text") {
  const Document doc = parse_markdown(std::string(
      "## mc-dec-001 Use Postgres\n- Decision: yes\n\n## Plain\n- b\n## MC-TOMBSTONE x\n- c\n"));
  CHECK(shape(doc) ==
        "heading 1-1, text 2-2, blank 3-3, heading 4-4, bullet_unit 5-5, heading 6-6, "
        "bullet_unit 7-7");
  CHECK(sections(doc) == "section 1-2, section 4-5, section 6-7");
}

TEST_CASE("markdown: sections exclude trailing blank lines, the preamble keeps them") {
  const Document doc = parse_markdown(std::string("# D\n\n## c\nz\n\n## b\ny\n\n\n"));
  CHECK(sections(doc) == "preamble 1-2, section 3-4, section 6-7");
  CHECK(memkit::section_heading(doc, doc.sections()[1]) == "c");
  CHECK_FALSE(memkit::section_heading(doc, doc.sections()[0]).has_value());
  CHECK(doc.text(doc.sections()[2]) == "## b\ny\n");
  SUBCASE("no preamble when line 1 is an H2") {
    CHECK(sections(parse_markdown(std::string("## a\n"))) == "section 1-1");
  }
  SUBCASE("the whole file is the preamble without an H2") {
    CHECK(sections(parse_markdown(std::string("# a\n### b\n"))) == "preamble 1-2");
  }
  SUBCASE("an H1 after the first H2 is flagged") {
    CHECK(parse_markdown(std::string("# a\n## b\n# c\n")).h1_after_h2());
    CHECK_FALSE(parse_markdown(std::string("# a\n## b\n### c\n")).h1_after_h2());
  }
}

TEST_CASE("markdown: CRLF, a BOM and a missing final newline are kept and counted") {
  const std::string bytes = "\xEF\xBB\xBF- a\r\n\r\n## H\r\nlast";
  const Document doc = parse_markdown(bytes);
  CHECK(doc.has_bom());
  CHECK(doc.line_count() == 4);
  CHECK(shape(doc) == "bullet_unit 1-1, blank 2-2, heading 3-3, text 4-4");
  CHECK(doc.units()[0].begin == 3);
  CHECK(doc.text(doc.units()[0]) == "- a\r\n");
  CHECK(memkit::render_markdown(doc) == bytes);

  memkit::Line line{};
  memkit::LineCursor cursor = doc.lines();
  REQUIRE(cursor.next(line));
  CHECK(line.content == "- a");
  CHECK(line.terminator == "\r\n");
  REQUIRE(cursor.next(line));
  REQUIRE(cursor.next(line));
  REQUIRE(cursor.next(line));
  CHECK(line.content == "last");
  CHECK(line.terminator.empty());
  CHECK_FALSE(cursor.next(line));
}

TEST_CASE("markdown: a lone CR, form feed and U+2028 are content, not line breaks") {
  const Document doc = parse_markdown(std::string("- a\rb\f\xE2\x80\xA8 c\n"));
  CHECK(doc.line_count() == 1);
  CHECK(shape(doc) == "bullet_unit 1-1");
}

TEST_CASE("markdown: empty files and BOM-only files have no lines") {
  CHECK(parse_markdown(std::string()).line_count() == 0);
  CHECK(parse_markdown(std::string()).units().empty());
  const Document bom = parse_markdown(std::string("\xEF\xBB\xBF"));
  CHECK(bom.line_count() == 0);
  CHECK(bom.units().empty());
  CHECK(bom.sections().empty());
  CHECK(memkit::render_markdown(bom) == "\xEF\xBB\xBF");
}

TEST_CASE("markdown: invalid UTF-8 is reported at its line and the structure still parses") {
  const Document doc = parse_markdown(std::string("# T\n\n- ok\n- bad \xC3\x28\n- \xFF\n"));
  REQUIRE(doc.utf8_error().has_value());
  CHECK(doc.utf8_error()->line == 4);
  CHECK(doc.parseable());
  CHECK(shape(doc) == "heading 1-1, blank 2-2, bullet_unit 3-3, bullet_unit 4-4, bullet_unit 5-5");
  CHECK(memkit::describe_issue(*doc.utf8_error(), "inbox.md") ==
        "inbox.md:4: invalid UTF-8 sequence");
}

TEST_CASE("markdown: visible lines skip opaque lines but keep openers") {
  const Document doc = parse_markdown(std::string(
      "## E\nDecision: x\n- b\n  ```\n  Decision:\n  ```\n<!--\nDecision:\n-->\nend\n"));
  REQUIRE(doc.sections().size() == 1);
  std::vector<std::uint32_t> seen;
  memkit::for_each_visible_line(doc, doc.sections()[0],
                                [&](const memkit::Line& line) { seen.push_back(line.number); });
  CHECK(seen == std::vector<std::uint32_t>{1, 2, 3, 4, 7, 10});
}
