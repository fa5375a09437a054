// The curated memory store: reads, listings, transactions and appends (spec curated.md §2, §6).
#include "store/curated_store.hpp"

#include "store/commit_order.hpp"
#include "store/read_entry.hpp"
#include "store/recall_index.hpp"
#include "store/state_lock.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

// The apply paths of the store: its logs and floor day files are read at their end (read()'s
// tails), its row files whole.
ApplyPaths curated_apply_paths(const std::string& root, std::string state_dir) {
  ApplyPaths paths{root, std::move(state_dir)};
  paths.read_at_end = [](std::string_view path) { return !path.starts_with("rows/"); };
  return paths;
}

}  // namespace


Result<CuratedStore> CuratedStore::open(FileSystem& fs, std::string root) {
  if (root.empty()) return Status(Errc::invalid_argument, "--store: empty path");
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  // The root itself may be a link (§2): "/." follows it.
  const Result<NodeType> type = fs.node_type(root + "/.");
  if (!type) return type.status();
  if (*type != NodeType::directory) {
    const Result<NodeType> plain = fs.node_type(root);
    if (!plain) return plain.status();
    if (*plain != NodeType::none) {
      return Status(Errc::invalid_argument, "--store: " + shown_text(root) + ": not a directory");
    }
    if (!is_creatable_name(root)) {  // a write would make it
      return Status(Errc::invalid_argument,
                    "--store: " + shown_text(root) +
                        ": holds a control character or invalid UTF-8; memkit creates no such "
                        "folder");
    }
  }
  return CuratedStore(fs, std::move(root));
}

std::string CuratedStore::absolute(const std::string& relative_path) const {
  return root_ + "/" + relative_path;
}

Status CuratedStore::relative(const Status& status) const {
  const std::string prefix = root_ + "/";
  if (status.ok() || status.message().compare(0, prefix.size(), prefix) != 0) return status;
  return Status(status.code(), status.message().substr(prefix.size()));
}

Status CuratedStore::folders_to(const std::string& path, bool* exists, std::string* link) const {
  *exists = true;
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string folder = path.substr(0, slash);
    const Result<NodeType> type = fs_->node_type(absolute(folder));
    if (!type) return relative(type.status());
    if (*type == NodeType::symlink) {
      if (link != nullptr) *link = folder;
      return Status(Errc::unsafe_path,
                    folder + ": a symbolic link; memkit never writes or reads through one");
    }
    if (*type == NodeType::none) {
      *exists = false;
      return Status();  // nothing below a missing folder exists either
    }
    if (*type != NodeType::directory) return Status(Errc::layout, folder + ": not a directory");
  }
  return Status();
}

Result<Snapshot> CuratedStore::read(const std::vector<std::string>& paths,
                                    const std::vector<std::string>& tails) const {
  std::vector<FileSnapshot> files;
  files.reserve(paths.size() + tails.size());
  std::vector<std::pair<const std::string*, bool>> all;  // (path, tail only)
  for (const std::string& path : paths) all.emplace_back(&path, false);
  for (const std::string& path : tails) all.emplace_back(&path, true);
  for (const auto& [each, tail] : all) {
    const std::string& path = *each;
    bool exists = true;
    std::string link;
    const Status way = folders_to(path, &exists, &link);
    if (way.code() == Errc::unsafe_path) {
      FileSnapshot linked;  // refused by whoever would write it, like a linked file
      linked.path = path;
      linked.state = EntryState::symlink;
      linked.error = std::move(link);  // the folder, named once for all the files below it
      files.push_back(std::move(linked));
      continue;
    }
    if (!way.ok()) return way;
    if (!exists) {
      FileSnapshot missing;
      missing.path = path;
      missing.state = EntryState::missing;
      files.push_back(std::move(missing));
      continue;
    }
    files.push_back(detail::read_entry(
        *fs_, absolute(path), path,
        tail ? std::optional<std::size_t>(detail::kAppendTailBytes) : std::nullopt));
  }
  return Snapshot(std::move(files));
}

