// Reading a row file (spec curated.md §4): the entries are found by their heading and `Type:` line,
// and each is read into a Row together with the offsets of its lines, so that a write can touch
// exactly the lines it changes and every other byte stays as it is (compaction.md §2.1).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "markdown/line_kinds.hpp"
#include "memkit/curated.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kTypePrefix = "Type: ";

struct FileLine {
  Line line;
  bool opaque;  // compaction.md §2.3: inside front matter, a fence or a comment (not its opener)
};

std::size_t line_end(const Line& line) noexcept {
  return line.begin + line.content.size() + line.terminator.size();
}

// Every line of the file with its opacity: a `## x` inside a fence or a comment is text, never an
// entry heading.
std::vector<FileLine> read_lines(std::string_view bytes, std::size_t content_begin) {
  std::vector<FileLine> lines;
  LineCursor cursor(bytes, content_begin, bytes.size(), 1);
  Line line{};
  while (cursor.next(line)) lines.push_back(FileLine{.line = line, .opaque = false});
  std::size_t first_open = 0;  // the first line the fence and comment scan sees
  if (!lines.empty() && detail::equals_trimmed(lines[0].line.content, "---")) {
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const std::string_view c = lines[i].line.content;
      if (detail::equals_trimmed(c, "---") || detail::equals_trimmed(c, "...")) {
        for (std::size_t j = 0; j <= i; ++j) lines[j].opaque = true;
        first_open = i + 1;
        break;
      }
    }
  }
  detail::RegionTracker regions;
  for (std::size_t i = first_open; i < lines.size(); ++i) {
    lines[i].opaque = regions.is_opaque(lines[i].line.content);
  }
  return lines;
}

// §4 "Entry boundary": a non-opaque column-0 `## <slug>` line directly followed by `Type: `.
bool starts_entry(const std::vector<FileLine>& lines, std::size_t i) noexcept {
  // The heading alone decides (shared with the body rules), so a body may hold `## Symptom`
  // followed by `Type: `.
  return !lines[i].opaque && is_entry_heading(lines[i].line.content) && i + 1 < lines.size() &&
         lines[i + 1].line.content.starts_with(kTypePrefix);
}

