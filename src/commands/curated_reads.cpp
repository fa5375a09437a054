// The curated reads (curated.md §8, §9, §10): get-relevant, kernel, show, list, search, stats,
// conflicts, lineage and story. Each reads the row files (their findings go into the reply), asks
// src/curated for the answer, and records the reads §9 counts: injection for what the digest
// rendered, deliberate for rows the caller named, kernel for the rendered kernel. Nothing else is
// ever written by a read.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands/curated_flow.hpp"
#include "json/curated_json.hpp"
#include "memkit/curated/floors.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/curated/story.hpp"
#include "memkit/text.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {
namespace {

constexpr std::uint64_t kDefaultMaxChars = 800;
constexpr std::uint64_t kDefaultSearchLimit = 10;
constexpr std::uint64_t kDefaultMaxDepth = 5;
constexpr std::size_t kTopRows = 10;
constexpr std::uint64_t kDefaultThresholdPermille = 300;

constexpr std::array kTypes = {curated::RowType::project,  curated::RowType::user,
                               curated::RowType::feedback, curated::RowType::atom,
                               curated::RowType::decision, curated::RowType::negative};
constexpr std::array kClasses = {curated::RowClass::anchor, curated::RowClass::thread,
                                 curated::RowClass::log};
constexpr std::array kStatuses = {curated::RowStatus::open, curated::RowStatus::carry_forward,
                                  curated::RowStatus::graduated, curated::RowStatus::closed};

Finding not_found(std::string_view name, bool deleted) {
  return make_finding(
      "MK-CUR-011", Severity::error, "",
      "no row " + shown_text(name) + (deleted ? " (it is soft-deleted)" : ""),
      deleted ? "pass --include-deleted to read it, or restore it with `memkit curated restore`"
              : "check the name with `memkit curated list` or `search`");
}

// An enum option: nullopt inside when absent; false (with MK-ARG-001) for a value outside `words`.
template <class T, class Parse>
bool enum_option(CuratedRun& run, std::string_view name, Parse parse, std::string_view words,
                 std::optional<T>& out) {
  const std::optional<std::string> text = option(run.inv, name);
  if (!text) return true;
  out = parse(*text);
  if (out) return true;
  curated_refuse(
      run, "MK-ARG-001",
      std::string(name) + ": '" + shown_text(*text) + "' is not one of " + std::string(words));
  return false;
}

// §3 `--initiative`: the literal `_none` is the no-initiative bucket, anything else is
// normalised, and a value that normalises to nothing is refused (only a --project-ref derivation
// may give null). `ok` false: refused, the finding is in the reply.
struct InitiativeArg {
  bool ok = true;
  std::optional<std::string> key;  // nullopt: not given
};
InitiativeArg initiative_argument(CuratedRun& run) {
  const std::optional<std::string> text = option(run.inv, "--initiative");
  if (!text) return {};
  if (*text == curated::kNoInitiative) {
    return {.ok = true, .key = std::string(curated::kNoInitiative)};
  }
  std::optional<std::string> key = curated::normalize_initiative(*text);
  if (!key) {
    curated_refuse(run, "MK-ARG-001",
                   "--initiative: '" + shown_text(*text) +
                       "' normalises to nothing; name an initiative, or `_none` for rows "
                       "without one");
    return {.ok = false, .key = std::nullopt};
  }
  return {.ok = true, .key = std::move(key)};
}

// The bucket of a row as get-relevant groups it: a hand-written `Initiative:` is read through the
// same normalisation, and one that normalises to nothing is the no-initiative bucket.
std::string bucket_of(const curated::Row& row) {
  if (!row.initiative) return std::string(curated::kNoInitiative);
  std::optional<std::string> key = curated::normalize_initiative(*row.initiative);
  return key ? std::move(*key) : std::string(curated::kNoInitiative);
}

// --max-depth as the walk takes it; a depth beyond 2^32 hops walks no further than 2^32 does.
std::optional<std::uint32_t> max_depth(CuratedRun& run) {
  const std::optional<std::uint64_t> depth = curated_count(run, "--max-depth", kDefaultMaxDepth);
  if (!depth) return std::nullopt;
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(*depth, std::numeric_limits<std::uint32_t>::max()));
}

