// The lineage walk (spec curated.md §10 "lineage"): breadth-first in both directions, the walk
// order (level by level, frontier by name, all outgoing edges before all incoming ones, each
// node's edges by kind name then other end), roles fixed on first discovery, the depth bound,
// cycles, soft-deleted rows and link ends without a row.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "memkit/curated/read.hpp"

using namespace memkit::curated;

namespace {

constexpr const char* kT1 = "2026-11-30T09:00:00.000Z";

// A row with `links`, each (kind, dst) created at kT1 unless said otherwise.
Row row(std::string name, std::vector<std::pair<LinkKind, std::string>> links = {}) {
  Row r;
  r.name = std::move(name);
  r.row_class = RowClass::anchor;
  r.created = kT1;
  r.updated = kT1;
  r.body = "b";
  for (auto& [kind, dst] : links) {
    r.links.push_back({.kind = kind, .dst = std::move(dst), .created_at = kT1});
  }
  return r;
}

// "name@depth:role" per node, in the lineage's order.
std::vector<std::string> nodes_of(const Lineage& l) {
  std::vector<std::string> out;
  for (const LineageNode& n : l.nodes) {
    out.push_back(n.name + "@" + std::to_string(n.depth) + ":" + n.role);
  }
  return out;
}

// "src kind dst" per edge, in the lineage's order.
std::vector<std::string> edges_of(const Lineage& l) {
  std::vector<std::string> out;
  for (const LineageEdge& e : l.edges) {
    out.push_back(e.src + " " + std::string(name_of(e.kind)) + " " + e.dst);
  }
  return out;
}

using Strings = std::vector<std::string>;
constexpr LinkKind kRel = LinkKind::relates_to;
constexpr LinkKind kSup = LinkKind::supersedes;
constexpr LinkKind kDer = LinkKind::derived_from;
constexpr LinkKind kGrad = LinkKind::graduated_to;

}  // namespace

TEST_CASE("lineage: the §14 story graph, from either end") {
  std::vector<Row> rows{row("project_a"), row("project_b", {{kSup, "project_a"}})};
  rows[1].links[0].created_at = "2026-11-30T11:00:00.000Z";
  const Lineage from_a = lineage(rows, "project_a");
  CHECK(from_a.seed == "project_a");
  CHECK(nodes_of(from_a) == Strings{"project_a@0:queried", "project_b@1:successor"});
  REQUIRE(from_a.edges.size() == 1);
  CHECK(from_a.edges[0].src == "project_b");
  CHECK(from_a.edges[0].dst == "project_a");
  CHECK(from_a.edges[0].kind == LinkKind::supersedes);
  CHECK(from_a.edges[0].created_at == "2026-11-30T11:00:00.000Z");
  CHECK(nodes_of(lineage(rows, "project_b")) ==
        Strings{"project_a@1:superseded", "project_b@0:queried"});
}

TEST_CASE("lineage: a checkpoint's threads are derivatives of its record, in edge order") {
  const std::vector<Row> rows{row("project_t2", {{kDer, "project_r"}}),
                              row("project_t1", {{kDer, "project_r"}}), row("project_r")};
  const Lineage l = lineage(rows, "project_r");
  CHECK(nodes_of(l) ==
        Strings{"project_r@0:queried", "project_t1@1:derivative", "project_t2@1:derivative"});
  CHECK(edges_of(l) ==
        Strings{"project_t1 derived_from project_r", "project_t2 derived_from project_r"});
}

TEST_CASE("lineage: every role of the §10 table") {
  const std::vector<Row> rows{
      row("seed", {{kSup, "o_sup"}, {kGrad, "o_grad"}, {kDer, "o_der"}, {kRel, "o_rel"}}),
      row("i_sup", {{kSup, "seed"}}),
      row("i_grad", {{kGrad, "seed"}}),
      row("i_der", {{kDer, "seed"}}),
      row("i_rel", {{kRel, "seed"}}),
      row("o_sup"),
      row("o_grad"),
      row("o_der"),
      row("o_rel")};
  const Lineage l = lineage(rows, "seed");
  CHECK(nodes_of(l) == Strings{"i_der@1:derivative", "i_grad@1:graduated_thread", "i_rel@1:related",
                               "i_sup@1:successor", "o_der@1:source", "o_grad@1:graduation_target",
                               "o_rel@1:related", "o_sup@1:superseded", "seed@0:queried"});
  // Outgoing first, then incoming; each by the kind's name (not the enum's order), then the end.
  CHECK(edges_of(l) == Strings{"seed derived_from o_der", "seed graduated_to o_grad",
                               "seed relates_to o_rel", "seed supersedes o_sup",
                               "i_der derived_from seed", "i_grad graduated_to seed",
                               "i_rel relates_to seed", "i_sup supersedes seed"});
}

