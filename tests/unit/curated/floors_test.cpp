// Curated memory's floors (spec curated.md §1, §2, §8 "search", §10 "Floors"): day file paths by
// UTC date, event and episode records as canonical JSON Lines, floats and unknown keys refused,
// episode day files read back, episode search order, and which day files are past retention.
#include "memkit/curated/floors.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/curated/log.hpp"

using namespace memkit;
using namespace memkit::curated;

namespace {

constexpr std::string_view kNow = "2026-11-30T09:00:00.000Z";
constexpr std::string_view kDay = "floors/episodes/2026-11-30.jsonl";

ClockReading clock_at(std::string_view text) {
  Result<ClockReading> reading = ClockReading::parse_rfc3339(text);
  REQUIRE(reading);
  return *reading;
}

EventRequest event(std::string type) {
  return EventRequest{.type = std::move(type),
                      .source = std::nullopt,
                      .agent = std::nullopt,
                      .result = std::nullopt,
                      .severity = std::nullopt,
                      .payload = std::nullopt};
}

void check_refused(const FloorLine& line, std::string_view fragment) {
  REQUIRE(line.refused);
  CHECK(line.refused->code == "MK-ARG-001");
  CHECK(line.refused->severity == Severity::blocker);
  CHECK(line.refused->fatal);
  CHECK(line.refused->message.find(fragment) != std::string::npos);
  CHECK(line.line.empty());
  CHECK(line.path.empty());
}

// One episode line as episode_line() writes it, for workspace ws1 at kNow.
std::string episode_text(std::string_view body) {
  const FloorLine line = episode_line(body, "ws1", kNow);
  REQUIRE_FALSE(line.refused);
  return line.line;
}

std::vector<std::string> ids_of(const std::vector<EpisodeHit>& hits) {
  std::vector<std::string> ids;
  for (const EpisodeHit& hit : hits) ids.push_back(hit.episode->episode_id);
  return ids;
}

}  // namespace

// ---- paths --------------------------------------------------------------------------------------

TEST_CASE("floor day path: the UTC date of ts names the day file") {
  CHECK(floor_day_path(kEventsDir, kNow) == "floors/events/2026-11-30.jsonl");
  CHECK(floor_day_path(kEpisodesDir, "2026-12-31T23:59:59.999Z") ==
        "floors/episodes/2026-12-31.jsonl");
  // An offset moves the date to UTC's: 00:30 at +01:00 is the day before in UTC.
  CHECK(floor_day_path(kEventsDir, "2026-12-01T00:30:00+01:00") ==
        "floors/events/2026-11-30.jsonl");
  CHECK(floor_day_path(kEventsDir, "2026-11-30T23:30:00-01:00") ==
        "floors/events/2026-12-01.jsonl");
}

// ---- events -------------------------------------------------------------------------------------

TEST_CASE("event line: every key present, absent options null, canonical with sorted keys") {
  const FloorLine line = event_line(event("dispatch"), "ws1", kNow);
  REQUIRE_FALSE(line.refused);
  CHECK(line.path == "floors/events/2026-11-30.jsonl");
  CHECK(line.line ==
        "{\"agent\":null,\"payload\":null,\"result\":null,\"severity\":null,\"source\":null,"
        "\"ts\":\"2026-11-30T09:00:00.000Z\",\"type\":\"dispatch\",\"workspace\":\"ws1\"}\n");
}

TEST_CASE("event line: options and the payload, re-encoded canonically") {
  EventRequest request = event("command");
  request.source = "cli";
  request.agent = "orchestrator";
  request.result = "ok";
  request.severity = "info";
  request.payload = R"( {"z": [1, -2, {"b": null, "a": "é\n"}], "a": true} )";
  const FloorLine line = event_line(request, "ws1", kNow);
  REQUIRE_FALSE(line.refused);
  CHECK(line.line ==
        "{\"agent\":\"orchestrator\",\"payload\":{\"a\":true,\"z\":[1,-2,{\"a\":\"é\\n\","
        "\"b\":null}]},\"result\":\"ok\",\"severity\":\"info\",\"source\":\"cli\","
        "\"ts\":\"2026-11-30T09:00:00.000Z\",\"type\":\"command\",\"workspace\":\"ws1\"}\n");
}

