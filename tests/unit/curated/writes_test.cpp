// The writes of curated memory (spec curated.md §4-§7): add's upsert, append, edit, reclassify,
// link and unlink, soft and hard delete, restore. Each test runs a planned Write over an in-memory
// store and checks the exact bytes written, the history lines, the refusals (no operation at all)
// and the no-ops (nothing written, Updated kept); with the §14 "Body ending", "Supersedes" and
// "Reclassify" vectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curated_support.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/snapshot.hpp"

using memkit::EntryState;
using memkit::Finding;
using memkit::OperationKind;
using memkit::Severity;
using memkit::Snapshot;
using namespace memkit::curated;
using namespace curated_test;

namespace {

AddRequest thread(std::string name, std::string type, std::string status = "open") {
  AddRequest request = add(std::move(name), std::move(type), "body");
  request.row_class = "thread";
  request.status = std::move(status);
  return request;
}

bool has(const std::vector<Finding>& findings, std::string_view code, Severity severity) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return f.code == code && f.severity == severity; });
}

// A refusal: the code at that severity, and nothing to write.
void check_refused(const Write& write, std::string_view code, Severity severity) {
  CHECK(write.refused());
  CHECK(has(write.findings, code, severity));
  CHECK(write.operations.empty());
  CHECK(write.files().empty());
  CHECK_FALSE(write.changed);
}

// A no-op: nothing written, no refusal.
void check_unchanged(const Write& write) {
  CHECK_FALSE(write.refused());
  CHECK_FALSE(write.changed);
  CHECK(write.operations.empty());
  CHECK(write.files().empty());
}

std::vector<std::string> op_paths(const Write& write) {
  std::vector<std::string> paths;
  for (const memkit::PlanOperation& op : write.operations) paths.push_back(op.path);
  return paths;
}

// The one project row most tests start from: project_a, a log, inserted at T1.
Store with_project_a() {
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_a", "project", "a")));
  return store;
}

}  // namespace

// ---- paths ------------------------------------------------------------------------------------

TEST_CASE("curated writes: a workspace's paths, and what a write reads, sorted") {
  CHECK(rows_path("ws1", RowType::negative) == "rows/ws1/negative.md");
  CHECK(history_path("ws1") == kHistory);
  CHECK(access_path("ws1") == kAccess);
  CHECK(snapshot_path("ws1") == kAccessSnapshot);
  // A write appends to the history, so reads only its end; a hard delete rewrites the logs.
  const WriteInputs write = write_inputs("ws1");
  CHECK(write.whole == std::vector<std::string>{"rows/ws1/atom.md", "rows/ws1/decision.md",
                                                kFeedback, "rows/ws1/negative.md", kProject,
                                                kUser});
  CHECK(write.tails == std::vector<std::string>{kHistory});
  const WriteInputs purge = write_inputs("ws1", true);
  CHECK(purge.whole == std::vector<std::string>{kAccessSnapshot, kAccess, kHistory,
                                                "rows/ws1/atom.md", "rows/ws1/decision.md",
                                                kFeedback, "rows/ws1/negative.md", kProject,
                                                kUser});
  CHECK(purge.tails.empty());
}

TEST_CASE("curated writes: read_workspace gives every valid row by name, a second copy refused") {
  Store store;
  store.files[kUser] =
      "# Curated memory: user\n\n## user_b\nType: user\n\nb\n\n## project_a\nType: user\n\nx\n";
  store.files[kProject] = "# Curated memory: project\n\n## project_a\nType: project\n\na\n";
  const Workspace ws = read_workspace(store.snapshot(), "ws1");
  REQUIRE(ws.rows.size() == 2);
  CHECK(ws.rows[0].row.name == "project_a");
  CHECK(ws.rows[0].path == kProject);  // project.md sorts before user.md
  CHECK(ws.rows[1].row.name == "user_b");
  CHECK(ws.find("user_b") == &ws.rows[1]);
  CHECK(ws.find("user_c") == nullptr);
  REQUIRE(ws.findings.size() == 1);
  CHECK(ws.findings[0].code == "MK-CUR-004");
  CHECK(ws.findings[0].message.starts_with("rows/ws1/user.md:8: "));
}

// Was a defect: the rows after an unclosed fence were hidden from reads without a word.
TEST_CASE("curated writes: read_workspace reports a row file it cannot parse, naming the line") {
  Store store;
  store.files[kProject] =
      "# Curated memory: project\n\n## project_a\nType: project\n\na\n```\n\n"
      "## project_b\nType: project\n\nb\n";
  const Workspace ws = read_workspace(store.snapshot(), "ws1");
  REQUIRE(ws.rows.size() == 1);
  CHECK(ws.rows[0].row.name == "project_a");
  REQUIRE(ws.findings.size() == 1);
  CHECK(ws.findings[0].code == "MK-PARSE-001");
  CHECK(ws.findings[0].severity == Severity::error);
  CHECK(ws.findings[0].message == "rows/ws1/project.md:7: unclosed code fence");
}

