// Removal (spec compaction.md §7.1), terminators for new lines (§7.2) and insertion (§7.3).
// Blank lines next to a unit always form one `blank` unit of the partition, so the gap rules
// read them off the neighbouring units.
#include "memkit/edit.hpp"

#include "markdown/line_kinds.hpp"

namespace memkit {
namespace {

bool is_blank_unit(const Unit& unit) noexcept { return unit.kind == UnitKind::blank; }

std::string joined(std::span<const std::string> lines, std::string_view terminator) {
  std::string out;
  for (const std::string& line : lines) {
    out += line;
    out += terminator;
  }
  return out;
}

// Returns true iff the unit's last line has no terminator (it ends the file without LF).
bool ends_unterminated(const Document& doc, const Unit& unit) noexcept {
  return unit.end == doc.bytes().size() && (unit.end == 0 || doc.bytes()[unit.end - 1] != '\n');
}

// The end of the blank lines that start at `pos` (pos itself when the line there is not blank).
std::size_t blank_lines_after(std::string_view bytes, std::size_t pos) noexcept {
  LineCursor cursor(bytes, pos, bytes.size(), 1);
  Line line{};
  while (cursor.next(line) && detail::is_blank(line.content)) {
    pos = line.begin + line.content.size() + line.terminator.size();
  }
  return pos;
}

// The start of the blank lines that end at `pos`, a line start (pos itself when the line before
// is not blank, or there is none).
std::size_t blank_lines_before(std::string_view bytes, std::size_t content_begin,
                               std::size_t pos) noexcept {
  while (pos > content_begin) {
    const std::size_t lf = pos - 1;  // the line before ends with this LF
    std::size_t start = content_begin;
    if (lf > content_begin) {
      const std::size_t previous = bytes.rfind('\n', lf - 1);
      if (previous != std::string_view::npos && previous >= content_begin) start = previous + 1;
    }
    std::string_view content = bytes.substr(start, lf - start);
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    if (!detail::is_blank(content)) break;
    pos = start;
  }
  return pos;
}

}  // namespace

std::vector<Splice> removal_splices(const Document& doc, std::span<const UnitSpan> spans) {
  const std::span<const Unit> units = doc.units();
  std::vector<ByteRange> ranges;
  ranges.reserve(spans.size());
  for (const UnitSpan& span : spans) {
    ranges.push_back(ByteRange{units[span.first_unit].begin, units[span.last_unit].end});
  }
  return removal_splices(doc.bytes(), doc.content_begin(), ranges);
}

std::vector<Splice> removal_splices(std::string_view bytes, std::size_t content_begin,
                                    std::span<const ByteRange> removed) {
  std::vector<Splice> splices;
  std::size_t i = 0;
  while (i < removed.size()) {
    // A run: ranges separated only by blank lines.
    const std::size_t first = removed[i].begin;
    std::size_t last = removed[i].end;
    std::size_t gap_end = blank_lines_after(bytes, last);
    for (++i; i < removed.size() && removed[i].begin == gap_end; ++i) {
      last = removed[i].end;
      gap_end = blank_lines_after(bytes, last);
    }
    const std::size_t gap_begin = blank_lines_before(bytes, content_begin, first);
    const bool has_before = gap_begin < first;
    std::size_t begin = first;
    std::size_t end = last;
    if (gap_end == bytes.size()) {  // the run reaches the end: delete B, S and A
      begin = gap_begin;
      end = gap_end;
    } else if (has_before) {  // delete S and A; B remains the separator
      end = gap_end;
    }  // else delete S only; A remains the separator
    splices.push_back(Splice{begin, end, {}});
  }
  return splices;
}

std::string_view new_line_terminator(const Document& doc) noexcept {
  const std::string_view bytes = doc.bytes();
  const std::size_t lf = bytes.find('\n', doc.content_begin());
  if (lf != std::string_view::npos && lf > doc.content_begin() && bytes[lf - 1] == '\r') {
    return "\r\n";
  }
  return "\n";
}

Splice insert_before(const Document& doc, std::size_t unit_index,
                     std::span<const std::string> lines) {
  const std::span<const Unit> units = doc.units();
  const std::string_view t = new_line_terminator(doc);
  const Unit& at = units[unit_index];
  std::string block;
  // The last line of every non-blank unit is non-blank, so neighbours decide by unit kind.
  if (unit_index > 0 && !is_blank_unit(units[unit_index - 1])) block += t;
  block += joined(lines, t);
  if (!is_blank_unit(at)) block += t;
  return Splice{at.begin, at.begin, std::move(block)};
}

Splice append_bytes(const Document& doc, std::string_view block, bool bullet) {
  const std::span<const Unit> units = doc.units();
  const std::string_view t = new_line_terminator(doc);
  std::string text(block);
  if (!text.empty() && text.back() != '\n') text += t;
  std::size_t k = units.size();
  while (k > 0 && is_blank_unit(units[k - 1])) --k;
  if (k == 0) {  // empty, or only blank lines: the block goes first, after the BOM
    return Splice{doc.content_begin(), doc.content_begin(), std::move(text)};
  }
  const Unit& last = units[k - 1];
  std::string prefix;
  if (ends_unterminated(doc, last)) prefix += t;  // the one change memkit makes to a kept line
  const bool tight = bullet && last.kind == UnitKind::bullet_unit;
  if (!tight) prefix += t;
  return Splice{last.end, last.end, prefix + text};
}

Splice append_block(const Document& doc, std::span<const std::string> lines, bool bullet) {
  return append_bytes(doc, joined(lines, new_line_terminator(doc)), bullet);
}

Splice insert_after(const Document& doc, std::size_t unit_index,
                    std::span<const std::string> lines) {
  const Unit& unit = doc.units()[unit_index];
  const std::string_view t = new_line_terminator(doc);
  std::string block;
  if (ends_unterminated(doc, unit)) block += t;
  block += joined(lines, t);
  return Splice{unit.end, unit.end, std::move(block)};
}

Splice insert_into_section(const Document& doc, std::size_t section_index,
                           std::span<const std::string> lines) {
  const std::span<const Unit> units = doc.units();
  const Section& section = doc.sections()[section_index];
  const std::string_view t = new_line_terminator(doc);
  for (std::size_t u = section.first_unit; u < section.first_unit + section.unit_count; ++u) {
    if (units[u].kind == UnitKind::bullet_unit) {
      return Splice{units[u].begin, units[u].begin, joined(lines, t)};
    }
  }
  return insert_after(doc, section.first_unit, lines);
}

Splice insert_entry(const Document& doc, std::span<const std::string> lines) {
  const std::span<const Unit> units = doc.units();
  std::size_t u = 0;
  if (!units.empty() && units[0].kind == UnitKind::heading && units[0].heading_level == 1) u = 1;
  for (; u < units.size(); ++u) {
    const bool h2 = units[u].kind == UnitKind::heading && units[u].heading_level == 2;
    if (h2 || units[u].kind == UnitKind::bullet_unit) return insert_before(doc, u, lines);
  }
  return append_block(doc, lines, false);
}

std::vector<std::string_view> splice_pieces(std::string_view bytes,
                                            std::span<const Splice> splices) {
  std::vector<std::string_view> pieces;
  pieces.reserve(2 * splices.size() + 1);
  std::size_t at = 0;
  for (const Splice& s : splices) {
    if (s.begin > at) pieces.push_back(bytes.substr(at, s.begin - at));
    if (!s.insert.empty()) pieces.emplace_back(s.insert);
    at = s.end;
  }
  if (at < bytes.size()) pieces.push_back(bytes.substr(at));
  return pieces;
}

std::string apply_splices(std::string_view bytes, std::span<const Splice> splices) {
  const std::vector<std::string_view> pieces = splice_pieces(bytes, splices);
  std::size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string out;
  out.reserve(size);
  for (std::string_view piece : pieces) out.append(piece);
  return out;
}

Sha256 sha256_of_splices(std::string_view bytes, std::span<const Splice> splices) {
  Sha256Hasher hasher;
  for (std::string_view piece : splice_pieces(bytes, splices)) hasher.update(piece);
  return hasher.finish();
}

}  // namespace memkit
