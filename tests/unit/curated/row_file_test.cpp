// Reading row files (spec curated.md §4): entry boundaries, fields and body, the defaults when
// reading, unknown fields (MK-CUR-030), invalid entries (MK-CUR-004), and the text model of
// compaction.md §2 (CRLF, BOM, opaque regions).
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "curated_support.hpp"
#include "memkit/curated.hpp"

using memkit::Finding;
using memkit::Severity;
using namespace memkit::curated;
using curated_test::entry_named;
using curated_test::kPath;

namespace {

std::string_view slice(std::string_view bytes, std::size_t begin, std::size_t end) {
  return bytes.substr(begin, end - begin);
}

int count_code(const RowFile& file, std::string_view code) {
  int n = 0;
  for (const Finding& f : file.findings) n += f.code == code ? 1 : 0;
  return n;
}

// One invalid entry between two valid ones: the finding, its line, and the neighbours unharmed.
void check_invalid(std::string_view fields_and_body, std::uint32_t line, std::string_view what) {
  CAPTURE(fields_and_body);
  const std::string bytes = "# Curated memory: project\n\n## project_a\nType: project\n\na\n\n" +
                            std::string(fields_and_body) + "\n## project_c\nType: project\n\nc\n";
  const RowFile file = parse_row_file(bytes, kPath);
  REQUIRE(file.entries.size() == 3);
  CHECK(file.entries[0].valid);
  CHECK_FALSE(file.entries[1].valid);
  CHECK(file.entries[2].valid);
  REQUIRE(count_code(file, "MK-CUR-004") >= 1);
  const Finding& f = file.findings.front();
  CHECK(f.code == "MK-CUR-004");
  CHECK(f.severity == Severity::error);
  CHECK_FALSE(f.fatal);
  CHECK(f.path == kPath);
  CHECK(f.message.starts_with(std::string(kPath) + ":" + std::to_string(line) + ": "));
  CHECK(f.message.find(what) != std::string::npos);
}

// A file with every known field, a hand-written entry, a heading that is not an entry, and an
// entry heading hidden in a fence.
constexpr std::string_view kFile =
    "# Curated memory: project\n"                            // 1
    "\n"                                                     // 2
    "Intro text.\n"                                          // 3
    "\n"                                                     // 4
    "## project_a\n"                                         // 5
    "Type: project\n"                                        // 6
    "Class: thread\n"                                        // 7
    "Status: open\n"                                         // 8
    "Initiative: demo\n"                                     // 9
    "Audience: executor\n"                                   // 10
    "Description: First row\n"                               // 11
    "Project-Ref: /srv/repos/demo/.git\n"                    // 12
    "Origin-Session: s1\n"                                   // 13
    "Created: 2026-11-30T09:00:00.000Z\n"                    // 14
    "Updated: 2026-11-30T09:30:00.000Z\n"                    // 15
    "Link: supersedes project_b 2026-11-30T09:10:00.000Z\n"  // 16
    "Link: relates_to project_c 2026-11-30T09:20:00.000Z\n"  // 17
    "\n"                                                     // 18
    "Body line one.\n"                                       // 19
    "\n"                                                     // 20
    "## Symptom\n"                                           // 21
    "Type: crash\n"                                          // 22
    "\n"                                                     // 23
    "\n"                                                     // 24
    "## project_b\n"                                         // 25
    "Type: project\n"                                        // 26
    "Priority: high\n"                                       // 27
    "Deleted: 2026-11-30T10:00:00.000Z\n"                    // 28
    "\n"                                                     // 29
    "```text\n"                                              // 30
    "## project_x\n"                                         // 31
    "Type: project\n"                                        // 32
    "```\n"                                                  // 33
    "\n";                                                    // 34

}  // namespace

