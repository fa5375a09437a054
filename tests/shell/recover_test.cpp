// `recover` (spec compaction.md §12.5) after an apply interrupted at every possible write.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <chrono>
#include <string>
#include <vector>

#include "faulty_file_system.hpp"
#include "memkit/compact.hpp"
#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

const ClockReading kNow = *ClockReading::parse_rfc3339("2026-03-07T10:00:00+00:00");
const std::string kInbox = "# Inbox\n\n- a\n- A\n- b\n";
const std::string kChangelog = "# Memory Changelog\n";

struct Crash {
  std::string new_inbox;
  std::string new_changelog;
};

// Applies a two-file plan through `fs`, which crashes at some write (FaultyFileSystem's
// crash_on_fault); returns the planned bytes.
Crash crash_apply(FileSystem& fs, const fs::path& root) {
  write_bytes(root / "docs/memory/manifest.md", "# M\n");
  write_bytes(root / "docs/memory/inbox.md", kInbox);
  write_bytes(root / "docs/memory/changelog.md", kChangelog);
  WorkspaceOptions options;
  options.project_root = root.string();
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), options);
  REQUIRE(ws.ok());
  Result<CustodianInputs> inputs = ws->read_custodian_inputs();
  const InboxCompaction report = plan_inbox_compaction(*inputs, default_token_counter(), kNow);
  REQUIRE(report.plan.has_value());
  auto lock = ws->lock();
  (void)ws->apply(*report.plan, kNow);
  return Crash{report.plan->operations()[1].output.render(),
               report.plan->operations()[0].output.render()};
}

Recovery recover_at(const fs::path& root, bool apply, bool rollback) {
  WorkspaceOptions options;
  options.project_root = root.string();
  Result<Workspace> ws = Workspace::open(posix_file_system(), custodian_layout(), options);
  REQUIRE(ws.ok());
  auto lock = ws->lock();
  REQUIRE(lock.ok());
  Result<Recovery> recovery = ws->recover(apply, rollback);
  REQUIRE(recovery.ok());
  return std::move(recovery).value();
}

int renames_of_a_clean_apply() {
  TempDir dir;
  FaultyFileSystem counting;
  crash_apply(counting, dir.path());
  return counting.calls(Op::rename_replace) + counting.calls(Op::rename_no_replace);
}

}  // namespace

TEST_CASE("shell: recover finishes every interrupted apply, forward or back") {
  const int renames = renames_of_a_clean_apply();
  int interrupted = 0;
  for (const bool rollback : {false, true}) {
    for (int nth = 1; nth <= renames; ++nth) {
      for (const Op op : {Op::rename_replace, Op::rename_no_replace}) {
        CAPTURE(rollback);
        CAPTURE(nth);
        TempDir dir;
        FaultyFileSystem faulty;
        faulty.crash_on_fault();
        faulty.fail_nth(op, nth);
        const Crash crash = crash_apply(faulty, dir.path());
        const Recovery before = recover_at(dir.path(), false, false);
        if (before.clean()) continue;  // the fault struck before the journal or after the commit
        ++interrupted;
        REQUIRE(before.transactions.size() == 1);
        CHECK(before.transactions[0].complete_safe);
        const Recovery after = recover_at(dir.path(), true, rollback);
        CHECK(after.clean());
        CHECK(after.findings.empty());
        const std::string inbox = read_bytes(dir.path() / "docs/memory/inbox.md");
        const std::string changelog = read_bytes(dir.path() / "docs/memory/changelog.md");
        if (before.transactions[0].phase == "committing" && !rollback) {
          CHECK(inbox == crash.new_inbox);
          CHECK(changelog == crash.new_changelog);
        } else {
          CHECK(inbox == kInbox);
          CHECK(changelog == kChangelog);
        }
        CHECK(recover_at(dir.path(), false, false).clean());
      }
    }
  }
  CHECK(interrupted > 2);  // prepared and committing phases were both reached
}

// The inode of a file (which file it is, whatever its name).
std::uint64_t inode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_ino;
}

