// The three-tier workspace: listing memory/, reading and writing its files (spec tiers3.md §2,
// §9, §11).
#include "store/tiers_workspace.hpp"

#include <algorithm>

#include "store/commit_order.hpp"
#include "store/read_entry.hpp"
#include "store/recall_index.hpp"
#include "store/state_lock.hpp"
#include "store/workspace.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

// The apply paths of the workspace: its day logs and notes are read at their end (read()'s
// tails); its files are small, so every backup is a copy.
ApplyPaths tiers_apply_paths(const std::string& root, std::string state_dir) {
  ApplyPaths paths{root, std::move(state_dir)};
  paths.read_at_end = [](std::string_view) { return true; };
  return paths;
}

}  // namespace


Result<TiersWorkspace> TiersWorkspace::open(FileSystem& fs, std::string workspace) {
  if (workspace.empty()) return Status(Errc::invalid_argument, "--workspace: empty path");
  while (workspace.size() > 1 && workspace.back() == '/') workspace.pop_back();
  const Result<NodeType> type = fs.node_type(workspace + "/.");
  if (!type) return type.status();
  if (*type != NodeType::directory) {
    const Result<NodeType> plain = fs.node_type(workspace);
    const bool exists = plain && *plain != NodeType::none;
    return Status(Errc::invalid_argument,
                  "--workspace: " + shown_text(workspace) +
                      (exists ? ": not a directory" : ": no such directory"));
  }
  return TiersWorkspace(fs, std::move(workspace));
}

std::string TiersWorkspace::absolute(const std::string& relative) const {
  return root_ + "/" + relative;
}

Status TiersWorkspace::relative(const Status& status) const {
  const std::string prefix = root_ + "/";
  if (status.ok() || status.message().compare(0, prefix.size(), prefix) != 0) return status;
  return Status(status.code(), status.message().substr(prefix.size()));
}

Result<bool> TiersWorkspace::folder(const std::string& relative_path) const {
  const Result<NodeType> type = fs_->node_type(absolute(relative_path));
  if (!type) return relative(type.status());
  if (*type == NodeType::symlink) {
    return Status(Errc::unsafe_path, relative_path +
                                         ": is a symbolic link; memkit does not follow links in "
                                         "the workspace");
  }
  if (*type != NodeType::none && *type != NodeType::directory) {
    return Status(Errc::layout, relative_path + ": not a directory");
  }
  return *type == NodeType::directory;
}

Status TiersWorkspace::folders_to(const std::string& path) const {
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const Result<bool> exists = folder(path.substr(0, slash));
    if (!exists) return exists.status();
    if (!*exists) break;  // nothing below a missing folder exists either
  }
  return Status();
}

Result<std::vector<std::string>> TiersWorkspace::file_names(const std::string& folder_path) const {
  std::vector<std::string> found;
  if (Status way = folders_to(folder_path + "/"); !way.ok()) return way;
  const Result<bool> exists = folder(folder_path);
  if (!exists) return exists.status();
  if (!*exists) return found;
  Result<std::vector<std::string>> names = fs_->list_directory(absolute(folder_path));
  if (!names) return relative(names.status());
  for (const std::string& name : *names) {  // sorted bytewise
    const Result<NodeType> type = fs_->node_type(absolute(folder_path + "/" + name));
    if (type && *type == NodeType::file) found.push_back(name);
  }
  return found;
}

Result<tiers::TiersTree> TiersWorkspace::list(Listing parts) const {
  tiers::TiersTree tree;
  const std::string memory(tiers::kMemoryDir);
  const Result<bool> exists = folder(memory);
  if (!exists) return exists.status();
  tree.memory_exists = *exists;
  if (!*exists) return tree;
  auto with_suffix = [](std::vector<std::string> names, std::string_view suffix) {
    std::erase_if(names, [&](const std::string& name) {
      return name.size() <= suffix.size() ||
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0;
    });
    return names;
  };
  if (parts.sessions) {
    Result<std::vector<std::string>> sessions = file_names(std::string(tiers::kSessionsDir));
    if (!sessions) return sessions.status();
    tree.session_files = with_suffix(std::move(*sessions), ".md");
  }
  if (parts.data) {
    Result<std::vector<std::string>> data = file_names(std::string(tiers::kDataDir));
    if (!data) return data.status();
    tree.data_files = with_suffix(std::move(*data), ".csv");
  }
  Result<std::vector<std::string>> names = fs_->list_directory(absolute(memory));
  if (!names) return relative(names.status());
  for (const std::string& name : *names) {
    if (tiers::is_reserved_name(name)) continue;
    const Result<NodeType> type = fs_->node_type(absolute(memory + "/" + name));
    if (!type || *type != NodeType::directory) continue;  // files, and links never followed
    std::vector<std::string> files;
    if (parts.notes && (!parts.theme || *parts.theme == name)) {
      Result<std::vector<std::string>> notes = file_names(memory + "/" + name);
      if (!notes) return notes.status();
      files = with_suffix(std::move(*notes), ".md");
    }
    tree.theme_folders.emplace(name, std::move(files));
  }
  return tree;
}

