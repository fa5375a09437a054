// `memorybox log` (memkit/memorybox/log.hpp): a session's record in SESSION_LOG.md and a line in
// today's daily file, written as a gate WRITE writes them, without the gates.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "memkit/memorybox/log.hpp"

using namespace memkit;
using namespace memkit::memorybox;

namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-11-30T10:00:00+01:00");
constexpr const char* kLog = "memory/SESSION_LOG.md";
constexpr const char* kDay = "memory/daily/2026-11-30.md";

Inputs inputs_of(const std::map<std::string, std::string>& files) {
  Inputs in;
  std::vector<FileSnapshot> snaps;
  for (const auto& file : files) {
    snaps.push_back(FileSnapshot{file.first, EntryState::file,
                                 std::make_shared<const std::string>(file.second), ""});
    if (file.first.rfind("memory/daily/", 0) == 0) in.daily_files.push_back(file.first);
  }
  in.snapshot = Snapshot(std::move(snaps));
  return in;
}

// What the plan writes to `path`.
std::string written(const SessionLog& log, std::string_view path) {
  for (const PlanOperation& op : log.plan.operations()) {
    if (op.path == path) return op.output.render();
  }
  FAIL("the plan does not write " << path);
  return {};
}

}  // namespace

TEST_CASE("memorybox log: a session entry with its time and Id, and a line in a new day file") {
  const Result<SessionLog> log = plan_session_log(
      inputs_of({{kLog, "# SESSION_LOG\n"}}),
      {.text = "  Shipped the parser.\nNext: the index.\n\n", .session = "parser work"}, kNow);
  REQUIRE(log);
  const std::string session = written(*log, kLog);
  CHECK(session.starts_with(
      "# SESSION_LOG\n\n### 2026-11-30 \xE2\x80\x94 parser work\nUpdated: 2026-11-30T09:00:00.000Z\n"
      "Id: "));
  CHECK(session.ends_with("\n\nShipped the parser.\nNext: the index.\n"));
  const std::vector<Entry> entries = read_entries(kLog, parse_markdown(session));
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].id == log->session_entry_id);
  CHECK(entries[0].field("Id").has_value());
  const std::string day = written(*log, kDay);
  CHECK(day.starts_with("Id: "));  // a new daily file starts with its own Id line (§9)
  CHECK(day.ends_with("\n\n- parser work: Shipped the parser.\n"));  // the first line only
  CHECK(log->daily_file == kDay);
  CHECK(log->plan.operations().size() == 2);
}

TEST_CASE("memorybox log: a second session of a day under one title is a new entry") {
  const SessionLog first = *plan_session_log(inputs_of({{kLog, "# SESSION_LOG\n"}}),
                                             {.text = "one", .session = ""}, kNow);
  const std::string log_after = written(first, kLog);
  const std::string day_after = written(first, kDay);
  const Result<SessionLog> second = plan_session_log(
      inputs_of({{kLog, log_after}, {kDay, day_after}}), {.text = "two", .session = ""}, kNow);
  REQUIRE(second);
  const std::string session = written(*second, kLog);
  CHECK(session.starts_with(log_after));
  CHECK(session.find("### 2026-11-30 \xE2\x80\x94 session (2)\n") != std::string::npos);
  CHECK(read_entries(kLog, parse_markdown(session)).size() == 2);
  CHECK(written(*second, kDay) == day_after + "- session (2): two\n");
}

TEST_CASE("memorybox log: refusals name the argument and write nothing") {
  const Inputs in = inputs_of({{kLog, "# SESSION_LOG\n"}});
  const Result<SessionLog> empty = plan_session_log(in, {.text = " \n\t", .session = ""}, kNow);
  REQUIRE_FALSE(empty);
  CHECK(empty.status().message() == "--text: empty");
  const Result<SessionLog> two_lines =
      plan_session_log(in, {.text = "x", .session = "a\nb"}, kNow);
  REQUIRE_FALSE(two_lines);
  CHECK(two_lines.status().code() == Errc::invalid_argument);
  // A text that would read as another session heading cannot be one entry.
  const Result<SessionLog> heading =
      plan_session_log(in, {.text = "x\n### 2026-11-29 \xE2\x80\x94 other\ny", .session = ""}, kNow);
  REQUIRE_FALSE(heading);
  CHECK(heading.status().code() == Errc::invalid_argument);
  const Result<SessionLog> unclosed =
      plan_session_log(inputs_of({{kLog, "# SESSION_LOG\n```\n"}}), {.text = "x", .session = ""},
                       kNow);
  REQUIRE_FALSE(unclosed);
  CHECK(unclosed.status().code() == Errc::parse);
}
