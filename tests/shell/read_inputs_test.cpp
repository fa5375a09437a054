// Workspace::read_custodian_inputs on real folders (spec compaction.md §3, §15): which files a
// report sees, in what state, and that reading writes nothing.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "faulty_file_system.hpp"
#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

Result<CustodianInputs> read_at(FileSystem& fs, const fs::path& root) {
  WorkspaceOptions options;
  options.project_root = root.string();
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), std::move(options));
  if (!ws) return ws.status();
  return ws->read_custodian_inputs();
}

std::vector<std::string> paths_of(const Snapshot& snapshot) {
  std::vector<std::string> out;
  for (const FileSnapshot& file : snapshot.files()) out.push_back(file.path);
  return out;
}

const FileSnapshot& entry(const CustodianInputs& inputs, const std::string& path) {
  const FileSnapshot* found = inputs.snapshot.find(path);
  REQUIRE_MESSAGE(found != nullptr, path);
  return *found;
}

const std::vector<std::string> kFixedFiles = {"manifest.md",    "brief.md",      "decisions.md",
                                              "constraints.md", "do-not-use.md", "inbox.md",
                                              "preferences.md", "changelog.md"};

TEST_CASE("shell: module files are found in rules/, profiles/ and areas/, README.md excluded") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  write_bytes(memory / "brief.md", "# Brief\n");
  write_bytes(memory / "rules" / "testing.md", "- a\n");
  write_bytes(memory / "rules" / "README.md", "# Rules\n");
  write_bytes(memory / "rules" / "notes.txt", "not markdown\n");
  write_bytes(memory / "rules" / "nested" / "deep.md", "- too deep\n");
  write_bytes(memory / "profiles" / "review.md", "- b\n");
  write_bytes(memory / "areas" / "payments.md", "- c\n");
  write_bytes(memory / "areas" / "README.md", "# Areas\n");
  write_bytes(memory / "other" / "stray.md", "- not a module folder\n");
  write_bytes(memory / "stray.md", "- not a layout file\n");

  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  CHECK(inputs->memory_dir == "docs/memory");
  CHECK(inputs->memory_dir_exists);
  std::vector<std::string> expected = kFixedFiles;
  for (const char* module : {"areas/payments.md", "profiles/review.md", "rules/testing.md"}) {
    expected.emplace_back(module);
  }
  std::sort(expected.begin(), expected.end());
  CHECK(paths_of(inputs->snapshot) == expected);
  CHECK(entry(*inputs, "rules/testing.md").state == EntryState::file);
  CHECK(entry(*inputs, "rules/testing.md").text() == "- a\n");
  CHECK(entry(*inputs, "brief.md").state == EntryState::file);
  CHECK(entry(*inputs, "decisions.md").state == EntryState::missing);
  CHECK(entry(*inputs, "preferences.md").state == EntryState::missing);
}

TEST_CASE("shell: files are read byte for byte") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  const std::string odd = "\xEF\xBB\xBF# T\r\n\r\n- a\rb\r\n- bad \xFF byte\n- last";
  write_bytes(memory / "inbox.md", odd);
  write_bytes(memory / "brief.md", "");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  CHECK(entry(*inputs, "inbox.md").text() == odd);
  CHECK(entry(*inputs, "brief.md").state == EntryState::file);
  CHECK(entry(*inputs, "brief.md").text().empty());
}

TEST_CASE("shell: the archive count holds regular files in archive/, README.md excluded") {
  TempDir dir;
  const fs::path archive = dir.path() / "docs" / "memory" / "archive";
  write_bytes(archive / "README.md", "# Archive\n");
  write_bytes(archive / "decisions-2026-01-01.md", "# Archived\n");
  write_bytes(archive / "changelog-2026-02-01.md", "# Archived\n");
  write_bytes(archive / "notes.txt", "also a file\n");
  fs::create_directories(archive / "folder.md");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  CHECK(inputs->archive_files == 3);
  // Reports never read the archive.
  for (const FileSnapshot& file : inputs->snapshot.files()) {
    CHECK(file.path.rfind("archive/", 0) != 0);
  }
}

