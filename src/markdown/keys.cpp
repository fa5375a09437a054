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

bool unit_key_into(const Document& doc, const Unit& unit, std::string& out, std::string& scratch) {
  out.clear();
  if (unit.kind == UnitKind::heading) {
    Line line{};
    LineCursor cursor = doc.lines(unit);
    if (cursor.next(line)) casefold_append(heading_text(line.content), out);
    return true;
  }
  if (unit.kind != UnitKind::bullet_unit) return false;
  // key = casefold(strip(join("\n", strip(L1 without its marker), rstrip(L2), ...)))
  scratch.clear();
  LineCursor cursor = doc.lines(unit);
  Line line{};
  bool first = true;
  while (cursor.next(line)) {
    if (first) {
      scratch.append(strip_w(line.content.substr(2)));
      first = false;
    } else {
      scratch.push_back('\n');
      scratch.append(rstrip_w(line.content));
    }
  }
  casefold_append(strip_w(scratch), out);
  return true;
}

std::optional<std::string> unit_key(const Document& doc, const Unit& unit) {
  std::string key;
  std::string scratch;
  if (!unit_key_into(doc, unit, key, scratch)) return std::nullopt;
  return key;
}
}  // namespace memkit
