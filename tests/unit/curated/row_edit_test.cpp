// Writing row files (spec curated.md §4 "Order" and "Editing", compaction.md §7): new entries and
// new files byte for byte, in-place edits of the field block, sorted insertion and removal with
// the blank gap. The property that matters most: an edit touches only the entry's changed lines,
// and reading the result back gives exactly the Row that was written.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curated/write_plan.hpp"
#include "curated_support.hpp"
#include "memkit/curated.hpp"
#include "memkit/edit.hpp"

using memkit::apply_splices;
using memkit::Splice;
using namespace memkit::curated;
using curated_test::entry_named;
using curated_test::kPath;

namespace {

std::vector<std::string> names_of(const RowFile& file) {
  std::vector<std::string> names;
  for (const Entry& entry : file.entries) names.push_back(entry.row.name);
  return names;
}

Row row_named(std::string name, std::string body) {
  Row row;
  row.name = std::move(name);
  row.created = "2026-11-30T09:00:00.000Z";
  row.updated = "2026-11-30T09:00:00.000Z";
  row.body = std::move(body);
  return row;
}

// Edits `name` in `bytes` to `row` and returns the new bytes, after checking the §4 contract:
// the result reads back as exactly `row`, every byte outside the entry is unchanged, the other
// entries and the findings are the same, and editing again to the same row changes nothing.
std::string edited(std::string_view bytes, std::string_view name, const Row& row) {
  const RowFile file = parse_row_file(bytes, kPath);
  const Entry& entry = entry_named(file, name);
  REQUIRE(entry.valid);
  const std::vector<Splice> splices = edit_entry(bytes, file, entry, row);
  const std::string after = apply_splices(bytes, splices);
  const RowFile again = parse_row_file(after, kPath);
  const Entry& edited_entry = entry_named(again, name);
  CHECK(edited_entry.valid);
  CHECK(edited_entry.row == row);
  CHECK(edited_entry.begin == entry.begin);
  const std::size_t tail = bytes.size() - entry.end;
  CHECK(edited_entry.end == after.size() - tail);
  CHECK(after.substr(0, entry.begin) == bytes.substr(0, entry.begin));
  CHECK(after.substr(after.size() - tail) == bytes.substr(entry.end));
  CHECK(again.entries.size() == file.entries.size());
  CHECK(again.findings.size() == file.findings.size());
  CHECK(again.crlf == file.crlf);
  CHECK(edit_entry(after, again, edited_entry, row).empty());
  return after;
}

// Returns true iff every LF in `bytes` is preceded by CR.
bool all_crlf(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n' && (i == 0 || bytes[i - 1] != '\r')) return false;
  }
  return true;
}

std::string crlf_of(std::string_view lf) {
  std::string out;
  for (char c : lf) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::string inserted(std::string_view bytes, const Row& row) {
  const RowFile file = parse_row_file(bytes, kPath);
  return apply_splices(bytes, insert_entry(bytes, file, row));
}

std::string removed(std::string_view bytes, std::string_view name) {
  const RowFile file = parse_row_file(bytes, kPath);
  return apply_splices(bytes, remove_entry(bytes, entry_named(file, name)));
}

constexpr std::string_view kT1 = "2026-11-30T09:00:00.000Z";
constexpr std::string_view kT2 = "2026-11-30T10:00:00.000Z";

// A small deterministic generator (64-bit LCG) for the edit property.
class Lcg final {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  std::uint32_t below(std::uint32_t n) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state_ >> 33) % n;
  }
  bool coin() { return below(2) == 1; }

 private:
  std::uint64_t state_;
};

std::optional<std::string> maybe(Lcg& rng, std::vector<std::string> values) {
  const std::uint32_t i = rng.below(static_cast<std::uint32_t>(values.size()) + 1);
  if (i == values.size()) return std::nullopt;
  return values[i];
}

