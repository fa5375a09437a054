// custodian status and check over in-memory snapshots (spec compaction.md §15).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "memkit/audit.hpp"
#include "memory_inputs.hpp"

using namespace memkit;
using memkit::testing::inputs_of;

namespace {

const std::string kManifest =
    "# M\n\n## MemoryCustodian Protocol\n- protocol_version: 0.7\n\n## Always load\n- brief.md\n\n"
    "## Load by task\n### Planning / architecture / refactoring\nLoad:\n- decisions.md\n"
    "### Implementation / execution / debugging\nLoad:\n- decisions.md\n"
    "### User-facing artifact / output\nLoad if present:\n- preferences.md\n"
    "### Preferences\nLoad if present:\n- preferences.md\n"
    "### Change history / recap\nLoad if present:\n- changelog.md\n"
    "### Memory maintenance\nLoad:\n- inbox.md\n\n## Optional module index\n### Enabled rules\n"
    "### Enabled profiles\n### Enabled areas\n";

// A healthy layout; tests overwrite or erase entries.
std::map<std::string, std::string> healthy() {
  return {{"manifest.md", kManifest},
          {"brief.md", "# Brief\n\n- Purpose: x.\n"},
          {"decisions.md", "# Decisions\n\n## 2026-01-01 - A\nDecision: a.\n"},
          {"constraints.md", "# Constraints\n\n- c\n"},
          {"do-not-use.md", "# Do Not Use\n"},
          {"inbox.md", "# Inbox\n"}};
}

std::vector<std::string> codes(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.code + " " + f.path);
  return out;
}

const FileStatus& row(const StatusReport& r, const std::string& path) {
  const auto it = std::find_if(r.files.begin(), r.files.end(),
                               [&](const FileStatus& f) { return f.path == path; });
  REQUIRE(it != r.files.end());
  return *it;
}

std::string tokens_of(std::size_t n) {  // n tokens: "a a a ..."
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += "a ";
  return s;
}

}  // namespace

TEST_CASE("audit: a healthy layout passes status and check") {
  const CustodianInputs in = inputs_of(healthy());
  const StatusReport status = custodian_status(in, default_token_counter());
  CHECK(codes(status.findings).empty());
  CHECK(status.protocol_version == std::optional<std::string>("0.7"));
  REQUIRE(status.files.size() == 8);
  CHECK(status.files[0].path == "manifest.md");
  CHECK(status.files[5].path == "inbox.md");
  CHECK(row(status, "preferences.md").state == FileState::not_enabled);
  CHECK(row(status, "decisions.md").entries == std::optional<std::uint64_t>(1));
  CHECK(row(status, "inbox.md").items == std::optional<std::uint64_t>(0));
  CHECK(row(status, "brief.md").tokens ==
        std::optional<std::uint64_t>(estimate_tokens("# Brief\n\n- Purpose: x.\n")));
  const CheckReport check = custodian_check(in, default_token_counter());
  CHECK(check.passed);
  CHECK(codes(check.findings).empty());
}

TEST_CASE("audit: NEAR LIMIT and OVER BUDGET are status errors, check errs only when over") {
  auto files = healthy();
  files["brief.md"] = "# B\n" + tokens_of(400 - 2);        // 400 of 500: NEAR LIMIT
  files["constraints.md"] = "# C\n" + tokens_of(401 - 2);  // 401 of 400: OVER BUDGET
  const CustodianInputs in = inputs_of(files);
  const StatusReport status = custodian_status(in, default_token_counter());
  CHECK(row(status, "brief.md").tokens == std::optional<std::uint64_t>(400));
  CHECK(row(status, "brief.md").state == FileState::near_limit);
  CHECK(row(status, "constraints.md").state == FileState::over_budget);
  CHECK(codes(status.findings) ==
        std::vector<std::string>{"MK-STATUS-001 brief.md", "MK-STATUS-001 constraints.md"});
  CHECK(derive_exit_class(status.findings) == ExitClass::domain_failure);
  const CheckReport check = custodian_check(in, default_token_counter());
  CHECK_FALSE(check.passed);
  CHECK(codes(check.findings) ==
        std::vector<std::string>{"MK-BUDGET-001 constraints.md", "MK-BUDGET-002 brief.md"});
}

TEST_CASE("audit: 399 of 500 tokens is OK") {
  auto files = healthy();
  files["brief.md"] = "# B\n" + tokens_of(399 - 2);
  CHECK(row(custodian_status(inputs_of(files), default_token_counter()), "brief.md").state ==
        FileState::ok);
}

TEST_CASE("audit: a long decision, curation and a missing core file") {
  auto files = healthy();
  files["decisions.md"] = "# D\n\n## Big\nDecision: " + tokens_of(130) + "\n";
  files["brief.md"] = "- TODO(memkit) Purpose\n";
  files.erase("inbox.md");
  const CustodianInputs in = inputs_of(files);
  const StatusReport status = custodian_status(in, default_token_counter());
  REQUIRE(row(status, "decisions.md").long_decisions.size() == 1);
  CHECK(row(status, "decisions.md").long_decisions[0].title == "Big");
  CHECK(row(status, "brief.md").needs_curation);
  CHECK(row(status, "inbox.md").state == FileState::missing);
  CHECK(codes(status.findings) == std::vector<std::string>{"MK-STATUS-001 brief.md",
                                                           "MK-STATUS-001 decisions.md",
                                                           "MK-STATUS-001 inbox.md"});
  const CheckReport check = custodian_check(in, default_token_counter());
  CHECK(codes(check.findings) ==
        std::vector<std::string>{"MK-CHECK-001 inbox.md", "MK-CHECK-005 manifest.md",
                                 "MK-CHECK-006 decisions.md", "MK-CHECK-008 brief.md"});
}

