// The MemoryBox agent root: reading the tiers and writing `init` (spec memorybox.md §2, §11).
#include "store/agent_root.hpp"

#include <algorithm>

#include "memkit/memorybox/canon.hpp"
#include "memkit/memorybox/clients.hpp"
#include "memkit/text.hpp"
#include "store/read_entry.hpp"
#include "store/recall_index.hpp"
#include "store/state_lock.hpp"
#include "store/workspace.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

bool ends_with_md(const std::string& name) {
  return name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0;
}

// The profile recorded by `init --profile` (memorybox.md §10): .memkit/profile holds its name.
constexpr const char* kProfileFile = ".memkit/profile";

}  // namespace

Result<std::vector<std::string>> AgentRoot::markdown_files(const std::string& folder_path) const {
  std::vector<std::string> found;
  const Result<bool> exists = folder(folder_path);
  if (!exists) return exists.status();
  if (!*exists) return found;
  Result<std::vector<std::string>> names = fs_->list_directory(absolute(folder_path));
  if (!names) return relative(names.status());
  for (const std::string& name : *names) {  // sorted bytewise
    const std::string path = folder_path + "/" + name;
    const Result<NodeType> type = fs_->node_type(absolute(path));
    if (ends_with_md(name) && type && *type == NodeType::file) found.push_back(path);
  }
  return found;
}

Result<memorybox::Profile> AgentRoot::read_profile() const {
  const Result<NodeType> type = fs_->node_type(absolute(kProfileFile));
  if (!type) return relative(type.status());
  if (*type == NodeType::none) return memorybox::Profile::standard;
  Result<std::string> bytes = fs_->read_file(absolute(kProfileFile));
  if (!bytes) return relative(bytes.status());
  const std::string_view name = strip_w(*bytes);
  if (const std::optional<memorybox::Profile> profile = memorybox::parse_profile(name)) {
    return *profile;
  }
  return Status(Errc::layout, std::string(kProfileFile) + ": unknown profile '" +
                                  std::string(name) + "' (default or maven)");
}

Result<AgentRoot> AgentRoot::open(FileSystem& fs, std::string root) {
  if (root.empty()) return Status(Errc::invalid_argument, "--root: empty path");
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  const Result<NodeType> type = fs.node_type(root + "/.");
  if (!type) return type.status();
  if (*type != NodeType::directory) {
    const Result<NodeType> plain = fs.node_type(root);
    const bool exists = plain && *plain != NodeType::none;
    return Status(Errc::invalid_argument,
                  "--root: " + shown_text(root) + (exists ? ": not a directory" : ": no such directory"));
  }
  return AgentRoot(fs, std::move(root));
}

Result<AgentRoot> AgentRoot::create(FileSystem& fs, std::string root) {
  if (root.empty()) return Status(Errc::invalid_argument, "--root: empty path");
  for (std::size_t end = root.find('/', 1); ; end = root.find('/', end + 1)) {
    const std::string part = root.substr(0, end);
    const Result<NodeType> type = fs.node_type(part);
    if (!type) return type.status();
    if (*type == NodeType::none) {
      if (!is_creatable_name(root)) {
        return Status(Errc::invalid_argument,
                      "--root: " + shown_text(root) +
                          ": holds a control character or invalid UTF-8; memkit creates no such "
                          "folder");
      }
      if (Status made = fs.create_directory(part); !made.ok()) return made;
    }
    if (end == std::string::npos) break;
  }
  return open(fs, std::move(root));
}

std::string AgentRoot::absolute(const std::string& relative) const {
  return root_ + "/" + relative;
}

Result<bool> AgentRoot::folder(const std::string& relative) const {
  const Result<NodeType> type = fs_->node_type(absolute(relative));
  if (!type) return type.status();
  if (*type == NodeType::symlink) {
    return Status(Errc::unsafe_path, relative +
                                         ": is a symbolic link; memkit does not follow "
                                         "links in the agent root");
  }
  if (*type != NodeType::none && *type != NodeType::directory) {
    return Status(Errc::layout, relative + ": not a directory");
  }
  return *type == NodeType::directory;
}

