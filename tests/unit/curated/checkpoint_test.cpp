// The checkpoint of curated memory (spec curated.md §10): the payload's shape (MK-CUR-020
// BLOCKER, no operation), the validation of every operation in payload order (one MK-CUR-020
// ERROR naming the failing operation, nothing written), then one transaction that upserts the
// record as an anchor and each pending item as a carry_forward thread linked derived_from the
// record; idempotent on a re-run. With the §14 "Checkpoint names" vector.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curated/write_plan.hpp"
#include "curated_support.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/curated/write.hpp"

using memkit::Finding;
using memkit::OperationKind;
using memkit::Severity;
using namespace memkit::curated;
using namespace curated_test;

namespace {

// Applies a write that must apply cleanly (curated_test::applied); a checkpoint, like every write
// these tests seed the store with, only creates and replaces files.
void commit(Store& store, const Write& write) {
  for (const memkit::PlanOperation& op : write.operations) {
    REQUIRE(op.kind != OperationKind::remove);
  }
  applied(store, write);
}

Checkpoint checkpoint(const Store& store, std::string_view payload, const char* now = kT1,
                      std::optional<std::string> initiative = std::nullopt,
                      std::optional<std::string> project_ref = std::nullopt) {
  return plan_checkpoint(store.snapshot(), at(now), payload, initiative, project_ref);
}

// The §14 Story payload: record project_r, pending project_t2 then project_t1.
constexpr std::string_view kPayload =
    R"({"record": {"name": "project_r", "type": "project", "description": "session r",
                   "body": "what happened"},
        "pending": [{"name": "project_t2", "body": "second", "description": "do two"},
                    {"name": "project_t1", "body": "first"}]})";

struct Expected {
  std::string op;
  std::string name;
  std::string result;
};
void check_operations(const Checkpoint& cp, const std::vector<Expected>& expected) {
  REQUIRE(cp.operations.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("operation " << i);
    CHECK(cp.operations[i].op == expected[i].op);
    CHECK(cp.operations[i].name == expected[i].name);
    CHECK(cp.operations[i].result == expected[i].result);
  }
}

// A shape error: one MK-CUR-020 BLOCKER, fatal, no operation, nothing written.
void check_shape_error(const Checkpoint& cp) {
  CHECK(cp.rejected);
  CHECK(cp.operations.empty());
  REQUIRE(cp.write.findings.size() == 1);
  CHECK(cp.write.findings[0].code == "MK-CUR-020");
  CHECK(cp.write.findings[0].severity == Severity::blocker);
  CHECK(cp.write.findings[0].fatal);
  CHECK(cp.write.findings[0].message.starts_with("--file: checkpoint payload: "));
  CHECK(cp.write.refused());
  CHECK(cp.write.operations.empty());
  CHECK_FALSE(cp.write.changed);
}

// A validation failure: operation `index` failed with `code`, every other one not attempted, one
// MK-CUR-020 ERROR naming it, nothing written.
void check_failed(const Checkpoint& cp, std::size_t index, std::string_view code) {
  CHECK(cp.rejected);
  REQUIRE(index < cp.operations.size());
  for (std::size_t i = 0; i < cp.operations.size(); ++i) {
    INFO("operation " << i);
    const CheckpointOperation& op = cp.operations[i];
    CHECK(op.result == (i == index ? "failed" : "not_attempted"));
    CHECK(op.error == (i == index ? std::optional<std::string>(code) : std::nullopt));
    CHECK_FALSE(op.action);
    CHECK_FALSE(op.row_class);
    CHECK_FALSE(op.memory_status);
  }
  REQUIRE(cp.write.findings.size() == 1);
  const Finding& f = cp.write.findings[0];
  CHECK(f.code == "MK-CUR-020");
  CHECK(f.severity == Severity::error);
  CHECK_FALSE(f.fatal);
  CHECK(f.message.find("operation " + std::to_string(index) + " ") != std::string::npos);
  CHECK(f.message.find(code) != std::string::npos);
  CHECK(cp.write.operations.empty());
  CHECK(cp.write.files().empty());
  CHECK_FALSE(cp.write.changed);
}

}  // namespace

// ---- the transaction ----------------------------------------------------------------------------

