// A row's story (spec curated.md §10 "story"): the lineage walk, reused as it is, plus one timeline
// fused from three sources — each node's birth, the events its history records give, and the
// creation of each walked edge — and each node's final state. The timeline is sorted by (ts,
// bucket, sequence) so that events at the same instant keep a fixed order: births by name, then
// history in file order, then links in walk order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/curated/story.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

// The timestamp of an event; an empty one (a hand-edited file) is as missing, and sorts last.
std::optional<std::string> ts_of(const std::string& ts) {
  if (ts.empty()) return std::nullopt;
  return ts;
}


std::optional<std::string> word_of(const std::optional<RowStatus>& status) {
  if (!status) return std::nullopt;
  return std::string(name_of(*status));
}

StoryEvent event(const HistoryRecord& record, std::string kind) {
  return StoryEvent{.ts = ts_of(record.ts),
                    .kind = std::move(kind),
                    .node = record.name,
                    .from = std::nullopt,
                    .to = std::nullopt,
                    .body_delta = std::nullopt,
                    .link = std::nullopt,
                    .approximate = std::nullopt};
}

StoryEvent change(const HistoryRecord& record, std::string kind, std::optional<std::string> from,
                  std::optional<std::string> to) {
  StoryEvent out = event(record, std::move(kind));
  out.from = std::move(from);
  out.to = std::move(to);
  return out;
}

// The events of one history record (§10 "Which records give events"), appended to `out`.
void events_of(const HistoryRecord& record, std::vector<StoryEvent>& out) {
  switch (record.op) {
    case HistoryOp::insert:
      // The birth comes from the row's Created; an insert tells only the status it was born with.
      if (record.after && record.after->status) {
        out.push_back(change(record, "status", std::nullopt, word_of(record.after->status)));
      }
      return;
    case HistoryOp::unlink:
      if (record.link_kind) {
        StoryEvent unlink = event(record, "unlink");
        unlink.link =
            StoryLink{.src = record.name, .dst = record.link_dst, .kind = *record.link_kind};
        out.push_back(std::move(unlink));
      }
      return;
    case HistoryOp::link:   // the edge's creation is the event, taken from the walk
    case HistoryOp::purge:  // no content
      return;
    default:
      break;
  }
  if (!record.before || !record.after) return;
  const RowState& before = *record.before;
  const RowState& after = *record.after;
  // One event per changed field, in field-name order: body, class, deleted, description, status,
  // type. initiative, audience and project_ref give none.
  if (before.body != after.body) {
    const bool grew = after.body.size() > before.body.size() && after.body.starts_with(before.body);
    StoryEvent body = event(record, grew ? "append" : "edit");
    body.body_delta = static_cast<std::int64_t>(count_code_points(after.body)) -
                      static_cast<std::int64_t>(count_code_points(before.body));
    out.push_back(std::move(body));
  }
  if (before.row_class != after.row_class) {
    out.push_back(change(record, "reclass", std::string(name_of(before.row_class)),
                         std::string(name_of(after.row_class))));
  }
  if (before.deleted_at.has_value() != after.deleted_at.has_value()) {
    out.push_back(event(record, after.deleted_at ? "tombstone" : "restore"));
  }
  if (before.description != after.description) {
    out.push_back(change(record, "description", before.description, after.description));
  }
  if (before.status != after.status) {
    out.push_back(change(record, "status", word_of(before.status), word_of(after.status)));
  }
  if (before.type != after.type) {
    out.push_back(change(record, "retype", std::string(name_of(before.type)),
                         std::string(name_of(after.type))));
  }
}

// An event with its sort key.
struct Keyed {
  int bucket = 0;  // 0 births, 1 history events, 2 link events
  std::size_t sequence = 0;
  StoryEvent event;
};

bool before_in_time(const Keyed& a, const Keyed& b) {
  // A missing ts sorts after every present one.
  if (a.event.ts.has_value() != b.event.ts.has_value()) return a.event.ts.has_value();
  if (a.event.ts && *a.event.ts != *b.event.ts) return *a.event.ts < *b.event.ts;
  if (a.bucket != b.bucket) return a.bucket < b.bucket;
  return a.sequence < b.sequence;
}

}  // namespace