// A reference, not a copy: stats asks for every live row's counters once per axis.
const curated::ReadCounters& counters_of(const curated::Telemetry& telemetry,
                                         std::string_view name) {
  static const curated::ReadCounters kNone{};
  const auto it = telemetry.rows.find(std::string(name));
  return it == telemetry.rows.end() ? kNone : it->second;
}

// The text view of a block: the block itself, or a line saying there is none.
std::string block_text(const std::string& block, std::string_view empty) {
  return block.empty() ? std::string(empty) + "\n" : block + "\n";
}

// ---- get-relevant -------------------------------------------------------------------------------

void run_digest(CuratedRun& run, const CuratedRows& rows, std::uint64_t max_chars) {
  const curated::Digest digest = curated::digest(rows.rows, max_chars, run.config.footer);
  // §9: injection for each rendered row only, the top row of each shown bucket.
  std::vector<std::string> rendered;
  for (const curated::DigestItem& item : digest.items) rendered.push_back(item.row->name);
  record_reads(run, curated::ReadKind::injection, rendered);
  run.reply.data = fixed(curated_digest_json(run.workspace, digest));
  run.reply.text = fixed(block_text(digest.block, "No live pending rows."));
}

void run_initiative(CuratedRun& run, const CuratedRows& rows, const std::string& key) {
  const curated::InitiativeRows found = curated::initiative_rows(rows.rows, key, run.config.footer);
  // §9: the caller named the initiative, so every returned row is a deliberate read.
  std::vector<std::string> names;
  for (const curated::Row* row : found.rows) names.push_back(row->name);
  record_reads(run, curated::ReadKind::deliberate, names);
  run.reply.data = fixed(curated_initiative_json(run.workspace, key, found));
  std::string text = block_text(found.block, "No live pending rows in " + key + ".");
  for (const curated::Row* row : found.rows) text += "\n### " + row->name + "\n" + row->body + "\n";
  run.reply.text = fixed(std::move(text));
}

// ---- show ---------------------------------------------------------------------------------------

bool by_kind_then(const curated::LineageEdge& a, const curated::LineageEdge& b,
                  bool by_dst) noexcept {
  const std::string& other_a = by_dst ? a.dst : a.src;
  const std::string& other_b = by_dst ? b.dst : b.src;
  return std::pair(curated::name_of(a.kind), std::string_view(other_a)) <
         std::pair(curated::name_of(b.kind), std::string_view(other_b));
}

// `row`'s links: its own Link: lines (out), and those of the other rows that point at it (in). A
// soft-deleted row's links point in only with --include-deleted: every other read keeps such a
// row invisible (§8).
void add_links(CuratedShow& show, const CuratedRows& rows, bool include_deleted) {
  const curated::Row& row = *show.row;
  std::vector<curated::LineageEdge> out;
  for (const curated::Link& link : row.links) {
    out.push_back(
        {.src = row.name, .dst = link.dst, .kind = link.kind, .created_at = link.created_at});
  }
  std::vector<curated::LineageEdge> in;
  for (const curated::Row& other : rows.rows) {
    if (other.deleted && !include_deleted) continue;
    for (const curated::Link& link : other.links) {
      if (link.dst != row.name) continue;
      in.push_back(
          {.src = other.name, .dst = link.dst, .kind = link.kind, .created_at = link.created_at});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return by_kind_then(a, b, true); });
  std::sort(in.begin(), in.end(),
            [](const auto& a, const auto& b) { return by_kind_then(a, b, false); });
  show.links_out = std::move(out);
  show.links_in = std::move(in);
}

