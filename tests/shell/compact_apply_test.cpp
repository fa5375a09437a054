// Applying inbox compaction plans on real folders (spec compaction.md §12.3, §12.4, §12.6):
// single-file and journalled writes, faults mid-transaction, applied records, re-planning.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include "apply/apply.hpp"
#include "faulty_file_system.hpp"
#include "memkit/compact.hpp"
#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-03-07T10:00:00+00:00");
const std::string kInbox = "# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n";
const std::string kChangelog = "# Memory Changelog\n\n## 2026-03-06\n- old\n";

void make_memory(const fs::path& root, bool with_changelog) {
  write_bytes(root / "docs/memory/manifest.md",
              "## MemoryCustodian Protocol\n- protocol_version: 0.7\n");
  write_bytes(root / "docs/memory/inbox.md", kInbox);
  if (with_changelog) write_bytes(root / "docs/memory/changelog.md", kChangelog);
}

Workspace open_at(FileSystem& fs, const fs::path& root) {
  WorkspaceOptions options;
  options.project_root = root.string();
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), options);
  REQUIRE(ws.ok());
  return std::move(ws).value();
}

InboxCompaction plan_at(const Workspace& ws) {
  Result<CustodianInputs> inputs = ws.read_custodian_inputs();
  REQUIRE(inputs.ok());
  return plan_inbox_compaction(*inputs, default_token_counter(), kNow);
}

}  // namespace

TEST_CASE("shell: a one-file plan is written in place and recorded for undo") {
  TempDir dir;
  make_memory(dir.path(), false);
  Workspace ws = open_at(posix_file_system(), dir.path());
  const InboxCompaction report = plan_at(ws);
  REQUIRE(report.plan.has_value());
  CHECK(report.plan->id() == "3d36af5e83bd5ddb");
  auto lock = ws.lock();
  REQUIRE(lock.ok());
  const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
  REQUIRE(written.ok());
  CHECK(*written == std::vector<std::string>{"inbox.md"});
  CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == "# Inbox\n\n- Use tabs\n- Keep CRLF\n");
  const fs::path record = dir.path() / ".memkit/applied/3d36af5e83bd5ddb";
  CHECK(read_bytes(record / "b-0") == kInbox);
  const std::string applied = read_bytes(record / "applied.json");
  CHECK(applied.find(R"("applied_at":"2026-03-07T10:00:00.000Z")") != std::string::npos);
  CHECK(applied.find(R"("plan_id":"3d36af5e83bd5ddb")") != std::string::npos);
  CHECK(read_bytes(dir.path() / ".memkit/.gitignore") == "*\n");
  CHECK_FALSE(plan_at(ws).plan.has_value());  // apply, then re-plan: nothing left
}

TEST_CASE("shell: a two-file plan goes through a journal that is gone once committed") {
  TempDir dir;
  make_memory(dir.path(), true);
  Workspace ws = open_at(posix_file_system(), dir.path());
  const InboxCompaction report = plan_at(ws);
  REQUIRE(report.plan.has_value());
  CHECK(write_order(*report.plan).size() == 2);
  auto lock = ws.lock();
  const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
  REQUIRE(written.ok());
  CHECK(*written == std::vector<std::string>{"inbox.md", "changelog.md"});
  CHECK(read_bytes(dir.path() / "docs/memory/changelog.md") ==
        "# Memory Changelog\n\n## 2026-03-07\n- inbox.md cleanup: removed 1 exact duplicate(s) and "
        "0 exact tombstone match(es).\n\n## 2026-03-06\n- old\n");
  CHECK(tree_of(dir.path() / ".memkit/txn").empty());
  CHECK_FALSE(plan_at(ws).plan.has_value());
}

TEST_CASE("shell: a fault at any write of a journalled apply leaves each file old or new") {
  // Count the atomic replacements a clean apply makes, then fail each one in turn.
  int replacements = 0;
  {
    TempDir dir;
    make_memory(dir.path(), true);
    FaultyFileSystem counting;
    Workspace ws = open_at(counting, dir.path());
    const InboxCompaction report = plan_at(ws);
    auto lock = ws.lock();
    REQUIRE(ws.apply(*report.plan, kNow).ok());
    replacements = counting.calls(Op::rename_replace) + counting.calls(Op::rename_no_replace);
  }
  REQUIRE(replacements > 4);
  for (int nth = 1; nth <= replacements; ++nth) {
    for (const Op op : {Op::rename_replace, Op::rename_no_replace}) {
      CAPTURE(nth);
      TempDir dir;
      make_memory(dir.path(), true);
      FaultyFileSystem faulty;
      Workspace ws = open_at(faulty, dir.path());
      const InboxCompaction report = plan_at(ws);
      const std::string new_inbox = report.plan->operations()[1].output.render();
      const std::string new_changelog = report.plan->operations()[0].output.render();
      auto lock = ws.lock();
      faulty.fail_nth(op, nth);
      const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
      if (!faulty.fault_struck()) continue;
      const std::string inbox = read_bytes(dir.path() / "docs/memory/inbox.md");
      const std::string changelog = read_bytes(dir.path() / "docs/memory/changelog.md");
      if (written.ok()) {  // the fault struck once every target was written: the write stands
        CHECK(inbox == new_inbox);
        CHECK(changelog == new_changelog);
        continue;
      }
      CHECK((inbox == kInbox || inbox == new_inbox));
      CHECK((changelog == kChangelog || changelog == new_changelog));
      // While the targets disagree (one moved, one not), the journal that can finish or undo
      // the move is still there.
      if ((inbox != kInbox) != (changelog != kChangelog)) {
        CHECK_FALSE(tree_of(dir.path() / ".memkit/txn").empty());
      }
    }
  }
}