Story story(const std::vector<Row>& rows, const std::vector<HistoryRecord>& history,
            std::string_view seed, std::uint32_t max_depth) {
  Story out{.lineage = lineage(rows, seed, max_depth), .timeline = {}, .final_states = {}};
  const Lineage& walk = out.lineage;

  // Names are unique per workspace; should a hand edit repeat one, the first row read wins, as in
  // the walk.
  std::map<std::string_view, const Row*, std::less<>> row_of;
  for (const Row& row : rows) row_of.emplace(row.name, &row);
  std::set<std::string_view, std::less<>> nodes;
  for (const LineageNode& node : walk.nodes) nodes.insert(node.name);

  // Each node's earliest history ts, for a birth without Created. Every record named by the node
  // counts, link and purge records included: they too show the name existed by then.
  std::map<std::string_view, std::string_view, std::less<>> earliest;
  std::vector<Keyed> keyed;
  std::size_t sequence = 0;
  for (const HistoryRecord& record : history) {
    if (!nodes.contains(record.name)) continue;
    if (!record.ts.empty()) {
      const auto [it, inserted] = earliest.emplace(record.name, record.ts);
      if (!inserted && std::string_view(record.ts) < it->second) it->second = record.ts;
    }
    std::vector<StoryEvent> events;
    events_of(record, events);
    for (StoryEvent& e : events) {
      keyed.push_back({.bucket = 1, .sequence = sequence++, .event = std::move(e)});
    }
  }

  // Births, in name order (walk.nodes is sorted by name).
  for (std::size_t i = 0; i < walk.nodes.size(); ++i) {
    const std::string& name = walk.nodes[i].name;
    const auto row = row_of.find(name);
    StoryEvent birth{.ts = std::nullopt,
                     .kind = "birth",
                     .node = name,
                     .from = std::nullopt,
                     .to = std::nullopt,
                     .body_delta = std::nullopt,
                     .link = std::nullopt,
                     .approximate = true};
    if (row != row_of.end() && row->second->created && !row->second->created->empty()) {
      birth.ts = *row->second->created;
      birth.approximate = false;
    } else if (const auto first = earliest.find(name); first != earliest.end()) {
      birth.ts = std::string(first->second);
    }
    keyed.push_back({.bucket = 0, .sequence = i, .event = std::move(birth)});
  }

  // Link events, in edge order.
  for (std::size_t i = 0; i < walk.edges.size(); ++i) {
    const LineageEdge& edge = walk.edges[i];
    keyed.push_back(
        {.bucket = 2,
         .sequence = i,
         .event = StoryEvent{.ts = ts_of(edge.created_at),
                             .kind = "link",
                             .node = edge.src,
                             .from = std::nullopt,
                             .to = std::nullopt,
                             .body_delta = std::nullopt,
                             .link = StoryLink{.src = edge.src, .dst = edge.dst, .kind = edge.kind},
                             .approximate = std::nullopt}});
  }

  std::sort(keyed.begin(), keyed.end(), before_in_time);
  out.timeline.reserve(keyed.size());
  for (Keyed& k : keyed) out.timeline.push_back(std::move(k.event));

  // Final states, by name like the nodes.
  for (const LineageNode& node : walk.nodes) {
    FinalState state{.name = node.name,
                     .row_class = std::nullopt,
                     .status = std::nullopt,
                     .type = std::nullopt,
                     .deleted = false,
                     .deleted_at = std::nullopt,
                     .present = false,
                     .role = node.role};
    if (const auto row = row_of.find(node.name); row != row_of.end()) {
      const Row& r = *row->second;
      state.row_class = r.row_class;
      state.status = r.status;
      state.type = r.type;
      state.deleted = r.deleted.has_value();
      state.deleted_at = r.deleted;
      state.present = true;
    }
    out.final_states.push_back(std::move(state));
  }
  return out;
}

}  // namespace memkit::curated
