// Keys and heading texts (spec compaction.md §2.4 and §6.3).
#include "markdown/document_impl.hpp"
#include "memkit/text.hpp"

namespace memkit {

std::string_view heading_text(std::string_view content) noexcept {
  std::size_t n = 0;
  while (n < content.size() && content[n] == '#') ++n;
  return strip_w(content.substr(n));
}

std::optional<std::string_view> section_heading(const Document& doc, const Section& section) {
  if (section.kind == SectionKind::preamble) return std::nullopt;
  Line line{};
  LineCursor cursor = doc.lines(section);
  if (!cursor.next(line)) return std::nullopt;
  return heading_text(line.content);
}

bool unit_key_into(std::string_view bytes, const Unit& unit, std::string& out,
                   std::string& scratch) {
  out.clear();
  LineCursor cursor(bytes, unit.begin, unit.end, unit.first_line);
  Line line{};
  if (unit.kind == UnitKind::heading) {
    if (cursor.next(line)) casefold_append(heading_text(line.content), out);
    return true;
  }
  if (unit.kind != UnitKind::bullet_unit) return false;
  // key = casefold(strip(join("\n", strip(L1 without its marker), rstrip(L2), ...)))
  if (unit.last_line == unit.first_line) {
    // Most units are one line: no join, so no copy before folding, and no search for the line's
    // end, which is the unit's (less its terminator, as fill_line reads it).
    std::string_view content = bytes.substr(unit.begin, unit.end - unit.begin);
    if (!content.empty() && content.back() == '\n') {
      content.remove_suffix(1);
      if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    }
    casefold_append(strip_w(content.substr(2)), out);
    return true;
  }
  cursor.next(line);
  const std::string_view first = strip_w(line.content.substr(2));
  scratch.assign(first);
  while (cursor.next(line)) {
    scratch.push_back('\n');
    scratch.append(rstrip_w(line.content));
  }
  casefold_append(strip_w(scratch), out);
  return true;
}

bool unit_key_into(const Document& doc, const Unit& unit, std::string& out, std::string& scratch) {
  return unit_key_into(doc.bytes(), unit, out, scratch);
}

std::optional<std::string> unit_key(const Document& doc, const Unit& unit) {
  std::string key;
  std::string scratch;
  if (!unit_key_into(doc, unit, key, scratch)) return std::nullopt;
  return key;
}
}  // namespace memkit
