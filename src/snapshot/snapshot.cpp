#include "memkit/snapshot.hpp"

#include <algorithm>

namespace memkit {

Snapshot::Snapshot(std::vector<FileSnapshot> files) : files_(std::move(files)) {
  std::stable_sort(files_.begin(), files_.end(),
                   [](const FileSnapshot& a, const FileSnapshot& b) { return a.path < b.path; });
  // Keep the last of equal paths.
  std::vector<FileSnapshot> unique;
  unique.reserve(files_.size());
  for (FileSnapshot& f : files_) {
    if (!unique.empty() && unique.back().path == f.path) {
      unique.back() = std::move(f);
    } else {
      unique.push_back(std::move(f));
    }
  }
  files_ = std::move(unique);
}

const FileSnapshot* Snapshot::find(std::string_view path) const noexcept {
  const auto it = std::lower_bound(
      files_.begin(), files_.end(), path,
      [](const FileSnapshot& f, std::string_view p) { return std::string_view(f.path) < p; });
  if (it == files_.end() || it->path != path) return nullptr;
  return &*it;
}

}  // namespace memkit