std::string show_text(const curated::Row& row, const curated::ReadCounters& counters) {
  std::string text = row.name + " (" + std::string(curated::name_of(row.type)) + ", " +
                     std::string(curated::name_of(row.row_class));
  if (row.status) text += ", " + std::string(curated::name_of(*row.status));
  if (row.deleted) text += ", deleted " + *row.deleted;
  text += ")\n";
  if (row.description) text += row.description.value() + "\n";
  text += "reads: deliberate " + std::to_string(counters.deliberate.count) + ", injection " +
          std::to_string(counters.injection.count) + ", kernel " +
          std::to_string(counters.kernel.count) + "\n\n" + row.body + "\n";
  return text;
}

// ---- list ---------------------------------------------------------------------------------------

struct ListFilter {
  std::optional<curated::RowType> type;
  std::optional<curated::RowClass> row_class;
  std::optional<curated::RowStatus> status;
  std::optional<curated::Audience> audience;
  std::optional<std::string> initiative;  // a key, or "_none"
  bool include_deleted = false;

  [[nodiscard]] bool keeps(const curated::Row& row) const {
    if (row.deleted && !include_deleted) return false;
    if (type && row.type != *type) return false;
    if (row_class && row.row_class != *row_class) return false;
    if (status && (row.row_class != curated::RowClass::thread || row.status != *status)) {
      return false;
    }
    if (audience && row.audience != *audience) return false;
    if (initiative && bucket_of(row) != *initiative) return false;
    return true;
  }
};

enum class SortKey : std::uint8_t { name, injection, deliberate, kernel };

std::optional<SortKey> parse_sort(std::string_view text) noexcept {
  if (text == "name") return SortKey::name;
  if (text == "injection") return SortKey::injection;
  if (text == "deliberate") return SortKey::deliberate;
  if (text == "kernel") return SortKey::kernel;
  return std::nullopt;
}

std::optional<bool> parse_descending(std::string_view text) noexcept {
  if (text == "asc") return false;
  if (text == "desc") return true;
  return std::nullopt;
}

std::string list_text(const std::vector<CuratedListItem>& items) {
  if (items.empty()) return "No rows.\n";
  std::size_t width = 4;
  for (const CuratedListItem& item : items) width = std::max(width, item.row->name.size());
  auto pad = [&](std::string text) {
    text.resize(std::max(text.size(), width + 2), ' ');
    return text;
  };
  std::string text = pad("NAME") + "TYPE      CLASS   STATUS         READS\n";
  for (const CuratedListItem& item : items) {
    std::string type(curated::name_of(item.row->type));
    std::string row_class(curated::name_of(item.row->row_class));
    std::string status = item.row->status ? std::string(curated::name_of(*item.row->status)) : "-";
    type.resize(std::max<std::size_t>(type.size() + 1, 10), ' ');
    row_class.resize(std::max<std::size_t>(row_class.size() + 1, 8), ' ');
    status.resize(std::max<std::size_t>(status.size() + 1, 15), ' ');
    const curated::ReadCounters& c = item.counters;
    std::string reads = "d" + std::to_string(c.deliberate.count) + " i" +
                        std::to_string(c.injection.count) + " k" + std::to_string(c.kernel.count);
    text += pad(item.row->name) + type + row_class + status + reads;
    if (item.row->deleted) text += "  (deleted)";
    text += "\n";
  }
  return text;
}

// ---- conflicts ----------------------------------------------------------------------------------