Result<Snapshot> TiersWorkspace::read(const std::vector<std::string>& paths,
                                      const std::vector<std::string>& tails) const {
  std::vector<FileSnapshot> files;
  for (const std::string& path : paths) {
    if (Status way = folders_to(path); !way.ok()) return way;
    files.push_back(detail::read_entry(*fs_, absolute(path), path));
  }
  for (const std::string& path : tails) {
    if (Status way = folders_to(path); !way.ok()) return way;
    files.push_back(detail::read_entry(*fs_, absolute(path), path, detail::kAppendTailBytes));
  }
  return Snapshot(std::move(files));
}

Result<std::vector<std::string>> TiersWorkspace::init() {
  std::vector<std::string> created;
  for (std::string_view dir : {tiers::kMemoryDir, tiers::kSessionsDir, tiers::kDataDir}) {
    const Result<bool> exists = folder(std::string(dir));
    if (!exists) return exists.status();
    if (*exists) continue;
    if (Status made = fs_->create_directory(absolute(std::string(dir))); !made.ok()) {
      return relative(made);
    }
    created.push_back(std::string(dir) + "/");
  }
  const std::pair<std::string_view, std::string_view> files[] = {
      {tiers::kManifestPath, "{}\n"}, {tiers::kGlobalPath, tiers::global_skeleton()}};
  for (const auto& [path, bytes] : files) {
    const Result<NodeType> type = fs_->node_type(absolute(std::string(path)));
    if (!type) return relative(type.status());
    if (*type != NodeType::none) continue;  // never overwritten
    if (Status w = write_file_atomically(*fs_, absolute(std::string(path)), bytes, true); !w.ok()) {
      return relative(w);
    }
    created.emplace_back(path);
  }
  std::sort(created.begin(), created.end());
  return created;
}

Result<std::unique_ptr<LockHandle>> TiersWorkspace::lock(double timeout_seconds) {
  const Result<bool> state = folder(".memkit");
  if (!state) return state.status();
  if (!*state) {
    if (Status made = fs_->create_directory(absolute(".memkit")); !made.ok()) {
      // Another process may have made it a moment ago.
      const Result<bool> again = folder(".memkit");
      if (!again || !*again) return relative(made);
    }
  }
  Result<std::unique_ptr<LockHandle>> held =
      detail::lock_state_directory(*fs_, absolute(".memkit"), timeout_seconds);
  if (!held) return relative(held.status());
  return held;
}

Result<Recovery> TiersWorkspace::recover(bool apply, bool rollback) {
  Result<Recovery> recovery =
      recover_transactions(*fs_, tiers_apply_paths(root_, absolute(".memkit")), apply, rollback);
  if (!recovery) return relative(recovery.status());
  return recovery;
}

Result<std::vector<std::string>> TiersWorkspace::write(const std::string& command,
                                                       std::vector<PlanOperation> operations,
                                                       const ClockReading& now) {
  for (const PlanOperation& op : operations) {
    if (Status way = folders_to(op.path); !way.ok()) return way;
  }
  Result<std::vector<std::string>> written = detail::write_in_commit_order(
      *fs_, tiers_apply_paths(root_, absolute(".memkit")), command, std::move(operations), now);
  if (!written) return relative(written.status());
  return written;
}

Result<std::vector<std::string>> TiersWorkspace::apply(const Plan& plan, const ClockReading& now) {
  for (const PlanOperation& op : plan.operations()) {
    if (Status way = folders_to(op.path); !way.ok()) return way;
  }
  Result<std::vector<std::string>> written = apply_plan(
      *fs_, tiers_apply_paths(root_, absolute(".memkit")), plan, now, new_transaction_id(), false);
  if (!written) return relative(written.status());
  refresh_recall_indexes(*fs_, root_);  // what the plan removed leaves them
  return written;
}

}  // namespace memkit
