// A row's story (spec curated.md §10 "story"): the lineage walk plus one timeline fused from the
// nodes' births, their history and the walked edges, and the final states. The two §14 "Story"
// vectors run through the real writes (plan_add, plan_link, plan_reclassify) and parse_history on
// the history they write; the event table, the ordering ties and the nodes without a row use rows
// and records built by hand.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curated_support.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/curated/story.hpp"
#include "memkit/curated/write.hpp"

using namespace memkit::curated;
using namespace curated_test;

namespace {

using Strings = std::vector<std::string>;

// T(1) < T(2) < ...: one hour apart on the same day.
std::string T(int hour) {
  std::string out = "2026-11-30T00:00:00.000Z";
  out[11] = static_cast<char>('0' + hour / 10);
  out[12] = static_cast<char>('0' + hour % 10);
  return out;
}

// The story of `seed` over what the store holds.
Story story_of(const Store& store, std::string_view seed) {
  return story(store.rows(), store.history(), seed);
}

AddRequest thread(std::string name, std::string status) {
  AddRequest request = add(std::move(name), "project", "body");
  request.row_class = "thread";
  request.status = std::move(status);
  return request;
}

// One event on one line, every field shown, so that an unexpected field fails the comparison:
// "ts kind node[ from -> to][ delta N][ {src dst kind}][ exact|approximate]", a missing ts as "-"
// and a null from or to as "null".
std::string line_of(const StoryEvent& e) {
  std::string out = e.ts.value_or("-") + " " + e.kind + " " + e.node;
  if (e.from || e.to) out += " " + e.from.value_or("null") + " -> " + e.to.value_or("null");
  if (e.body_delta) out += " delta " + std::to_string(*e.body_delta);
  if (e.link) {
    out += " {" + e.link->src + " " + e.link->dst + " " + std::string(name_of(e.link->kind)) + "}";
  }
  if (e.approximate) out += *e.approximate ? " approximate" : " exact";
  return out;
}

Strings timeline_of(const Story& s) {
  Strings out;
  for (const StoryEvent& e : s.timeline) out.push_back(line_of(e));
  return out;
}

// The final states as "name role class status type deleted[@at] present|absent".
Strings finals_of(const Story& s) {
  Strings out;
  for (const FinalState& f : s.final_states) {
    std::string text = f.name + " " + f.role + " ";
    text += f.row_class ? std::string(name_of(*f.row_class)) : "-";
    text += " ";
    text += f.status ? std::string(name_of(*f.status)) : "-";
    text += " ";
    text += f.type ? std::string(name_of(*f.type)) : "-";
    text += f.deleted ? " deleted@" + f.deleted_at.value_or("?") : " live";
    if (!f.deleted && f.deleted_at) text += "?";
    text += f.present ? " present" : " absent";
    out.push_back(text);
  }
  return out;
}

// Hand-built rows and records.
Row row(std::string name, std::optional<std::string> created,
        std::vector<Link> links = std::vector<Link>{}) {
  Row r;
  r.name = std::move(name);
  r.row_class = RowClass::anchor;
  r.created = created;
  r.updated = std::move(created);
  r.body = "b";
  r.links = std::move(links);
  return r;
}

Link link_to(std::string dst, LinkKind kind, std::string created_at) {
  return Link{.kind = kind, .dst = std::move(dst), .created_at = std::move(created_at)};
}

RowState state(std::string body = "b") {
  RowState s;
  s.body = std::move(body);
  return s;
}

HistoryRecord record(std::string ts, std::string name, HistoryOp op, std::optional<RowState> before,
                     std::optional<RowState> after) {
  return HistoryRecord{.ts = std::move(ts),
                       .name = std::move(name),
                       .op = op,
                       .before = std::move(before),
                       .after = std::move(after),
                       .link_kind = std::nullopt,
                       .link_dst = {},
                       .actor = std::nullopt};
}

HistoryRecord link_record(std::string ts, std::string src, HistoryOp op, LinkKind kind,
                          std::string dst) {
  HistoryRecord r = record(std::move(ts), std::move(src), op, std::nullopt, std::nullopt);
  r.link_kind = kind;
  r.link_dst = std::move(dst);
  return r;
}

}  // namespace

