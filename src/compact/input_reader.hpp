// What every compaction planner does first: read its inputs as Documents, with the findings each
// input's state calls for (spec compaction.md §2.1, §2.3, §17).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/findings.hpp"
#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"

namespace memkit::detail {

// Reads one input of the command into a Document, adding the findings its state calls for.
// `writes` says whether the command would change the file (§2.1: invalid UTF-8 is then a
// BLOCKER; a file the command only reads gets a WARNING).
class InputReader final {
 public:
  InputReader(const CustodianInputs& inputs, std::vector<Finding>& out)
      : inputs_(inputs), out_(out) {}

  std::optional<Document> read(const std::string& path, bool required, bool writes) {
    const FileSnapshot* entry = find_file(path, required);
    if (entry == nullptr) return std::nullopt;
    Document doc = parse_markdown(entry->bytes);
    report_issues(path, doc.parse_error(), doc.utf8_error(), writes);
    return doc;
  }

  // The entry of a regular file at `path`, or nullptr after adding the finding its state calls
  // for (none for a missing optional file).
  const FileSnapshot* find_file(const std::string& path, bool required) {
    const FileSnapshot* entry = inputs_.snapshot.find(path);
    const EntryState state = entry == nullptr ? EntryState::missing : entry->state;
    switch (state) {
      case EntryState::missing:
        if (required) {
          out_.push_back(make_finding("MK-LAYOUT-002", Severity::blocker, path,
                                      path + ": required file is missing",
                                      "run `memkit custodian init`"));
        }
        return nullptr;
      case EntryState::symlink:
        out_.push_back(make_fatal("MK-LAYOUT-001", path,
                                  path + ": is a symbolic link; memkit does not follow links in "
                                         "the memory directory"));
        return nullptr;
      case EntryState::not_a_file:
        out_.push_back(make_fatal("MK-IO-001", path, path + ": not a regular file"));
        return nullptr;
      case EntryState::unreadable:
        out_.push_back(make_fatal("MK-IO-001", path, path + ": " + entry->error));
        return nullptr;
      case EntryState::file:
        break;
    }
    return entry;
  }

  // The findings for a file's parse error (§2.3) and ill-formed UTF-8 (§2.1).
  void report_issues(const std::string& path, const std::optional<TextIssue>& parse_error,
                     const std::optional<TextIssue>& utf8_error, bool writes) {
    if (parse_error) {
      out_.push_back(make_finding("MK-PARSE-001", Severity::blocker, path,
                                  describe_issue(*parse_error, path),
                                  "close the fence or comment, then run the command again"));
    }
    if (utf8_error) {
      out_.push_back(
          make_finding("MK-UTF8-001", writes ? Severity::blocker : Severity::warning, path,
                       describe_issue(*utf8_error, path),
                       writes ? "fix the encoding; memkit will not change this file" : ""));
    }
  }

 private:
  const CustodianInputs& inputs_;
  std::vector<Finding>& out_;
};

// The start every planner shares: the memory directory must exist (else MK-LAYOUT-002 and false),
// manifest.md must be there, and its protocol must be one memkit writes (MK-PROTO-001 BLOCKER).
inline bool start_planning(const CustodianInputs& inputs, InputReader& reader,
                           std::vector<Finding>& out, std::optional<Document>& manifest,
                           std::optional<std::string>* protocol_version = nullptr) {
  if (!inputs.memory_dir_exists) {
    out.push_back(make_finding("MK-LAYOUT-002", Severity::blocker, "",
                               inputs.memory_dir + ": memory directory is missing",
                               "run `memkit custodian init`"));
    return false;
  }
  manifest = reader.read("manifest.md", true, false);
  if (manifest && manifest->parseable()) {
    custodian::ProtocolCheck protocol = custodian::check_protocol(*manifest, Severity::blocker);
    if (protocol_version != nullptr) *protocol_version = protocol.version;
    if (protocol.finding) out.push_back(std::move(*protocol.finding));
  }
  return true;
}

// Returns true iff a finding stops the command (fatal or BLOCKER).
inline bool blocked(const std::vector<Finding>& findings) {
  const ExitClass exit_class = derive_exit_class(findings);
  return exit_class == ExitClass::fatal || exit_class == ExitClass::blocker;
}

}  // namespace memkit::detail
