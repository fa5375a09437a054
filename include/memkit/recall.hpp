// Recall (issue 28): what of each layout's files a search finds. Every layout's files are cut into
// retrievable units (a custodian bullet or entry section, a MemoryBox entry, a three-tier L1 entry,
// L2 note entry, global.md section or CSV manifest entry, a curated row or episode), each with its
// line span, its entry id where the layout names entries, the text to index and the facets a query
// can filter on. Pure: a file's path and bytes in, its units out. Which files a root holds, and the
// index they go into, belong to the shell. Each layout's own parsers read its files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/findings.hpp"
#include "memkit/result.hpp"
#include "memkit/search.hpp"

namespace memkit::recall {

enum class Layout : std::uint8_t { custodian, memorybox, tiers, curated };
// "custodian", "memorybox", "tiers", "curated": the `layout:` filter's words.
[[nodiscard]] std::string_view layout_name(Layout layout) noexcept;

// One file of a layout as the shell found it under the search root.
struct Source {
  Layout layout = Layout::custodian;
  // The layout's own root, relative to the search root ("docs/memory" for a custodian memory
  // folder, "" when the search root is the layout's root), and the file's path relative to it, as
  // the layout's spec names files ("decisions.md", "memory/LONG_TERM.md", "rows/billing/x.md").
  std::string root;
  std::string path;
  // MemoryBox: the file's tier (1 to 5) under the agent's profile, which the shell reads from the
  // agent root's other files; 0 when unknown or for other layouts.
  int tier = 0;
};

// The path a hit shows: root and path joined with '/' ("docs/memory/decisions.md").
[[nodiscard]] std::string display_path(const Source& source);

// One retrievable unit of a file.
struct Unit {
  std::uint32_t first_line = 0;  // 1-based, inclusive: the lines of the file the unit spans
  std::uint32_t last_line = 0;
  std::string id;  // the layout's id of the entry, row or episode; empty where it has none
  // custodian: "bullet", "entry"; memorybox: "bullet", "section", "session", "daily"; tiers:
  // "session", "note", "section", "data"; curated: "row", "episode".
  std::string kind;
  // What is indexed and what snippets are cut from: the unit's bytes as the file has them; for a
  // curated row or episode and a CSV manifest entry, its text fields, one a line.
  std::string text;
  // What a query filters on, beyond "layout" and "file" (which the index adds from the Source):
  // "tier", "category", "confidence" (a decimal, "0.85"), "date" (YYYY-MM-DD: the unit's latest
  // date), "class", "status", "type", "initiative", each only where the layout knows it.
  search::Facets facets;
  friend bool operator==(const Unit&, const Unit&) = default;
};

struct FileUnits {
  std::vector<Unit> units;  // in file order
  // WARNINGs: why the file gave no units (MK-UTF8-001, MK-PARSE-001), or why a line of an episodes
  // floor gave none (MK-PARSE-001, as curated's reader words it).
  std::vector<Finding> findings;
};

// The units of one file of a layout. A file the layout does not read gives none and no finding; a
// file it reads but cannot parse gives none and a warning naming it (MK-UTF8-001, MK-PARSE-001),
// never a failure.
[[nodiscard]] FileUnits read_units(const Source& source, std::string_view bytes);

// ---- context under a budget ---------------------------------------------------------------------

// The custodian's load route (compaction.md §3): the memory-relative paths a session reads, in
// order: the manifest, its "Always load" routes, then the routes of every "Load by task" `###`
// subsection that `task` names (the heading, one of its " / " parts, or one of its words, in any
// case). inbox.md and archive/ are read only when the task's route names them. Fails with
// Errc::invalid_argument, "--task: ..." listing the tasks, when `task` names none.
struct RouteFile {
  std::string path;
  bool required = false;  // "Load:" and "Always load"; false under "Load if present:"
};
[[nodiscard]] Result<std::vector<RouteFile>> custodian_route(std::string_view manifest,
                                                             std::string_view task);

// One thing a context may hold, offered in priority order.
struct ContextPiece {
  std::string source;  // "docs/memory/brief.md", "docs/memory/decisions.md:5-7"
  std::string kind;    // "manifest", "always", "task", "tier 1", "global", "log", "digest", "hit"
  std::string text;
  std::string missing;  // why it could not be offered ("no such file"); then `text` is empty
};
struct ContextItem {
  std::string source;
  std::string kind;
  std::uint64_t tokens = 0;  // of its rendered block, tag lines included
  std::string dropped;       // empty when it is in; else why not
  friend bool operator==(const ContextItem&, const ContextItem&) = default;
};
struct Context {
  std::string block;  // the pieces that fit, each `<memory source=".." kind="..">` ... `</memory>`
  std::uint64_t budget = 0;
  std::uint64_t tokens = 0;  // the sum of the included items' tokens
  std::vector<ContextItem> items;  // every piece offered, in order, in or dropped
  friend bool operator==(const Context&, const Context&) = default;
};
// Takes the pieces in order while they fit the budget (a piece too large is dropped and smaller
// ones after it may still fit), dropping a piece whose source is already in and a hit
// ("file:lines") whose file is in whole. Same pieces, same bytes.
[[nodiscard]] Context compile_context(const std::vector<ContextPiece>& pieces,
                                      std::uint64_t budget);

}  // namespace memkit::recall
