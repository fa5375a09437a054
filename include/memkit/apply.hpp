// Applying a confirmed plan (spec compaction.md §12.3-§12.4, §12.6): one file by atomic replace,
// two or more through a transaction journal, every write read back, and a record kept for undo.
// The caller holds the state lock and has rebuilt and compared the plan first.
#pragma once

#include <string>
#include <vector>

#include "memkit/clock.hpp"
#include "memkit/file_system.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"

namespace memkit {

// Where a plan's paths live: `memory_dir` for its operations, `state_dir` (".memkit" under the
// project root) for journals and applied records. Both are paths the FileSystem understands.
struct ApplyPaths {
  std::string memory_dir;
  std::string state_dir;
};

// §12.3 step 8: archive/README.md, other archive files, the remaining targets in path order,
// then do-not-use.md, changelog.md and manifest.md last. Returns indices into operations().
[[nodiscard]] std::vector<std::size_t> write_order(const Plan& plan);

// Writes the plan and returns the paths written, in write order. `txid` names the journal of a
// multi-file apply (32 lowercase hex; the shell draws it from a random source).
// REQUIRES: the state lock is held; no unfinished transaction exists.
[[nodiscard]] Result<std::vector<std::string>> apply_plan(FileSystem& fs, const ApplyPaths& paths,
                                                          const Plan& plan,
                                                          const ClockReading& now,
                                                          const std::string& txid);

// How many applied records are kept for undo (§12.6).
inline constexpr std::size_t kAppliedRecordsKept = 20;

}  // namespace memkit