Result<std::vector<std::string>> CuratedStore::file_names(const std::string& folder) const {
  std::vector<std::string> found;
  bool exists = true;
  if (Status way = folders_to(folder + "/", &exists); !way.ok()) return way;
  if (!exists) return found;
  Result<std::vector<std::string>> names = fs_->list_directory(absolute(folder));
  if (!names) return relative(names.status());
  for (const std::string& name : *names) {  // sorted bytewise
    const Result<NodeType> type = fs_->node_type(absolute(folder + "/" + name));
    if (type && *type == NodeType::file) found.push_back(name);
  }
  return found;
}

Status CuratedStore::make_root() {
  const Result<NodeType> type = fs_->node_type(root_ + "/.");
  if (!type) return type.status();
  if (*type == NodeType::directory) return Status();
  if (Status made = fs_->create_directory(root_); !made.ok()) {
    return Status(made.code(), "--store: " + made.message());
  }
  return Status();
}

Status CuratedStore::make_folders_to(const std::string& path) {
  if (Status root = make_root(); !root.ok()) return root;
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (Status made = fs_->create_directory(absolute(path.substr(0, slash))); !made.ok()) {
      return relative(made);
    }
  }
  return Status();
}

Result<std::unique_ptr<LockHandle>> CuratedStore::lock(double timeout_seconds) {
  if (Status made = make_folders_to(".memkit/lock"); !made.ok()) return made;
  bool exists = true;
  if (Status way = folders_to(".memkit/lock", &exists); !way.ok()) return way;
  Result<std::unique_ptr<LockHandle>> held =
      detail::lock_state_directory(*fs_, absolute(".memkit"), timeout_seconds);
  if (!held) return relative(held.status());
  return held;
}

Result<Recovery> CuratedStore::recover(bool apply, bool rollback) {
  Result<Recovery> recovery =
      recover_transactions(*fs_, curated_apply_paths(root_, absolute(".memkit")), apply, rollback);
  if (!recovery) return relative(recovery.status());
  return recovery;
}

Result<std::vector<std::string>> CuratedStore::write(const std::string& command,
                                                     std::vector<PlanOperation> operations,
                                                     const ClockReading& now) {
  for (const PlanOperation& op : operations) {
    bool exists = true;
    if (Status way = folders_to(op.path, &exists); !way.ok()) return way;
  }
  Result<std::vector<std::string>> written = detail::write_in_commit_order(
      *fs_, curated_apply_paths(root_, absolute(".memkit")), command, std::move(operations), now);
  if (!written) return relative(written.status());
  return written;
}

Result<std::vector<std::string>> CuratedStore::apply(const Plan& plan, const ClockReading& now) {
  for (const PlanOperation& op : plan.operations()) {
    bool exists = true;
    if (Status way = folders_to(op.path, &exists); !way.ok()) return way;
  }
  Result<std::vector<std::string>> written = apply_plan(
      *fs_, curated_apply_paths(root_, absolute(".memkit")), plan, now, new_transaction_id(), false);
  if (!written) return relative(written.status());
  refresh_recall_indexes(*fs_, root_);  // what the plan removed leaves them
  return written;
}

Status CuratedStore::append(const std::string& path, std::string_view bytes) {
  bool exists = true;
  if (Status way = folders_to(path, &exists); !way.ok()) return way;
  if (!exists) {
    if (Status made = make_folders_to(path); !made.ok()) return made;
    if (Status way = folders_to(path, &exists); !way.ok()) return way;  // made by someone else?
  }
  const Result<NodeType> type = fs_->node_type(absolute(path));
  if (!type) return relative(type.status());
  if (*type == NodeType::symlink) {
    return Status(Errc::unsafe_path,
                  path + ": a symbolic link; memkit never writes or appends through one");
  }
  return relative(fs_->append_file(absolute(path), bytes));
}

Status CuratedStore::remove(const std::string& path) {
  bool exists = true;
  if (Status way = folders_to(path, &exists); !way.ok()) return way;
  if (!exists) return Status();
  return relative(fs_->remove_file(absolute(path)));
}

}  // namespace memkit