// --threshold: a decimal in [0, 1] with at most three decimals ("0.3", "1", ".25" is refused), in
// thousandths. Three decimals keep the reply exact: canonical JSON has no floats, and a pair is
// listed iff its similarity in thousandths, rounded down, is at least the threshold's.
std::optional<std::uint64_t> threshold_permille(CuratedRun& run) {
  const std::optional<std::string> text = option(run.inv, "--threshold");
  if (!text) return kDefaultThresholdPermille;
  auto refuse = [&]() -> std::optional<std::uint64_t> {
    curated_refuse(run, "MK-ARG-001",
                   "--threshold: expected a decimal from 0 to 1 with at most three decimals "
                   "(0.3), got '" +
                       shown_text(*text) + "'");
    return std::nullopt;
  };
  const std::string_view t = *text;
  if (t.empty() || (t[0] != '0' && t[0] != '1')) return refuse();
  std::uint64_t whole = static_cast<std::uint64_t>(t[0] - '0');
  std::uint64_t fraction = 0;
  std::size_t digits = 0;
  if (t.size() > 1) {
    if (t[1] != '.' || t.size() == 2 || t.size() > 5) return refuse();
    for (const char c : t.substr(2)) {
      if (c < '0' || c > '9') return refuse();
      fraction = fraction * 10 + static_cast<std::uint64_t>(c - '0');
      ++digits;
    }
  }
  for (; digits < 3; ++digits) fraction *= 10;
  const std::uint64_t permille = whole * 1000 + fraction;
  if (permille > 1000) return refuse();
  return permille;
}

// ---- stats --------------------------------------------------------------------------------------

std::optional<CuratedFloorSize> floor_size(CuratedRun& run, std::string_view floor_dir) {
  const std::optional<std::vector<std::string>> paths = day_files(run, floor_dir);
  if (!paths) return std::nullopt;
  Result<Snapshot> files = run.store.read(*paths);
  if (curated_failed(run, files.status())) return std::nullopt;
  CuratedFloorSize size;
  for (const std::string& path : *paths) {
    const FileSnapshot* file = files->find(path);
    if (file == nullptr || file->state != EntryState::file) continue;
    ++size.files;
    size.bytes += file->text().size();
  }
  return size;
}

CuratedAxisStats axis_stats(const std::vector<const curated::Row*>& live,
                            const curated::Telemetry& telemetry, curated::ReadKind kind) {
  CuratedAxisStats out;
  for (const curated::Row* row : live) {
    const curated::Axis& axis = counters_of(telemetry, row->name).axis(kind);
    out.total += axis.count;
    if (axis.count > 0) out.top.push_back({.name = row->name, .axis = axis});
  }
  // Only the first ten are kept: names are unique, so the order is total and a partial sort
  // gives the same ten, in the same order, as sorting every row with a read.
  const std::size_t kept = std::min(out.top.size(), kTopRows);
  std::partial_sort(out.top.begin(), out.top.begin() + static_cast<std::ptrdiff_t>(kept),
                    out.top.end(), [](const CuratedTopRow& a, const CuratedTopRow& b) {
                      if (a.axis.count != b.axis.count) return a.axis.count > b.axis.count;
                      return a.name < b.name;
                    });
  out.top.resize(kept);
  return out;
}

// ---- story and lineage --------------------------------------------------------------------------

// §10: a slug with no row still has a story when something remembers it: history records under
// its name (a purged row keeps its purge record), or a Link: line of another row pointing at it.
bool has_trace(const CuratedRows& rows, const std::vector<curated::HistoryRecord>& history,
               std::string_view name) {
  for (const curated::HistoryRecord& record : history) {
    if (record.name == name) return true;
  }
  for (const curated::Row& row : rows.rows) {
    for (const curated::Link& link : row.links) {
      if (link.dst == name) return true;
    }
  }
  return false;
}

std::string lineage_text(const curated::Lineage& lineage) {
  std::string text = "Lineage of " + lineage.seed + ":\n";
  for (const curated::LineageNode& node : lineage.nodes) {
    text += "  " + node.name + "  depth " + std::to_string(node.depth) + "  " + node.role + "\n";
  }
  if (!lineage.edges.empty()) text += "Edges:\n";
  for (const curated::LineageEdge& edge : lineage.edges) {
    text += "  " + edge.src + " " + std::string(curated::name_of(edge.kind)) + " " + edge.dst +
            "  " + edge.created_at + "\n";
  }
  return text;
}

