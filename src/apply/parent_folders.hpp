// The folders above a plan's target (archive/, memory/ARCHIVES/), made one level at a time before
// the target is written, by an apply and by recovery rolling an apply forward alike.
#pragma once

#include <string>

#include "files/file_system.hpp"

namespace memkit::detail {

inline Status create_parent_folders(FileSystem& fs, const std::string& memory_dir,
                                    const std::string& path) {
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (Status made = fs.create_directory(memory_dir + "/" + path.substr(0, slash)); !made.ok()) {
      return made;
    }
  }
  return Status();
}

}  // namespace memkit::detail