Row mutated(Row row, Lcg& rng) {
  if (rng.coin()) row.row_class = static_cast<RowClass>(rng.below(3));
  row.status.reset();
  if (row.row_class == RowClass::thread && rng.below(4) != 0) {
    row.status = static_cast<RowStatus>(rng.below(4));
  }
  if (rng.coin()) row.audience = static_cast<Audience>(rng.below(3));
  if (rng.coin()) row.initiative = maybe(rng, {"demo", "gaia_system_v2"});
  if (rng.coin()) row.description = maybe(rng, {"One line", "Another line", ""});
  if (rng.coin()) row.project_ref = maybe(rng, {"/srv/repos/demo/.git", "ref-2"});
  if (rng.coin()) row.origin_session = maybe(rng, {"s1", "s2"});
  if (rng.coin()) row.created = maybe(rng, {std::string(kT1)});
  if (rng.coin()) row.updated = maybe(rng, {std::string(kT1), std::string(kT2)});
  if (rng.coin()) row.deleted = maybe(rng, {std::string(kT2)});
  if (rng.coin()) {
    row.links.clear();
    const char* dsts[] = {"project_b", "project_c", "project_d"};
    for (std::uint32_t kind = 0; kind < 4; ++kind) {
      for (const char* dst : dsts) {
        if (rng.below(4) != 0) continue;
        row.links.push_back(Link{.kind = static_cast<LinkKind>(kind),
                                 .dst = dst,
                                 .created_at = std::string(rng.coin() ? kT1 : kT2)});
      }
    }
    std::sort(row.links.begin(), row.links.end(), [](const Link& a, const Link& b) {
      return std::pair(name_of(a.kind), a.dst) < std::pair(name_of(b.kind), b.dst);
    });
  }
  if (rng.below(3) == 0) {
    const char* bodies[] = {"new body", "line 1\n\nline 3", "## Symptom\nType: crash\n\n  code",
                            "```\n## project_z\nType: project\n```"};
    row.body = bodies[rng.below(4)];
  }
  return row;
}

// A hand-written entry between two others: no Class or Audience, unknown lines among the fields,
// links out of order, untidy spacing, and an unterminated last line.
constexpr std::string_view kHandWritten =
    "# Curated memory: project\n"
    "\n"
    "Notes kept by hand.\n"
    "\n"
    "## project_a\n"
    "Type: project\n"
    "\n"
    "a\n"
    "\n"
    "## project_m\n"
    "Type: project\n"
    "X-Owner: alice\n"
    "Initiative:  demo \n"
    "Updated: 2026-11-30T08:00:00.000Z\n"
    "Link: supersedes project_c 2026-11-30T08:00:00.000Z\n"
    "Note: keep me\n"
    "Link: relates_to project_b 2026-11-30T08:00:00.000Z\n"
    "\n"
    "Body of m.\n"
    "\n"
    "\n"
    "## project_z\n"
    "Type: project\n"
    "Class: anchor\n"
    "\n"
    "z";

}  // namespace

TEST_CASE("curated render: the header and a new entry, byte for byte") {
  CHECK(row_file_header(RowType::decision) == "# Curated memory: decision\n");
  CHECK(row_file_header(RowType::decision, true) == "# Curated memory: decision\r\n");
  Row row = row_named("project_a", "Line one.\n\nLine three.");
  row.row_class = RowClass::thread;
  row.status = RowStatus::carry_forward;
  row.initiative = "demo";
  row.audience = Audience::executor;
  row.description = "A thread";
  row.project_ref = "/srv/repos/demo";
  row.origin_session = "s1";
  row.deleted = std::string(kT2);
  row.links = {Link{.kind = LinkKind::supersedes, .dst = "project_b", .created_at = "T3"},
               Link{.kind = LinkKind::derived_from, .dst = "project_c", .created_at = "T4"},
               Link{.kind = LinkKind::derived_from, .dst = "project_b", .created_at = "T5"}};
  const std::string expected =
      "## project_a\n"
      "Type: project\n"
      "Class: thread\n"
      "Status: carry_forward\n"
      "Initiative: demo\n"
      "Audience: executor\n"
      "Description: A thread\n"
      "Project-Ref: /srv/repos/demo\n"
      "Origin-Session: s1\n"
      "Created: 2026-11-30T09:00:00.000Z\n"
      "Updated: 2026-11-30T09:00:00.000Z\n"
      "Deleted: 2026-11-30T10:00:00.000Z\n"
      "Link: derived_from project_b T5\n"
      "Link: derived_from project_c T4\n"
      "Link: supersedes project_b T3\n"
      "\n"
      "Line one.\n"
      "\n"
      "Line three.\n";
  CHECK(render_entry(row) == expected);
  CHECK(render_entry(row, true) == crlf_of(expected));
}

