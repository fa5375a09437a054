// MemoryBox entries and field lines (memorybox.md §3): read_entries over a tier file, as a file of
// bullets, a section file or a daily file (the first input byte chooses), keeps its entries in
// file order inside the file with their fields inside them, and visit_entry_layout in two shares
// finds the same entries; also the record text of each entry, confidence values, a client
// profile's lifecycle, the canon ledger and the gate answers hosts give as text.
#include <array>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "memkit/markdown.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/memorybox/canon.hpp"
#include "memkit/memorybox/gate.hpp"
#include "memorybox/sync_entries.hpp"

namespace {

constexpr std::array<std::string_view, 4> kPaths = {"memory/LONG_TERM.md", "memory/PATTERNS.md",
                                                    "memory/daily/2026-11-30.md",
                                                    "brain/clients/acme.md"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view path = kPaths[data[0] % kPaths.size()];
  const std::string_view text = memkit::fuzz::as_text(data + 1, size - 1);
  (void)memkit::memorybox::parse_confidence(text.substr(0, 16));
  (void)memkit::memorybox::client_lifecycle(text);
  (void)memkit::memorybox::parse_canon_ledger(text);
  for (const memkit::memorybox::Gate gate : memkit::memorybox::kGates) {
    (void)memkit::memorybox::parse_gate_answer(gate, text.substr(0, 256));
  }

  const memkit::Document doc = memkit::parse_markdown(std::string(text));
  if (!doc.parseable()) return 0;
  const std::vector<memkit::memorybox::Entry> entries = memkit::memorybox::read_entries(path, doc);
  std::size_t at = 0;
  for (const memkit::memorybox::Entry& entry : entries) {
    // (An empty daily file is one empty entry.)
    MEMKIT_FUZZ_CHECK(entry.begin >= at && entry.begin <= entry.end && entry.end <= text.size());
    MEMKIT_FUZZ_CHECK(entry.first_line <= entry.last_line);
    for (const memkit::memorybox::Field& field : entry.fields) {
      MEMKIT_FUZZ_CHECK(field.begin >= entry.begin && field.end <= entry.end);
      MEMKIT_FUZZ_CHECK(field.begin <= field.content_end && field.content_end <= field.end);
      MEMKIT_FUZZ_CHECK(memkit::memorybox::is_field_key(field.key));
      MEMKIT_FUZZ_CHECK(entry.field(field.key).has_value());
      (void)memkit::memorybox::detail::field_value(doc, field);
    }
    const std::size_t content_end = memkit::memorybox::detail::content_end(doc, entry);
    MEMKIT_FUZZ_CHECK(content_end >= entry.begin && content_end <= entry.end);
    (void)memkit::memorybox::detail::record_text(doc, entry);
    at = entry.end;
  }
  std::vector<std::pair<std::size_t, std::size_t>> shared;
  for (std::size_t share = 0; share < 2; ++share) {
    memkit::memorybox::visit_entry_layout(path, doc, share, 2, [&](memkit::memorybox::Entry& e) {
      shared.emplace_back(e.begin, e.end);
    });
  }
  MEMKIT_FUZZ_CHECK(shared.size() == entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    MEMKIT_FUZZ_CHECK(shared[i].first == entries[i].begin && shared[i].second == entries[i].end);
  }
  (void)memkit::memorybox::item_count(path, doc);
  return 0;
}