TEST_CASE("curated row file: every known field, links sorted by kind then dst") {
  const RowFile file = parse_row_file(kFile, kPath);
  REQUIRE(file.entries.size() == 2);
  CHECK_FALSE(file.crlf);
  const Entry& a = file.entries[0];
  CHECK(a.valid);
  CHECK(a.line == 5);
  CHECK(a.begin == kFile.find("## project_a"));
  const Row& row = a.row;
  CHECK(row.name == "project_a");
  CHECK(row.type == RowType::project);
  CHECK(row.row_class == RowClass::thread);
  CHECK(row.status == RowStatus::open);
  CHECK(row.initiative == "demo");
  CHECK(row.audience == Audience::executor);
  CHECK(row.description == "First row");
  CHECK(row.project_ref == "/srv/repos/demo/.git");
  CHECK(row.origin_session == "s1");
  CHECK(row.created == "2026-11-30T09:00:00.000Z");
  CHECK(row.updated == "2026-11-30T09:30:00.000Z");
  CHECK_FALSE(row.deleted.has_value());
  REQUIRE(row.links.size() == 2);
  CHECK(row.links[0] == Link{.kind = LinkKind::relates_to,
                             .dst = "project_c",
                             .created_at = "2026-11-30T09:20:00.000Z"});
  CHECK(row.links[1] == Link{.kind = LinkKind::supersedes,
                             .dst = "project_b",
                             .created_at = "2026-11-30T09:10:00.000Z"});
  // The field block, line by line, in file order.
  REQUIRE(a.fields.size() == 12);
  CHECK(a.fields[0].field == Field::type);
  CHECK(a.fields[0].line == 6);
  CHECK(slice(kFile, a.fields[0].begin, a.fields[0].end) == "Type: project\n");
  CHECK(a.fields[10].field == Field::link);
  CHECK(slice(kFile, a.fields[10].begin, a.fields[10].end) ==
        "Link: supersedes project_b 2026-11-30T09:10:00.000Z\n");
  CHECK(a.fields[11].line == 17);
}

TEST_CASE("curated row file: a ## heading without a slug and Type: line is body text") {
  const RowFile file = parse_row_file(kFile, kPath);
  const Entry& a = file.entries[0];
  // `## Symptom` is not a slug, so its `Type: ` line does not start an entry; the two blank
  // lines before project_b belong to the gap.
  CHECK(a.row.body == "Body line one.\n\n## Symptom\nType: crash");
  CHECK(slice(kFile, a.body_begin, a.end) == "Body line one.\n\n## Symptom\nType: crash\n");
  CHECK(slice(kFile, a.end, file.entries[1].begin) == "\n\n");
  // The preamble is no entry's.
  CHECK(slice(kFile, 0, a.begin) == "# Curated memory: project\n\nIntro text.\n\n");
}

TEST_CASE("curated row file: an entry heading inside a fence is not an entry") {
  const RowFile file = parse_row_file(kFile, kPath);
  const Entry& b = entry_named(file, "project_b");
  CHECK(b.valid);
  CHECK(b.row.body == "```text\n## project_x\nType: project\n```");
  CHECK(b.end == kFile.size() - 1);  // the last blank line is the gap
  CHECK(b.row.deleted == "2026-11-30T10:00:00.000Z");
}

TEST_CASE("curated row file: without Class: and Audience: a row is a log for any audience") {
  const RowFile file = parse_row_file(kFile, kPath);
  const Row& b = entry_named(file, "project_b").row;
  CHECK(b.row_class == RowClass::log);
  CHECK(b.audience == Audience::any);
  CHECK_FALSE(b.status.has_value());
  CHECK_FALSE(b.created.has_value());
  CHECK(b.links.empty());
}

TEST_CASE("curated row file: an unknown field is kept with MK-CUR-030 at file:line") {
  const RowFile file = parse_row_file(kFile, kPath);
  REQUIRE(file.findings.size() == 1);
  const Finding& f = file.findings[0];
  CHECK(f.code == "MK-CUR-030");
  CHECK(f.severity == Severity::warning);
  CHECK_FALSE(f.fatal);
  CHECK(f.path == kPath);
  CHECK(f.message ==
        "rows/ws1/project.md:27: unknown field Priority in entry project_b, kept as it is");
  const Entry& b = entry_named(file, "project_b");
  CHECK(b.valid);  // an unknown field does not make the entry invalid
  REQUIRE(b.fields.size() == 3);
  CHECK_FALSE(b.fields[1].field.has_value());
  CHECK(b.fields[1].line == 27);
  CHECK(slice(kFile, b.fields[1].begin, b.fields[1].end) == "Priority: high\n");
}