// A field key: an ASCII letter, then letters, digits, '-' and '_' ("Project-Ref", "X-Owner").
bool is_key(std::string_view key) noexcept {
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  if (key.empty() || !letter(key[0])) return false;
  return std::all_of(key.begin(), key.end(), [&](char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

struct KeyValue {
  std::string_view key;
  std::string_view value;  // stripped with W: hand-written trailing spaces are not part of it
};

// `Key: value` (also `Key:` with nothing after it, an empty value), or nullopt.
std::optional<KeyValue> key_value(std::string_view content) noexcept {
  const std::size_t colon = content.find(':');
  if (colon == std::string_view::npos || !is_key(content.substr(0, colon))) return std::nullopt;
  const std::string_view rest = content.substr(colon + 1);
  if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') return std::nullopt;
  return KeyValue{.key = content.substr(0, colon), .value = strip_w(rest)};
}

constexpr std::array kFields = {Field::type,        Field::row_class,      Field::status,
                                Field::initiative,  Field::audience,       Field::description,
                                Field::project_ref, Field::origin_session, Field::created,
                                Field::updated,     Field::deleted,        Field::link};

std::optional<Field> field_of_key(std::string_view key) noexcept {
  for (Field field : kFields) {
    if (key_of(field) == key) return field;
  }
  return std::nullopt;
}

// `<kind> <dst> <ts>`, separated by spaces or tabs; dst is a slug.
std::optional<Link> parse_link(std::string_view value) {
  std::array<std::string_view, 3> parts{};
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && detail::is_indent_byte(value[i])) ++i;
    if (i == value.size()) break;
    const std::size_t start = i;
    while (i < value.size() && !detail::is_indent_byte(value[i])) ++i;
    if (count == parts.size()) return std::nullopt;
    parts[count++] = value.substr(start, i - start);
  }
  if (count != parts.size()) return std::nullopt;
  const std::optional<LinkKind> kind = parse_link_kind(parts[0]);
  if (!kind || !is_slug(parts[1])) return std::nullopt;
  return Link{.kind = *kind, .dst = std::string(parts[1]), .created_at = std::string(parts[2])};
}

bool link_less(const Link& a, const Link& b) noexcept {
  return std::pair(name_of(a.kind), std::string_view(a.dst)) <
         std::pair(name_of(b.kind), std::string_view(b.dst));
}

// Reads one entry, lines [first, last) of the file, into `file`.
class EntryReader final {
 public:
  EntryReader(std::string_view path, RowFile& file) : path_(path), file_(file) {}

  void read(const std::vector<FileLine>& lines, std::size_t first, std::size_t last) {
    const Line& heading = lines[first].line;
    entry_ = Entry{};
    entry_.line = heading.number;
    entry_.begin = heading.begin;
    entry_.row.name = std::string(heading_text(heading.content));
    // Trailing blank lines belong to the gap; the heading is never blank.
    std::size_t last_filled = last - 1;
    while (detail::is_blank(lines[last_filled].line.content)) --last_filled;
    entry_.end = line_end(lines[last_filled].line);

    std::size_t i = first + 1;
    for (; i < last && !detail::is_blank(lines[i].line.content); ++i) read_field(lines[i].line);
    std::sort(entry_.row.links.begin(), entry_.row.links.end(), link_less);
    if (entry_.row.status && entry_.row.row_class != RowClass::thread) {
      invalid(status_line_,
              fmt::format("Status {} on a non-thread (class {})", name_of(*entry_.row.status),
                          name_of(entry_.row.row_class)));
    }

    // The body: every line after the blank line that ends the field block, LF-joined.
    entry_.body_begin = entry_.end;
    if (i < last && i < last_filled) {
      entry_.body_begin = line_end(lines[i].line);
      for (std::size_t j = i + 1; j <= last_filled; ++j) {
        if (j > i + 1) entry_.row.body += '\n';
        entry_.row.body += lines[j].line.content;
      }
    }
    if (strip_w(entry_.row.body).empty()) invalid(heading.number, "empty body");
    file_.entries.push_back(std::move(entry_));
  }

 private:
  void read_field(const Line& line) {
    const std::optional<KeyValue> kv = key_value(line.content);
    const std::optional<Field> field = kv ? field_of_key(kv->key) : std::nullopt;
    entry_.fields.push_back(
        FieldLine{.field = field, .line = line.number, .begin = line.begin, .end = line_end(line)});
    if (!kv) {
      invalid(line.number, "not a \"Key: value\" line");
      return;
    }
    if (!field) {
      file_.findings.push_back(make_finding(
          "MK-CUR-030", Severity::warning, std::string(path_),
          fmt::format("{}:{}: unknown field {} in entry {}, kept as it is", path_, line.number,
                      kv->key, entry_.row.name),
          "none needed; check the key's spelling if it was meant to be a known field"));
      return;
    }
    if (*field == Field::link) {
      read_link(line.number, kv->value);
      return;
    }
    const auto index = static_cast<std::size_t>(*field);
    if (seen_[index]) {
      invalid(line.number, fmt::format("duplicated field {}", kv->key));
      return;
    }
    seen_[index] = true;
    read_value(*field, line.number, kv->value);
  }

  void read_link(std::uint32_t number, std::string_view value) {
    std::optional<Link> link = parse_link(value);
    if (!link) {
      invalid(number, fmt::format("malformed Link line \"{}\" (expected <kind> <dst> <ts>)",
                                  to_valid_utf8(value)));
      return;
    }
    for (const Link& other : entry_.row.links) {
      if (other.kind == link->kind && other.dst == link->dst) {
        invalid(number, fmt::format("duplicated link {} {}", name_of(link->kind), link->dst));
        return;
      }
    }
    entry_.row.links.push_back(std::move(*link));
  }

  // Sets `out` to the parsed enum, or reports the value as invalid.
  template <class Enum>
  void read_enum(std::optional<Enum> parsed, Enum& out, std::uint32_t number, Field field,
                 std::string_view value) {
    if (parsed) {
      out = *parsed;
    } else {
      invalid(number, fmt::format("invalid {} \"{}\"", key_of(field), to_valid_utf8(value)));
    }
  }

  void read_value(Field field, std::uint32_t number, std::string_view value) {
    Row& row = entry_.row;
    switch (field) {
      case Field::type:
        read_enum(parse_row_type(value), row.type, number, field, value);
        return;
      case Field::row_class:
        read_enum(parse_row_class(value), row.row_class, number, field, value);
        return;
      case Field::status:
        status_line_ = number;
        if (const std::optional<RowStatus> status = parse_status(value)) {
          row.status = *status;
        } else {
          invalid(number, fmt::format("invalid {} \"{}\"", key_of(field), to_valid_utf8(value)));
        }
        return;
      case Field::audience:
        read_enum(parse_audience(value), row.audience, number, field, value);
        return;
      case Field::initiative:
        row.initiative = std::string(value);
        return;
      case Field::description:
        row.description = std::string(value);
        return;
      case Field::project_ref:
        row.project_ref = std::string(value);
        return;
      case Field::origin_session:
        row.origin_session = std::string(value);
        return;
      case Field::created:
        row.created = std::string(value);
        return;
      case Field::updated:
        row.updated = std::string(value);
        return;
      case Field::deleted:
        row.deleted = std::string(value);
        return;
      case Field::link:
        return;  // read_link
    }
  }

  void invalid(std::uint32_t number, std::string_view what) {
    entry_.valid = false;
    file_.findings.push_back(make_finding(
        "MK-CUR-004", Severity::error, std::string(path_),
        fmt::format("{}:{}: invalid entry {}: {}", path_, number, entry_.row.name, what),
        "fix the entry by hand; memkit refuses to write this file until then"));
  }

  std::string_view path_;
  RowFile& file_;
  Entry entry_;
  std::array<bool, kFields.size()> seen_{};
  std::uint32_t status_line_ = 0;
};

}  // namespace

RowFile parse_row_file(std::string_view bytes, std::string_view path) {
  RowFile file;
  const std::size_t content_begin = bytes.starts_with(kBom) ? kBom.size() : 0;
  // compaction.md §7.2: the first terminated line decides the terminator of new lines.
  const std::size_t lf = bytes.find('\n', content_begin);
  file.crlf = lf != std::string_view::npos && lf > content_begin && bytes[lf - 1] == '\r';

  const std::vector<FileLine> lines = read_lines(bytes, content_begin);
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_entry(lines, i)) starts.push_back(i);
  }
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t last = k + 1 < starts.size() ? starts[k + 1] : lines.size();
    EntryReader(path, file).read(lines, starts[k], last);
  }
  return file;
}

}  // namespace memkit::curated