Result<memorybox::Inputs> AgentRoot::read_memorybox_inputs() const {
  memorybox::Inputs inputs;
  std::vector<FileSnapshot> files;
  const Result<bool> brain = folder("brain");
  if (!brain) return brain.status();
  const Result<bool> memory = folder("memory");
  if (!memory) return memory.status();
  const Result<memorybox::Profile> profile = read_profile();
  if (!profile) return profile.status();
  inputs.profile = *profile;
  if (inputs.profile == memorybox::Profile::maven && *brain) {
    Result<std::vector<std::string>> clients = markdown_files("brain/clients");
    if (!clients) return clients.status();
    for (const std::string& path : *clients) {
      files.push_back(detail::read_entry(*fs_, absolute(path), path));
      const std::optional<memorybox::Lifecycle> lifecycle =
          memorybox::client_lifecycle(files.back().text());
      // An unreadable Lifecycle keeps the profile loaded (active) rather than hiding it.
      inputs.clients.push_back({path, lifecycle.value_or(memorybox::Lifecycle::active)});
    }
    const Result<bool> state = folder(".memkit");
    if (!state) return state.status();
    const std::string ledger = absolute(std::string(memorybox::kCanonLedger));
    const Result<NodeType> ledger_type = fs_->node_type(ledger);
    if (!ledger_type) return relative(ledger_type.status());
    if (*state && *ledger_type != NodeType::none) {
      if (*ledger_type != NodeType::file) {
        return Status(Errc::unsafe_path,
                      std::string(memorybox::kCanonLedger) + ": not a regular file");
      }
      Result<std::string> bytes = fs_->read_file(ledger);
      if (!bytes) return relative(bytes.status());
      inputs.canon_ledger = std::make_shared<const std::string>(std::move(*bytes));
    }
    Result<std::vector<std::string>> canon = markdown_files("brain/canon");
    if (!canon) return canon.status();
    inputs.canon_files = std::move(*canon);
    for (const std::string& path : inputs.canon_files) {
      files.push_back(detail::read_entry(*fs_, absolute(path), path));
    }
  }
  inputs.tiers = memorybox::profile_tiers(inputs.profile, inputs.clients);
  for (const memorybox::TierSpec& tier : inputs.tiers) {
    for (const std::string& path : tier.files) {
      if (std::none_of(files.begin(), files.end(),
                       [&](const FileSnapshot& f) { return f.path == path; })) {
        files.push_back(detail::read_entry(*fs_, absolute(path), path));
      }
    }
  }
  if (*memory) {
    const Result<bool> daily = folder(std::string(memorybox::kDailyFolder));
    if (!daily) return daily.status();
    if (*daily) {
      Result<std::vector<std::string>> names =
          fs_->list_directory(absolute(std::string(memorybox::kDailyFolder)));
      if (!names) return names.status();
      for (const std::string& name : *names) {  // sorted bytewise, which is by date here
        if (memorybox::daily_date(name)) {
          inputs.daily_files.push_back(std::string(memorybox::kDailyFolder) + "/" + name);
        }
      }
    }
    const Result<bool> archives = folder(std::string(memorybox::kArchiveFolder));
    if (!archives) return archives.status();
    if (*archives) {
      Result<std::vector<std::string>> names =
          fs_->list_directory(absolute(std::string(memorybox::kArchiveFolder)));
      if (!names) return names.status();
      for (const std::string& name : *names) {
        const std::string path = std::string(memorybox::kArchiveFolder) + "/" + name;
        const Result<NodeType> type = fs_->node_type(absolute(path));
        if (ends_with_md(name) && type && *type != NodeType::directory) {
          inputs.archive_files.push_back(path);
        }
      }
    }
  }
  if (*brain) {
    Result<std::vector<std::string>> names = fs_->list_directory(absolute("brain"));
    if (!names) return names.status();
    for (const std::string& name : *names) {
      const std::string path = "brain/" + name;
      const Result<NodeType> type = fs_->node_type(absolute(path));
      if (ends_with_md(name) && type && *type == NodeType::file) inputs.brain_files.push_back(path);
    }
  }
  // Every file under the root for link checks (memorybox.md §8 item 9); links are not followed.
  std::vector<std::string> folders = {""};
  while (!folders.empty()) {
    const std::string folder_path = folders.back();
    folders.pop_back();
    Result<std::vector<std::string>> names =
        fs_->list_directory(folder_path.empty() ? root_ : absolute(folder_path));
    if (!names) continue;  // an unreadable folder only hides its files from the link check
    for (const std::string& name : *names) {
      const std::string path = folder_path.empty() ? name : folder_path + "/" + name;
      if (folder_path.empty() && (name == ".git" || name == ".memkit")) continue;
      const Result<NodeType> type = fs_->node_type(absolute(path));
      if (!type) continue;
      if (*type == NodeType::directory) {
        folders.push_back(path);
      } else if (*type == NodeType::file) {
        inputs.all_files.push_back(path);
      }
    }
  }
  std::sort(inputs.all_files.begin(), inputs.all_files.end());
  for (const std::string& path : inputs.brain_files) {
    if (std::none_of(files.begin(), files.end(),
                     [&](const FileSnapshot& f) { return f.path == path; })) {
      files.push_back(detail::read_entry(*fs_, absolute(path), path));
    }
  }
  for (const std::vector<std::string>* found : {&inputs.daily_files, &inputs.archive_files}) {
    for (const std::string& path : *found) {
      files.push_back(detail::read_entry(*fs_, absolute(path), path));
    }
  }
  inputs.snapshot = Snapshot(std::move(files));
  return inputs;
}