TEST_CASE("shell: a directory where a file is expected is not_a_file") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  fs::create_directories(memory / "brief.md");
  fs::create_directories(memory / "rules" / "folder.md");
  write_bytes(memory / "inbox.md", "- a\n");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  CHECK(entry(*inputs, "brief.md").state == EntryState::not_a_file);
  CHECK_FALSE(entry(*inputs, "brief.md").exists());
  CHECK(entry(*inputs, "rules/folder.md").state == EntryState::not_a_file);
  CHECK(entry(*inputs, "inbox.md").state == EntryState::file);
}

TEST_CASE("shell: a file whose read fails is unreadable, and the others are still read") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  write_bytes(memory / "inbox.md", "- a\n");
  write_bytes(memory / "brief.md", "# Brief\n");
  write_bytes(memory / "rules" / "secret.md", "- s\n");
  FaultyFileSystem faulty;
  faulty.fail_reads_of("/inbox.md");
  faulty.fail_reads_of("/rules/secret.md");
  const Result<CustodianInputs> inputs = read_at(faulty, dir.path());
  REQUIRE(inputs.ok());
  for (const char* path : {"inbox.md", "rules/secret.md"}) {
    CAPTURE(path);
    const FileSnapshot& file = entry(*inputs, path);
    CHECK(file.state == EntryState::unreadable);
    CHECK_FALSE(file.exists());
    CHECK(file.bytes == nullptr);
    CHECK(file.error == "permission denied");
  }
  CHECK(entry(*inputs, "brief.md").text() == "# Brief\n");
}

TEST_CASE("shell: a symbolic link in a file's place is marked and never followed") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  write_bytes(dir.path() / "outside.md", "- outside the memory folder\n");
  fs::create_directories(memory / "rules");
  fs::create_symlink(dir.path() / "outside.md", memory / "brief.md");
  fs::create_symlink(dir.path() / "outside.md", memory / "rules" / "linked.md");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  for (const char* path : {"brief.md", "rules/linked.md"}) {
    CAPTURE(path);
    CHECK(entry(*inputs, path).state == EntryState::symlink);
    CHECK(entry(*inputs, path).bytes == nullptr);
  }
}

TEST_CASE("shell: a missing memory folder gives an empty snapshot") {
  TempDir dir;
  fs::create_directories(dir.path() / "docs");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  CHECK_FALSE(inputs->memory_dir_exists);
  CHECK(inputs->snapshot.files().empty());
  CHECK(inputs->archive_files == 0);
  CHECK(inputs->unfinished_transactions == 0);
}

TEST_CASE("shell: every folder under .memkit/txn is an unfinished transaction") {
  TempDir dir;
  fs::create_directories(dir.path() / "docs" / "memory");
  fs::create_directories(dir.path() / ".memkit" / "txn" / "0123456789abcdef0123456789abcdef");
  write_bytes(dir.path() / ".memkit" / "txn" / "fedcba9876543210fedcba9876543210" / "journal.json",
              "{}\n");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  REQUIRE(inputs.ok());
  CHECK(inputs->unfinished_transactions == 2);
}

TEST_CASE("shell: reading the inputs writes nothing") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  write_bytes(memory / "brief.md", "# Brief\n");
  write_bytes(memory / "rules" / "a.md", "- a\n");
  write_bytes(memory / "archive" / "x.md", "# X\n");
  const std::vector<std::string> before = tree_of(dir.path());
  FaultyFileSystem watching;
  REQUIRE(read_at(watching, dir.path()).ok());
  CHECK(watching.log().empty());
  CHECK(tree_of(dir.path()) == before);
}

// Spec §3: "No component between the project root and a managed file may be a symbolic link."
// A linked module folder (or archive folder) is skipped today as if it were absent, so its
// modules silently vanish from every report instead of being refused or flagged.
TEST_CASE("shell: a symbolic link in a module folder's place is not silently ignored") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  write_bytes(dir.path() / "shared-rules" / "testing.md", "- a rule kept elsewhere\n");
  fs::create_directories(memory);
  fs::create_directory_symlink(dir.path() / "shared-rules", memory / "rules");
  const Result<CustodianInputs> inputs = read_at(posix_file_system(), dir.path());
  bool flagged = !inputs.ok();
  if (inputs.ok()) {
    for (const FileSnapshot& file : inputs->snapshot.files()) {
      flagged = flagged || (file.path.rfind("rules", 0) == 0 && !file.exists());
    }
  }
  CHECK_MESSAGE(flagged, "docs/memory/rules is a link, and nothing says so");
}

}  // namespace
}  // namespace memkit::shell_test
