// Reading a row file (spec curated.md §4): the entries are found by their heading and `Type:` line,
// and each is read into a Row together with the offsets of its lines, so that a write can touch
// exactly the lines it changes and every other byte stays as it is (compaction.md §2.1).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "curated/write_plan.hpp"
#include "markdown/line_kinds.hpp"
#include "memkit/curated.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

constexpr std::string_view kTypePrefix = "Type: ";

std::size_t line_end(const Line& line) noexcept {
  return line.begin + line.content.size() + line.terminator.size();
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
  // Asked once per field line: key_of's words are gathered once, not looked up per comparison.
  static const std::array<std::string_view, kFields.size()> kKeys = [] {
    std::array<std::string_view, kFields.size()> keys{};
    for (std::size_t i = 0; i < kFields.size(); ++i) keys[i] = key_of(kFields[i]);
    return keys;
  }();
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    if (kKeys[i] == key) return kFields[i];
  }
  return std::nullopt;
}

// The lines of `text` (whole lines of the file, the last one without its terminator) joined with
// LF: a CR before an LF is part of a CRLF terminator, never content (compaction.md §2.1).
std::string lf_joined(std::string_view text) {
  if (text.find('\r') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
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

// Reads the entries of a file into `file`, fed one line at a time: start() at each entry's heading,
// line() for every later line up to the next heading, finish() after the last one. Nothing is
// kept per line: the body is one byte range of the file, cut out when the entry ends.
class EntryReader final {
 public:
  EntryReader(std::string_view bytes, std::string_view path, RowFile& file)
      : bytes_(bytes), path_(path), file_(file) {}

  [[nodiscard]] bool active() const noexcept { return active_; }

  void start(const Line& heading) {
    entry_ = Entry{};
    // A generated entry has about a dozen field lines: one allocation instead of five.
    entry_.fields.reserve(kFields.size() + 4);
    entry_.line = heading.number;
    entry_.begin = heading.begin;
    entry_.row.name = std::string(heading_text(heading.content));
    // Trailing blank lines belong to the gap; the heading is never blank.
    entry_.end = line_end(heading);
    in_fields_ = true;
    blank_end_ = 0;
    body_first_ = std::nullopt;
    body_last_ = std::nullopt;
    seen_ = {};
    status_line_ = 0;
    active_ = true;
  }

  // The field block is the lines up to the first blank one; the body every line after that
  // blank line, up to the entry's last non-blank line.
  void line(const Line& line) {
    const bool blank = detail::is_blank(line.content);
    if (in_fields_) {
      if (blank) {
        in_fields_ = false;
        blank_end_ = line_end(line);
      } else {
        read_field(line);
        entry_.end = line_end(line);
      }
      return;
    }
    if (!body_first_) body_first_ = line.begin;
    if (!blank) {
      body_last_ = line.begin + line.content.size();
      entry_.end = line_end(line);
    }
  }

  void finish() {
    if (!active_) return;
    active_ = false;
    std::sort(entry_.row.links.begin(), entry_.row.links.end(), link_less);
    if (entry_.row.status && entry_.row.row_class != RowClass::thread) {
      invalid(status_line_,
              fmt::format("Status {} on a non-thread (class {})", name_of(*entry_.row.status),
                          name_of(entry_.row.row_class)));
    }
    // The body: every line after the blank line that ends the field block, LF-joined.
    entry_.body_begin = entry_.end;
    if (body_last_) {
      entry_.body_begin = blank_end_;
      entry_.row.body = lf_joined(bytes_.substr(*body_first_, *body_last_ - *body_first_));
    }
    if (strip_w(entry_.row.body).empty()) invalid(entry_.line, "empty body");
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

  std::string_view bytes_;
  std::string_view path_;
  RowFile& file_;
  Entry entry_;
  bool active_ = false;
  bool in_fields_ = true;
  std::size_t blank_end_ = 0;              // just past the blank line ending the field block
  std::optional<std::size_t> body_first_;  // the offset of the line after that blank line
  std::optional<std::size_t> body_last_;   // the end of the body's last non-blank content
  std::array<bool, kFields.size()> seen_{};
  std::uint32_t status_line_ = 0;
};

}  // namespace

RowFile parse_row_file(std::string_view bytes, std::string_view path) {
  RowFile file;
  const std::size_t content_begin = bom_size(bytes);
  // compaction.md §7.2: the first terminated line decides the terminator of new lines.
  const std::size_t lf = bytes.find('\n', content_begin);
  file.crlf = lf != std::string_view::npos && lf > content_begin && bytes[lf - 1] == '\r';

  // compaction.md §2.3: front matter (a first line "---" up to its closing "---" or "...") is
  // opaque, and so is the inside of a fence or a comment after it: a `## x` there is text, never
  // an entry heading.
  std::uint32_t front_matter_last = 0;  // the closing line's number; 0: no front matter
  Line line{};
  {
    LineCursor probe(bytes, content_begin, bytes.size(), 1);
    if (probe.next(line) && detail::equals_trimmed(line.content, "---")) {
      while (probe.next(line)) {
        if (detail::equals_trimmed(line.content, "---") ||
            detail::equals_trimmed(line.content, "...")) {
          front_matter_last = line.number;
          break;
        }
      }
    }
  }
  // §4 "Entry boundary": a non-opaque column-0 `## <slug>` line directly followed by a line
  // beginning "Type: ". Each line is held back until the next one is read, which decides
  // whether it starts an entry or belongs to the entry before it.
  // Room for every entry at once: an entry starts at a line "Type: ...", so their count is at most
  // that of "\nType: " (entries are moved, fields and all, each time the vector grows).
  {
    std::size_t types = 0;
    for (std::size_t at = bytes.find("\nType: "); at != std::string_view::npos;
         at = bytes.find("\nType: ", at + 1)) {
      ++types;
    }
    file.entries.reserve(types);
  }
  EntryReader reader(bytes, path, file);
  detail::RegionTracker regions;
  LineCursor cursor(bytes, content_begin, bytes.size(), 1);
  Line held{};
  bool holding = false;
  bool held_opaque = false;
  Line last_visible{};  // an opener is visible and every line after it opaque
  while (cursor.next(line)) {
    const bool opaque = line.number <= front_matter_last || regions.is_opaque(line.content);
    if (!opaque) last_visible = line;
    if (holding) {
      // The heading alone decides (shared with the body rules), so a body may hold
      // `## Symptom` followed by `Type: `.
      if (!held_opaque && line.content.starts_with(kTypePrefix) && is_entry_heading(held.content)) {
        reader.finish();
        reader.start(held);
      } else if (reader.active()) {
        reader.line(held);
      }
    }
    held = line;
    held_opaque = opaque;
    holding = true;
  }
  if (holding && reader.active()) reader.line(held);
  reader.finish();
  // An empty line neither opens nor closes a region: it reads as opaque only inside one.
  if (regions.is_opaque("")) {
    const TextIssue issue{.problem = detail::fence_opener(last_visible.content).fence_char != 0
                                         ? TextProblem::unclosed_fence
                                         : TextProblem::unclosed_comment,
                          .line = last_visible.number};
    file.parse_error = make_finding("MK-PARSE-001", Severity::error, std::string(path),
                                    describe_issue(issue, path),
                                    "close the fence or comment; memkit will not change this file");
  }
  return file;
}

namespace write_detail {

namespace {

void shift(Entry& entry, std::ptrdiff_t bytes, std::int64_t lines) {
  // Modular arithmetic: a negative shift wraps back to the smaller offset.
  auto moved = [&](std::size_t at) { return at + static_cast<std::size_t>(bytes); };
  entry.begin = moved(entry.begin);
  entry.end = moved(entry.end);
  entry.body_begin = moved(entry.body_begin);
  entry.line = static_cast<std::uint32_t>(entry.line + lines);
  for (FieldLine& field : entry.fields) {
    field.begin = moved(field.begin);
    field.end = moved(field.end);
    field.line = static_cast<std::uint32_t>(field.line + lines);
  }
}

}  // namespace

bool update_row_file(RowFile& file, std::string_view before, std::string_view after,
                     const std::vector<Splice>& splices, std::string_view path) {
  if (splices.empty()) return true;
  // Findings name lines, which a shift would leave behind: only a clean file is updated.
  if (!file.findings.empty() || file.parse_error) return false;
  // The region, as Planner::finish takes it: from the start of the entry the first splice falls
  // in (or the file's) to the start of the first entry at or after the last splice's end (or the
  // file's end). Entries are indexed [first, last).
  std::size_t first = 0;
  std::size_t last = file.entries.size();
  std::size_t lo = 0;
  std::size_t hi = before.size();
  for (std::size_t i = 0; i < file.entries.size(); ++i) {
    const Entry& entry = file.entries[i];
    if (entry.begin <= splices.front().begin) {
      lo = entry.begin;
      first = i;
    }
    if (entry.begin >= splices.back().end) {
      hi = entry.begin;
      last = i;
      break;
    }
  }
  if (lo == 0) first = 0;
  const auto delta = static_cast<std::ptrdiff_t>(after.size()) -
                     static_cast<std::ptrdiff_t>(before.size());
  const std::string_view region =
      after.substr(lo, static_cast<std::size_t>(static_cast<std::ptrdiff_t>(hi) + delta) - lo);
  // The next entry must still start a line of its own.
  if (hi < before.size() && !region.empty() && region.back() != '\n') return false;
  RowFile parsed = parse_row_file(region, path);
  if (!parsed.findings.empty() || parsed.parse_error) return false;

  const std::int64_t line_base = lo == 0 ? 0 : std::int64_t{file.entries[first].line} - 1;
  const std::string_view old_region = before.substr(lo, hi - lo);
  const std::int64_t line_delta =
      static_cast<std::int64_t>(std::count(region.begin(), region.end(), '\n')) -
      static_cast<std::int64_t>(std::count(old_region.begin(), old_region.end(), '\n'));
  for (Entry& entry : parsed.entries) shift(entry, static_cast<std::ptrdiff_t>(lo), line_base);
  for (std::size_t i = last; i < file.entries.size(); ++i) {
    shift(file.entries[i], delta, line_delta);
  }
  const auto at = file.entries.erase(file.entries.begin() + static_cast<std::ptrdiff_t>(first),
                                     file.entries.begin() + static_cast<std::ptrdiff_t>(last));
  file.entries.insert(at, std::make_move_iterator(parsed.entries.begin()),
                      std::make_move_iterator(parsed.entries.end()));
  // compaction.md §7.2: the first terminated line decides (it may have been in the region).
  const std::size_t content_begin = bom_size(after);
  const std::size_t lf = after.find('\n', content_begin);
  file.crlf = lf != std::string_view::npos && lf > content_begin && after[lf - 1] == '\r';
  return true;
}

}  // namespace write_detail

}  // namespace memkit::curated