Status AgentRoot::write_file(const std::string& path, std::string_view bytes, bool make_folders) {
  if (Status way = folders_for(path, make_folders); !way.ok()) return way;
  return relative(write_file_atomically(*fs_, absolute(path), bytes, false));
}

Status AgentRoot::folders_for(const std::string& path, bool make_folders) {
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string parent = path.substr(0, slash);
    const Result<bool> checked = folder(parent);
    if (!checked) return checked.status();
    if (*checked) continue;
    if (!make_folders) return Status(Errc::io, parent + ": no such folder");
    if (Status made = fs_->create_directory(absolute(parent)); !made.ok()) return relative(made);
  }
  return Status();
}

Result<std::optional<std::string>> AgentRoot::read_state_file(const std::string& name) const {
  const std::string path = ".memkit/" + name;
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const Result<bool> there = folder(path.substr(0, slash));
    if (!there) return there.status();
    if (!*there) return std::optional<std::string>();
  }
  const Result<NodeType> type = fs_->node_type(absolute(path));
  if (!type) return relative(type.status());
  if (*type == NodeType::none) return std::optional<std::string>();
  if (*type != NodeType::file) return Status(Errc::unsafe_path, path + ": not a regular file");
  Result<std::string> bytes = fs_->read_file(absolute(path));
  if (!bytes) return relative(bytes.status());
  return std::optional<std::string>(std::move(*bytes));
}

Result<SyncFiles> AgentRoot::read_sync_files() const {
  SyncFiles files;
  Result<std::optional<std::string>> state = read_state_file("sync.json");
  if (!state) return state.status();
  files.state = std::move(*state);
  Result<std::optional<std::string>> base = read_state_file("sync/base.tsv");
  if (!base) return base.status();
  if (*base) files.base = std::make_shared<const std::string>(std::move(**base));
  Result<std::optional<std::string>> conflicts = read_state_file("sync/conflicts.jsonl");
  if (!conflicts) return conflicts.status();
  files.conflicts = std::move(*conflicts);
  const std::string conflicts_path(memorybox::kSyncConflictsFile);
  files.conflicts_file = detail::read_entry(*fs_, absolute(conflicts_path), conflicts_path);
  return files;
}

