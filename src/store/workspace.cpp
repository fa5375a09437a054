// Workspace: opens a memory folder, snapshots it for the core, and writes what the core decided.
#include "store/workspace.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "apply/apply.hpp"
#include "codec/bounded_json.hpp"
#include "codec/json_fields.hpp"
#include "files/state_directory.hpp"
#include "memkit/digest.hpp"
#include "memkit/text.hpp"
#include "memkit/version.hpp"
#include "store/read_entry.hpp"
#include "store/recall_index.hpp"
#include "store/state_lock.hpp"
#include "text/shown_text.hpp"

namespace memkit {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Status symlink_refused(const std::string& folder) {
  return Status(Errc::unsafe_path,
                folder +
                    ": is a symbolic link; memkit does not follow links in the memory "
                    "directory");
}

// The safe route paths and module-index entries of a readable, parseable manifest.md that the
// snapshot does not hold yet.
std::vector<std::string> route_targets(const std::vector<FileSnapshot>& files) {
  std::vector<std::string> targets;
  const auto manifest = std::find_if(files.begin(), files.end(), [](const FileSnapshot& f) {
    return f.path == "manifest.md" && f.exists();
  });
  if (manifest == files.end()) return targets;
  const Document doc = parse_markdown(manifest->bytes);
  if (!doc.parseable()) return targets;
  const custodian::Manifest m = custodian::read_manifest(doc);
  auto add = [&](const custodian::Route& route) {
    if (!custodian::is_safe_route(route.path)) return;
    for (const FileSnapshot& f : files) {
      if (f.path == route.path) return;
    }
    if (std::find(targets.begin(), targets.end(), route.path) == targets.end()) {
      targets.push_back(route.path);
    }
  };
  for (const custodian::Route& route : m.routes) add(route);
  for (const custodian::Route& entry : m.module_index) add(entry);
  return targets;
}

}  // namespace

Result<Workspace> Workspace::open_unchecked(FileSystem& fs, const LayoutProfile& profile,
                                            WorkspaceOptions options) {
  if (options.project_root.empty()) options.project_root.assign(1, '.');
  while (options.project_root.size() > 1 && options.project_root.back() == '/') {
    options.project_root.pop_back();
  }
  // The root itself may be reached through a link; "root/." makes lstat follow it.
  std::string root_itself = options.project_root;
  root_itself += "/.";  // (appending, not operator+, avoids a GCC 12 -Wrestrict false positive)
  const Result<NodeType> root = fs.node_type(root_itself);
  if (!root) return root.status();
  if (*root != NodeType::directory) {
    const Result<NodeType> plain = fs.node_type(options.project_root);
    const bool exists = plain && *plain != NodeType::none;
    return Status(Errc::invalid_argument,
                  "--project-root: " + shown_text(options.project_root) +
                      (exists ? ": not a directory" : ": no such directory"));
  }
  const std::string requested =
      options.memory_dir.empty() ? profile.default_memory_dir : options.memory_dir;
  Result<std::string> memory_dir = normalize_memory_dir(requested, profile);
  if (!memory_dir) return memory_dir.status();
  Workspace ws(fs, profile, std::move(options), std::move(memory_dir).value());
  // No component between the root and the memory directory may be a symbolic link (§3).
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    pos = ws.memory_dir_.find('/', pos + 1);
    const std::string prefix = ws.memory_dir_.substr(0, pos);
    const Result<NodeType> type = fs.node_type(ws.absolute(prefix));
    if (!type) return type.status();
    if (*type == NodeType::symlink) {
      return Status(Errc::unsafe_path, prefix +
                                           ": is a symbolic link; memkit does not follow "
                                           "links between the project root and its memory");
    }
    if (*type == NodeType::none) break;
    if (*type != NodeType::directory) return Status(Errc::layout, prefix + ": not a directory");
  }
  return ws;
}

Result<Workspace> Workspace::open(FileSystem& fs, const LayoutProfile& profile,
                                  WorkspaceOptions options) {
  const std::string root = options.project_root;
  Result<Workspace> ws = open_unchecked(fs, profile, std::move(options));
  if (ws) return ws;
  // Output never shows absolute paths: cut the root from OS messages about paths under it.
  const Status failed = ws.status();
  const std::string prefix = (root.empty() ? std::string(".") : root) + "/";
  if (failed.message().compare(0, prefix.size(), prefix) != 0) return failed;
  return Status(failed.code(), failed.message().substr(prefix.size()));
}