TEST_CASE("curated render: a minimal row writes Class and Audience, and nothing unset") {
  Row row;
  row.name = "atom_x";
  row.type = RowType::atom;
  row.body = "b";
  CHECK(render_entry(row) == "## atom_x\nType: atom\nClass: log\nAudience: any\n\nb\n");
  row.description = "";
  CHECK(render_entry(row) ==
        "## atom_x\nType: atom\nClass: log\nAudience: any\nDescription:\n\nb\n");
}

TEST_CASE("curated render: a rendered entry reads back as its row") {
  Lcg rng(7);
  for (int i = 0; i < 200; ++i) {
    const Row row = mutated(row_named("project_a", "body"), rng);
    const std::string bytes = render_entry(row, i % 2 == 1);
    const RowFile file = parse_row_file(bytes, kPath);
    REQUIRE(file.entries.size() == 1);
    CHECK(file.entries[0].valid);
    CHECK(file.entries[0].row == row);
    CHECK(file.findings.empty());
  }
}

TEST_CASE("curated insert: a new file is the header, an empty line and the entry") {
  Row row = row_named("project_a", "line");
  CHECK(inserted("", row) ==
        "# Curated memory: project\n\n## project_a\nType: project\nClass: log\nAudience: any\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\nline\n");
  row.type = RowType::user;
  row.name = "user_a";
  CHECK(inserted("", row).starts_with("# Curated memory: user\n\n## user_a\nType: user\n"));
}

TEST_CASE("curated insert: entries stay sorted by name, one empty line apart") {
  const std::string base =
      "# Curated memory: project\n\n## project_b\nType: project\n\nb\n\n## project_d\n"
      "Type: project\n\nd\n";
  const auto entry = [](std::string_view name) {
    return "## " + std::string(name) + "\nType: project\nClass: log\nAudience: any\n\n" +
           std::string(name) + "\n";
  };
  const auto row = [](std::string_view name) {
    Row r;
    r.name = std::string(name);
    r.body = std::string(name);
    return r;
  };
  const std::string b = "## project_b\nType: project\n\nb\n";
  const std::string d = "## project_d\nType: project\n\nd\n";
  const std::string head = "# Curated memory: project\n\n";
  CHECK(inserted(base, row("project_a")) == head + entry("project_a") + "\n" + b + "\n" + d);
  CHECK(inserted(base, row("project_c")) == head + b + "\n" + entry("project_c") + "\n" + d);
  CHECK(inserted(base, row("project_e")) == head + b + "\n" + d + "\n" + entry("project_e"));
  // Byte order: '_' (0x5F) sorts before 'a'.
  CHECK(names_of(parse_row_file(inserted(base, row("project_b_x")), kPath)) ==
        std::vector<std::string>{"project_b", "project_b_x", "project_d"});
}