// ---- add --------------------------------------------------------------------------------------

TEST_CASE("curated writes: add inserts a new file and one history line, byte for byte") {
  Store store;
  // §14 "Body ending": the body "line⏎⏎⏎" is stored as "line".
  const Write write =
      plan_add(store.snapshot(), at(kT1), add("project_a", "project", "line\n\n\n"));
  CHECK(write.action == "inserted");
  CHECK(op_paths(write) == std::vector<std::string>{kProject, kHistory});  // commit order
  CHECK(write.files() == std::vector<std::string>{kHistory, kProject});    // sorted bytewise
  CHECK(write.operations[0].kind == OperationKind::create);
  const std::string entry =
      "## project_a\nType: project\nClass: log\nAudience: any\nCreated: 2026-11-30T09:00:00.000Z\n"
      "Updated: 2026-11-30T09:00:00.000Z\n\nline\n";
  CHECK(write.entries.at("project_a") == entry);
  REQUIRE(write.row);
  CHECK(write.row->body == "line");
  applied(store, write);
  CHECK(store.at(kProject) == "# Curated memory: project\n\n" + entry);
  CHECK(store.at(kHistory) ==
        R"({"actor":null,"after":{"audience":"any","body":"line","class":"log","deleted":false,)"
        R"("deleted_at":null,"description":null,"initiative":null,"project_ref":null,)"
        R"("status":null,"type":"project"},"before":null,"name":"project_a","op":"insert",)"
        R"("ts":"2026-11-30T09:00:00.000Z"})"
        "\n");
  CHECK(store.row("project_a").body == "line");
}

TEST_CASE("curated writes: the entry a write shows is the one the whole file holds") {
  // Found in the region the write changes only: mid-file inserts, edits and moves between files,
  // beside a body whose fence holds what looks like an entry of the same name.
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1),
                          add("project_a", "project", "```\n## project_b\nType: project\n```")));
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_c", "project", "c")));
  const auto shown_as_stored = [&](const Write& write, const std::string& name,
                                   const std::string& path) {
    applied(store, write);
    for (const Entry& entry : parse_row_file(store.at(path), path).entries) {
      if (entry.row.name == name) {
        CHECK(write.entries.at(name) ==
              store.at(path).substr(entry.begin, entry.end - entry.begin));
        return;
      }
    }
    FAIL("no entry " << name);
  };
  shown_as_stored(plan_add(store.snapshot(), at(kT2), add("project_b", "project", "b")),
                  "project_b", kProject);
  shown_as_stored(plan_append(store.snapshot(), at(kT3), "project_b", "more"), "project_b",
                  kProject);
  AddRequest moved = add("project_b", "user", "b\n\nmore");
  shown_as_stored(plan_add(store.snapshot(), at(kT3), moved), "project_b", kUser);
  shown_as_stored(plan_add(store.snapshot(), at(kT3), add("project_d", "project", "d")),
                  "project_d", kProject);
}

TEST_CASE("curated writes: add puts new entries in name order, one empty line apart") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_c", "project", "c")));
  applied(store, plan_add(store.snapshot(), at(kT2), add("project_a", "project", "a")));
  applied(store, plan_add(store.snapshot(), at(kT3), add("project_b", "project", "b")));
  const RowFile file = parse_row_file(store.at(kProject), kProject);
  REQUIRE(file.entries.size() == 3);
  CHECK(file.entries[0].row.name == "project_a");
  CHECK(file.entries[1].row.name == "project_b");
  CHECK(file.entries[2].row.name == "project_c");
  CHECK(store.at(kProject).find("\n\nb\n\n## project_c\n") != std::string::npos);
  CHECK(store.history().size() == 3);
}

TEST_CASE("curated writes: add with every field, the initiative normalised") {
  Store store;
  AddRequest request = thread("feedback_a", "feedback");
  request.description = "  one line  ";
  request.initiative = "Diagram Builder";
  request.project_ref = "/srv/repos/gaia/.git";
  request.audience = "executor";
  request.origin_session = "s-1";
  applied(store, plan_add(store.snapshot(), at(kT1), request));
  CHECK(store.at(kFeedback) ==
        "# Curated memory: feedback\n\n## feedback_a\nType: feedback\nClass: thread\n"
        "Status: open\nInitiative: diagram_builder\nAudience: executor\nDescription: one line\n"
        "Project-Ref: /srv/repos/gaia/.git\nOrigin-Session: s-1\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\nbody\n");
}

TEST_CASE("curated writes: on insert the initiative comes from --project-ref when omitted") {
  Store store;
  AddRequest request = add("project_a", "project", "a");
  request.project_ref = "/srv/repos/Gaia-System/";
  applied(store, plan_add(store.snapshot(), at(kT1), request));
  CHECK(store.row("project_a").initiative == "gaia_system");
}

