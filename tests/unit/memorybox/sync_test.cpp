// The pure sync core (spec memorybox.md §9): records, UUIDv7, sync.json, conflict rules and the
// SYNC_CONFLICTS.md block.
#include <doctest/doctest.h>

#include <string>

#include "memkit/memorybox/sync.hpp"
#include "memorybox/sync_files.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

constexpr std::string_view kWorkspace = "0192f3a4-5b6c-7d8e-9f00-112233445566";

SyncRecord fact(std::string text, std::uint32_t confidence, std::string updated_at) {
  return SyncRecord{.id = "01930000-0000-7000-8000-000000000001",
                    .workspace_id = std::string(kWorkspace),
                    .table = SyncTable::memories,
                    .file = "memory/LONG_TERM.md",
                    .category = "Facts",
                    .text = std::move(text),
                    .confidence = confidence,
                    .verified = "2026-11-01",
                    .updated_at = std::move(updated_at),
                    .deleted = false};
}

SyncRecord log_record(SyncTable table, std::string text, std::string updated_at) {
  return SyncRecord{.id = "01930000-0000-7000-8000-000000000002",
                    .workspace_id = std::string(kWorkspace),
                    .table = table,
                    .file = "memory/daily/2026-11-30.md",
                    .category = std::nullopt,
                    .text = std::move(text),
                    .confidence = std::nullopt,
                    .verified = std::nullopt,
                    .updated_at = std::move(updated_at),
                    .deleted = false};
}

constexpr std::string_view kLast = "2026-11-30T08:00:00.000Z";
constexpr std::string_view kT1 = "2026-11-30T09:00:00.000Z";
constexpr std::string_view kT2 = "2026-11-30T10:00:00.000Z";
constexpr std::string_view kOld = "2026-11-29T10:00:00.000Z";  // before the last sync

// The input of a sync after one at kLast: a side changed iff its updated_at is not earlier.
MergeInput since_last(const SyncRecord& local, const SyncRecord& remote,
                      std::optional<std::uint32_t> local_effective,
                      std::optional<std::uint32_t> remote_effective, bool canon = false) {
  return MergeInput{.local_changed = local.updated_at >= kLast,
                    .remote_changed = remote.updated_at >= kLast,
                    .local_effective = local_effective,
                    .remote_effective = remote_effective,
                    .canon = canon};
}

std::string parse_problem(std::string_view line) {
  const Result<SyncRecord> r = parse_record_line(line);
  REQUIRE_FALSE(r);
  CHECK(r.status().code() == Errc::parse);
  return r.status().message();
}

}  // namespace

TEST_CASE("sync record: the line is canonical JSON with the ten keys, sorted, then LF") {
  const SyncRecord r = fact("- caf\xC3\xA9 \"quoted\"\n", 85, std::string(kT1));
  CHECK(record_line(r) ==
        "{\"category\":\"Facts\",\"confidence\":85,\"deleted\":false,"
        "\"file\":\"memory/LONG_TERM.md\",\"id\":\"01930000-0000-7000-8000-000000000001\","
        "\"table\":\"memories\",\"text\":\"- caf\xC3\xA9 \\\"quoted\\\"\\n\","
        "\"updated_at\":\"2026-11-30T09:00:00.000Z\",\"verified\":\"2026-11-01\","
        "\"workspace_id\":\"0192f3a4-5b6c-7d8e-9f00-112233445566\"}\n");
  const SyncRecord log = log_record(SyncTable::daily_logs, "notes\n", std::string(kT1));
  CHECK(record_line(log) ==
        "{\"category\":null,\"confidence\":null,\"deleted\":false,"
        "\"file\":\"memory/daily/2026-11-30.md\",\"id\":\"01930000-0000-7000-8000-000000000002\","
        "\"table\":\"daily_logs\",\"text\":\"notes\\n\","
        "\"updated_at\":\"2026-11-30T09:00:00.000Z\",\"verified\":null,"
        "\"workspace_id\":\"0192f3a4-5b6c-7d8e-9f00-112233445566\"}\n");
}

TEST_CASE("sync record: bytes that are not UTF-8 are repaired, the line stays valid JSON") {
  const std::string line = record_line(fact("- a\xFF\n", 85, std::string(kT1)));
  CHECK(line.find("\"text\":\"- a\xEF\xBF\xBD\\n\"") != std::string::npos);
  const Result<SyncRecord> back = parse_record_line(line);
  REQUIRE(back);
  CHECK(back->text == "- a\xEF\xBF\xBD\n");
}