TEST_CASE(
    "curated checkpoint: the record as an anchor, threads carry_forward, derived_from links") {
  Store store;
  const Checkpoint cp = checkpoint(store, kPayload);
  CHECK_FALSE(cp.rejected);
  CHECK(cp.write.findings.empty());
  CHECK(cp.write.changed);
  check_operations(cp, {{"upsert", "project_r", "applied"},
                        {"upsert", "project_t2", "applied"},
                        {"upsert", "project_t1", "applied"},
                        {"link", "project_t2", "applied"},
                        {"link", "project_t1", "applied"}});
  const CheckpointOperation& record = cp.operations[0];
  CHECK(record.action == "inserted");
  CHECK(record.row_class == RowClass::anchor);
  CHECK_FALSE(record.memory_status);
  CHECK_FALSE(record.dst);
  for (std::size_t i : {std::size_t{1}, std::size_t{2}}) {
    CHECK(cp.operations[i].action == "inserted");
    CHECK(cp.operations[i].row_class == RowClass::thread);
    CHECK(cp.operations[i].memory_status == RowStatus::carry_forward);
  }
  for (std::size_t i : {std::size_t{3}, std::size_t{4}}) {
    CHECK(cp.operations[i].dst == "project_r");
    CHECK_FALSE(cp.operations[i].action);
    CHECK_FALSE(cp.operations[i].row_class);
  }
  for (const CheckpointOperation& op : cp.operations) CHECK_FALSE(op.error);

  // One operation per file, row files then history.jsonl, each made from the files as read.
  REQUIRE(cp.write.operations.size() == 2);
  CHECK(cp.write.operations[0].path == kProject);
  CHECK(cp.write.operations[0].kind == OperationKind::create);
  CHECK(cp.write.operations[1].path == kHistory);
  CHECK(cp.write.files() == std::vector<std::string>{kHistory, kProject});

  const std::string t1 =
      "## project_t1\nType: project\nClass: thread\nStatus: carry_forward\nAudience: any\n"
      "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n"
      "Link: derived_from project_r 2026-11-30T09:00:00.000Z\n\nfirst\n";
  const std::string t2 =
      "## project_t2\nType: project\nClass: thread\nStatus: carry_forward\nAudience: any\n"
      "Description: do two\nCreated: 2026-11-30T09:00:00.000Z\n"
      "Updated: 2026-11-30T09:00:00.000Z\n"
      "Link: derived_from project_r 2026-11-30T09:00:00.000Z\n\nsecond\n";
  const std::string r =
      "## project_r\nType: project\nClass: anchor\nAudience: any\nDescription: session r\n"
      "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\nwhat happened\n";
  CHECK(cp.write.entries == std::map<std::string, std::string>{
                                {"project_r", r}, {"project_t1", t1}, {"project_t2", t2}});
  REQUIRE(cp.write.row);
  CHECK(cp.write.row->name == "project_r");

  commit(store, cp.write);
  CHECK(store.at(kProject) == "# Curated memory: project\n\n" + r + "\n" + t1 + "\n" + t2);
  // History in transaction order: the anchor, the threads, then the links, in payload order.
  const std::vector<HistoryRecord> history = store.history();
  REQUIRE(history.size() == 5);
  const std::vector<std::pair<std::string, HistoryOp>> expected = {
      {"project_r", HistoryOp::insert},
      {"project_t2", HistoryOp::insert},
      {"project_t1", HistoryOp::insert},
      {"project_t2", HistoryOp::link},
      {"project_t1", HistoryOp::link}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("history line " << i);
    CHECK(history[i].name == expected[i].first);
    CHECK(history[i].op == expected[i].second);
    CHECK(history[i].ts == kT1);
  }
  CHECK(history[1].after->status == RowStatus::carry_forward);
  CHECK(history[3].link_kind == LinkKind::derived_from);
  CHECK(history[3].link_dst == "project_r");
}

