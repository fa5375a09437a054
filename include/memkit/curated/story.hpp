// A row's story (spec curated.md §10 "story"): the lineage walk plus one chronological timeline
// fused from the history of every node and the creation times of the walked links, and each
// node's final state. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/read.hpp"

namespace memkit::curated {

// The `detail` of a link or unlink event: {src, dst, kind}. Not a LineageEdge: an unlink record
// has no creation time, and the detail carries none.
struct StoryLink {
  std::string src;
  std::string dst;
  LinkKind kind = LinkKind::relates_to;
  friend bool operator==(const StoryLink&, const StoryLink&) = default;
};

// One event {ts, kind, node, from, to, detail} of §10's table; `approximate` only on a birth.
struct StoryEvent {
  std::optional<std::string> ts;  // a missing ts sorts last
  std::string kind;  // birth, status, append, edit, reclass, tombstone, restore, description,
                     // retype, link, unlink
  std::string node;
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::optional<std::int64_t> body_delta;  // append and edit: new length - old, in code points
  std::optional<StoryLink> link;           // link and unlink: {src, dst, kind}
  std::optional<bool> approximate;         // birth only
  friend bool operator==(const StoryEvent&, const StoryEvent&) = default;
};

// {name, class, status, type, deleted, deleted_at, present, role}, by name.
struct FinalState {
  std::string name;
  std::optional<RowClass> row_class;  // nullopt when the node has no row
  std::optional<RowStatus> status;
  std::optional<RowType> type;
  bool deleted = false;
  std::optional<std::string> deleted_at;
  bool present = false;  // false: history but no row
  std::string role;
};

struct Story {
  Lineage lineage;
  std::vector<StoryEvent> timeline;
  std::vector<FinalState> final_states;
};

// `rows` are every row of the workspace, soft-deleted ones included; `history` its records in
// file order. REQUIRES: the caller has refused a seed with no row and no lineage trace, and a
// soft-deleted seed without --include-deleted (MK-CUR-011).
[[nodiscard]] Story story(const std::vector<Row>& rows, const std::vector<HistoryRecord>& history,
                          std::string_view seed, std::uint32_t max_depth = 5);

}  // namespace memkit::curated
