// `custodian init` on real folders (spec compaction.md §16, README.md "State directory"): the
// exact files, never an overwrite, idempotence, and an interrupted init that leaves only
// complete files and is finished by running init again.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "faulty_file_system.hpp"
#include "memkit/version.hpp"
#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

ClockReading late_evening_in_new_york() {
  // 2026-03-08T03:30:00Z is still 2026-03-07 at -05:00: the changelog takes the local date.
  return ClockReading::parse_rfc3339("2026-03-07T22:30:00-05:00").value();
}

Result<InitResult> init_at(FileSystem& fs, const fs::path& root, bool extended,
                           const std::string& memory_dir = {}, double lock_timeout = 10.0) {
  WorkspaceOptions options;
  options.project_root = root.string();
  options.memory_dir = memory_dir;
  options.lock_timeout_seconds = lock_timeout;
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), std::move(options));
  if (!ws) return ws.status();
  const Result<std::unique_ptr<LockHandle>> lock = ws->lock();
  if (!lock) return lock.status();
  return ws->init_custodian(extended, late_evening_in_new_york());
}

std::vector<custodian::TemplateFile> templates(bool extended) {
  return custodian::init_templates(extended, version(), late_evening_in_new_york());
}

std::vector<std::string> template_paths(bool extended) {
  std::vector<std::string> out;
  for (const custodian::TemplateFile& file : templates(extended)) out.push_back(file.path);
  return out;
}

// The tree `init` leaves under the project root.
std::vector<std::string> expected_tree(bool extended) {
  std::vector<std::string> out = {".memkit/", ".memkit/.gitignore", ".memkit/lock", "docs/",
                                  "docs/memory/"};
  for (const std::string& path : template_paths(extended)) {
    out.push_back("docs/memory/" + path);
    if (const std::size_t slash = path.find('/'); slash != std::string::npos) {
      out.push_back("docs/memory/" + path.substr(0, slash + 1));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::map<std::string, std::string> contents_of(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const std::string& entry : tree_of(root)) {
    if (entry.back() == '/') continue;
    out[entry] = read_bytes(root / entry);
  }
  return out;
}

TEST_CASE("shell: init creates exactly the core files, in order, with the template bytes") {
  TempDir dir;
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), false);
  REQUIRE(result.ok());
  CHECK(result->memory_dir == "docs/memory");
  CHECK(result->created == std::vector<std::string>{"manifest.md", "brief.md", "decisions.md",
                                                    "constraints.md", "do-not-use.md", "inbox.md"});
  CHECK(result->existing.empty());
  CHECK(tree_of(dir.path()) == expected_tree(false));
  for (const custodian::TemplateFile& file : templates(false)) {
    CAPTURE(file.path);
    const fs::path path = dir.path() / "docs" / "memory" / file.path;
    CHECK(read_bytes(path) == file.bytes);
    CHECK(mode_of(path) == 0644);
  }
  CHECK(read_bytes(dir.path() / ".memkit" / ".gitignore") == "*\n");
}

TEST_CASE(
    "shell: init --extended adds the optional files, the folder READMEs and a dated changelog") {
  TempDir dir;
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), true);
  REQUIRE(result.ok());
  CHECK(result->created == template_paths(true));
  CHECK(result->created.size() == 12);
  CHECK(tree_of(dir.path()) == expected_tree(true));
  for (const custodian::TemplateFile& file : templates(true)) {
    CAPTURE(file.path);
    CHECK(read_bytes(dir.path() / "docs" / "memory" / file.path) == file.bytes);
  }
  const std::string changelog = read_bytes(dir.path() / "docs/memory/changelog.md");
  CHECK(changelog.rfind("# Memory Changelog\n", 0) == 0);
  CHECK(changelog.find("\n## 2026-03-07\n- changelog enabled\n") != std::string::npos);
  for (const char* readme :
       {"rules/README.md", "profiles/README.md", "areas/README.md", "archive/README.md"}) {
    CHECK(fs::is_regular_file(dir.path() / "docs/memory" / readme));
  }
}

TEST_CASE("shell: init writes the §16 titles and placeholders") {
  TempDir dir;
  REQUIRE(init_at(posix_file_system(), dir.path(), true).ok());
  const fs::path memory = dir.path() / "docs" / "memory";
  const std::vector<std::pair<std::string, std::string>> titles = {
      {"decisions.md", "# Decisions\n"},     {"constraints.md", "# Constraints\n"},
      {"do-not-use.md", "# Do Not Use\n"},   {"inbox.md", "# Memory Inbox\n"},
      {"preferences.md", "# Preferences\n"}, {"changelog.md", "# Memory Changelog\n"}};
  for (const auto& [path_, title] : titles) {
    const auto& path = path_;  // clang 14 cannot capture a structured binding
    CAPTURE(path);
    CHECK(read_bytes(memory / path).rfind(title, 0) == 0);
  }
  const std::string brief = read_bytes(memory / "brief.md");
  std::size_t placeholders = 0;
  for (std::size_t at = brief.find("\n- TODO(memkit)"); at != std::string::npos;
       at = brief.find("\n- TODO(memkit)", at + 1)) {
    ++placeholders;
  }
  CHECK(placeholders == 3);
  const std::string manifest = read_bytes(memory / "manifest.md");
  CHECK(manifest.find("## MemoryCustodian Protocol\n\n- protocol_version: 0.7\n") !=
        std::string::npos);
  CHECK(manifest.find("- initialized_with: memkit " + std::string(version()) + "\n") !=
        std::string::npos);
  CHECK(manifest.find("\n## Explicit only\n\n- archive/\n") != std::string::npos);
}