TEST_CASE("curated checkpoint: the same bytes as add then link run one by one") {
  Store store;
  AddRequest seed;
  seed.name = "project_m";
  seed.type = "project";
  seed.body = "already here";
  commit(store, plan_add(store.snapshot(), at(kT1), seed));
  Store by_hand = store;

  const Checkpoint cp = checkpoint(store, kPayload, kT2);
  REQUIRE_FALSE(cp.rejected);
  // The history grows by an append at its end.
  REQUIRE(cp.write.operations.size() == 2);
  CHECK(cp.write.operations[1].kind == OperationKind::append);
  CHECK(cp.write.operations[1].base_size() == store.at(kHistory).size());
  CHECK(cp.write.operations[1].output.render().starts_with(store.at(kHistory)));
  commit(store, cp.write);

  const auto upsert = [&](std::string name, std::string body,
                          std::optional<std::string> description, bool thread) {
    AddRequest add;
    add.name = std::move(name);
    add.type = "project";
    add.body = std::move(body);
    add.description = std::move(description);
    add.row_class = thread ? "thread" : "anchor";
    if (thread) add.status = "carry_forward";
    commit(by_hand, plan_add(by_hand.snapshot(), at(kT2), add));
  };
  upsert("project_r", "what happened", "session r", false);
  upsert("project_t2", "second", "do two", true);
  upsert("project_t1", "first", std::nullopt, true);
  for (const char* thread : {"project_t2", "project_t1"}) {
    commit(by_hand,
           plan_link(by_hand.snapshot(), at(kT2), thread, "project_r", "derived_from", false));
  }
  CHECK(store.files == by_hand.files);
}

TEST_CASE("curated checkpoint: a re-run is unchanged upserts and no-op links") {
  Store store;
  commit(store, checkpoint(store, kPayload).write);
  const std::map<std::string, std::string> before = store.files;

  const Checkpoint again = checkpoint(store, kPayload, kT2);
  CHECK_FALSE(again.rejected);
  CHECK(again.write.findings.empty());
  check_operations(again, {{"upsert", "project_r", "unchanged"},
                           {"upsert", "project_t2", "unchanged"},
                           {"upsert", "project_t1", "unchanged"},
                           {"link", "project_t2", "unchanged"},
                           {"link", "project_t1", "unchanged"}});
  CHECK_FALSE(again.operations[0].action);
  CHECK(again.operations[0].row_class == RowClass::anchor);  // the upsert ran
  CHECK(again.operations[1].memory_status == RowStatus::carry_forward);
  CHECK_FALSE(again.write.changed);
  CHECK(again.write.operations.empty());
  CHECK(again.write.files().empty());
  CHECK(again.write.entries.size() == 3);  // the rows as they stand, for a dry run
  CHECK(again.write.entries.at("project_r").find("Updated: 2026-11-30T09:00:00.000Z") !=
        std::string::npos);
  CHECK(store.files == before);
}

TEST_CASE("curated checkpoint: a later session updates what changed, and only that") {
  Store store;
  commit(store, checkpoint(store, kPayload).write);
  const std::string next =
      R"({"record": {"name": "project_r", "type": "project", "description": "session r",
                     "body": "what happened"},
          "pending": [{"name": "project_t2", "body": "second, revised"},
                      {"name": "project_t3", "body": "third"}]})";
  const Checkpoint cp = checkpoint(store, next, kT2);
  REQUIRE_FALSE(cp.rejected);
  check_operations(cp, {{"upsert", "project_r", "unchanged"},
                        {"upsert", "project_t2", "applied"},
                        {"upsert", "project_t3", "applied"},
                        {"link", "project_t2", "unchanged"},
                        {"link", "project_t3", "applied"}});
  CHECK(cp.operations[1].action == "updated");
  CHECK(cp.operations[2].action == "inserted");
  commit(store, cp.write);
  const Row t2 = store.row("project_t2");
  CHECK(t2.body == "second, revised");
  CHECK(t2.description == "do two");  // omitted: kept, as under add
  CHECK(t2.updated == kT2);
  REQUIRE(t2.links.size() == 1);
  CHECK(t2.links[0].created_at == kT1);  // the existing link, kept
  CHECK(store.row("project_r").updated == kT1);
  CHECK(store.row("project_t1").status == RowStatus::carry_forward);  // not in this payload
  const std::vector<HistoryRecord> history = store.history();
  REQUIRE(history.size() == 5 + 3);
  CHECK(history[5].name == "project_t2");
  CHECK(history[5].op == HistoryOp::update);
  CHECK(history[6].name == "project_t3");
  CHECK(history[6].op == HistoryOp::insert);
  CHECK(history[7].name == "project_t3");
  CHECK(history[7].op == HistoryOp::link);
}