TEST_CASE("sync record: a line parses back to the same record, with or without its LF") {
  SyncRecord tombstone = fact("- gone\n", 40, std::string(kT2));
  tombstone.deleted = true;
  tombstone.confidence = std::nullopt;
  tombstone.verified = std::nullopt;
  SyncRecord free_id = log_record(SyncTable::session_logs, "### 2026-11-30 x\n", std::string(kT1));
  free_id.id = "hand-written id";  // an existing Id is kept as it is, not reformatted
  for (const SyncRecord& r : {fact("- a\tb `c`\n", 100, std::string(kT1)), tombstone, free_id}) {
    const std::string line = record_line(r);
    const Result<SyncRecord> back = parse_record_line(line);
    REQUIRE(back);
    CHECK(*back == r);
    const Result<SyncRecord> bare = parse_record_line(line.substr(0, line.size() - 1));
    REQUIRE(bare);
    CHECK(*bare == r);
  }
}

TEST_CASE("sync record: bad lines are refused with the problem named") {
  const std::string good = record_line(fact("- a\n", 85, std::string(kT1)));
  const auto replaced = [&](std::string_view from, std::string_view to) {
    std::string s = good;
    const std::size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
  };
  CHECK(parse_problem("not json") == "sync record: not valid JSON");
  CHECK(parse_problem("[1]") == "sync record: not a JSON object");
  CHECK(parse_problem(good + good) == "sync record: more than one line");
  CHECK(parse_problem(replaced("\"deleted\":false,", "")) ==
        "sync record: missing key \"deleted\"");
  CHECK(parse_problem(replaced("\"deleted\":false,", "\"deleted\":false,\"extra\":1,")) ==
        "sync record: unknown key \"extra\"");
  CHECK(parse_problem(replaced("\"deleted\":false,", "\"deleted\":false,\"deleted\":true,")) ==
        "sync record: key 'deleted' given twice in one object");
  CHECK(parse_problem(replaced("\"id\":\"01930000-0000-7000-8000-000000000001\"", "\"id\":\"\"")) ==
        "sync record: id is not a valid Id value");
  CHECK(parse_problem(replaced("\"id\":\"01930000", "\"id\":\" 01930000")) ==
        "sync record: id is not a valid Id value");
  CHECK(parse_problem(replaced("\"id\":\"01930000", "\"id\":\"a\\n01930000")) ==
        "sync record: id is not a valid Id value");
  CHECK(parse_problem(replaced("\"workspace_id\":\"0192f3a4", "\"workspace_id\":\"0192F3A4")) ==
        "sync record: workspace_id is not a canonical UUID");
  CHECK(parse_problem(replaced("\"memories\"", "\"facts\"")) ==
        "sync record: unknown table \"facts\"");
  CHECK(parse_problem(replaced("\"file\":\"memory/LONG_TERM.md\"", "\"file\":\"\"")) ==
        "sync record: file is empty");
  CHECK(parse_problem(replaced("\"category\":\"Facts\"", "\"category\":3")) ==
        "sync record: category is not a string or null");
  CHECK(parse_problem(replaced("\"text\":\"- a\\n\"", "\"text\":null")) ==
        "sync record: text is not a string");
  for (const std::string_view bad : {"101", "-1", "0.85", "\"85\""}) {
    CAPTURE(bad);
    CHECK(parse_problem(replaced("\"confidence\":85", "\"confidence\":" + std::string(bad))) ==
          "sync record: confidence is not an integer 0-100 or null");
  }
  CHECK(parse_problem(replaced("\"2026-11-01\"", "\"2026-02-30\"")) ==
        "sync record: verified is not a YYYY-MM-DD date");
  for (const std::string_view bad :
       {"2026-11-30T09:00:00Z", "2026-11-30T09:00:00.000+00:00", "2026-11-30T24:00:00.000Z",
        "2026-11-31T09:00:00.000Z", "2026-11-30t09:00:00.000Z"}) {
    CAPTURE(bad);
    CHECK(parse_problem(replaced(kT1, bad)) ==
          "sync record: updated_at is not an RFC 3339 UTC time with milliseconds");
  }
  CHECK(parse_problem(replaced("\"deleted\":false", "\"deleted\":0")) ==
        "sync record: deleted is not a boolean");
  CHECK(parse_problem(replaced("\"memories\"", "\"session_logs\"")) ==
        "sync record: a log record has a confidence");
  CHECK(parse_problem(replaced("\"confidence\":85", "\"confidence\":null")) ==
        "sync record: a memories record lacks confidence or verified");
  CHECK(parse_problem(replaced("\"verified\":\"2026-11-01\"", "\"verified\":null")) ==
        "sync record: a memories record lacks confidence or verified");
}

