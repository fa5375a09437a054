// Reports that write nothing: `custodian status` and `custodian check` (spec compaction.md §15).
// Both are pure functions of what the shell read.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/findings.hpp"
#include "memkit/layouts.hpp"
#include "memkit/snapshot.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

// Everything a custodian report looks at, gathered by the shell (store/).
struct CustodianInputs {
  std::string memory_dir;  // normalised, relative to the project root: "docs/memory"
  bool memory_dir_exists = false;
  Snapshot snapshot;  // the profile's fixed files and every module file found, memory-relative
  std::uint32_t archive_files = 0;            // regular files under archive/, README.md excluded
  std::uint32_t unfinished_transactions = 0;  // directories under .memkit/txn/
  // What lies at each safe manifest route path the snapshot does not hold (check §15 needs only
  // existence): file, missing, not_a_file or symlink. Never read, never followed.
  std::map<std::string, EntryState> route_targets;
};

enum class FileState : std::uint8_t { ok, near_limit, over_budget, missing, not_enabled };
[[nodiscard]] std::string_view file_state_name(FileState state) noexcept;  // "OK", "MISSING", ...

struct FileStatus {
  std::string path;
  bool exists = false;
  std::optional<std::uint64_t> tokens;
  std::optional<std::uint64_t> limit;
  FileState state = FileState::ok;
  std::vector<custodian::DecisionEntry> long_decisions;
  bool needs_curation = false;
  std::optional<std::uint64_t> items;    // inbox.md: top-level bullet units
  std::optional<std::uint64_t> entries;  // decisions.md, do-not-use.md: H2 sections
  bool compaction_recommended = false;   // inbox.md holds more than 30 items
};

struct StatusReport {
  std::string memory_dir;
  std::optional<std::string> protocol_version;
  std::vector<FileStatus> files;
  std::uint32_t archive_files = 0;
  std::vector<Finding> findings;  // sorted
};

struct CheckReport {
  std::string memory_dir;
  bool passed = false;            // data.check_status: "OK" or "FAILED"
  std::vector<Finding> findings;  // sorted
};

[[nodiscard]] StatusReport custodian_status(const CustodianInputs& inputs,
                                            const TokenCounter& counter);
[[nodiscard]] CheckReport custodian_check(const CustodianInputs& inputs,
                                          const TokenCounter& counter);

}  // namespace memkit