TEST_CASE("curated checkpoint: existing rows become the anchor and threads, deleted ones return") {
  Store store;
  AddRequest log;
  log.name = "project_r";
  log.type = "project";
  log.body = "what happened";
  log.description = "session r";
  commit(store, plan_add(store.snapshot(), at(kT1), log));  // a log
  AddRequest closed = log;
  closed.name = "project_t1";
  closed.body = "first";
  closed.description.reset();
  closed.row_class = "thread";
  closed.status = "closed";
  commit(store, plan_add(store.snapshot(), at(kT1), closed));
  commit(store, plan_delete(store.snapshot(), at(kT1), "project_t1", false));

  const Checkpoint cp = checkpoint(store, kPayload, kT2);
  REQUIRE_FALSE(cp.rejected);
  CHECK(cp.operations[0].result == "applied");
  CHECK(cp.operations[0].action == "updated");
  CHECK(cp.operations[2].action == "updated");
  CHECK(cp.operations[4].result == "applied");
  commit(store, cp.write);
  CHECK(store.row("project_r").row_class == RowClass::anchor);
  const Row t1 = store.row("project_t1");
  CHECK_FALSE(t1.deleted);
  CHECK(t1.status == RowStatus::carry_forward);
  REQUIRE(t1.links.size() == 1);
  CHECK(t1.links[0].dst == "project_r");
}

TEST_CASE("curated checkpoint: pending rows take the record's type, file and slug rules") {
  Store store;
  const Checkpoint cp = checkpoint(store,
                                   R"({"record": {"name": "atom_r", "type": "atom", "body": "r"},
          "pending": [{"name": "atom_t", "body": "t"}]})");
  REQUIRE_FALSE(cp.rejected);
  REQUIRE(cp.write.operations.size() == 2);
  CHECK(cp.write.operations[0].path == kAtom);
  commit(store, cp.write);
  CHECK(store.row("atom_t").type == RowType::atom);
  CHECK(store.at(kProject).empty());
}

TEST_CASE("curated checkpoint: without pending items the record is written alone") {
  for (const char* payload : {R"({"record": {"name": "project_r", "type": "project",
                                             "body": "r"}})",
                              R"({"record": {"name": "project_r", "type": "project",
                                             "body": "r"}, "pending": []})"}) {
    Store store;
    const Checkpoint cp = checkpoint(store, payload);
    REQUIRE_FALSE(cp.rejected);
    check_operations(cp, {{"upsert", "project_r", "applied"}});
    commit(store, cp.write);
    CHECK(store.history().size() == 1);
  }
}

TEST_CASE("curated checkpoint: --initiative and --project-ref apply to every row") {
  SUBCASE("--initiative, normalised") {
    Store store;
    commit(store,
           checkpoint(store, kPayload, kT1, "Diagram Builder", "/srv/repos/gaia/.git").write);
    for (const char* name : {"project_r", "project_t1", "project_t2"}) {
      CHECK(store.row(name).initiative == "diagram_builder");
      CHECK(store.row(name).project_ref == "/srv/repos/gaia/.git");
    }
  }
  SUBCASE("derived from --project-ref, on rows that already exist too") {
    Store store;
    commit(store, checkpoint(store, kPayload).write);
    commit(store, checkpoint(store, kPayload, kT2, std::nullopt, "/srv/repos/gaia/.git").write);
    for (const char* name : {"project_r", "project_t1", "project_t2"}) {
      CHECK(store.row(name).initiative == "gaia");
      CHECK(store.row(name).updated == kT2);
    }
  }
  SUBCASE("an --initiative that normalises to nothing: MK-ARG-001, no operation") {
    Store store;
    const Checkpoint cp = checkpoint(store, kPayload, kT1, "--");
    CHECK(cp.rejected);
    CHECK(cp.operations.empty());
    REQUIRE(cp.write.findings.size() == 1);
    CHECK(cp.write.findings[0].code == "MK-ARG-001");
    CHECK(cp.write.operations.empty());
  }
  SUBCASE("a --project-ref of two lines: MK-ARG-001, no operation") {
    Store store;
    const Checkpoint cp = checkpoint(store, kPayload, kT1, std::nullopt, "a\nb");
    CHECK(cp.rejected);
    CHECK(cp.operations.empty());
    REQUIRE(cp.write.findings.size() == 1);
    CHECK(cp.write.findings[0].code == "MK-ARG-001");
  }
}