TEST_CASE("shell: a failed journalled apply leaves no journal unless a target was replaced") {
  // Every new file (backups, prepared bytes, the journal) fails in turn, as on a full disk, and so
  // does every move of a prepared file over its target: before the first target is replaced the
  // transaction is dropped at once; after it, the journal stays and the message names what was
  // replaced and how to finish or undo it. Without hard links every backup is a new file too.
  std::array<int, kOpCount> calls{};
  {
    TempDir dir;
    make_memory(dir.path(), true);
    FaultyFileSystem counting;
    counting.without_hard_links();
    Workspace ws = open_at(counting, dir.path());
    const InboxCompaction report = plan_at(ws);
    auto lock = ws.lock();
    REQUIRE(ws.apply(*report.plan, kNow).ok());
    for (std::size_t op = 0; op < kOpCount; ++op) calls[op] = counting.calls(static_cast<Op>(op));
  }
  REQUIRE(calls[static_cast<std::size_t>(Op::write_temporary)] > 4);
  int dropped = 0;
  int pending = 0;
  for (const Op op : {Op::write_temporary, Op::rename_replace}) {
    for (int nth = 1; nth <= calls[static_cast<std::size_t>(op)]; ++nth) {
      CAPTURE(op_name(op));
      CAPTURE(nth);
      TempDir dir;
      make_memory(dir.path(), true);
      FaultyFileSystem faulty;
      faulty.without_hard_links();
      Workspace ws = open_at(faulty, dir.path());
      const InboxCompaction report = plan_at(ws);
      auto lock = ws.lock();
      faulty.fail_nth(op, nth);
      const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
      if (written.ok()) continue;  // the fault struck after the commit
      const std::string message = written.status().message();
      const bool inbox_old = read_bytes(dir.path() / "docs/memory/inbox.md") == kInbox;
      const bool changelog_old = read_bytes(dir.path() / "docs/memory/changelog.md") == kChangelog;
      // Issue 24 defect 8: once every target holds its output the apply stands (the applied
      // record is kept before the targets are written), so no failure is reported after the
      // commit.
      CHECK_FALSE((!inbox_old && !changelog_old));
      if (!inbox_old && !changelog_old) continue;
      if (inbox_old && changelog_old) {
        ++dropped;
        // The applied record is kept before the transaction starts: a fault there leaves no txn/.
        const fs::path txn = dir.path() / ".memkit/txn";
        CHECK((!fs::exists(txn) || tree_of(txn).empty()));
        CHECK(message.find("; nothing was changed") != std::string::npos);
      } else {
        ++pending;
        CHECK(tree_of(dir.path() / ".memkit/txn").size() > 0);
        CHECK(message.find("already replaced: inbox.md;") != std::string::npos);
        CHECK(message.find(
                  "is pending in .memkit/txn: run `memkit custodian recover --apply` to finish it "
                  "or `memkit custodian recover --apply --rollback` to undo it") !=
              std::string::npos);
      }
      CHECK(temporaries_under(dir.path()).empty());
    }
  }
  CHECK(dropped >= 6);  // two backups, two prepared files, the journal, the first target's move
  CHECK(pending >= 1);  // the second target's move
}

