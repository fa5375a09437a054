// Changelog maintenance lines (spec compaction.md §11): one heading per date, newest first.
#include "memkit/compact.hpp"
#include "memkit/text.hpp"

namespace memkit {

Splice changelog_line(const Document& changelog, std::string_view today, std::string_view message) {
  const std::vector<std::string> bullet = {"- " + std::string(message)};
  const auto sections = changelog.sections();
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const std::optional<std::string_view> heading = section_heading(changelog, sections[s]);
    if (heading && *heading == today) return insert_into_section(changelog, s, bullet);
  }
  const std::vector<std::string> block = {"## " + std::string(today), bullet.front()};
  for (const Section& section : sections) {
    if (section.kind == SectionKind::section) {
      return insert_before(changelog, section.first_unit, block);
    }
  }
  return append_block(changelog, block, false);
}

}  // namespace memkit