// ---- shape --------------------------------------------------------------------------------------

TEST_CASE("curated checkpoint: the reference's Spanish keys are accepted") {
  Store english;
  Store spanish;
  commit(english, checkpoint(english, kPayload).write);
  const Checkpoint cp =
      checkpoint(spanish,
                 R"({"resumen": {"name": "project_r", "type": "project", "description": "session r",
                      "body": "what happened"},
          "pendientes": [{"name": "project_t2", "body": "second", "description": "do two"},
                         {"name": "project_t1", "body": "first"}]})");
  REQUIRE_FALSE(cp.rejected);
  CHECK(cp.operations.size() == 5);
  commit(spanish, cp.write);
  CHECK(spanish.files == english.files);
  CHECK_FALSE(checkpoint(spanish, R"({"resumen": {"name": "project_r", "type": "project",
                                                  "body": "r"}})")
                  .rejected);
}

TEST_CASE("curated checkpoint: a shape error is MK-CUR-020 BLOCKER before any operation") {
  const Store store;
  const std::string item = R"({"name": "project_t", "body": "t"})";
  const std::string record = R"({"name": "project_r", "type": "project", "body": "r"})";
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"invalid JSON", R"({"record": )"},
      {"trailing bytes", R"({"record": )" + record + "} x"},
      {"not UTF-8",
       "{\"record\": {\"name\": \"project_r\", \"type\": \"project\", \"body\": "
       "\"\xff\"}}"},
      {"not an object", "[" + record + "]"},
      {"no record", R"({"pending": [])" + item + "]}"},
      {"record not an object", R"({"record": "project_r"})"},
      {"pending not an array", R"({"record": )" + record + R"(, "pending": )" + item + "}"},
      {"a pending item not an object", R"({"record": )" + record + R"(, "pending": ["t"]})"},
      {"an unknown top-level key", R"({"record": )" + record + R"(, "extra": "x"})"},
      {"an unknown key in the record", R"({"record": {"name": "project_r", "type": "project",
                                          "body": "r", "class": "thread"}})"},
      {"a type in a pending item", R"({"record": )" + record +
                                       R"(, "pending": [{"name": "project_t", "type": "project",
                                                        "body": "t"}]})"},
      {"a number", R"({"record": {"name": "project_r", "type": "project", "body": 7}})"},
      {"a float", R"({"record": {"name": "project_r", "type": "project", "body": "r",
                                 "description": 1.5}})"},
      {"null", R"({"record": {"name": "project_r", "type": "project", "body": "r",
                              "description": null}})"},
      {"a boolean", R"({"record": )" + record + R"(, "pending": [{"name": true, "body": "t"}]})"},
      {"no name", R"({"record": {"type": "project", "body": "r"}})"},
      {"no type", R"({"record": {"name": "project_r", "body": "r"}})"},
      {"no body", R"({"record": )" + record + R"(, "pending": [{"name": "project_t"}]})"},
      {"a key twice", R"({"record": {"name": "project_r", "type": "project", "body": "r",
                                     "body": "s"}})"},
      {"record and resumen", R"({"record": )" + record + R"(, "resumen": )" + record + "}"},
      {"record and pendientes", R"({"record": )" + record + R"(, "pendientes": [])" + item + "]}"},
      {"resumen and pending", R"({"resumen": )" + record + R"(, "pending": [])" + item + "]}"},
  };
  for (const auto& [what_, payload] : cases) {
    const auto& what = what_;  // clang 14 cannot capture a structured binding
    INFO(what);
    check_shape_error(checkpoint(store, payload));
  }
}

// ---- validation ---------------------------------------------------------------------------------

