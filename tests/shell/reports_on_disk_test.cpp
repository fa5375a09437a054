// `custodian status` and `check` over real folders (spec compaction.md §15): what the shell reads
// and what the reports make of it, for the cases the CLI golden files cannot pin down yet.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/audit.hpp"
#include "store/workspace.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

// A healthy memory: `init --extended`, then a curated brief.
void make_healthy_memory(const fs::path& root) {
  WorkspaceOptions options;
  options.project_root = root.string();
  Result<Workspace> ws = Workspace::open(posix_file_system(), custodian_layout(), options);
  REQUIRE(ws.ok());
  const Result<std::unique_ptr<LockHandle>> lock = ws->lock();
  REQUIRE(lock.ok());
  REQUIRE(
      ws->init_custodian(true, ClockReading::parse_rfc3339("2026-03-07T10:00:00Z").value()).ok());
  write_bytes(root / "docs/memory/brief.md", "# Brief\n\n- Purpose: keep memory small.\n");
}

CustodianInputs read_inputs(const fs::path& root) {
  WorkspaceOptions options;
  options.project_root = root.string();
  Result<Workspace> ws = Workspace::open(posix_file_system(), custodian_layout(), options);
  REQUIRE(ws.ok());
  Result<CustodianInputs> inputs = ws->read_custodian_inputs();
  REQUIRE(inputs.ok());
  return std::move(inputs).value();
}

std::vector<std::string> codes_of(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.code);
  return out;
}

void replace_in(const fs::path& path, const std::string& from, const std::string& to) {
  std::string text = read_bytes(path);
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  write_bytes(path, text);
}

TEST_CASE("shell: a freshly initialised and curated memory passes status and check") {
  TempDir dir;
  make_healthy_memory(dir.path());
  const CustodianInputs inputs = read_inputs(dir.path());
  const StatusReport status = custodian_status(inputs, default_token_counter());
  CHECK(status.findings.empty());
  CHECK(status.protocol_version == std::optional<std::string>("0.7"));
  const CheckReport check = custodian_check(inputs, default_token_counter());
  CHECK(check.findings.empty());
  CHECK(check.passed);
}

TEST_CASE("shell: check warns about a machine-specific absolute path in preferences.md") {
  for (const char* line : {"- Code lives in /home/alice/src.", "- Code lives in /Users/alice/src.",
                           "- Backups on /Volumes/Backup.", "- Notes in C:\\Users\\alice.",
                           "- Notes in d:/work/notes."}) {
    CAPTURE(line);
    TempDir dir;
    make_healthy_memory(dir.path());
    write_bytes(dir.path() / "docs/memory/preferences.md",
                "# Preferences\n\n" + std::string(line) + "\n");
    const CheckReport check = custodian_check(read_inputs(dir.path()), default_token_counter());
    CHECK(codes_of(check.findings) == std::vector<std::string>{"MK-CHECK-011"});
    CHECK(check.passed);
  }
}

// Was a bug: src/audit/custodian_check.cpp has_machine_path() takes any letter followed by ":/" for
// a drive letter, so "https://", "file:///" and "mailto:/" all count as machine paths.
TEST_CASE("shell: a URL in preferences.md is not a machine-specific path") {
  for (const char* line :
       {"- Read https://example.com/guide first.", "- Shared notes: file:///srv/shared/notes.md",
        "- Ask on http://chat.example.org/memkit."}) {
    CAPTURE(line);
    TempDir dir;
    make_healthy_memory(dir.path());
    write_bytes(dir.path() / "docs/memory/preferences.md",
                "# Preferences\n\n" + std::string(line) + "\n");
    const CheckReport check = custodian_check(read_inputs(dir.path()), default_token_counter());
    CHECK(check.findings.empty());
  }
}

TEST_CASE("shell: check reports a Load: route whose file is missing, not a Load if present: one") {
  TempDir dir;
  make_healthy_memory(dir.path());
  replace_in(dir.path() / "docs/memory/manifest.md",
             "### Planning / architecture / refactoring\n\nLoad:\n- decisions.md\n",
             "### Planning / architecture / refactoring\n\nLoad:\n- decisions.md\n"
             "- rules/missing.md\nLoad if present:\n- profiles/absent.md\n");
  const CheckReport check = custodian_check(read_inputs(dir.path()), default_token_counter());
  REQUIRE(check.findings.size() == 1);
  CHECK(check.findings[0].code == "MK-CHECK-005");
  CHECK(check.findings[0].message == "manifest.md:24: route file rules/missing.md is missing");
}

// Was a bug: src/audit/custodian_check.cpp check_manifest_routes() looks route targets up in the
// snapshot, which holds only the fixed files and the module files. A Load: route to any other
// existing file (a README, a sub-folder, notes/) is reported as missing.
TEST_CASE(
    "shell: a Load: route to an existing file outside the fixed and module files is not missing") {
  TempDir dir;
  make_healthy_memory(dir.path());
  write_bytes(dir.path() / "docs/memory/notes/architecture.md", "# Architecture\n");
  replace_in(dir.path() / "docs/memory/manifest.md",
             "### Planning / architecture / refactoring\n\nLoad:\n- decisions.md\n",
             "### Planning / architecture / refactoring\n\nLoad:\n- decisions.md\n"
             "- notes/architecture.md\n- rules/README.md\n");
  const CheckReport check = custodian_check(read_inputs(dir.path()), default_token_counter());
  CHECK(codes_of(check.findings).empty());
}

