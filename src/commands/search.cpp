// `memkit search QUERY [--root DIR] [--limit N]` (issue 28): every layout found under the root is
// cut into units (recall::read_units), the units indexed (search::Index) and the query answered,
// best first, each hit with its layout, file, lines, id, facets and a snippet. Reads only.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands/flow.hpp"
#include "memkit/recall.hpp"
#include "memkit/search.hpp"
#include "store/recall_root.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {
namespace {

// The most hits one search shows; more is refused, so no request can ask for unbounded output.
constexpr std::uint64_t kMaxLimit = 10'000;

struct Found {
  const RecallFile* file = nullptr;
  recall::Unit unit;
};

Result<std::uint64_t> limit_of(const CommandRequest& inv) {
  const std::string text = option(inv, "--limit").value_or("10");
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || at != end || value > kMaxLimit) {
    return Status(Errc::invalid_argument,
                  "--limit: expected an integer from 0 to 10000, got '" + text + "'");
  }
  return value;
}

// "docs/memory/decisions.md:12-14  custodian entry  2.310  <id>" and the snippet below it.
std::string hit_text(const recall::Unit& unit, const RecallFile& file, double score,
                     const std::string& snippet) {
  std::string out = shown_text(file.file.path) + ":" + std::to_string(unit.first_line);
  if (unit.last_line != unit.first_line) out += "-" + std::to_string(unit.last_line);
  char score_text[32];
  std::snprintf(score_text, sizeof score_text, "%.3f", score);
  out += "  " + std::string(recall::layout_name(file.source.layout)) + " " + unit.kind + "  " +
         score_text;
  if (!unit.id.empty()) out += "  " + shown_text(unit.id);
  out += "\n    " + shown_text(snippet) + "\n";
  return out;
}

}  // namespace

void run_search(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  if (!start_command(inv, env, reply, /*takes_positionals=*/true)) return;
  if (inv.positionals.empty()) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "missing QUERY; see memkit search --help")));
    return;
  }
  // Words given apart are one query: `memkit search cache deploy` is "cache deploy".
  std::string words = inv.positionals[0];
  for (std::size_t i = 1; i < inv.positionals.size(); ++i) words += " " + inv.positionals[i];
  const Result<search::Query> query = search::parse_query(words);
  if (!query) {
    reply.findings.push_back(finding_from(query.status()));
    return;
  }
  const Result<std::uint64_t> limit = limit_of(inv);
  if (!limit) {
    reply.findings.push_back(finding_from(limit.status()));
    return;
  }
  const std::string root = option(inv, "--root").value_or(env.current_directory);
  const Result<std::vector<RecallFile>> files =
      read_recall_files(posix_file_system(), root, "--root");
  if (!files) {
    reply.findings.push_back(finding_from(files.status()));
    return;
  }

  search::Index index;
  std::vector<Found> units;
  std::size_t searched = 0;  // the files read
  for (const RecallFile& file : *files) {
    if (!file.file.exists()) {  // said, and the search goes on
      const std::string why = file.file.state == EntryState::symlink ? "a symbolic link"
                              : file.file.state == EntryState::not_a_file
                                  ? "not a regular file"
                                  : file.file.error;
      reply.findings.push_back(make_finding("MK-IO-001", Severity::warning, file.file.path,
                                            shown_text(file.file.path) + ": " + why +
                                                "; not searched"));
      continue;
    }
    ++searched;
    recall::FileUnits read = recall::read_units(file.source, file.file.text());
    for (Finding& f : read.findings) reply.findings.push_back(std::move(f));
    for (recall::Unit& unit : read.units) {
      search::Facets facets = unit.facets;
      facets.emplace_back("layout", std::string(recall::layout_name(file.source.layout)));
      facets.emplace_back("file", file.file.path);
      index.add(unit.text, std::move(facets));
      units.push_back(Found{&file, std::move(unit)});
    }
  }

  const std::vector<search::Hit> hits = index.search(*query, *limit);
  const std::size_t total = index.count(*query);
  nlohmann::json shown = nlohmann::json::array();
  std::string view;  // the human view
  for (const search::Hit& hit : hits) {
    const Found& found = units[hit.document];
    const std::string snippet = search::snippet(found.unit.text, *query);
    nlohmann::json facets = nlohmann::json::object();
    for (const auto& facet : found.unit.facets) facets[facet.first] = facet.second;
    shown.push_back({{"layout", recall::layout_name(found.file->source.layout)},
                     {"file", found.file->file.path},
                     {"first_line", found.unit.first_line},
                     {"last_line", found.unit.last_line},
                     {"id", found.unit.id},
                     {"kind", found.unit.kind},
                     {"score", std::round(hit.score * 1e6) / 1e6},
                     {"facets", std::move(facets)},
                     {"snippet", snippet}});
    if (inv.format == OutputFormat::text) {
      view += hit_text(found.unit, *found.file, hit.score, snippet);
    }
  }
  const nlohmann::json data = {{"query", query->describe()},
                               {"files", searched},
                               {"units", units.size()},
                               {"total", total},
                               {"hits", std::move(shown)}};
  reply.data = fixed(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (inv.format == OutputFormat::text) {
    view += std::to_string(hits.size()) + " of " + std::to_string(total) + " matching units (" +
            std::to_string(units.size()) + " units in " + std::to_string(searched) +
            " files searched)\n";
    reply.text = fixed(std::move(view));
  }
}

}  // namespace memkit::commands_detail