TEST_CASE("curated checkpoint: §14 Checkpoint names, a name twice in one payload") {
  Store store;
  const Checkpoint cp =
      checkpoint(store,
                 R"({"record": {"name": "project_r", "type": "project", "body": "r"},
          "pending": [{"name": "project_t", "body": "one"}, {"name": "project_t", "body": "two"}]})");
  check_operations(cp, {{"upsert", "project_r", "not_attempted"},
                        {"upsert", "project_t", "not_attempted"},
                        {"upsert", "project_t", "failed"},
                        {"link", "project_t", "not_attempted"},
                        {"link", "project_t", "not_attempted"}});
  check_failed(cp, 2, "MK-CUR-021");
  CHECK(cp.write.findings[0].message.starts_with(
      "checkpoint rejected: operation 2 (upsert project_t) failed with MK-CUR-021"));
}

TEST_CASE("curated checkpoint: each operation is validated in payload order, the first failure") {
  const Store store;
  const auto payload = [](std::string record, std::string pending) {
    return R"({"record": )" + record + R"(, "pending": [)" + pending + "]}";
  };
  const std::string record = R"({"name": "project_r", "type": "project", "body": "r"})";
  const std::string ok = R"({"name": "project_t", "body": "t"})";
  SUBCASE("the record's type") {
    check_failed(
        checkpoint(store, payload(R"({"name": "project_r", "type": "Project", "body": "r"})", ok)),
        0, "MK-ARG-001");
  }
  SUBCASE("a slug under the record's type") {
    check_failed(checkpoint(store, payload(record, R"({"name": "atom_t", "body": "t"})")), 1,
                 "MK-CUR-003");
    check_failed(
        checkpoint(store, payload(R"({"name": "project_r", "type": "atom", "body": "r"})", ok)), 0,
        "MK-CUR-003");
    check_failed(checkpoint(store, payload(record, ok + R"(, {"name": "Project_U", "body": "u"})")),
                 2, "MK-CUR-003");
  }
  SUBCASE("the record's name used again by a pending item") {
    check_failed(checkpoint(store, payload(record, ok + R"(, {"name": "project_r", "body": "r"})")),
                 2, "MK-CUR-021");
  }
  SUBCASE("the body rules") {
    check_failed(checkpoint(store, payload(record, ok + R"(, {"name": "project_u", "body": " "})")),
                 2, "MK-CUR-005");
    check_failed(checkpoint(store, payload(record, R"({"name": "project_u",
                                                       "body": "x\n## project_v\nType: user"})")),
                 1, "MK-CUR-005");
  }
  SUBCASE("a description of two lines") {
    check_failed(checkpoint(store, payload(R"({"name": "project_r", "type": "project",
                                               "body": "r", "description": "a\nb"})",
                                           ok)),
                 0, "MK-CUR-006");
  }
  SUBCASE("the first failing operation wins, and within it the spec's order") {
    // Operation 1's body is empty and operation 2's slug is wrong: operation 1 fails.
    check_failed(checkpoint(store, payload(record, R"({"name": "project_t", "body": ""},
                                                      {"name": "atom_u", "body": "u"})")),
                 1, "MK-CUR-005");
    // A bad slug and an empty body on one operation: the slug is checked first.
    check_failed(checkpoint(store, payload(record, R"({"name": "atom_u", "body": ""})")), 1,
                 "MK-CUR-003");
  }
}

TEST_CASE(
    "curated checkpoint: a row file that cannot be written rejects the whole, nothing written") {
  Store store;
  // project_z's entry is invalid (no body): a write to project.md is refused with a BLOCKER.
  store.files[kProject] =
      "# Curated memory: project\n\n## project_a\nType: project\n\na\n\n## project_z\n"
      "Type: project\n";
  const Checkpoint cp = checkpoint(store, kPayload);
  CHECK(cp.rejected);
  REQUIRE(cp.operations.size() == 5);
  CHECK(cp.operations[0].result == "failed");
  CHECK(cp.operations[0].error == "MK-CUR-004");
  for (std::size_t i = 1; i < 5; ++i) CHECK(cp.operations[i].result == "not_attempted");
  REQUIRE(cp.write.findings.size() >= 2);
  CHECK(cp.write.findings[0].code == "MK-CUR-020");
  CHECK(cp.write.findings[0].severity == Severity::error);
  CHECK(std::any_of(cp.write.findings.begin(), cp.write.findings.end(), [](const Finding& f) {
    return f.code == "MK-CUR-004" && f.severity == Severity::blocker;
  }));
  CHECK(cp.write.operations.empty());
  CHECK_FALSE(cp.write.changed);
}