TEST_CASE("shell: a journal keeps a replaced file by a second name, and moves a prepared file "
          "into place") {
  // A crash at the second target's replacement (changelog.md): inbox.md is at its output.
  TempDir dir;
  const fs::path memory = dir.path() / "docs/memory";
  FaultyFileSystem faulty;
  faulty.crash_on_fault();
  faulty.fail_nth(Op::rename_replace, 2);
  write_bytes(memory / "inbox.md", kInbox);
  const std::uint64_t old_inbox = inode_of(memory / "inbox.md");
  const Crash crash = crash_apply(faulty, dir.path());
  REQUIRE(read_bytes(memory / "inbox.md") == crash.new_inbox);
  REQUIRE(read_bytes(memory / "changelog.md") == kChangelog);
  const std::vector<std::string> txns = tree_of(dir.path() / ".memkit/txn");
  REQUIRE_FALSE(txns.empty());
  const fs::path txn = dir.path() / ".memkit/txn" / txns[0].substr(0, txns[0].find('/'));
  // Write order: inbox.md (0), then changelog.md (1). No copy of either file was made, and the
  // new inbox.md is the prepared file itself, moved (a file of one name, as a reader at its end
  // requires).
  CHECK(inode_of(txn / "b-0") == old_inbox);
  CHECK(read_bytes(txn / "b-0") == kInbox);
  CHECK(inode_of(txn / "b-1") == inode_of(memory / "changelog.md"));
  CHECK_FALSE(fs::exists(txn / "p-0"));
  CHECK(fs::hard_link_count(memory / "inbox.md") == 1);
  CHECK(read_bytes(txn / "p-1") == crash.new_changelog);
  // Undone, each file is itself again, of one name.
  const Recovery after = recover_at(dir.path(), true, true);
  CHECK(after.clean());
  CHECK(read_bytes(memory / "inbox.md") == kInbox);
  CHECK(read_bytes(memory / "changelog.md") == kChangelog);
  CHECK(fs::hard_link_count(memory / "inbox.md") == 1);
  CHECK(fs::hard_link_count(memory / "changelog.md") == 1);
}

TEST_CASE("shell: recover copies back no backup or prepared file whose bytes changed") {
  for (const bool rollback : {false, true}) {
    CAPTURE(rollback);
    TempDir dir;
    const fs::path memory = dir.path() / "docs/memory";
    FaultyFileSystem faulty;
    faulty.crash_on_fault();
    faulty.fail_nth(Op::rename_replace, 2);
    const Crash crash = crash_apply(faulty, dir.path());
    const std::vector<std::string> txns = tree_of(dir.path() / ".memkit/txn");
    REQUIRE_FALSE(txns.empty());
    const fs::path txn = dir.path() / ".memkit/txn" / txns[0].substr(0, txns[0].find('/'));
    // Rolled back, inbox.md needs its backup; finished, changelog.md needs its prepared file.
    write_bytes(txn / (rollback ? "b-0" : "p-1"), "changed in the journal\n");
    WorkspaceOptions options;
    options.project_root = dir.path().string();
    Result<Workspace> ws = Workspace::open(posix_file_system(), custodian_layout(), options);
    REQUIRE(ws.ok());
    auto lock = ws->lock();
    const Result<Recovery> recovery = ws->recover(true, rollback);
    REQUIRE_FALSE(recovery.ok());
    CHECK(recovery.status().message().find("does not hold the bytes its journal names") !=
          std::string::npos);
    CHECK(read_bytes(memory / "inbox.md") == crash.new_inbox);
    CHECK(read_bytes(memory / "changelog.md") == kChangelog);
    CHECK_FALSE(tree_of(dir.path() / ".memkit/txn").empty());
  }
}

TEST_CASE("shell: a target changed after the crash is a conflict and keeps its transaction") {
  const int renames = renames_of_a_clean_apply();
  bool conflicted = false;
  for (int nth = 1; nth <= renames && !conflicted; ++nth) {
    TempDir dir;
    FaultyFileSystem faulty;
    faulty.crash_on_fault();
    faulty.fail_nth(Op::rename_replace, nth);
    crash_apply(faulty, dir.path());
    const Recovery before = recover_at(dir.path(), false, false);
    if (before.clean() || before.transactions[0].phase != "committing") continue;
    write_bytes(dir.path() / "docs/memory/inbox.md", "edited by hand\n");
    const Recovery after = recover_at(dir.path(), true, false);
    REQUIRE(after.transactions.size() == 1);
    CHECK_FALSE(after.transactions[0].complete_safe);
    REQUIRE(after.findings.size() == 1);
    CHECK(after.findings[0].code == "MK-TXN-002");
    CHECK(after.findings[0].path == "inbox.md");
    CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == "edited by hand\n");
    conflicted = true;
  }
  CHECK(conflicted);
}

