// Curated logs (curated.md §6, §9, §10): history.jsonl, access.jsonl with access-snapshot.json,
// and an episodes day file, read line by line: a line that does not read is a finding, never a
// failure; a history record read back is written as the same record; telemetry compaction keeps
// the counters.
#include <string>

#include "fuzz_support.hpp"
#include "memkit/curated/floors.hpp"
#include "memkit/curated/log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string_view> parts = memkit::fuzz::split(memkit::fuzz::as_text(data, size), 2);
  const memkit::curated::HistoryLog history =
      memkit::curated::parse_history(parts[0], "log/w/history.jsonl");
  for (const memkit::curated::HistoryRecord& record : history.records) {
    const std::string line = memkit::curated::history_line(record);
    const memkit::curated::HistoryLog again = memkit::curated::parse_history(line, "again");
    MEMKIT_FUZZ_CHECK(again.records.size() == 1 && again.findings.empty());
    MEMKIT_FUZZ_CHECK(memkit::curated::history_line(again.records.front()) == line);
  }
  const memkit::curated::Telemetry folded =
      memkit::curated::fold_telemetry(parts[1], parts[0], "snapshot.json", "access.jsonl");
  const memkit::curated::CompactedTelemetry compacted =
      memkit::curated::compact_telemetry(parts[1], parts[0], "2026-11-30T10:00:00.000Z");
  if (folded.findings.empty()) {
    const memkit::curated::Telemetry after = memkit::curated::fold_telemetry(
        compacted.snapshot, compacted.access, "snapshot.json", "access.jsonl");
    MEMKIT_FUZZ_CHECK(after.rows == folded.rows);
  }
  (void)memkit::curated::parse_episodes(parts[0], "floors/episodes/2026-11-30.jsonl", "w");
  return 0;
}