TEST_CASE("curated writes: a --project-ref without --initiative names it on update too") {
  // §3's rule for a given ref, as checkpoint applies it; §6 keeps the old initiative only when
  // neither option is given, or when the ref derives nothing.
  Store store;
  AddRequest first = add("project_a", "project", "a");
  first.initiative = "old";
  applied(store, plan_add(store.snapshot(), at(kT1), first));
  AddRequest again = add("project_a", "project", "a");
  again.project_ref = "/srv/repos/gaia/.git";
  applied(store, plan_add(store.snapshot(), at(kT2), again));
  CHECK(store.row("project_a").initiative == "gaia");
  AddRequest nothing = add("project_a", "project", "a");
  nothing.project_ref = "/.git";  // derives no initiative
  applied(store, plan_add(store.snapshot(), at(kT3), nothing));
  CHECK(store.row("project_a").initiative == "gaia");
  EditRequest edit{.name = "project_a",
                   .field = "body",
                   .content = "b",
                   .audience = std::nullopt,
                   .initiative = std::nullopt,
                   .project_ref = "/srv/repos/Diagram Builder"};
  applied(store, plan_edit(store.snapshot(), at(kT4), edit));
  CHECK(store.row("project_a").initiative == "diagram_builder");
}

TEST_CASE("curated writes: an --initiative that normalises to nothing is MK-ARG-001") {
  Store store;
  for (const char* raw : {"  ", "--"}) {
    AddRequest request = add("project_a", "project", "a");
    request.initiative = raw;
    check_refused(plan_add(store.snapshot(), at(kT1), request), "MK-ARG-001", Severity::blocker);
  }
}

TEST_CASE("curated writes: add refuses bad arguments before anything is built") {
  Store store;
  const Snapshot snapshot = store.snapshot();
  SUBCASE("a slug of another type") {
    check_refused(plan_add(snapshot, at(kT1), add("atom_x", "project", "a")), "MK-CUR-003",
                  Severity::blocker);
    check_refused(plan_add(snapshot, at(kT1), add("x", "decision", "a")), "MK-CUR-003",
                  Severity::blocker);
  }
  SUBCASE("not a slug") {
    check_refused(plan_add(snapshot, at(kT1), add("Project A", "project", "a")), "MK-CUR-003",
                  Severity::blocker);
  }
  SUBCASE("an unknown type, class, status or audience") {
    check_refused(plan_add(snapshot, at(kT1), add("project_a", "projects", "a")), "MK-ARG-001",
                  Severity::blocker);
    AddRequest request = add("project_a", "project", "a");
    request.row_class = "Thread";
    check_refused(plan_add(snapshot, at(kT1), request), "MK-ARG-001", Severity::blocker);
    request = thread("project_a", "project", "done");
    check_refused(plan_add(snapshot, at(kT1), request), "MK-ARG-001", Severity::blocker);
    request = add("project_a", "project", "a");
    request.audience = "all";
    check_refused(plan_add(snapshot, at(kT1), request), "MK-ARG-001", Severity::blocker);
  }
  SUBCASE("a body the entry cannot hold") {
    check_refused(plan_add(snapshot, at(kT1), add("project_a", "project", " \n\n")), "MK-CUR-005",
                  Severity::blocker);
    check_refused(plan_add(snapshot, at(kT1), add("project_a", "project", "```\ncode")),
                  "MK-CUR-005", Severity::blocker);
    check_refused(
        plan_add(snapshot, at(kT1), add("project_a", "project", "x\n## project_b\nType: project")),
        "MK-CUR-005", Severity::blocker);
  }
  SUBCASE("a description of two lines") {
    AddRequest request = add("project_a", "project", "a");
    request.description = "one\ntwo";
    check_refused(plan_add(snapshot, at(kT1), request), "MK-CUR-006", Severity::blocker);
  }
  SUBCASE("a project ref of two lines") {
    AddRequest request = add("project_a", "project", "a");
    request.project_ref = "a\nType: user";
    check_refused(plan_add(snapshot, at(kT1), request), "MK-ARG-001", Severity::blocker);
  }
}

TEST_CASE("curated writes: add --status without --class on insert is MK-CUR-007, nothing written") {
  Store store;
  AddRequest request = add("project_a", "project", "a");
  request.status = "open";
  const Write write = plan_add(store.snapshot(), at(kT1), request);
  check_refused(write, "MK-CUR-007", Severity::blocker);
  CHECK(write.findings[0].fatal);
  CHECK_FALSE(write.row);
}

TEST_CASE("curated writes: add of a thread without a status warns MK-CUR-008") {
  Store store;
  AddRequest request = add("project_a", "project", "a");
  request.row_class = "thread";
  const Write write = plan_add(store.snapshot(), at(kT1), request);
  CHECK_FALSE(write.refused());
  CHECK(write.changed);
  CHECK(has(write.findings, "MK-CUR-008", Severity::warning));
}