TEST_CASE("curated row file: invalid entries give MK-CUR-004 at the offending line") {
  // The invalid entry's heading is line 8.
  check_invalid("## project_b\nType: project\nnot a field\n\nb\n", 10, "not a \"Key: value\"");
  check_invalid("## project_b\nType: project\n  Class: log\n\nb\n", 10, "not a \"Key: value\"");
  check_invalid("## project_b\nType: project\nClass: log\nClass: log\n\nb\n", 11,
                "duplicated field Class");
  check_invalid("## project_b\nType: project\nType: user\n\nb\n", 10, "duplicated field Type");
  check_invalid("## project_b\nType: project\nLink: relates_to project_a\n\nb\n", 10,
                "malformed Link line");
  check_invalid("## project_b\nType: project\nLink: friend_of project_a T1\n\nb\n", 10,
                "malformed Link line");
  check_invalid("## project_b\nType: project\nLink: relates_to Project-A T1\n\nb\n", 10,
                "malformed Link line");
  check_invalid(
      "## project_b\nType: project\nLink: relates_to project_a T1\n"
      "Link: relates_to project_a T2\n\nb\n",
      11, "duplicated link relates_to project_a");
  check_invalid("## project_b\nType: projects\n\nb\n", 9, "invalid Type \"projects\"");
  check_invalid("## project_b\nType: project\nClass: Thread\n\nb\n", 10, "invalid Class");
  check_invalid("## project_b\nType: project\nClass: thread\nStatus: done\n\nb\n", 11,
                "invalid Status \"done\"");
  check_invalid("## project_b\nType: project\nAudience: everyone\n\nb\n", 10, "invalid Audience");
  check_invalid("## project_b\nType: project\nClass: anchor\nStatus: open\n\nb\n", 11,
                "Status open on a non-thread (class anchor)");
  check_invalid("## project_b\nType: project\nStatus: open\n\nb\n", 10,
                "on a non-thread (class log)");
  check_invalid("## project_b\nType: project\n\n  \t\n", 8, "empty body");
  check_invalid("## project_b\nType: project\nCreated: T\n", 8, "empty body");
}

TEST_CASE("curated row file: an invalid entry keeps what could be read") {
  const RowFile file = parse_row_file(
      "## project_b\nType: project\nClass: thread\nStatus: done\nX-Owner: me\n\nbody\n", kPath);
  REQUIRE(file.entries.size() == 1);
  const Entry& e = file.entries[0];
  CHECK_FALSE(e.valid);
  CHECK(e.row.row_class == RowClass::thread);
  CHECK_FALSE(e.row.status.has_value());
  CHECK(e.row.body == "body");
  CHECK(count_code(file, "MK-CUR-004") == 1);
  CHECK(count_code(file, "MK-CUR-030") == 1);
}

TEST_CASE("curated row file: thread statuses and a thread without one are valid") {
  const RowFile file = parse_row_file(
      "## project_a\nType: project\nClass: thread\nStatus: carry_forward\n\na\n\n"
      "## project_b\nType: project\nClass: thread\n\nb\n",
      kPath);
  REQUIRE(file.entries.size() == 2);
  CHECK(file.entries[0].valid);
  CHECK(file.entries[0].row.status == RowStatus::carry_forward);
  CHECK(file.entries[1].valid);
  CHECK_FALSE(file.entries[1].row.status.has_value());
  CHECK(file.findings.empty());
}

TEST_CASE("curated row file: values are stripped, `Key:` alone is an empty value") {
  const RowFile file = parse_row_file(
      "## atom_a\nType: atom  \nClass:\tanchor\nDescription:\nLink:  relates_to\tatom_b  T1 \n\n"
      "body\n",
      kPath);
  REQUIRE(file.entries.size() == 1);
  const Entry& e = file.entries[0];
  CHECK(e.valid);
  CHECK(e.row.type == RowType::atom);
  CHECK(e.row.row_class == RowClass::anchor);
  CHECK(e.row.description == "");
  REQUIRE(e.row.links.size() == 1);
  CHECK(e.row.links[0] == Link{.kind = LinkKind::relates_to, .dst = "atom_b", .created_at = "T1"});
}

TEST_CASE("curated row file: the entry heading is `## <slug>` directly followed by `Type: `") {
  const std::string bytes =
      "# Curated memory: user\n\n"
      "## User Notes\nType: user\n\nnot an entry\n\n"  // not a slug
      "### user_c\nType: user\n\nnot an entry\n\n"     // an H3
      "## user_d\n\nType: user\n\nnot an entry\n\n"    // a blank line between
      "## user_e\ntype: user\n\nnot an entry\n\n"      // `Type: ` is case-sensitive
      "##user_f\nType: user\n\nnot an entry\n\n"       // not an H2 line
      " ## user_g\nType: user\n\nnot an entry\n\n"     // not column 0
      "<!--\n## user_h\nType: user\n-->\n\n"           // inside a comment
      "##  user_a  \nType: user\n\na\n";               // heading text is stripped
  const RowFile file = parse_row_file(bytes, "rows/ws1/user.md");
  REQUIRE(file.entries.size() == 1);
  CHECK(file.entries[0].row.name == "user_a");
  CHECK(file.entries[0].row.body == "a");
  CHECK(file.findings.empty());
}