// ---- §14 "Story" ------------------------------------------------------------------------------

TEST_CASE("story: the §14 vector, through add, link and reclassify") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(T(1)), thread("project_a", "open")));
  applied(store, plan_add(store.snapshot(), at(T(2)), thread("project_b", "open")));
  applied(store,
          plan_link(store.snapshot(), at(T(3)), "project_b", "project_a", "supersedes", false));
  applied(store, plan_reclassify(store.snapshot(), at(T(4)), "project_a", std::nullopt, "closed"));

  const Story s = story_of(store, "project_a");
  CHECK(s.lineage.seed == "project_a");
  REQUIRE(s.lineage.nodes.size() == 2);
  REQUIRE(s.lineage.edges.size() == 1);
  CHECK(timeline_of(s) == Strings{
                              T(1) + " birth project_a exact",
                              T(1) + " status project_a null -> open",
                              T(2) + " birth project_b exact",
                              T(2) + " status project_b null -> open",
                              T(3) + " link project_b {project_b project_a supersedes}",
                              T(4) + " status project_a open -> closed",
                          });
  CHECK(finals_of(s) == Strings{"project_a queried thread closed project live present",
                                "project_b successor thread open project live present"});
  // The story carries the lineage unchanged.
  const Lineage walk = lineage(store.rows(), "project_a");
  CHECK(s.lineage.edges[0].created_at == walk.edges[0].created_at);
  CHECK(s.lineage.nodes[1].role == walk.nodes[1].role);
}

TEST_CASE("story: the §14 checkpoint vector — births by name, history in file order, links") {
  Store store;
  // A checkpoint at T5 writes, in this order: the record (an anchor), each pending thread
  // (carry_forward) in payload order, then each thread's derived_from link, in payload order.
  AddRequest record_add = add("project_r", "project", "the record");
  record_add.row_class = "anchor";
  applied(store, plan_add(store.snapshot(), at(T(5)), record_add));
  applied(store, plan_add(store.snapshot(), at(T(5)), thread("project_t2", "carry_forward")));
  applied(store, plan_add(store.snapshot(), at(T(5)), thread("project_t1", "carry_forward")));
  applied(store,
          plan_link(store.snapshot(), at(T(5)), "project_t2", "project_r", "derived_from", false));
  applied(store,
          plan_link(store.snapshot(), at(T(5)), "project_t1", "project_r", "derived_from", false));

  const Story s = story_of(store, "project_r");
  CHECK(timeline_of(s) == Strings{
                              T(5) + " birth project_r exact",
                              T(5) + " birth project_t1 exact",
                              T(5) + " birth project_t2 exact",
                              T(5) + " status project_t2 null -> carry_forward",
                              T(5) + " status project_t1 null -> carry_forward",
                              T(5) + " link project_t1 {project_t1 project_r derived_from}",
                              T(5) + " link project_t2 {project_t2 project_r derived_from}",
                          });
  CHECK(finals_of(s) == Strings{"project_r queried anchor - project live present",
                                "project_t1 derivative thread carry_forward project live present",
                                "project_t2 derivative thread carry_forward project live present"});
}

// ---- the event table --------------------------------------------------------------------------

