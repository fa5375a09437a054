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

std::optional<std::string> unit_key(const Document& doc, const Unit& unit) {
  if (unit.kind == UnitKind::heading) {
    Line line{};
    LineCursor cursor = doc.lines(unit);
    if (!cursor.next(line)) return std::string();
    return casefold(heading_text(line.content));
  }
  if (unit.kind != UnitKind::bullet_unit) return std::nullopt;
  // key = casefold(strip(join("\n", strip(L1 without its marker), rstrip(L2), ...)))
  std::string joined;
  joined.reserve(unit.end - unit.begin);
  LineCursor cursor = doc.lines(unit);
  Line line{};
  bool first = true;
  while (cursor.next(line)) {
    if (first) {
      joined.append(strip_w(line.content.substr(2)));
      first = false;
    } else {
      joined.push_back('\n');
      joined.append(rstrip_w(line.content));
    }
  }
  return casefold(strip_w(joined));
}

}  // namespace memkit