TEST_CASE("shell: init never overwrites an existing file") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  const std::string brief = "# Brief\r\n\r\n- our own words\r\n";
  const std::string readme = "# Our rules\n";
  const std::string ignore = "lock\ntxn/\n";
  write_bytes(memory / "brief.md", brief);
  set_mode_of(memory / "brief.md", 0600);
  write_bytes(memory / "rules" / "README.md", readme);
  write_bytes(dir.path() / ".memkit" / ".gitignore", ignore);

  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), true);
  REQUIRE(result.ok());
  CHECK(result->existing == std::vector<std::string>{"brief.md", "rules/README.md"});
  CHECK(result->created.size() == 10);
  CHECK(read_bytes(memory / "brief.md") == brief);
  CHECK(mode_of(memory / "brief.md") == 0600);
  CHECK(read_bytes(memory / "rules" / "README.md") == readme);
  CHECK(read_bytes(dir.path() / ".memkit" / ".gitignore") == ignore);
  CHECK(temporaries_under(dir.path()).empty());
}

TEST_CASE("shell: init is idempotent") {
  for (const bool extended : {false, true}) {
    CAPTURE(extended);
    TempDir dir;
    REQUIRE(init_at(posix_file_system(), dir.path(), extended).ok());
    const std::map<std::string, std::string> before = contents_of(dir.path());
    FaultyFileSystem watching;
    const Result<InitResult> again = init_at(watching, dir.path(), extended);
    REQUIRE(again.ok());
    CHECK(again->created.empty());
    CHECK(again->existing == template_paths(extended));
    CHECK(contents_of(dir.path()) == before);
    CHECK(watching.calls(Op::write_temporary) == 0);
    CHECK(watching.calls(Op::create_directory) == 0);
  }
}

TEST_CASE("shell: init --extended after a core init adds only the extended files") {
  TempDir dir;
  REQUIRE(init_at(posix_file_system(), dir.path(), false).ok());
  const std::map<std::string, std::string> core = contents_of(dir.path());
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), true);
  REQUIRE(result.ok());
  CHECK(result->existing == template_paths(false));
  CHECK(result->created == std::vector<std::string>{"preferences.md", "changelog.md",
                                                    "rules/README.md", "profiles/README.md",
                                                    "areas/README.md", "archive/README.md"});
  for (const auto& [path, bytes] : core) CHECK(read_bytes(dir.path() / path) == bytes);
  CHECK(tree_of(dir.path()) == expected_tree(true));
}

TEST_CASE("shell: init honours --memory-dir") {
  TempDir dir;
  const Result<InitResult> result =
      init_at(posix_file_system(), dir.path(), false, "docs/team/memory");
  REQUIRE(result.ok());
  CHECK(result->memory_dir == "docs/team/memory");
  CHECK(fs::is_regular_file(dir.path() / "docs/team/memory/manifest.md"));
  CHECK_FALSE(fs::exists(dir.path() / "docs/memory"));
}

// Every file present under the memory folder is complete: it holds its template bytes exactly.
void check_only_complete_files(const fs::path& root, bool extended) {
  const fs::path memory = root / "docs" / "memory";
  std::map<std::string, std::string> wanted;
  for (const custodian::TemplateFile& file : templates(extended)) wanted[file.path] = file.bytes;
  if (fs::exists(memory)) {
    for (const std::string& entry : tree_of(memory)) {
      if (entry.back() == '/') continue;
      CAPTURE(entry);
      REQUIRE(wanted.count(entry) == 1);
      CHECK(read_bytes(memory / entry) == wanted[entry]);
    }
  }
  const fs::path ignore = root / ".memkit" / ".gitignore";
  if (fs::exists(ignore)) CHECK(read_bytes(ignore) == "*\n");
  CHECK(temporaries_under(root).empty());
}