namespace {

// Both ways of planning the pending threads (write_plan.hpp) on one store and payload.
// `at_once`: whether the threads must have been planned at once (every one a new row).
void check_same_both_ways(const Store& store, const std::string& payload, bool at_once,
                          std::optional<std::string> initiative = std::nullopt) {
  using memkit::curated::write_detail::plan_checkpoint_stepping;
  using memkit::curated::write_detail::Stepping;
  const Checkpoint steps = plan_checkpoint_stepping(store.snapshot(), at(kT2), payload, initiative,
                                                    std::nullopt, Stepping::each_step);
  bool batched = false;
  const Checkpoint batch =
      plan_checkpoint_stepping(store.snapshot(), at(kT2), payload, initiative, std::nullopt,
                               Stepping::batch_when_new, &batched);
  CAPTURE(payload);
  CHECK(batched == at_once);
  CHECK(batch.rejected == steps.rejected);
  REQUIRE(batch.operations.size() == steps.operations.size());
  for (std::size_t i = 0; i < steps.operations.size(); ++i) {
    INFO("operation " << i);
    CHECK(batch.operations[i].op == steps.operations[i].op);
    CHECK(batch.operations[i].name == steps.operations[i].name);
    CHECK(batch.operations[i].result == steps.operations[i].result);
    CHECK(batch.operations[i].action == steps.operations[i].action);
    CHECK(batch.operations[i].row_class == steps.operations[i].row_class);
    CHECK(batch.operations[i].memory_status == steps.operations[i].memory_status);
    CHECK(batch.operations[i].error == steps.operations[i].error);
  }
  CHECK(batch.write.findings == steps.write.findings);
  CHECK(batch.write.changed == steps.write.changed);
  CHECK(batch.write.entries == steps.write.entries);
  CHECK(batch.write.row == steps.write.row);
  REQUIRE(batch.write.operations.size() == steps.write.operations.size());
  for (std::size_t i = 0; i < steps.write.operations.size(); ++i) {
    CHECK(batch.write.operations[i].path == steps.write.operations[i].path);
    CHECK(batch.write.operations[i].kind == steps.write.operations[i].kind);
    CHECK(batch.write.operations[i].output.render() == steps.write.operations[i].output.render());
  }
}

std::string payload_of(const std::string& record, const std::vector<std::string>& pending) {
  std::string out = R"({"record": {"name": ")" + record +
                    R"(", "type": "project", "body": "the session"}, "pending": [)";
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (i != 0) out += ", ";
    out += R"({"name": ")" + pending[i] + R"(", "body": "thread )" + std::to_string(i) +
           R"(\nsecond line", "description": "d)" + std::to_string(i) + R"("})";
  }
  return out + "]}";
}

}  // namespace

TEST_CASE("curated checkpoint: new threads planned at once are the threads planned step by step") {
  // Files sorted, unsorted, with CRLF, without a blank line between entries, with trailing blank
  // lines and an unterminated last line; pending names before, between and after the entries,
  // several in one place, in any order.
  const std::vector<std::string> files = {
      "",
      "# Curated memory: project\n\n## project_f\nType: project\n\nf\n\n## project_p\nType: "
      "project\n\np\n",
      "# Curated memory: project\n\n## project_p\nType: project\n\np\n\n## project_c\nType: "
      "project\n\nc\n\n## project_x\nType: project\n\nx\n\n\n",
      "# Curated memory: project\r\n\r\n## project_f\r\nType: project\r\n\r\nf\r\n",
      "## project_f\nType: project\n\nf\n## project_p\nType: project\n\np",
      "# Curated memory: project\n\n## project_zz\nType: project\n\nzz\n<!-- a note -->\n",
  };
  const std::vector<std::vector<std::string>> pendings = {
      {"project_a"},
      {"project_q", "project_b", "project_g", "project_h", "project_zzz", "project_zza"},
      {"project_d", "project_e", "project_y", "project_a0"},
      {"project_pa", "project_pb", "project_fa", "project_c0", "project_zz0"},
  };
  for (const std::string& file : files) {
    for (const auto& pending : pendings) {
      for (const std::string record : {"project_m", "project_zzzz", "project_0"}) {
        CAPTURE(file);
        CAPTURE(record);
        Store store;
        if (!file.empty()) store.files["rows/ws1/project.md"] = file;
        check_same_both_ways(store, payload_of(record, pending), true);
        check_same_both_ways(store, payload_of(record, pending), true, "billing");
      }
    }
  }
}

