// Writing row files (spec curated.md §4 "Order" and "Editing"): new entries rendered in the §4
// field order and put at their sorted place, existing entries edited line by line, and entries
// removed with their blank gap (compaction.md §7.1). Every write is a list of splices over the
// file's bytes, so whatever a write does not change stays byte for byte. A new file is exactly
// row_file_header(type), one empty line and render_entry(row): "# Curated memory: project\n\n
// ## project_a\nType: project\nClass: log\nAudience: any\n...\n\n<body>\n", always LF.
#include <algorithm>
#include <array>
#include <utility>

#include "markdown/line_kinds.hpp"
#include "memkit/curated.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

// The single-valued fields, in the order memkit writes them; `Link` lines come after them.
constexpr std::array kScalarFields = {Field::type,        Field::row_class,      Field::status,
                                      Field::initiative,  Field::audience,       Field::description,
                                      Field::project_ref, Field::origin_session, Field::created,
                                      Field::updated,     Field::deleted};

std::string_view terminator_of(bool crlf) noexcept { return crlf ? "\r\n" : "\n"; }

std::size_t content_begin_of(std::string_view bytes) noexcept { return bom_size(bytes); }

// An enum's word as a field value.
std::optional<std::string> owned(std::string_view word) { return std::string(word); }

// The value a field line holds for `row`, or nullopt when the row has no such line. Class and
// audience always have a value; whether their line is written is the caller's choice (§4
// "Defaults when reading").
std::optional<std::string> value_of(const Row& row, Field field) {
  switch (field) {
    case Field::type:
      return owned(name_of(row.type));
    case Field::row_class:
      return owned(name_of(row.row_class));
    case Field::status:
      return row.status ? owned(name_of(*row.status)) : std::nullopt;
    case Field::initiative:
      return row.initiative;
    case Field::audience:
      return owned(name_of(row.audience));
    case Field::description:
      return row.description;
    case Field::project_ref:
      return row.project_ref;
    case Field::origin_session:
      return row.origin_session;
    case Field::created:
      return row.created;
    case Field::updated:
      return row.updated;
    case Field::deleted:
      return row.deleted;
    case Field::link:
      break;
  }
  return std::nullopt;
}

// "Key: value"; an empty value gives "Key:", so that no line ends in a space.
std::string field_content(Field field, std::string_view value) {
  std::string line(key_of(field));
  line += ':';
  if (!value.empty()) {
    line += ' ';
    line += value;
  }
  return line;
}

std::string link_content(const Link& link) {
  std::string value(name_of(link.kind));
  value += ' ';
  value += link.dst;
  value += ' ';
  value += link.created_at;
  return field_content(Field::link, value);
}

using LinkKey = std::pair<std::string_view, std::string_view>;  // (kind's name, dst)

LinkKey key_of_link(const Link& link) noexcept { return {name_of(link.kind), link.dst}; }

std::vector<Link> sorted_links(std::vector<Link> links) {
  std::stable_sort(links.begin(), links.end(),
                   [](const Link& a, const Link& b) { return key_of_link(a) < key_of_link(b); });
  return links;
}

