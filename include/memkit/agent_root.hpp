// The MemoryBox agent root (spec memorybox.md §2, §11): the folder holding brain/ and memory/.
// Shell: it reads the tiers' files into memorybox::Inputs and writes `init`'s files. Like the
// custodian workspace it never follows a symbolic link inside the root.
#pragma once

#include <string>
#include <vector>

#include "memkit/file_system.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/result.hpp"

namespace memkit {

// What `memkit memorybox init` made, sorted bytewise; folders end with "/".
struct MemoryBoxInit {
  std::vector<std::string> created;
};

class AgentRoot final {
 public:
  // Checks that `root` is a directory. Fails with Errc::invalid_argument ("--root: ...").
  [[nodiscard]] static Result<AgentRoot> open(FileSystem& fs, std::string root);

  // The tiers' fixed files (missing ones as missing entries), memory/daily/YYYY-MM-DD.md by date
  // and memory/ARCHIVES/*.md bytewise. brain/, memory/, memory/daily/ or memory/ARCHIVES/ as a
  // symbolic link fails with Errc::unsafe_path; a linked file is an EntryState::symlink entry.
  [[nodiscard]] Result<memorybox::Inputs> read_memorybox_inputs() const;

  // Replaces the file at `path` (relative to the root) with `bytes` atomically. Refuses a folder
  // of the layout, or the file, reached through a symbolic link.
  [[nodiscard]] Status write_file(const std::string& path, std::string_view bytes);

  // Creates each missing file of the tier 1-4 lists as "# <stem>\n", and memory/daily/ and
  // memory/ARCHIVES/; never changes an existing file. Each file is written atomically.
  [[nodiscard]] Result<MemoryBoxInit> init_memorybox();

 private:
  AgentRoot(FileSystem& fs, std::string root) : fs_(&fs), root_(std::move(root)) {}
  [[nodiscard]] std::string absolute(const std::string& relative) const;
  // Refuses a folder of the layout that is a symbolic link; returns whether it exists.
  [[nodiscard]] Result<bool> folder(const std::string& relative) const;

  FileSystem* fs_;
  std::string root_;
};

}  // namespace memkit
