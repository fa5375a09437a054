// The data of the curated reads (curated.md §8, §10): get-relevant in both modes, kernel, show,
// list, search, stats, conflicts, lineage and story. Canonical JSON, keys as the spec names them.
#include "json/curated_json.hpp"
#include "json/curated_parts.hpp"

namespace memkit {
namespace {

using detail::enum_or_null;
using detail::text_or_null;
using detail::utf8;
using nlohmann::json;

std::string word(auto value) { return std::string(curated::name_of(value)); }

// The thread status of a row, null for a non-thread: a status means something only on a thread.
json thread_status(const curated::Row& row) {
  return row.row_class == curated::RowClass::thread ? enum_or_null(row.status) : json(nullptr);
}

// A description as get-relevant and kernel give it: verbatim, "" when there is none.
json description_or_empty(const curated::Row& row) {
  return utf8(row.description ? std::string_view(*row.description) : std::string_view());
}

json edge_json(const curated::LineageEdge& edge) {
  return json{{"src", utf8(edge.src)},
              {"dst", utf8(edge.dst)},
              {"kind", word(edge.kind)},
              {"created_at", utf8(edge.created_at)}};
}

json nodes_json(const curated::Lineage& lineage) {
  json nodes = json::array();
  for (const curated::LineageNode& node : lineage.nodes) {
    nodes.push_back(json{{"name", utf8(node.name)}, {"depth", node.depth}, {"role", node.role}});
  }
  return nodes;
}

json edges_json(const curated::Lineage& lineage) {
  json edges = json::array();
  for (const curated::LineageEdge& edge : lineage.edges) edges.push_back(edge_json(edge));
  return edges;
}

json event_json(const curated::StoryEvent& event) {
  json detail = nullptr;
  if (event.body_delta) detail = json{{"body_delta", *event.body_delta}};
  if (event.link) {
    detail = json{{"src", utf8(event.link->src)},
                  {"dst", utf8(event.link->dst)},
                  {"kind", word(event.link->kind)}};
  }
  json out{{"ts", text_or_null(event.ts)}, {"kind", event.kind},
           {"node", utf8(event.node)},     {"from", text_or_null(event.from)},
           {"to", text_or_null(event.to)}, {"detail", std::move(detail)}};
  if (event.approximate) out["approximate"] = *event.approximate;
  return out;
}

json axis_stats_total(const CuratedStats& stats) {
  return json{{"deliberate", stats.deliberate.total},
              {"injection", stats.injection.total},
              {"kernel", stats.kernel.total}};
}

json top_json(const CuratedAxisStats& axis) {
  json top = json::array();
  for (const CuratedTopRow& row : axis.top) {
    top.push_back(json{{"name", utf8(row.name)},
                       {"count", row.axis.count},
                       {"last_at", text_or_null(row.axis.last_at)}});
  }
  return top;
}

json counts_json(const std::map<std::string, std::uint64_t>& counts) {
  json out = json::object();
  for (const auto& [key, count] : counts) out[key] = count;
  return out;
}

json floor_json(const CuratedFloorSize& floor) {
  return json{{"files", floor.files}, {"bytes", floor.bytes}};
}

}  // namespace

std::string curated_digest_json(std::string_view workspace, const curated::Digest& digest) {
  json items = json::array();
  for (const curated::DigestItem& item : digest.items) {
    items.push_back(json{{"name", utf8(item.row->name)},
                         {"type", word(item.row->type)},
                         {"initiative", utf8(item.initiative)},
                         {"memory_status", thread_status(*item.row)},
                         {"section", "digest"},
                         {"description", utf8(item.description)},
                         {"pending_count", item.pending_count}});
  }
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"items", std::move(items)},
                                     {"block", utf8(digest.block)},
                                     {"overflow_initiatives", digest.overflow_initiatives}});
}

std::string curated_initiative_json(std::string_view workspace, std::string_view key,
                                    const curated::InitiativeRows& rows) {
  json items = json::array();
  for (const curated::Row* row : rows.rows) {
    items.push_back(json{{"name", utf8(row->name)},
                         {"type", word(row->type)},
                         {"initiative", utf8(key)},
                         {"class", word(row->row_class)},
                         {"memory_status", thread_status(*row)},
                         {"section", "initiative"},
                         {"description", description_or_empty(*row)},
                         {"body", utf8(row->body)}});
  }
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"items", std::move(items)},
                                     {"block", utf8(rows.block)},
                                     {"overflow", 0}});
}

std::string curated_kernel_json(std::string_view workspace, const curated::Kernel& kernel) {
  json items = json::array();
  for (const curated::Row* row : kernel.rows) {
    items.push_back(json{{"name", utf8(row->name)},
                         {"type", word(row->type)},
                         {"audience", word(row->audience)},
                         {"description", description_or_empty(*row)}});
  }
  return detail::canonical_dump(json{
      {"workspace", utf8(workspace)}, {"items", std::move(items)}, {"block", utf8(kernel.block)}});
}