std::string story_text(const curated::Story& story) {
  std::string text = lineage_text(story.lineage) + "Timeline:\n";
  for (const curated::StoryEvent& event : story.timeline) {
    text += "  " + event.ts.value_or("?") + "  " + event.kind + "  " + event.node;
    if (event.from || event.to) {
      text += "  " + event.from.value_or("null") + " -> " + event.to.value_or("null");
    }
    if (event.link) {
      text += "  (" + event.link->src + " " + std::string(curated::name_of(event.link->kind)) +
              " " + event.link->dst + ")";
    }
    if (event.body_delta) text += "  (" + std::to_string(*event.body_delta) + " code points)";
    if (event.approximate.value_or(false)) text += "  (approximate)";
    text += "\n";
  }
  return text;
}

}  // namespace

void run_curated_get_relevant(CuratedRun& run) {
  if (!positionals(run, 0, "get-relevant")) return;
  // Checked in both modes: initiative mode ignores the value, but a malformed one is still an
  // argument error.
  const std::optional<std::uint64_t> max_chars =
      curated_count(run, "--max-chars", kDefaultMaxChars);
  if (!max_chars) return;
  const InitiativeArg initiative = initiative_argument(run);
  if (!initiative.ok) return;
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  if (initiative.key) {
    run_initiative(run, *rows, *initiative.key);
  } else {
    run_digest(run, *rows, *max_chars);
  }
}

void run_curated_kernel(CuratedRun& run) {
  if (!positionals(run, 0, "kernel")) return;
  std::optional<std::uint64_t> max_chars;
  if (option(run.inv, "--max-chars")) {
    max_chars = curated_count(run, "--max-chars", 0);
    if (!max_chars) return;
  }
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  const curated::Kernel kernel = curated::kernel(rows->rows, run.config.kernel, max_chars);
  std::vector<std::string> rendered;
  for (const curated::Row* row : kernel.rows) rendered.push_back(row->name);
  record_reads(run, curated::ReadKind::kernel, rendered);
  run.reply.data = fixed(curated_kernel_json(run.workspace, kernel));
  run.reply.text = fixed(block_text(kernel.block, "No kernel rows."));
}

void run_curated_show(CuratedRun& run) {
  if (!positionals(run, 1, "show <name>")) return;
  const std::string& name = run.inv.positionals[0];
  const bool include_deleted = has_flag(run.inv, "--include-deleted");
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  const curated::Row* row = rows->find(name);
  if (row == nullptr || (row->deleted && !include_deleted)) {
    run.reply.findings.push_back(not_found(name, row != nullptr));
    return;
  }
  // §8: recorded before the counters are derived, so they include this read; a soft-deleted row
  // counts nothing.
  if (!row->deleted) record_reads(run, curated::ReadKind::deliberate, {row->name});
  const std::optional<curated::Telemetry> telemetry = read_telemetry(run);
  if (!telemetry) return;
  CuratedShow show{.row = row,
                   .counters = counters_of(*telemetry, row->name),
                   .links_out = std::nullopt,
                   .links_in = std::nullopt,
                   .history = std::nullopt};
  if (has_flag(run.inv, "--links")) add_links(show, *rows, include_deleted);
  if (has_flag(run.inv, "--history")) {
    std::optional<std::vector<curated::HistoryRecord>> history = read_history(run);
    if (!history) return;
    std::erase_if(*history,
                  [&](const curated::HistoryRecord& record) { return record.name != row->name; });
    show.history = std::move(*history);
  }
  run.reply.data = fixed(curated_show_json(run.workspace, show));
  run.reply.text = fixed(show_text(*row, show.counters));
}