TEST_CASE("curated writes: an add update replaces the body and keeps what was omitted") {
  Store store;
  AddRequest first = thread("project_a", "project");
  first.description = "d";
  first.initiative = "gaia";
  first.project_ref = "ref";
  first.audience = "executor";
  applied(store, plan_add(store.snapshot(), at(kT1), first));
  const Write write = plan_add(store.snapshot(), at(kT2), add("project_a", "project", "new"));
  CHECK(write.action == "updated");
  applied(store, write);
  const Row row = store.row("project_a");
  CHECK(row.body == "new");
  CHECK(row.description == "d");
  CHECK(row.initiative == "gaia");
  CHECK(row.project_ref == "ref");
  CHECK(row.audience == Audience::executor);
  CHECK(row.row_class == RowClass::thread);
  CHECK(row.status == RowStatus::open);  // class and status follow §5: kept
  CHECK(row.created == kT1);
  CHECK(row.updated == kT2);
  const std::vector<HistoryRecord> history = store.history();
  REQUIRE(history.size() == 2);
  CHECK(history[1].op == HistoryOp::update);
  REQUIRE(history[1].before);
  CHECK(history[1].before->body == "body");
  CHECK(history[1].after->body == "new");
  // Only the changed lines moved: Updated and the body.
  CHECK(write.entries.at("project_a") ==
        "## project_a\nType: project\nClass: thread\nStatus: open\nInitiative: gaia\n"
        "Audience: executor\nDescription: d\nProject-Ref: ref\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T10:00:00.000Z\n\nnew\n");
}

TEST_CASE("curated writes: an add that changes nothing is a no-op, Updated kept") {
  Store store = with_project_a();
  const std::string before = store.at(kProject);
  const Write write = plan_add(store.snapshot(), at(kT2), add("project_a", "project", "a\n\n"));
  check_unchanged(write);
  CHECK(write.action == "unchanged");
  REQUIRE(write.row);
  CHECK(write.row->updated == kT1);
  CHECK(write.entries.at("project_a").ends_with("Updated: 2026-11-30T09:00:00.000Z\n\na\n"));
  store.apply(write);
  CHECK(store.at(kProject) == before);
  CHECK(store.history().size() == 1);
}

TEST_CASE("curated writes: add on an anchor with --class log clears nothing else") {
  Store store = with_project_a();
  AddRequest request = add("project_a", "project", "a");
  request.status = "open";  // on update too: the result is a log
  check_refused(plan_add(store.snapshot(), at(kT2), request), "MK-CUR-007", Severity::blocker);
  request.row_class = "thread";
  applied(store, plan_add(store.snapshot(), at(kT2), request));
  CHECK(store.row("project_a").status == RowStatus::open);
}

TEST_CASE("curated writes: an add upsert of a soft-deleted row resurrects it") {
  Store store = with_project_a();
  applied(store, plan_delete(store.snapshot(), at(kT2), "project_a", false));
  CHECK(store.row("project_a").deleted == kT2);
  const Write write = plan_add(store.snapshot(), at(kT3), add("project_a", "project", "a"));
  CHECK(write.action == "updated");
  applied(store, write);
  const Row row = store.row("project_a");
  CHECK_FALSE(row.deleted);
  CHECK(row.updated == kT3);
  CHECK(store.at(kProject).find("Deleted:") == std::string::npos);
  const std::vector<HistoryRecord> history = store.history();
  CHECK(history.back().before->deleted_at == kT2);
  CHECK_FALSE(history.back().after->deleted_at);
}

TEST_CASE("curated writes: a type change moves the entry to the other file in one write") {
  Store store;
  store.files[kProject] =
      "# Curated memory: project\n\n## project_a\nType: project\nX-Owner: me\n"
      "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\na\n\n"
      "## project_b\nType: project\n\nb\n";
  const Write write = plan_add(store.snapshot(), at(kT2), add("project_a", "user", "a"));
  CHECK_FALSE(write.refused());
  CHECK(has(write.findings, "MK-CUR-030", Severity::warning));  // reported, and kept
  CHECK(op_paths(write) == std::vector<std::string>{kProject, kUser, kHistory});
  store.apply(write);
  CHECK(store.at(kProject) == "# Curated memory: project\n\n## project_b\nType: project\n\nb\n");
  CHECK(store.at(kUser) ==
        "# Curated memory: user\n\n## project_a\nType: user\nX-Owner: me\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T10:00:00.000Z\n\na\n");
  CHECK(write.entries.at("project_a") == store.at(kUser).substr(24));
  CHECK(store.history().back().before->type == RowType::project);
  CHECK(store.history().back().after->type == RowType::user);
}

