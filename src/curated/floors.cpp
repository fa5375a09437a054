// Curated memory's floors (curated.md §1, §2, §8 "search", §10 "Floors"): events and episodes as
// append-only JSON Lines day files. A record is checked against the spec's keys before it is
// written, and an episode line is read back with the same check, so what `episode show` and
// episode search see is always something `episode add` could have written.
#include "memkit/curated/floors.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codec/canonical.hpp"
#include "codec/strict_json.hpp"
#include "memkit/clock.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/findings.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

using nlohmann::json;

constexpr std::string_view kDayFileSuffix = ".jsonl";

constexpr std::string_view kFixRecord = "correct it: curated.md §10 gives the record's keys";
constexpr std::string_view kFixOption = "pass the option as non-empty UTF-8 text without NUL";
constexpr std::string_view kFixPayload = "pass --payload as one JSON value, each key once";
constexpr std::string_view kNoFloats =
    "send a number that is not an integer as a string or a scaled integer (curated.md §2)";

FloorLine refused(std::string message, std::string_view remediation = kFixRecord) {
  return FloorLine{
      .path = {},
      .line = {},
      .refused = make_fatal("MK-ARG-001", "", std::move(message), std::string(remediation))};
}

// §2: canonical JSON has no floats. nlohmann reads 1.0, 1e3 and an integer beyond 64 bits as a
// float; each is refused, wherever it stands. Returns the first one as `"<where>" is <number>, not
// an integer...` (`where` like anomalies[0].payload.p), or nullopt.
constexpr std::string_view kFloatTail = ", not an integer: canonical JSON has no other numbers";
std::optional<std::string> float_problem(const json& value, const std::string& where) {
  if (value.is_number_float()) {
    return (where.empty() ? std::string("the value") : "\"" + where + "\"") + " is " +
           value.dump() + std::string(kFloatTail);
  }
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      if (auto found = float_problem(item, where.empty() ? key : where + "." + key)) return found;
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (auto found = float_problem(value[i], where + "[" + std::to_string(i) + "]")) {
        return found;
      }
    }
  }
  return std::nullopt;
}

// ---- episodes -----------------------------------------------------------------------------------

// The §10 keys of an episode and of one of its anomalies, in the spec's order.
constexpr std::array<std::string_view, 13> kEpisodeKeys{
    "episode_id", "ts",      "workspace",        "session_id", "agent", "type",     "title",
    "prompt",     "outcome", "duration_seconds", "exit_code",  "tags",  "anomalies"};
constexpr std::array<std::string_view, 4> kAnomalyKeys{"type", "severity", "message", "payload"};

bool is_one_of(std::string_view key, const auto& keys) {
  return std::ranges::find(keys, key) != keys.end();
}

// Checks `object` as an episode and completes it: absent string and integer keys become null,
// absent (or null) `tags` and `anomalies` become [], absent anomaly keys null. `ts` and `workspace`
// are left to the caller. The first problem is returned; "" when it is an episode.
std::string check_episode(json& object) {
  if (!object.is_object()) return "not a JSON object";
  for (const auto& [key, value] : object.items()) {
    if (!is_one_of(key, kEpisodeKeys)) return "\"" + key + "\" is not an episode key";
  }
  if (std::optional<std::string> problem = float_problem(object, "")) return *problem;
  const auto id = object.find("episode_id");
  if (id == object.end() || !id->is_string() || id->get_ref<const std::string&>().empty()) {
    return "\"episode_id\" is not a non-empty string";
  }
  for (const std::string_view key :
       {"ts", "workspace", "session_id", "agent", "type", "title", "prompt", "outcome"}) {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (key != "ts" && key != "workspace") object[std::string(key)] = nullptr;
    } else if (!it->is_string() && !(it->is_null() && key != "ts" && key != "workspace")) {
      return "\"" + std::string(key) + "\" is not a string" +
             (key == "ts" || key == "workspace" ? "" : " or null");
    }
  }
  for (const std::string_view key : {"duration_seconds", "exit_code"}) {
    const auto it = object.find(key);
    if (it == object.end()) {
      object[std::string(key)] = nullptr;
    } else if (!it->is_null() && !it->is_number_integer()) {
      return "\"" + std::string(key) + "\" is not an integer or null";
    }
  }
  if (const auto ts = object.find("ts");
      ts != object.end() && !is_utc_millis(ts->get<std::string>())) {
    return "\"ts\" is not RFC 3339 UTC with milliseconds (2026-11-30T09:00:00.000Z)";
  }
  json& tags = object["tags"];
  if (tags.is_null()) tags = json::array();
  if (!tags.is_array() ||
      !std::ranges::all_of(tags, [](const json& tag) { return tag.is_string(); })) {
    return "\"tags\" is not an array of strings";
  }
  json& anomalies = object["anomalies"];
  if (anomalies.is_null()) anomalies = json::array();
  if (!anomalies.is_array()) return "\"anomalies\" is not an array";
  for (json& anomaly : anomalies) {
    if (!anomaly.is_object()) return "an anomaly is not an object";
    for (const auto& [key, value] : anomaly.items()) {
      if (!is_one_of(key, kAnomalyKeys)) return "\"" + key + "\" is not an anomaly key";
    }
    for (const std::string_view key : kAnomalyKeys) {
      const auto it = anomaly.find(key);
      if (it == anomaly.end()) {
        anomaly[std::string(key)] = nullptr;
      } else if (key != "payload" && !it->is_string() && !it->is_null()) {
        return "anomaly \"" + std::string(key) + "\" is not a string or null";
      }
    }
  }
  return {};
}