Result<memorybox::ModifiedTimes> AgentRoot::modified_times(const memorybox::Inputs& inputs) const {
  memorybox::ModifiedTimes modified;
  for (const FileSnapshot& f : inputs.snapshot.files()) {
    if (!f.exists() || !memorybox::sync_table_of(f.path)) continue;
    const Result<std::int64_t> millis = fs_->modified_millis(absolute(f.path));
    if (!millis) return relative(millis.status());
    const Result<ClockReading> at = ClockReading::create(*millis, 0);
    if (!at) return at.status();
    modified.emplace(f.path, at->utc_rfc3339_millis());
  }
  return modified;
}

Status AgentRoot::write_state_file(const std::string& name, std::string_view bytes) {
  return write_file(".memkit/" + name, bytes, true);
}

Status AgentRoot::append_state_file(const std::string& name, std::string_view bytes) {
  const std::string path = ".memkit/" + name;
  if (Status way = folders_for(path, true); !way.ok()) return way;
  return relative(fs_->append_file(absolute(path), bytes));
}

namespace {
constexpr const char* kInitFolders[] = {"brain", "memory", "memory/daily", "memory/ARCHIVES"};
}  // namespace

Status AgentRoot::check_init_folders() const {
  for (const char* relative : kInitFolders) {
    if (const Result<bool> checked = folder(relative); !checked) return checked.status();
  }
  return Status();
}

Result<MemoryBoxInit> AgentRoot::init_memorybox(std::optional<memorybox::Profile> profile) {
  MemoryBoxInit result;
  auto make_folder = [&](const std::string& relative) -> Status {
    const Result<bool> exists = folder(relative);
    if (!exists) return exists.status();
    if (*exists) return Status();
    if (Status made = fs_->create_directory(absolute(relative)); !made.ok()) return made;
    result.created.push_back(relative + "/");
    return Status();
  };
  // Every folder is checked before anything is made: a refusal writes nothing.
  if (Status checked = check_init_folders(); !checked.ok()) return checked;
  for (const char* relative : kInitFolders) {
    if (Status made = make_folder(relative); !made.ok()) return made;
  }
  if (profile) {
    const Result<bool> state = folder(".memkit");
    if (!state) return state.status();
    if (!*state) {
      if (Status made = fs_->create_directory(absolute(".memkit")); !made.ok()) return made;
    }
    const std::string line = std::string(memorybox::profile_name(*profile)) + "\n";
    if (Status written = write_file_atomically(*fs_, absolute(kProfileFile), line, false);
        !written.ok()) {
      return written;
    }
  }
  const Result<memorybox::Profile> recorded = read_profile();
  if (!recorded) return recorded.status();
  for (const memorybox::TierSpec& tier : memorybox::profile_tiers(*recorded, {})) {
    if (tier.tier > 4) continue;
    for (const std::string& path : tier.files) {
      const Result<NodeType> type = fs_->node_type(absolute(path));
      if (!type) return type.status();
      if (*type != NodeType::none) continue;  // never changes an existing file, whatever it is
      if (Status written =
              write_file_atomically(*fs_, absolute(path), memorybox::init_file_bytes(path), true);
          !written.ok()) {
        return written;
      }
      result.created.push_back(path);
    }
  }
  // The folders brain/ and memory/ are made for the files; only the spec's folders are listed.
  result.created.erase(
      std::remove_if(result.created.begin(), result.created.end(),
                     [](const std::string& p) { return p == "brain/" || p == "memory/"; }),
      result.created.end());
  std::sort(result.created.begin(), result.created.end());
  return result;
}

Status AgentRoot::relative(const Status& status) const {
  const std::string prefix = root_ + "/";
  if (status.ok() || status.message().compare(0, prefix.size(), prefix) != 0) return status;
  return Status(status.code(), status.message().substr(prefix.size()));
}

Result<std::unique_ptr<LockHandle>> AgentRoot::lock(double timeout_seconds) {
  const Result<bool> state = folder(".memkit");
  if (!state) return state.status();
  if (!*state) {
    if (Status made = fs_->create_directory(absolute(".memkit")); !made.ok()) return relative(made);
  }
  Result<std::unique_ptr<LockHandle>> held =
      detail::lock_state_directory(*fs_, absolute(".memkit"), timeout_seconds);
  if (!held) return relative(held.status());
  return held;
}

