// Curated memory's logs (spec curated.md §2 "JSON Lines", §6 "History record", §9 "Storage" and
// "Compaction"): the exact canonical bytes of history and access lines, reading them back, the
// derived read counters, and compaction leaving those counters unchanged.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"

using namespace memkit;
using namespace memkit::curated;

namespace {

constexpr std::string_view kHistoryPath = "log/ws1/history.jsonl";
constexpr std::string_view kAccessPath = "log/ws1/access.jsonl";
constexpr std::string_view kSnapshotPath = "log/ws1/access-snapshot.json";
constexpr std::string_view kT1 = "2026-11-30T09:00:00.000Z";
constexpr std::string_view kT2 = "2026-11-30T10:00:00.000Z";
constexpr std::string_view kT3 = "2026-12-01T08:30:00.250Z";

RowState thread_state() {
  return RowState{.type = RowType::project,
                  .row_class = RowClass::thread,
                  .status = RowStatus::open,
                  .initiative = "demo",
                  .audience = Audience::any,
                  .description = std::nullopt,
                  .body = "a",
                  .project_ref = std::nullopt,
                  .deleted_at = std::nullopt};
}

HistoryRecord record_of(HistoryOp op, std::optional<RowState> before, std::optional<RowState> after,
                        std::optional<std::string> actor = {}) {
  return HistoryRecord{.ts = std::string(kT1),
                       .name = "project_a",
                       .op = op,
                       .before = std::move(before),
                       .after = std::move(after),
                       .link_kind = std::nullopt,
                       .link_dst = {},
                       .actor = std::move(actor)};
}

HistoryRecord link_record(HistoryOp op, LinkKind kind, std::string dst) {
  return HistoryRecord{.ts = std::string(kT3),
                       .name = "project_b",
                       .op = op,
                       .before = std::nullopt,
                       .after = std::nullopt,
                       .link_kind = kind,
                       .link_dst = std::move(dst),
                       .actor = "agent-7"};
}

std::string access_of(std::string_view ts, std::string_view name, ReadKind kind,
                      std::string_view surface = "show") {
  return access_line(AccessRecord{.ts = std::string(ts),
                                  .name = std::string(name),
                                  .kind = kind,
                                  .surface = std::string(surface)});
}

Axis axis_of(std::uint64_t count, std::optional<std::string_view> last) {
  return Axis{.count = count, .last_at = last ? std::optional<std::string>(*last) : std::nullopt};
}

void check_warning(const Finding& finding, std::string_view path, std::string_view place) {
  CHECK(finding.code == "MK-PARSE-001");
  CHECK(finding.severity == Severity::warning);
  CHECK_FALSE(finding.fatal);
  CHECK(finding.path == path);
  CHECK(finding.message.starts_with(place));
}

// A deterministic generator for the seeded property test (splitmix64).
struct Seeded {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

// An RFC 3339 timestamp for second `s` of 2026-11-30 (s < 86400).
std::string ts_at(std::uint64_t s) {
  auto two = [](std::uint64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  return "2026-11-30T" + two(s / 3600) + ":" + two(s / 60 % 60) + ":" + two(s % 60) + ".000Z";
}

}  // namespace

// ---- history ------------------------------------------------------------------------------------

TEST_CASE("history op words: the spec's, with remove spelled delete") {
  CHECK(name_of(HistoryOp::remove) == "delete");
  CHECK(name_of(HistoryOp::reclassify) == "reclassify");
  for (const HistoryOp op :
       {HistoryOp::insert, HistoryOp::update, HistoryOp::append, HistoryOp::edit,
        HistoryOp::reclassify, HistoryOp::remove, HistoryOp::restore, HistoryOp::link,
        HistoryOp::unlink, HistoryOp::purge}) {
    CHECK(parse_history_op(name_of(op)) == op);
  }
  CHECK(parse_history_op("remove") == std::nullopt);
  CHECK(parse_history_op("Insert") == std::nullopt);
}

TEST_CASE("history state: a row's content fields, without name, times, session or links") {
  Row row;
  row.name = "project_a";
  row.type = RowType::decision;
  row.row_class = RowClass::anchor;
  row.initiative = "gaia";
  row.audience = Audience::executor;
  row.description = "d";
  row.project_ref = "/srv/gaia/.git";
  row.origin_session = "s1";
  row.created = std::string(kT1);
  row.updated = std::string(kT2);
  row.deleted = std::string(kT3);
  row.links = {Link{.kind = LinkKind::relates_to, .dst = "project_b", .created_at = "x"}};
  row.body = "body";
  CHECK(state_of(row) == RowState{.type = RowType::decision,
                                  .row_class = RowClass::anchor,
                                  .status = std::nullopt,
                                  .initiative = "gaia",
                                  .audience = Audience::executor,
                                  .description = "d",
                                  .body = "body",
                                  .project_ref = "/srv/gaia/.git",
                                  .deleted_at = std::string(kT3)});
}

TEST_CASE("history line: an insert, canonical with sorted keys and nulls for absent values") {
  CHECK(history_line(record_of(HistoryOp::insert, std::nullopt, thread_state())) ==
        R"({"actor":null,"after":{"audience":"any","body":"a","class":"thread","deleted":false,)"
        R"("deleted_at":null,"description":null,"initiative":"demo","project_ref":null,)"
        R"("status":"open","type":"project"},"before":null,"name":"project_a","op":"insert",)"
        R"("ts":"2026-11-30T09:00:00.000Z"})"
        "\n");
}

TEST_CASE("history line: a soft delete keeps both states, deleted and deleted_at set after") {
  RowState after = thread_state();
  after.deleted_at = std::string(kT2);
  const std::string line =
      history_line(record_of(HistoryOp::remove, thread_state(), after, "agent-7"));
  CHECK(line.starts_with(R"({"actor":"agent-7","after":{"audience":"any",)"));
  CHECK(line.find(R"("deleted":true,"deleted_at":"2026-11-30T10:00:00.000Z")") !=
        std::string::npos);
  CHECK(line.find(R"("before":{"audience":"any","body":"a","class":"thread","deleted":false,)") !=
        std::string::npos);
  CHECK(line.find(R"("op":"delete")") != std::string::npos);
}

TEST_CASE("history line: link records carry link {kind, dst} and no before or after") {
  CHECK(history_line(link_record(HistoryOp::link, LinkKind::supersedes, "project_a")) ==
        R"({"actor":"agent-7","link":{"dst":"project_a","kind":"supersedes"},"name":"project_b",)"
        R"("op":"link","ts":"2026-12-01T08:30:00.250Z"})"
        "\n");
  CHECK(history_line(link_record(HistoryOp::unlink, LinkKind::relates_to, "project_c")) ==
        R"({"actor":"agent-7","link":{"dst":"project_c","kind":"relates_to"},"name":"project_b",)"
        R"("op":"unlink","ts":"2026-12-01T08:30:00.250Z"})"
        "\n");
}

TEST_CASE("history line: a purge has null before and after, and no content") {
  CHECK(history_line(record_of(HistoryOp::purge, std::nullopt, std::nullopt)) ==
        R"({"actor":null,"after":null,"before":null,"name":"project_a","op":"purge",)"
        R"("ts":"2026-11-30T09:00:00.000Z"})"
        "\n");
}

TEST_CASE("history line: strings escape only '\"', '\\' and controls, non-ASCII stays raw") {
  RowState state = thread_state();
  state.body = "line \"one\"\n\tpath\\x \x01 é 日";
  const std::string line = history_line(record_of(HistoryOp::insert, std::nullopt, state));
  CHECK(line.find(R"("body":"line \"one\"\n\tpath\\x \u0001 é 日")") != std::string::npos);
  CHECK(line.find('\n') == line.size() - 1);  // one line, LF-terminated
}

TEST_CASE("history parse: reads back exactly what history_line writes") {
  RowState full = thread_state();
  full.description = "Fix \"it\" — soon";
  full.project_ref = "/srv/repos/gaia/.git";
  full.body = "first\n\n```\ncode\n```\nlast\ttab \x1F";
  RowState anchor = full;
  anchor.row_class = RowClass::anchor;
  anchor.status = std::nullopt;
  anchor.initiative = std::nullopt;
  anchor.audience = Audience::orchestrator;
  anchor.type = RowType::negative;
  RowState deleted = anchor;
  deleted.deleted_at = std::string(kT2);
  const std::vector<HistoryRecord> records{
      record_of(HistoryOp::insert, std::nullopt, full),
      record_of(HistoryOp::update, full, anchor, "agent"),
      record_of(HistoryOp::append, anchor, anchor),
      record_of(HistoryOp::edit, anchor, anchor),
      record_of(HistoryOp::reclassify, full, anchor),
      record_of(HistoryOp::remove, anchor, deleted),
      record_of(HistoryOp::restore, deleted, anchor),
      link_record(HistoryOp::link, LinkKind::derived_from, "project_r"),
      link_record(HistoryOp::unlink, LinkKind::graduated_to, "project_z"),
      record_of(HistoryOp::purge, std::nullopt, std::nullopt, "owner"),
  };
  std::string bytes;
  for (const HistoryRecord& record : records) bytes += history_line(record);
  const HistoryLog log = parse_history(bytes, kHistoryPath);
  CHECK(log.findings.empty());
  CHECK(log.records == records);
}

TEST_CASE("history parse: escapes read alike on the direct path and through the JSON parser") {
  RowState state = thread_state();
  state.body = "body";
  const std::string line = history_line(record_of(HistoryOp::insert, std::nullopt, state));
  // Each form of the body, and what it reads as.
  const std::vector<std::pair<std::string, std::string>> bodies = {
      {R"(a\/b)", "a/b"},
      {R"(\u0041\u007e)", "A~"},
      {R"(\u000A\u001f)", "\n\x1f"},
      {R"(\n\t\"\\)", "\n\t\"\\"},
      {R"(\u00e9)", "\xc3\xa9"},
      {R"(\u0041\u00)", ""},
  };
  for (const auto& [form, text] : bodies) {
    std::string direct = line;
    direct.replace(direct.find(R"("body":"body")"), 13, "\"body\":\"" + form + "\"");
    std::string parsed = direct;  // a blank after the first key: only the JSON parser reads it
    parsed.replace(parsed.find("\":"), 2, "\": ");
    INFO(direct);
    const HistoryLog a = parse_history(direct, kHistoryPath);
    const HistoryLog b = parse_history(parsed, kHistoryPath);
    CHECK(a.records == b.records);
    CHECK(a.findings.size() == b.findings.size());
    if (text.empty()) {  // not a valid string: skipped both ways
      CHECK(a.records.empty());
      continue;
    }
    REQUIRE(a.records.size() == 1);
    CHECK(a.records[0].after->body == text);
  }
}

TEST_CASE("history parse: a line that is not a record is skipped with a warning at path:line") {
  const std::string good = history_line(record_of(HistoryOp::insert, std::nullopt, thread_state()));
  const std::string link = history_line(link_record(HistoryOp::link, LinkKind::supersedes, "x"));
  std::string no_link = link;
  no_link.replace(no_link.find("\"link\""), 6, "\"lnk\"");
  std::string bad_deleted = good;
  bad_deleted.replace(bad_deleted.find("\"deleted\":false"), 15, "\"deleted\":true");
  std::string bad_op = good;
  bad_op.replace(bad_op.find("\"insert\""), 8, "\"create\"");
  std::string no_after = good;
  no_after.replace(no_after.find("\"after\""), 7, "\"afterx\"");
  std::string bad_class = good;
  bad_class.replace(bad_class.find("\"thread\""), 8, "\"threads\"");
  const std::string bytes = good + "{not json\n" + "[1,2]\n" + "\n" + no_link + bad_deleted +
                            bad_op + no_after + bad_class + link;
  const HistoryLog log = parse_history(bytes, kHistoryPath);
  REQUIRE(log.records.size() == 2);
  CHECK(log.records[0] == record_of(HistoryOp::insert, std::nullopt, thread_state()));
  CHECK(log.records[1].op == HistoryOp::link);
  REQUIRE(log.findings.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    check_warning(log.findings[i], kHistoryPath,
                  std::string(kHistoryPath) + ":" + std::to_string(i + 2) + ": ");
  }
  CHECK(log.findings[4].message.find("\"deleted\"") != std::string::npos);
  CHECK(log.findings[5].message.find("\"op\"") != std::string::npos);
  CHECK(log.findings[6].message.find("\"after\"") != std::string::npos);
}

TEST_CASE("history parse: a last line without LF is still read, an empty file has nothing") {
  std::string line = history_line(record_of(HistoryOp::purge, std::nullopt, std::nullopt));
  line.pop_back();
  const HistoryLog log = parse_history(line, kHistoryPath);
  CHECK(log.findings.empty());
  CHECK(log.records.size() == 1);
  CHECK(parse_history("", kHistoryPath).records.empty());
  CHECK(parse_history("", kHistoryPath).findings.empty());
}

// ---- telemetry ----------------------------------------------------------------------------------

TEST_CASE("telemetry kinds: three words, each its own axis") {
  CHECK(name_of(ReadKind::deliberate) == "deliberate");
  CHECK(name_of(ReadKind::kernel) == "kernel");
  CHECK(name_of(ReadKind::injection) == "injection");
  CHECK(parse_read_kind("injection") == ReadKind::injection);
  CHECK(parse_read_kind("total") == std::nullopt);
  ReadCounters counters;
  counters.axis(ReadKind::kernel).count = 3;
  CHECK(counters.kernel.count == 3);
  CHECK(counters.deliberate.count == 0);
  CHECK(counters.injection.count == 0);
  CHECK(&counters.axis(ReadKind::injection) == &counters.injection);
  CHECK(&counters.axis(ReadKind::deliberate) == &counters.deliberate);
}

TEST_CASE("telemetry access line: {kind, name, surface, ts} as canonical JSON") {
  CHECK(access_of(kT1, "project_a", ReadKind::deliberate, "get-relevant") ==
        R"({"kind":"deliberate","name":"project_a","surface":"get-relevant",)"
        R"("ts":"2026-11-30T09:00:00.000Z"})"
        "\n");
}

TEST_CASE("telemetry fold: per name and kind, the count and the latest ts, never added up") {
  const std::string access = access_of(kT2, "project_a", ReadKind::injection, "get-relevant") +
                             access_of(kT1, "project_a", ReadKind::injection, "get-relevant") +
                             access_of(kT1, "project_a", ReadKind::deliberate) +
                             access_of(kT3, "user_b", ReadKind::kernel, "kernel");
  const Telemetry t = fold_telemetry("", access, kSnapshotPath, kAccessPath);
  CHECK(t.findings.empty());
  REQUIRE(t.rows.size() == 2);
  const ReadCounters& a = t.rows.at("project_a");
  CHECK(a.injection == axis_of(2, kT2));  // the latest, not the last written
  CHECK(a.deliberate == axis_of(1, kT1));
  CHECK(a.kernel == axis_of(0, std::nullopt));
  CHECK(t.rows.at("user_b").kernel == axis_of(1, kT3));
  CHECK(fold_telemetry("", "", kSnapshotPath, kAccessPath).rows.empty());
}

TEST_CASE("telemetry fold: the snapshot adds to the log's records") {
  const std::string snapshot =
      R"({"project_a":{"injection":{"count":5,"last":"2026-11-30T10:00:00.000Z"}},)"
      R"("user_b":{"kernel":{"count":2,"last":"2026-11-01T00:00:00.000Z"}}})"
      "\n";
  const std::string access =
      access_of(kT1, "project_a", ReadKind::injection) + access_of(kT3, "user_b", ReadKind::kernel);
  const Telemetry t = fold_telemetry(snapshot, access, kSnapshotPath, kAccessPath);
  CHECK(t.findings.empty());
  CHECK(t.rows.at("project_a").injection == axis_of(6, kT2));
  CHECK(t.rows.at("user_b").kernel == axis_of(3, kT3));
}

TEST_CASE("telemetry fold: unreadable lines and snapshot entries are skipped with warnings") {
  const std::string access = access_of(kT1, "project_a", ReadKind::deliberate) + "not json\n" +
                             R"({"kind":"total","name":"project_a","surface":"show","ts":"x"})"
                             "\n" +
                             R"({"kind":"kernel","surface":"kernel","ts":"x"})"
                             "\n" +
                             access_of(kT2, "project_a", ReadKind::deliberate);
  const std::string snapshot =
      R"({"project_a":{"deliberate":{"count":-1,"last":null},"kernel":{"count":1,"last":"t"}},)"
      R"("user_b":[1]})";
  const Telemetry t = fold_telemetry(snapshot, access, kSnapshotPath, kAccessPath);
  CHECK(t.rows.at("project_a").deliberate == axis_of(2, kT2));
  CHECK(t.rows.at("project_a").kernel == axis_of(1, "t"));
  CHECK(t.rows.count("user_b") == 0);
  REQUIRE(t.findings.size() == 5);
  check_warning(t.findings[0], kSnapshotPath, std::string(kSnapshotPath) + ": ");
  check_warning(t.findings[1], kSnapshotPath, std::string(kSnapshotPath) + ": ");
  check_warning(t.findings[2], kAccessPath, std::string(kAccessPath) + ":2: ");
  check_warning(t.findings[3], kAccessPath, std::string(kAccessPath) + ":3: ");
  check_warning(t.findings[4], kAccessPath, std::string(kAccessPath) + ":4: ");
  const Telemetry broken = fold_telemetry("{", "", kSnapshotPath, kAccessPath);
  REQUIRE(broken.findings.size() == 1);
  check_warning(broken.findings[0], kSnapshotPath, std::string(kSnapshotPath) + ": ");
}

TEST_CASE("telemetry compact: older records move into the snapshot, the rest stay in order") {
  const std::string newer = access_of(kT3, "project_a", ReadKind::injection);
  const std::string garbage = "garbage\n";
  const std::string access = access_of(kT1, "project_a", ReadKind::injection) + newer +
                             access_of(kT2, "user_b", ReadKind::kernel) + garbage +
                             access_of(kT1, "project_a", ReadKind::deliberate);
  const CompactedTelemetry c = compact_telemetry("", access, "2026-12-01T00:00:00.000Z");
  CHECK(c.snapshot == R"({"project_a":{"deliberate":{"count":1,"last":"2026-11-30T09:00:00.000Z"},)"
                      R"("injection":{"count":1,"last":"2026-11-30T09:00:00.000Z"}},)"
                      R"("user_b":{"kernel":{"count":1,"last":"2026-11-30T10:00:00.000Z"}}})"
                      "\n");
  CHECK(c.access == newer + garbage);
  // A record at `before` exactly is not older than it.
  const CompactedTelemetry at = compact_telemetry("", access, kT3);
  CHECK(at.access == newer + garbage);
  // Nothing older and no snapshot: nothing to write into one.
  const CompactedTelemetry none = compact_telemetry("", access, "2020-01-01T00:00:00.000Z");
  CHECK(none.snapshot.empty());
  CHECK(none.access == access);
}

TEST_CASE("telemetry compact: the derived counters never change (seeded random logs)") {
  const std::vector<std::string> names{"project_a", "user_b", "feedback_c", "atom_d"};
  const std::vector<ReadKind> kinds{ReadKind::deliberate, ReadKind::kernel, ReadKind::injection};
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Seeded random{.state = seed};
    std::string access;
    const std::uint64_t lines = random.below(40);
    for (std::uint64_t i = 0; i < lines; ++i) {
      if (random.below(20) == 0) {
        access += "{\"torn\n";
        continue;
      }
      access += access_of(ts_at(random.below(86400)), names[random.below(names.size())],
                          kinds[random.below(kinds.size())]);
    }
    const Telemetry original = fold_telemetry("", access, kSnapshotPath, kAccessPath);
    // Two compactions in a row, each at a random cut, the second folding into the first's
    // snapshot.
    const CompactedTelemetry first = compact_telemetry("", access, ts_at(random.below(86400)));
    const CompactedTelemetry second =
        compact_telemetry(first.snapshot, first.access, ts_at(random.below(86400)));
    for (const CompactedTelemetry& c : {first, second}) {
      const Telemetry after = fold_telemetry(c.snapshot, c.access, kSnapshotPath, kAccessPath);
      CHECK_MESSAGE(after.rows == original.rows, "seed " << seed);
      // The unreadable lines stay in the log and are still reported, and only there.
      CHECK(after.findings.size() == original.findings.size());
    }
    // Compacting everything leaves only the unreadable lines.
    const CompactedTelemetry all = compact_telemetry("", access, "9999");
    CHECK(all.access.find("\"ts\"") == std::string::npos);
    CHECK(fold_telemetry(all.snapshot, all.access, kSnapshotPath, kAccessPath).rows ==
          original.rows);
  }
}