TEST_CASE("story: each history event kind, from the real writes") {
  Store store;
  AddRequest first = add("project_a", "project", "a");
  first.description = "d1";
  applied(store, plan_add(store.snapshot(), at(T(1)), first));
  // Append: "a" -> "a\n\nmore", 6 code points more.
  applied(store, plan_append(store.snapshot(), at(T(2)), "project_a", "more"));
  // Edit: not a prefix extension; 3 code points (5 bytes) against 7: -4, not -2.
  applied(store, plan_edit(store.snapshot(), at(T(3)),
                           EditRequest{.name = "project_a",
                                       .field = "body",
                                       .content = "\xC3\xBCn\xC3\xAF",
                                       .audience = std::nullopt,
                                       .initiative = std::nullopt,
                                       .project_ref = std::nullopt}));
  // One record changing class and status: two events, class first.
  applied(store, plan_reclassify(store.snapshot(), at(T(4)), "project_a", "thread", "open"));
  applied(store, plan_edit(store.snapshot(), at(T(5)),
                           EditRequest{.name = "project_a",
                                       .field = "description",
                                       .content = "d2",
                                       .audience = std::nullopt,
                                       .initiative = std::nullopt,
                                       .project_ref = std::nullopt}));
  // An upsert to another type with the same body: only the type changes.
  AddRequest retype = add("project_a", "user", "\xC3\xBCn\xC3\xAF");
  applied(store, plan_add(store.snapshot(), at(T(6)), retype));
  applied(store, plan_delete(store.snapshot(), at(T(7)), "project_a", false));
  applied(store, plan_restore(store.snapshot(), at(T(8)), "project_a"));
  // An edit that changes only the audience gives a history record but no event.
  applied(store, plan_edit(store.snapshot(), at(T(9)),
                           EditRequest{.name = "project_a",
                                       .field = "description",
                                       .content = "d2",
                                       .audience = "executor",
                                       .initiative = std::nullopt,
                                       .project_ref = std::nullopt}));
  REQUIRE(store.history().size() == 9);

  const Story s = story_of(store, "project_a");
  CHECK(timeline_of(s) == Strings{
                              T(1) + " birth project_a exact",
                              T(2) + " append project_a delta 6",
                              T(3) + " edit project_a delta -4",
                              T(4) + " reclass project_a log -> thread",
                              T(4) + " status project_a null -> open",
                              T(5) + " description project_a d1 -> d2",
                              T(6) + " retype project_a project -> user",
                              T(7) + " tombstone project_a",
                              T(8) + " restore project_a",
                          });
  CHECK(finals_of(s) == Strings{"project_a queried thread open user live present"});
}

TEST_CASE("story: one record's changes in field-name order, and the fields that give none") {
  RowState before = state("old");
  before.row_class = RowClass::thread;
  before.status = RowStatus::open;
  before.description = "x";
  before.type = RowType::project;
  RowState after = state("new");
  after.row_class = RowClass::anchor;
  after.status = std::nullopt;
  after.description = std::nullopt;
  after.type = RowType::feedback;
  after.deleted_at = T(2);
  after.initiative = "demo";
  after.audience = Audience::executor;
  after.project_ref = "/srv/demo";
  RowState quiet = after;  // initiative, audience and project_ref only
  quiet.initiative = "other";
  quiet.audience = Audience::orchestrator;
  quiet.project_ref = std::nullopt;

  const std::vector<Row> rows{row("project_a", T(1))};
  const std::vector<HistoryRecord> history{
      record(T(2), "project_a", HistoryOp::update, before, after),
      record(T(3), "project_a", HistoryOp::edit, after, quiet),
  };
  CHECK(timeline_of(story(rows, history, "project_a")) ==
        Strings{
            T(1) + " birth project_a exact",
            T(2) + " edit project_a delta 0",
            T(2) + " reclass project_a thread -> anchor",
            T(2) + " tombstone project_a",
            T(2) + " description project_a x -> null",
            T(2) + " status project_a open -> null",
            T(2) + " retype project_a project -> feedback",
        });
}

TEST_CASE("story: an insert gives only its status, link and purge records give none") {
  RowState with_status = state();
  with_status.row_class = RowClass::thread;
  with_status.status = RowStatus::open;
  RowState changed = state("b and more");
  const std::vector<Row> rows{row("project_a", T(5))};
  const std::vector<HistoryRecord> history{
      record(T(1), "project_a", HistoryOp::insert, std::nullopt, state()),  // no status: nothing
      record(T(2), "project_a", HistoryOp::insert, std::nullopt, with_status),
      link_record(T(3), "project_a", HistoryOp::link, LinkKind::relates_to, "project_z"),
      record(T(4), "project_a", HistoryOp::purge, std::nullopt, std::nullopt),
      // An insert holding a before is still an insert: no body event.
      record(T(6), "project_a", HistoryOp::insert, state(), changed),
      // A record that lacks before or after gives nothing.
      record(T(7), "project_a", HistoryOp::append, std::nullopt, changed),
  };
  CHECK(timeline_of(story(rows, history, "project_a")) ==
        Strings{T(2) + " status project_a null -> open", T(5) + " birth project_a exact"});
}