TEST_CASE("curated writes: an invalid entry blocks a write to its file, not to another file") {
  Store store;
  store.files[kProject] =
      "# Curated memory: project\n\n## project_a\nType: project\n\na\n\n"
      "## project_z\nType: project\nStatus: open\n\nz\n";
  check_refused(plan_add(store.snapshot(), at(kT1), add("project_b", "project", "b")), "MK-CUR-004",
                Severity::blocker);
  check_refused(plan_append(store.snapshot(), at(kT1), "project_a", "more"), "MK-CUR-004",
                Severity::blocker);
  // The invalid entry itself, from another type: refused too, never a second copy.
  check_refused(plan_add(store.snapshot(), at(kT1), add("project_z", "user", "z")), "MK-CUR-004",
                Severity::blocker);
  applied(store, plan_add(store.snapshot(), at(kT1), add("user_a", "user", "u")));
}

TEST_CASE("curated writes: a row file or history that is a link refuses the write (MK-IO-002)") {
  Store store = with_project_a();
  Store linked = store;
  linked.files.erase(kHistory);
  linked.odd[kHistory] = EntryState::symlink;
  check_refused(plan_append(linked.snapshot(), at(kT2), "project_a", "x"), "MK-IO-002",
                Severity::blocker);
  linked = store;
  linked.odd[kUser] = EntryState::symlink;
  check_refused(plan_add(linked.snapshot(), at(kT2), add("project_b", "project", "b")), "MK-IO-002",
                Severity::blocker);
  linked = store;
  linked.odd[kUser] = EntryState::unreadable;
  check_refused(plan_add(linked.snapshot(), at(kT2), add("project_b", "project", "b")), "MK-IO-001",
                Severity::blocker);
}

TEST_CASE("curated writes: a history without a final LF gets one before the new line") {
  Store store = with_project_a();
  std::string& history = store.files[kHistory];
  history.pop_back();
  const std::string old = history;
  applied(store, plan_append(store.snapshot(), at(kT2), "project_a", "x"));
  CHECK(store.at(kHistory).starts_with(old + "\n{"));
  CHECK(store.history().size() == 2);
}

TEST_CASE("curated writes: a history read only at its end gets the same append") {
  Store whole = with_project_a();
  whole.files[kHistory].pop_back();  // no final LF: the end read must see that too
  Store tail = whole;
  tail.history_tail = 8;
  const Write from_whole = plan_append(whole.snapshot(), at(kT2), "project_a", "x");
  const Write from_tail = plan_append(tail.snapshot(), at(kT2), "project_a", "x");
  REQUIRE(from_tail.operations.size() == 2);
  const memkit::PlanOperation& op = from_tail.operations[1];
  CHECK(op.path == kHistory);
  CHECK(op.kind == OperationKind::append);
  CHECK(op.offset == whole.at(kHistory).size() - 8);
  CHECK(op.base_size() == whole.at(kHistory).size());
  CHECK(op.appended() == from_whole.operations[1].appended());
  CHECK(op.appended().starts_with("\n{"));
  applied(tail, from_tail);
  applied(whole, from_whole);
  CHECK(tail.files == whole.files);
}

TEST_CASE("curated writes: a hard delete over a history read only at its end is refused") {
  Store store = with_project_a();
  store.history_tail = 8;
  check_refused(plan_delete(store.snapshot(), at(kT2), "project_a", true), "MK-IO-001",
                Severity::blocker);
}

// ---- reclassify -------------------------------------------------------------------------------

TEST_CASE("curated writes: §14 Reclassify, thread to anchor clears the status") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1), thread("project_a", "project")));
  const Write write =
      plan_reclassify(store.snapshot(), at(kT2), "project_a", "anchor", std::nullopt);
  applied(store, write);
  const Row row = store.row("project_a");
  CHECK(row.row_class == RowClass::anchor);
  CHECK_FALSE(row.status);
  CHECK(row.updated == kT2);
  CHECK(write.entries.at("project_a").find("Status:") == std::string::npos);
  const HistoryRecord record = store.history().back();
  CHECK(record.op == HistoryOp::reclassify);
  CHECK(record.before->status == RowStatus::open);
  CHECK_FALSE(record.after->status);
  // ... and then --status open on that anchor is rejected.
  check_refused(plan_reclassify(store.snapshot(), at(kT3), "project_a", std::nullopt, "open"),
                "MK-CUR-007", Severity::blocker);
}

TEST_CASE("curated writes: reclassify statuses, reopening, null and the no-op") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1), thread("project_a", "project")));
  applied(store, plan_reclassify(store.snapshot(), at(kT2), "project_a", std::nullopt, "closed"));
  applied(store, plan_reclassify(store.snapshot(), at(kT3), "project_a", std::nullopt, "open"));
  CHECK(store.row("project_a").status == RowStatus::open);
  check_unchanged(plan_reclassify(store.snapshot(), at(kT4), "project_a", "thread", "open"));
  const Write cleared =
      plan_reclassify(store.snapshot(), at(kT4), "project_a", std::nullopt, "null");
  CHECK(has(cleared.findings, "MK-CUR-008", Severity::warning));
  store.apply(cleared);
  CHECK_FALSE(store.row("project_a").status);
  CHECK(store.history().size() == 4);
}