void run_curated_list(CuratedRun& run) {
  if (!positionals(run, 0, "list")) return;
  ListFilter filter;
  if (!enum_option(run, "--type", curated::parse_row_type,
                   "project, user, feedback, atom, decision, negative", filter.type) ||
      !enum_option(run, "--class", curated::parse_row_class, "anchor, thread, log",
                   filter.row_class) ||
      !enum_option(run, "--status", curated::parse_status, "open, carry_forward, graduated, closed",
                   filter.status) ||
      !enum_option(run, "--audience", curated::parse_audience, "orchestrator, executor, any",
                   filter.audience)) {
    return;
  }
  std::optional<SortKey> sort = SortKey::name;
  if (!enum_option(run, "--sort", parse_sort, "name, injection, deliberate, kernel", sort)) return;
  std::optional<bool> descending;
  if (!enum_option(run, "--order", parse_descending, "asc, desc", descending)) return;
  // The default order: ascending by name, descending by a counter.
  const bool desc = descending.value_or(*sort != SortKey::name);
  const InitiativeArg initiative = initiative_argument(run);
  if (!initiative.ok) return;
  filter.initiative = initiative.key;
  const std::optional<std::uint64_t> limit =
      curated_count(run, "--limit", std::numeric_limits<std::uint64_t>::max());
  if (!limit) return;
  filter.include_deleted = has_flag(run.inv, "--include-deleted");

  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  const std::optional<curated::Telemetry> telemetry = read_telemetry(run);
  if (!telemetry) return;
  std::vector<CuratedListItem> items;
  for (const curated::Row& row : rows->rows) {
    if (filter.keeps(row))
      items.push_back({.row = &row, .counters = counters_of(*telemetry, row.name)});
  }
  // One key only, never a blend of counters (§9); ties by name ascending whatever the order.
  auto count = [&](const CuratedListItem& item) -> std::uint64_t {
    switch (*sort) {
      case SortKey::injection:
        return item.counters.injection.count;
      case SortKey::deliberate:
        return item.counters.deliberate.count;
      case SortKey::kernel:
        return item.counters.kernel.count;
      case SortKey::name:
        break;
    }
    return 0;
  };
  std::sort(items.begin(), items.end(), [&](const CuratedListItem& a, const CuratedListItem& b) {
    if (*sort == SortKey::name) return desc ? a.row->name > b.row->name : a.row->name < b.row->name;
    const std::uint64_t ca = count(a);
    const std::uint64_t cb = count(b);
    if (ca != cb) return desc ? ca > cb : ca < cb;
    return a.row->name < b.row->name;
  });
  if (items.size() > *limit) items.resize(*limit);
  run.reply.data = fixed(curated_list_json(run.workspace, items));
  run.reply.text = fixed(list_text(items));
}

void run_curated_search(CuratedRun& run) {
  if (!positionals(run, 1, "search <query>")) return;
  const std::string& query = run.inv.positionals[0];
  const std::string scope = option(run.inv, "--scope").value_or("memory");
  if (scope != "memory" && scope != "episodes" && scope != "both") {
    curated_refuse(run, "MK-ARG-001",
                   "--scope: '" + shown_text(scope) + "' is not one of memory, episodes, both");
    return;
  }
  const std::optional<std::uint64_t> limit = curated_count(run, "--limit", kDefaultSearchLimit);
  if (!limit) return;

  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  std::vector<curated::SearchHit> hits;
  if (scope != "episodes") hits = curated::search(rows->rows, query, *limit);

  std::vector<curated::Episode> episodes;
  std::vector<curated::EpisodeHit> episode_hits;
  if (scope != "memory") {
    const std::optional<std::vector<std::string>> paths = day_files(run, curated::kEpisodesDir);
    if (!paths) return;
    Result<Snapshot> files = run.store.read(*paths);
    if (curated_failed(run, files.status())) return;
    for (const std::string& path : *paths) {
      const FileSnapshot* file = files->find(path);
      if (file == nullptr || file->state != EntryState::file) continue;
      curated::EpisodeFile parsed = curated::parse_episodes(file->text(), path, run.workspace);
      for (Finding& f : parsed.findings) run.reply.findings.push_back(std::move(f));
      for (curated::Episode& e : parsed.episodes) episodes.push_back(std::move(e));
    }
    episode_hits = curated::search_episodes(episodes, query, *limit);
  }

  run.reply.data = fixed(curated_search_json(run.workspace, query, scope, hits, episode_hits));
  std::string text;
  for (const curated::SearchHit& hit : hits) {
    text += hit.row->name + "  (rank " + std::to_string(hit.rank) + ")\n  " + hit.snippet + "\n";
  }
  for (const curated::EpisodeHit& hit : episode_hits) {
    text += "episode " + hit.episode->episode_id + "  " + hit.episode->ts + "  (rank " +
            std::to_string(hit.rank) + ")\n  " + hit.episode->title + "\n";
  }
  run.reply.text = fixed(text.empty() ? std::string("No matches.\n") : text);
}

