// MemoryBox sync state (memorybox.md §9): a sync record line, sync.json, base.tsv and scan.cache,
// from one input cut in four. What parses is rendered and parsed back to an equal value: a record
// line, the state and the base each round-trip; the scan cache is read without failing.
#include <string>

#include "fuzz_support.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"
#include "memorybox/record_lines.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace box = memkit::memorybox;
  const std::vector<std::string_view> parts = memkit::fuzz::split(memkit::fuzz::as_text(data, size), 4);

  if (const memkit::Result<box::SyncRecord> record = box::parse_record_line(parts[0])) {
    MEMKIT_FUZZ_CHECK(!box::record_problem(*record));
    const std::string line = box::record_line(*record);
    const memkit::Result<box::SyncRecord> again = box::parse_record_line(line);
    MEMKIT_FUZZ_CHECK(again && *again == *record);
    // The canonical fast path and the strict reader agree on memkit's own lines.
    const std::optional<box::SyncRecord> direct = box::detail::read_canonical_record_line(line);
    MEMKIT_FUZZ_CHECK(!direct || *direct == *record);
  }
  if (const std::optional<box::SyncRecord> direct =
          box::detail::read_canonical_record_line(parts[0])) {
    const memkit::Result<box::SyncRecord> strict = box::detail::parse_record_line_json(parts[0]);
    MEMKIT_FUZZ_CHECK(strict && *strict == *direct);
  }

  if (const memkit::Result<box::SyncState> state = box::parse_sync_state(parts[1])) {
    const memkit::Result<box::SyncState> again = box::parse_sync_state(box::render_sync_state(*state));
    MEMKIT_FUZZ_CHECK(again && *again == *state);
  }

  if (const memkit::Result<box::SyncBase> base = box::parse_sync_base(parts[2])) {
    const std::string rendered = box::render_sync_base(*base);
    const memkit::Result<box::SyncBase> again = box::parse_sync_base(rendered);
    // An empty base renders as "" whatever its digests, and "" is read as a new (xxh3) base.
    MEMKIT_FUZZ_CHECK(again && (*again == *base || (base->empty() && again->empty())));
    std::size_t seen = 0;
    base->for_each([&](std::string_view id, box::SyncTable, std::string_view, std::string_view) {
      MEMKIT_FUZZ_CHECK(base->contains(id) && base->position(id) != 0);
      ++seen;
    });
    MEMKIT_FUZZ_CHECK(seen == base->size());
  }

  if (const memkit::Result<box::ScanCache> cache = box::parse_scan_cache(std::string(parts[3]))) {
    std::array<std::uint8_t, 16> fingerprint{};
    for (std::size_t i = 0; i < fingerprint.size() && i < parts[0].size(); ++i) {
      fingerprint[i] = static_cast<std::uint8_t>(parts[0][i]);
    }
    (void)cache->find(fingerprint);
  }
  return 0;
}