TEST_CASE("event line: a float anywhere in the payload is MK-ARG-001, nothing to append") {
  for (const std::string_view payload : {"1.5", "{\"a\": 1.0}", "[1, 2e3]",
                                         "{\"deep\": [{\"x\": -0.25}]}", "184467440737095516160"}) {
    CAPTURE(payload);
    EventRequest request = event("command");
    request.payload = std::string(payload);
    check_refused(event_line(request, "ws1", kNow), "not an integer");
  }
}

TEST_CASE("event line: a payload that is not JSON, or repeats a key, is refused") {
  EventRequest request = event("command");
  request.payload = "{not json";
  check_refused(event_line(request, "ws1", kNow), "not valid JSON");
  request.payload = R"({"a": 1, "a": 2})";
  check_refused(event_line(request, "ws1", kNow), "given twice");
  request.payload = "\"\xff\"";
  check_refused(event_line(request, "ws1", kNow), "invalid UTF-8");
}

TEST_CASE("event line: a payload nested deeper than the JSON limit is refused, not a crash") {
  EventRequest request = event("command");
  request.payload = std::string(20000, '[') + std::string(20000, ']');
  check_refused(event_line(request, "ws1", kNow), "--payload: nested more than 512 levels deep");
  request.payload = std::string(512, '[') + std::string(512, ']');
  CHECK_FALSE(event_line(request, "ws1", kNow).refused);
}

TEST_CASE("event line: an empty type, or an option that is not UTF-8 text, is refused") {
  check_refused(event_line(event(""), "ws1", kNow), "--type is empty");
  EventRequest request = event("command");
  request.agent = "a\xc3";
  check_refused(event_line(request, "ws1", kNow), "--agent");
}

// ---- episodes -----------------------------------------------------------------------------------

TEST_CASE("episode line: completed with ts, workspace, nulls and empty arrays, canonical") {
  const FloorLine line = episode_line(R"({"episode_id": "e1", "title": "Build"})", "ws1", kNow);
  REQUIRE_FALSE(line.refused);
  CHECK(line.path == "floors/episodes/2026-11-30.jsonl");
  CHECK(line.line ==
        "{\"agent\":null,\"anomalies\":[],\"duration_seconds\":null,\"episode_id\":\"e1\","
        "\"exit_code\":null,\"outcome\":null,\"prompt\":null,\"session_id\":null,\"tags\":[],"
        "\"title\":\"Build\",\"ts\":\"2026-11-30T09:00:00.000Z\",\"type\":null,"
        "\"workspace\":\"ws1\"}\n");
}

TEST_CASE("episode line: tags nested deeper than the JSON limit are refused, not a crash") {
  const std::string tags = std::string(20000, '[') + std::string(20000, ']');
  const FloorLine line = episode_line(R"({"episode_id": "e1", "tags": )" + tags + "}", "ws1", kNow);
  REQUIRE(line.refused);
  CHECK(line.refused->message.find("nested more than 512 levels deep") != std::string::npos);
}

TEST_CASE("episode line: every key given, its own ts names the day file") {
  const std::string_view file = R"({
    "episode_id": "e2", "ts": "2026-11-01T23:00:00.000Z", "workspace": "ws1",
    "session_id": "s1", "agent": "executor", "type": "turn", "title": "t", "prompt": "p",
    "outcome": "failed", "duration_seconds": 42, "exit_code": -1, "tags": ["ci", "flaky"],
    "anomalies": [{"type": "timeout", "severity": "high", "message": "m",
                   "payload": {"n": 3}}, {"message": "only"}]})";
  const FloorLine line = episode_line(file, "ws1", kNow);
  REQUIRE_FALSE(line.refused);
  CHECK(line.path == "floors/episodes/2026-11-01.jsonl");
  CHECK(line.line ==
        "{\"agent\":\"executor\",\"anomalies\":[{\"message\":\"m\",\"payload\":{\"n\":3},"
        "\"severity\":\"high\",\"type\":\"timeout\"},{\"message\":\"only\",\"payload\":null,"
        "\"severity\":null,\"type\":null}],\"duration_seconds\":42,\"episode_id\":\"e2\","
        "\"exit_code\":-1,\"outcome\":\"failed\",\"prompt\":\"p\",\"session_id\":\"s1\","
        "\"tags\":[\"ci\",\"flaky\"],\"title\":\"t\",\"ts\":\"2026-11-01T23:00:00.000Z\","
        "\"type\":\"turn\",\"workspace\":\"ws1\"}\n");
}

