// The curated memory store (spec curated.md §2): the folder holding rows/, log/, floors/ and
// .memkit/. Shell: it reads the files a command names into a snapshot, lists the floors' day
// files, writes a planned change as one transaction under .memkit/lock, and appends access and
// floor records. It never writes, appends or reads through a symbolic link below the root (the
// root itself may be one).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "apply/apply.hpp"
#include "files/file_system.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"
#include "memkit/snapshot.hpp"

namespace memkit {

class CuratedStore final {
 public:
  // The store at `root` (--store, MEMKIT_STORE or ./curated). A missing root is an empty store,
  // made by the first write; one that is not a directory fails with Errc::invalid_argument.
  [[nodiscard]] static Result<CuratedStore> open(FileSystem& fs, std::string root);

  // Reads each store-relative path into a snapshot entry: a missing file (or folder on the way)
  // is a missing entry; a link, as the file or as a folder on the way, a symlink entry, never
  // followed. Of the `tails`, files a write only appends to, only the last bytes are read.
  [[nodiscard]] Result<Snapshot> read(const std::vector<std::string>& paths,
                                      const std::vector<std::string>& tails = {}) const;

  // The regular files directly in `folder`, sorted bytewise; none when it is missing. A link on
  // the way fails with Errc::unsafe_path.
  [[nodiscard]] Result<std::vector<std::string>> file_names(const std::string& folder) const;

  // Takes .memkit/lock, making the root and .memkit/ when missing, waiting up to
  // `timeout_seconds` (Errc::lock_busy).
  [[nodiscard]] Result<std::unique_ptr<LockHandle>> lock(double timeout_seconds);

  // compaction.md §12.5 over .memkit/txn. REQUIRES with apply: lock().
  [[nodiscard]] Result<Recovery> recover(bool apply, bool rollback);

  // Writes `operations` in their order as one transaction (§6 "Transactions"), named `command`
  // in its journal. A link on the way fails with Errc::unsafe_path before anything is written.
  // REQUIRES: lock() is held, recover() left no transaction, and the operations were planned from
  // files read under the lock. Returns the paths written, in order.
  [[nodiscard]] Result<std::vector<std::string>> write(const std::string& command,
                                                       std::vector<PlanOperation> operations,
                                                       const ClockReading& now);

  // Writes a confirmed plan (floors prune, telemetry compact). REQUIRES: as write().
  [[nodiscard]] Result<std::vector<std::string>> apply(const Plan& plan, const ClockReading& now);

  // Appends `bytes` (whole JSON Lines) to a store-relative file with one write in append mode,
  // making the root and the folders on the way. A link as the file or on the way fails with
  // Errc::unsafe_path and appends nothing (§2). Takes no lock: appends never interleave.
  [[nodiscard]] Status append(const std::string& path, std::string_view bytes);

  // Removes a store-relative regular file (floor pruning). REQUIRES: lock() is held.
  [[nodiscard]] Status remove(const std::string& path);

 private:
  CuratedStore(FileSystem& fs, std::string root) : fs_(&fs), root_(std::move(root)) {}
  [[nodiscard]] std::string absolute(const std::string& relative) const;
  [[nodiscard]] Status relative(const Status& status) const;
  // What the folders on the way to `path` are: Errc::unsafe_path for a link, Errc::layout for a
  // file (`link`, when given, is set to the linked folder); `exists` false when one is missing.
  [[nodiscard]] Status folders_to(const std::string& path, bool* exists,
                                  std::string* link = nullptr) const;
  [[nodiscard]] Status make_root();
  [[nodiscard]] Status make_folders_to(const std::string& path);

  FileSystem* fs_;
  std::string root_;
};

}  // namespace memkit
