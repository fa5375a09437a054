// A snapshot: the bytes of a memory folder's files as the shell read them at one moment. The core
// plans and reports over snapshots only, so it never touches the file system itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace memkit {

enum class EntryState : std::uint8_t {
  file,        // read completely
  missing,     // no such path
  not_a_file,  // a directory or other non-regular file where a file was expected
  unreadable,  // the read failed; `error` says why
  symlink,     // a symbolic link: memkit neither reads nor writes through it (§3)
};

struct FileSnapshot {
  std::string path;  // relative to the memory folder, POSIX separators
  EntryState state = EntryState::missing;
  std::shared_ptr<const std::string> bytes;  // set iff state == file
  // For unreadable: e.g. "permission denied". For symlink: the linked folder on the way
  // ("rows/ws2"), or empty when the file itself is the link.
  std::string error;
  // Where `bytes` begin in the file: 0, the whole file, except for a file read to be appended to,
  // of which only the last bytes are read (a write costs what it adds, not what the file holds).
  std::uint64_t offset = 0;

  [[nodiscard]] bool exists() const noexcept { return state == EntryState::file; }
  [[nodiscard]] bool whole() const noexcept { return offset == 0; }
  [[nodiscard]] std::uint64_t size() const noexcept { return offset + text().size(); }
  [[nodiscard]] std::string_view text() const noexcept {
    return bytes ? std::string_view(*bytes) : std::string_view();
  }
};

// The link a refusal of a symlink entry names: the linked folder on its way, else the file.
[[nodiscard]] inline std::string_view link_path(const FileSnapshot& file) noexcept {
  return file.error.empty() ? std::string_view(file.path) : std::string_view(file.error);
}

class Snapshot final {
 public:
  Snapshot() = default;
  // Files are kept sorted by path; a later duplicate path replaces an earlier one.
  explicit Snapshot(std::vector<FileSnapshot> files);

  [[nodiscard]] const std::vector<FileSnapshot>& files() const noexcept { return files_; }
  // Returns the entry for `path`, or nullptr when the snapshot never looked at it.
  [[nodiscard]] const FileSnapshot* find(std::string_view path) const noexcept;

 private:
  std::vector<FileSnapshot> files_;
};

}  // namespace memkit
