// The bytes of sync's own files that src/memorybox/sync_files.hpp adds to the record, state, base
// and scan-cache formats: .memkit/sync/conflicts.jsonl and when base.tsv is written whole.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

SyncRecord conflict(std::string id, std::string text) {
  return SyncRecord{.id = std::move(id),
                    .workspace_id = "0192f3a4-5b6c-7d8e-9f00-112233445566",
                    .table = SyncTable::memories,
                    .file = "memory/LONG_TERM.md",
                    .category = "Facts",
                    .text = std::move(text),
                    .confidence = 80,
                    .verified = "2026-11-01",
                    .updated_at = "2026-11-30T10:00:00.000Z",
                    .deleted = false};
}

}  // namespace

TEST_CASE("conflicts.jsonl: one record line per open conflict, read back as written") {
  const std::vector<SyncRecord> open = {conflict("a-1", "Deploys run on Fridays."),
                                        conflict("b-2", "Line one\nline two")};
  const std::string bytes = render_sync_conflicts(open);
  CHECK(bytes == record_line(open[0]) + record_line(open[1]));
  const Result<std::vector<SyncRecord>> read = parse_sync_conflicts(bytes);
  REQUIRE(read.ok());
  CHECK(*read == open);
  CHECK(render_sync_conflicts({}).empty());
  const Result<std::vector<SyncRecord>> none = parse_sync_conflicts("");
  REQUIRE(none.ok());
  CHECK(none->empty());
}

TEST_CASE("conflicts.jsonl: a bad line is refused naming the file and its line") {
  const std::string bytes = record_line(conflict("a-1", "ok")) + "{\"id\":\"x\"}\n";
  const Result<std::vector<SyncRecord>> read = parse_sync_conflicts(bytes);
  REQUIRE_FALSE(read.ok());
  CHECK(read.status().code() == Errc::parse);
  CHECK(read.status().message().rfind(".memkit/sync/conflicts.jsonl:2: ", 0) == 0);
  // A last line without its LF is read like any other.
  const std::string no_lf = record_line(conflict("a-1", "ok"));
  const Result<std::vector<SyncRecord>> last = parse_sync_conflicts(no_lf.substr(0, no_lf.size() - 1));
  REQUIRE(last.ok());
  CHECK(last->size() == 1);
}

TEST_CASE("base.tsv: written whole when its last line is torn or it holds too many lines") {
  CHECK_FALSE(sync_base_needs_rewrite("", 0));
  CHECK_FALSE(sync_base_needs_rewrite("# header\nd\tmemories\tf\tid\n", 1));
  CHECK(sync_base_needs_rewrite("# header\nd\tmemories\tf\ti", 1));  // an append cut short
  // Up to twice the lines the base needs, plus 1024, are appended to; one more is rewritten.
  const std::size_t ids = 10;
  const std::string at_bound(2 * ids + 1024, '\n');
  CHECK_FALSE(sync_base_needs_rewrite(at_bound, ids));
  CHECK(sync_base_needs_rewrite(at_bound + "\n", ids));
}