TEST_CASE("curated writes: reclassify to thread without a status warns MK-CUR-008") {
  Store store = with_project_a();
  const Write write =
      plan_reclassify(store.snapshot(), at(kT2), "project_a", "thread", std::nullopt);
  CHECK(write.changed);
  CHECK(has(write.findings, "MK-CUR-008", Severity::warning));
  CHECK_FALSE(write.refused());
}

TEST_CASE("curated writes: reclassify refusals") {
  Store store = with_project_a();
  check_refused(plan_reclassify(store.snapshot(), at(kT2), "project_a", std::nullopt, std::nullopt),
                "MK-ARG-001", Severity::blocker);
  check_refused(plan_reclassify(store.snapshot(), at(kT2), "project_a", "pinned", std::nullopt),
                "MK-ARG-001", Severity::blocker);
  check_refused(plan_reclassify(store.snapshot(), at(kT2), "project_x", "anchor", std::nullopt),
                "MK-CUR-011", Severity::error);
  applied(store, plan_delete(store.snapshot(), at(kT2), "project_a", false));
  check_refused(plan_reclassify(store.snapshot(), at(kT3), "project_a", "anchor", std::nullopt),
                "MK-CUR-011", Severity::error);
}

// ---- links ------------------------------------------------------------------------------------

TEST_CASE("curated writes: link adds a Link line, a history record, and keeps Updated") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1), thread("feedback_b", "feedback")));
  applied(store, plan_add(store.snapshot(), at(kT1), thread("feedback_c", "feedback")));
  const Write write =
      plan_link(store.snapshot(), at(kT2), "feedback_c", "feedback_b", "supersedes", false);
  CHECK(op_paths(write) == std::vector<std::string>{kFeedback, kHistory});
  CHECK(write.link_created_at == kT2);
  applied(store, write);
  const Row row = store.row("feedback_c");
  CHECK(row.updated == kT1);
  REQUIRE(row.links.size() == 1);
  CHECK(row.links[0] == Link{.kind = LinkKind::supersedes, .dst = "feedback_b", .created_at = kT2});
  CHECK(write.entries.at("feedback_c")
            .find("Link: supersedes feedback_b " + std::string(kT2) + "\n\nbody\n") !=
        std::string::npos);
  const std::string history = store.at(kHistory);
  CHECK(history.ends_with(
      R"({"actor":null,"link":{"dst":"feedback_b","kind":"supersedes"},"name":"feedback_c",)"
      R"("op":"link","ts":"2026-11-30T10:00:00.000Z"})"
      "\n"));
  // §14 "Supersedes": feedback_b is no longer live pending, though still open.
  std::vector<Row> rows;
  for (const StoredRow& stored : read_workspace(store.snapshot(), "ws1").rows) {
    rows.push_back(stored.row);
  }
  const std::vector<const Row*> live = live_pending(rows);
  REQUIRE(live.size() == 1);
  CHECK(live[0]->name == "feedback_c");
  CHECK(store.row("feedback_b").status == RowStatus::open);

  // Idempotent: the same link again is unchanged, with the existing link's time.
  const Write again =
      plan_link(store.snapshot(), at(kT3), "feedback_c", "feedback_b", "supersedes", false);
  check_unchanged(again);
  CHECK(again.link_created_at == kT2);
}

TEST_CASE("curated writes: new links go in kind then dst order") {
  Store store = with_project_a();
  for (const char* name : {"project_b", "project_c", "project_d"}) {
    applied(store, plan_add(store.snapshot(), at(kT1), add(name, "project", "x")));
  }
  applied(store,
          plan_link(store.snapshot(), at(kT2), "project_a", "project_d", "relates_to", false));
  applied(store,
          plan_link(store.snapshot(), at(kT3), "project_a", "project_b", "relates_to", false));
  applied(store,
          plan_link(store.snapshot(), at(kT4), "project_a", "project_c", "derived_from", false));
  CHECK(store.at(kProject).find("Updated: 2026-11-30T09:00:00.000Z\n"
                                "Link: derived_from project_c 2026-11-30T12:00:00.000Z\n"
                                "Link: relates_to project_b 2026-11-30T11:00:00.000Z\n"
                                "Link: relates_to project_d 2026-11-30T10:00:00.000Z\n\na\n") !=
        std::string::npos);
}

TEST_CASE("curated writes: link endpoints must be two live rows (MK-CUR-010)") {
  Store store = with_project_a();
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_b", "project", "b")));
  check_refused(plan_link(store.snapshot(), at(kT2), "project_a", "project_a", "relates_to", false),
                "MK-CUR-010", Severity::error);
  check_refused(plan_link(store.snapshot(), at(kT2), "project_a", "project_x", "relates_to", false),
                "MK-CUR-010", Severity::error);
  check_refused(plan_link(store.snapshot(), at(kT2), "project_x", "project_a", "relates_to", false),
                "MK-CUR-010", Severity::error);
  check_refused(plan_link(store.snapshot(), at(kT2), "project_a", "project_b", "replaces", false),
                "MK-ARG-001", Severity::blocker);
  applied(store, plan_delete(store.snapshot(), at(kT2), "project_b", false));
  check_refused(plan_link(store.snapshot(), at(kT3), "project_a", "project_b", "relates_to", false),
                "MK-CUR-010", Severity::error);
}

