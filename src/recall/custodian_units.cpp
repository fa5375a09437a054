// The custodian layout's units: those compaction.md §14 names ("Units and matching"). An entry
// section (a decision entry §5, a `Tombstone:` section, a formal entry §2.5) is one unit, and every
// top-level bullet unit outside them (§6.1) is one; titles, ordinary headings and paragraphs are
// the layout's other text and are no unit.
#include <optional>
#include <set>
#include <span>
#include <string>

#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"
#include "recall/readers.hpp"

namespace memkit::recall::detail {
namespace {

bool is_id_char(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// A formal entry's heading starts with its id: "MC-DEC-0001: Title" is MC-DEC-0001's.
std::string formal_entry_id(std::string_view heading) {
  std::size_t n = 0;
  while (n < heading.size() && is_id_char(heading[n])) ++n;
  return std::string(heading.substr(0, n));
}

// The latest date of an entry: its heading's ("## 2026-11-20 - Title") or a `Date:` line's (the
// tombstones §14 writes).
std::optional<std::string> custodian_entry_date(const Document& doc, const Section& section,
                                                std::string_view heading) {
  std::optional<std::string> date = leading_date(heading);
  for_each_visible_line(doc, section, [&](const Line& line) {
    const std::string_view content = strip_w(line.content);
    if (content.starts_with("Date:")) keep_latest(date, leading_date(strip_w(content.substr(5))));
  });
  return date;
}

void add_unit(Unit unit, const std::optional<std::string>& date, bool archived, FileUnits& out) {
  if (date) unit.facets.emplace_back("date", *date);
  if (archived) unit.facets.emplace_back("status", "archived");
  out.units.push_back(std::move(unit));
}

}  // namespace

bool custodian_reads(std::string_view path) {
  // manifest.md is the loading map and protocol, and a README.md explains its folder: neither is
  // memory (forget's purge skips them too, §14).
  return path.ends_with(".md") && path != "manifest.md" && path != "README.md" &&
         !path.ends_with("/README.md");
}

void read_custodian(const Source& source, std::string_view bytes, FileUnits& out) {
  const std::optional<Document> doc = parse_or_refuse(source, bytes, out);
  if (!doc) return;
  const bool archived = custodian::file_role(source.path) == custodian::FileRole::archive;
  std::set<std::uint32_t> decision_lines;
  for (const custodian::DecisionEntry& d :
       custodian::decision_entries(*doc, default_token_counter())) {
    decision_lines.insert(d.line);
  }
  const std::span<const memkit::Unit> units = doc->units();
  for (const Section& section : doc->sections()) {
    std::optional<std::string> date;  // a dated H2 dates its bullets (the inbox's, changelog's)
    if (section.kind == SectionKind::section) {
      const std::string_view heading = *section_heading(*doc, section);
      const bool formal = is_formal_entry_heading(heading);
      if (formal || starts_with_ascii_ci(heading, "tombstone:") ||
          decision_lines.contains(section.first_line)) {
        Unit entry = unit_at(doc->bytes(), section.first_line, section.begin, section.end, "entry");
        if (formal) entry.id = formal_entry_id(heading);
        add_unit(std::move(entry), custodian_entry_date(*doc, section, heading), archived, out);
        continue;
      }
      date = leading_date(heading);
    }
    for (const memkit::Unit& unit : units.subspan(section.first_unit, section.unit_count)) {
      if (unit.kind != UnitKind::bullet_unit) continue;
      add_unit(unit_at(doc->bytes(), unit.first_line, unit.begin, unit.end, "bullet"), date,
               archived, out);
    }
  }
}

}  // namespace memkit::recall::detail