// The body's lines, each with the file's terminator. Row::body separates lines with LF; a CR
// before an LF is part of a CRLF terminator, never content (compaction.md §2.1).
void append_body(std::string& out, std::string_view body, std::string_view terminator) {
  std::size_t pos = 0;
  while (true) {
    const std::size_t lf = body.find('\n', pos);
    std::string_view line = body.substr(pos, lf == std::string_view::npos ? lf : lf - pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    out += line;
    out += terminator;
    if (lf == std::string_view::npos) return;
    pos = lf + 1;
  }
}

// The content of the line that starts at `begin` and ends just past its terminator at `end`.
std::string_view content_of(std::string_view bytes, std::size_t begin, std::size_t end) noexcept {
  std::string_view line = bytes.substr(begin, end - begin);
  if (line.ends_with('\n')) {
    line.remove_suffix(1);
    if (line.ends_with('\r')) line.remove_suffix(1);
  }
  return line;
}

// The kind's name and dst of a `Link:` line of a valid entry: the first two words of its value,
// read as parse_row_file reads them.
LinkKey link_line_key(std::string_view content) noexcept {
  std::string_view rest = strip_w(content.substr(key_of(Field::link).size() + 1));
  std::array<std::string_view, 2> words{};
  for (std::string_view& word : words) {
    while (!rest.empty() && detail::is_indent_byte(rest.front())) rest.remove_prefix(1);
    std::size_t n = 0;
    while (n < rest.size() && !detail::is_indent_byte(rest[n])) ++n;
    word = rest.substr(0, n);
    rest.remove_prefix(n);
  }
  return {words[0], words[1]};
}

// Returns true iff the line that ends at `pos` (a line start after content_begin) is blank.
bool line_before_is_blank(std::string_view bytes, std::size_t content_begin,
                          std::size_t pos) noexcept {
  const std::size_t lf = pos - 1;
  std::size_t start = content_begin;
  if (lf > content_begin) {
    const std::size_t previous = bytes.rfind('\n', lf - 1);
    if (previous != std::string_view::npos && previous >= content_begin) start = previous + 1;
  }
  return detail::is_blank(content_of(bytes, start, pos));
}

// The end of the file's last non-blank line, or nullopt when it has none.
std::optional<std::size_t> last_filled_end(std::string_view bytes,
                                           std::size_t content_begin) noexcept {
  std::optional<std::size_t> end;
  LineCursor cursor(bytes, content_begin, bytes.size(), 1);
  Line line{};
  while (cursor.next(line)) {
    if (!detail::is_blank(line.content)) {
      end = line.begin + line.content.size() + line.terminator.size();
    }
  }
  return end;
}

// One change to an entry's lines: an insertion when begin == end. Several insertions may share an
// offset (they keep the order they were made in) and may also share it with the start of a
// replaced or removed line, which they precede.
struct LineEdit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

std::vector<Splice> splices_of(std::vector<LineEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const LineEdit& a, const LineEdit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    return a.begin == a.end && b.begin != b.end;
  });
  std::vector<Splice> splices;
  for (LineEdit& edit : edits) {
    if (!splices.empty() && splices.back().begin == edit.begin) {
      splices.back().end = edit.end;
      splices.back().insert += edit.text;
    } else {
      splices.push_back(
          Splice{.begin = edit.begin, .end = edit.end, .insert = std::move(edit.text)});
    }
  }
  return splices;
}

}  // namespace

std::string row_file_header(RowType type, bool crlf) {
  std::string header = "# Curated memory: ";
  header += name_of(type);
  header += terminator_of(crlf);
  return header;
}

std::string render_entry(const Row& row, bool crlf) {
  const std::string_view t = terminator_of(crlf);
  std::string out = "## " + row.name;
  out += t;
  for (Field field : kScalarFields) {
    if (const std::optional<std::string> value = value_of(row, field)) {
      out += field_content(field, *value);
      out += t;
    }
  }
  for (const Link& link : sorted_links(row.links)) {
    out += link_content(link);
    out += t;
  }
  out += t;
  append_body(out, row.body, t);
  return out;
}

std::vector<Splice> insert_entry(std::string_view bytes, const RowFile& file, const Row& row) {
  const std::string_view t = terminator_of(file.crlf);
  const std::size_t content_begin = content_begin_of(bytes);
  const std::string entry = render_entry(row, file.crlf);
  // Before the first entry that sorts after the new one, one empty line on each side.
  for (const Entry& next : file.entries) {
    if (next.row.name <= row.name) continue;
    std::string text;
    if (next.begin > content_begin && !line_before_is_blank(bytes, content_begin, next.begin)) {
      text += t;
    }
    text += entry;
    text += t;
    return {Splice{.begin = next.begin, .end = next.begin, .insert = std::move(text)}};
  }
  // Else after the last non-blank line (compaction.md §7.3 append), before any trailing blanks.
  const std::optional<std::size_t> end = last_filled_end(bytes, content_begin);
  if (!end) {  // a new (or blank) file: the header, an empty line, the entry
    std::string text = row_file_header(row.type, file.crlf);
    text += t;
    text += entry;
    return {Splice{.begin = content_begin, .end = content_begin, .insert = std::move(text)}};
  }
  std::string text;
  if (bytes[*end - 1] != '\n') text += t;  // the unterminated last line gets a terminator
  text += t;
  text += entry;
  return {Splice{.begin = *end, .end = *end, .insert = std::move(text)}};
}

