// The three-tier workspace (spec tiers3.md §2, §9, §11): the folder holding memory/. Shell: it
// lists memory/ into a TiersTree, reads the files a command names, makes `init`'s layout, and
// writes a command's change as one transaction under .memkit/lock. It never follows a symbolic
// link inside the workspace.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apply/apply.hpp"
#include "files/file_system.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"
#include "memkit/tiers.hpp"

namespace memkit {

class TiersWorkspace final {
 public:
  // Checks that `workspace` is a directory. Fails with Errc::invalid_argument ("--workspace: ...").
  [[nodiscard]] static Result<TiersWorkspace> open(FileSystem& fs, std::string workspace);

  // Which parts of memory/ a command lists: the theme folders' names always, their notes and
  // the other folders' files when asked (each file listed costs a stat).
  struct Listing {
    bool sessions = true;
    bool notes = true;  // of every theme folder, or only of `theme`
    bool data = true;
    std::optional<std::string> theme;  // with notes: the one folder whose notes are listed
  };

  // The names under memory/ (§2). memory/ or memory/sessions or memory/data as a symbolic link,
  // or not a folder, fails with Errc::unsafe_path or Errc::layout; a theme folder that is a link
  // is left out.
  [[nodiscard]] Result<tiers::TiersTree> list(Listing parts) const;

  // The regular files directly in `folder` (relative), sorted; none when it is missing.
  [[nodiscard]] Result<std::vector<std::string>> file_names(const std::string& folder) const;

  // Reads each path (relative to the workspace) into a snapshot entry; a missing file is a missing
  // entry and a link a symlink entry, never followed. A folder on the way that is a link fails
  // with Errc::unsafe_path.
  [[nodiscard]] Result<Snapshot> read(const std::vector<std::string>& paths,
                                      const std::vector<std::string>& tails = {}) const;

  // `tiers init`: memory/, memory/sessions/, memory/data/, manifest.json ("{}\n") and the
  // global.md skeleton, each only when missing. Returns what it made, sorted; folders end in "/".
  [[nodiscard]] Result<std::vector<std::string>> init();

  // Takes .memkit/lock under the workspace, waiting up to `timeout_seconds` (Errc::lock_busy).
  [[nodiscard]] Result<std::unique_ptr<LockHandle>> lock(double timeout_seconds);

  // compaction.md §12.5 over .memkit/txn. REQUIRES with apply: lock().
  [[nodiscard]] Result<Recovery> recover(bool apply, bool rollback);

  // Writes `operations` in their order as one transaction (§9), named `command` in its journal.
  // REQUIRES: lock() is held, recover() left no transaction, and the operations were made from
  // files read under the lock. Returns the paths written, in order.
  [[nodiscard]] Result<std::vector<std::string>> write(const std::string& command,
                                                       std::vector<PlanOperation> operations,
                                                       const ClockReading& now);

  // Writes a confirmed plan (archive-themes), archives first. REQUIRES: as write().
  [[nodiscard]] Result<std::vector<std::string>> apply(const Plan& plan, const ClockReading& now);

  // Refuses a folder that is a symbolic link or not a folder; returns whether it exists.
  [[nodiscard]] Result<bool> folder(const std::string& relative) const;

 private:
  TiersWorkspace(FileSystem& fs, std::string root) : fs_(&fs), root_(std::move(root)) {}
  [[nodiscard]] std::string absolute(const std::string& relative) const;
  // Checks every folder on the way to `path`.
  [[nodiscard]] Status folders_to(const std::string& path) const;
  [[nodiscard]] Status relative(const Status& status) const;

  FileSystem* fs_;
  std::string root_;
};

}  // namespace memkit
