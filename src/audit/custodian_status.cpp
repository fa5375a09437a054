// `custodian status` (spec compaction.md §15): one row per file and an ERROR per item not OK.
#include <fmt/format.h>

#include "audit/file_facts.hpp"

namespace memkit {

std::string_view file_state_name(FileState state) noexcept {
  switch (state) {
    case FileState::ok:
      return "OK";
    case FileState::near_limit:
      return "NEAR LIMIT";
    case FileState::over_budget:
      return "OVER BUDGET";
    case FileState::missing:
      return "MISSING";
    case FileState::not_enabled:
      return "NOT ENABLED";
  }
  return "OK";
}

namespace {

FileState to_file_state(BudgetState state) noexcept {
  switch (state) {
    case BudgetState::ok:
      return FileState::ok;
    case BudgetState::near_limit:
      return FileState::near_limit;
    case BudgetState::over_budget:
      return FileState::over_budget;
  }
  return FileState::ok;
}

Finding status_error(const std::string& path, std::string message, std::string remediation) {
  return make_finding("MK-STATUS-001", Severity::error, path, std::move(message),
                      std::move(remediation));
}

}  // namespace

StatusReport custodian_status(const CustodianInputs& inputs, const TokenCounter& counter) {
  StatusReport report;
  report.memory_dir = inputs.memory_dir;
  report.archive_files = inputs.archive_files;
  if (!inputs.memory_dir_exists) {
    report.findings.push_back(
        make_finding("MK-LAYOUT-002", Severity::error, "",
                     fmt::format("{}: memory directory is missing", inputs.memory_dir),
                     "run `memkit custodian init`"));
  }
  const std::vector<detail::FileFacts> facts = detail::gather_facts(inputs, counter);
  detail::append_text_findings(facts, report.findings);
  report.protocol_version = detail::protocol_version(facts, report.findings);

  for (const detail::FileFacts& f : facts) {
    FileStatus row;
    row.path = f.path;
    row.exists = f.doc.has_value();
    if (f.budget) row.limit = f.budget->limit();
    const bool core = custodian::file_role(f.path) == custodian::FileRole::core;
    if (!row.exists) {
      row.state = core ? FileState::missing : FileState::not_enabled;
      if (core && inputs.memory_dir_exists && !f.present_but_unusable()) {
        report.findings.push_back(status_error(f.path, f.path + ": missing core file",
                                               "run `memkit custodian init` to create it"));
      }
      report.files.push_back(std::move(row));
      continue;
    }
    row.tokens = f.tokens;
    row.state = f.budget_state ? to_file_state(*f.budget_state) : FileState::ok;
    row.long_decisions = f.long_decisions;
    row.needs_curation = f.needs_curation;
    if (f.path == "inbox.md") {
      row.items = f.bullet_units;
      row.compaction_recommended = f.bullet_units && *f.bullet_units > custodian::kInboxItemTrigger;
    }
    if (f.path == "decisions.md" || f.path == "do-not-use.md") row.entries = f.h2_sections;

    if (row.state == FileState::over_budget || row.state == FileState::near_limit) {
      report.findings.push_back(
          status_error(f.path,
                       fmt::format("{}: {} ({} of {} tokens)", f.path, file_state_name(row.state),
                                   f.tokens, f.budget->limit()),
                       fmt::format("run `memkit custodian compact --target {}`", f.path)));
    }
    if (!row.long_decisions.empty()) {
      report.findings.push_back(status_error(
          f.path,
          fmt::format("{}:{}: {} decision entr{} over the {}-token guide", f.path,
                      row.long_decisions.front().line, row.long_decisions.size(),
                      row.long_decisions.size() == 1 ? "y" : "ies", custodian::kDecisionEntryGuide),
          "shorten them semantically; never truncate"));
    }
    if (row.needs_curation) {
      report.findings.push_back(
          status_error(f.path, f.path + ": needs curation: TODO(memkit) placeholders remain",
                       "replace the placeholders with the project's real summary"));
    }
    report.files.push_back(std::move(row));
  }
  sort_findings(report.findings);
  return report;
}

}  // namespace memkit