TEST_CASE("story: an unlinked edge shows only its unlink, on the src's story") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(T(1)), add("project_a", "project", "a")));
  applied(store, plan_add(store.snapshot(), at(T(1)), add("project_b", "project", "b")));
  applied(store,
          plan_link(store.snapshot(), at(T(2)), "project_a", "project_b", "relates_to", false));
  applied(store,
          plan_link(store.snapshot(), at(T(3)), "project_a", "project_b", "relates_to", true));

  const Story from_a = story_of(store, "project_a");
  CHECK(from_a.lineage.edges.empty());
  CHECK(timeline_of(from_a) ==
        Strings{T(1) + " birth project_a exact",
                T(3) + " unlink project_a {project_a project_b relates_to}"});
  // The records are named by their src: project_b's story has none of them.
  CHECK(timeline_of(story_of(store, "project_b")) == Strings{T(1) + " birth project_b exact"});
}

TEST_CASE("story: a soft-deleted node reached by the walk shows its tombstone") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(T(1)), add("project_a", "project", "a")));
  applied(store, plan_add(store.snapshot(), at(T(2)), add("project_b", "project", "b")));
  applied(store,
          plan_link(store.snapshot(), at(T(3)), "project_b", "project_a", "supersedes", false));
  applied(store, plan_delete(store.snapshot(), at(T(4)), "project_b", false));

  const Story s = story_of(store, "project_a");
  CHECK(timeline_of(s) == Strings{
                              T(1) + " birth project_a exact",
                              T(2) + " birth project_b exact",
                              T(3) + " link project_b {project_b project_a supersedes}",
                              T(4) + " tombstone project_b",
                          });
  CHECK(finals_of(s) == Strings{"project_a queried log - project live present",
                                "project_b successor log - project deleted@" + T(4) + " present"});
  // A soft-deleted seed (the caller has checked --include-deleted) has the same timeline.
  CHECK(timeline_of(story_of(store, "project_b")) == timeline_of(s));
}

// ---- nodes without a row ------------------------------------------------------------------------

TEST_CASE("story: a node with history but no row is born at its earliest record, approximately") {
  RowState open = state();
  open.row_class = RowClass::thread;
  open.status = RowStatus::open;
  RowState closed = open;
  closed.status = RowStatus::closed;
  // project_gone's entry was removed by hand; its history and a link to it remain.
  const std::vector<Row> rows{
      row("project_a", T(1), {link_to("project_gone", LinkKind::relates_to, T(5))})};
  const std::vector<HistoryRecord> history{
      record(T(4), "project_gone", HistoryOp::reclassify, open, closed),  // not the earliest
      record(T(3), "project_gone", HistoryOp::insert, std::nullopt, open),
      record(T(2), "project_other", HistoryOp::insert, std::nullopt, open),  // not a node
  };
  const Story s = story(rows, history, "project_a");
  CHECK(timeline_of(s) == Strings{
                              T(1) + " birth project_a exact",
                              T(3) + " birth project_gone approximate",
                              T(3) + " status project_gone null -> open",
                              T(4) + " status project_gone open -> closed",
                              T(5) + " link project_a {project_a project_gone relates_to}",
                          });
  CHECK(finals_of(s) == Strings{"project_a queried anchor - project live present",
                                "project_gone related - - - live absent"});
}

TEST_CASE("story: a row without Created is born at its earliest history ts, approximately") {
  const std::vector<Row> rows{row("project_a", std::nullopt)};
  const std::vector<HistoryRecord> history{
      record(T(3), "project_a", HistoryOp::append, state("b"), state("b\n\nc")),
      link_record(T(2), "project_a", HistoryOp::unlink, LinkKind::supersedes, "project_x"),
  };
  CHECK(timeline_of(story(rows, history, "project_a")) ==
        Strings{T(2) + " birth project_a approximate",
                T(2) + " unlink project_a {project_a project_x supersedes}",
                T(3) + " append project_a delta 3"});
}

