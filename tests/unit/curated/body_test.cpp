// The body and description rules of a write (spec curated.md §4 "Body rules on write", "Body
// ending", "Description", §14 "Body ending"): MK-CUR-005 for an empty body, an open fence or
// comment, or a visible entry heading; trailing blank lines dropped; MK-CUR-006 for a multi-line
// description; MK-ARG-001 for text that is not valid UTF-8 or holds a NUL.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "memkit/curated.hpp"

using namespace memkit;
using namespace memkit::curated;

namespace {

// The body as stored, failing the test when it is refused.
std::string stored(std::string_view body) {
  const CheckedBody checked = check_body(body);
  REQUIRE_MESSAGE(!checked.refused.has_value(), "refused: " << checked.refused->message);
  return checked.body;
}

// The refusal of a body, checked to be a fatal BLOCKER with the given code.
Finding refusal(std::string_view body, std::string_view code) {
  const CheckedBody checked = check_body(body);
  REQUIRE_MESSAGE(checked.refused.has_value(), "accepted: " << body);
  const Finding& f = *checked.refused;
  CHECK(f.code == code);
  CHECK(f.severity == Severity::blocker);
  CHECK(f.fatal);
  CHECK(f.path.empty());
  CHECK(checked.body.empty());
  CHECK_FALSE(f.message.empty());
  CHECK(f.message.back() != '.');
  return f;
}

}  // namespace

TEST_CASE("curated body: §14 a body sent as line⏎⏎⏎ is stored as line") {
  CHECK(stored("line\n\n\n") == "line");
}

TEST_CASE("curated body: trailing blank lines and the final terminator go, nothing else") {
  CHECK(stored("line") == "line");
  CHECK(stored("line\n") == "line");
  CHECK(stored("line\r\n") == "line");
  CHECK(stored("line\r\n\r\n\r\n") == "line");
  // Blank is compaction.md §2.2's: empty, or only spaces and tabs.
  CHECK(stored("line\n  \n\t\n \t") == "line");
  // The last non-blank line keeps its trailing spaces: only whole blank lines are removed.
  CHECK(stored("line  \t\n\n") == "line  \t");
  // A line of other W characters (NBSP, form feed, ideographic space) is not blank: it stays.
  CHECK(stored("line\n\xC2\xA0\n\n") == "line\n\xC2\xA0");
  CHECK(stored("line\n\f\n") == "line\n\f");
  CHECK(stored("line\n\xE3\x80\x80") == "line\n\xE3\x80\x80");
  // Leading content, inner blank lines and the inner terminators are kept as they are.
  CHECK(stored("\n\n  first\n\n\nsecond\r\nthird\n\n") == "\n\n  first\n\n\nsecond\r\nthird");
  CHECK(stored("  indented") == "  indented");
}

TEST_CASE("curated body: an empty body after strip with W is MK-CUR-005") {
  for (std::string_view empty : {"", "\n", "  \t\n\r\n", "\xC2\xA0", "\n\xE3\x80\x80\n", "\f\v\r",
                                 "\xE2\x80\xA8\xE2\x80\xA9"}) {
    CAPTURE(empty);
    const Finding f = refusal(empty, "MK-CUR-005");
    CHECK(f.message == "the body is empty");
  }
  // One visible character is enough.
  CHECK(stored("\n.\n") == "\n.");
}

TEST_CASE("curated body: a fence or comment must close within the body") {
  CHECK(refusal("text\n```\ncode\n", "MK-CUR-005").message == "body:2: unclosed code fence");
  CHECK(refusal("~~~~\ncode\n~~~\n", "MK-CUR-005").message == "body:1: unclosed code fence");
  CHECK(refusal("a\n\nb\n<!-- note\nmore\n", "MK-CUR-005").message ==
        "body:4: unclosed HTML comment");
  // Trailing blank lines do not close anything.
  CHECK(refusal("```\n\n\n", "MK-CUR-005").message == "body:1: unclosed code fence");
  // Closed ones are fine, the closing line may be the last, unterminated.
  CHECK(stored("```sh\nls\n```") == "```sh\nls\n```");
  CHECK(stored("~~~~\n```\n~~~~~\n\n") == "~~~~\n```\n~~~~~");
  CHECK(stored("<!-- one line -->\ntext\n") == "<!-- one line -->\ntext");
  CHECK(stored("<!--\nhidden\n-->\n") == "<!--\nhidden\n-->");
  // Four spaces in front make indented code, not a fence.
  CHECK(stored("    ```\ncode\n") == "    ```\ncode");
}

TEST_CASE("curated body: the body is read where it stands in its file, never as line 1") {
  // At the top of a file, "---" ... "---" would be front matter hiding the fence; in a row
  // file the body follows its field block, where "---" is a thematic break and the fence is open.
  CHECK(refusal("---\n```\n---\n", "MK-CUR-005").message == "body:2: unclosed code fence");
  // A BOM is only a BOM at offset 0 of a file: inside an entry it is content, and no opener.
  CHECK(stored("\xEF\xBB\xBF```\ntext\n") == "\xEF\xBB\xBF```\ntext");
}