TEST_CASE("curated writes: unlink removes the line, a missing link is unchanged") {
  Store store = with_project_a();
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_b", "project", "b")));
  const std::string before = store.at(kProject);
  applied(store,
          plan_link(store.snapshot(), at(kT2), "project_a", "project_b", "relates_to", false));
  // Unlink accepts a soft-deleted endpoint.
  applied(store, plan_delete(store.snapshot(), at(kT3), "project_b", false));
  const Write write =
      plan_link(store.snapshot(), at(kT4), "project_a", "project_b", "relates_to", true);
  CHECK(write.link_created_at == kT2);
  applied(store, write);
  CHECK(store.row("project_a").links.empty());
  CHECK(store.row("project_a").updated == kT1);
  CHECK(store.history().back().op == HistoryOp::unlink);
  CHECK(store.history().back().link_dst == "project_b");
  const Write again =
      plan_link(store.snapshot(), at(kT4), "project_a", "project_b", "relates_to", true);
  check_unchanged(again);
  CHECK_FALSE(again.link_created_at);
  check_unchanged(
      plan_link(store.snapshot(), at(kT4), "project_q", "project_r", "supersedes", true));
}

// ---- delete and restore -----------------------------------------------------------------------

TEST_CASE("curated writes: soft delete sets Deleted and Updated, again is a no-op, restore") {
  Store store = with_project_a();
  const Write write = plan_delete(store.snapshot(), at(kT2), "project_a", false);
  CHECK(write.entries.at("project_a") ==
        "## project_a\nType: project\nClass: log\nAudience: any\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T10:00:00.000Z\n"
        "Deleted: 2026-11-30T10:00:00.000Z\n\na\n");
  applied(store, write);
  CHECK(store.history().back().op == HistoryOp::remove);
  check_unchanged(plan_delete(store.snapshot(), at(kT3), "project_a", false));
  // Soft-deleted rows are missing for append and edit.
  check_refused(plan_append(store.snapshot(), at(kT3), "project_a", "x"), "MK-CUR-011",
                Severity::error);
  EditRequest edit{.name = "project_a",
                   .field = "body",
                   .content = "x",
                   .audience = std::nullopt,
                   .initiative = std::nullopt,
                   .project_ref = std::nullopt};
  check_refused(plan_edit(store.snapshot(), at(kT3), edit), "MK-CUR-011", Severity::error);

  const Write restored = plan_restore(store.snapshot(), at(kT3), "project_a");
  applied(store, restored);
  const Row row = store.row("project_a");
  CHECK_FALSE(row.deleted);
  CHECK(row.updated == kT3);
  CHECK(store.history().back().op == HistoryOp::restore);
  check_unchanged(plan_restore(store.snapshot(), at(kT4), "project_a"));
  check_refused(plan_restore(store.snapshot(), at(kT4), "project_x"), "MK-CUR-011",
                Severity::error);
  check_refused(plan_delete(store.snapshot(), at(kT4), "project_x", false), "MK-CUR-011",
                Severity::error);
}

TEST_CASE("curated writes: hard delete purges the entry, links to it, its records, then logs it") {
  Store store = with_project_a();
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_b", "project", "b")));
  applied(store, plan_add(store.snapshot(), at(kT1), add("user_c", "user", "c")));
  applied(store,
          plan_link(store.snapshot(), at(kT2), "project_b", "project_a", "supersedes", false));
  applied(store, plan_link(store.snapshot(), at(kT2), "user_c", "project_a", "relates_to", false));
  applied(store, plan_link(store.snapshot(), at(kT2), "user_c", "project_b", "relates_to", false));
  store.files[kAccess] = R"({"kind":"deliberate","name":"project_a","surface":"show","ts":"x"})"
                         "\n"
                         R"({"kind":"deliberate","name":"project_b","surface":"show","ts":"x"})"
                         "\nnot json\n";
  store.files[kAccessSnapshot] =
      R"({"project_a":{"kernel":{"count":1,"last":"x"}},"user_c":{"kernel":{"count":2,"last":"y"}}})"
      "\n";
  const std::size_t records = store.history().size();

  const Write write = plan_delete(store.snapshot(), at(kT3), "project_a", true);
  CHECK(op_paths(write) ==
        std::vector<std::string>{kProject, kUser, kAccessSnapshot, kAccess, kHistory});
  CHECK_FALSE(write.row);
  CHECK(write.entries.count("project_a") == 0);
  CHECK(write.entries.at("project_b").find("Link:") == std::string::npos);
  applied(store, write);
  CHECK(store.at(kProject) ==
        "# Curated memory: project\n\n## project_b\nType: project\nClass: log\nAudience: any\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\nb\n");
  REQUIRE(store.row("user_c").links.size() == 1);
  CHECK(store.row("user_c").links[0].dst == "project_b");
  CHECK(store.at(kAccess) == R"({"kind":"deliberate","name":"project_b","surface":"show","ts":"x"})"
                             "\nnot json\n");
  CHECK(store.at(kAccessSnapshot) == R"({"user_c":{"kernel":{"count":2,"last":"y"}}})"
                                     "\n");
  const std::vector<HistoryRecord> history = store.history();
  // project_a's insert is gone; every other record stays, then one purge record.
  CHECK(history.size() == records);
  CHECK(std::count_if(history.begin(), history.end(),
                      [](const HistoryRecord& r) { return r.name == "project_a"; }) == 1);
  CHECK(store.at(kHistory).ends_with(
      R"({"actor":null,"after":null,"before":null,"name":"project_a","op":"purge",)"
      R"("ts":"2026-11-30T11:00:00.000Z"})"
      "\n"));
  check_refused(plan_delete(store.snapshot(), at(kT4), "project_a", true), "MK-CUR-011",
                Severity::error);
}