TEST_CASE("uuid_v7: RFC 9562 layout, canonical lower case") {
  // RFC 9562 Appendix A.6: unix_ts_ms 0x017F22E279B0 (Tuesday, February 22, 2022 2:22:22 PM
  // GMT-05:00), rand_a 0xCC3, rand_b 0x18C4DC0C0C07398F.
  const std::array<std::uint8_t, 10> random = {0x0C, 0xC3, 0x18, 0xC4, 0xDC,
                                               0x0C, 0x0C, 0x07, 0x39, 0x8F};
  CHECK(uuid_v7(0x017F22E279B0ULL, random) == "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
  // The version and variant bits override whatever the random bytes hold.
  const std::array<std::uint8_t, 10> ones = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                             0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  const std::string all = uuid_v7(0xFFFFFFFFFFFFULL, ones);
  CHECK(all == "ffffffff-ffff-7fff-bfff-ffffffffffff");
  const std::array<std::uint8_t, 10> zeros{};
  CHECK(uuid_v7(0, zeros) == "00000000-0000-7000-8000-000000000000");
  // Only the low 48 bits of the time are used.
  CHECK(uuid_v7(0x1000000000001ULL, zeros) == "00000000-0001-7000-8000-000000000000");
  CHECK(is_uuid(all));
  // Later milliseconds sort later.
  CHECK(uuid_v7(1764493200000ULL, ones) < uuid_v7(1764493200001ULL, zeros));
}

TEST_CASE("is_uuid: canonical 8-4-4-4-12 lower-case hex only") {
  CHECK(is_uuid("0192f3a4-5b6c-7d8e-9f00-112233445566"));
  CHECK(is_uuid("00000000-0000-4000-8000-000000000000"));  // any version
  CHECK_FALSE(is_uuid("0192F3A4-5B6C-7D8E-9F00-112233445566"));
  CHECK_FALSE(is_uuid("0192f3a45b6c7d8e9f00112233445566"));
  CHECK_FALSE(is_uuid("{0192f3a4-5b6c-7d8e-9f00-112233445566}"));
  CHECK_FALSE(is_uuid("0192f3a4-5b6c-7d8e-9f00-11223344556g"));
  CHECK_FALSE(is_uuid("0192f3a4-5b6c7-d8e-9f00-112233445566"));
  CHECK_FALSE(is_uuid(""));
}

TEST_CASE("sync.json: render is canonical JSON + LF and parses back") {
  const SyncState fresh{.workspace_id = std::string(kWorkspace),
                        .last_pull_at = std::nullopt,
                        .last_push_at = std::nullopt,
                        .last_push_ok = false,
                        .pull_cursor = ""};
  CHECK(render_sync_state(fresh) ==
        "{\"last_pull_at\":null,\"last_push_at\":null,\"last_push_ok\":false,"
        "\"pull_cursor\":\"\",\"workspace_id\":\"0192f3a4-5b6c-7d8e-9f00-112233445566\"}\n");
  const SyncState used{.workspace_id = std::string(kWorkspace),
                       .last_pull_at = std::string(kT1),
                       .last_push_at = std::string(kT2),
                       .last_push_ok = true,
                       .pull_cursor = "120,0,33"};
  for (const SyncState& s : {fresh, used}) {
    const Result<SyncState> back = parse_sync_state(render_sync_state(s));
    REQUIRE(back);
    CHECK(*back == s);
  }
  // Whitespace and key order are free on input.
  const Result<SyncState> spaced = parse_sync_state(
      "{\n  \"workspace_id\": \"0192f3a4-5b6c-7d8e-9f00-112233445566\",\n"
      "  \"last_push_ok\": true, \"last_push_at\": null, \"last_pull_at\": null,\n"
      "  \"pull_cursor\": \"\"\n}\n");
  REQUIRE(spaced);
  CHECK(spaced->last_push_ok);
}

TEST_CASE("sync.json: bad input is refused with the problem named") {
  const auto problem = [](std::string_view bytes) {
    const Result<SyncState> r = parse_sync_state(bytes);
    REQUIRE_FALSE(r);
    return r.status().message();
  };
  const std::string ws = "\"workspace_id\":\"0192f3a4-5b6c-7d8e-9f00-112233445566\"";
  CHECK(problem("") == ".memkit/sync.json: not valid JSON");
  CHECK(problem("{") == ".memkit/sync.json: not valid JSON");
  CHECK(problem("null") == ".memkit/sync.json: not a JSON object");
  CHECK(problem("{" + ws + ",\"last_pull_at\":null,\"last_push_at\":null}") ==
        ".memkit/sync.json: missing key \"last_push_ok\"");
  CHECK(problem("{" + ws + ",\"last_pull_at\":null,\"last_push_at\":null,\"last_push_ok\":true," +
                "\"pull_cursor\":\"\",\"x\":1}") == ".memkit/sync.json: unknown key \"x\"");
  CHECK(problem("{" + ws + "," + ws +
                ",\"last_pull_at\":null,\"last_push_at\":null,\"last_push_ok\":true,\"pull_"
                "cursor\":\"\"}") ==
        ".memkit/sync.json: key 'workspace_id' given twice in one object");
  CHECK(problem("{\"workspace_id\":\"abc\",\"last_pull_at\":null,\"last_push_at\":null,"
                "\"last_push_ok\":true,\"pull_cursor\":\"\"}") ==
        ".memkit/sync.json: workspace_id is not a canonical UUID");
  CHECK(problem("{\"workspace_id\":7,\"last_pull_at\":null,\"last_push_at\":null,"
                "\"last_push_ok\":true,\"pull_cursor\":\"\"}") ==
        ".memkit/sync.json: workspace_id is not a string");
  CHECK(problem("{" + ws +
                ",\"last_pull_at\":\"2026-11-30\",\"last_push_at\":null,\"last_push_ok\":true,"
                "\"pull_cursor\":\"\"}") ==
        ".memkit/sync.json: last_pull_at is not an RFC 3339 UTC time with milliseconds");
  CHECK(problem("{" + ws +
                ",\"last_pull_at\":null,\"last_push_at\":1,\"last_push_ok\":true,\"pull_cursor\":"
                "\"\"}") == ".memkit/sync.json: last_push_at is not a string or null");
  CHECK(problem("{" + ws +
                ",\"last_pull_at\":null,\"last_push_at\":null,\"last_push_ok\":null,\"pull_"
                "cursor\":\"\"}") == ".memkit/sync.json: last_push_ok is not a boolean");
  CHECK(problem("{" + ws + ",\"last_pull_at\":null,\"last_push_at\":null,\"last_push_ok\":true," +
                "\"pull_cursor\":null}") == ".memkit/sync.json: pull_cursor is not a string");
}

TEST_CASE("merge: only one side changed since the last sync -> that side") {
  const SyncRecord old_local = fact("- a\n", 90, std::string(kOld));
  const SyncRecord new_remote = fact("- a edited\n", 50, std::string(kT1));
  // Remote changed, even with a lower confidence.
  CHECK(
      merge(old_local, new_remote, since_last(old_local, new_remote, 90, 50)) ==
      MergeDecision{.outcome = MergeOutcome::take_remote, .rule = MergeRule::only_remote_changed});
  // Local changed, even with a lower confidence.
  const SyncRecord new_local = fact("- a local\n", 50, std::string(kT1));
  const SyncRecord old_remote = fact("- a\n", 90, std::string(kOld));
  CHECK(merge(new_local, old_remote, since_last(new_local, old_remote, 50, 90)) ==
        MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::only_local_changed});
  // Logs alike.
  CHECK(merge(log_record(SyncTable::daily_logs, "x\n", std::string(kOld)),
              log_record(SyncTable::daily_logs, "y\n", std::string(kT1)),
              since_last(log_record(SyncTable::daily_logs, "x\n", std::string(kOld)),
                         log_record(SyncTable::daily_logs, "y\n", std::string(kT1)), std::nullopt,
                         std::nullopt)) == MergeDecision{.outcome = MergeOutcome::take_remote,
                                                         .rule = MergeRule::only_remote_changed});
  // A change stamped exactly at the last sync counts as a change.
  CHECK(merge(fact("- a local\n", 50, std::string(kLast)), old_remote,
              since_last(fact("- a local\n", 50, std::string(kLast)), old_remote, 50, 90)) ==
        MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::only_local_changed});
}