// ---- order --------------------------------------------------------------------------------------

TEST_CASE("story: ties at one ts go births by name, then history in file order, then links") {
  // Rows in an order that is neither name nor walk order.
  const std::vector<Row> rows{
      row("project_c", T(1), {link_to("project_a", LinkKind::relates_to, T(1))}),
      row("project_a", T(1), {link_to("project_b", LinkKind::derived_from, T(1))}),
      row("project_b", T(1)),
  };
  const std::vector<HistoryRecord> history{
      record(T(1), "project_c", HistoryOp::edit, state("x"), state("y")),
      record(T(1), "project_a", HistoryOp::edit, state("x"), state("xy")),
      record(T(0), "project_b", HistoryOp::edit, state("x"), state("z")),
  };
  const Story s = story(rows, history, "project_a");
  // Walk order: project_a's outgoing edge (to project_b), then its incoming one (from project_c).
  CHECK(timeline_of(s) == Strings{
                              T(0) + " edit project_b delta 0",
                              T(1) + " birth project_a exact",
                              T(1) + " birth project_b exact",
                              T(1) + " birth project_c exact",
                              T(1) + " edit project_c delta 0",
                              T(1) + " append project_a delta 1",
                              T(1) + " link project_a {project_a project_b derived_from}",
                              T(1) + " link project_c {project_c project_a relates_to}",
                          });
  CHECK(finals_of(s) == Strings{"project_a queried anchor - project live present",
                                "project_b source anchor - project live present",
                                "project_c related anchor - project live present"});
}

TEST_CASE("story: a missing ts sorts last, births then history then links among them") {
  // project_nobody has neither a row nor history: its birth has no ts. The link to project_a has
  // an empty creation time (a hand edit), as has one history record.
  const std::vector<Row> rows{
      row("project_a", T(9), {link_to("project_nobody", LinkKind::relates_to, T(2))}),
      row("project_b", T(1), {link_to("project_a", LinkKind::relates_to, "")}),
  };
  const std::vector<HistoryRecord> history{
      record("", "project_a", HistoryOp::edit, state("x"), state("y")),
      record(T(8), "project_a", HistoryOp::edit, state("y"), state("z")),
  };
  CHECK(timeline_of(story(rows, history, "project_a")) ==
        Strings{
            T(1) + " birth project_b exact",
            T(2) + " link project_a {project_a project_nobody relates_to}",
            T(8) + " edit project_a delta 0",
            T(9) + " birth project_a exact",
            "- birth project_nobody approximate",
            "- edit project_a delta 0",
            "- link project_b {project_b project_a relates_to}",
        });
}

// ---- the walk
// -------------------------------------------------------------------------------------

TEST_CASE("story: only the walk's nodes give births, history and final states") {
  // project_a - project_b - project_c, with max_depth 1: project_c is out of the walk.
  const std::vector<Row> rows{
      row("project_a", T(1), {link_to("project_b", LinkKind::relates_to, T(2))}),
      row("project_b", T(1), {link_to("project_c", LinkKind::relates_to, T(3))}),
      row("project_c", T(1)),
  };
  const std::vector<HistoryRecord> history{
      record(T(4), "project_c", HistoryOp::edit, state("x"), state("y")),
      record(T(5), "project_b", HistoryOp::edit, state("x"), state("y")),
  };
  const Story s = story(rows, history, "project_a", 1);
  CHECK(timeline_of(s) == Strings{
                              T(1) + " birth project_a exact",
                              T(1) + " birth project_b exact",
                              T(2) + " link project_a {project_a project_b relates_to}",
                              T(5) + " edit project_b delta 0",
                          });
  CHECK(finals_of(s) == Strings{"project_a queried anchor - project live present",
                                "project_b related anchor - project live present"});
  CHECK(story(rows, history, "project_a").final_states.size() == 3);
}
