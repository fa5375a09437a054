// The state lock (compaction.md §12.3): `.memkit/lock` under the root, held exclusively, and a
// `.memkit/.gitignore` holding "*", so a project's or an agent's VCS never picks up locks or
// journals. Shared by Workspace and AgentRoot, which each make `.memkit/` their own way first.
#pragma once

#include <memory>
#include <string>

#include "files/file_system.hpp"

namespace memkit::detail {

// REQUIRES: state_dir (absolute) exists and is not a link.
inline Result<std::unique_ptr<LockHandle>> lock_state_directory(FileSystem& fs,
                                                                const std::string& state_dir,
                                                                double timeout_seconds) {
  Result<std::unique_ptr<LockHandle>> held =
      fs.lock_exclusive(state_dir + "/lock", timeout_seconds);
  if (!held) return held.status();
  const Result<NodeType> ignore = fs.node_type(state_dir + "/.gitignore");
  if (!ignore) return ignore.status();
  if (*ignore == NodeType::none) {
    if (Status written = write_file_atomically(fs, state_dir + "/.gitignore", "*\n", true);
        !written.ok()) {
      return written;
    }
  }
  return held;
}

}  // namespace memkit::detail
