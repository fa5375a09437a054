// Archive files of MemoryBox (spec memorybox.md §7 "Archive files"): names, the canonical
// preamble of compaction.md §10 and where moved entries go, as splices over the archive's bytes.
#include <fmt/format.h>

#include <algorithm>

#include "markdown/line_kinds.hpp"
#include "memkit/compact.hpp"
#include "memkit/memorybox/moves.hpp"
#include "memkit/text.hpp"
#include "memorybox/move_set.hpp"

namespace memkit::memorybox {
namespace {

// An entry already in the archive: where it starts and, in dated layouts, its date.
struct Existing {
  std::size_t begin;
  std::optional<CivilDate> date;
};

// Where the archive's entries start (the end of the text before its first entry, §10 step 1)
// and, for the dated layouts, the entries new ones are ordered against.
struct ArchiveShape {
  std::size_t first_entry;
  std::vector<Existing> dated;
};

bool before(const CivilDate& a, const CivilDate& b) noexcept { return days_between(a, b) > 0; }

ArchiveShape shape_of(const Document& doc, ArchiveLayout layout) {
  ArchiveShape shape{doc.bytes().size(), {}};
  if (layout == ArchiveLayout::sessions) {
    // The same reading as SESSION_LOG.md: an archived session is still a session entry.
    for (const Entry& e : read_entries("memory/SESSION_LOG.md", doc)) {
      shape.dated.push_back(Existing{e.begin, detail::session_date(doc, e)});
    }
    if (!shape.dated.empty()) shape.first_entry = shape.dated.front().begin;
    return shape;
  }
  if (layout == ArchiveLayout::daily) {
    for (const Section& s : doc.sections()) {
      if (s.kind != SectionKind::section) continue;
      const std::string_view heading = *section_heading(doc, s);
      shape.first_entry = std::min(shape.first_entry, s.begin);
      if (heading.size() == 10) shape.dated.push_back(Existing{s.begin, parse_iso_date(heading)});
    }
    return shape;
  }
  for (const Unit& u : doc.units()) {
    if (u.kind == UnitKind::bullet_unit || (u.kind == UnitKind::heading && u.heading_level == 2)) {
      shape.first_entry = u.begin;
      break;
    }
  }
  return shape;
}

// Returns true iff the line that ends just before `pos` (a line start) exists after
// `content_begin` and is not blank.
bool non_blank_line_before(std::string_view bytes, std::size_t content_begin, std::size_t pos) {
  if (pos <= content_begin) return false;
  const std::size_t lf = pos - 1;
  std::size_t start = content_begin;
  if (lf > content_begin) {
    const std::size_t previous = bytes.rfind('\n', lf - 1);
    if (previous != std::string_view::npos && previous >= content_begin) start = previous + 1;
  }
  std::string_view content = bytes.substr(start, lf - start);
  if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
  return !memkit::detail::is_blank(content);
}

// The offset just past the last non-blank line at or after `from` (its terminator included), or
// `from` when every line there is blank.
std::size_t last_non_blank_end(std::string_view bytes, std::size_t from) {
  std::size_t end = from;
  LineCursor cursor(bytes, from, bytes.size(), 1);
  Line line{};
  while (cursor.next(line)) {
    if (!memkit::detail::is_blank(line.content)) {
      end = line.begin + line.content.size() + line.terminator.size();
    }
  }
  return end;
}

// One archived entry as it is written: its bytes, always terminated.
std::string block_of(const ArchivedEntry& entry, ArchiveLayout layout, std::string_view t) {
  std::string block;
  if (layout == ArchiveLayout::daily) {
    // OUR DECISION for an empty day: the heading alone, so entries stay one empty line apart.
    block = fmt::format("## {:04}-{:02}-{:02}", entry.date.year, entry.date.month, entry.date.day);
    block += t;
    if (!entry.bytes.empty()) block += t;
  }
  block.append(entry.bytes);
  if (!block.empty() && block.back() != '\n') block += t;
  return block;
}

// Blocks one empty line apart.
std::string joined(const std::vector<std::string>& blocks, std::string_view t) {
  std::string out;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (i > 0) out += t;
    out += blocks[i];
  }
  return out;
}

// §10 step 1: the canonical preamble, followed by the existing text before the first entry when
// that text is not memkit's own, so that nothing drops.
std::string head_of(std::string_view preamble, std::string_view label, std::string_view t) {
  std::string head = archive_file_bytes(nullptr, label, {}, t);  // the canonical preamble alone
  const std::string title = "# Archived Memory: " + std::string(label);
  std::string_view first = preamble.substr(0, preamble.find('\n'));
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  if (first == title || strip_w(preamble).empty()) return head;
  head.append(preamble);
  if (head.back() != '\n') head += t;
  if (non_blank_line_before(head, 0, head.size())) head += t;
  return head;
}

}  // namespace