void run_curated_stats(CuratedRun& run) {
  if (!positionals(run, 0, "stats")) return;
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  const std::optional<curated::Telemetry> telemetry = read_telemetry(run);
  if (!telemetry) return;
  const std::optional<CuratedFloorSize> events = floor_size(run, curated::kEventsDir);
  if (!events) return;
  const std::optional<CuratedFloorSize> episodes = floor_size(run, curated::kEpisodesDir);
  if (!episodes) return;

  CuratedStats stats;
  for (const curated::RowType type : kTypes) stats.by_type[std::string(curated::name_of(type))] = 0;
  for (const curated::RowClass c : kClasses) stats.by_class[std::string(curated::name_of(c))] = 0;
  for (const curated::RowStatus s : kStatuses)
    stats.by_status[std::string(curated::name_of(s))] = 0;
  stats.by_status["none"] = 0;
  std::vector<const curated::Row*> live;
  for (const curated::Row& row : rows->rows) {
    if (row.deleted) {
      ++stats.deleted;
      continue;
    }
    live.push_back(&row);
    ++stats.by_type[std::string(curated::name_of(row.type))];
    ++stats.by_class[std::string(curated::name_of(row.row_class))];
    if (row.row_class == curated::RowClass::thread) {
      ++stats.by_status[row.status ? std::string(curated::name_of(*row.status)) : "none"];
    }
    stats.links += row.links.size();
  }
  stats.rows = live.size();
  stats.live_pending = curated::live_pending(rows->rows).size();
  stats.deliberate = axis_stats(live, *telemetry, curated::ReadKind::deliberate);
  stats.injection = axis_stats(live, *telemetry, curated::ReadKind::injection);
  stats.kernel = axis_stats(live, *telemetry, curated::ReadKind::kernel);
  stats.events = *events;
  stats.episodes = *episodes;
  run.reply.data = fixed(curated_stats_json(run.workspace, stats));
  run.reply.text =
      fixed("Workspace " + run.workspace + ": " + std::to_string(stats.rows) + " live rows, " +
            std::to_string(stats.deleted) + " deleted, " + std::to_string(stats.live_pending) +
            " live pending, " + std::to_string(stats.links) + " links\nReads: deliberate " +
            std::to_string(stats.deliberate.total) + ", injection " +
            std::to_string(stats.injection.total) + ", kernel " +
            std::to_string(stats.kernel.total) + "\nFloors: events " +
            std::to_string(stats.events.files) + " files, " + std::to_string(stats.events.bytes) +
            " bytes; episodes " + std::to_string(stats.episodes.files) + " files, " +
            std::to_string(stats.episodes.bytes) + " bytes\n");
}

