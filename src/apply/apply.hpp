// Applying a confirmed plan (spec compaction.md §12.3-§12.4, §12.6): one file by atomic replace,
// two or more through a transaction journal, every write read back, and a record kept for undo.
// The caller holds the state lock and has rebuilt and compared the plan first.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "files/file_system.hpp"
#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"

namespace memkit {

// Where a plan's paths live: `memory_dir` for its operations, `state_dir` (".memkit" under the
// project root) for journals and applied records. Both are paths the FileSystem understands.
struct ApplyPaths {
  std::string memory_dir;
  std::string state_dir;
  // Whether memkit reads the file at `path` (relative to memory_dir) at its end, where a reader
  // refuses a file of two names (store/read_entry.hpp), perhaps without the lock: a journal backs
  // such a file up by a copy, never by a second name. None when empty.
  std::function<bool(std::string_view path)> read_at_end = {};
};

// §12.3 step 8: archive/README.md, other archive files (and MemoryBox memory/ARCHIVES/), the
// remaining targets in path order, then do-not-use.md, changelog.md and manifest.md last.
// Returns indices into operations().
[[nodiscard]] std::vector<std::size_t> write_order(const Plan& plan);

// A new transaction ID (§12.4): 32 lowercase hex digits from a random source. It names a journal
// directory, so it only has to be unique, not secret.
[[nodiscard]] std::string new_transaction_id();

// Writes the plan and returns the paths written, in write order. `txid` names the journal of a
// multi-file apply (32 lowercase hex; the shell draws it from a random source).
// REQUIRES: the state lock is held; no unfinished transaction exists.
[[nodiscard]] Result<std::vector<std::string>> apply_plan(FileSystem& fs, const ApplyPaths& paths,
                                                          const Plan& plan, const ClockReading& now,
                                                          const std::string& txid,
                                                          bool keep_record = true);

// Writes the plan's operations in `order` (indices into operations(), each once): the commit order
// of an additive change (tiers3.md §9: the session log, then the note, then global.md), one
// transaction when there are several, no applied record. REQUIRES: as apply_plan.
[[nodiscard]] Result<std::vector<std::string>> apply_plan_in_order(
    FileSystem& fs, const ApplyPaths& paths, const Plan& plan,
    const std::vector<std::size_t>& order, const ClockReading& now, const std::string& txid);

// Removes the `.memkit-tmp-*` files in `folders` (and their subfolders, with `recursive`) last
// modified no later than the state lock under `state_dir` was taken: the leftovers of writes killed
// before their rename. A folder that is missing is skipped. REQUIRES: the state lock is held.
[[nodiscard]] Status remove_stale_temporaries(FileSystem& fs,
                                              const std::vector<std::string>& folders,
                                              const std::string& state_dir, bool recursive);

// How many applied records are kept for undo (§12.6).
inline constexpr std::size_t kAppliedRecordsKept = 20;

// Lists the unfinished transactions under paths.state_dir/txn. With `apply`, finishes each one
// (prepared: discarded; committing: rolled forward, or back with `rollback`; committed: cleaned
// up); a target at neither its base nor its output is a conflict (MK-TXN-002) and keeps its
// transaction. REQUIRES with `apply`: the state lock is held.
[[nodiscard]] Result<Recovery> recover_transactions(FileSystem& fs, const ApplyPaths& paths,
                                                    bool apply, bool rollback);

}  // namespace memkit