std::string curated_show_json(std::string_view workspace, const CuratedShow& show) {
  json data = detail::row_view_json(*show.row, workspace);
  detail::add_counters(data, show.counters);
  if (show.links_out && show.links_in) {
    json out = json::array();
    for (const curated::LineageEdge& edge : *show.links_out) {
      out.push_back(json{{"kind", word(edge.kind)},
                         {"dst", utf8(edge.dst)},
                         {"created_at", utf8(edge.created_at)}});
    }
    json in = json::array();
    for (const curated::LineageEdge& edge : *show.links_in) {
      in.push_back(json{{"kind", word(edge.kind)},
                        {"src", utf8(edge.src)},
                        {"created_at", utf8(edge.created_at)}});
    }
    data["links"] = json{{"out", std::move(out)}, {"in", std::move(in)}};
  }
  if (show.history) {
    json history = json::array();
    for (const curated::HistoryRecord& record : *show.history) {
      history.push_back(detail::history_json(record));
    }
    data["history"] = std::move(history);
  }
  return detail::canonical_dump(data);
}

std::string curated_list_json(std::string_view workspace,
                              const std::vector<CuratedListItem>& items) {
  json list = json::array();
  for (const CuratedListItem& item : items) {
    json view = detail::row_view_json(*item.row, workspace, /*with_body=*/false);
    detail::add_counters(view, item.counters);
    list.push_back(std::move(view));
  }
  return detail::canonical_dump(
      json{{"workspace", utf8(workspace)}, {"items", std::move(list)}, {"count", items.size()}});
}

std::string curated_search_json(std::string_view workspace, std::string_view query,
                                std::string_view scope,
                                const std::vector<curated::SearchHit>& results,
                                const std::vector<curated::EpisodeHit>& episodes) {
  json rows = json::array();
  for (const curated::SearchHit& hit : results) {
    rows.push_back(json{{"name", utf8(hit.row->name)},
                        {"type", word(hit.row->type)},
                        {"class", word(hit.row->row_class)},
                        {"memory_status", thread_status(*hit.row)},
                        {"description", text_or_null(hit.row->description)},
                        {"rank", hit.rank},
                        {"snippet", utf8(hit.snippet)}});
  }
  json found = json::array();
  for (const curated::EpisodeHit& hit : episodes) {
    found.push_back(json{{"episode_id", utf8(hit.episode->episode_id)},
                         {"ts", utf8(hit.episode->ts)},
                         {"title", utf8(hit.episode->title)},
                         {"rank", hit.rank}});
  }
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"query", utf8(query)},
                                     {"scope", utf8(scope)},
                                     {"results", std::move(rows)},
                                     {"episodes", std::move(found)}});
}

std::string curated_stats_json(std::string_view workspace, const CuratedStats& stats) {
  return detail::canonical_dump(json{
      {"workspace", utf8(workspace)},
      {"rows", stats.rows},
      {"deleted", stats.deleted},
      {"by_type", counts_json(stats.by_type)},
      {"by_class", counts_json(stats.by_class)},
      {"by_status", counts_json(stats.by_status)},
      {"live_pending", stats.live_pending},
      {"links", stats.links},
      {"reads", axis_stats_total(stats)},
      {"top", json{{"deliberate", top_json(stats.deliberate)},
                   {"injection", top_json(stats.injection)},
                   {"kernel", top_json(stats.kernel)}}},
      {"floors",
       json{{"events", floor_json(stats.events)}, {"episodes", floor_json(stats.episodes)}}},
  });
}

std::string curated_conflicts_json(std::string_view workspace, std::uint64_t threshold_permille,
                                   const std::vector<CuratedConflict>& pairs) {
  json list = json::array();
  for (const CuratedConflict& pair : pairs) {
    list.push_back(json{{"a", utf8(pair.a)},
                        {"b", utf8(pair.b)},
                        {"similarity_permille", pair.permille},
                        {"shared", pair.shared},
                        {"union", pair.union_size}});
  }
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"threshold_permille", threshold_permille},
                                     {"pairs", std::move(list)}});
}

std::string curated_lineage_json(std::string_view workspace, const curated::Lineage& lineage) {
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"seed", utf8(lineage.seed)},
                                     {"nodes", nodes_json(lineage)},
                                     {"edges", edges_json(lineage)}});
}

std::string curated_story_json(std::string_view workspace, const curated::Story& story) {
  json timeline = json::array();
  for (const curated::StoryEvent& event : story.timeline) timeline.push_back(event_json(event));
  json finals = json::array();
  for (const curated::FinalState& state : story.final_states) {
    finals.push_back(
        json{{"name", utf8(state.name)},
             {"class", enum_or_null(state.row_class)},
             {"status", state.row_class == curated::RowClass::thread ? enum_or_null(state.status)
                                                                     : json(nullptr)},
             {"type", enum_or_null(state.type)},
             {"deleted", state.deleted},
             {"deleted_at", text_or_null(state.deleted_at)},
             {"present", state.present},
             {"role", state.role}});
  }
  return detail::canonical_dump(json{{"workspace", utf8(workspace)},
                                     {"seed", utf8(story.lineage.seed)},
                                     {"nodes", nodes_json(story.lineage)},
                                     {"edges", edges_json(story.lineage)},
                                     {"timeline", std::move(timeline)},
                                     {"final_states", std::move(finals)}});
}

}  // namespace memkit
