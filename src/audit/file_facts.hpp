// Per-file facts that both custodian reports derive their rows and findings from, computed once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/markdown.hpp"

namespace memkit::detail {

struct FileFacts {
  std::string path;
  const FileSnapshot* snapshot = nullptr;  // nullptr or not a file: absent
  std::optional<Document> doc;             // set iff the file was read
  std::uint64_t tokens = 0;
  std::optional<Budget> budget;
  std::optional<BudgetState> budget_state;
  std::vector<custodian::DecisionEntry> long_decisions;
  std::optional<std::uint64_t> bullet_units;  // nullopt when unparseable
  std::optional<std::uint64_t> h2_sections;
  bool needs_curation = false;

  // Returns true iff something is at the path but it is not a readable file (a directory, a
  // link, a failed read): append_text_findings reports it, so it is never also "missing".
  [[nodiscard]] bool present_but_unusable() const noexcept {
    return snapshot != nullptr && snapshot->state != EntryState::file &&
           snapshot->state != EntryState::missing;
  }
};

// Facts for the profile's fixed files, then every module file in path order.
[[nodiscard]] std::vector<FileFacts> gather_facts(const CustodianInputs& inputs,
                                                  const TokenCounter& counter);

// I/O, parse and UTF-8 findings of every file (§2.1, §2.3): fatal MK-IO-001 for a path that is
// not a readable file, ERROR MK-PARSE-001 and MK-UTF8-001 as reports give them.
void append_text_findings(const std::vector<FileFacts>& facts, std::vector<Finding>& out);

// The protocol version of manifest.md (§3) with MK-PROTO-001 / MK-PROTO-002 findings; nullopt
// when the manifest is absent or unparseable.
[[nodiscard]] std::optional<std::string> protocol_version(const std::vector<FileFacts>& facts,
                                                          std::vector<Finding>& out);

[[nodiscard]] const FileFacts* find_facts(const std::vector<FileFacts>& facts,
                                          std::string_view path) noexcept;

}  // namespace memkit::detail