TEST_CASE("lineage: a role is fixed when the node is first discovered") {
  SUBCASE("two kinds to one node: the first kind by name wins") {
    // derived_from sorts before supersedes by name (the enum has supersedes first).
    const std::vector<Row> rows{row("seed", {{kSup, "x"}, {kDer, "x"}}), row("x")};
    const Lineage l = lineage(rows, "seed");
    CHECK(nodes_of(l) == Strings{"seed@0:queried", "x@1:source"});
    CHECK(edges_of(l) == Strings{"seed derived_from x", "seed supersedes x"});
  }
  SUBCASE("outgoing before incoming") {
    const std::vector<Row> rows{row("seed", {{kRel, "x"}}), row("x", {{kSup, "seed"}})};
    const Lineage l = lineage(rows, "seed");
    CHECK(nodes_of(l) == Strings{"seed@0:queried", "x@1:related"});
    CHECK(edges_of(l) == Strings{"seed relates_to x", "x supersedes seed"});
  }
}

TEST_CASE("lineage: level by level, each frontier in name order, outgoing edges before incoming") {
  // Depth 1 is discovered as m (derived_from sorts first), then b; the depth-2 frontier is
  // walked as b, m all the same. x is reached from b and from m: b comes first by name.
  const std::vector<Row> rows{row("seed", {{kSup, "b"}, {kDer, "m"}}),
                              row("b", {{kSup, "x"}}),
                              row("m", {{kDer, "x"}, {kRel, "y"}}),
                              row("w", {{kRel, "b"}}),
                              row("x"),
                              row("y")};
  const Lineage l = lineage(rows, "seed");
  CHECK(nodes_of(l) == Strings{"b@1:superseded", "m@1:source", "seed@0:queried", "w@2:related",
                               "x@2:superseded", "y@2:related"});
  // Per node (out, then in) would put "w relates_to b" right after "b supersedes x".
  CHECK(edges_of(l) == Strings{"seed derived_from m", "seed supersedes b", "b supersedes x",
                               "m derived_from x", "m relates_to y", "w relates_to b"});
}

TEST_CASE("lineage: max_depth bounds the hops") {
  const std::vector<Row> rows{row("a", {{kRel, "b"}}), row("b", {{kRel, "c"}}),
                              row("c", {{kRel, "d"}}), row("d")};
  const Lineage two = lineage(rows, "a", 2);
  CHECK(nodes_of(two) == Strings{"a@0:queried", "b@1:related", "c@2:related"});
  CHECK(edges_of(two) == Strings{"a relates_to b", "b relates_to c"});
  const Lineage zero = lineage(rows, "b", 0);
  CHECK(nodes_of(zero) == Strings{"b@0:queried"});
  CHECK(zero.edges.empty());
  CHECK(nodes_of(lineage(rows, "d")) ==
        Strings{"a@3:related", "b@2:related", "c@1:related", "d@0:queried"});
  // The default is 5 hops.
  std::vector<Row> chain;
  for (int i = 0; i < 8; ++i) {
    chain.push_back(row("n" + std::to_string(i), {{kRel, "n" + std::to_string(i + 1)}}));
  }
  const Lineage l = lineage(chain, "n0");
  REQUIRE(l.nodes.size() == 6);
  CHECK(l.nodes.back().name == "n5");
  CHECK(l.nodes.back().depth == 5);
  CHECK(l.edges.size() == 5);
}

TEST_CASE("lineage: cycles end, and each edge is listed once") {
  const std::vector<Row> rows{row("a", {{kRel, "b"}}), row("b", {{kRel, "a"}, {kRel, "c"}}),
                              row("c", {{kSup, "a"}}), row("self", {{kRel, "self"}})};
  const Lineage l = lineage(rows, "a", 50);
  CHECK(nodes_of(l) == Strings{"a@0:queried", "b@1:related", "c@1:successor"});
  CHECK(edges_of(l) ==
        Strings{"a relates_to b", "b relates_to a", "c supersedes a", "b relates_to c"});
  const Lineage s = lineage(rows, "self");
  CHECK(nodes_of(s) == Strings{"self@0:queried"});
  CHECK(edges_of(s) == Strings{"self relates_to self"});
}

TEST_CASE("lineage: soft-deleted rows are walked like live ones") {
  std::vector<Row> rows{row("a"), row("gone", {{kSup, "a"}}), row("old", {{kRel, "gone"}})};
  rows[1].deleted = kT1;
  rows[2].deleted = kT1;
  CHECK(nodes_of(lineage(rows, "a")) ==
        Strings{"a@0:queried", "gone@1:successor", "old@2:related"});
}

TEST_CASE("lineage: a link end without a row is a node, and its incoming links are walked") {
  const std::vector<Row> rows{row("a", {{kGrad, "ghost"}}), row("b", {{kDer, "ghost"}})};
  const Lineage l = lineage(rows, "a");
  CHECK(nodes_of(l) == Strings{"a@0:queried", "b@2:derivative", "ghost@1:graduation_target"});
  CHECK(edges_of(l) == Strings{"a graduated_to ghost", "b derived_from ghost"});
  // A seed that only links remember (story's node with history but no row) walks the same way.
  CHECK(nodes_of(lineage(rows, "ghost")) ==
        Strings{"a@1:graduated_thread", "b@1:derivative", "ghost@0:queried"});
}