TEST_CASE("merge: the same content on both sides is no conflict") {
  const SyncRecord a = fact("- a\n", 90, std::string(kT1));
  CHECK(merge(a, a, since_last(a, a, 90, 90)) ==
        MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::same});
  const SyncRecord later = fact("- a\n", 90, std::string(kT2));
  CHECK(merge(a, later, since_last(a, later, 90, 90)) ==
        MergeDecision{.outcome = MergeOutcome::take_remote, .rule = MergeRule::same});
  // Canon: no difference, so no conflict, and the local entry is kept as it is.
  CHECK(merge(a, later, since_last(a, later, 90, 90, true)) ==
        MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::same});
  // Log ties on identical text are no conflict.
  const SyncRecord log = log_record(SyncTable::session_logs, "### 2026-11-30\n", std::string(kT1));
  CHECK(merge(log, log, since_last(log, log, std::nullopt, std::nullopt)).outcome ==
        MergeOutcome::take_local);
}

TEST_CASE("merge rule 1: logs -> the newer updated_at wins, equal timestamps conflict") {
  for (const SyncTable table : {SyncTable::session_logs, SyncTable::daily_logs}) {
    CAPTURE(sync_table_name(table));
    const SyncRecord l1 = log_record(table, "local\n", std::string(kT1));
    const SyncRecord l2 = log_record(table, "local\n", std::string(kT2));
    const SyncRecord r1 = log_record(table, "remote\n", std::string(kT1));
    const SyncRecord r2 = log_record(table, "remote\n", std::string(kT2));
    // Every record here is at or after the last sync: both sides changed.
    const MergeInput in = since_last(l1, r1, std::nullopt, std::nullopt);
    CHECK(merge(l2, r1, in) ==
          MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::log_newer});
    CHECK(merge(l1, r2, in) ==
          MergeDecision{.outcome = MergeOutcome::take_remote, .rule = MergeRule::log_newer});
    CHECK(merge(l1, r1, in) ==
          MergeDecision{.outcome = MergeOutcome::conflict, .rule = MergeRule::log_tie});
    // Confidences play no part in logs.
    CHECK(merge(l1, r2, since_last(l1, r2, 100, 0)).outcome == MergeOutcome::take_remote);
  }
}