TEST_CASE("shell: a link that fails is a copy: the journalled apply gives the same files") {
  std::string new_inbox;
  std::string new_changelog;
  int links = 0;
  {
    TempDir dir;
    make_memory(dir.path(), true);
    FaultyFileSystem counting;
    Workspace ws = open_at(counting, dir.path());
    const InboxCompaction report = plan_at(ws);
    auto lock = ws.lock();
    REQUIRE(ws.apply(*report.plan, kNow).ok());
    links = counting.calls(Op::link_temporary);
    new_inbox = read_bytes(dir.path() / "docs/memory/inbox.md");
    new_changelog = read_bytes(dir.path() / "docs/memory/changelog.md");
  }
  CHECK(links == 2);  // the two backups
  for (int nth = 0; nth <= links; ++nth) {
    CAPTURE(nth);
    TempDir dir;
    make_memory(dir.path(), true);
    FaultyFileSystem faulty;
    if (nth == 0) faulty.without_hard_links();
    Workspace ws = open_at(faulty, dir.path());
    const InboxCompaction report = plan_at(ws);
    auto lock = ws.lock();
    if (nth > 0) faulty.fail_nth(Op::link_temporary, nth);
    REQUIRE(ws.apply(*report.plan, kNow).ok());
    CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == new_inbox);
    CHECK(read_bytes(dir.path() / "docs/memory/changelog.md") == new_changelog);
    CHECK(fs::hard_link_count(dir.path() / "docs/memory/inbox.md") == 1);
    CHECK(tree_of(dir.path() / ".memkit/txn").empty());
    CHECK(temporaries_under(dir.path()).empty());
  }
}

TEST_CASE("shell: a file that changed since the plan was built is not overwritten") {
  TempDir dir;
  make_memory(dir.path(), false);
  Workspace ws = open_at(posix_file_system(), dir.path());
  const InboxCompaction report = plan_at(ws);
  write_bytes(dir.path() / "docs/memory/inbox.md", kInbox + "- new\n");
  auto lock = ws.lock();
  const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
  REQUIRE_FALSE(written.ok());
  CHECK(written.status().message() == "inbox.md: changed while the plan was being applied");
  CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == kInbox + "- new\n");
}

TEST_CASE("shell: a state folder that is not a folder stops the apply before any file is written") {
  // Issue 24 defect 8: .memkit/applied (or .memkit/txn) as a file used to fail the apply only
  // after the targets held their new bytes, so the reply said nothing was written when it was.
  for (const bool two_files : {false, true}) {
    for (const char* state : {"applied", "txn"}) {
      CAPTURE(two_files);
      CAPTURE(state);
      TempDir dir;
      make_memory(dir.path(), two_files);
      Workspace ws = open_at(posix_file_system(), dir.path());
      const InboxCompaction report = plan_at(ws);
      REQUIRE(report.plan.has_value());
      auto lock = ws.lock();
      REQUIRE(lock.ok());
      write_bytes(dir.path() / ".memkit" / state, "not a folder\n");
      const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
      if (!two_files && std::string(state) == "txn") {  // one file: no journal, so no txn/
        CHECK(written.ok());
        continue;
      }
      REQUIRE_FALSE(written.ok());
      CHECK(written.status().message() ==
            ".memkit/" + std::string(state) + ": not a directory; nothing was written");
      CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == kInbox);
      if (two_files) CHECK(read_bytes(dir.path() / "docs/memory/changelog.md") == kChangelog);
    }
  }
}

TEST_CASE("shell: a failed target write leaves no applied record offering an undo") {
  TempDir dir;
  make_memory(dir.path(), false);
  FaultyFileSystem faulty;
  Workspace ws = open_at(faulty, dir.path());
  const InboxCompaction report = plan_at(ws);
  REQUIRE(report.plan.has_value());
  auto lock = ws.lock();
  REQUIRE(lock.ok());
  // The applied record is kept first (its b-0 and applied.json: two replacements), then the
  // target: fail the target's replacement.
  faulty.fail_nth(Op::rename_replace, 1);
  const Result<std::vector<std::string>> written = ws.apply(*report.plan, kNow);
  REQUIRE(faulty.fault_struck());
  REQUIRE_FALSE(written.ok());
  CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == kInbox);
  CHECK_FALSE(ws.read_applied_record(report.plan->id())->has_value());
}

TEST_CASE("shell: only the newest applied records are kept") {
  TempDir dir;
  make_memory(dir.path(), false);
  Workspace ws = open_at(posix_file_system(), dir.path());
  auto lock = ws.lock();
  for (int i = 0; i < 23; ++i) {
    write_bytes(dir.path() / "docs/memory/inbox.md",
                "- a" + std::to_string(i) + "\n- A" + std::to_string(i) + "\n");
    const ClockReading at = *ClockReading::create(kNow.unix_millis() + i * 1000, 0);
    Result<CustodianInputs> inputs = ws.read_custodian_inputs();
    const InboxCompaction report = plan_inbox_compaction(*inputs, default_token_counter(), at);
    REQUIRE(report.plan.has_value());
    REQUIRE(ws.apply(*report.plan, at).ok());
  }
  std::size_t records = 0;
  for (const std::string& entry : tree_of(dir.path() / ".memkit/applied")) {
    records += entry.back() == '/' && entry.find('/') == entry.size() - 1;
  }
  CHECK(records == kAppliedRecordsKept);
}

}  // namespace memkit::shell_test

