// A workspace's files (curated.md §2) and its rows as the writes see them: every valid entry of
// every rows/<ws>/<type>.md, each name once. A name found a second time is reported where it was
// found again, so a write never edits one copy while another stays behind.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curated/write_plan.hpp"
#include "memkit/curated/write.hpp"

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

WriteInputs write_inputs(std::string_view workspace, bool purge) {
  WriteInputs inputs;
  for (RowType type : kTypes) inputs.whole.push_back(rows_path(workspace, type));
  if (purge) {
    inputs.whole.push_back(history_path(workspace));
    inputs.whole.push_back(access_path(workspace));
    inputs.whole.push_back(snapshot_path(workspace));
  } else {
    inputs.tails.push_back(history_path(workspace));
  }
  std::sort(inputs.whole.begin(), inputs.whole.end());
  return inputs;
}

const StoredRow* Workspace::find(std::string_view name) const noexcept {
  const auto it = std::lower_bound(
      rows.begin(), rows.end(), name,
      [](const StoredRow& row, std::string_view key) { return row.row.name < key; });
  return it != rows.end() && it->row.name == name ? &*it : nullptr;
}

namespace {

// The row files of a workspace read and parsed, and with `rows` its rows: every valid entry, each
// name once, sorted by name, moved out of the parsed entries (which are then only good for their
// offsets: read_workspace drops them). The writes plan over the parsed entries and take no rows.
write_detail::LoadedWorkspace load(const Snapshot& files, std::string_view workspace, bool rows,
                                   ParsedRowFiles* kept) {
  using write_detail::LoadedFile;
  write_detail::LoadedWorkspace out;
  for (RowType type : kTypes) {
    LoadedFile file;
    file.type = type;
    file.path = rows_path(workspace, type);
    out.files.push_back(std::move(file));
  }
  // Path order, so "the second place" of a name is the same whatever the type enum's order.
  std::sort(out.files.begin(), out.files.end(),
            [](const LoadedFile& a, const LoadedFile& b) { return a.path < b.path; });

  // The parses `rows` moves the rows out of (never shared with `kept`).
  std::vector<std::shared_ptr<RowFile>> owned(out.files.size());
  for (std::size_t i = 0; i < out.files.size(); ++i) {
    LoadedFile& file = out.files[i];
    file.file = files.find(file.path);
    file.exists = file.file != nullptr && file.file->exists();
    file.bytes = file.exists ? file.file->bytes : std::make_shared<const std::string>();
    if (!unreadable_because(file.file).empty()) {
      file.readable = false;
      continue;
    }
    if (kept != nullptr && file.exists) {
      const auto it = kept->files.find(file.path);
      if (it != kept->files.end() && it->second.bytes == file.bytes) {
        file.parsed = it->second.parsed;
        continue;
      }
    }
    owned[i] = std::make_shared<RowFile>(parse_row_file(*file.bytes, file.path));
    file.parsed = owned[i];
    if (kept != nullptr && file.exists) {
      kept->files[file.path] = ParsedRowFiles::Kept{.bytes = file.bytes, .parsed = owned[i]};
    }
  }

  // Every valid entry by name. The sort is stable, so of the entries sharing a name the first one
  // read (files in path order, entries in file order) comes first and is the row; the others are
  // found again (one sort instead of a tree of names: a workspace may hold 100,000 rows).
  struct Named {
    std::string_view name;
    std::uint32_t file;
    std::uint32_t entry;
  };
  std::vector<Named> named;
  // Per file, per entry: null, or for an entry whose name was read before, that first entry.
  std::vector<std::vector<const Named*>> first_of(out.files.size());
  for (std::size_t i = 0; i < out.files.size(); ++i) {
    const std::vector<Entry>& entries = out.files[i].parsed->entries;
    first_of[i].assign(entries.size(), nullptr);
    for (std::size_t j = 0; j < entries.size(); ++j) {
      if (!entries[j].valid) continue;
      named.push_back(Named{.name = entries[j].row.name,
                            .file = static_cast<std::uint32_t>(i),
                            .entry = static_cast<std::uint32_t>(j)});
    }
  }
  std::stable_sort(named.begin(), named.end(),
                   [](const Named& a, const Named& b) { return a.name < b.name; });
  for (std::size_t k = 1; k < named.size(); ++k) {
    if (named[k].name != named[k - 1].name) continue;
    const Named* previous = &named[k - 1];
    const Named* first = first_of[previous->file][previous->entry];
    first_of[named[k].file][named[k].entry] = first != nullptr ? first : previous;
  }

  // The findings in file order: each file's own, then the names it repeats. A linked folder is
  // named once, not once for each row file below it.
  std::set<std::string_view> links;
  for (std::size_t i = 0; i < out.files.size(); ++i) {
    LoadedFile& file = out.files[i];
    if (!file.readable) {
      const std::string_view told =
          file.file->state == EntryState::symlink ? link_path(*file.file) : file.path;
      if (links.insert(told).second) {
        out.workspace.findings.push_back(make_finding(
            "MK-IO-001", Severity::error, std::string(told),
            std::string(told) + ": " + unreadable_because(file.file),
            file.file->state == EntryState::symlink ? "replace the link with what it points to"
                                                    : "make the row file a readable regular file"));
      }
      continue;
    }
    for (const Finding& finding : file.parsed->findings) {
      out.workspace.findings.push_back(finding);
      if (finding.code == "MK-CUR-004") file.invalid.push_back(finding);
    }
    // The entries after an unclosed fence or comment are hidden from every read: say so.
    if (file.parsed->parse_error) out.workspace.findings.push_back(*file.parsed->parse_error);
    for (std::size_t j = 0; j < file.parsed->entries.size(); ++j) {
      const Named* first = first_of[i][j];
      if (first == nullptr) continue;
      const Entry& entry = file.parsed->entries[j];
      const LoadedFile& first_file = out.files[first->file];
      Finding twice =
          make_finding("MK-CUR-004", Severity::error, file.path,
                       file.path + ":" + std::to_string(entry.line) + ": invalid entry " +
                           entry.row.name + ": the name is already used at " + first_file.path +
                           ":" + std::to_string(first_file.parsed->entries[first->entry].line),
                       "keep one entry of each name: merge or rename the other by hand");
      out.workspace.findings.push_back(twice);
      file.invalid.push_back(std::move(twice));
    }
  }

  if (!rows) return out;
  // REQUIRES: `kept` is null with `rows` (each parse here is owned).
  // The rows, already in name order.
  out.workspace.rows.reserve(named.size());
  for (const Named& n : named) {
    if (first_of[n.file][n.entry] != nullptr) continue;
    Entry& entry = owned[n.file]->entries[n.entry];
    out.workspace.rows.push_back(
        StoredRow{.row = std::move(entry.row), .path = out.files[n.file].path});
  }
  return out;
}

}  // namespace

namespace write_detail {

LoadedWorkspace load_workspace(const Snapshot& files, std::string_view workspace,
                               ParsedRowFiles* parsed) {
  return load(files, workspace, /*rows=*/false, parsed);
}

}  // namespace write_detail

Workspace read_workspace(const Snapshot& files, std::string_view workspace) {
  return std::move(load(files, workspace, /*rows=*/true, nullptr).workspace);
}

}  // namespace memkit::curated
