#include "audit/file_facts.hpp"

#include <fmt/format.h>

namespace memkit::detail {

std::vector<FileFacts> gather_facts(const CustodianInputs& inputs, const TokenCounter& counter) {
  std::vector<std::string> paths = custodian_layout().files;
  for (const FileSnapshot& file : inputs.snapshot.files()) {
    // Module rows come from the folders' listings: a module the manifest names but nobody wrote
    // is check's business (a missing route), not a status row.
    if (custodian::file_role(file.path) == custodian::FileRole::module &&
        file.state != EntryState::missing) {
      paths.push_back(file.path);
    }
  }
  std::vector<FileFacts> facts;
  facts.reserve(paths.size());
  for (const std::string& path : paths) {
    FileFacts f;
    f.path = path;
    f.snapshot = inputs.snapshot.find(path);
    f.budget = custodian::budget_for(path);
    if (f.snapshot != nullptr && f.snapshot->exists()) {
      f.doc = parse_markdown(f.snapshot->bytes);
      f.tokens = counter.count(f.snapshot->text());
      if (f.budget) f.budget_state = f.budget->classify(f.tokens);
      f.needs_curation = path == "brief.md" &&
                         f.snapshot->text().find(custodian::kCurationMarker) != std::string::npos;
      if (f.doc->parseable()) {
        std::uint64_t units = 0;
        for (const Unit& unit : f.doc->units()) units += unit.kind == UnitKind::bullet_unit;
        f.bullet_units = units;
        std::uint64_t sections = 0;
        for (const Section& s : f.doc->sections()) sections += s.kind == SectionKind::section;
        f.h2_sections = sections;
        if (f.budget) {
          for (custodian::DecisionEntry& entry : custodian::decision_entries(*f.doc, counter)) {
            if (entry.tokens > custodian::kDecisionEntryGuide) {
              f.long_decisions.push_back(std::move(entry));
            }
          }
        }
      }
    }
    facts.push_back(std::move(f));
  }
  return facts;
}

void append_text_findings(const std::vector<FileFacts>& facts, std::vector<Finding>& out) {
  for (const FileFacts& f : facts) {
    if (f.snapshot != nullptr && f.snapshot->state == EntryState::not_a_file) {
      out.push_back(make_fatal("MK-IO-001", f.path, f.path + ": not a regular file"));
    }
    if (f.snapshot != nullptr && f.snapshot->state == EntryState::symlink) {
      out.push_back(make_fatal("MK-LAYOUT-001", f.path,
                               f.path + ": is a symbolic link; memkit does not follow links in "
                                        "the memory directory"));
    }
    if (f.snapshot != nullptr && f.snapshot->state == EntryState::unreadable) {
      out.push_back(make_fatal("MK-IO-001", f.path, f.path + ": " + f.snapshot->error));
    }
    if (!f.doc) continue;
    if (const auto& issue = f.doc->parse_error()) {
      out.push_back(make_finding("MK-PARSE-001", Severity::error, f.path,
                                 describe_issue(*issue, f.path),
                                 "close the fence or comment; memkit will not change this file"));
    }
    if (const auto& issue = f.doc->utf8_error()) {
      out.push_back(make_finding("MK-UTF8-001", Severity::error, f.path,
                                 describe_issue(*issue, f.path),
                                 "fix the encoding; memkit will not change this file"));
    }
  }
}

std::optional<std::string> protocol_version(const std::vector<FileFacts>& facts,
                                            std::vector<Finding>& out) {
  const FileFacts* manifest = find_facts(facts, "manifest.md");
  if (manifest == nullptr || !manifest->doc || !manifest->doc->parseable()) return std::nullopt;
  custodian::ProtocolCheck check = custodian::check_protocol(*manifest->doc, Severity::error);
  if (check.finding) out.push_back(std::move(*check.finding));
  return check.version;
}

const FileFacts* find_facts(const std::vector<FileFacts>& facts, std::string_view path) noexcept {
  for (const FileFacts& f : facts) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

}  // namespace memkit::detail