TEST_CASE("shell: an init interrupted at any step leaves complete files, and init again finishes") {
  int interruptions = 0;
  for (const bool extended : {false, true}) {
    for (const Op op : {Op::write_temporary, Op::set_mode, Op::rename_no_replace,
                        Op::sync_directory, Op::create_directory}) {
      for (const Timing timing : {Timing::before, Timing::after}) {
        if (op == Op::write_temporary && timing == Timing::after) continue;
        // Extended files are written by the same code as core ones; what --extended adds is
        // the module and archive folders, so it only needs the folder and first-step faults.
        if (extended && op != Op::create_directory && op != Op::write_temporary) continue;
        for (int nth = 1;; ++nth) {
          CAPTURE(extended);
          CAPTURE(op_name(op));
          CAPTURE(timing == Timing::before ? "before" : "after");
          CAPTURE(nth);
          TempDir dir;
          FaultyFileSystem faulty;
          faulty.fail_nth(op, nth, timing);
          const Result<InitResult> interrupted = init_at(faulty, dir.path(), extended);
          if (!faulty.fault_struck()) {
            // Past the last call of this operation: init ran to the end.
            REQUIRE(interrupted.ok());
            break;
          }
          ++interruptions;
          REQUIRE_FALSE(interrupted.ok());
          CHECK(interrupted.status().message().find("injected fault") != std::string::npos);
          check_only_complete_files(dir.path(), extended);

          const Result<InitResult> resumed = init_at(posix_file_system(), dir.path(), extended);
          REQUIRE(resumed.ok());
          CHECK(tree_of(dir.path()) == expected_tree(extended));
          check_only_complete_files(dir.path(), extended);
          REQUIRE(nth < 100);
        }
      }
    }
  }
  // Core: 7 files (.gitignore included) written by 4 faultable calls, 3 folders; extended: 13
  // files and 7 folders.
  CHECK(interruptions == 55 + 27);
}

TEST_CASE("shell: init waits for the state lock and gives up without writing") {
  TempDir dir;
  fs::create_directories(dir.path() / ".memkit");
  Result<std::unique_ptr<LockHandle>> held =
      posix_file_system().lock_exclusive((dir.path() / ".memkit" / "lock").string(), 1.0);
  REQUIRE(held.ok());
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), false, {}, 0.05);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::lock_busy);
  CHECK(tree_of(dir.path()) == std::vector<std::string>{".memkit/", ".memkit/lock"});
  held.value().reset();
  CHECK(init_at(posix_file_system(), dir.path(), false, {}, 0.05).ok());
}

TEST_CASE("shell: init refuses a symbolic link in place of .memkit") {
  TempDir dir;
  fs::create_directories(dir.path() / "elsewhere");
  fs::create_directory_symlink(dir.path() / "elsewhere", dir.path() / ".memkit");
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), false);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::unsafe_path);
  CHECK(tree_of(dir.path() / "elsewhere").empty());
  CHECK_FALSE(fs::exists(dir.path() / "docs"));
}

// Was a bug: the lock failure names the lock by its absolute path ("<root>/.memkit/lock: lock not
// acquired within the timeout"), and the CLI prints that message as it is, although paths in
// output are never absolute (spec README.md "Paths in output").
TEST_CASE("shell: init's lock failure names no absolute path") {
  TempDir dir;
  fs::create_directories(dir.path() / ".memkit");
  Result<std::unique_ptr<LockHandle>> held =
      posix_file_system().lock_exclusive((dir.path() / ".memkit" / "lock").string(), 1.0);
  REQUIRE(held.ok());
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), false, {}, 0.05);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::lock_busy);
  CHECK(result.status().message().find(dir.str()) == std::string::npos);
}

TEST_CASE("shell: init refuses to create files through a symbolic link inside the memory folder") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  fs::create_directories(memory);
  fs::create_directories(dir.path() / "elsewhere");
  fs::create_directory_symlink(dir.path() / "elsewhere", memory / "rules");
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), true);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::unsafe_path);
  CHECK(tree_of(dir.path() / "elsewhere").empty());
}

TEST_CASE("shell: init refuses a symbolic link in a template file's place") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  fs::create_directories(memory);
  write_bytes(dir.path() / "outside.md", "outside\n");
  fs::create_symlink(dir.path() / "outside.md", memory / "brief.md");
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), false);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::unsafe_path);
  CHECK(result.status().message() ==
        "docs/memory/brief.md: is a symbolic link; memkit does not write through links");
  CHECK(read_bytes(dir.path() / "outside.md") == "outside\n");
  CHECK(fs::is_symlink(memory / "brief.md"));
}

TEST_CASE("shell: init refuses a directory in a template file's place") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  fs::create_directories(memory / "brief.md");
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), false);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::io);
  CHECK(result.status().message() == "docs/memory/brief.md: exists and is not a regular file");
  CHECK(fs::is_directory(memory / "brief.md"));
}

TEST_CASE("shell: init refuses a linked module folder even when its README exists there") {
  TempDir dir;
  const fs::path memory = dir.path() / "docs" / "memory";
  fs::create_directories(memory);
  write_bytes(dir.path() / "elsewhere" / "README.md", "someone else's\n");
  fs::create_directory_symlink(dir.path() / "elsewhere", memory / "rules");
  const Result<InitResult> result = init_at(posix_file_system(), dir.path(), true);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == Errc::unsafe_path);
  CHECK(read_bytes(dir.path() / "elsewhere" / "README.md") == "someone else's\n");
}

}  // namespace
}  // namespace memkit::shell_test