TEST_CASE("curated checkpoint: existing threads of the record's file are planned at once too") {
  // Existing names updated, unchanged, or already linked, mixed with new ones landing before,
  // between and after them; in files of every shape.
  const std::vector<std::string> files = {
      "# Curated memory: project\n\n## project_f\nType: project\n\nf\n\n## project_p\nType: "
      "project\n\np\n",
      "# Curated memory: project\n\n## project_p\nType: project\n\np\n\n## project_c\nType: "
      "project\n\nc\n\n## project_x\nType: project\n\nx\n\n\n",
      "# Curated memory: project\r\n\r\n## project_f\r\nType: project\r\n\r\nf\r\n",
      "## project_f\nType: project\n\nf\n## project_p\nType: project\n\np\n",
  };
  const std::vector<std::vector<std::string>> pendings = {
      {"project_p"},
      {"project_f", "project_a", "project_p", "project_q"},
      {"project_x", "project_c", "project_d", "project_p", "project_zz"},
      {"project_pa", "project_f", "project_fa", "project_c0"},
  };
  for (const std::string& file : files) {
    for (const auto& pending : pendings) {
      for (const std::string record : {"project_m", "project_zzzz", "project_0"}) {
        CAPTURE(file);
        CAPTURE(record);
        Store store;
        store.files["rows/ws1/project.md"] = file;
        const std::string payload = payload_of(record, pending);
        check_same_both_ways(store, payload, true);
        check_same_both_ways(store, payload, true, "billing");
        // The same threads again under the next session's record: unchanged upserts, new links.
        commit(store, checkpoint(store, payload, kT1).write);
        check_same_both_ways(store, payload_of(record + "_next", pending), true);
        // And once more: links that are there already.
        commit(store, checkpoint(store, payload_of(record + "_next", pending), kT1).write);
        check_same_both_ways(store, payload_of(record + "_last", pending), true);
      }
    }
  }
}

TEST_CASE("curated checkpoint: existing pending names and a re-run are planned step by step") {
  Store store;
  const std::string payload = payload_of("project_m", {"project_b", "project_a"});
  check_same_both_ways(store, payload, true);
  commit(store, checkpoint(store, payload, kT1).write);
  check_same_both_ways(store, payload, false);  // unchanged upserts, no-op links
  check_same_both_ways(store, payload_of("project_m", {"project_b", "project_c"}), false);
  check_same_both_ways(store, payload_of("project_n", {"project_c", "project_d"}), true);
  check_same_both_ways(store, payload_of("project_n", {"project_e", "project_f"}), true);
  // A thread whose name is an invalid entry, or a record change that touches no file.
  store.files["rows/ws1/project.md"] += "\n## project_g\nType: project\nnot a field\n\nbody\n";
  check_same_both_ways(store, payload_of("project_m", {"project_g"}), false);
  check_same_both_ways(store, payload_of("project_m", {"project_h"}), false);
  // A thread of another type's file (an upsert moves it), and an unterminated last entry that
  // the rewrite would terminate.
  Store other;
  other.files["rows/ws1/atom.md"] = "## atom_a\nType: atom\n\na\n";
  other.files["rows/ws1/project.md"] = "## project_f\nType: project\n\nf\n";
  check_same_both_ways(other, payload_of("project_m", {"atom_a"}), false);
  other.files["rows/ws1/project.md"] = "## project_z\nType: project\n\nz";  // after the record
  check_same_both_ways(other, payload_of("project_m", {"project_z", "project_zz"}), false);
}