TEST_CASE("curated insert: the neighbours' gaps and the file's end") {
  const auto row = [](std::string_view name) {
    Row r;
    r.name = std::string(name);
    r.body = "x";
    return r;
  };
  const std::string x = "Type: project\nClass: log\nAudience: any\n\nx\n";
  // Entries with no gap between them get an empty line on each side of the new one.
  CHECK(inserted("## project_a\nType: project\n\na\n## project_c\nType: project\n\nc\n",
                 row("project_b")) == "## project_a\nType: project\n\na\n\n## project_b\n" + x +
                                          "\n## project_c\nType: project\n\nc\n");
  // A first entry on line 1 gets nothing before the new one.
  CHECK(inserted("## project_c\nType: project\n\nc\n", row("project_b")) ==
        "## project_b\n" + x + "\n## project_c\nType: project\n\nc\n");
  // An unterminated last line first gets a terminator; trailing blank lines stay at the end.
  CHECK(inserted("## project_a\nType: project\n\na", row("project_b")) ==
        "## project_a\nType: project\n\na\n\n## project_b\n" + x);
  CHECK(inserted("## project_a\nType: project\n\na\n\n\n", row("project_b")) ==
        "## project_a\nType: project\n\na\n\n## project_b\n" + x + "\n\n");
  // A header without entries.
  CHECK(inserted("# Curated memory: project\n", row("project_b")) ==
        "# Curated memory: project\n\n## project_b\n" + x);
  // A BOM stays first.
  CHECK(inserted("\xEF\xBB\xBF## project_c\nType: project\n\nc\n", row("project_b")) ==
        "\xEF\xBB\xBF## project_b\n" + x + "\n## project_c\nType: project\n\nc\n");
}

TEST_CASE("curated insert: a CRLF file gets CRLF lines") {
  Row row;
  row.name = "project_b";
  row.body = "one\ntwo";
  const std::string base = crlf_of(
      "# Curated memory: project\n\n## project_a\nType: project\n\na\n"
      "\n## project_c\nType: project\n\nc\n");
  const std::string after = inserted(base, row);
  CHECK(all_crlf(after));
  CHECK(after == crlf_of("# Curated memory: project\n\n## project_a\nType: project\n\na\n\n"
                         "## project_b\nType: project\nClass: log\nAudience: any\n\none\ntwo\n\n"
                         "## project_c\nType: project\n\nc\n"));
}

TEST_CASE("curated remove: neighbours stay one empty line apart, with no trailing mess") {
  const std::string a = "## project_a\nType: project\n\na\n";
  const std::string b = "## project_b\nType: project\n\nb\n";
  const std::string c = "## project_c\nType: project\n\nc\n";
  const std::string head = "# Curated memory: project\n\n";
  const std::string file = head + a + "\n" + b + "\n" + c;
  CHECK(removed(file, "project_a") == head + b + "\n" + c);
  CHECK(removed(file, "project_b") == head + a + "\n" + c);
  CHECK(removed(file, "project_c") == head + a + "\n" + b);
  CHECK(removed(head + a, "project_a") == "# Curated memory: project\n");
  // Trailing blank lines and an unterminated end go with the last entry.
  CHECK(removed(head + a + "\n" + b + "\n\n", "project_b") == head + a);
  CHECK(removed(head + a + "\n## project_b\nType: project\n\nb", "project_b") == head + a);
  // The whole entry goes, body included: headings and fences inside it too.
  CHECK(removed(head + a + "\n## project_b\nType: project\n\n## Symptom\n```\n## x\n```\n\n" + c,
                "project_b") == head + a + "\n" + c);
  // A CRLF file keeps its terminators.
  CHECK(removed(crlf_of(file), "project_b") == crlf_of(head + a + "\n" + c));
}

TEST_CASE("curated edit: the same row changes nothing") {
  for (const std::string& bytes :
       {std::string(kHandWritten), crlf_of(kHandWritten),
        // Mixed terminators and stripped values compare equal too.
        std::string(
            "## project_a\r\nType: project \nClass:\tthread\r\nStatus: open\n\r\nx\ny\r\n")}) {
    const RowFile file = parse_row_file(bytes, kPath);
    for (const Entry& entry : file.entries) {
      REQUIRE(entry.valid);
      CHECK(edit_entry(bytes, file, entry, entry.row).empty());
    }
  }
}