TEST_CASE("episode line: unknown keys, wrong types, floats and bad ids are MK-ARG-001") {
  struct Bad {
    std::string_view file;
    std::string_view fragment;
  };
  for (const Bad& bad : {
           Bad{R"({"episode_id": "e", "colour": "red"})", "\"colour\" is not an episode key"},
           Bad{R"({"episode_id": "e", "anomalies": [{"kind": "x"}]})",
               "\"kind\" is not an anomaly key"},
           Bad{R"({"episode_id": "e", "duration_seconds": 1.5})", "not an integer"},
           Bad{R"({"episode_id": "e", "anomalies": [{"payload": {"p": 0.5}}]})", "not an integer"},
           Bad{R"({"title": "no id"})", "\"episode_id\" is not a non-empty string"},
           Bad{R"({"episode_id": ""})", "\"episode_id\" is not a non-empty string"},
           Bad{R"({"episode_id": 7})", "\"episode_id\" is not a non-empty string"},
           Bad{R"({"episode_id": "e", "title": 3})", "\"title\" is not a string or null"},
           Bad{R"({"episode_id": "e", "exit_code": "1"})", "\"exit_code\" is not an integer"},
           Bad{R"({"episode_id": "e", "tags": "ci"})", "\"tags\" is not an array of strings"},
           Bad{R"({"episode_id": "e", "tags": [1]})", "\"tags\" is not an array of strings"},
           Bad{R"({"episode_id": "e", "anomalies": {}})", "\"anomalies\" is not an array"},
           Bad{R"({"episode_id": "e", "anomalies": ["x"]})", "an anomaly is not an object"},
           Bad{R"({"episode_id": "e", "anomalies": [{"type": 1}]})",
               "anomaly \"type\" is not a string"},
           Bad{R"({"episode_id": "e", "ts": null})", "\"ts\" is not a string"},
           Bad{R"({"episode_id": "e", "ts": "2026-11-30T10:00:00+01:00"})",
               "\"ts\" is not RFC 3339 UTC with milliseconds"},
           Bad{R"({"episode_id": "e", "ts": "2026-11-30T09:00:00Z"})",
               "\"ts\" is not RFC 3339 UTC with milliseconds"},
           Bad{R"({"episode_id": "e", "workspace": "ws2"})", "not the command's workspace"},
           Bad{R"(["episode_id"])", "not a JSON object"},
           Bad{R"({"episode_id": "e", "episode_id": "f"})", "given twice"},
           Bad{"{\"episode_id\": \"e\"", "not valid JSON"},
       }) {
    CAPTURE(bad.file);
    check_refused(episode_line(bad.file, "ws1", kNow), bad.fragment);
  }
}

TEST_CASE("episode parse: this workspace's episodes in file order, bad lines warned, skipped") {
  const std::string ws2 = [] {
    const FloorLine line = episode_line(R"({"episode_id": "other"})", "ws2", kNow);
    REQUIRE_FALSE(line.refused);
    return line.line;
  }();
  const std::string first =
      episode_text(R"({"episode_id": "e1", "title": "One", "tags": ["a", "b"]})");
  const std::string second = episode_text(R"({"episode_id": "e2", "prompt": "Two"})");
  const std::string bytes = first + "not json\n" + ws2 + "{\"episode_id\": \"e9\", \"x\": 1}\n" +
                            "{\"episode_id\":\"nots\"}\n" + second.substr(0, second.size() - 1);
  const EpisodeFile file = parse_episodes(bytes, kDay, "ws1");
  REQUIRE(file.episodes.size() == 2);
  CHECK(file.episodes[0].episode_id == "e1");
  CHECK(file.episodes[0].ts == kNow);
  CHECK(file.episodes[0].workspace == "ws1");
  CHECK(file.episodes[0].title == "One");
  CHECK(file.episodes[0].prompt.empty());
  CHECK(file.episodes[0].tags == std::vector<std::string>{"a", "b"});
  CHECK(file.episodes[0].json + "\n" == first);
  CHECK(file.episodes[1].episode_id == "e2");
  CHECK(file.episodes[1].prompt == "Two");
  REQUIRE(file.findings.size() == 3);
  for (const Finding& f : file.findings) {
    CHECK(f.code == "MK-PARSE-001");
    CHECK(f.severity == Severity::warning);
    CHECK(f.path == kDay);
  }
  CHECK(file.findings[0].message.starts_with(std::string(kDay) + ":2: not an episode (not valid"));
  CHECK(file.findings[1].message.starts_with(std::string(kDay) + ":4: not an episode (\"x\""));
  CHECK(file.findings[2].message.starts_with(std::string(kDay) + ":5: not an episode (no \"ts\")"));
}