TEST_CASE("shell: recover that cannot write names the transaction and the target, and keeps it") {
  // A crash at the second target's replacement: inbox.md is still at its base, so finishing the
  // transaction must write it; the disk then refuses every new file.
  const int renames = renames_of_a_clean_apply();
  bool tried = false;
  for (int nth = 1; nth <= renames && !tried; ++nth) {
    TempDir dir;
    FaultyFileSystem faulty;
    faulty.crash_on_fault();
    faulty.fail_nth(Op::rename_replace, nth);
    crash_apply(faulty, dir.path());
    const Recovery before = recover_at(dir.path(), false, false);
    if (before.clean() || before.transactions[0].phase != "committing") continue;
    const bool inbox_at_base = read_bytes(dir.path() / "docs/memory/inbox.md") == kInbox;
    if (!inbox_at_base) continue;
    tried = true;
    FaultyFileSystem full;
    WorkspaceOptions options;
    options.project_root = dir.path().string();
    Result<Workspace> ws = Workspace::open(full, custodian_layout(), options);
    REQUIRE(ws.ok());
    full.fail_nth(Op::write_temporary, 1);
    const Result<Recovery> failed = [&ws] {
      auto lock = ws->lock();  // released before recover_at below takes it again
      REQUIRE(lock.ok());
      return ws->recover(true, false);
    }();
    REQUIRE_FALSE(failed.ok());
    const std::string message = failed.status().message();
    CHECK(message.rfind(
              "transaction " + before.transactions[0].txid + ": finishing inbox.md failed: ", 0) ==
          0);
    CHECK(message.find("injected fault") != std::string::npos);
    CHECK(message.find("the transaction is kept") != std::string::npos);
    CHECK(message.find("--apply --rollback") != std::string::npos);
    CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") == kInbox);
    // Kept: once the disk takes writes again, recover finishes it.
    CHECK_FALSE(recover_at(dir.path(), false, false).clean());
    CHECK(recover_at(dir.path(), true, false).clean());
    CHECK(read_bytes(dir.path() / "docs/memory/inbox.md") != kInbox);
  }
  CHECK(tried);
}

