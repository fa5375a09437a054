// Removal (spec compaction.md §7.1), terminators for new lines (§7.2) and insertion (§7.3).
// Blank lines next to a unit always form one `blank` unit of the partition, so the gap rules
// read them off the neighbouring units.
#include "memkit/edit.hpp"

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

}  // namespace

std::vector<Splice> removal_splices(const Document& doc, std::span<const UnitSpan> spans) {
  const std::span<const Unit> units = doc.units();
  std::vector<Splice> splices;
  std::size_t i = 0;
  while (i < spans.size()) {
    // A run: spans separated only by blank units.
    const std::size_t first = spans[i].first_unit;
    std::size_t last = spans[i].last_unit;
    for (++i; i < spans.size(); ++i) {
      bool only_blank_between = true;
      for (std::size_t u = last + 1; u < spans[i].first_unit; ++u) {
        only_blank_between = only_blank_between && is_blank_unit(units[u]);
      }
      if (!only_blank_between) break;
      last = spans[i].last_unit;
    }
    const bool has_before = first > 0 && is_blank_unit(units[first - 1]);
    const bool has_after = last + 1 < units.size() && is_blank_unit(units[last + 1]);
    const std::size_t after_gap = has_after ? last + 2 : last + 1;
    const bool reaches_end = after_gap >= units.size();
    std::size_t begin = units[first].begin;
    std::size_t end = units[last].end;
    if (reaches_end) {  // delete B, S and A
      if (has_before) begin = units[first - 1].begin;
      if (has_after) end = units[last + 1].end;
    } else if (has_before) {  // delete S and A; B remains the separator
      if (has_after) end = units[last + 1].end;
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

Splice append_block(const Document& doc, std::span<const std::string> lines, bool bullet) {
  const std::span<const Unit> units = doc.units();
  const std::string_view t = new_line_terminator(doc);
  std::size_t k = units.size();
  while (k > 0 && is_blank_unit(units[k - 1])) --k;
  if (k == 0) {  // empty, or only blank lines: the block goes first, after the BOM
    return Splice{doc.content_begin(), doc.content_begin(), joined(lines, t)};
  }
  const Unit& last = units[k - 1];
  std::string block;
  if (ends_unterminated(doc, last)) block += t;  // the one change memkit makes to a kept line
  const bool tight = bullet && last.kind == UnitKind::bullet_unit;
  if (!tight) block += t;
  block += joined(lines, t);
  return Splice{last.end, last.end, std::move(block)};
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
  const Unit& heading = units[section.first_unit];
  std::string block;
  if (ends_unterminated(doc, heading)) block += t;
  block += joined(lines, t);
  return Splice{heading.end, heading.end, std::move(block)};
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

std::string apply_splices(std::string_view bytes, std::span<const Splice> splices) {
  std::string out;
  std::size_t size = bytes.size();
  for (const Splice& s : splices) size = size - (s.end - s.begin) + s.insert.size();
  out.reserve(size);
  std::size_t at = 0;
  for (const Splice& s : splices) {
    out.append(bytes.substr(at, s.begin - at));
    out.append(s.insert);
    at = s.end;
  }
  out.append(bytes.substr(at));
  return out;
}

Sha256 sha256_of_splices(std::string_view bytes, std::span<const Splice> splices) {
  Sha256Hasher hasher;
  std::size_t at = 0;
  for (const Splice& s : splices) {
    hasher.update(bytes.substr(at, s.begin - at));
    hasher.update(s.insert);
    at = s.end;
  }
  hasher.update(bytes.substr(at));
  return hasher.finish();
}

}  // namespace memkit