TEST_CASE("curated edit: a changed field is replaced where it stands") {
  Row row = entry_named(parse_row_file(kHandWritten, kPath), "project_m").row;
  row.initiative = "gaia";
  row.updated = std::string(kT2);
  const std::string after = edited(kHandWritten, "project_m", row);
  CHECK(after.find("X-Owner: alice\nInitiative: gaia\nUpdated: 2026-11-30T10:00:00.000Z\n"
                   "Link: supersedes") != std::string::npos);
}

TEST_CASE("curated edit: Class and Audience are added only when they change") {
  Row row = entry_named(parse_row_file(kHandWritten, kPath), "project_m").row;
  row.row_class = RowClass::thread;
  row.status = RowStatus::open;
  row.audience = Audience::any;  // the default: still no line
  std::string after = edited(kHandWritten, "project_m", row);
  CHECK(after.find("## project_m\nType: project\nClass: thread\nStatus: open\nX-Owner: alice\n"
                   "Initiative:  demo \nUpdated:") != std::string::npos);
  // Set, the Audience line follows the nearest present field before it (Initiative).
  row.audience = Audience::orchestrator;
  after = edited(after, "project_m", row);
  CHECK(after.find("Initiative:  demo \nAudience: orchestrator\nUpdated:") != std::string::npos);
  // Back to the defaults: the lines stay, with the default values.
  row.row_class = RowClass::log;
  row.status.reset();
  row.audience = Audience::any;
  after = edited(after, "project_m", row);
  CHECK(after.find("Type: project\nClass: log\nX-Owner: alice\nInitiative:  demo \n"
                   "Audience: any\nUpdated:") != std::string::npos);
}

TEST_CASE("curated edit: an unset field loses its line, around unknown lines") {
  const std::string bytes =
      "## project_a\nType: project\nClass: thread\nX-Note: n\nStatus: open\nCreated: T\n"
      "Deleted: T2\n\nbody\n";
  Row row = entry_named(parse_row_file(bytes, kPath), "project_a").row;
  row.row_class = RowClass::anchor;  // a thread becoming an anchor loses its status
  row.status.reset();
  row.deleted.reset();  // restore
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nClass: anchor\nX-Note: n\nCreated: T\n\nbody\n");
  // A new field goes directly after the nearest present field before it, not after the
  // removed line's neighbour.
  row.initiative = "demo";
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nClass: anchor\nInitiative: demo\nX-Note: n\nCreated: T\n"
        "\nbody\n");
}

TEST_CASE("curated edit: several new fields in a row keep the §4 order") {
  const std::string bytes = "## project_a\nType: project\nX-Note: n\n\nbody\n";
  Row row = entry_named(parse_row_file(bytes, kPath), "project_a").row;
  row.row_class = RowClass::thread;
  row.status = RowStatus::open;
  row.description = "d";
  row.deleted = "T9";
  row.links = {Link{.kind = LinkKind::relates_to, .dst = "project_b", .created_at = "T1"}};
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nClass: thread\nStatus: open\nDescription: d\n"
        "Deleted: T9\nLink: relates_to project_b T1\nX-Note: n\n\nbody\n");
}