std::string Workspace::absolute(std::string_view relative_to_root) const {
  return options_.project_root + "/" + std::string(relative_to_root);
}

std::string Workspace::memory_path(std::string_view relative_to_memory) const {
  return absolute(memory_dir_) + "/" + std::string(relative_to_memory);
}

bool Workspace::memory_dir_exists() const {
  const Result<NodeType> type = fs_->node_type(absolute(memory_dir_));
  return type && *type == NodeType::directory;
}

// What lies at a memory-relative path, looking at each component without following links.
EntryState Workspace::entry_state_without_links(const std::string& path) const {
  std::size_t pos = 0;
  while (true) {
    const std::size_t slash = path.find('/', pos);
    const Result<NodeType> type = fs_->node_type(memory_path(path.substr(0, slash)));
    if (!type) return EntryState::unreadable;
    if (*type == NodeType::symlink) return EntryState::symlink;
    if (*type == NodeType::none) return EntryState::missing;
    if (slash == std::string::npos) {
      return *type == NodeType::file ? EntryState::file : EntryState::not_a_file;
    }
    if (*type != NodeType::directory) return EntryState::missing;
    pos = slash + 1;
  }
}

Result<CustodianInputs> Workspace::read_custodian_inputs_from_disk(
    const std::vector<std::string>& extra) const {
  CustodianInputs inputs;
  inputs.memory_dir = memory_dir_;
  inputs.memory_dir_exists = memory_dir_exists();
  std::vector<FileSnapshot> files;
  if (inputs.memory_dir_exists) {
    for (const std::string& path : profile_->files) {
      files.push_back(detail::read_entry(*fs_, memory_path(path), path));
    }
    for (const std::string& folder : profile_->module_folders) {
      const Result<NodeType> type = fs_->node_type(memory_path(folder));
      if (!type) return type.status();
      if (*type == NodeType::symlink) return symlink_refused(folder);
      if (*type != NodeType::directory) continue;
      Result<std::vector<std::string>> names = fs_->list_directory(memory_path(folder));
      if (!names) return names.status();
      for (const std::string& name : *names) {
        if (!ends_with(name, ".md") || name == "README.md") continue;
        const std::string path = folder + "/" + name;
        files.push_back(detail::read_entry(*fs_, memory_path(path), path));
      }
    }
    for (const std::string& path : extra) {
      if (!custodian::is_safe_route(path)) continue;
      const bool held = std::any_of(files.begin(), files.end(),
                                    [&](const FileSnapshot& f) { return f.path == path; });
      if (held) continue;
      const EntryState state = entry_state_without_links(path);
      if (state == EntryState::file) {
        files.push_back(detail::read_entry(*fs_, memory_path(path), path));
      } else if (state != EntryState::missing) {
        files.push_back(FileSnapshot{path, state, nullptr, ""});
      }
    }
    // check verifies that manifest routes lead somewhere; it needs to know what is there, not
    // to read it (a route may point into archive/, which reports never read).
    for (const std::string& path : route_targets(files)) {
      inputs.route_targets[path] = entry_state_without_links(path);
    }
    const Result<NodeType> archive = fs_->node_type(memory_path(profile_->archive_folder));
    if (archive && *archive == NodeType::symlink) return symlink_refused(profile_->archive_folder);
    if (archive && *archive == NodeType::directory) {
      Result<std::vector<std::string>> names =
          fs_->list_directory(memory_path(profile_->archive_folder));
      if (!names) return names.status();
      for (const std::string& name : *names) {
        const Result<NodeType> type =
            fs_->node_type(memory_path(profile_->archive_folder + "/" + name));
        inputs.archive_files += name != "README.md" && type && *type == NodeType::file;
      }
    }
  }
  const Result<NodeType> txn = fs_->node_type(absolute(".memkit/txn"));
  if (txn && *txn == NodeType::directory) {
    Result<std::vector<std::string>> names = fs_->list_directory(absolute(".memkit/txn"));
    if (!names) return names.status();
    // Each transaction is one directory; a stray file there is not one.
    for (const std::string& name : *names) {
      const Result<NodeType> type = fs_->node_type(absolute(".memkit/txn/" + name));
      inputs.unfinished_transactions += type && *type == NodeType::directory;
    }
  }
  inputs.snapshot = Snapshot(std::move(files));
  return inputs;
}