TEST_CASE("curated row file: front matter is opaque") {
  const std::string bytes =
      "---\n## project_z\nType: project\n---\n\n## project_a\nType: project\n\na\n";
  const RowFile file = parse_row_file(bytes, kPath);
  REQUIRE(file.entries.size() == 1);
  CHECK(file.entries[0].row.name == "project_a");
  CHECK(file.entries[0].line == 6);
}

TEST_CASE("curated row file: CRLF lines, with LF-joined bodies and values without CR") {
  const std::string bytes =
      "# Curated memory: project\r\n\r\n## project_a\r\nType: project\r\nClass: thread\r\n"
      "Status: open\r\n\r\nline 1\r\n\r\nline 3\r\n\r\n## project_b\r\nType: project\r\n\r\nb\r\n";
  const RowFile file = parse_row_file(bytes, kPath);
  CHECK(file.crlf);
  REQUIRE(file.entries.size() == 2);
  const Entry& a = file.entries[0];
  CHECK(a.valid);
  CHECK(a.row.status == RowStatus::open);
  CHECK(a.row.body == "line 1\n\nline 3");
  CHECK(slice(bytes, a.body_begin, a.end) == "line 1\r\n\r\nline 3\r\n");
  CHECK(file.entries[1].row.body == "b");
  CHECK(file.entries[1].end == bytes.size());
  CHECK(file.findings.empty());
}

TEST_CASE("curated row file: the first terminated line decides the terminator style") {
  CHECK(parse_row_file("# Curated memory: project\r\n\n", kPath).crlf);
  CHECK_FALSE(parse_row_file("# Curated memory: project\n\r\n", kPath).crlf);
  CHECK_FALSE(parse_row_file("", kPath).crlf);
  CHECK_FALSE(parse_row_file("no terminator\r", kPath).crlf);
}

TEST_CASE("curated row file: a BOM is not part of line 1") {
  const std::string bytes = "\xEF\xBB\xBF## project_a\nType: project\n\na";
  const RowFile file = parse_row_file(bytes, kPath);
  REQUIRE(file.entries.size() == 1);
  const Entry& e = file.entries[0];
  CHECK(e.line == 1);
  CHECK(e.begin == 3);
  CHECK(e.fields[0].line == 2);
  // An unterminated last line ends the entry at the end of the file.
  CHECK(e.end == bytes.size());
  CHECK(e.row.body == "a");
}

TEST_CASE("curated row file: a file without entries") {
  CHECK(parse_row_file("", kPath).entries.empty());
  const RowFile header = parse_row_file("# Curated memory: project\n", kPath);
  CHECK(header.entries.empty());
  CHECK(header.findings.empty());
}

TEST_CASE("curated row file: body lines keep leading blank lines and indentation") {
  const std::string bytes = "## project_a\nType: project\n\n\n  indented\n\ttab\n\n\n";
  const RowFile file = parse_row_file(bytes, kPath);
  REQUIRE(file.entries.size() == 1);
  CHECK(file.entries[0].valid);
  CHECK(file.entries[0].row.body == "\n  indented\n\ttab");
  CHECK(file.entries[0].body_begin == bytes.find("\n\n  indented") + 1);
}

TEST_CASE("curated row file: a fence left open at the end is MK-PARSE-001 at its opener") {
  const std::string bytes =
      "# Curated memory: project\n\n## project_a\nType: project\n\nBody.\n\n```text\nopen\n";
  const RowFile file = parse_row_file(bytes, kPath);
  REQUIRE(file.parse_error.has_value());
  CHECK(file.parse_error->code == "MK-PARSE-001");
  CHECK(file.parse_error->message == std::string(kPath) + ":8: unclosed code fence");
  const RowFile comment = parse_row_file("## project_a\nType: project\n\n<!-- open\n", kPath);
  REQUIRE(comment.parse_error.has_value());
  CHECK(comment.parse_error->message.find(":4: ") != std::string::npos);
  CHECK_FALSE(parse_row_file(kFile, kPath).parse_error.has_value());
}

// fuzz/regressions/curated_rows/heading_with_bare_carriage_returns: a bare CR is a character of
// its line (only LF and CRLF end one, compaction.md §2.1) and whitespace around the name (W,
// §2.2), so "## \r\r project_r" heads the entry project_r, its line running to the LF.
TEST_CASE("curated rows: bare carriage returns around an entry's name are whitespace") {
  const std::string bytes =
      "# Curated memory: project\n\n## \r\r\rproject_r\r\nType: project\n\nrec\n";
  const RowFile file = parse_row_file(bytes, kPath);
  REQUIRE(file.entries.size() == 1);
  CHECK(file.entries[0].row.name == "project_r");
  CHECK(file.entries[0].valid);
  CHECK(file.entries[0].begin == bytes.find("## "));
}