// ---- search -------------------------------------------------------------------------------------

TEST_CASE("episode search: whole tokens or prefixes, every term, rank, ts desc, then id") {
  std::string bytes;
  bytes += episode_text(R"({"episode_id": "b", "ts": "2026-11-30T08:00:00.000Z",
                            "title": "Cache miss", "tags": ["cache"]})");
  bytes += episode_text(R"({"episode_id": "a", "ts": "2026-11-30T08:00:00.000Z",
                            "title": "cache warm", "prompt": "fill the cache"})");
  bytes += episode_text(R"({"episode_id": "c", "ts": "2026-11-30T07:00:00.000Z",
                            "prompt": "CACHE it"})");
  bytes += episode_text(R"({"episode_id": "d", "ts": "2026-11-30T09:00:00.000Z",
                            "prompt": "cache it", "title": "first"})");
  bytes += episode_text(R"({"episode_id": "e", "ts": "2026-11-30T10:00:00.000Z",
                            "title": "caches and cache_dir"})");
  const EpisodeFile file = parse_episodes(bytes, kDay, "ws1");
  REQUIRE(file.findings.empty());
  REQUIRE(file.episodes.size() == 5);

  // a and b match twice (same ts: by id), then d (newer) before c.
  CHECK(ids_of(search_episodes(file.episodes, "cache")) ==
        std::vector<std::string>{"a", "b", "d", "c"});
  std::vector<EpisodeHit> hits = search_episodes(file.episodes, "cache");
  CHECK(hits[0].rank == 2);
  CHECK(hits[3].rank == 1);
  // A prefix term reaches caches and cache_dir: e has 2 tokens, like a and b.
  CHECK(ids_of(search_episodes(file.episodes, "cach*")) ==
        std::vector<std::string>{"e", "a", "b", "d", "c"});
  // Every term must match: "cache it" leaves a, b and e out; rank 2 each.
  CHECK(ids_of(search_episodes(file.episodes, "cache it")) == std::vector<std::string>{"d", "c"});
  CHECK(ids_of(search_episodes(file.episodes, "cache", 2)) == std::vector<std::string>{"a", "b"});
  CHECK(search_episodes(file.episodes, "  ,, ").empty());
  CHECK(search_episodes(file.episodes, "absent").empty());
}

// ---- retention ----------------------------------------------------------------------------------

TEST_CASE("day files: only YYYY-MM-DD.jsonl naming a calendar date is a floor's day file") {
  const std::optional<CivilDate> day = day_of_file("2026-11-30.jsonl");
  REQUIRE(day.has_value());
  CHECK(*day == CivilDate{.year = 2026, .month = 11, .day = 30});
  for (const char* other : {"2026-02-30.jsonl", "2026-11-30.json", "2026-11-30.jsonl.bak",
                            "notes.jsonl", "2026-1-30.jsonl", "x2026-11-30.jsonl"}) {
    CAPTURE(other);
    CHECK_FALSE(day_of_file(other).has_value());
  }
}