Status Workspace::ensure_directories(std::string_view relative_to_root) {
  std::size_t pos = 0;
  while (pos != std::string_view::npos) {
    pos = relative_to_root.find('/', pos + 1);
    const std::string path = absolute(relative_to_root.substr(0, pos));
    const Result<NodeType> type = fs_->node_type(path);
    if (!type) return type.status();
    if (*type == NodeType::symlink) {
      return Status(Errc::unsafe_path, std::string(relative_to_root.substr(0, pos)) +
                                           ": is a symbolic link; memkit does not write through "
                                           "links");
    }
    if (*type == NodeType::none) {
      if (Status made = fs_->create_directory(path); !made.ok()) return made;
    } else if (*type != NodeType::directory) {
      return Status(Errc::io, std::string(relative_to_root.substr(0, pos)) + ": not a directory");
    }
  }
  return Status();
}

Result<std::unique_ptr<LockHandle>> Workspace::lock() {
  if (Status made = ensure_directories(".memkit"); !made.ok()) return relative(made);
  Result<std::unique_ptr<LockHandle>> held =
      detail::lock_state_directory(*fs_, absolute(".memkit"), options_.lock_timeout_seconds);
  if (!held) return relative(held.status());
  return held;
}

Result<std::vector<std::string>> Workspace::apply(const Plan& plan, const ClockReading& now,
                                                  bool keep_record) {
  Result<std::vector<std::string>> written =
      apply_plan(*fs_, ApplyPaths{absolute(memory_dir_), absolute(".memkit")}, plan, now,
                 new_transaction_id(), keep_record);
  if (!written) return relative(written.status());
  refresh_recall_indexes(*fs_, options_.project_root);  // what the plan removed leaves them
  return written;
}

Result<std::optional<AppliedRecord>> Workspace::read_applied_record(
    std::string_view plan_id) const {
  if (!is_plan_id(plan_id)) return std::optional<AppliedRecord>();
  const std::string dir = absolute(".memkit/applied/" + std::string(plan_id));
  const Result<NodeType> type = fs_->node_type(dir);
  if (!type) return relative(type.status());
  if (*type != NodeType::directory) return std::optional<AppliedRecord>();
  Result<std::string> text = fs_->read_file(dir + "/applied.json");
  if (!text) return relative(text.status());
  std::string problem = "unreadable";
  const nlohmann::json json = detail::parse_bounded_json(*text, &problem);
  if (!json.is_object() || !json.contains("targets") || !json["targets"].is_array()) {
    return Status(Errc::io,
                  ".memkit/applied/" + std::string(plan_id) + "/applied.json: " + problem);
  }
  AppliedRecord record;
  // A field of the wrong type reads as absent (json_fields.hpp), never as an exception.
  record.plan_id = detail::string_field(json, "plan_id");
  record.command = detail::string_field(json, "command");
  record.applied_at = detail::string_field(json, "applied_at");
  std::size_t n = 0;
  for (const nlohmann::json& t : json["targets"]) {
    AppliedRecord::Target target;
    target.path = detail::string_field(t, "path");
    target.base_exists = detail::bool_field(t, "base_exists");
    target.base_sha256 = detail::string_field(t, "base_sha256");
    target.output_exists = detail::bool_field(t, "output_exists");
    target.output_sha256 = detail::string_field(t, "output_sha256");
    if (!custodian::is_safe_route(target.path)) {
      return Status(Errc::io, ".memkit/applied/" + std::string(plan_id) +
                                  "/applied.json: unsafe target path");
    }
    if (target.base_exists) {
      Result<std::string> base = fs_->read_file(dir + "/b-" + std::to_string(n));
      if (!base) return relative(base.status());
      if (sha256_hex(*base) != target.base_sha256) {
        return Status(Errc::io, ".memkit/applied/" + std::string(plan_id) + "/b-" +
                                    std::to_string(n) + ": does not match its recorded digest");
      }
      target.base = std::make_shared<const std::string>(std::move(base).value());
    }
    record.targets.push_back(std::move(target));
    ++n;
  }
  return std::optional<AppliedRecord>(std::move(record));
}