TEST_CASE("merge rule 2: memory facts, every row of newer x higher") {
  using enum MergeOutcome;
  const SyncRecord l1 = fact("- local\n", 80, std::string(kT1));
  const SyncRecord l2 = fact("- local\n", 80, std::string(kT2));
  const SyncRecord r1 = fact("- remote\n", 80, std::string(kT1));
  const SyncRecord r2 = fact("- remote\n", 80, std::string(kT2));
  // newer exists, higher none -> newer.
  CHECK(merge(l2, r1, since_last(l2, r1, 80, 80)) ==
        MergeDecision{.outcome = take_local, .rule = MergeRule::fact_newer});
  CHECK(merge(l1, r2, since_last(l1, r2, 80, 80)) ==
        MergeDecision{.outcome = take_remote, .rule = MergeRule::fact_newer});
  // newer exists, higher the same side -> newer.
  CHECK(merge(l2, r1, since_last(l2, r1, 90, 80)) ==
        MergeDecision{.outcome = take_local, .rule = MergeRule::fact_newer});
  CHECK(merge(l1, r2, since_last(l1, r2, 80, 90)) ==
        MergeDecision{.outcome = take_remote, .rule = MergeRule::fact_newer});
  // newer none, higher exists -> higher.
  CHECK(merge(l1, r1, since_last(l1, r1, 90, 80)) ==
        MergeDecision{.outcome = take_local, .rule = MergeRule::fact_higher});
  CHECK(merge(l1, r1, since_last(l1, r1, 80, 90)) ==
        MergeDecision{.outcome = take_remote, .rule = MergeRule::fact_higher});
  // The two rules disagree -> truly ambiguous.
  CHECK(merge(l2, r1, since_last(l2, r1, 80, 90)) ==
        MergeDecision{.outcome = conflict, .rule = MergeRule::fact_ambiguous});
  CHECK(merge(l1, r2, since_last(l1, r2, 90, 80)) ==
        MergeDecision{.outcome = conflict, .rule = MergeRule::fact_ambiguous});
  // Both tie -> truly ambiguous.
  CHECK(merge(l1, r1, since_last(l1, r1, 80, 80)) ==
        MergeDecision{.outcome = conflict, .rule = MergeRule::fact_ambiguous});
  // The effective confidence decides, not the stored one: the caller passes the decayed values.
  const SyncRecord stored_high = fact("- local\n", 95, std::string(kT1));
  CHECK(merge(stored_high, r1, since_last(stored_high, r1, 70, 80)).outcome == take_remote);
  // A side without an effective confidence makes higher none.
  CHECK(merge(l2, r1, since_last(l2, r1, std::nullopt, 90)) ==
        MergeDecision{.outcome = take_local, .rule = MergeRule::fact_newer});
  CHECK(merge(l1, r1, since_last(l1, r1, 90, std::nullopt)) ==
        MergeDecision{.outcome = conflict, .rule = MergeRule::fact_ambiguous});
}

