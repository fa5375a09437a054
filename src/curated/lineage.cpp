// The lineage walk (spec curated.md §10 "lineage"): breadth-first over the links in both
// directions, soft-deleted rows included, with the walk order fixed so that nodes, roles and
// edges are the same on every run. The walk is over names, not rows: a link whose other end has
// no row (a hand edit, or a slug that only history remembers) still reaches that name as a node,
// because story must show nodes that have history but no row. Such a node has no outgoing links
// (they would live on its row) but its incoming ones are walked on.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "memkit/curated/read.hpp"

namespace memkit::curated {
namespace {

// §10's role table: the role of a node first discovered over an edge of `kind`, walked from its
// src (outgoing) or from its dst (incoming).
std::string_view role_of(LinkKind kind, bool outgoing) noexcept {
  switch (kind) {
    case LinkKind::supersedes:
      return outgoing ? "superseded" : "successor";
    case LinkKind::graduated_to:
      return outgoing ? "graduation_target" : "graduated_thread";
    case LinkKind::derived_from:
      return outgoing ? "source" : "derivative";
    case LinkKind::relates_to:
      return "related";
  }
  return {};
}

// Every link of the workspace once, by its src and by its dst. Names are unique per workspace;
// should a hand edit repeat one, the first (src, dst, kind) read wins.
struct Graph {
  std::vector<LineageEdge> edges;
  std::map<std::string, std::vector<std::size_t>, std::less<>> out;  // src -> edge indices
  std::map<std::string, std::vector<std::size_t>, std::less<>> in;   // dst -> edge indices
};

Graph graph_of(const std::vector<Row>& rows) {
  Graph graph;
  std::set<std::tuple<std::string_view, std::string_view, LinkKind>> seen;  // views into rows
  for (const Row& row : rows) {
    for (const Link& link : row.links) {
      if (!seen.emplace(row.name, link.dst, link.kind).second) continue;
      graph.edges.push_back(
          {.src = row.name, .dst = link.dst, .kind = link.kind, .created_at = link.created_at});
    }
  }
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    graph.out[graph.edges[i].src].push_back(i);
    graph.in[graph.edges[i].dst].push_back(i);
  }
  // Each node's edges by (kind's name, other endpoint): the §10 walk order.
  auto sort_by = [&](std::vector<std::size_t>& list, bool outgoing) {
    std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
      const LineageEdge& ea = graph.edges[a];
      const LineageEdge& eb = graph.edges[b];
      const std::string& other_a = outgoing ? ea.dst : ea.src;
      const std::string& other_b = outgoing ? eb.dst : eb.src;
      return std::pair(name_of(ea.kind), std::string_view(other_a)) <
             std::pair(name_of(eb.kind), std::string_view(other_b));
    });
  };
  for (auto& [name, list] : graph.out) sort_by(list, true);
  for (auto& [name, list] : graph.in) sort_by(list, false);
  return graph;
}

}  // namespace

Lineage lineage(const std::vector<Row>& rows, std::string_view seed, std::uint32_t max_depth) {
  const Graph graph = graph_of(rows);
  Lineage out{.seed = std::string(seed), .nodes = {}, .edges = {}};
  out.nodes.push_back({.name = std::string(seed), .depth = 0, .role = "queried"});
  std::set<std::string, std::less<>> visited{std::string(seed)};
  std::vector<bool> traversed(graph.edges.size(), false);
  std::vector<std::string> frontier{std::string(seed)};

  for (std::uint32_t depth = 1; depth <= max_depth && !frontier.empty(); ++depth) {
    std::sort(frontier.begin(), frontier.end());
    std::vector<std::string> next;
    // First every frontier node's outgoing edges, then every frontier node's incoming ones.
    for (const bool outgoing : {true, false}) {
      const auto& index = outgoing ? graph.out : graph.in;
      for (const std::string& name : frontier) {
        const auto it = index.find(name);
        if (it == index.end()) continue;
        for (const std::size_t i : it->second) {
          const LineageEdge& edge = graph.edges[i];
          if (!traversed[i]) {
            traversed[i] = true;
            out.edges.push_back(edge);
          }
          const std::string& other = outgoing ? edge.dst : edge.src;
          if (!visited.insert(other).second) continue;
          out.nodes.push_back(
              {.name = other, .depth = depth, .role = std::string(role_of(edge.kind, outgoing))});
          next.push_back(other);
        }
      }
    }
    frontier = std::move(next);
  }
  std::sort(out.nodes.begin(), out.nodes.end(),
            [](const LineageNode& a, const LineageNode& b) { return a.name < b.name; });
  return out;
}

}  // namespace memkit::curated