std::string text_of(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Episode episode_of(const json& object) {
  Episode out;
  out.episode_id = text_of(object, "episode_id");
  out.ts = text_of(object, "ts");
  out.workspace = text_of(object, "workspace");
  out.title = text_of(object, "title");
  out.prompt = text_of(object, "prompt");
  for (const json& tag : object.at("tags")) out.tags.push_back(tag.get<std::string>());
  out.json = detail::canonical_dump(object);
  return out;
}

}  // namespace

std::string floor_day_path(std::string_view floor_dir, std::string_view ts) {
  std::string date(ts.substr(0, 10));
  if (const Result<ClockReading> reading = ClockReading::parse_rfc3339(ts, "ts")) {
    // The UTC date, whatever offset the text was written with.
    if (const Result<ClockReading> utc = ClockReading::create(reading->unix_millis(), 0)) {
      date = utc->local_date_iso();
    }
  }
  return std::string(floor_dir) + "/" + date + std::string(kDayFileSuffix);
}

PlanOperation plan_floor_append(const FileSnapshot& day_file, const FloorLine& line) {
  if (!day_file.exists()) return plan_write(line.path, nullptr, false, {Splice{0, 0, line.line}});
  const std::string_view end = day_file.text();
  return plan_append(day_file, end.empty() || end.back() == '\n' ? line.line : "\n" + line.line);
}

FloorLine event_line(const EventRequest& request, std::string_view workspace, std::string_view ts) {
  const std::pair<std::string_view, const std::optional<std::string>*> texts[] = {
      {"--source", &request.source},
      {"--agent", &request.agent},
      {"--result", &request.result},
      {"--severity", &request.severity},
  };
  if (request.type.empty()) return refused("event: --type is empty", kFixOption);
  if (Status plain = check_plain_text("--type", request.type); !plain.ok()) {
    return refused("event: " + plain.message(), kFixOption);
  }
  json record = json::object();
  for (const auto& [option, value] : texts) {
    if (!value->has_value()) {
      record[std::string(option.substr(2))] = nullptr;
      continue;
    }
    if (Status plain = check_plain_text(option, **value); !plain.ok()) {
      return refused("event: " + plain.message(), kFixOption);
    }
    record[std::string(option.substr(2))] = **value;
  }
  record["payload"] = nullptr;
  if (request.payload) {
    std::string problem;
    std::optional<json> payload = detail::parse_strict_json(*request.payload, problem);
    if (!payload) return refused("event: --payload: " + problem, kFixPayload);
    if (std::optional<std::string> found = float_problem(*payload, "")) {
      return refused("event: --payload: " + *found, kNoFloats);
    }
    record["payload"] = std::move(*payload);
  }
  record["ts"] = detail::utf8(ts);
  record["workspace"] = detail::utf8(workspace);
  record["type"] = request.type;
  std::string line = detail::canonical_dump(record);
  line.push_back('\n');
  return FloorLine{.path = floor_day_path(kEventsDir, ts), .line = std::move(line), .refused = {}};
}