TEST_CASE("merge: on the first sync both sides count as changed") {
  const MergeInput first{.local_changed = true,
                         .remote_changed = true,
                         .local_effective = 80,
                         .remote_effective = 80,
                         .canon = false};
  CHECK(merge(fact("- l\n", 80, std::string(kOld)), fact("- r\n", 80, std::string(kT1)), first) ==
        MergeDecision{.outcome = MergeOutcome::take_remote, .rule = MergeRule::fact_newer});
}

TEST_CASE("merge rule 4: a deletion is an update at its updated_at") {
  SyncRecord deleted_remote = fact("- a\n", 80, std::string(kT2));
  deleted_remote.deleted = true;
  const SyncRecord l1 = fact("- a\n", 80, std::string(kT1));
  // A newer deletion wins over an older edit.
  CHECK(merge(l1, deleted_remote, since_last(l1, deleted_remote, 80, 80)) ==
        MergeDecision{.outcome = MergeOutcome::take_remote, .rule = MergeRule::fact_newer});
  // An older deletion loses to a newer edit.
  SyncRecord deleted_old = deleted_remote;
  deleted_old.updated_at = std::string(kT1);
  CHECK(merge(fact("- a\n", 80, std::string(kT2)), deleted_old,
              since_last(fact("- a\n", 80, std::string(kT2)), deleted_old, 80, 80)) ==
        MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::fact_newer});
  // A deletion from before the last sync is not a change.
  deleted_old.updated_at = std::string(kOld);
  CHECK(merge(l1, deleted_old, since_last(l1, deleted_old, 80, 80)) ==
        MergeDecision{.outcome = MergeOutcome::take_local, .rule = MergeRule::only_local_changed});
  // A deleted log at the same time as a local edit is a conflict.
  SyncRecord deleted_log = log_record(SyncTable::daily_logs, "x\n", std::string(kT1));
  deleted_log.deleted = true;
  CHECK(merge(log_record(SyncTable::daily_logs, "x\n", std::string(kT1)), deleted_log,
              since_last(log_record(SyncTable::daily_logs, "x\n", std::string(kT1)), deleted_log,
                         std::nullopt, std::nullopt)) ==
        MergeDecision{.outcome = MergeOutcome::conflict, .rule = MergeRule::log_tie});
}

