// CuratedStore on real folders (spec curated.md §2, §6): reads that never follow a link below the
// root, appends in one write that refuse links, and a write of a row file and its history that a
// crash leaves old or new, never mixed.
#include "store/curated_store.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "faulty_file_system.hpp"
#include "memkit/plan.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

CuratedStore open_store(FileSystem& fs, const fs::path& root) {
  Result<CuratedStore> store = CuratedStore::open(fs, root.string());
  REQUIRE(store.ok());
  return std::move(store).value();
}

EntryState state_of(const CuratedStore& store, const std::string& path) {
  const Result<Snapshot> read = store.read({path});
  REQUIRE(read.ok());
  return read->find(path)->state;
}

ClockReading at_nine() {
  Result<ClockReading> now = ClockReading::parse_rfc3339("2026-11-30T09:00:00Z");
  REQUIRE(now.ok());
  return *now;
}

// The whole of `before` (missing when empty) replaced by `after`.
PlanOperation replace(const std::string& path, const std::string& before,
                      const std::string& after) {
  return plan_write(path, std::make_shared<const std::string>(before), !before.empty(),
                    {Splice{.begin = 0, .end = before.size(), .insert = after}});
}

}  // namespace

TEST_CASE("shell: a curated store reads files, and marks links below the root without following") {
  TempDir dir;
  const fs::path root = dir.path() / "store";
  write_bytes(root / "rows/ws1/project.md", "# Curated memory: project\n");
  write_bytes(dir.path() / "elsewhere/user.md", "secret\n");
  fs::create_symlink(dir.path() / "elsewhere/user.md", root / "rows/ws1/user.md");
  fs::create_directories(root / "log");
  fs::create_symlink(dir.path() / "elsewhere", root / "log/ws1");
  CuratedStore store = open_store(posix_file_system(), root);

  CHECK(state_of(store, "rows/ws1/project.md") == EntryState::file);
  CHECK(state_of(store, "rows/ws1/user.md") == EntryState::symlink);
  CHECK(state_of(store, "log/ws1/user.md") == EntryState::symlink);  // a linked folder on the way
  CHECK(state_of(store, "rows/ws2/project.md") == EntryState::missing);
  const Result<std::vector<std::string>> listed = store.file_names("log/ws1");
  REQUIRE_FALSE(listed.ok());
  CHECK(listed.status().code() == Errc::unsafe_path);
}

TEST_CASE("shell: the store root may be a link, and a missing one is an empty store") {
  TempDir dir;
  write_bytes(dir.path() / "real/rows/ws1/project.md", "x\n");
  fs::create_symlink(dir.path() / "real", dir.path() / "store");
  CuratedStore linked = open_store(posix_file_system(), dir.path() / "store");
  CHECK(state_of(linked, "rows/ws1/project.md") == EntryState::file);

  CuratedStore missing = open_store(posix_file_system(), dir.path() / "none");
  CHECK(state_of(missing, "rows/ws1/project.md") == EntryState::missing);
  CHECK_FALSE(fs::exists(dir.path() / "none"));  // reading made nothing

  write_bytes(dir.path() / "file", "x\n");
  const Result<CuratedStore> not_a_folder =
      CuratedStore::open(posix_file_system(), (dir.path() / "file").string());
  REQUIRE_FALSE(not_a_folder.ok());
  CHECK(not_a_folder.status().code() == Errc::invalid_argument);
}

TEST_CASE("shell: appends make their folders, add whole lines, and refuse links") {
  TempDir dir;
  const fs::path root = dir.path() / "store";
  CuratedStore store = open_store(posix_file_system(), root);
  REQUIRE(store.append("log/ws1/access.jsonl", "{\"a\":1}\n").ok());
  REQUIRE(store.append("log/ws1/access.jsonl", "{\"b\":2}\n{\"c\":3}\n").ok());
  CHECK(read_bytes(root / "log/ws1/access.jsonl") == "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n");

  write_bytes(dir.path() / "target.jsonl", "old\n");
  fs::create_symlink(dir.path() / "target.jsonl", root / "log/ws1/linked.jsonl");
  const Status through_file = store.append("log/ws1/linked.jsonl", "new\n");
  CHECK(through_file.code() == Errc::unsafe_path);
  fs::create_symlink(dir.path(), root / "floors");
  const Status through_folder = store.append("floors/events/2026-11-30.jsonl", "new\n");
  CHECK(through_folder.code() == Errc::unsafe_path);
  CHECK(read_bytes(dir.path() / "target.jsonl") == "old\n");
  CHECK_FALSE(fs::exists(dir.path() / "events"));  // nothing made through the linked folder
}

