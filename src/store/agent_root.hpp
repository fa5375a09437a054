// The MemoryBox agent root (spec memorybox.md §2, §11): the folder holding brain/ and memory/.
// Shell: it reads the tiers' files into memorybox::Inputs and writes `init`'s files. Like the
// custodian workspace it never follows a symbolic link inside the root.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apply/apply.hpp"
#include "files/file_system.hpp"
#include "memkit/clock.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/memorybox/sync.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"

namespace memkit {

// What sync keeps beside the tier files (memorybox.md §9), as read.
struct SyncFiles {
  std::optional<std::string> state;         // .memkit/sync.json
  std::shared_ptr<const std::string> base;  // .memkit/sync/base.tsv
  std::optional<std::string> conflicts;     // .memkit/sync/conflicts.jsonl
  FileSnapshot conflicts_file;              // memory/SYNC_CONFLICTS.md
  memorybox::ModifiedTimes modified;        // every existing synced tier file (modified_times)
};

class AgentRoot final {
 public:
  // Checks that `root` is a directory. Fails with Errc::invalid_argument ("--root: ...").
  [[nodiscard]] static Result<AgentRoot> open(FileSystem& fs, std::string root);

  // open(), making `root` and the folders on its way first when they are missing (`memorybox
  // init`, like `mkdir -p`). A part of the path that is there but not a folder fails as open().
  [[nodiscard]] static Result<AgentRoot> create(FileSystem& fs, std::string root);

  // The tiers' fixed files (missing ones as missing entries), memory/daily/YYYY-MM-DD.md by date
  // and memory/ARCHIVES/*.md bytewise. brain/, memory/, memory/daily/ or memory/ARCHIVES/ as a
  // symbolic link fails with Errc::unsafe_path; a linked file is an EntryState::symlink entry.
  [[nodiscard]] Result<memorybox::Inputs> read_memorybox_inputs() const;

  // Replaces the file at `path` (relative to the root) with `bytes` atomically. Refuses a folder
  // of the layout, or the file, reached through a symbolic link; a missing folder is an error
  // unless `make_folders`.
  [[nodiscard]] Status write_file(const std::string& path, std::string_view bytes,
                                  bool make_folders = false);

  // Records `profile` in .memkit/profile when given, then creates each missing file of the
  // recorded profile's tier 1-4 lists as "# <stem>\n", and memory/daily/ and memory/ARCHIVES/;
  // never changes an existing file. Each file is written atomically. REQUIRES: lock() is held.
  [[nodiscard]] Result<MemoryBoxInit> init_memorybox(
      std::optional<memorybox::Profile> profile = std::nullopt);
  // What init_memorybox refuses before it writes anything: a folder of the layout that is a link
  // or not a folder. Reads only, so a refused init makes not even .memkit/.
  [[nodiscard]] Status check_init_folders() const;

  // Takes .memkit/lock under the root (making .memkit and its .gitignore, never through a link),
  // waiting up to `timeout_seconds` (Errc::lock_busy).
  [[nodiscard]] Result<std::unique_ptr<LockHandle>> lock(double timeout_seconds);

  // Returns true iff lock() would write nothing and recover(true) would find nothing to finish:
  // .memkit, its lock file and its .gitignore are there (none a link) and .memkit/txn holds no
  // transaction. True at the moment it looks (another process may leave a transaction later);
  // anything it cannot look at makes it false.
  [[nodiscard]] bool lock_writes_nothing() const;

  // compaction.md §12.5 for what a crash left in .memkit/txn: lists the unfinished
  // transactions; with `apply`, drops a prepared one and rolls a committing one forward (back
  // with `rollback`), and a conflict keeps its transaction (MK-TXN-002 in the findings).
  // REQUIRES with apply: lock().
  [[nodiscard]] Result<Recovery> recover(bool apply, bool rollback = false);

  // Writes a confirmed plan whose paths are relative to the root (compaction.md §12.3-§12.4),
  // keeping no applied record: memorybox has no undo. Returns the paths written, in write order.
  // REQUIRES: lock() is held, recover() left no transaction, and the plan was made under the lock.
  [[nodiscard]] Result<std::vector<std::string>> apply(const Plan& plan, const ClockReading& now);

  // Reads the sync state files (never through a link: Errc::unsafe_path); `modified` is left
  // empty (modified_times gives it).
  [[nodiscard]] Result<SyncFiles> read_sync_files() const;
  // The modification times of the files of `inputs` that sync (memorybox::sync_table_of).
  [[nodiscard]] Result<memorybox::ModifiedTimes> modified_times(
      const memorybox::Inputs& inputs) const;

  // The bytes of .memkit/<name> ("sync.json", "sync/base.tsv", ...), nullopt when it or a folder
  // on the way is missing; never through a link (Errc::unsafe_path).
  [[nodiscard]] Result<std::optional<std::string>> read_state_file(const std::string& name) const;
  // Replaces .memkit/<name> ("sync.json", "sync/base.tsv", "sync/conflicts.jsonl") atomically,
  // making .memkit/ and .memkit/sync/ when missing, never through a link.
  [[nodiscard]] Status write_state_file(const std::string& name, std::string_view bytes);
  // Appends to .memkit/<name> with one write and an fsync, making it (and its folders) when
  // missing, never through a link. A crash can leave the bytes cut short at the end: the reader
  // drops an unterminated last line.
  [[nodiscard]] Status append_state_file(const std::string& name, std::string_view bytes);

  // What `memorybox client set` reads of one client (memorybox.md §10): brain/clients/<C>.md and
  // every entry under memory/clients/<C>/ and memory/ARCHIVES/clients/<C>/, folders walked and
  // links never followed (a link is an EntryState::symlink entry, anything else that is not a
  // regular file or a folder an EntryState::not_a_file one). A folder on the way to them that is
  // a link fails with Errc::unsafe_path, one that is not a folder with Errc::layout; a key that
  // memorybox::is_client_key refuses fails with Errc::invalid_argument.
  [[nodiscard]] Result<Snapshot> read_client_files(const std::string& client) const;

 private:
  AgentRoot(FileSystem& fs, std::string root) : fs_(&fs), root_(std::move(root)) {}
  [[nodiscard]] std::string absolute(const std::string& relative) const;
  // The root's profile: .memkit/profile, or default when it is missing.
  [[nodiscard]] Result<memorybox::Profile> read_profile() const;
  // The regular *.md files directly in a folder of the root, sorted; none when it is missing.
  [[nodiscard]] Result<std::vector<std::string>> markdown_files(
      const std::string& folder_path) const;
  // Refuses a folder of the layout that is a symbolic link; returns whether it exists.
  [[nodiscard]] Result<bool> folder(const std::string& relative) const;
  // A failure whose message starts with the root's path, told relative to the root.
  [[nodiscard]] Status relative(const Status& status) const;
  // Checks each folder on the way to `path` (never a link), making missing ones when `make`.
  [[nodiscard]] Status folders_for(const std::string& path, bool make);

  FileSystem* fs_;
  std::string root_;
};

}  // namespace memkit