std::string archive_stem(std::string_view source_path) {
  if (source_path == "memory/SESSION_LOG.md") return "sessions";
  if (source_path == "memory/ACTIVE_TASKS.md") return "tasks";
  if (source_path.rfind("memory/daily/", 0) == 0) return "daily";
  std::string stem(file_stem(source_path));
  for (char& c : stem) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return stem;
}

std::string archive_path(std::string_view source_path, const CivilDate& month) {
  return fmt::format("{}/{}-{:04}-{:02}.md", kArchiveFolder, archive_stem(source_path), month.year,
                     month.month);
}

std::vector<Splice> archive_splices(const Document* existing, std::string_view source_label,
                                    ArchiveLayout layout, std::span<const ArchivedEntry> entries,
                                    std::string_view new_terminator) {
  const std::string_view t = existing != nullptr ? new_line_terminator(*existing) : new_terminator;
  const std::string_view bytes = existing != nullptr ? existing->bytes() : std::string_view();
  const std::size_t content_begin = existing != nullptr ? existing->content_begin() : 0;
  const ArchiveShape shape =
      existing != nullptr ? shape_of(*existing, layout) : ArchiveShape{0, {}};

  // Each new entry goes before the first archived one with a later date (dated layouts), or to
  // the end; entries bound for one place keep their order, which is by date where dates count.
  std::vector<ArchivedEntry> ordered(entries.begin(), entries.end());
  if (layout != ArchiveLayout::appended) {
    std::stable_sort(
        ordered.begin(), ordered.end(),
        [](const ArchivedEntry& a, const ArchivedEntry& b) { return before(a.date, b.date); });
  }
  std::vector<std::vector<std::string>> at(shape.dated.size() + 1);  // the last: the end
  for (const ArchivedEntry& entry : ordered) {
    std::size_t place = shape.dated.size();
    if (layout != ArchiveLayout::appended) {
      for (std::size_t i = 0; i < shape.dated.size(); ++i) {
        if (shape.dated[i].date && before(entry.date, *shape.dated[i].date)) {
          place = i;
          break;
        }
      }
    }
    at[place].push_back(block_of(entry, layout, t));
  }

  std::string head =
      head_of(bytes.substr(content_begin, shape.first_entry - content_begin), source_label, t);
  std::vector<Splice> splices;
  std::vector<Splice> inserts;
  for (std::size_t i = 0; i < shape.dated.size(); ++i) {
    if (at[i].empty()) continue;
    const std::size_t pos = shape.dated[i].begin;
    std::string text = joined(at[i], t) + std::string(t);  // the archived entry follows
    if (pos == shape.first_entry) {
      head += text;  // the head ends with its empty line
      continue;
    }
    if (non_blank_line_before(bytes, content_begin, pos)) text.insert(0, t);
    inserts.push_back(Splice{pos, pos, std::move(text)});
  }
  if (!at.back().empty()) {
    if (shape.first_entry == bytes.size()) {
      head += joined(at.back(), t);  // no entry yet: they follow the head
    } else {
      // compaction.md §7.3 append: after the last non-blank line, one empty line first.
      const std::size_t end = last_non_blank_end(bytes, shape.first_entry);
      std::string text = bytes[end - 1] == '\n' ? std::string(t) : std::string(t) + std::string(t);
      text += joined(at.back(), t);
      inserts.push_back(Splice{end, end, std::move(text)});
    }
  }
  splices.push_back(Splice{content_begin, shape.first_entry, std::move(head)});
  splices.insert(splices.end(), std::make_move_iterator(inserts.begin()),
                 std::make_move_iterator(inserts.end()));
  return splices;
}

}  // namespace memkit::memorybox
