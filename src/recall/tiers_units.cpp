// The three-tier layout's units (tiers3.md §2): L1 session-log entries (§4), L2 theme-note entries
// (§5), the sections of global.md (§6) and the entries of the CSV manifest (§10). The CSV files
// themselves are data, found through their manifest entries.
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "codec/bounded_json.hpp"
#include "codec/json_fields.hpp"
#include "memkit/clock.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"
#include "memkit/tiers.hpp"
#include "recall/readers.hpp"

namespace memkit::recall::detail {
namespace {

enum class TierFile : std::uint8_t { none, log, note, global, manifest };

// What a workspace-relative path is to the layout, and for a note its theme.
struct TierPlace {
  TierFile file = TierFile::none;
  std::string_view theme;
  bool archived = false;  // an L2 note moved to memory/archive/<theme>/ (§11)
};

// "YYYY-MM-DD_HH.md", the name of an L2 file (§5).
bool is_note_name(std::string_view name) noexcept {
  return name.size() == 16 && name.ends_with(".md") && name[10] == '_' &&
         parse_iso_date(name.substr(0, 10)) && name[11] >= '0' && name[11] <= '2' &&
         name[12] >= '0' && name[12] <= '9' && (name[11] < '2' || name[12] <= '3');
}

TierPlace place_of(std::string_view path) {
  if (path == tiers::kGlobalPath) return {TierFile::global, {}, false};
  if (path == tiers::kManifestPath) return {TierFile::manifest, {}, false};
  const std::vector<std::string_view> parts = path_parts(path);
  if (parts.front() != tiers::kMemoryDir || !path.ends_with(".md")) return {};
  if (parts.size() == 3 && parts[1] == "sessions") return {TierFile::log, {}, false};
  if (parts.size() == 3 && tiers::is_theme_name(parts[1])) return {TierFile::note, parts[1], false};
  // memory/archive/global/ also keeps the copies write-global --replace makes: no note names.
  if (parts.size() == 4 && parts[1] == "archive" && tiers::is_theme_name(parts[2]) &&
      is_note_name(parts[3])) {
    return {TierFile::note, parts[2], true};
  }
  return {};
}

// The text of a heading unit's line.
std::string_view heading_of(const Document& doc, const memkit::Unit& heading) {
  LineCursor cursor = doc.lines(heading);
  Line line{};
  return cursor.next(line) ? heading_text(line.content) : std::string_view();
}

// Cuts a file at its headings: a unit starts at a heading `starts` accepts and runs to the line
// before the next such heading or the next heading whose level is less than `level`, its trailing
// blank lines left out. A heading alone is no unit (global.md's skeleton headings). A file with no
// such heading but some text is one unit. Emits the first and last Markdown units of each.
template <class Starts, class Emit>
void cut_at_headings(const Document& doc, std::uint8_t level, Starts starts, Emit emit) {
  const std::span<const memkit::Unit> units = doc.units();
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::size_t open = kNone;  // the heading of the unit being read
  std::size_t last = 0;      // its last unit that is not blank
  bool cut = false;
  for (std::size_t i = 0; i <= units.size(); ++i) {
    const bool end = i == units.size();
    const bool heading = !end && units[i].kind == UnitKind::heading;
    const bool starting = heading && starts(units[i]);
    if (end || starting || (heading && units[i].heading_level < level)) {
      if (open != kNone && last > open) emit(units[open], units[last]);
      open = kNone;
      if (starting) {
        open = last = i;
        cut = true;
      }
    } else if (open != kNone && units[i].kind != UnitKind::blank) {
      last = i;
    }
  }
  if (cut) return;
  // No heading starts a unit: the file's text, if it has any besides headings, is one.
  std::size_t first = kNone;
  bool text = false;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].kind == UnitKind::blank) continue;
    if (first == kNone) first = i;
    last = i;
    text = text || units[i].kind != UnitKind::heading;
  }
  if (text) emit(units[first], units[last]);
}

// The members of the top-level object of `json`, each from its key's opening quote to its value's
// last byte: where manifest.json keeps each entry, which the JSON value does not say.
// REQUIRES: `json` is an object, valid JSON.
std::vector<std::pair<std::size_t, std::size_t>> member_spans(std::string_view json) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t depth = 0;
  std::optional<std::size_t> begin;  // of the member being read
  std::size_t last = 0;              // its last byte so far
  bool in_string = false;
  bool escaped = false;
  auto close = [&] {
    if (depth == 1 && begin) spans.emplace_back(*begin, last + 1);
    begin.reset();
  };
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
        last = i;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      if (depth == 1 && !begin) begin = i;
    } else if (c == '{' || c == '[') {
      ++depth;
      last = i;
    } else if (c == '}' || c == ']') {
      if (depth == 1) close();
      --depth;
      last = i;
    } else if (c == ',') {
      if (depth == 1) close();
    } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      last = i;
    }
  }
  return spans;
}

