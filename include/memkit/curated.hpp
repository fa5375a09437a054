// Curated memory (spec curated.md): rows with roles, lifecycle and lineage links, stored as
// structured H2 entries in rows/<workspace>/<type>.md. Pure: names and enums (§2, §3), the row file
// format read losslessly and edited in place (§4), and the body rules of a write.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/edit.hpp"
#include "memkit/findings.hpp"

namespace memkit::curated {

// ---- §3: enums --------------------------------------------------------------------------------

enum class RowType : std::uint8_t { project, user, feedback, atom, decision, negative };
enum class RowClass : std::uint8_t { anchor, thread, log };
enum class RowStatus : std::uint8_t { open, carry_forward, graduated, closed };
enum class Audience : std::uint8_t { orchestrator, executor, any };
enum class LinkKind : std::uint8_t { relates_to, supersedes, derived_from, graduated_to };

// The spec's words ("project", "carry_forward", ...), and back; nullopt for any other text.
[[nodiscard]] std::string_view name_of(RowType value) noexcept;
[[nodiscard]] std::string_view name_of(RowClass value) noexcept;
[[nodiscard]] std::string_view name_of(RowStatus value) noexcept;
[[nodiscard]] std::string_view name_of(Audience value) noexcept;
[[nodiscard]] std::string_view name_of(LinkKind value) noexcept;
[[nodiscard]] std::optional<RowType> parse_row_type(std::string_view text) noexcept;
[[nodiscard]] std::optional<RowClass> parse_row_class(std::string_view text) noexcept;
[[nodiscard]] std::optional<RowStatus> parse_status(std::string_view text) noexcept;
[[nodiscard]] std::optional<Audience> parse_audience(std::string_view text) noexcept;
[[nodiscard]] std::optional<LinkKind> parse_link_kind(std::string_view text) noexcept;

// ---- §2, §3: names ----------------------------------------------------------------------------

// §2: ^[a-z0-9][a-z0-9_-]{0,63}$.
[[nodiscard]] bool is_workspace_name(std::string_view name) noexcept;

// §3's general slug grammar, ^[a-z0-9][a-z0-9_]{0,127}$, whatever the type.
[[nodiscard]] bool is_slug(std::string_view name) noexcept;

// §3 slugs: nullopt when `name` is a slug of `type`, else what is wrong (the MK-CUR-003 message).
[[nodiscard]] std::optional<std::string> slug_problem(std::string_view name, RowType type);

// §3 initiative normalisation: strip W, ASCII lower-case, each run outside [a-z0-9] as '_', '_'
// stripped from both ends; nullopt when nothing is left (no initiative).
[[nodiscard]] std::optional<std::string> normalize_initiative(std::string_view raw);

// §3: the initiative of an opaque project ref ("/srv/repos/gaia/.git" -> "gaia"), or nullopt.
[[nodiscard]] std::optional<std::string> initiative_of_project_ref(std::string_view ref);

// ---- §4: rows ---------------------------------------------------------------------------------

struct Link {
  LinkKind kind = LinkKind::relates_to;
  std::string dst;
  std::string created_at;  // RFC 3339 UTC with milliseconds
  friend bool operator==(const Link&, const Link&) = default;
};

// The values of one row. Timestamps are RFC 3339 UTC with milliseconds; an absent field is nullopt.
struct Row {
  std::string name;
  RowType type = RowType::project;
  RowClass row_class = RowClass::log;  // a hand-written entry without `Class:` is a log
  std::optional<RowStatus> status;     // threads only
  std::optional<std::string> initiative;
  Audience audience = Audience::any;  // without `Audience:`, any
  std::optional<std::string> description;
  std::optional<std::string> project_ref;
  std::optional<std::string> origin_session;
  std::optional<std::string> created;
  std::optional<std::string> updated;
  std::optional<std::string> deleted;
  std::vector<Link> links;  // sorted by kind's name, then dst
  std::string body;         // without its final line terminator
  friend bool operator==(const Row&, const Row&) = default;
};

// The known fields in the order memkit writes them (§4); `Link` may repeat.
enum class Field : std::uint8_t {
  type,
  row_class,
  status,
  initiative,
  audience,
  description,
  project_ref,
  origin_session,
  created,
  updated,
  deleted,
  link,
};
// "Type", "Class", ..., "Link": the key before ": ".
[[nodiscard]] std::string_view key_of(Field field) noexcept;

// §4 "Entry boundary": whether a visible line (its content, without terminator) is a column-0 H2
// whose heading text is a slug. Read liberally (a tab after "##", W around the slug): the reader
// and the body rules share it, so a stored body can never split its entry. An entry starts at
// such a line directly followed by a line beginning "Type: ".
[[nodiscard]] bool is_entry_heading(std::string_view line) noexcept;

// One line of an entry's field block, as it stands in the file.
struct FieldLine {
  std::optional<Field> field;  // nullopt: an unknown key, preserved verbatim (MK-CUR-030)
  std::uint32_t line = 0;      // 1-based
  std::size_t begin = 0;       // offset of the line
  std::size_t end = 0;         // just past its terminator
};

// One entry of a row file (§4 "Entry boundary").
struct Entry {
  Row row;
  bool valid = true;       // false: MK-CUR-004 was reported for it; `row` holds what could be read
  std::uint32_t line = 0;  // the heading's line
  std::size_t begin = 0;   // the heading line's offset
  std::size_t end = 0;  // just past the body's last non-blank line's terminator (or the file's end)
  std::vector<FieldLine> fields;  // the field block, in file order
  std::size_t body_begin = 0;     // the body's first byte (after the blank line)
};

struct RowFile {
  std::vector<Entry> entries;     // in file order
  std::vector<Finding> findings;  // MK-CUR-004 ERROR and MK-CUR-030 WARNING at path:line
  bool crlf = false;              // the terminator style for new lines (compaction.md §7.2)
  // MK-PARSE-001 ERROR when a fence or comment is still open at the end of the file: the lines
  // after its opener are opaque, so an entry written there could never be read back.
  std::optional<Finding> parse_error;
};

// Reads a row file; `path` names it in findings (store-relative). Never fails: an invalid entry is
// kept, marked invalid, with its finding.
[[nodiscard]] RowFile parse_row_file(std::string_view bytes, std::string_view path);

// ---- writes -----------------------------------------------------------------------------------

// §4 body rules on write: trailing blank lines removed (the returned body has no final line
// terminator); MK-CUR-005 for an empty body, a fence or comment left open, or a visible
// "## <slug>" line followed by "Type: ". MK-CUR-006 for a multi-line description.
struct CheckedBody {
  std::string body;
  std::optional<Finding> refused;
};
[[nodiscard]] CheckedBody check_body(std::string_view body);
[[nodiscard]] std::optional<Finding> check_description(std::string_view description);

// The H1 of a new row file: "# Curated memory: <type>".
[[nodiscard]] std::string row_file_header(RowType type, bool crlf = false);

// A new entry's bytes: the heading, the fields in §4 order, an empty line, the body, one final
// terminator.
[[nodiscard]] std::string render_entry(const Row& row, bool crlf = false);

// The splices that insert `row` at its sorted place (by name, byte order) in a file, one empty
// line apart from its neighbours; for a missing file, `bytes` is empty and the header comes first.
[[nodiscard]] std::vector<Splice> insert_entry(std::string_view bytes, const RowFile& file,
                                               const Row& row);

// The splices that turn `entry` into `row` in place (§4 "Editing"): changed fields replaced
// where they stand, unset ones removed, new ones after the nearest present field before them,
// links placed in order, unknown lines kept, the body replaced whole.
// REQUIRES: entry is valid and row.name == entry.row.name.
[[nodiscard]] std::vector<Splice> edit_entry(std::string_view bytes, const RowFile& file,
                                             const Entry& entry, const Row& row);

// The splices that remove `entry` with its gap (compaction.md §7.1).
[[nodiscard]] std::vector<Splice> remove_entry(std::string_view bytes, const Entry& entry);

}  // namespace memkit::curated