bool AgentRoot::lock_writes_nothing() const {
  const Result<bool> state = folder(".memkit");
  if (!state || !*state) return false;
  for (const char* file : {".memkit/lock", ".memkit/.gitignore"}) {
    const Result<NodeType> type = fs_->node_type(absolute(file));
    if (!type || *type != NodeType::file) return false;
  }
  const Result<NodeType> txn = fs_->node_type(absolute(".memkit/txn"));
  if (!txn) return false;
  if (*txn == NodeType::none) return true;
  if (*txn != NodeType::directory) return false;
  const Result<std::vector<std::string>> pending = fs_->list_directory(absolute(".memkit/txn"));
  return pending && pending->empty();
}

Result<Recovery> AgentRoot::recover(bool apply, bool rollback) {
  Result<Recovery> recovery =
      recover_transactions(*fs_, ApplyPaths{root_, absolute(".memkit")}, apply, rollback);
  if (!recovery) return relative(recovery.status());
  return recovery;
}

Result<std::vector<std::string>> AgentRoot::apply(const Plan& plan, const ClockReading& now) {
  // No folder a plan writes under may be a link (apply_plan makes the missing ones).
  for (const PlanOperation& op : plan.operations()) {
    for (std::size_t slash = op.path.find('/'); slash != std::string::npos;
         slash = op.path.find('/', slash + 1)) {
      if (const Result<bool> exists = folder(op.path.substr(0, slash)); !exists) {
        return exists.status();
      }
    }
  }
  Result<std::vector<std::string>> written = apply_plan(
      *fs_, ApplyPaths{root_, absolute(".memkit")}, plan, now, new_transaction_id(), false);
  if (!written) return relative(written.status());
  refresh_recall_indexes(*fs_, root_);  // what the plan removed leaves them
  return written;
}

Result<Snapshot> AgentRoot::read_client_files(const std::string& client) const {
  if (!memorybox::is_client_key(client)) {
    return Status(Errc::invalid_argument, "--client: '" + client + "' is not a client key");
  }
  // Whether every folder of `path` (itself included) exists; a link or a file among them fails.
  auto folders_exist = [this](const std::string& path) -> Result<bool> {
    for (std::size_t slash = 0; slash != std::string::npos;) {
      slash = path.find('/', slash + 1);
      const Result<bool> exists = folder(path.substr(0, slash));
      if (!exists) return exists.status();
      if (!*exists) return false;
    }
    return true;
  };
  std::vector<FileSnapshot> files;
  const std::string profile = memorybox::client_profile_path(client);
  const Result<bool> clients = folders_exist("brain/clients");
  if (!clients) return clients.status();
  files.push_back(*clients ? detail::read_entry(*fs_, absolute(profile), profile)
                           : FileSnapshot{profile, EntryState::missing, nullptr, ""});
  for (const std::string& top :
       {memorybox::client_memory_folder(client), memorybox::client_archive_folder(client)}) {
    const Result<bool> exists = folders_exist(top);
    if (!exists) return exists.status();
    std::vector<std::string> pending;
    if (*exists) pending.push_back(top);
    while (!pending.empty()) {
      const std::string folder_path = pending.back();
      pending.pop_back();
      Result<std::vector<std::string>> names = fs_->list_directory(absolute(folder_path));
      if (!names) return relative(names.status());
      for (const std::string& name : *names) {
        const std::string path = folder_path + "/" + name;
        const Result<NodeType> type = fs_->node_type(absolute(path));
        if (!type) return relative(type.status());
        if (*type == NodeType::directory) {
          pending.push_back(path);
        } else {
          files.push_back(detail::read_entry(*fs_, absolute(path), path));
        }
      }
    }
  }
  return Snapshot(std::move(files));
}

}  // namespace memkit
