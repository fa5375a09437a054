// The files of sync that have no format module of their own: when base.tsv is written whole, and
// .memkit/sync/conflicts.jsonl (spec memorybox.md §9; OUR DECISIONS).
#include "memorybox/sync_files.hpp"

#include <fmt/format.h>

#include "memkit/text.hpp"

namespace memkit::memorybox {

bool sync_base_needs_rewrite(std::string_view bytes, std::size_t ids) noexcept {
  if (!bytes.empty() && bytes.back() != '\n') return true;
  return count_newlines(bytes) > 2 * ids + 1024;
}

std::string render_sync_conflicts(const std::vector<SyncRecord>& conflicts) {
  std::string out;
  for (const SyncRecord& r : conflicts) append_record_line(out, r);
  return out;
}

Result<std::vector<SyncRecord>> parse_sync_conflicts(std::string_view bytes) {
  std::vector<SyncRecord> conflicts;
  std::size_t line = 0;
  while (!bytes.empty()) {
    ++line;
    const std::size_t lf = bytes.find('\n');
    Result<SyncRecord> r = parse_record_line(bytes.substr(0, lf));
    if (!r) {
      return Status(Errc::parse,
                    fmt::format("{}:{}: {}", kSyncConflictsState, line, r.status().message()));
    }
    conflicts.push_back(std::move(*r));
    bytes = lf == std::string_view::npos ? std::string_view() : bytes.substr(lf + 1);
  }
  return conflicts;
}

}  // namespace memkit::memorybox
