// The writes of the tiers commands (spec tiers3.md §9): every argument checked first, a refusal
// writes nothing, the commit order is L1, L2, L3 (or L1, CSV, manifest), invalid UTF-8 in a file
// to be changed is a BLOCKER; write-global --replace backups (§6); CSV writes (§10); the
// archive-themes plan (§11).
#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "memkit/tiers.hpp"
#include "tiers_support.hpp"

using namespace memkit;
using namespace memkit::tiers;
using tiers_test::at;
using tiers_test::bytes_at;
using tiers_test::finding;
using tiers_test::has_code;
using tiers_test::paths_of;
using tiers_test::snapshot;
using tiers_test::spec_now;

namespace {

using Strings = std::vector<std::string>;

constexpr const char* kL1 = "memory/sessions/2026-03-07.md";
constexpr const char* kL2 = "memory/decision/2026-03-07_14.md";
constexpr const char* kGlobal = "memory/global.md";
constexpr const char* kManifest = "memory/data/manifest.json";

const std::string kSpecL1 =
    "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n**Session:** s1\n"
    "**Tools:** search, read\n\nRaw one\n\n---";
const std::string kSpecL2 = "## Decision Record: Default command\n\nUse persist-turn.\n";

// The §15 persist-turn.
PersistTurn spec_persist() {
  PersistTurn request;
  request.turn.entry_type = "assistant";
  request.turn.session_id = "s1";
  request.turn.tools_json = R"(["search","read"])";
  request.raw_content = "  Raw one  ";
  request.extracted_content = "Use persist-turn.";
  request.theme = "Decision";
  request.templ = "decision";
  request.title = "Default command";
  return request;
}

void check_nothing_written(const Change& change, std::string_view code) {
  CAPTURE(code);
  CHECK(change.refused());
  CHECK(change.operations.empty());
  CHECK(has_code(change.findings, code));
}

// A file that holds an ill-formed sequence on line `line` (1-based).
std::string bad_utf8_on_line(int line) {
  std::string text;
  for (int i = 1; i < line; ++i) text += "ok line\n";
  return text + "bad \xFF byte\nafter";
}

void check_utf8_blocker(const Change& change, const std::string& path, int line) {
  CHECK(change.operations.empty());
  const Finding* f = finding(change.findings, "MK-UTF8-001");
  CHECK(f != nullptr);
  if (f == nullptr) return;
  CHECK(f->severity == Severity::blocker);
  CHECK(f->path == path);
  CHECK(f->message == path + ":" + std::to_string(line) + ": invalid UTF-8 sequence");
}

}  // namespace

// ---- persist-turn ------------------------------------------------------------------------------