// What a data entry is found by (§10): its name, description and source label, and its columns.
std::string data_text(const std::string& name, const nlohmann::json& entry) {
  std::string text = name;
  for (std::string_view key : {"description", "source_label"}) {
    const std::string value = memkit::detail::string_field(entry, key);
    if (!value.empty()) text += "\n" + value;
  }
  for (std::string_view key : {"declared_columns", "detected_columns"}) {
    std::string columns;
    for (const nlohmann::json& column : memkit::detail::array_field(entry, key)) {
      if (!column.is_string()) continue;
      if (!columns.empty()) columns += ", ";
      columns += column.get<std::string>();
    }
    if (!columns.empty()) {
      text += "\n" + columns;
      break;
    }
  }
  return text;
}

// memory/data/manifest.json: one unit per entry, its lines those of the entry's member.
void read_data_manifest(const Source& source, std::string_view bytes, FileUnits& out) {
  if (strip_w(bytes).empty()) return;  // as `{}`, which write-data also reads it as
  std::string problem = "not a JSON object";
  if (!memkit::detail::parse_bounded_json(bytes, &problem).is_object()) {
    out.findings.push_back(unparseable(source, display_path(source) + ": " + problem));
    return;
  }
  for (const auto& span : member_spans(bytes)) {
    const std::string_view text = bytes.substr(span.first, span.second - span.first);
    const nlohmann::json member = memkit::detail::parse_bounded_json("{" + std::string(text) + "}");
    if (!member.is_object() || member.size() != 1) continue;
    const std::string name = member.begin().key();
    const nlohmann::json& entry = member.begin().value();
    Unit unit = unit_at(bytes, line_at(bytes, span.first), span.first, span.second, "data");
    unit.id = name;
    unit.text = data_text(name, entry);
    unit.facets.emplace_back("tier", "data");
    const std::optional<std::string> date =
        leading_date(memkit::detail::string_field(entry, "updated_at"));
    if (date) unit.facets.emplace_back("date", *date);
    out.units.push_back(std::move(unit));
  }
}

}  // namespace

bool tiers_reads(std::string_view path) { return place_of(path).file != TierFile::none; }

void read_tiers(const Source& source, std::string_view bytes, FileUnits& out) {
  const TierPlace place = place_of(source.path);
  if (place.file == TierFile::manifest) {
    read_data_manifest(source, bytes, out);
    return;
  }
  const std::optional<Document> doc = parse_or_refuse(source, bytes, out);
  if (!doc) return;
  // L1: a `### [<ts>] <TYPE>` line starts an entry (§4); L2: a `## <heading>` line (§5); global.md:
  // every H2 and H3 (§6's sections, each up to the next heading of its level or above).
  const bool log = place.file == TierFile::log;
  const bool note = place.file == TierFile::note;
  const std::string_view kind = log ? "session" : note ? "note" : "section";
  const std::string_view tier = log ? "L1" : note ? "L2" : "L3";
  // A heading above this level ends a unit: an H1 in an L2 note, an H1 or H2 elsewhere.
  const std::uint8_t level = note ? 2 : 3;
  // The file's date: an L1 file is named by it, an L2 file by its hour.
  const std::optional<std::string> date =
      log || note ? leading_date(path_parts(source.path).back()) : std::nullopt;
  auto starts = [&](const memkit::Unit& heading) {
    if (log) return heading.heading_level == 3 && heading_of(*doc, heading).starts_with('[');
    return heading.heading_level >= 2 && heading.heading_level <= level;
  };
  cut_at_headings(*doc, level, starts, [&](const memkit::Unit& first, const memkit::Unit& last) {
    Unit unit = unit_at(doc->bytes(), first.first_line, first.begin, last.end, std::string(kind));
    unit.facets.emplace_back("tier", tier);
    if (note) unit.facets.emplace_back("category", place.theme);
    if (date) unit.facets.emplace_back("date", *date);
    if (place.archived) unit.facets.emplace_back("status", "archived");
    out.units.push_back(std::move(unit));
  });
}

}  // namespace memkit::recall::detail