// ---- append and edit --------------------------------------------------------------------------

TEST_CASE("curated writes: append adds LF LF and the text, trailing blank lines removed") {
  Store store = with_project_a();
  const Write write = plan_append(store.snapshot(), at(kT2), "project_a", "more\n\n");
  REQUIRE(write.row);
  CHECK(write.row->body == "a\n\nmore");
  applied(store, write);
  CHECK(store.at(kProject).ends_with("Updated: 2026-11-30T10:00:00.000Z\n\na\n\nmore\n"));
  CHECK(store.history().back().op == HistoryOp::append);
  CHECK(store.history().back().after->body == "a\n\nmore");
  check_refused(plan_append(store.snapshot(), at(kT3), "project_a", "\n"), "MK-CUR-005",
                Severity::blocker);
  check_refused(plan_append(store.snapshot(), at(kT3), "project_x", "x"), "MK-CUR-011",
                Severity::error);
}

TEST_CASE("curated writes: edit overwrites the description or the body, the old stays in history") {
  Store store = with_project_a();
  EditRequest request{.name = "project_a",
                      .field = "description",
                      .content = "short",
                      .audience = "orchestrator",
                      .initiative = "Demo",
                      .project_ref = std::nullopt};
  applied(store, plan_edit(store.snapshot(), at(kT2), request));
  CHECK(store.at(kProject) ==
        "# Curated memory: project\n\n## project_a\nType: project\nClass: log\n"
        "Initiative: demo\nAudience: orchestrator\nDescription: short\n"
        "Created: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T10:00:00.000Z\n\na\n");
  check_unchanged(plan_edit(store.snapshot(), at(kT3), request));

  request = EditRequest{.name = "project_a",
                        .field = "body",
                        .content = "b",
                        .audience = std::nullopt,
                        .initiative = std::nullopt,
                        .project_ref = std::nullopt};
  applied(store, plan_edit(store.snapshot(), at(kT3), request));
  const HistoryRecord record = store.history().back();
  CHECK(record.op == HistoryOp::edit);
  CHECK(record.before->body == "a");
  CHECK(record.after->body == "b");
  CHECK(record.after->description == "short");

  request.field = "title";
  check_refused(plan_edit(store.snapshot(), at(kT4), request), "MK-ARG-001", Severity::blocker);
  request.field = "description";
  request.content = "a\nb";
  check_refused(plan_edit(store.snapshot(), at(kT4), request), "MK-CUR-006", Severity::blocker);
}

TEST_CASE("curated writes: a body sent with CRLF is stored and compared as its LF lines") {
  Store store;
  applied(store, plan_add(store.snapshot(), at(kT1), add("project_a", "project", "x\r\ny\r\n")));
  CHECK(store.row("project_a").body == "x\ny");
  CHECK(store.history().back().after->body == "x\ny");
  check_unchanged(plan_add(store.snapshot(), at(kT2), add("project_a", "project", "x\r\ny")));
}

TEST_CASE("curated writes: the actor is recorded") {
  Store store;
  WriteContext context = at(kT1);
  context.actor = "orchestrator";
  applied(store, plan_add(store.snapshot(), context, add("project_a", "project", "a")));
  CHECK(store.history().back().actor == "orchestrator");
}

TEST_CASE("curated writes: any --status without --class on insert is MK-CUR-007, null too") {
  Store store;
  for (const char* status : {"open", "null"}) {
    CAPTURE(status);
    AddRequest request = add("project_a", "project", "a");
    request.status = status;
    const Write write = plan_add(store.snapshot(), at(kT1), request);
    CHECK(write.refused());
    CHECK(write.operations.empty());
    CHECK(has(write.findings, "MK-CUR-007", Severity::blocker));
  }
}