// Was a bug: a directory (or an unreadable file) in a core file's place gets the fatal MK-IO-001
// and, in addition, "missing core file" (status MK-STATUS-001, check MK-CHECK-001), although the
// path is present. §15 keeps MISSING for an absent core file.
TEST_CASE("shell: a directory in a core file's place is not also a missing core file") {
  TempDir dir;
  make_healthy_memory(dir.path());
  fs::remove(dir.path() / "docs/memory/brief.md");
  fs::create_directories(dir.path() / "docs/memory/brief.md");
  const CustodianInputs inputs = read_inputs(dir.path());
  const StatusReport status = custodian_status(inputs, default_token_counter());
  const CheckReport check = custodian_check(inputs, default_token_counter());
  CHECK(codes_of(status.findings) == std::vector<std::string>{"MK-IO-001"});
  const std::vector<std::string> check_codes = codes_of(check.findings);
  CHECK(std::find(check_codes.begin(), check_codes.end(), "MK-IO-001") != check_codes.end());
  CHECK(std::find(check_codes.begin(), check_codes.end(), "MK-CHECK-001") == check_codes.end());
}

TEST_CASE("shell: replacing init's three placeholders is enough to curate brief.md") {
  TempDir dir;
  make_healthy_memory(dir.path());
  const std::string brief =
      custodian::init_templates(false, "0.1.0",
                                *ClockReading::parse_rfc3339("2026-03-07T10:00:00Z"))
          .at(1)
          .bytes;
  std::string curated = brief;
  for (std::size_t at = curated.find("- TODO(memkit) "); at != std::string::npos;
       at = curated.find("- TODO(memkit) ")) {
    curated.replace(at, 15, "- ");
  }
  write_bytes(dir.path() / "docs/memory/brief.md", brief);
  CHECK(custodian_status(read_inputs(dir.path()), default_token_counter()).files[1].needs_curation);
  write_bytes(dir.path() / "docs/memory/brief.md", curated);
  const StatusReport status = custodian_status(read_inputs(dir.path()), default_token_counter());
  CHECK_FALSE(status.files[1].needs_curation);
  CHECK(status.findings.empty());
}

TEST_CASE("shell: a module the manifest names but nobody wrote gets no status row") {
  TempDir dir;
  make_healthy_memory(dir.path());
  replace_in(dir.path() / "docs/memory/manifest.md", "### Enabled rules\n",
             "### Enabled rules\n\n- `rules/ghost.md`: never\n");
  const CustodianInputs inputs = read_inputs(dir.path());
  const StatusReport status = custodian_status(inputs, default_token_counter());
  for (const FileStatus& row : status.files) CHECK(row.path != "rules/ghost.md");
  CHECK(status.findings.empty());
}

TEST_CASE("shell: check neither reads nor follows a route through a symbolic link") {
  TempDir dir;
  make_healthy_memory(dir.path());
  write_bytes(dir.path() / "outside/x.md", "- outside\n");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "docs/memory/sub");
  replace_in(dir.path() / "docs/memory/manifest.md", "## Always load\n\n",
             "## Always load\n\n- sub/x.md\n");
  const CheckReport check = custodian_check(read_inputs(dir.path()), default_token_counter());
  CHECK(codes_of(check.findings) == std::vector<std::string>{"MK-LAYOUT-001"});
  CHECK(check.findings[0].fatal);
  CHECK(check.findings[0].message ==
        "manifest.md:14: route sub/x.md passes through a symbolic link");
}

TEST_CASE("shell: a Load: route into archive/ is checked for existence only") {
  TempDir dir;
  make_healthy_memory(dir.path());
  replace_in(dir.path() / "docs/memory/manifest.md", "Load:\n- decisions.md\n",
             "Load:\n- decisions.md\n- archive/decisions-2026-01-01.md\n");
  CustodianInputs inputs = read_inputs(dir.path());
  CHECK(inputs.route_targets.at("archive/decisions-2026-01-01.md") == EntryState::missing);
  CHECK(inputs.snapshot.find("archive/decisions-2026-01-01.md") == nullptr);
  CHECK(codes_of(custodian_check(inputs, default_token_counter()).findings) ==
        std::vector<std::string>{"MK-CHECK-005"});
  write_bytes(dir.path() / "docs/memory/archive/decisions-2026-01-01.md", "## old\n");
  inputs = read_inputs(dir.path());
  CHECK(inputs.route_targets.at("archive/decisions-2026-01-01.md") == EntryState::file);
  CHECK(custodian_check(inputs, default_token_counter()).passed);
}

TEST_CASE("shell: errors from opening a workspace name no absolute path") {
  TempDir dir;
  fs::create_directories(dir.path() / "docs");
  WorkspaceOptions options;
  options.project_root = dir.path().string();
  options.memory_dir = "docs/" + std::string(300, 'a');  // too long a name: lstat fails
  const Result<Workspace> ws = Workspace::open(posix_file_system(), custodian_layout(), options);
  REQUIRE_FALSE(ws.ok());
  CHECK(ws.status().message().rfind("docs/aaa", 0) == 0);
  CHECK(ws.status().message().find(dir.path().string()) == std::string::npos);
}

}  // namespace
}  // namespace memkit::shell_test