FloorLine episode_line(std::string_view file_text, std::string_view workspace,
                       std::string_view ts) {
  std::string problem;
  std::optional<json> object = detail::parse_strict_json(file_text, problem);
  if (object) problem = check_episode(*object);
  if (!problem.empty()) {
    return refused("--file: episode: " + problem,
                   problem.ends_with(kFloatTail) ? kNoFloats : kFixRecord);
  }
  if (!object->contains("ts")) (*object)["ts"] = detail::utf8(ts);
  if (const auto it = object->find("workspace"); it == object->end()) {
    (*object)["workspace"] = detail::utf8(workspace);
  } else if (it->get_ref<const std::string&>() != workspace) {
    // An episode of another workspace would be invisible here and appear in a workspace that never
    // chose to record it: the command's workspace is the one it writes for (§2).
    return refused("--file: episode: \"workspace\" is '" + it->get<std::string>() +
                   "', not the command's workspace '" + std::string(workspace) + "'");
  }
  std::string line = detail::canonical_dump(*object);
  line.push_back('\n');
  return FloorLine{.path = floor_day_path(kEpisodesDir, (*object)["ts"].get<std::string>()),
                   .line = std::move(line),
                   .refused = {}};
}

EpisodeFile parse_episodes(std::string_view bytes, std::string_view path,
                           std::string_view workspace) {
  EpisodeFile out;
  std::size_t number = 0;
  while (!bytes.empty()) {
    ++number;
    const std::size_t lf = bytes.find('\n');
    const std::string_view line = bytes.substr(0, lf);
    bytes.remove_prefix(lf == std::string_view::npos ? bytes.size() : lf + 1);
    std::string problem;
    std::optional<json> object = detail::parse_strict_json(line, problem);
    if (object) problem = check_episode(*object);
    if (problem.empty() && !object->contains("ts")) problem = "no \"ts\"";
    if (problem.empty() && !object->contains("workspace")) problem = "no \"workspace\"";
    if (!problem.empty()) {
      out.findings.push_back(make_finding("MK-PARSE-001", Severity::warning, std::string(path),
                                          std::string(path) + ":" + std::to_string(number) +
                                              ": not an episode (" + problem + "); it is skipped",
                                          "correct or remove the line"));
      continue;
    }
    if ((*object)["workspace"].get_ref<const std::string&>() != workspace) continue;
    out.episodes.push_back(episode_of(*object));
  }
  return out;
}

std::vector<EpisodeHit> search_episodes(const std::vector<Episode>& episodes,
                                        std::string_view query, std::uint64_t limit) {
  const std::vector<SearchTerm> terms = parse_query(query);
  std::vector<EpisodeHit> hits;
  if (terms.empty()) return hits;
  for (const Episode& episode : episodes) {
    // As the row search ranks a row, over the title, the prompt and every tag.
    std::vector<std::string_view> texts{episode.title, episode.prompt};
    texts.insert(texts.end(), episode.tags.begin(), episode.tags.end());
    const std::uint64_t rank = search_rank(terms, texts);
    if (rank > 0) hits.push_back(EpisodeHit{.episode = &episode, .rank = rank});
  }
  std::ranges::stable_sort(hits, [](const EpisodeHit& a, const EpisodeHit& b) {
    if (a.rank != b.rank) return a.rank > b.rank;
    if (a.episode->ts != b.episode->ts) return a.episode->ts > b.episode->ts;
    return a.episode->episode_id < b.episode->episode_id;
  });
  if (hits.size() > limit) hits.resize(limit);
  return hits;
}

std::optional<CivilDate> day_of_file(std::string_view name) noexcept {
  if (name.size() != 10 + kDayFileSuffix.size() || !name.ends_with(kDayFileSuffix)) {
    return std::nullopt;
  }
  return parse_iso_date(name.substr(0, 10));
}

std::vector<std::string> prunable_days(const std::vector<std::string>& names,
                                       std::string_view floor_dir, const ClockReading& now,
                                       std::uint32_t retention_days) {
  const Result<ClockReading> utc = ClockReading::create(now.unix_millis(), 0);
  const CivilDate today = utc ? utc->local_date() : now.local_date();
  std::vector<std::string> out;
  for (const std::string& name : names) {
    const std::optional<CivilDate> date = day_of_file(name);
    if (!date) continue;
    // A file exactly `retention_days` old is kept: only older ones go.
    if (days_between(*date, today) > static_cast<std::int64_t>(retention_days)) {
      out.push_back(std::string(floor_dir) + "/" + name);
    }
  }
  std::ranges::sort(out);
  return out;
}

}  // namespace memkit::curated
