// Recall's commands (issue 28, docs/search.md): `search` (and `tiers search`) and `context` (and
// `custodian read`). Every layout found under the root is cut into units (recall::read_units) and
// the units indexed (search::Index); a search answers best first, each hit with its layout, file,
// lines, id, facets and a snippet; a context compiles the layouts' pieces and the query's hits
// under a budget (recall::compile_context). Reads only.
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands/flow.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/recall.hpp"
#include "memkit/search.hpp"
#include "memkit/text.hpp"
#include "stemming/snowball.hpp"
#include "store/recall_index.hpp"
#include "store/recall_root.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {
namespace {

// The most hits one search shows; more is refused, so no request can ask for unbounded output.
constexpr std::uint64_t kMaxLimit = 10'000;

// --limit: how many hits to show or offer, at most kMaxLimit.
Result<std::uint64_t> limit_of(const CommandRequest& inv) {
  const Result<std::uint64_t> limit = count_option(inv, "--limit", 10);
  if (limit && *limit > kMaxLimit) {
    return Status(Errc::invalid_argument, "--limit: expected an integer from 0 to 10000, got '" +
                                              std::to_string(*limit) + "'");
  }
  return limit;
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

// Says each file found that is not searched (a link, not a regular file, unreadable).
void say_skipped(const std::vector<RecallFile>& files, CommandReply& reply) {
  for (const RecallFile& file : files) {
    if (file.file.exists()) continue;
    const std::string why = file.file.state == EntryState::symlink ? "a symbolic link"
                            : file.file.state == EntryState::not_a_file
                                ? "not a regular file"
                                : file.file.error;
    reply.findings.push_back(make_finding("MK-IO-001", Severity::warning, file.file.path,
                                          shown_text(file.file.path) + ": " + why +
                                              "; not searched"));
  }
}

// --stem: the stemmer of the language it names, loaded; none without it.
Result<IndexStemming> stemming_of(const CommandRequest& inv) {
  const std::optional<std::string> language = option(inv, "--stem");
  if (!language) return IndexStemming{};
  Result<std::shared_ptr<const search::Stemmer>> stemmer = load_snowball(*language, "--stem");
  if (!stemmer) return stemmer.status();
  return IndexStemming{*language, std::move(stemmer).value()};
}

// A query's hits in the index of a root brought up to date (store/recall_index.hpp), with the
// files it skipped and the readers' warnings said in `reply`. `only`: the one layout to read
// (custodian read, tiers search), else every layout found.
std::optional<RecallSearch> search_recall(const std::string& root, const std::string& root_option,
                                          const std::string& custodian_dir,
                                          const IndexStemming& stemming,
                                          const search::Query& query, std::size_t limit,
                                          CommandReply& reply,
                                          std::optional<recall::Layout> only) {
  Result<RecallSearch> searched = search_recall_index(posix_file_system(), root, root_option,
                                                      custodian_dir, only, stemming, query, limit);
  if (!searched) {
    reply.findings.push_back(finding_from(searched.status()));
    return std::nullopt;
  }
  say_skipped(searched->index.files(), reply);
  for (const Finding& f : searched->index.findings()) reply.findings.push_back(f);
  return std::move(searched).value();
}

std::size_t files_searched(const std::vector<RecallFile>& files) {
  return static_cast<std::size_t>(std::count_if(
      files.begin(), files.end(), [](const RecallFile& f) { return f.file.exists(); }));
}

}  // namespace

void run_search(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  run_search_in(inv, env, reply, "--root", std::nullopt);
}

void run_search_in(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply,
                   const std::string& root_option, std::optional<recall::Layout> only) {
  if (!start_command(inv, env, reply, /*takes_positionals=*/true)) return;
  if (inv.positionals.empty()) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "missing QUERY; see memkit " + inv.group +
                                           (inv.command.empty() ? "" : " " + inv.command) +
                                           " --help")));
    return;
  }
  // Words given apart are one query: `memkit search cache deploy` is "cache deploy".
  std::string words = inv.positionals[0];
  for (std::size_t i = 1; i < inv.positionals.size(); ++i) words += " " + inv.positionals[i];
  const Result<IndexStemming> stemming = stemming_of(inv);
  if (!stemming) {
    reply.findings.push_back(finding_from(stemming.status()));
    return;
  }
  const Result<search::Query> query = search::parse_query(words, stemming->stemmer.get());
  if (!query) {
    reply.findings.push_back(finding_from(query.status()));
    return;
  }
  const Result<std::uint64_t> limit = limit_of(inv);
  if (!limit) {
    reply.findings.push_back(finding_from(limit.status()));
    return;
  }
  std::optional<RecallSearch> searched_index =
      search_recall(option(inv, root_option).value_or(env.current_directory), root_option,
                    "docs/memory", *stemming, *query, *limit, reply, only);
  if (!searched_index) return;
  const RecallIndex* index = &searched_index->index;
  const std::vector<RecallHit>* hits = &searched_index->hits;
  const std::size_t total = search::count(index->parts(), *query);
  const std::size_t searched = files_searched(index->files());
  nlohmann::json shown = nlohmann::json::array();
  std::string view;  // the human view
  for (const auto& [file, unit, score] : *hits) {
    const std::string snippet = search::snippet(unit.text, *query, 16, index->stemmer());
    nlohmann::json facets = nlohmann::json::object();
    for (const auto& facet : unit.facets) facets[facet.first] = facet.second;
    shown.push_back({{"layout", recall::layout_name(file->source.layout)},
                     {"file", file->file.path},
                     {"first_line", unit.first_line},
                     {"last_line", unit.last_line},
                     {"id", unit.id},
                     {"kind", unit.kind},
                     {"score", std::round(score * 1e6) / 1e6},
                     {"facets", std::move(facets)},
                     {"snippet", snippet}});
    if (inv.format == OutputFormat::text) view += hit_text(unit, *file, score, snippet);
  }
  const nlohmann::json data = {{"query", query->describe()},
                               {"files", searched},
                               {"units", index->units()},
                               {"total", total},
                               {"hits", std::move(shown)}};
  reply.data = fixed(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (inv.format == OutputFormat::text) {
    view += std::to_string(hits->size()) + " of " + std::to_string(total) + " matching units (" +
            std::to_string(index->units()) + " units in " + std::to_string(searched) +
            " files searched)\n";
    reply.text = fixed(std::move(view));
  }
}

