// Curated memory's floors (spec curated.md §1, §2, §10 "Floors"): events and episodes as
// append-only JSON Lines day files, floors/<floor>/YYYY-MM-DD.jsonl by the UTC date of `ts`.
// Pure: records checked and rendered as canonical JSON Lines, day files parsed, episodes
// searched, and the day files past their retention chosen for pruning.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/snapshot.hpp"

namespace memkit::curated {

inline constexpr std::string_view kEventsDir = "floors/events";
inline constexpr std::string_view kEpisodesDir = "floors/episodes";

// floors/<floor>/YYYY-MM-DD.jsonl for the UTC date of `ts` (RFC 3339; any offset is converted to
// UTC; text that does not parse gives its first ten characters).
[[nodiscard]] std::string floor_day_path(std::string_view floor_dir, std::string_view ts);

// `event add`: {"ts","workspace","type","source","agent","result","severity","payload"}; absent
// options are null, `payload` is the host's JSON (integers only: a float is MK-ARG-001).
struct EventRequest {
  std::string type;
  std::optional<std::string> source;
  std::optional<std::string> agent;
  std::optional<std::string> result;
  std::optional<std::string> severity;
  std::optional<std::string> payload;  // JSON text
};
struct FloorLine {
  std::string path;                // the day file
  std::string line;                // canonical JSON, then LF
  std::optional<Finding> refused;  // MK-ARG-001: nothing to append
};
[[nodiscard]] FloorLine event_line(const EventRequest& request, std::string_view workspace,
                                   std::string_view ts);

// The operation that appends `line` to its day file, of which `day_file` holds the end (or all;
// missing: the file is created). A day file whose last line has no LF gets one first, so the new
// line stays a line of its own. REQUIRES: !line.refused, day_file.path == line.path, and
// day_file is missing or a file.
[[nodiscard]] PlanOperation plan_floor_append(const FileSnapshot& day_file, const FloorLine& line);

// One episode (§10): its canonical JSON object, and the fields search and show need.
struct Episode {
  std::string episode_id;
  std::string ts;
  std::string workspace;
  std::string title;
  std::string prompt;
  std::vector<std::string> tags;
  std::string json;  // the whole record, canonical JSON without the LF
};

// `episode add --file`: the file's JSON object checked (§10 keys; unknown keys, wrong types and
// floats refused with MK-ARG-001) and completed (`ts` := now and `workspace` := the workspace when
// absent; an `episode_id` is required), as the line to append. A given `ts` must be RFC 3339 UTC
// with milliseconds, and a given `workspace` the command's. Absent string and integer keys (and
// anomaly keys) become null, absent or null `tags` and `anomalies` [].
[[nodiscard]] FloorLine episode_line(std::string_view file_text, std::string_view workspace,
                                     std::string_view ts);

// A day file of the episodes floor: the episodes of `workspace`, in file order. A line is an
// episode when episode_line() could have written it (with `ts` and `workspace` present); other
// lines are skipped with MK-PARSE-001 WARNING at path:line. Other workspaces' episodes are
// skipped silently.
struct EpisodeFile {
  std::vector<Episode> episodes;
  std::vector<Finding> findings;
};
[[nodiscard]] EpisodeFile parse_episodes(std::string_view bytes, std::string_view path,
                                         std::string_view workspace);

// §8 search, episodes scope: title, prompt and tags matched like rows (every term a whole token
// or a prefix); by rank descending, ts descending, then episode_id; at most `limit`.
struct EpisodeHit {
  const Episode* episode = nullptr;
  std::uint64_t rank = 0;
};
[[nodiscard]] std::vector<EpisodeHit> search_episodes(const std::vector<Episode>& episodes,
                                                      std::string_view query,
                                                      std::uint64_t limit = 10);

// The date a floor's day file is named for: "YYYY-MM-DD.jsonl" naming a calendar date; nullopt for
// any other name (such files are never read, counted or pruned).
[[nodiscard]] std::optional<CivilDate> day_of_file(std::string_view name) noexcept;

// `floors prune`: of `names` (the files directly in `floor_dir`), the day files "YYYY-MM-DD.jsonl"
// whose date is more than `retention_days` days before now's UTC date, as store-relative paths
// "<floor_dir>/<name>", sorted. A file exactly `retention_days` old is kept; other names are never
// chosen.
[[nodiscard]] std::vector<std::string> prunable_days(const std::vector<std::string>& names,
                                                     std::string_view floor_dir,
                                                     const ClockReading& now,
                                                     std::uint32_t retention_days);

}  // namespace memkit::curated
