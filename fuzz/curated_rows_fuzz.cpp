// Curated row files (curated.md §4): parse_row_file never fails, keeps its entries in file order
// inside the file, with their field lines inside them and the body after them; removing an entry
// or inserting a rendered one gives splices inside the file. Also the body rules, initiative keys,
// project references and search queries.
#include <algorithm>
#include <string>

#include "fuzz_support.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/edit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = memkit::fuzz::as_text(data, size);
  const memkit::curated::RowFile file = memkit::curated::parse_row_file(text, "rows/w/thread.md");
  std::size_t at = 0;
  for (const memkit::curated::Entry& entry : file.entries) {
    MEMKIT_FUZZ_CHECK(entry.begin >= at && entry.begin < entry.end && entry.end <= text.size());
    // The heading's line: up to LF, less the CR of a CRLF (compaction.md §2.1; a bare CR is a
    // character of the line, whitespace W around the name).
    std::string_view heading = text.substr(entry.begin, text.find('\n', entry.begin) - entry.begin);
    if (heading.ends_with('\r')) heading.remove_suffix(1);
    MEMKIT_FUZZ_CHECK(memkit::curated::is_entry_heading(heading));
    for (const memkit::curated::FieldLine& line : entry.fields) {
      MEMKIT_FUZZ_CHECK(line.begin >= entry.begin && line.begin < line.end && line.end <= entry.end);
    }
    MEMKIT_FUZZ_CHECK(entry.body_begin >= entry.begin && entry.body_begin <= text.size());
    for (const memkit::Splice& splice : memkit::curated::remove_entry(text, entry)) {
      MEMKIT_FUZZ_CHECK(splice.begin <= splice.end && splice.end <= text.size());
    }
    if (entry.valid) {
      const std::string rendered = memkit::curated::render_entry(entry.row, file.crlf);
      const memkit::curated::RowFile again = memkit::curated::parse_row_file(rendered, "again.md");
      MEMKIT_FUZZ_CHECK(!again.entries.empty() && again.entries.front().row.name == entry.row.name);
    }
    at = entry.end;
  }
  (void)memkit::curated::check_body(text);
  (void)memkit::curated::check_description(text.substr(0, 512));
  (void)memkit::curated::normalize_initiative(text.substr(0, 128));
  (void)memkit::curated::initiative_of_project_ref(text.substr(0, 128));
  (void)memkit::curated::slug_problem(text.substr(0, 128), memkit::curated::RowType::project);
  const std::vector<memkit::curated::SearchTerm> terms = memkit::curated::parse_query(text);
  (void)memkit::curated::search_tokens(text);
  return 0;
}
