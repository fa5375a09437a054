// Workspace::open on real folders (spec compaction.md §3 "Layout"): where a memory folder may
// live, and that no symbolic link may stand between the project root and it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

Result<Workspace> open_at(const fs::path& root, const std::string& memory_dir = {}) {
  WorkspaceOptions options;
  options.project_root = root.string();
  options.memory_dir = memory_dir;
  return Workspace::open(posix_file_system(), custodian_layout(), std::move(options));
}

TEST_CASE("shell: Workspace::open refuses a project root that is not a directory") {
  TempDir dir;
  write_bytes(dir.path() / "file", "not a folder\n");
  for (const fs::path& root :
       {dir.path() / "missing", dir.path() / "file", dir.path() / "missing" / "deeper"}) {
    CAPTURE(root.string());
    const Result<Workspace> ws = open_at(root);
    REQUIRE_FALSE(ws.ok());
    CHECK(ws.status().code() == Errc::invalid_argument);
    CHECK(ws.status().message().rfind("--project-root: ", 0) == 0);
  }
  CHECK(tree_of(dir.path()) == std::vector<std::string>{"file"});
}

TEST_CASE("shell: --memory-dir must lie strictly inside docs/") {
  TempDir dir;
  fs::create_directories(dir.path() / "docs" / "memory");
  fs::create_directories(dir.path() / "notes" / "memory");
  const std::vector<std::string> refused = {"docs",
                                            "docs/",
                                            "./docs",
                                            "docs/.",
                                            "docs/memory/..",
                                            "notes/memory",
                                            "memory",
                                            ".",
                                            "../docs/memory",
                                            "docs/../../docs/memory",
                                            "docs/memory/../../../x",
                                            "/etc/docs/memory",
                                            (dir.path() / "docs" / "memory").string(),
                                            "documents/memory",
                                            "docsx/memory",
                                            "C:/docs/memory"};
  for (const std::string& memory_dir : refused) {
    CAPTURE(memory_dir);
    const Result<Workspace> ws = open_at(dir.path(), memory_dir);
    REQUIRE_FALSE(ws.ok());
    CHECK(ws.status().code() == Errc::layout);
    CHECK(ws.status().message().rfind("--memory-dir: ", 0) == 0);
  }
}

TEST_CASE("shell: --memory-dir is normalised before it is checked") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> accepted = {
      {"", "docs/memory"},  // the profile default
      {"docs/memory", "docs/memory"},
      {"./docs//memory/", "docs/memory"},
      {"docs/./memory", "docs/memory"},
      {"docs/../docs/team/memory", "docs/team/memory"},
      {"docs/a/b/c", "docs/a/b/c"},
  };
  for (const auto& [given_, normalised] : accepted) {
    const auto& given = given_;  // clang 14 cannot capture a structured binding
    CAPTURE(given);
    const Result<Workspace> ws = open_at(dir.path(), given);
    REQUIRE(ws.ok());
    CHECK(ws->memory_dir() == normalised);
    CHECK_FALSE(ws->memory_dir_exists());
  }
  // Opening creates nothing.
  CHECK(tree_of(dir.path()).empty());
}

TEST_CASE("shell: a symbolic link between the project root and the memory folder is refused") {
  TempDir dir;
  const fs::path elsewhere = dir.path() / "elsewhere";
  fs::create_directories(elsewhere / "memory");
  fs::create_directories(elsewhere / "team" / "memory");

  SUBCASE("docs/ is a link") {
    const fs::path root = dir.path() / "project";
    fs::create_directories(root);
    fs::create_directory_symlink(elsewhere, root / "docs");
    for (const std::string& memory_dir : {std::string(), std::string("docs/team/memory")}) {
      const Result<Workspace> ws = open_at(root, memory_dir);
      REQUIRE_FALSE(ws.ok());
      CHECK(ws.status().code() == Errc::unsafe_path);
      CHECK(ws.status().message().rfind("docs: ", 0) == 0);
    }
  }
  SUBCASE("docs/memory is a link") {
    const fs::path root = dir.path() / "project";
    fs::create_directories(root / "docs");
    fs::create_directory_symlink(elsewhere / "memory", root / "docs" / "memory");
    const Result<Workspace> ws = open_at(root);
    REQUIRE_FALSE(ws.ok());
    CHECK(ws.status().code() == Errc::unsafe_path);
    CHECK(ws.status().message().rfind("docs/memory: ", 0) == 0);
  }
  SUBCASE("docs/memory is a dangling link") {
    const fs::path root = dir.path() / "project";
    fs::create_directories(root / "docs");
    fs::create_directory_symlink(elsewhere / "gone", root / "docs" / "memory");
    const Result<Workspace> ws = open_at(root);
    REQUIRE_FALSE(ws.ok());
    CHECK(ws.status().code() == Errc::unsafe_path);
  }
  SUBCASE("a folder between docs/ and a deeper memory folder is a link") {
    const fs::path root = dir.path() / "project";
    fs::create_directories(root / "docs");
    fs::create_directory_symlink(elsewhere / "team", root / "docs" / "team");
    const Result<Workspace> ws = open_at(root, "docs/team/memory");
    REQUIRE_FALSE(ws.ok());
    CHECK(ws.status().code() == Errc::unsafe_path);
    CHECK(ws.status().message().rfind("docs/team: ", 0) == 0);
  }
}

TEST_CASE("shell: the project root itself may be reached through a link") {
  TempDir dir;
  const fs::path real = dir.path() / "real";
  fs::create_directories(real / "docs" / "memory");
  fs::create_directory_symlink(real, dir.path() / "alias");
  for (const std::string& root :
       {(dir.path() / "alias").string(), (dir.path() / "alias").string() + "/"}) {
    CAPTURE(root);
    WorkspaceOptions options;
    options.project_root = root;
    const Result<Workspace> ws =
        Workspace::open(posix_file_system(), custodian_layout(), std::move(options));
    REQUIRE(ws.ok());
    CHECK(ws->memory_dir_exists());
  }
}

TEST_CASE("shell: a file where the memory folder's parent belongs is a layout error") {
  TempDir dir;
  write_bytes(dir.path() / "docs", "a file, not a folder\n");
  const Result<Workspace> ws = open_at(dir.path());
  REQUIRE_FALSE(ws.ok());
  CHECK(ws.status().code() == Errc::layout);
}

}  // namespace
}  // namespace memkit::shell_test
