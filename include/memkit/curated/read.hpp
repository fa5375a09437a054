// Reading curated memory (spec curated.md §8, §10): the live pending set, get-relevant's digest and
// initiative modes, the kernel block, full-text search and the lineage walk. Pure: functions over
// the rows of one workspace (soft-deleted ones included; each function says what it sees). They
// name the rows whose rendering counts as a read; recording it is the shell's (§9).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"

namespace memkit::curated {

// The key of the no-initiative bucket (§8): a normalised key never starts with '_'.
inline constexpr std::string_view kNoInitiative = "_none";

// §8 live pending: threads with status open or carry_forward, not soft-deleted, and the dst of no
// `supersedes` link of the workspace; by Updated descending, then name ascending. Never reads a
// counter.
[[nodiscard]] std::vector<const Row*> live_pending(const std::vector<Row>& rows);

// §8 digest mode.
struct DigestItem {
  const Row* row = nullptr;         // the bucket's freshest row, the one rendered
  std::string initiative;           // the bucket key; kNoInitiative for rows without one
  std::string description;          // as in the block: collapsed, cut to 60 code points plus "…"
  std::uint64_t pending_count = 0;  // the bucket's rows
};
struct Digest {
  std::vector<DigestItem> items;  // the shown buckets, in block order
  std::string block;              // "" when there is no live pending row
  std::uint64_t overflow_initiatives = 0;
};
// `max_chars` bounds the whole block, footer included, in code points; the first bucket is always
// shown. `footer` is the configured footer (§11), or none.
[[nodiscard]] Digest digest(const std::vector<Row>& rows, std::uint64_t max_chars = 800,
                            const std::optional<std::string>& footer = std::nullopt);

// §8 initiative mode: every live pending row of `key` (a normalised key, or kNoInitiative), in
// live-pending order, uncapped; block "" when there is none.
struct InitiativeRows {
  std::vector<const Row*> rows;
  std::string block;
};
[[nodiscard]] InitiativeRows initiative_rows(
    const std::vector<Row>& rows, std::string_view key,
    const std::optional<std::string>& footer = std::nullopt);

// §8 kernel: the live rows matching the filter (default type user, audience executor), by Updated
// descending then name; rows dropped from the end while the block is over `max_chars`.
struct KernelFilter {
  std::optional<RowType> type = RowType::user;
  std::optional<Audience> audience = Audience::executor;
};
struct Kernel {
  std::vector<const Row*> rows;  // the rendered ones
  std::string block;
};
[[nodiscard]] Kernel kernel(const std::vector<Row>& rows, const KernelFilter& filter = {},
                            std::optional<std::uint64_t> max_chars = std::nullopt);

// §8 search tokens: each maximal run of ASCII [A-Za-z0-9_], and each other code point that is
// neither in W nor ASCII punctuation, case-folded.
[[nodiscard]] std::vector<std::string> search_tokens(std::string_view text);

struct SearchTerm {
  std::string token;
  bool prefix = false;  // written with a '*' directly after it
};
// The query's terms, in order (a query without a token has none).
[[nodiscard]] std::vector<SearchTerm> parse_query(std::string_view query);

// §8 rank: for each term, the tokens of `texts` it matches (the whole token, or its start for a
// prefix term), summed over the terms; 0 when some term matches no token. Shared by the row search
// (name, description, body) and the episodes scope (title, prompt, tags).
[[nodiscard]] std::uint64_t search_rank(const std::vector<SearchTerm>& terms,
                                        const std::vector<std::string_view>& texts);

struct SearchHit {
  const Row* row = nullptr;
  std::uint64_t rank = 0;  // for each term, the row's tokens it matches, summed
  std::string snippet;     // cut to 120 code points
};
// §8 search over the live rows' name, description and body: every term matches a whole token (or
// a token's start, for a prefix term); by rank descending, Updated descending, then name; at most
// `limit`.
[[nodiscard]] std::vector<SearchHit> search(const std::vector<Row>& rows, std::string_view query,
                                            std::uint64_t limit = 10);

// §10 lineage: a breadth-first walk over the links in both directions, soft-deleted rows included.
struct LineageNode {
  std::string name;
  std::uint32_t depth = 0;
  std::string role;  // "queried" for the seed; "superseded", "successor", ... (§10 table)
};
struct LineageEdge {
  std::string src;
  std::string dst;
  LinkKind kind = LinkKind::relates_to;
  std::string created_at;
};
struct Lineage {
  std::string seed;
  std::vector<LineageNode> nodes;  // sorted by name
  std::vector<LineageEdge> edges;  // each traversed edge once, in the order first traversed
};
// REQUIRES: `seed` names a row of `rows` (the caller refuses a missing or, without
// --include-deleted, soft-deleted seed with MK-CUR-011).
[[nodiscard]] Lineage lineage(const std::vector<Row>& rows, std::string_view seed,
                              std::uint32_t max_depth = 5);

}  // namespace memkit::curated