namespace {

// A file's bytes, or none when it could not be read (its piece says so).
std::string_view bytes_or_none(const Result<std::string_view>& bytes) {
  return bytes ? *bytes : std::string_view();
}

// The pieces each layout offers, in priority order: the custodian's load route for the task,
// MemoryBox's tier 1 (in its profile's order), the three tiers' global.md and newest day log,
// each curated workspace's digest; then the hits of the query. A file the index did not read is
// read here, only when it is offered (`root`: where the files are).
Result<std::vector<recall::ContextPiece>> context_pieces(
    const std::string& root, const std::vector<RecallFile>& files, const std::string& task,
    const std::vector<RecallHit>& hits) {
  std::vector<recall::ContextPiece> pieces;
  std::map<const RecallFile*, std::string> read;  // the files read here
  const auto text = [&read, &root](const RecallFile& file) -> Result<std::string_view> {
    if (file.file.bytes) return file.file.text();
    if (const auto it = read.find(&file); it != read.end()) return std::string_view(it->second);
    Result<std::string> bytes = posix_file_system().read_file(root + "/" + file.file.path);
    if (!bytes) return bytes.status();
    return std::string_view(read.emplace(&file, std::move(bytes).value()).first->second);
  };
  const auto offer = [&pieces, &text](const RecallFile& file, std::string kind) {
    const Result<std::string_view> bytes = text(file);
    pieces.push_back(recall::ContextPiece{file.file.path, std::move(kind),
                                          bytes ? std::string(*bytes) : std::string(),
                                          bytes ? std::string() : "unreadable"});
  };
  const auto find = [&files](recall::Layout layout, std::string_view path) -> const RecallFile* {
    for (const RecallFile& f : files) {
      if (f.source.layout == layout && f.source.path == path && f.file.exists()) return &f;
    }
    return nullptr;
  };
  // custodian
  if (const RecallFile* manifest = find(recall::Layout::custodian, "manifest.md")) {
    const Result<std::vector<recall::RouteFile>> route =
        recall::custodian_route(bytes_or_none(text(*manifest)), task);
    if (!route) return route.status();
    for (std::size_t i = 0; i < route->size(); ++i) {
      const recall::RouteFile& r = (*route)[i];
      const std::string kind = i == 0 ? "manifest" : "route";
      if (const RecallFile* f = find(recall::Layout::custodian, r.path)) {
        offer(*f, kind);
      } else if (r.required) {
        recall::Source missing = manifest->source;
        missing.path = r.path;
        pieces.push_back(
            recall::ContextPiece{recall::display_path(missing), kind, std::string(), "no such file"});
      }
    }
  }
  // MemoryBox's tier 1, in its profile's order
  std::vector<const RecallFile*> tier_one;
  for (const RecallFile& f : files) {
    if (f.file.exists() && f.source.layout == recall::Layout::memorybox && f.source.tier == 1) {
      tier_one.push_back(&f);
    }
  }
  std::stable_sort(tier_one.begin(), tier_one.end(), [](const RecallFile* a, const RecallFile* b) {
    return a->load_order < b->load_order;
  });
  for (const RecallFile* f : tier_one) offer(*f, "tier 1");
  const RecallFile* newest_log = nullptr;
  std::map<std::string, std::vector<curated::Row>> workspaces;
  for (const RecallFile& f : files) {
    if (!f.file.exists()) continue;
    if (f.source.layout == recall::Layout::tiers && f.source.path == "memory/global.md") {
      offer(f, "global");
    }
    if (f.source.layout == recall::Layout::tiers && f.source.path.starts_with("memory/sessions/")) {
      newest_log = &f;  // files are sorted by path: the last is the newest day
    }
    // rows/<workspace>/<file>.md: the workspace's rows (soft-deleted ones the digest skips)
    const std::string_view path = f.source.path;
    const std::size_t slash = path.find('/', 5);
    if (f.source.layout == recall::Layout::curated && path.starts_with("rows/") &&
        slash != std::string_view::npos && path.find('/', slash + 1) == std::string_view::npos) {
      const std::string_view rows = bytes_or_none(text(f));
      for (curated::Entry& e : curated::parse_row_file(rows, f.file.path).entries) {
        workspaces[std::string(path.substr(5, slash - 5))].push_back(std::move(e.row));
      }
    }
  }
  if (newest_log != nullptr) offer(*newest_log, "log");
  for (const auto& [workspace, rows] : workspaces) {
    const curated::Digest digest = curated::digest(rows);
    if (!digest.block.empty()) {
      pieces.push_back(recall::ContextPiece{"rows/" + workspace, "digest", digest.block, ""});
    }
  }
  for (const RecallHit& hit : hits) {
    const RecallFile* file = hit.file;
    const recall::Unit& unit = hit.unit;
    pieces.push_back(recall::ContextPiece{file->file.path + ":" + std::to_string(unit.first_line) +
                                              "-" + std::to_string(unit.last_line),
                                          "hit", unit.text, std::string()});
  }
  return pieces;
}

// `memkit context` and `memkit custodian read`: the pieces compiled under the budget. The files
// are read whole and, for a --query, indexed (the index on disk brought up to date).
void run_context_of(const CommandRequest& inv, const std::string& root, const std::string& root_option,
                    const std::string& custodian_dir, std::optional<recall::Layout> only,
                    std::uint64_t budget, CommandReply& reply) {
  const Result<IndexStemming> stemming = stemming_of(inv);
  if (!stemming) {
    reply.findings.push_back(finding_from(stemming.status()));
    return;
  }
  std::optional<search::Query> query;
  if (const std::optional<std::string> text = option(inv, "--query")) {
    Result<search::Query> parsed = search::parse_query(*text, stemming->stemmer.get());
    if (!parsed) {
      reply.findings.push_back(finding_from(parsed.status()));
      return;
    }
    query = std::move(parsed).value();
  }
  const Result<std::uint64_t> limit = limit_of(inv);
  if (!limit) {
    reply.findings.push_back(finding_from(limit.status()));
    return;
  }
  std::optional<RecallIndex> index;
  std::vector<RecallFile> walked;
  std::vector<RecallHit> hits;
  if (query) {
    std::optional<RecallSearch> found =
        search_recall(root, root_option, custodian_dir, *stemming, *query, *limit, reply, only);
    if (!found) return;
    index = std::move(found->index);
    hits = std::move(found->hits);
  } else {
    Result<std::vector<RecallFile>> files =
        read_recall_files(posix_file_system(), root, root_option, custodian_dir, only);
    if (!files) {
      reply.findings.push_back(finding_from(files.status()));
      return;
    }
    walked = std::move(files).value();
    say_skipped(walked, reply);
  }
  const Result<std::vector<recall::ContextPiece>> pieces =
      context_pieces(root, index ? index->files() : walked, option(inv, "--task").value_or(""),
                     hits);
  if (!pieces) {
    reply.findings.push_back(finding_from(pieces.status()));
    return;
  }
  // A piece is offered as its file holds it; one that is not UTF-8 is said (search's warning).
  for (const recall::ContextPiece& piece : *pieces) {
    if (const std::optional<std::size_t> bad = find_invalid_utf8(piece.text)) {
      reply.findings.push_back(make_finding(
          "MK-UTF8-001", Severity::warning, piece.source,
          shown_text(piece.source) + ": invalid UTF-8 at byte " + std::to_string(*bad)));
    }
  }
  const recall::Context context = recall::compile_context(*pieces, budget);
  nlohmann::json items = nlohmann::json::array();
  std::size_t in = 0;
  std::string dropped;
  for (const recall::ContextItem& item : context.items) {
    items.push_back({{"source", item.source},
                     {"kind", item.kind},
                     {"tokens", item.tokens},
                     {"dropped", item.dropped.empty() ? nlohmann::json() : nlohmann::json(item.dropped)}});
    if (item.dropped.empty()) {
      ++in;
    } else {
      dropped += "\n  " + item.source + ": " + item.dropped;
    }
  }
  const nlohmann::json data = {{"budget", context.budget},
                               {"tokens", context.tokens},
                               {"block", context.block},
                               {"items", std::move(items)}};
  reply.data = fixed(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (inv.format == OutputFormat::text) {
    // The block to read or pipe, then its accounting as a comment a Markdown reader hides.
    std::string note = "<!-- memkit context: " + std::to_string(context.tokens) + " of " +
                       std::to_string(context.budget) + " tokens, " + std::to_string(in) +
                       " in, " + std::to_string(context.items.size() - in) + " dropped";
    for (const char c : dropped) {
      if (c == '-' && note.back() == '-') note += ' ';  // no "--" inside a comment
      note += c;
    }
    reply.text = fixed(context.block + note + (dropped.empty() ? " -->\n" : "\n-->\n"));
  }
}

}  // namespace

void run_context(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  if (!start_command(inv, env, reply, /*takes_positionals=*/false)) return;
  if (!option(inv, "--budget")) {
    reply.findings.push_back(finding_from(Status(
        Errc::invalid_argument, "missing --budget TOKENS; see memkit context --help")));
    return;
  }
  const Result<std::uint64_t> budget = count_option(inv, "--budget", 0);
  if (!budget) {
    reply.findings.push_back(finding_from(budget.status()));
    return;
  }
  run_context_of(inv, option(inv, "--root").value_or(env.current_directory), "--root",
                 "docs/memory", std::nullopt, *budget, reply);
}

void run_custodian_read(const CommandRequest& inv, const CommandEnvironment& env,
                        CommandReply& reply) {
  const Result<std::uint64_t> budget =
      count_option(inv, "--budget", std::numeric_limits<std::uint64_t>::max());
  if (!budget) {
    reply.findings.push_back(finding_from(budget.status()));
    return;
  }
  run_context_of(inv, option(inv, "--project-root").value_or(env.current_directory),
                 "--project-root", option(inv, "--memory-dir").value_or("docs/memory"),
                 recall::Layout::custodian, *budget, reply);
}

}  // namespace memkit::commands_detail
