// Markdown documents (compaction.md §2-§6): parse_markdown's units partition the file's lines and
// render its bytes back exactly, UnitReader reads the same partition, and every unit has a key
// or none without failing.
#include <memory>
#include <string>

#include "fuzz_support.hpp"
#include "memkit/markdown.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(memkit::fuzz::as_text(data, size));
  const memkit::Document doc = memkit::parse_markdown(bytes);
  MEMKIT_FUZZ_CHECK(doc.bytes() == bytes);
  if (doc.parseable()) {
    // The units partition [content_begin, size) into whole lines, in order.
    std::size_t at = doc.content_begin();
    std::uint32_t line = 1;
    for (const memkit::Unit& unit : doc.units()) {
      MEMKIT_FUZZ_CHECK(unit.begin == at && unit.end > unit.begin && unit.end <= bytes.size());
      MEMKIT_FUZZ_CHECK(unit.first_line == line && unit.last_line >= unit.first_line);
      MEMKIT_FUZZ_CHECK(unit.end == bytes.size() || bytes[unit.end - 1] == '\n');
      at = unit.end;
      line = unit.last_line + 1;
    }
    MEMKIT_FUZZ_CHECK(at == bytes.size() || (doc.units().empty() && at == doc.content_begin()));
    MEMKIT_FUZZ_CHECK(memkit::render_markdown(doc) == bytes);
    MEMKIT_FUZZ_CHECK(memkit::check_editable(doc, "MEMORY.md").ok() == !doc.utf8_error());
  }
  for (const memkit::Section& section : doc.sections()) {
    MEMKIT_FUZZ_CHECK(section.begin <= section.end && section.end <= bytes.size());
    MEMKIT_FUZZ_CHECK(section.first_unit + section.unit_count <= doc.units().size());
    (void)memkit::section_heading(doc, section);
    std::size_t visible = 0;
    memkit::for_each_visible_line(doc, section, [&](const memkit::Line&) { ++visible; });
  }
  std::string key;
  std::string scratch;
  for (const memkit::Unit& unit : doc.units()) {
    const std::optional<std::string> owned = memkit::unit_key(doc, unit);
    const bool has_key = memkit::unit_key_into(doc, unit, key, scratch);
    MEMKIT_FUZZ_CHECK(has_key == owned.has_value() && (!has_key || key == *owned));
  }
  // UnitReader: the same units as the Document when the file parses.
  memkit::UnitReader reader(bytes);
  memkit::Unit unit{};
  std::size_t index = 0;
  bool same = true;
  while (reader.next(unit)) {
    same = same && index < doc.units().size() && doc.units()[index] == unit;
    if (memkit::unit_key_into(std::string_view(bytes), unit, key, scratch)) {
      MEMKIT_FUZZ_CHECK(unit.kind == memkit::UnitKind::bullet_unit ||
                        unit.kind == memkit::UnitKind::heading);
    }
    ++index;
  }
  MEMKIT_FUZZ_CHECK(reader.parse_error() == doc.parse_error());
  if (doc.parseable()) MEMKIT_FUZZ_CHECK(same && index == doc.units().size());
  return 0;
}
