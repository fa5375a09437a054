// Crash leftovers (compaction.md §12.5): the `.memkit-tmp-*` file of a write killed between making
// its temporary and renaming it. Nothing names a temporary (journals name their backups and
// prepared copies, which are final names), so a leftover is found by its name and its age.
//
// The rule: with the state lock held, a temporary is stale when it was last modified before the
// lock was taken (the lock file's mtime, which lock_exclusive sets on acquisition), or at the
// same instant as far as file times tell. Every write
// that makes temporaries under the lock is then finished or dead, since its writer held the lock
// before us. The writes without the lock (init's new files, the state folder's .gitignore before
// its first lock) make fresh files only; one still in flight whose temporary was finished before
// the lock was taken loses its rename and reports the file not written: nothing is lost unseen.
#include <string>

#include "apply/apply.hpp"

namespace memkit {
namespace {

constexpr std::string_view kTemporaryPrefix = ".memkit-tmp-";

Status sweep(FileSystem& fs, const std::string& folder, std::int64_t lock_taken, bool recursive) {
  const Result<NodeType> type = fs.node_type(folder);
  if (!type || *type != NodeType::directory) return Status();  // nothing there to sweep
  Result<std::vector<std::string>> names = fs.list_directory(folder);
  if (!names) return names.status();
  for (const std::string& name : *names) {
    const std::string path = folder + "/" + name;
    const Result<NodeType> kind = fs.node_type(path);
    if (!kind) return kind.status();
    if (*kind == NodeType::directory && recursive) {
      if (Status swept = sweep(fs, path, lock_taken, true); !swept.ok()) return swept;
      continue;
    }
    if (*kind != NodeType::file || !name.starts_with(kTemporaryPrefix)) continue;
    const Result<std::int64_t> modified = fs.modified_millis(path);
    if (!modified) return modified.status();
    // Later than the lock's taking: possibly a lockless write's, still in flight. The same
    // instant counts as before: file times come from the kernel's coarse clock (a few ms), and a
    // crash's leftover is often that recent when recover runs straight after it.
    if (*modified > lock_taken) continue;
    if (Status removed = fs.remove_file(path); !removed.ok()) return removed;
  }
  return Status();
}

}  // namespace

Status remove_stale_temporaries(FileSystem& fs, const std::vector<std::string>& folders,
                                const std::string& state_dir, bool recursive) {
  const Result<std::int64_t> lock_taken = fs.modified_millis(state_dir + "/lock");
  if (!lock_taken) return Status();  // no lock file: not called under the lock; leave all alone
  for (const std::string& folder : folders) {
    if (Status swept = sweep(fs, folder, *lock_taken, recursive); !swept.ok()) return swept;
  }
  return Status();
}

}  // namespace memkit
