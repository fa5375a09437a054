// Changelog maintenance lines (spec compaction.md §11): one heading per date, newest first.
#include "memkit/compact.hpp"
#include "memkit/text.hpp"

namespace memkit {

Splice dated_bullet(const Document& doc, std::string_view today,
                    std::span<const std::string> bullet) {
  const auto sections = doc.sections();
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const std::optional<std::string_view> heading = section_heading(doc, sections[s]);
    if (heading && *heading == today) return insert_into_section(doc, s, bullet);
  }
  std::vector<std::string> block = {"## " + std::string(today)};
  block.insert(block.end(), bullet.begin(), bullet.end());
  for (const Section& section : sections) {
    if (section.kind == SectionKind::section) return insert_before(doc, section.first_unit, block);
  }
  return append_block(doc, block, false);
}

Splice changelog_line(const Document& changelog, std::string_view today, std::string_view message) {
  const std::vector<std::string> bullet = {"- " + std::string(message)};
  return dated_bullet(changelog, today, bullet);
}

}  // namespace memkit