TEST_CASE("audit: a missing memory directory is one layout error, not six missing files") {
  const StatusReport status = custodian_status(inputs_of({}, false), default_token_counter());
  CHECK(codes(status.findings) == std::vector<std::string>{"MK-LAYOUT-002 "});
  CHECK(status.files[1].state == FileState::missing);
  CHECK(status.findings[0].message == "docs/memory: memory directory is missing");
}

TEST_CASE("audit: protocol versions: missing is a warning, newer or invalid an error") {
  auto files = healthy();
  files["manifest.md"] = "# M\n";
  StatusReport status = custodian_status(inputs_of(files), default_token_counter());
  CHECK(codes(status.findings) == std::vector<std::string>{"MK-PROTO-002 manifest.md"});
  CHECK(status.protocol_version == std::optional<std::string>("0.5"));
  files["manifest.md"] = "## MemoryCustodian Protocol\n- protocol_version: 0.9\n";
  status = custodian_status(inputs_of(files), default_token_counter());
  CHECK(codes(status.findings) == std::vector<std::string>{"MK-PROTO-001 manifest.md"});
  CHECK(status.findings[0].severity == Severity::error);
}

TEST_CASE("audit: an empty protocol_version is an error that says it is empty") {
  auto files = healthy();
  files["manifest.md"] = "## MemoryCustodian Protocol\n- protocol_version: \n";
  const StatusReport status = custodian_status(inputs_of(files), default_token_counter());
  REQUIRE(codes(status.findings) == std::vector<std::string>{"MK-PROTO-001 manifest.md"});
  CHECK(status.findings[0].message ==
        "manifest.md: empty protocol_version; memkit supports 0.5, 0.6 and 0.7");
  CHECK(status.findings[0].remediation == "write '- protocol_version: 0.7' (dotted numbers)");
}

TEST_CASE("audit: unparseable and invalid UTF-8 files are errors naming the line") {
  auto files = healthy();
  files["constraints.md"] = "# C\n\n```\nopen\n";
  files["inbox.md"] = "# I\n- caf\xE9\n";
  const StatusReport status = custodian_status(inputs_of(files), default_token_counter());
  CHECK(codes(status.findings) ==
        std::vector<std::string>{"MK-PARSE-001 constraints.md", "MK-UTF8-001 inbox.md"});
  CHECK(status.findings[0].message == "constraints.md:3: unclosed code fence");
  CHECK(status.findings[1].message == "inbox.md:2: invalid UTF-8 sequence");
  CHECK_FALSE(row(status, "constraints.md").entries.has_value());
}

TEST_CASE("audit: a path that is not a readable file is a fatal I/O finding") {
  CustodianInputs in = inputs_of(healthy());
  std::vector<FileSnapshot> files = in.snapshot.files();
  files.push_back(FileSnapshot{"brief.md", EntryState::not_a_file, nullptr, ""});
  in.snapshot = Snapshot(std::move(files));
  const StatusReport status = custodian_status(in, default_token_counter());
  CHECK(codes(status.findings).front() == "MK-IO-001 brief.md");
  CHECK(derive_exit_class(status.findings) == ExitClass::fatal);
}

TEST_CASE("audit: check reports routing, modules, machine paths, the inbox and duplicates") {
  auto files = healthy();
  files["manifest.md"] = kManifest + "\n## Always load\n- ../escape.md\n";
  files["areas/db.md"] = "# DB\n\n- Use tabs\n";
  files["preferences.md"] = "- keep notes in /home/alice/notes\n";
  std::string inbox = "# Inbox\n";
  for (int i = 0; i < 31; ++i) inbox += "- item " + std::to_string(i) + "\n";
  inbox += "- use TABS\n";
  files["inbox.md"] = inbox;
  CustodianInputs in = inputs_of(files);
  in.unfinished_transactions = 1;
  const CheckReport check = custodian_check(in, default_token_counter());
  CHECK_FALSE(check.passed);
  CHECK(codes(check.findings) ==
        std::vector<std::string>{"MK-CHECK-002 manifest.md", "MK-CHECK-004 manifest.md",
                                 "MK-CHECK-007 areas/db.md", "MK-CHECK-009 ",
                                 "MK-CHECK-010 inbox.md", "MK-CHECK-011 preferences.md",
                                 "MK-CHECK-012 areas/db.md"});
  const auto dup = std::find_if(check.findings.begin(), check.findings.end(),
                                [](const Finding& f) { return f.code == "MK-CHECK-012"; });
  // Fixed files are read before modules, so the module holds the repeat.
  CHECK(dup->message == "areas/db.md:3: the same bullet is also in inbox.md:33");
}