std::vector<Splice> edit_entry(std::string_view bytes, const RowFile& file, const Entry& entry,
                               const Row& row) {
  const std::string_view t = terminator_of(file.crlf);
  std::vector<LineEdit> edits;

  std::array<const FieldLine*, kScalarFields.size()> line_of{};
  std::vector<const FieldLine*> link_lines;
  for (const FieldLine& line : entry.fields) {
    if (!line.field) continue;  // unknown lines stay where they are
    if (*line.field == Field::link) {
      link_lines.push_back(&line);
    } else {
      line_of[static_cast<std::size_t>(*line.field)] = &line;
    }
  }

  // A field that becomes set goes after the nearest field before it in §4 order that the entry
  // still has; `anchor` is the end of that field's line. Type is always there, and comes first.
  std::size_t anchor = entry.begin;
  for (Field field : kScalarFields) {
    const std::optional<std::string> before = value_of(entry.row, field);
    const std::optional<std::string> after = value_of(row, field);
    const FieldLine* line = line_of[static_cast<std::size_t>(field)];
    if (line == nullptr) {
      // Without a line, class and audience read as their defaults: no line until that changes.
      if (after && after != before) {
        edits.push_back(LineEdit{
            .begin = anchor, .end = anchor, .text = field_content(field, *after) + std::string(t)});
      }
      continue;
    }
    if (!after) {
      edits.push_back(LineEdit{.begin = line->begin, .end = line->end, .text = {}});
      continue;
    }
    if (after != before) {
      const std::string_view content = content_of(bytes, line->begin, line->end);
      edits.push_back(LineEdit{.begin = line->begin,
                               .end = line->begin + content.size(),
                               .text = field_content(field, *after)});
    }
    anchor = line->end;
  }

  // Links, matched by (kind, dst): kept, re-stamped in place, or removed with their line.
  const std::vector<Link> wanted = sorted_links(row.links);
  std::vector<bool> present(wanted.size(), false);
  std::vector<std::pair<LinkKey, const FieldLine*>> kept;  // in file order
  for (const FieldLine* line : link_lines) {
    const std::string_view content = content_of(bytes, line->begin, line->end);
    const LinkKey key = link_line_key(content);
    const auto match = std::find_if(wanted.begin(), wanted.end(),
                                    [&](const Link& link) { return key_of_link(link) == key; });
    if (match == wanted.end()) {
      edits.push_back(LineEdit{.begin = line->begin, .end = line->end, .text = {}});
      continue;
    }
    present[static_cast<std::size_t>(match - wanted.begin())] = true;
    const auto old = std::find_if(entry.row.links.begin(), entry.row.links.end(),
                                  [&](const Link& link) { return key_of_link(link) == key; });
    if (old == entry.row.links.end() || *old != *match) {
      edits.push_back(LineEdit{
          .begin = line->begin, .end = line->begin + content.size(), .text = link_content(*match)});
    }
    kept.emplace_back(key, line);
  }
  // A new link goes before the first kept Link line that sorts after it, else after the last
  // one, else where a field after Deleted would go.
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    if (present[i]) continue;
    const LinkKey key = key_of_link(wanted[i]);
    std::size_t at = anchor;
    if (!kept.empty()) at = kept.back().second->end;
    for (const auto& [other, line] : kept) {
      if (key < other) {
        at = line->begin;
        break;
      }
    }
    edits.push_back(
        LineEdit{.begin = at, .end = at, .text = link_content(wanted[i]) + std::string(t)});
  }

  if (row.body != entry.row.body) {
    std::string body;
    append_body(body, row.body, t);
    edits.push_back(LineEdit{.begin = entry.body_begin, .end = entry.end, .text = std::move(body)});
  }
  return splices_of(std::move(edits));
}

std::vector<Splice> remove_entry(std::string_view bytes, const Entry& entry) {
  const ByteRange removed{.begin = entry.begin, .end = entry.end};
  return removal_splices(bytes, content_begin_of(bytes), std::span(&removed, 1));
}

}  // namespace memkit::curated