TEST_CASE("shell: a failed append is reported, and the file keeps what it had") {
  TempDir dir;
  const fs::path root = dir.path() / "store";
  FaultyFileSystem faulty;
  CuratedStore store = open_store(faulty, root);
  REQUIRE(store.append("log/ws1/access.jsonl", "one\n").ok());
  faulty.fail_nth(Op::append_file, 1);
  CHECK_FALSE(store.append("log/ws1/access.jsonl", "two\n").ok());
  CHECK(read_bytes(root / "log/ws1/access.jsonl") == "one\n");
}

TEST_CASE("shell: a row file and its history are written together, or recovery finishes them") {
  const std::string rows_before = "# Curated memory: project\n";
  const std::string rows_after = "# Curated memory: project\n\n## project_a\nType: project\n\nx\n";
  const std::string history_after = "{\"op\":\"insert\"}\n";
  int interrupted = 0;
  for (int nth = 1; nth <= 4; ++nth) {
    CAPTURE(nth);
    TempDir dir;
    const fs::path root = dir.path() / "store";
    write_bytes(root / "rows/ws1/project.md", rows_before);
    FaultyFileSystem faulty;
    CuratedStore store = open_store(faulty, root);
    {
      Result<std::unique_ptr<LockHandle>> lock = store.lock(1.0);
      REQUIRE(lock.ok());
      faulty.fail_nth(Op::rename_replace, nth);
      const Result<std::vector<std::string>> written =
          store.write("curated add",
                      {replace("rows/ws1/project.md", rows_before, rows_after),
                       replace("log/ws1/history.jsonl", "", history_after)},
                      at_nine());
      if (written.ok()) {
        CHECK(*written == std::vector<std::string>{"rows/ws1/project.md", "log/ws1/history.jsonl"});
      }
    }
    CuratedStore again = open_store(posix_file_system(), root);
    Result<std::unique_ptr<LockHandle>> lock = again.lock(1.0);
    REQUIRE(lock.ok());
    const Result<Recovery> listed = again.recover(false, false);
    REQUIRE(listed.ok());
    if (!listed->clean()) {
      ++interrupted;
      REQUIRE(again.recover(true, false).ok());
    }
    const std::string rows = read_bytes(root / "rows/ws1/project.md");
    const bool history = fs::exists(root / "log/ws1/history.jsonl");
    if (rows == rows_after) {
      CHECK(read_bytes(root / "log/ws1/history.jsonl") == history_after);
    } else {
      CHECK(rows == rows_before);
      CHECK((!history || read_bytes(root / "log/ws1/history.jsonl").empty()));
    }
  }
  CHECK(interrupted > 0);
}

TEST_CASE("shell: a journal backs a log up by a copy, and a row file by a second name") {
  // A reader at a log's end, without the lock, refuses a file of two names: while a rewrite of
  // history.jsonl is under way, its backup must not be one. A crash at the second replacement
  // (history.jsonl, after project.md) shows both backups.
  const std::string rows_before = "# Curated memory: project\n";
  const std::string rows_after = "# Curated memory: project\n\n## project_a\nType: project\n\nx\n";
  const std::string history_before = "{\"op\":\"insert\"}\n";
  TempDir dir;
  const fs::path root = dir.path() / "store";
  write_bytes(root / "rows/ws1/project.md", rows_before);
  write_bytes(root / "log/ws1/history.jsonl", history_before);
  FaultyFileSystem faulty;
  faulty.crash_on_fault();
  CuratedStore store = open_store(faulty, root);
  {
    Result<std::unique_ptr<LockHandle>> lock = store.lock(1.0);
    REQUIRE(lock.ok());
    faulty.fail_nth(Op::rename_replace, 2);
    REQUIRE_FALSE(store
                      .write("curated delete",
                             {replace("rows/ws1/project.md", rows_before, rows_after),
                              replace("log/ws1/history.jsonl", history_before, "")},
                             at_nine())
                      .ok());
  }
  REQUIRE(read_bytes(root / "rows/ws1/project.md") == rows_after);
  const std::vector<std::string> txns = tree_of(root / ".memkit/txn");
  REQUIRE_FALSE(txns.empty());
  const fs::path txn = root / ".memkit/txn" / txns[0].substr(0, txns[0].find('/'));
  // Commit order: rows/ first (0), then the log (1).
  CHECK(read_bytes(txn / "b-0") == rows_before);
  CHECK(fs::hard_link_count(txn / "b-0") == 1);  // project.md's old file: its only name now
  CHECK(read_bytes(txn / "b-1") == history_before);
  CHECK(fs::hard_link_count(root / "log/ws1/history.jsonl") == 1);
  const Result<Snapshot> read =
      open_store(posix_file_system(), root).read({}, {"log/ws1/history.jsonl"});
  REQUIRE(read.ok());
  CHECK(read->find("log/ws1/history.jsonl")->state == EntryState::file);
}

}  // namespace memkit::shell_test