TEST_CASE(
    "merge rule 5: a canon entry is never overwritten from remote, any difference conflicts") {
  const SyncRecord old_local = fact("- canon\n", 80, std::string(kOld));
  const SyncRecord new_remote = fact("- canon changed\n", 100, std::string(kT2));
  CHECK(merge(old_local, new_remote, since_last(old_local, new_remote, 80, 100, true)) ==
        MergeDecision{.outcome = MergeOutcome::conflict, .rule = MergeRule::canon});
  CHECK(merge(fact("- canon local\n", 80, std::string(kT2)), old_local,
              since_last(fact("- canon local\n", 80, std::string(kT2)), old_local, 80, 80, true)) ==
        MergeDecision{.outcome = MergeOutcome::conflict, .rule = MergeRule::canon});
  // A file or category change is a difference too, even with the text unchanged.
  SyncRecord moved = old_local;
  moved.file = "brain/MARKETING_CANON.md";
  CHECK(merge(old_local, moved, since_last(old_local, moved, 80, 80, true)).outcome ==
        MergeOutcome::conflict);
  SyncRecord recategorised = old_local;
  recategorised.category = std::nullopt;
  CHECK(
      merge(old_local, recategorised, since_last(old_local, recategorised, 80, 80, true)).outcome ==
      MergeOutcome::conflict);
}

namespace {
SyncRecord version(std::string text, std::optional<std::uint32_t> confidence = 90) {
  SyncRecord r;
  r.id = "01930000-0000-7000-8000-000000000001";
  r.workspace_id = "01930000-0000-7000-8000-0000000000ff";
  r.file = "memory/LONG_TERM.md";
  r.category = "Facts";
  r.text = std::move(text);
  r.confidence = confidence;
  r.verified = "2026-11-20";
  r.updated_at = "2026-11-30T10:00:00.000Z";
  return r;
}
}  // namespace

TEST_CASE("conflict block: H2 with the id and date, each version's fields and fenced text") {
  SyncRecord remote = version("- remote");
  remote.confidence = 95;
  remote.verified = std::nullopt;
  remote.category = std::nullopt;
  remote.file = "memory/PATTERNS.md";
  remote.updated_at = "2026-11-30T11:00:00.000Z";
  CHECK(conflict_block(remote.id, "2026-11-30", version("- local\n"), remote) ==
        "## 01930000-0000-7000-8000-000000000001 \xE2\x80\x94 2026-11-30\n"
        "\n"
        "Local:\n"
        "\n"
        "- file: memory/LONG_TERM.md\n"
        "- category: Facts\n"
        "- confidence: 0.90\n"
        "- verified: 2026-11-20\n"
        "- updated_at: 2026-11-30T10:00:00.000Z\n"
        "- deleted: no\n"
        "\n"
        "```\n"
        "- local\n"
        "```\n"
        "\n"
        "Remote:\n"
        "\n"
        "- file: memory/PATTERNS.md\n"
        "- category: none\n"
        "- confidence: 0.95\n"
        "- verified: none\n"
        "- updated_at: 2026-11-30T11:00:00.000Z\n"
        "- deleted: no\n"
        "\n"
        "```\n"
        "- remote\n"
        "```\n");
  SyncRecord gone = version("- kept text of a deletion\n", std::nullopt);
  gone.deleted = true;
  const std::string block = conflict_block("x", "2026-11-30", version(""), gone);
  CHECK(block.find("Local:\n\n- file: memory/LONG_TERM.md\n") != std::string::npos);
  CHECK(block.find("- confidence: none\n- verified: 2026-11-20\n") != std::string::npos);
  CHECK(block.ends_with("- deleted: yes\n\n```\n```\n"));  // a deletion has no text
}

TEST_CASE("conflict block: versions that differ only in their fields are told apart") {
  SyncRecord remote = version("- same text\n");
  remote.confidence = 50;
  const std::string block = conflict_block("x", "d", version("- same text\n"), remote);
  CHECK(block.find("- confidence: 0.90\n") != std::string::npos);
  CHECK(block.find("- confidence: 0.50\n") != std::string::npos);
}

TEST_CASE("conflict block: the fence is longer than any backtick run inside") {
  CHECK(fence_for("plain") == "```");
  CHECK(fence_for("a `b` c") == "```");
  CHECK(fence_for("```\ncode\n```\n") == "````");
  CHECK(fence_for("x ````` y") == "``````");
  const std::string block =
      conflict_block("id", "2026-11-30", version("```sh\nls\n```\n"), version("inline ```` run\n"));
  CHECK(block.find("\n\n`````\n```sh\nls\n```\n`````\n\nRemote:") != std::string::npos);
  CHECK(block.ends_with("\n\n`````\ninline ```` run\n`````\n"));
  // A run across the two texts' boundary does not count.
  CHECK(conflict_block("id", "d", version("a``"), version("``b")).find("\n```\na``\n```\n") !=
        std::string::npos);
}