Result<std::vector<std::string>> Workspace::list_markdown_files() const {
  std::vector<std::string> found;
  std::vector<std::string> pending = {""};
  while (!pending.empty()) {
    const std::string dir = pending.back();
    pending.pop_back();
    Result<std::vector<std::string>> names =
        fs_->list_directory(dir.empty() ? absolute(memory_dir_) : memory_path(dir));
    if (!names) return relative(names.status());
    for (const std::string& name : *names) {
      const std::string path = dir.empty() ? name : dir + "/" + name;
      const Result<NodeType> type = fs_->node_type(memory_path(path));
      if (!type) return relative(type.status());
      if (*type == NodeType::directory) pending.push_back(path);
      if (*type == NodeType::file && name.size() > 3 && name.substr(name.size() - 3) == ".md") {
        found.push_back(path);
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

Status Workspace::purge_applied_records(std::string_view needle) {
  const std::string root = absolute(".memkit/applied");
  const Result<NodeType> type = fs_->node_type(root);
  if (!type || *type != NodeType::directory) return Status();
  Result<std::vector<std::string>> ids = fs_->list_directory(root);
  if (!ids) return relative(ids.status());
  for (const std::string& id : *ids) {
    const std::string dir = root + "/" + id;
    Result<std::vector<std::string>> names = fs_->list_directory(dir);
    if (!names) continue;
    bool mentions = false;
    for (const std::string& name : *names) {
      if (name.rfind("b-", 0) != 0) continue;
      Result<std::string> bytes = fs_->read_file(dir + "/" + name);
      mentions = mentions || (bytes && casefold(*bytes).find(needle) != std::string::npos);
    }
    if (!mentions) continue;
    if (Status removed = detail::remove_state_directory(*fs_, dir); !removed.ok()) {
      return relative(removed);
    }
  }
  return Status();
}

Result<Recovery> Workspace::recover(bool apply, bool rollback) {
  Result<Recovery> recovery = recover_transactions(
      *fs_, ApplyPaths{absolute(memory_dir_), absolute(".memkit")}, apply, rollback);
  if (!recovery) return relative(recovery.status());
  return recovery;
}

Result<InitResult> Workspace::write_custodian_templates(bool extended, const ClockReading& now) {
  if (Status made = ensure_directories(memory_dir_); !made.ok()) return made;
  InitResult result;
  result.memory_dir = memory_dir_;
  // Each file is created on its own and never replaced, so an interrupted init leaves complete
  // files only, and running init again finishes the job.
  for (const custodian::TemplateFile& file : custodian::init_templates(extended, version(), now)) {
    // The parent first: lstat on "rules/README.md" would follow a linked "rules".
    if (const std::size_t slash = file.path.rfind('/'); slash != std::string::npos) {
      if (Status made = ensure_directories(memory_dir_ + "/" + file.path.substr(0, slash));
          !made.ok()) {
        return made;
      }
    }
    const Result<NodeType> type = fs_->node_type(memory_path(file.path));
    if (!type) return type.status();
    if (*type == NodeType::symlink) {
      return Status(Errc::unsafe_path, memory_dir_ + "/" + file.path +
                                           ": is a symbolic link; memkit does not write through "
                                           "links");
    }
    if (*type != NodeType::none && *type != NodeType::file) {
      return Status(Errc::io, memory_dir_ + "/" + file.path + ": exists and is not a regular file");
    }
    if (*type == NodeType::file) {
      result.existing.push_back(file.path);
      continue;
    }
    if (Status written = write_file_atomically(*fs_, memory_path(file.path), file.bytes, true);
        !written.ok()) {
      return written;
    }
    result.created.push_back(file.path);
  }
  return result;
}

// Output never shows absolute paths (spec README.md "Paths in output"): messages from the OS
// layer name paths under the project root, so the root is cut from their front.
Status Workspace::relative(const Status& status) const {
  if (status.ok()) return status;
  const std::string prefix = options_.project_root + "/";
  const std::string& message = status.message();
  if (message.compare(0, prefix.size(), prefix) != 0) return status;
  return Status(status.code(), message.substr(prefix.size()));
}

Result<CustodianInputs> Workspace::read_custodian_inputs(
    const std::vector<std::string>& extra) const {
  Result<CustodianInputs> inputs = read_custodian_inputs_from_disk(extra);
  if (!inputs) return relative(inputs.status());
  return inputs;
}

Result<InitResult> Workspace::init_custodian(bool extended, const ClockReading& now) {
  Result<InitResult> result = write_custodian_templates(extended, now);
  if (!result) return relative(result.status());
  return result;
}

}  // namespace memkit
