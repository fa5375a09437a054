// A curated store's units (curated.md §2): each live row of rows/<workspace>/<type>.md (§4), and
// each episode of the episodes floor, floors/episodes/YYYY-MM-DD.jsonl (§10 "Floors"). Soft-deleted
// rows are out of sight, as they are to `curated search` (§8).
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "codec/json_fields.hpp"
#include "codec/strict_json.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/floors.hpp"
#include "recall/readers.hpp"

namespace memkit::recall::detail {
namespace {

bool is_row_file(const std::vector<std::string_view>& parts) noexcept {
  if (parts.size() != 3 || parts[0] != "rows" || !curated::is_workspace_name(parts[1])) {
    return false;
  }
  const std::string_view name = parts[2];
  return name.ends_with(".md") &&
         curated::parse_row_type(name.substr(0, name.size() - 3)).has_value();
}

bool is_episode_file(const std::vector<std::string_view>& parts) noexcept {
  return parts.size() == 3 && parts[0] == "floors" && parts[1] == "episodes" &&
         curated::day_of_file(parts[2]).has_value();
}

// Texts joined with LF, the empty ones left out.
std::string joined_lines(std::initializer_list<std::string_view> texts) {
  std::string out;
  for (std::string_view text : texts) {
    if (text.empty()) continue;
    if (!out.empty()) out += '\n';
    out += text;
  }
  return out;
}

void read_rows(const Source& source, std::string_view bytes, FileUnits& out) {
  const curated::RowFile file = curated::parse_row_file(bytes, display_path(source));
  if (file.parse_error) {
    out.findings.push_back(unparseable(source, file.parse_error->message));
    return;
  }
  // An invalid entry (MK-CUR-004, which `curated` commands report) is still searched for what
  // could be read of it.
  for (const curated::Entry& entry : file.entries) {
    const curated::Row& row = entry.row;
    if (row.deleted) continue;
    Unit unit = unit_at(bytes, entry.line, entry.begin, entry.end, "row");
    unit.id = row.name;
    unit.text = joined_lines({row.name, row.description.value_or(""), row.body});
    unit.facets.emplace_back("class", curated::name_of(row.row_class));
    if (row.status) unit.facets.emplace_back("status", curated::name_of(*row.status));
    unit.facets.emplace_back("type", curated::name_of(row.type));
    if (row.initiative) {
      // As `--initiative` looks one up (§3): a hand-written "Tax Rules" is tax_rules.
      if (std::optional<std::string> key = curated::normalize_initiative(*row.initiative)) {
        unit.facets.emplace_back("initiative", std::move(*key));
      }
    }
    const std::optional<std::string> date =
        leading_date(row.updated.value_or(row.created.value_or("")));
    if (date) unit.facets.emplace_back("date", *date);
    out.units.push_back(std::move(unit));
  }
}

// Each line is read as parse_episodes reads a day file, for every workspace's episodes (the
// floors are the store's, shared by its workspaces).
void read_episodes(const Source& source, std::string_view bytes, FileUnits& out) {
  const std::string shown = display_path(source);
  std::uint32_t number = 0;
  for (std::size_t begin = 0; begin < bytes.size();) {
    ++number;
    const std::size_t lf = bytes.find('\n', begin);
    const std::size_t end = lf == std::string_view::npos ? bytes.size() : lf + 1;
    const std::string_view line = bytes.substr(begin, end - begin);
    const std::size_t at = begin;
    begin = end;
    std::string problem;
    const std::optional<nlohmann::json> object = memkit::detail::parse_strict_json(line, problem);
    const std::string workspace =
        object ? memkit::detail::string_field(*object, "workspace") : std::string();
    curated::EpisodeFile read = curated::parse_episodes(line, shown, workspace);
    for (Finding& finding : read.findings) {
      // It read one line, its line 1: name the line in the file.
      const std::string one = shown + ":1:";
      if (finding.message.starts_with(one)) {
        finding.message.replace(0, one.size(), shown + ":" + std::to_string(number) + ":");
      }
      out.findings.push_back(std::move(finding));
    }
    for (const curated::Episode& episode : read.episodes) {
      Unit unit = unit_at(bytes, number, at, end, "episode");
      unit.id = episode.episode_id;
      std::string tags;
      for (const std::string& tag : episode.tags) tags += (tags.empty() ? "" : " ") + tag;
      unit.text = joined_lines({episode.title, episode.prompt, tags});
      if (std::optional<std::string> date = leading_date(episode.ts)) {
        unit.facets.emplace_back("date", std::move(*date));
      }
      out.units.push_back(std::move(unit));
    }
  }
}

}  // namespace

bool curated_reads(std::string_view path) {
  const std::vector<std::string_view> parts = path_parts(path);
  return is_row_file(parts) || is_episode_file(parts);
}

void read_curated(const Source& source, std::string_view bytes, FileUnits& out) {
  if (is_row_file(path_parts(source.path))) {
    read_rows(source, bytes, out);
  } else {
    read_episodes(source, bytes, out);
  }
}

}  // namespace memkit::recall::detail