TEST_CASE("curated edit: new links go in order among the existing Link lines") {
  const std::string bytes =
      "## project_a\nType: project\nUpdated: T\nLink: relates_to project_b T\nX-Note: n\n"
      "Link: supersedes project_c T\n\nbody\n";
  const Row base = entry_named(parse_row_file(bytes, kPath), "project_a").row;
  Row row = base;
  // Before the first Link line that sorts after it.
  row.links.insert(row.links.begin() + 1,
                   Link{.kind = LinkKind::relates_to, .dst = "project_c", .created_at = "U"});
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nUpdated: T\nLink: relates_to project_b T\nX-Note: n\n"
        "Link: relates_to project_c U\nLink: supersedes project_c T\n\nbody\n");
  row = base;
  row.links.insert(row.links.begin(),
                   Link{.kind = LinkKind::graduated_to, .dst = "project_z", .created_at = "U"});
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nUpdated: T\nLink: graduated_to project_z U\n"
        "Link: relates_to project_b T\nX-Note: n\nLink: supersedes project_c T\n\nbody\n");
  // Failing that, after the last Link line.
  row = base;
  row.links.push_back(Link{.kind = LinkKind::supersedes, .dst = "project_d", .created_at = "U"});
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nUpdated: T\nLink: relates_to project_b T\nX-Note: n\n"
        "Link: supersedes project_c T\nLink: supersedes project_d U\n\nbody\n");
  // A removed link loses its line; a re-stamped one is replaced in place.
  row = base;
  row.links.erase(row.links.begin());
  row.links[0].created_at = "V";
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nUpdated: T\nX-Note: n\nLink: supersedes project_c V\n"
        "\nbody\n");
  // With no Link line left to follow, a new link goes after the last field before it.
  row.links = {Link{.kind = LinkKind::relates_to, .dst = "project_e", .created_at = "W"}};
  CHECK(edited(bytes, "project_a", row) ==
        "## project_a\nType: project\nUpdated: T\nLink: relates_to project_e W\nX-Note: n\n"
        "\nbody\n");
}

TEST_CASE("curated edit: the body is replaced whole, the gap and the neighbours untouched") {
  Row row = entry_named(parse_row_file(kHandWritten, kPath), "project_m").row;
  row.body = "New body.\n\n## Symptom\nstill the body";
  const std::string after = edited(kHandWritten, "project_m", row);
  CHECK(after.find("\n\nNew body.\n\n## Symptom\nstill the body\n\n\n## project_z\n") !=
        std::string::npos);
  // The last entry's unterminated line: the new body ends with one terminator.
  Row z = entry_named(parse_row_file(kHandWritten, kPath), "project_z").row;
  z.body = "zz";
  CHECK(edited(kHandWritten, "project_z", z).ends_with("Class: anchor\n\nzz\n"));
}

TEST_CASE("curated edit: a CRLF file stays CRLF") {
  const std::string bytes = crlf_of(kHandWritten.substr(0, kHandWritten.size() - 1)) + "z\r\n";
  Row row = entry_named(parse_row_file(bytes, kPath), "project_m").row;
  row.row_class = RowClass::thread;
  row.status = RowStatus::closed;
  row.description = "d";
  row.links.push_back(Link{.kind = LinkKind::supersedes, .dst = "project_d", .created_at = "U"});
  row.body = "a\nb\r\nc";  // a CR before an LF is a terminator, never content
  const std::string after = edited(bytes, "project_m", [&] {
    Row expected = row;
    expected.body = "a\nb\nc";
    return expected;
  }());
  CHECK(all_crlf(after));
  const RowFile file = parse_row_file(bytes, kPath);
  CHECK(apply_splices(bytes, edit_entry(bytes, file, entry_named(file, "project_m"), row)) ==
        after);
}

TEST_CASE("curated edit: any change reads back exactly, touching only the entry") {
  const std::vector<std::string> files = {
      std::string(kHandWritten), crlf_of(kHandWritten),
      "\xEF\xBB\xBF# Curated memory: project\n\n" + render_entry([] {
        Row r = row_named("project_m", "m");
        r.row_class = RowClass::thread;
        r.status = RowStatus::open;
        r.links = {Link{.kind = LinkKind::relates_to, .dst = "project_b", .created_at = "T"}};
        return r;
      }()) +
          "\n## project_n\nType: project\n\nn"};
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    Lcg rng(seed);
    const std::string& bytes = files[seed % files.size()];
    CAPTURE(seed);
    const Row start = entry_named(parse_row_file(bytes, kPath), "project_m").row;
    // Two edits in a row: from the file as written by hand, then from memkit's own lines.
    const Row first = mutated(start, rng);
    const std::string once = edited(bytes, "project_m", first);
    const std::string twice = edited(once, "project_m", mutated(first, rng));
    // And back: the hand-written file's row again gives a file that reads as it.
    edited(twice, "project_m", start);
  }
}