TEST_CASE("prunable days: older than retention goes, exactly retention days old is kept") {
  const std::vector<std::string> names = {
      "2026-10-30.jsonl",  // 31 days before 2026-11-30: pruned at 30
      "2026-10-31.jsonl",  // exactly 30: kept
      "2026-11-30.jsonl",  // today
      "2026-12-05.jsonl",  // in the future: kept
      "2026-02-30.jsonl",  // no such date: never chosen
      "2025-01-01.json",   // not a day file
      "notes.jsonl",      "2025-01-01.jsonl.bak", "2025-01-01.jsonl",
  };
  const ClockReading now = clock_at("2026-11-30T09:00:00.000Z");
  CHECK(
      prunable_days(names, kEventsDir, now, 30) ==
      std::vector<std::string>{"floors/events/2025-01-01.jsonl", "floors/events/2026-10-30.jsonl"});
  CHECK(prunable_days(names, kEventsDir, now, 31) ==
        std::vector<std::string>{"floors/events/2025-01-01.jsonl"});
  CHECK(prunable_days({"2026-11-29.jsonl", "2026-11-30.jsonl"}, kEpisodesDir, now, 0) ==
        std::vector<std::string>{"floors/episodes/2026-11-29.jsonl"});
}

TEST_CASE("prunable days: retention counts from now's UTC date, not the local one") {
  // 2026-12-01T00:30 at +01:00 is still 2026-11-30 in UTC.
  const ClockReading now = clock_at("2026-12-01T00:30:00+01:00");
  CHECK(prunable_days({"2026-10-30.jsonl", "2026-10-31.jsonl"}, kEventsDir, now, 30) ==
        std::vector<std::string>{"floors/events/2026-10-30.jsonl"});
}

// ---- telemetry compaction, as `telemetry compact` uses it ---------------------------------------

TEST_CASE("telemetry compact: the counters `show` derives are the same before and after") {
  const std::string access = access_line({.ts = "2026-11-29T09:00:00.000Z",
                                          .name = "project_a",
                                          .kind = ReadKind::deliberate,
                                          .surface = "show"}) +
                             access_line({.ts = "2026-11-30T09:00:00.000Z",
                                          .name = "project_a",
                                          .kind = ReadKind::injection,
                                          .surface = "get-relevant"}) +
                             "garbage\n" +
                             access_line({.ts = "2026-12-01T09:00:00.000Z",
                                          .name = "project_a",
                                          .kind = ReadKind::deliberate,
                                          .surface = "show"});
  const std::string snapshot =
      "{\"project_a\":{\"kernel\":{\"count\":4,\"last\":\"2026-11-01T00:00:00.000Z\"}}}\n";
  const Telemetry before = fold_telemetry(snapshot, access, "s", "a");
  const CompactedTelemetry compacted =
      compact_telemetry(snapshot, access, "2026-11-30T12:00:00.000Z");
  const Telemetry after = fold_telemetry(compacted.snapshot, compacted.access, "s", "a");
  CHECK(before.rows == after.rows);
  CHECK(compacted.access == "garbage\n" + access_line({.ts = "2026-12-01T09:00:00.000Z",
                                                       .name = "project_a",
                                                       .kind = ReadKind::deliberate,
                                                       .surface = "show"}));
}

TEST_CASE("curated floors: a line is appended to its day file, after an LF it lacks") {
  const FloorLine line{
      .path = "floors/events/2026-11-30.jsonl", .line = "{\"b\":2}\n", .refused = std::nullopt};
  FileSnapshot day;
  day.path = line.path;
  // No day file yet: it is created with the line.
  PlanOperation made = plan_floor_append(day, line);
  CHECK(made.kind == OperationKind::create);
  CHECK(made.output.render() == line.line);
  // A day file read at its end (its first 100 bytes never read): an append after them.
  day.state = EntryState::file;
  day.offset = 100;
  day.bytes = std::make_shared<const std::string>("{\"a\":1}\n");
  PlanOperation appended = plan_floor_append(day, line);
  CHECK(appended.kind == OperationKind::append);
  CHECK(appended.base_size() == 108);
  CHECK(appended.appended() == line.line);
  // A last line cut short (a write killed before this journal existed) keeps its own line.
  day.bytes = std::make_shared<const std::string>("{\"a\":");
  CHECK(plan_floor_append(day, line).appended() == "\n" + line.line);
}