TEST_CASE("tiers persist-turn: the §15 vector writes L1 then L2, and no L3") {
  Written written;
  const Change change = plan_persist_turn(snapshot({}), spec_persist(), spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(paths_of(change.operations) == Strings{kL1, kL2});
  CHECK(bytes_at(change.operations, kL1) == kSpecL1);
  CHECK(bytes_at(change.operations, kL2) == kSpecL2);
  CHECK(change.operations[0].kind == OperationKind::create);
  CHECK(written.l1_path == kL1);
  CHECK(written.l2_path == std::optional<std::string>(kL2));
  CHECK(written.theme == std::optional<std::string>("decision"));
  CHECK_FALSE(written.global_updated);
}

TEST_CASE("tiers persist-turn: the §15 second turn at 14:30:00 appends to both files") {
  PersistTurn second;
  second.raw_content = "second";
  second.extracted_content = "second note";
  second.theme = "decision";
  Written written;
  const Change change = plan_persist_turn(snapshot({{kL1, kSpecL1}, {kL2, kSpecL2}}), second,
                                          at("2026-03-07T14:30:00+00:00"), written);
  CHECK(change.findings.empty());
  CHECK(paths_of(change.operations) == Strings{kL1, kL2});
  CHECK(bytes_at(change.operations, kL1) ==
        kSpecL1 + "\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---");
  CHECK(bytes_at(change.operations, kL2) ==
        kSpecL2 + "\n\n## 2026-03-07 14:30:00\n\nsecond note\n");
  CHECK(change.operations[0].kind == OperationKind::replace);
}

// The shell reads the L1 log and the L2 note a turn appends to at their end only (issue 31).
TEST_CASE("tiers persist-turn: a log and a note read at their end are appended to") {
  PersistTurn second;
  second.raw_content = "second";
  second.extracted_content = "second note";
  second.theme = "decision";
  Written written;
  const Change change = plan_persist_turn(snapshot({{kL1, kSpecL1}, {kL2, kSpecL2}}, 10), second,
                                          at("2026-03-07T14:30:00+00:00"), written);
  CHECK(change.findings.empty());
  REQUIRE(paths_of(change.operations) == Strings{kL1, kL2});
  CHECK(change.operations[0].kind == OperationKind::append);
  CHECK(change.operations[0].base_size() == kSpecL1.size());
  CHECK(change.operations[0].appended() == "\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---");
  CHECK(change.operations[1].kind == OperationKind::append);
  CHECK(change.operations[1].appended() == "\n\n## 2026-03-07 14:30:00\n\nsecond note\n");
}

TEST_CASE("tiers persist-turn: the end of a log is checked for UTF-8 from a character on") {
  // The end read begins inside "é" (two bytes): not a fault of the file.
  const std::string log = "# Session Log\n\ncaf\xC3\xA9 and more\n\n---";
  const std::size_t tail = log.size() - log.find('\xA9');
  PersistTurn turn;
  turn.raw_content = "x";
  Written written;
  const Change fine = plan_persist_turn(snapshot({{kL1, log}}, tail), turn, spec_now(), written);
  CHECK(fine.findings.empty());
  CHECK(fine.operations.size() == 1);
  // An ill-formed byte in the end read refuses the turn, named by its byte offset in the file.
  const std::string bad = log + "\xFF";
  const Change refused =
      plan_persist_turn(snapshot({{kL1, bad}}, tail + 1), turn, spec_now(), written);
  CHECK(refused.operations.empty());
  const Finding* f = finding(refused.findings, "MK-UTF8-001");
  REQUIRE(f != nullptr);
  CHECK(f->message ==
        std::string(kL1) + ": invalid UTF-8 sequence at byte " + std::to_string(log.size()));
}

TEST_CASE("tiers persist-turn: --promote-global appends the promotion block, L3 last") {
  PersistTurn request = spec_persist();
  request.promote_global = true;
  Written written;
  const Change missing = plan_persist_turn(snapshot({}), request, spec_now(), written);
  CHECK(paths_of(missing.operations) == Strings{kL1, kL2, kGlobal});
  CHECK(bytes_at(missing.operations, kGlobal) ==
        std::string(global_skeleton()) +
            "\n\n## Persisted Turn Promotion - 2026-03-07 14:05\n\nUse persist-turn.");
  CHECK(written.global_updated);

  Written again;
  const Change existing =
      plan_persist_turn(snapshot({{kGlobal, "# Mine\n"}}), request, spec_now(), again);
  CHECK(bytes_at(existing.operations, kGlobal) ==
        "# Mine\n\n\n## Persisted Turn Promotion - 2026-03-07 14:05\n\nUse persist-turn.");
}

TEST_CASE("tiers persist-turn: without extracted content only L1 is written") {
  PersistTurn request;
  request.raw_content = "raw";
  request.promote_global = true;  // promotes nothing without extracted content
  Written written;
  const Change change = plan_persist_turn(snapshot({}), request, spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(paths_of(change.operations) == Strings{kL1});
  CHECK_FALSE(written.global_updated);
  CHECK_FALSE(written.theme.has_value());
  CHECK_FALSE(written.l2_path.has_value());
}

TEST_CASE("tiers persist-turn: a title empty after stripping is absent") {
  PersistTurn request = spec_persist();
  request.title = " \t ";
  Written written;
  const Change change = plan_persist_turn(snapshot({}), request, spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(bytes_at(change.operations, kL2) ==
        "## Decision Record - 2026-03-07 14:05:09\n\nUse persist-turn.\n");
  request.title = "  Spaced title \n";
  const Change stripped = plan_persist_turn(snapshot({}), request, spec_now(), written);
  CHECK(bytes_at(stripped.operations, kL2) ==
        "## Decision Record: Spaced title\n\nUse persist-turn.\n");
}

TEST_CASE("tiers persist-turn: every refusal writes nothing, not even L1") {
  const auto refused = [](const std::function<void(PersistTurn&)>& edit, std::string_view code) {
    PersistTurn request = spec_persist();
    edit(request);
    Written written;
    check_nothing_written(plan_persist_turn(snapshot({}), request, spec_now(), written), code);
  };
  refused([](PersistTurn& r) { r.theme.reset(); }, "MK-TIERS-004");
  refused([](PersistTurn& r) { r.theme = "auto"; }, "MK-TIERS-003");
  refused([](PersistTurn& r) { r.theme = "../x"; }, "MK-TIERS-002");
  refused([](PersistTurn& r) { r.theme = "archive"; }, "MK-TIERS-002");
  refused([](PersistTurn& r) { r.templ = "decisions"; }, "MK-ARG-001");
  refused([](PersistTurn& r) { r.title = "two\nlines"; }, "MK-TIERS-001");
  refused([](PersistTurn& r) { r.extracted_content = "  \n "; }, "MK-TIERS-001");
  refused([](PersistTurn& r) { r.raw_content = ""; }, "MK-TIERS-001");
  refused([](PersistTurn& r) { r.turn.tools_json = R"("search")"; }, "MK-TIERS-001");
  refused([](PersistTurn& r) { r.turn.entry_type = "two words"; }, "MK-TIERS-001");
  refused([](PersistTurn& r) { r.turn.session_id = "a\nb"; }, "MK-TIERS-001");
}

TEST_CASE("tiers persist-turn: invalid UTF-8 in a file it would append to is a BLOCKER") {
  Written written;
  check_utf8_blocker(plan_persist_turn(snapshot({{kL1, bad_utf8_on_line(4)}}), spec_persist(),
                                       spec_now(), written),
                     kL1, 4);
  check_utf8_blocker(plan_persist_turn(snapshot({{kL2, bad_utf8_on_line(1)}}), spec_persist(),
                                       spec_now(), written),
                     kL2, 1);
  PersistTurn promote = spec_persist();
  promote.promote_global = true;
  check_utf8_blocker(
      plan_persist_turn(snapshot({{kGlobal, bad_utf8_on_line(2)}}), promote, spec_now(), written),
      kGlobal, 2);
  // Without the promotion global.md is not changed, so its bytes do not matter.
  CHECK_FALSE(plan_persist_turn(snapshot({{kGlobal, bad_utf8_on_line(2)}}), spec_persist(),
                                spec_now(), written)
                  .refused());
}

// ---- log-turn and session-init ------------------------------------------------------------------

TEST_CASE("tiers log-turn: one L1 entry, or nothing when refused") {
  LogTurn request;
  request.content = "hello";
  Written written;
  const Change change = plan_log_turn(snapshot({}), request, spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(paths_of(change.operations) == Strings{kL1});
  CHECK(bytes_at(change.operations, kL1) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nhello\n\n---");
  CHECK(written.l1_path == kL1);

  request.content = " ";
  check_nothing_written(plan_log_turn(snapshot({}), request, spec_now(), written), "MK-TIERS-001");
  request.content = "hello";
  request.turn.tools_json = R"({"a":"b"})";
  check_nothing_written(plan_log_turn(snapshot({}), request, spec_now(), written), "MK-TIERS-001");
  request.turn.tools_json = "7";
  check_nothing_written(plan_log_turn(snapshot({}), request, spec_now(), written), "MK-TIERS-001");
  request.turn.tools_json.reset();
  check_utf8_blocker(
      plan_log_turn(snapshot({{kL1, bad_utf8_on_line(3)}}), request, spec_now(), written), kL1, 3);
}

TEST_CASE("tiers session-init: the SESSION_INIT entry") {
  Written written;
  const Change change = plan_session_entry(snapshot({{kL1, "# Session Log - 2026-03-07"}}), " s9 ",
                                           spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(bytes_at(change.operations, kL1) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] SESSION_INIT\n**Session:** s9\n\n"
        "Session initialized; memory context loaded.\n\n---");
  check_nothing_written(plan_session_entry(snapshot({}), "a\r\nb", spec_now(), written),
                        "MK-TIERS-001");
}

// ---- write-theme --------------------------------------------------------------------------------

TEST_CASE("tiers write-theme: L1 with the note's content or --raw-content, then L2, then L3") {
  WriteTheme request;
  request.theme = " Decision ";
  request.content = "Pick A.";
  request.templ = "task";
  request.promote_global = true;
  Written written;
  const Change change = plan_write_theme(snapshot({}), request, spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(paths_of(change.operations) == Strings{kL1, kL2, kGlobal});
  CHECK(bytes_at(change.operations, kL1) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nPick A.\n\n---");
  CHECK(bytes_at(change.operations, kL2) == "## Task Record - 2026-03-07 14:05:09\n\nPick A.\n");
  CHECK(bytes_at(change.operations, kGlobal) ==
        std::string(global_skeleton()) +
            "\n\n## Theme Memory Promotion - 2026-03-07 14:05\n\nPick A.");
  CHECK(written.theme == std::optional<std::string>("decision"));
  CHECK(written.global_updated);

  request.raw_content = "the raw turn";
  request.promote_global = false;
  Written raw;
  const Change with_raw = plan_write_theme(snapshot({}), request, spec_now(), raw);
  CHECK(paths_of(with_raw.operations) == Strings{kL1, kL2});
  CHECK(bytes_at(with_raw.operations, kL1) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nthe raw turn\n\n---");
  CHECK_FALSE(raw.global_updated);
}

TEST_CASE("tiers write-theme: refusals write nothing") {
  const auto refused = [](const std::function<void(WriteTheme&)>& edit, std::string_view code) {
    WriteTheme request;
    request.theme = "decision";
    request.content = "c";
    edit(request);
    Written written;
    check_nothing_written(plan_write_theme(snapshot({}), request, spec_now(), written), code);
  };
  refused([](WriteTheme& r) { r.theme = "auto"; }, "MK-TIERS-003");
  refused([](WriteTheme& r) { r.theme = ""; }, "MK-TIERS-002");
  refused([](WriteTheme& r) { r.theme = "sessions"; }, "MK-TIERS-002");
  refused([](WriteTheme& r) { r.content = "\n"; }, "MK-TIERS-001");
  refused([](WriteTheme& r) { r.raw_content = " "; }, "MK-TIERS-001");
  refused([](WriteTheme& r) { r.templ = "Task"; }, "MK-ARG-001");
  refused([](WriteTheme& r) { r.title = "a\rb"; }, "MK-TIERS-001");
}

// ---- write-global
// --------------------------------------------------------------------------------

TEST_CASE("tiers write-global: append is the default, a missing file starts from the skeleton") {
  WriteGlobal request;
  request.content = "  ## Note\n\nKeep it.  ";
  Written written;
  const Change missing = plan_write_global(snapshot({}), request, spec_now(), written);
  CHECK(missing.findings.empty());
  CHECK(paths_of(missing.operations) == Strings{kL1, kGlobal});
  CHECK(bytes_at(missing.operations, kGlobal) ==
        std::string(global_skeleton()) + "\n\n## Note\n\nKeep it.");
  CHECK(
      bytes_at(missing.operations, kL1) ==
      "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\n## Note\n\nKeep it.\n\n---");
  CHECK_FALSE(written.backup_path.has_value());

  const Change existing =
      plan_write_global(snapshot({{kGlobal, "# G\nold"}}), request, spec_now(), written);
  CHECK(bytes_at(existing.operations, kGlobal) == "# G\nold\n\n## Note\n\nKeep it.");
  CHECK(existing.operations[1].kind == OperationKind::replace);
  check_utf8_blocker(
      plan_write_global(snapshot({{kGlobal, bad_utf8_on_line(7)}}), request, spec_now(), written),
      kGlobal, 7);
}

TEST_CASE("tiers write-global --replace: the old bytes are kept first, then content and LF") {
  WriteGlobal request;
  request.content = " New global ";
  request.raw_content = "replaced global.md";
  request.replace = true;
  Written written;
  const std::string backup = "memory/archive/global/global-20260307T140509.md";
  const Change change =
      plan_write_global(snapshot({{kGlobal, "# Old\r\nbytes"}}), request, spec_now(), written);
  CHECK(change.findings.empty());
  REQUIRE(change.operations.size() == 3);
  CHECK(change.operations.front().path == kL1);
  CHECK(change.operations.back().path == kGlobal);
  CHECK(bytes_at(change.operations, backup) == "# Old\r\nbytes");
  CHECK(bytes_at(change.operations, kGlobal) == "New global\n");
  CHECK(
      bytes_at(change.operations, kL1) ==
      "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\nreplaced global.md\n\n---");
  CHECK(written.backup_path == std::optional<std::string>(backup));
}

TEST_CASE("tiers write-global --replace: backup names take -2, -3 when the name exists") {
  WriteGlobal request;
  request.content = "x";
  request.replace = true;
  Written written;
  const std::string stem = "memory/archive/global/global-20260307T140509";
  const Change change =
      plan_write_global(snapshot({{kGlobal, "old"}, {stem + ".md", "a"}, {stem + "-2.md", "b"}}),
                        request, spec_now(), written);
  CHECK(written.backup_path == std::optional<std::string>(stem + "-3.md"));
  CHECK(bytes_at(change.operations, stem + "-3.md") == "old");

  std::set<std::string> taken;
  const auto is_taken = [&](const std::string& p) { return taken.count(p) > 0; };
  CHECK(global_backup_path(spec_now(), is_taken) == stem + ".md");
  taken.insert(stem + ".md");
  CHECK(global_backup_path(spec_now(), is_taken) == stem + "-2.md");
  taken.insert(stem + "-2.md");
  CHECK(global_backup_path(spec_now(), is_taken) == stem + "-3.md");
  // Local wall time names the copy.
  CHECK(global_backup_path(at("2026-03-08T01:02:03+09:00"), is_taken) ==
        "memory/archive/global/global-20260308T010203.md");
}

TEST_CASE(
    "tiers write-global --replace of a missing file: content and LF, no backup, no skeleton") {
  WriteGlobal request;
  request.content = "Only this";
  request.replace = true;
  Written written;
  const Change change = plan_write_global(snapshot({}), request, spec_now(), written);
  CHECK(paths_of(change.operations) == Strings{kL1, kGlobal});
  CHECK(bytes_at(change.operations, kGlobal) == "Only this\n");
  CHECK_FALSE(written.backup_path.has_value());
}

TEST_CASE("tiers write-global --replace: invalid UTF-8 in global.md, a file it changes, refuses") {
  // §9: invalid UTF-8 in any file the command would change is MK-UTF8-001 and nothing is written.
  WriteGlobal request;
  request.content = "x";
  request.replace = true;
  Written written;
  check_utf8_blocker(
      plan_write_global(snapshot({{kGlobal, bad_utf8_on_line(2)}}), request, spec_now(), written),
      kGlobal, 2);
}

TEST_CASE("tiers write-global: refusals write nothing") {
  WriteGlobal request;
  request.content = "\t";
  Written written;
  check_nothing_written(plan_write_global(snapshot({}), request, spec_now(), written),
                        "MK-TIERS-001");
  request.content = "ok";
  request.turn.session_id = "";
  check_nothing_written(plan_write_global(snapshot({}), request, spec_now(), written),
                        "MK-TIERS-001");
  request.turn.session_id.reset();
  request.raw_content = "  ";
  check_nothing_written(plan_write_global(snapshot({}), request, spec_now(), written),
                        "MK-TIERS-001");
}

// ---- write-data
// -----------------------------------------------------------------------------------

namespace {

const std::string kSpecCsv = "name,note\n\"Smith, J\",\"line1\nline2\"\n\nx,\"say \"\"hi\"\"\"";

WriteData data_request(std::string name = "people", std::string csv = kSpecCsv) {
  WriteData request;
  request.name = std::move(name);
  request.csv = std::move(csv);
  return request;
}

}  // namespace

TEST_CASE("tiers write-data: L1, then the CSV byte for byte, then manifest.json") {
  Written written;
  const Change change = plan_write_data(snapshot({}), data_request(), spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(paths_of(change.operations) == Strings{kL1, "memory/data/people.csv", kManifest});
  CHECK(bytes_at(change.operations, kL1) ==
        "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] TURN\n\n"
        "Stored CSV memory data file people.csv\n\n---");
  CHECK(bytes_at(change.operations, "memory/data/people.csv") == kSpecCsv);
  REQUIRE(written.manifest_entry.has_value());
  CHECK(written.data_path == std::optional<std::string>("memory/data/people.csv"));
  CHECK(written.manifest_entry->row_count == 2);
  CHECK(written.manifest_entry->column_count == 2);
  CHECK(written.manifest_entry->detected_columns == Strings{"name", "note"});
  CHECK_FALSE(written.manifest_entry->declared_columns.has_value());
  CHECK(bytes_at(change.operations, kManifest) ==
        *manifest_with(std::nullopt, *written.manifest_entry));
}

TEST_CASE("tiers write-data: labels, declared columns and --raw-content") {
  WriteData request = data_request("people.CSV");
  request.description = "people";
  request.source_label = "CRM";
  request.columns_json = R"(["name","note"])";
  request.raw_content = "stored the people table";
  Written written;
  const Change change =
      plan_write_data(snapshot({{kManifest, "{}\n"}}), request, spec_now(), written);
  CHECK(change.findings.empty());
  // The suffix is written .csv, so that list-data finds the file.
  CHECK(paths_of(change.operations) == Strings{kL1, "memory/data/people.csv", kManifest});
  REQUIRE(written.manifest_entry.has_value());
  CHECK(written.manifest_entry->declared_columns ==
        std::optional<Strings>(Strings{"name", "note"}));
  CHECK(written.manifest_entry->description == std::optional<std::string>("people"));
  CHECK(written.manifest_entry->source_label == std::optional<std::string>("CRM"));
  CHECK(bytes_at(change.operations, kL1).find("\n\nstored the people table\n\n---") !=
        std::string::npos);

  // An empty declared list is null, and no warning.
  request.columns_json = "[]";
  Written empty;
  const Change none = plan_write_data(snapshot({}), request, spec_now(), empty);
  CHECK(none.findings.empty());
  CHECK_FALSE(empty.manifest_entry->declared_columns.has_value());
}

TEST_CASE("tiers write-data: declared columns that differ are stored with MK-TIERS-013") {
  WriteData request = data_request();
  request.columns_json = R"(["name","notes"])";
  Written written;
  const Change change = plan_write_data(snapshot({}), request, spec_now(), written);
  CHECK_FALSE(change.refused());
  CHECK(change.operations.size() == 3);
  const Finding* warning = finding(change.findings, "MK-TIERS-013");
  REQUIRE(warning != nullptr);
  CHECK(warning->severity == Severity::warning);
  CHECK_FALSE(warning->fatal);
  CHECK(written.manifest_entry->declared_columns ==
        std::optional<Strings>(Strings{"name", "notes"}));
}

TEST_CASE("tiers write-data: an existing file needs --replace (MK-TIERS-011)") {
  const Snapshot files = snapshot({{"memory/data/people.csv", "old\n"}});
  Written written;
  const Change refused = plan_write_data(files, data_request(), spec_now(), written);
  check_nothing_written(refused, "MK-TIERS-011");
  CHECK(finding(refused.findings, "MK-TIERS-011")->severity == Severity::error);
  CHECK_FALSE(finding(refused.findings, "MK-TIERS-011")->fatal);

  WriteData replace = data_request();
  replace.replace = true;
  const Change replaced = plan_write_data(files, replace, spec_now(), written);
  CHECK_FALSE(replaced.refused());
  CHECK(bytes_at(replaced.operations, "memory/data/people.csv") == kSpecCsv);
}

TEST_CASE("tiers write-data: an unterminated quoted field is MK-TIERS-012 at its line") {
  Written written;
  const Change change =
      plan_write_data(snapshot({}), data_request("x", "a,b\n1,\"open\n2\n"), spec_now(), written);
  check_nothing_written(change, "MK-TIERS-012");
  const Finding* f = finding(change.findings, "MK-TIERS-012");
  CHECK(f->severity == Severity::error);
  CHECK_FALSE(f->fatal);
  CHECK(f->path == "memory/data/x.csv");
  CHECK(f->message.rfind("memory/data/x.csv:2:", 0) == 0);
}

TEST_CASE("tiers write-data: CSV content with invalid UTF-8 is MK-UTF8-001 at its line") {
  Written written;
  check_utf8_blocker(
      plan_write_data(snapshot({}), data_request("x", "a,b\n1,2\n3,\xC3\n"), spec_now(), written),
      "memory/data/x.csv", 3);
}

TEST_CASE("tiers write-data: empty CSV content is accepted") {
  Written written;
  const Change change = plan_write_data(snapshot({}), data_request("e", ""), spec_now(), written);
  CHECK(change.findings.empty());
  CHECK(bytes_at(change.operations, "memory/data/e.csv") == "");
  CHECK(written.manifest_entry->detected_columns.empty());
  CHECK(written.manifest_entry->row_count == 0);
  CHECK(written.manifest_entry->column_count == 0);
}

TEST_CASE("tiers write-data: invalid UTF-8 in the data file or manifest it changes refuses") {
  // §9 as for global.md: the CSV file replaced and manifest.json rewritten are changed files.
  WriteData request = data_request();
  request.replace = true;
  Written written;
  check_utf8_blocker(plan_write_data(snapshot({{"memory/data/people.csv", bad_utf8_on_line(3)}}),
                                     request, spec_now(), written),
                     "memory/data/people.csv", 3);
  check_utf8_blocker(plan_write_data(snapshot({{kManifest, "{\n  \"a.csv\": \"\xFF\"\n}\n"}}),
                                     request, spec_now(), written),
                     kManifest, 2);
}

TEST_CASE("tiers write-data: refusals write nothing") {
  Written written;
  for (const char* bad : {"a/b", ".hidden", "..", "a\\b"}) {
    CAPTURE(bad);
    check_nothing_written(plan_write_data(snapshot({}), data_request(bad), spec_now(), written),
                          "MK-ARG-001");
  }
  WriteData columns = data_request();
  columns.columns_json = R"("name")";
  check_nothing_written(plan_write_data(snapshot({}), columns, spec_now(), written), "MK-ARG-001");
  WriteData tools = data_request();
  tools.turn.tools_json = "[1]";
  check_nothing_written(plan_write_data(snapshot({}), tools, spec_now(), written), "MK-TIERS-001");
  // A manifest that is no JSON object is not overwritten.
  const Change manifest =
      plan_write_data(snapshot({{kManifest, "[]"}}), data_request(), spec_now(), written);
  CHECK(manifest.refused());
  CHECK(manifest.operations.empty());
  check_utf8_blocker(
      plan_write_data(snapshot({{kL1, bad_utf8_on_line(2)}}), data_request(), spec_now(), written),
      kL1, 2);
}

// ---- archive-themes
// -------------------------------------------------------------------------------

namespace {

std::vector<NoteFile> old_notes() {
  TiersTree tree;
  tree.theme_folders["b"] = {"2025-01-01_10.md"};
  tree.theme_folders["a"] = {"2025-01-02_11.md"};
  return archive_candidates(tree, spec_now(), 90);
}

}  // namespace

TEST_CASE("tiers archive-themes: each old note moves to memory/archive/<theme>/") {
  const std::vector<NoteFile> notes = old_notes();
  REQUIRE(notes.size() == 2);
  CHECK(archive_path_of(notes[0]) == "memory/archive/a/2025-01-02_11.md");
  const Snapshot files = snapshot({{"memory/a/2025-01-02_11.md", "A"},
                                   {"memory/b/2025-01-01_10.md", "B"},
                                   {"memory/archive/a/2025-01-02_11.md", std::nullopt},
                                   {"memory/archive/b/2025-01-01_10.md", std::nullopt}});
  const ArchivePlan archive = plan_archive_themes(files, notes, 90);
  CHECK(archive.findings.empty());
  CHECK(archive.candidates.size() == 2);
  REQUIRE(archive.plan.has_value());
  CHECK(archive.plan->command() == "tiers archive-themes");
  REQUIRE(archive.plan->arguments().count("days") == 1);
  CHECK(archive.plan->arguments().at("days").text() == "90");
  std::set<std::string> seen;
  for (const PlanOperation& op : archive.plan->operations()) {
    seen.insert(std::string(operation_kind_name(op.kind)) + " " + op.path);
    if (op.kind == OperationKind::create) {
      CHECK(op.output.render() == (op.path.find("/a/") != std::string::npos ? "A" : "B"));
    }
  }
  CHECK(seen == std::set<std::string>{"create memory/archive/a/2025-01-02_11.md",
                                      "create memory/archive/b/2025-01-01_10.md",
                                      "delete memory/a/2025-01-02_11.md",
                                      "delete memory/b/2025-01-01_10.md"});
}

TEST_CASE("tiers archive-themes: an identical archive copy means only a delete") {
  const Snapshot files = snapshot({{"memory/a/2025-01-02_11.md", "A"},
                                   {"memory/b/2025-01-01_10.md", "B"},
                                   {"memory/archive/a/2025-01-02_11.md", "A"}});
  const ArchivePlan archive = plan_archive_themes(files, old_notes(), 90);
  CHECK(archive.findings.empty());
  REQUIRE(archive.plan.has_value());
  std::set<std::string> seen;
  for (const PlanOperation& op : archive.plan->operations()) {
    seen.insert(std::string(operation_kind_name(op.kind)) + " " + op.path);
  }
  CHECK(seen == std::set<std::string>{"delete memory/a/2025-01-02_11.md",
                                      "create memory/archive/b/2025-01-01_10.md",
                                      "delete memory/b/2025-01-01_10.md"});
}

TEST_CASE("tiers archive-themes: an archive copy with other bytes is MK-TIERS-020, no plan") {
  const Snapshot files = snapshot({{"memory/a/2025-01-02_11.md", "A"},
                                   {"memory/b/2025-01-01_10.md", "B"},
                                   {"memory/archive/a/2025-01-02_11.md", "A changed"}});
  const ArchivePlan archive = plan_archive_themes(files, old_notes(), 90);
  const Finding* f = finding(archive.findings, "MK-TIERS-020");
  REQUIRE(f != nullptr);
  CHECK(f->severity == Severity::blocker);
  CHECK_FALSE(f->fatal);
  CHECK(f->path == "memory/archive/a/2025-01-02_11.md");
  CHECK_FALSE(archive.plan.has_value());
}

TEST_CASE("tiers archive-themes: the plan ID is stable for identical input, and only for it") {
  const auto plan_id = [](std::string a_bytes, std::uint64_t days) {
    const Snapshot files =
        snapshot({{"memory/a/2025-01-02_11.md", a_bytes}, {"memory/b/2025-01-01_10.md", "B"}});
    const ArchivePlan archive = plan_archive_themes(files, old_notes(), days);
    REQUIRE(archive.plan.has_value());
    return archive.plan->id();
  };
  const std::string id = plan_id("A", 90);
  CHECK(id.size() == 16);
  CHECK(plan_id("A", 90) == id);
  CHECK(plan_id("A2", 90) != id);
  CHECK(plan_id("A", 30) != id);
}

TEST_CASE("tiers archive-themes: nothing to move gives no plan") {
  const ArchivePlan archive = plan_archive_themes(snapshot({}), {}, 90);
  CHECK(archive.candidates.empty());
  CHECK(archive.findings.empty());
  CHECK_FALSE(archive.plan.has_value());
}
