// Removing the small directories memkit itself made (journals, applied records): their files,
// then the directory. Never used on user folders.
#pragma once

#include <algorithm>
#include <string>

#include "files/file_system.hpp"

namespace memkit::detail {

// `name` inside folder `dir`, as FileSystem paths are spelled.
[[nodiscard]] inline std::string join(const std::string& dir, const std::string& name) {
  return dir + "/" + name;
}

// The journal (or record) goes last: a folder whose removal was cut short still says what it was,
// rather than reading as a transaction that never started.
inline Status remove_state_directory(FileSystem& fs, const std::string& dir) {
  Result<std::vector<std::string>> names = fs.list_directory(dir);
  if (!names) return names.status();
  std::stable_partition(names->begin(), names->end(), [](const std::string& name) {
    return name != "journal.json" && name != "applied.json";
  });
  for (const std::string& name : *names) {
    if (Status removed = fs.remove_file(dir + "/" + name); !removed.ok()) return removed;
  }
  return fs.remove_directory(dir);
}

}  // namespace memkit::detail