namespace {

// A temporary as a write killed before its rename leaves it, last modified `age` ago.
void leave_temporary(const fs::path& path, std::chrono::seconds age) {
  write_bytes(path, "half a file");
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

}  // namespace

TEST_CASE("shell: recover removes the temporaries of dead writes, not those of live ones") {
  TempDir dir;
  write_bytes(dir.path() / "docs/memory/manifest.md", "# M\n");
  write_bytes(dir.path() / "docs/memory/inbox.md", kInbox);
  fs::create_directories(dir.path() / "docs/memory/areas");
  fs::create_directories(dir.path() / ".memkit");
  const fs::path dead_in_memory = dir.path() / "docs/memory/.memkit-tmp-0123456789abcdef";
  const fs::path dead_in_folder = dir.path() / "docs/memory/areas/.memkit-tmp-fedcba9876543210";
  const fs::path dead_in_state = dir.path() / ".memkit/.memkit-tmp-00000000000000aa";
  leave_temporary(dead_in_memory, std::chrono::seconds(60));
  leave_temporary(dead_in_folder, std::chrono::seconds(60));
  leave_temporary(dead_in_state, std::chrono::seconds(60));
  // Made after the lock was taken: a lockless write (init) may still be about to rename it.
  const fs::path live = dir.path() / "docs/memory/.memkit-tmp-live00000000000";
  leave_temporary(live, std::chrono::seconds(-60));
  // Not a temporary's name: never touched.
  const fs::path other = dir.path() / "docs/memory/.memkit-tmp";
  leave_temporary(other, std::chrono::seconds(60));

  const Recovery listed = recover_at(dir.path(), false, false);
  CHECK(listed.clean());
  CHECK(fs::exists(dead_in_memory));  // a dry run removes nothing

  const Recovery applied = recover_at(dir.path(), true, false);
  CHECK(applied.clean());
  CHECK_FALSE(fs::exists(dead_in_memory));
  CHECK_FALSE(fs::exists(dead_in_folder));
  CHECK_FALSE(fs::exists(dead_in_state));
  CHECK(fs::exists(live));
  CHECK(fs::exists(other));
  CHECK(fs::exists(dir.path() / "docs/memory/inbox.md"));
}

TEST_CASE("shell: a write sweeps its folders of dead temporaries first") {
  TempDir dir;
  FaultyFileSystem faulty;
  const fs::path dead = dir.path() / "docs/memory/.memkit-tmp-0123456789abcdef";
  fs::create_directories(dir.path() / "docs/memory");
  leave_temporary(dead, std::chrono::seconds(60));
  crash_apply(faulty, dir.path());  // no fault: a clean apply of inbox.md and changelog.md
  CHECK_FALSE(fs::exists(dead));
  const std::string inbox = read_bytes(dir.path() / "docs/memory/inbox.md");
  CHECK(inbox != kInbox);
}

TEST_CASE(
    "shell: a journal or applied record whose fields have the wrong types is read, not thrown") {
  // Found by fuzz/journal_fuzz.cpp: nlohmann's value() threw type_error, ending the process.
  TempDir dir;
  write_bytes(dir.path() / "docs/memory/manifest.md", "# M\n");
  const fs::path txn = dir.path() / ".memkit/txn/0123456789abcdef0123456789abcdef";
  write_bytes(txn / "journal.json", R"({"phase": 1, "command": [], "targets": 5})");
  const Recovery listed = recover_at(dir.path(), false, false);
  REQUIRE(listed.transactions.size() == 1);
  CHECK(listed.transactions[0].phase == "prepared");  // no readable phase: discarded as prepared
  WorkspaceOptions options;
  options.project_root = dir.path().string();
  Result<Workspace> ws = Workspace::open(posix_file_system(), custodian_layout(), options);
  REQUIRE(ws.ok());
  // Targets that are no objects, or whose path is no string, name no file: a status at most.
  write_bytes(txn / "journal.json",
              R"({"phase": "prepared", "targets": [7, {"path": 1, "base_exists": "yes"}]})");
  CHECK_NOTHROW((void)ws->recover(false, false));

  write_bytes(dir.path() / ".memkit/applied/0123456789abcdef/applied.json",
              R"({"plan_id": 3, "targets": [{"path": 1, "base_exists": "no"}]})");
  const Result<std::optional<AppliedRecord>> record = ws->read_applied_record("0123456789abcdef");
  REQUIRE_FALSE(record.ok());
  CHECK(record.status().message() ==
        ".memkit/applied/0123456789abcdef/applied.json: unsafe target path");
}

TEST_CASE("shell: recover never writes a target the journal names outside the memory folder") {
  // Found by fuzz/journal_fuzz.cpp: "../" in a target path was rolled forward outside the root.
  TempDir dir;
  write_bytes(dir.path() / "docs/memory/manifest.md", "# M\n");
  const fs::path txn = dir.path() / ".memkit/txn/0123456789abcdef0123456789abcdef";
  write_bytes(txn / "prepared-0", "forged\n");
  write_bytes(
      txn / "journal.json",
      R"({"phase": "committing", "targets": [{"path": "../../outside.md", "mode": "create",)"
      R"( "base_exists": false, "output_sha256": "x", "prepared": "prepared-0"}]})");
  const Recovery after = recover_at(dir.path(), true, false);
  CHECK_FALSE(fs::exists(dir.path() / "outside.md"));
  REQUIRE(after.transactions.size() == 1);
  REQUIRE(after.findings.size() == 1);
  CHECK(after.findings[0].code == "MK-TXN-002");
  CHECK(after.findings[0].message.find("outside the memory folder") != std::string::npos);
}

}  // namespace memkit::shell_test