namespace memkit::shell_test {

TEST_CASE("shell: undo restores the exact bytes of an archival apply and deletes what it created") {
  TempDir dir;
  std::string x = "-";
  for (int i = 0; i < 300; ++i) x += " x";
  const std::string changelog = "# Memory Changelog\n\n## 2026-03-07\n" + x +
                                "\n\n## 2026-03-06\n" + x + "\n\n## 2026-03-05\n" + x + "\n";
  write_bytes(dir.path() / "docs/memory/manifest.md", "# M\n");
  write_bytes(dir.path() / "docs/memory/changelog.md", changelog);
  Workspace ws = open_at(posix_file_system(), dir.path());
  auto lock = ws.lock();
  Result<CustodianInputs> inputs =
      ws.read_custodian_inputs({"archive/README.md", archive_path_for("changelog.md", kNow)});
  const TargetCompaction archival =
      plan_target_compaction(*inputs, "changelog.md", default_token_counter(), kNow);
  REQUIRE(archival.plan.has_value());
  REQUIRE(ws.apply(*archival.plan, kNow).ok());
  CHECK(fs::exists(dir.path() / "docs/memory/archive/README.md"));

  const Result<std::optional<AppliedRecord>> record = ws.read_applied_record(archival.plan->id());
  REQUIRE(record.ok());
  REQUIRE(record->has_value());
  CHECK((*record)->targets.size() == 3);
  std::vector<std::string> paths;
  for (const AppliedRecord::Target& t : (*record)->targets) paths.push_back(t.path);
  inputs = ws.read_custodian_inputs(paths);
  const UndoPlanning undo =
      plan_undo(*record, archival.plan->id(), *inputs, default_token_counter());
  REQUIRE(undo.plan.has_value());
  CHECK(undo.findings.empty());
  REQUIRE(ws.apply(*undo.plan, kNow).ok());
  CHECK(read_bytes(dir.path() / "docs/memory/changelog.md") == changelog);
  CHECK_FALSE(fs::exists(dir.path() / "docs/memory/archive/README.md"));
  CHECK_FALSE(fs::exists(dir.path() / "docs/memory/archive/changelog-2026-03-07.md"));
  // The undo kept its own record, so the undo can be undone too.
  CHECK(ws.read_applied_record(undo.plan->id())->has_value());
}

TEST_CASE("shell: undo refuses a target that moved on, and a plan never applied here") {
  TempDir dir;
  make_memory(dir.path(), false);
  Workspace ws = open_at(posix_file_system(), dir.path());
  auto lock = ws.lock();
  const InboxCompaction report = plan_at(ws);
  REQUIRE(ws.apply(*report.plan, kNow).ok());
  write_bytes(dir.path() / "docs/memory/inbox.md", "- edited\n");
  const auto record = ws.read_applied_record(report.plan->id());
  Result<CustodianInputs> inputs = ws.read_custodian_inputs({"inbox.md"});
  const UndoPlanning moved =
      plan_undo(*record, report.plan->id(), *inputs, default_token_counter());
  CHECK_FALSE(moved.plan.has_value());
  REQUIRE(moved.findings.size() == 1);
  CHECK(moved.findings[0].code == "MK-UNDO-001");
  CHECK(moved.targets[0].state == TargetState::other);
  const auto none = ws.read_applied_record("0123456789abcdef");
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  const UndoPlanning missing =
      plan_undo(*none, "0123456789abcdef", *inputs, default_token_counter());
  REQUIRE(missing.findings.size() == 1);
  CHECK(missing.findings[0].code == "MK-UNDO-002");
}

}  // namespace memkit::shell_test

namespace memkit::shell_test {

TEST_CASE("shell: a purge deletes exactly the undo records whose base bytes mention the topic") {
  TempDir dir;
  write_bytes(dir.path() / "docs/memory/manifest.md", "# M\n");
  Workspace ws = open_at(posix_file_system(), dir.path());
  auto lock = ws.lock();
  std::vector<std::string> ids;
  for (const char* inbox : {"- Zephyr notes\n- zephyr notes\n", "- plain\n- PLAIN\n"}) {
    write_bytes(dir.path() / "docs/memory/inbox.md", inbox);
    const InboxCompaction report = plan_at(ws);
    REQUIRE(report.plan.has_value());
    REQUIRE(ws.apply(*report.plan, kNow).ok());
    ids.push_back(report.plan->id());
  }
  REQUIRE(ws.purge_applied_records("zephyr").ok());
  CHECK_FALSE(ws.read_applied_record(ids[0])->has_value());
  CHECK(ws.read_applied_record(ids[1])->has_value());
}

}  // namespace memkit::shell_test