// ---- update_row_file (the parse a batch keeps between its writes) -------------------------------

namespace {

// Everything parse_row_file says of an entry, offsets and lines included.
void check_same_entry(const Entry& got, const Entry& want) {
  CAPTURE(want.row.name);
  CHECK(got.row == want.row);
  CHECK(got.valid == want.valid);
  CHECK(got.line == want.line);
  CHECK(got.begin == want.begin);
  CHECK(got.end == want.end);
  CHECK(got.body_begin == want.body_begin);
  REQUIRE(got.fields.size() == want.fields.size());
  for (std::size_t i = 0; i < got.fields.size(); ++i) {
    CHECK(got.fields[i].field == want.fields[i].field);
    CHECK(got.fields[i].line == want.fields[i].line);
    CHECK(got.fields[i].begin == want.fields[i].begin);
    CHECK(got.fields[i].end == want.fields[i].end);
  }
}

}  // namespace

TEST_CASE("curated update_row_file: inserts, edits and removals give what a fresh parse gives") {
  for (const bool crlf : {false, true}) {
    CAPTURE(crlf);
    std::string bytes;
    RowFile file = parse_row_file(bytes, kPath);
    // Inserts in an order that is not the sorted one, then edits and removals across the file.
    const std::vector<int> order = {5, 1, 9, 3, 7, 0, 8, 2, 6, 4};
    std::vector<std::vector<Splice>> steps;
    int step = 0;
    auto apply = [&](std::vector<Splice> splices) {
      CAPTURE(step);
      std::stable_sort(splices.begin(), splices.end(),
                       [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
      const std::string after = apply_splices(bytes, splices);
      const RowFile want = parse_row_file(after, kPath);
      const bool updated =
          memkit::curated::write_detail::update_row_file(file, bytes, after, splices, kPath);
      CHECK(updated);
      if (!updated) file = want;
      CHECK(file.crlf == want.crlf);
      REQUIRE(file.entries.size() == want.entries.size());
      for (std::size_t i = 0; i < want.entries.size(); ++i) {
        check_same_entry(file.entries[i], want.entries[i]);
      }
      bytes = after;
      ++step;
    };
    for (const int n : order) {
      Row row;
      row.name = "project_" + std::to_string(n);
      row.body = "line one\n\nline " + std::to_string(n) + "\n```\n## not_an_entry\nType: x\n```";
      row.created = "2026-11-30T09:00:00.000Z";
      row.updated = row.created;
      if (bytes.empty() && crlf) {
        bytes = row_file_header(RowType::project, true);
        file = parse_row_file(bytes, kPath);
      }
      apply(insert_entry(bytes, file, row));
    }
    for (const int n : {0, 4, 9}) {
      Row row = entry_named(file, "project_" + std::to_string(n)).row;
      row.description = "now described";
      row.body += "\nand more";
      apply(edit_entry(bytes, file, entry_named(file, row.name), row));
    }
    for (const int n : {0, 5, 9}) {
      apply(remove_entry(bytes, entry_named(file, "project_" + std::to_string(n))));
    }
  }
}

TEST_CASE("curated update_row_file: a file with findings is left for a fresh parse") {
  const std::string bytes =
      "# Curated memory: project\n\n## project_a\nType: project\nReviewer: ana\n\na\n";
  RowFile file = parse_row_file(bytes, kPath);
  REQUIRE_FALSE(file.findings.empty());  // MK-CUR-030: the unknown field
  Row row;
  row.name = "project_b";
  row.body = "b";
  const std::vector<Splice> splices = insert_entry(bytes, file, row);
  const std::string after = apply_splices(bytes, splices);
  const RowFile before = file;
  CHECK_FALSE(memkit::curated::write_detail::update_row_file(file, bytes, after, splices, kPath));
  CHECK(file.entries.size() == before.entries.size());
}
