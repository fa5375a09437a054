// The entries of MemoryBox tier files and their field lines (spec memorybox.md §3).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <span>

#include "markdown/line_kinds.hpp"
#include "memkit/digest.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/text.hpp"

namespace memkit::memorybox {
namespace {

// A `Key: value` line (after `indent` bytes of indentation) set into `field`, its strings
// assigned so that a reused Field keeps their capacity; false (and `field` untouched) otherwise.
bool read_field(const Line& line, std::size_t indent, Field& field) {
  const std::string_view content = line.content.substr(indent);
  const std::size_t colon = content.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view key = content.substr(0, colon);
  if (!is_field_key(key)) return false;
  const std::string_view rest = content.substr(colon + 1);
  if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') return false;
  const std::size_t content_end = line.begin + line.content.size();
  field.key.assign(key);
  field.value.assign(strip_w(rest));
  field.line = line.number;
  field.begin = line.begin;
  field.indent = indent;
  field.content_end = content_end;
  field.end = content_end + line.terminator.size();
  return true;
}

// The same as a new Field, or nullopt.
std::optional<Field> field_of(const Line& line, std::size_t indent) {
  Field field{};
  if (!read_field(line, indent, field)) return std::nullopt;
  return field;
}

std::size_t line_end(const Line& line) noexcept {
  return line.begin + line.content.size() + line.terminator.size();
}

// "YYYY-MM-DD" at the start of a session heading's text, then the end, a space or an em dash.
bool is_session_heading_text(std::string_view text) noexcept {
  if (!parse_iso_date(text.substr(0, 10))) return false;
  const std::string_view rest = text.substr(10);
  return rest.empty() || rest[0] == ' ' || rest.rfind("\xE2\x80\x94", 0) == 0;
}

std::string entry_id(std::string_view path, std::string_view identity_key) {
  return std::string(path) + "#" + sha256_hex(identity_key).substr(0, 12);
}

// Entries carry a few fields each (Confidence, Verified, Updated, Id): room for four at once.
void add_field(Entry& entry, Field field) {
  if (entry.fields.empty()) entry.fields.reserve(4);
  entry.fields.push_back(std::move(field));
}

// Sets an entry's identity key and ID (§3).
void name_entry(Entry& entry, std::string_view path, std::string identity_key) {
  entry.identity_key = std::move(identity_key);
  entry.id = entry_id(path, entry.identity_key);
}

// Where the readers below hand each entry, in file order.
using Sink = std::function<void(Entry&)>;

// A section file's entry takes its Category field, else the file's stem (§3).
void set_section_file_category(std::string_view path, Entry& entry) {
  const std::optional<std::string_view> given = entry.field("Category");
  entry.category = std::string(given && !given->empty() ? *given : file_stem(path));
}

// Which of a file's entries a reader takes: part `part` of `parts` equal shares.
struct Share {
  std::size_t part = 0;
  std::size_t parts = 1;
};

// The bullet entries of `share` (bullets [from, to) of the file's, in order), each with the
// category the headings before it give.
void read_bullets(std::string_view path, const Document& doc, bool named, const Sink& out,
                  Share share = {}, const BulletSkip* skip = nullptr) {
  const std::span<const Unit> units = doc.units();
  std::size_t from = 0;
  std::size_t to = std::numeric_limits<std::size_t>::max();
  if (share.parts > 1) {
    const auto bullets = static_cast<std::size_t>(std::count_if(
        units.begin(), units.end(), [](const Unit& u) { return u.kind == UnitKind::bullet_unit; }));
    from = bullets * share.part / share.parts;
    to = bullets * (share.part + 1) / share.parts;
  }
  std::size_t bullet = 0;         // the ordinal of the next bullet unit
  std::optional<std::string> h2;  // the enclosing H2's text, then " / " and the H3's
  std::size_t h2_size = 0;
  // One entry reused from bullet to bullet: its strings and field list keep their capacity, so
  // a file of uniform entries is read without an allocation per entry (unless `out` takes them).
  Entry entry;
  std::string joined;
  // The headings before the share set the category its first bullets have.
  for (const Unit& unit : units) {
    if (unit.kind == UnitKind::heading) {
      Line line{};
      LineCursor cursor = doc.lines(unit);
      cursor.next(line);
      const std::string_view text = heading_text(line.content);
      if (unit.heading_level == 1) {
        h2.reset();
      } else if (unit.heading_level == 2) {
        h2 = std::string(text);
        h2_size = h2->size();
      } else if (unit.heading_level == 3 && h2) {
        h2->resize(h2_size);
        h2->append(" / ").append(text);
      }
      continue;
    }
    if (unit.kind != UnitKind::bullet_unit) continue;
    if (bullet == to) break;
    if (bullet++ < from) continue;
    entry.kind = EntryKind::bullet;
    entry.id.clear();
    entry.identity_key.clear();
    entry.first_line = unit.first_line;
    entry.last_line = unit.last_line;
    entry.begin = unit.begin;
    entry.end = unit.end;
    if (skip != nullptr && (*skip)(unit.begin, unit.end, h2)) continue;
    if (!h2) {
      entry.category.reset();
    } else if (entry.category != h2) {
      entry.category = *h2;
    }
    std::size_t fields = 0;
    joined.clear();
    LineCursor cursor = doc.lines(unit);
    Line line{};
    bool first = true;
    while (cursor.next(line)) {
      if (first) {
        if (named) joined.append(strip_w(line.content.substr(2)));
        entry.first_line_end = line_end(line);
        first = false;
        continue;
      }
      const std::string_view c = line.content;
      const bool indented = c.rfind("  ", 0) == 0 || c.rfind("\t", 0) == 0;
      if (indented) {
        if (fields == entry.fields.size()) {
          if (entry.fields.empty()) entry.fields.reserve(4);
          entry.fields.emplace_back();
        }
        if (read_field(line, c.size() - lstrip_w(c).size(), entry.fields[fields])) {
          ++fields;
          continue;
        }
      }
      if (!named) continue;
      joined.push_back('\n');
      joined.append(rstrip_w(c));
    }
    entry.fields.resize(fields);
    if (named) name_entry(entry, path, casefold(strip_w(joined)));
    out(entry);
  }
}

void read_sections(std::string_view path, const Document& doc, bool named, const Sink& out) {
  for (const Section& section : doc.sections()) {
    if (section.kind != SectionKind::section) continue;
    Entry entry;
    entry.kind = EntryKind::section;
    entry.first_line = section.first_line;
    entry.last_line = section.last_line;
    entry.begin = section.begin;
    entry.end = section.end;
    if (named) name_entry(entry, path, casefold(*section_heading(doc, section)));
    for_each_visible_line(doc, section, [&](const Line& line) {
      if (line.number == section.first_line) {
        entry.first_line_end = line_end(line);
        return;
      }
      if (std::optional<Field> field = field_of(line, 0)) add_field(entry, std::move(*field));
    });
    out(entry);
  }
}

void read_sessions(std::string_view path, const Document& doc, bool named, const Sink& out) {
  Entry open;  // the session entry being read, when is_open
  bool is_open = false;
  std::uint32_t last_non_blank = 0;
  std::size_t last_non_blank_end = 0;
  auto close = [&] {
    if (!is_open) return;
    open.last_line = std::max(open.first_line, last_non_blank);
    open.end = last_non_blank_end;
    out(open);
    open = Entry{};
    is_open = false;
  };
  // One walk over every line; lines inside fences and comments are text, never headings.
  detail::RegionTracker regions;
  LineCursor cursor = doc.lines();
  Line line{};
  while (cursor.next(line)) {
    const std::string_view c = line.content;
    const bool opaque = regions.is_opaque(c);
    if (!opaque) {
      const int level = detail::heading_level(c);
      if (level == 1 || level == 2) {
        close();
        continue;
      }
      if (level == 3 && is_session_heading_text(heading_text(c))) {
        close();
        open.kind = EntryKind::session;
        open.first_line = line.number;
        open.begin = line.begin;
        open.first_line_end = line_end(line);
        if (named) name_entry(open, path, "session:" + casefold(heading_text(c)));
        is_open = true;
        last_non_blank = line.number;
        last_non_blank_end = line_end(line);
        continue;
      }
    }
    if (is_open && !detail::is_blank(c)) {
      last_non_blank = line.number;
      last_non_blank_end = line_end(line);
      if (!opaque) {
        if (std::optional<Field> field = field_of(line, 0)) add_field(open, std::move(*field));
      }
    }
  }
  close();
}

}  // namespace

std::string format_hundredths(std::uint32_t hundredths) {
  return fmt::format("{}.{:02}", hundredths / 100, hundredths % 100);
}

std::string_view file_name(std::string_view path) noexcept {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view file_stem(std::string_view path) noexcept {
  std::string_view name = file_name(path);
  if (name.size() > 3 && name.substr(name.size() - 3) == ".md") name.remove_suffix(3);
  return name;
}

bool is_section_file(std::string_view path) noexcept {
  const std::string_view name = file_name(path);
  return name == "SOP_LIBRARY.md" || name == "PATTERNS.md" || name == "MISTAKES.md" ||
         name == "DECISIONS.md";
}

bool is_field_key(std::string_view key) noexcept {
  return std::find(kFieldOrder.begin(), kFieldOrder.end(), key) != kFieldOrder.end();
}

std::optional<std::string_view> Entry::field(std::string_view key) const noexcept {
  for (const Field& f : fields) {
    if (f.key == key) return std::string_view(f.value);
  }
  return std::nullopt;
}

namespace {

// The entries of `share` of the file: a file of bullets is shared out bullet by bullet; any other
// file's entries all go to the first part.
void read_tier_entries(std::string_view path, const Document& doc, bool named, const Sink& out,
                       Share share = {}, const BulletSkip* skip = nullptr) {
  const std::string_view name = file_name(path);
  const bool first = share.part == 0;
  if (path.rfind("memory/daily/", 0) == 0) {
    const std::optional<CivilDate> date = daily_date(name);
    if (!date || !first) return;
    Entry entry;
    entry.kind = EntryKind::daily;
    entry.first_line = doc.line_count() == 0 ? 0 : 1;
    entry.last_line = doc.line_count();
    entry.begin = doc.content_begin();
    entry.end = doc.bytes().size();
    if (named) name_entry(entry, path, "daily:" + std::string(name.substr(0, 10)));
    Line line{};
    LineCursor cursor = doc.lines();
    if (cursor.next(line)) {
      if (std::optional<Field> field = field_of(line, 0); field && field->key == "Id") {
        add_field(entry, std::move(*field));
      }
    }
    out(entry);
    return;
  }
  if (name == "SESSION_LOG.md") {
    if (first) read_sessions(path, doc, named, out);
    return;
  }
  if (!is_section_file(name)) {
    read_bullets(path, doc, named, out, share, skip);
    return;
  }
  const Sink categorised = [&](Entry& entry) {
    set_section_file_category(path, entry);
    out(entry);
  };
  const bool has_h2 = std::any_of(doc.sections().begin(), doc.sections().end(),
                                  [](const Section& s) { return s.kind == SectionKind::section; });
  if (!has_h2) {
    read_bullets(path, doc, named, categorised, share);
  } else if (first) {
    read_sections(path, doc, named, categorised);
  }
}

}  // namespace

std::vector<Entry> read_entries(std::string_view path, const Document& doc) {
  std::vector<Entry> entries;
  read_tier_entries(path, doc, true, [&](Entry& entry) { entries.push_back(std::move(entry)); });
  return entries;
}

void visit_entry_layout(std::string_view path, const Document& doc,
                        const std::function<void(Entry&)>& visit) {
  read_tier_entries(path, doc, false, visit);
}

void visit_entry_layout(std::string_view path, const Document& doc, std::size_t share,
                        std::size_t shares, const std::function<void(Entry&)>& visit) {
  read_tier_entries(path, doc, false, visit, Share{share, shares});
}

void visit_entry_layout(std::string_view path, const Document& doc, std::size_t share,
                        std::size_t shares, const std::function<void(Entry&)>& visit,
                        const BulletSkip& skip) {
  read_tier_entries(path, doc, false, visit, Share{share, shares}, &skip);
}

}  // namespace memkit::memorybox
