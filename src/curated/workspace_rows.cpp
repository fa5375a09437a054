// A workspace's files (curated.md §2) and its rows as the writes see them: every valid entry of
// every rows/<ws>/<type>.md, each name once. A name found a second time is reported where it was
// found again, so a write never edits one copy while another stays behind.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "curated/write_plan.hpp"
#include "memkit/curated_write.hpp"

namespace memkit::curated {
namespace {

constexpr std::array kTypes = {RowType::project, RowType::user,     RowType::feedback,
                               RowType::atom,    RowType::decision, RowType::negative};

std::string log_dir(std::string_view workspace) { return "log/" + std::string(workspace) + "/"; }

// Why a row file cannot be read, or "" when it can (or is missing).
std::string unreadable_because(const FileSnapshot* file) {
  if (file == nullptr) return {};
  switch (file->state) {
    case EntryState::symlink:
      return "a symbolic link; memkit neither reads nor writes through one";
    case EntryState::not_a_file:
      return "not a regular file";
    case EntryState::unreadable:
      return file->error.empty() ? std::string("cannot be read") : file->error;
    case EntryState::file:
    case EntryState::missing:
      break;
  }
  return {};
}

}  // namespace

std::string rows_path(std::string_view workspace, RowType type) {
  return "rows/" + std::string(workspace) + "/" + std::string(name_of(type)) + ".md";
}
std::string history_path(std::string_view workspace) {
  return log_dir(workspace) + "history.jsonl";
}
std::string access_path(std::string_view workspace) { return log_dir(workspace) + "access.jsonl"; }
std::string snapshot_path(std::string_view workspace) {
  return log_dir(workspace) + "access-snapshot.json";
}

std::vector<std::string> write_inputs(std::string_view workspace) {
  std::vector<std::string> paths;
  for (RowType type : kTypes) paths.push_back(rows_path(workspace, type));
  paths.push_back(history_path(workspace));
  paths.push_back(access_path(workspace));
  paths.push_back(snapshot_path(workspace));
  std::sort(paths.begin(), paths.end());
  return paths;
}

const StoredRow* Workspace::find(std::string_view name) const noexcept {
  const auto it = std::lower_bound(
      rows.begin(), rows.end(), name,
      [](const StoredRow& row, std::string_view key) { return row.row.name < key; });
  return it != rows.end() && it->row.name == name ? &*it : nullptr;
}

namespace write_detail {

LoadedWorkspace load_workspace(const Snapshot& files, std::string_view workspace) {
  LoadedWorkspace out;
  for (RowType type : kTypes) {
    LoadedFile file;
    file.type = type;
    file.path = rows_path(workspace, type);
    out.files.push_back(std::move(file));
  }
  // Path order, so "the second place" of a name is the same whatever the type enum's order.
  std::sort(out.files.begin(), out.files.end(),
            [](const LoadedFile& a, const LoadedFile& b) { return a.path < b.path; });

  struct Seen {
    std::string path;
    std::uint32_t line;
  };
  std::map<std::string, Seen, std::less<>> seen;
  for (LoadedFile& file : out.files) {
    file.file = files.find(file.path);
    file.exists = file.file != nullptr && file.file->exists();
    file.bytes = file.exists ? file.file->bytes : std::make_shared<const std::string>();
    if (const std::string why = unreadable_because(file.file); !why.empty()) {
      file.readable = false;
      out.workspace.findings.push_back(make_finding("MK-IO-001", Severity::error, file.path,
                                                    file.path + ": " + why,
                                                    "make the row file a readable regular file"));
      continue;
    }
    file.parsed = parse_row_file(*file.bytes, file.path);
    for (const Finding& finding : file.parsed.findings) {
      out.workspace.findings.push_back(finding);
      if (finding.code == "MK-CUR-004") file.invalid.push_back(finding);
    }
    for (const Entry& entry : file.parsed.entries) {
      if (!entry.valid) continue;
      const auto [it, first] =
          seen.try_emplace(entry.row.name, Seen{.path = file.path, .line = entry.line});
      if (!first) {
        Finding twice =
            make_finding("MK-CUR-004", Severity::error, file.path,
                         file.path + ":" + std::to_string(entry.line) + ": invalid entry " +
                             entry.row.name + ": the name is already used at " + it->second.path +
                             ":" + std::to_string(it->second.line),
                         "keep one entry of each name: merge or rename the other by hand");
        out.workspace.findings.push_back(twice);
        file.invalid.push_back(std::move(twice));
        continue;
      }
      out.workspace.rows.push_back(StoredRow{.row = entry.row, .path = file.path});
    }
  }
  std::sort(out.workspace.rows.begin(), out.workspace.rows.end(),
            [](const StoredRow& a, const StoredRow& b) { return a.row.name < b.row.name; });
  return out;
}

}  // namespace write_detail

Workspace read_workspace(const Snapshot& files, std::string_view workspace) {
  return write_detail::load_workspace(files, workspace).workspace;
}

}  // namespace memkit::curated