TEST_CASE("curated body: a visible '## <slug>' line followed by 'Type: ' is MK-CUR-005") {
  const Finding f = refusal("intro\n## project_x\nType: project\n\nmore\n", "MK-CUR-005");
  CHECK(f.message == "body:2: '## project_x' followed by a 'Type: ' line would start a new entry");
  // Any slug of the general grammar, whatever the type line says, at any line.
  CHECK(refusal("## atom_\nType: user", "MK-CUR-005").message.starts_with("body:1: "));
  CHECK(refusal("## x\nType: nonsense\n", "MK-CUR-005").message.starts_with("body:1: "));
  CHECK(refusal("## x\r\nType: user\r\n", "MK-CUR-005").message.starts_with("body:1: "));
  // Read as a reader would: a tab after "##" and W around the slug still make an H2 line.
  CHECK(refusal("##\tx\nType: user\n", "MK-CUR-005").message.starts_with("body:1: "));
  CHECK(refusal("##  x \nType: user\n", "MK-CUR-005").message.starts_with("body:1: "));
  // After a closed fence, the heading is visible again.
  CHECK(refusal("```\n```\n## x\nType: user\n", "MK-CUR-005").message.starts_with("body:3: "));
}

TEST_CASE("curated body: other '## ' headings and near misses are stored as they are") {
  // A promoted defect's body (§4).
  const std::string defect =
      "## Symptom\nThe build times out.\n\n## Component\nci\n\n## Evidence\nlog line\n\n"
      "## Reproduction\nRun it twice.";
  CHECK(stored(defect + "\n\n") == defect);
  // Not a slug: upper case, a hyphen, too long.
  CHECK(stored("## Symptom\nType: x") == "## Symptom\nType: x");
  CHECK(stored("## a-b\nType: x") == "## a-b\nType: x");
  CHECK(stored("## " + std::string(129, 'a') + "\nType: x") ==
        "## " + std::string(129, 'a') + "\nType: x");
  CHECK(stored("## project_x ##\nType: x") == "## project_x ##\nType: x");
  // Not an H2 line: H3, H1, no space, indented.
  CHECK(stored("### x\nType: x") == "### x\nType: x");
  CHECK(stored("# x\nType: x") == "# x\nType: x");
  CHECK(stored("##x\nType: x") == "##x\nType: x");
  CHECK(stored(" ## x\nType: x") == " ## x\nType: x");
  // Not immediately followed by "Type: ": a blank line between, another key, no space, indent.
  CHECK(stored("## x\n\nType: x") == "## x\n\nType: x");
  CHECK(stored("## x\nClass: log\nType: x") == "## x\nClass: log\nType: x");
  CHECK(stored("## x\nType:x") == "## x\nType:x");
  CHECK(stored("## x\n Type: x") == "## x\n Type: x");
  CHECK(stored("## x\ntype: x") == "## x\ntype: x");
  CHECK(stored("## x\n\n") == "## x");
  // Opaque: inside a fence or a comment.
  CHECK(stored("```\n## x\nType: x\n```") == "```\n## x\nType: x\n```");
  CHECK(stored("<!--\n## x\nType: x\n-->") == "<!--\n## x\nType: x\n-->");
  // "Type: " opaque after a visible heading cannot occur: the heading opens no region.
}

TEST_CASE("curated body: text that is not valid UTF-8 or holds a NUL is MK-ARG-001") {
  CHECK(refusal("ok\n\xFF\n", "MK-ARG-001").message == "body: invalid UTF-8 at byte 3");
  CHECK(refusal(std::string_view("a\0b", 3), "MK-ARG-001").message == "body: a NUL byte at byte 1");
  // Checked before every body rule: an otherwise empty body is still an argument error.
  refusal("\xC0\x80", "MK-ARG-001");
  refusal("```\n\xED\xA0\x80", "MK-ARG-001");
}

TEST_CASE("curated body: a description is one line of valid UTF-8") {
  CHECK_FALSE(check_description("").has_value());
  CHECK_FALSE(check_description("Fix the flaky build on CI runners").has_value());
  // Other W characters are not line breaks here (compaction.md §2.1).
  CHECK_FALSE(check_description("a\tb\fc\xE2\x80\xA8"
                                "d")
                  .has_value());
  for (std::string_view multi : {"a\nb", "a\rb", "a\r\nb", "a\n", "\n"}) {
    CAPTURE(multi);
    const std::optional<Finding> f = check_description(multi);
    REQUIRE(f.has_value());
    CHECK(f->code == "MK-CUR-006");
    CHECK(f->severity == Severity::blocker);
    CHECK(f->fatal);
    CHECK(f->message == "the description holds a line break");
  }
  const std::optional<Finding> bad = check_description("caf\xC3");
  REQUIRE(bad.has_value());
  CHECK(bad->code == "MK-ARG-001");
  CHECK(bad->fatal);
  CHECK(bad->message == "description: invalid UTF-8 at byte 3");
  const std::optional<Finding> nul = check_description(std::string_view("a\0", 2));
  REQUIRE(nul.has_value());
  CHECK(nul->code == "MK-ARG-001");
  CHECK(nul->message == "description: a NUL byte at byte 1");
}