void run_curated_conflicts(CuratedRun& run) {
  if (!positionals(run, 0, "conflicts")) return;
  const std::optional<std::uint64_t> threshold = threshold_permille(run);
  if (!threshold) return;
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  // Each live row's body terms as a set (§8: the search tokenizer).
  std::vector<std::pair<const curated::Row*, std::set<std::string>>> terms;
  for (const curated::Row& row : rows->rows) {
    if (row.deleted) continue;
    const std::vector<std::string> tokens = curated::search_tokens(row.body);
    terms.emplace_back(&row, std::set<std::string>(tokens.begin(), tokens.end()));
  }
  std::vector<CuratedConflict> pairs;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    for (std::size_t j = i + 1; j < terms.size(); ++j) {
      const std::set<std::string>& a = terms[i].second;
      const std::set<std::string>& b = terms[j].second;
      std::uint64_t shared = 0;
      for (const std::string& term : a) shared += b.count(term);
      const std::uint64_t all = a.size() + b.size() - shared;
      // Two bodies without a term are not similar: there is nothing to compare.
      if (all == 0 || shared * 1000 < *threshold * all) continue;
      pairs.push_back({.a = terms[i].first->name,
                       .b = terms[j].first->name,
                       .shared = shared,
                       .union_size = all,
                       .permille = shared * 1000 / all});
    }
  }
  // Highest exact similarity first (cross-multiplied, no rounding), then by names.
  std::sort(pairs.begin(), pairs.end(), [](const CuratedConflict& x, const CuratedConflict& y) {
    const std::uint64_t left = x.shared * y.union_size;
    const std::uint64_t right = y.shared * x.union_size;
    if (left != right) return left > right;
    return std::pair(x.a, x.b) < std::pair(y.a, y.b);
  });
  run.reply.data = fixed(curated_conflicts_json(run.workspace, *threshold, pairs));
  std::string text;
  for (const CuratedConflict& pair : pairs) {
    text += pair.a + "  " + pair.b + "  " + std::to_string(pair.shared) + "/" +
            std::to_string(pair.union_size) + " shared terms\n";
  }
  run.reply.text = fixed(text.empty() ? std::string("No conflicts.\n") : text);
}

void run_curated_lineage(CuratedRun& run) {
  if (!positionals(run, 1, "lineage <name>")) return;
  const std::string& name = run.inv.positionals[0];
  const std::optional<std::uint32_t> depth = max_depth(run);
  if (!depth) return;
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  const curated::Row* row = rows->find(name);
  if (row == nullptr || (row->deleted && !has_flag(run.inv, "--include-deleted"))) {
    run.reply.findings.push_back(not_found(name, row != nullptr));
    return;
  }
  const curated::Lineage lineage = curated::lineage(rows->rows, name, *depth);
  run.reply.data = fixed(curated_lineage_json(run.workspace, lineage));
  run.reply.text = fixed(lineage_text(lineage));
}

void run_curated_story(CuratedRun& run) {
  if (!positionals(run, 1, "story <name>")) return;
  const std::string& name = run.inv.positionals[0];
  const std::optional<std::uint32_t> depth = max_depth(run);
  if (!depth) return;
  const std::optional<CuratedRows> rows = read_rows(run);
  if (!rows) return;
  const std::optional<std::vector<curated::HistoryRecord>> history = read_history(run);
  if (!history) return;
  const curated::Row* row = rows->find(name);
  if (row != nullptr && row->deleted && !has_flag(run.inv, "--include-deleted")) {
    run.reply.findings.push_back(not_found(name, true));
    return;
  }
  if (row == nullptr && !has_trace(*rows, *history, name)) {
    run.reply.findings.push_back(not_found(name, false));
    return;
  }
  const curated::Story story = curated::story(rows->rows, *history, name, *depth);
  // §9: the caller named the seed, not what the walk reached; and only a live seed counts.
  if (row != nullptr && !row->deleted) {
    record_reads(run, curated::ReadKind::deliberate, {row->name});
  }
  run.reply.data = fixed(curated_story_json(run.workspace, story));
  run.reply.text = fixed(story_text(story));
}

}  // namespace memkit::commands_detail
