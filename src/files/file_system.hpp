// The narrow door through which the shell reaches the operating system. Tests substitute an
// implementation that fails chosen calls, to prove that a crash at any step leaves the old state
// or the new one, never a mix (STYLE L2, T2).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/digest.hpp"
#include "memkit/result.hpp"

namespace memkit {

enum class NodeType : std::uint8_t { none, file, directory, symlink, other };

// What says that a file changed without reading it: its size, its times (nanoseconds since the
// Unix epoch) and which file it is. A derived index keeps it per source file (store/recall_index).
struct FileStat {
  NodeType type = NodeType::none;
  std::uint64_t size = 0;
  std::int64_t modified_ns = 0;
  std::int64_t changed_ns = 0;  // the inode's change time: a rename or a copy back moves it
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  // Its hard links (a file memkit changes in place must have one): not part of what says that a
  // file changed, so == leaves it out (a derived index does not keep it).
  std::uint64_t links = 0;
  friend bool operator==(const FileStat& a, const FileStat& b) noexcept {
    return a.type == b.type && a.size == b.size && a.modified_ns == b.modified_ns &&
           a.changed_ns == b.changed_ns && a.device == b.device && a.inode == b.inode;
  }
};

// Bytes a file holds, kept alive by `owner` (a read-only mapping of the file, or a copy).
struct MappedFile {
  std::string_view bytes;
  std::shared_ptr<const void> owner;
};

// Releases its lock when destroyed (or when the process dies: the lock is an OS advisory lock).
class LockHandle {
 public:
  virtual ~LockHandle() = default;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // What is at `path`, without following a final symbolic link.
  [[nodiscard]] virtual Result<NodeType> node_type(const std::string& path) const = 0;
  // Reads a regular file whole; refuses to follow a final symbolic link.
  [[nodiscard]] virtual Result<std::string> read_file(const std::string& path) const = 0;
  // Whether a regular file's bytes are exactly `pieces`, one after another: the file is read in
  // chunks and compared as it is read (never held whole). Refuses to follow a final symbolic link.
  [[nodiscard]] virtual Result<bool> file_matches(
      const std::string& path, std::span<const std::string_view> pieces) const = 0;
  // At most `size` bytes of a regular file from `offset` on (fewer at its end, none past it).
  // Refuses to follow a final symbolic link.
  [[nodiscard]] virtual Result<std::string> read_range(const std::string& path,
                                                       std::uint64_t offset,
                                                       std::size_t size) const = 0;
  // The names in a directory, sorted bytewise, without "." and "..".
  [[nodiscard]] virtual Result<std::vector<std::string>> list_directory(
      const std::string& path) const = 0;
  // Permission bits of an existing file.
  [[nodiscard]] virtual Result<std::uint32_t> file_mode(const std::string& path) const = 0;
  // An existing file's modification time, in milliseconds since the Unix epoch (not following a
  // final link).
  [[nodiscard]] virtual Result<std::int64_t> modified_millis(const std::string& path) const = 0;
  // What is at `path` and its FileStat, without following a final link; Errc::not_found when
  // nothing is.
  [[nodiscard]] virtual Result<FileStat> stat(const std::string& path) const = 0;
  // The entries of a directory as list_directory() names them, each with its stat() (a type of
  // none for one gone before it was read). This one stats each path; a system may read each
  // entry relative to the directory it listed, without walking the path again.
  [[nodiscard]] virtual Result<std::vector<std::pair<std::string, FileStat>>> list_directory_stats(
      const std::string& path) const {
    Result<std::vector<std::string>> names = list_directory(path);
    if (!names) return names.status();
    std::vector<std::pair<std::string, FileStat>> out;
    out.reserve(names->size());
    for (std::string& name : *names) {
      const Result<FileStat> found = stat(path + "/" + name);
      out.emplace_back(std::move(name), found ? *found : FileStat{});
    }
    return out;
  }
  // A regular file's bytes, mapped read-only where the system can (a file that changes while
  // mapped may show the change: callers check what they read); refuses a final link. This one
  // reads the file whole.
  [[nodiscard]] virtual Result<MappedFile> map_file(const std::string& path) const {
    Result<std::string> bytes = read_file(path);
    if (!bytes) return bytes.status();
    auto kept = std::make_shared<const std::string>(std::move(bytes).value());
    return MappedFile{*kept, kept};
  }

  // Creates one directory; succeeds when it already exists as a directory.
  [[nodiscard]] virtual Status create_directory(const std::string& path) = 0;
  // Creates a new uniquely named file in `directory`, writes the pieces one after another,
  // fsyncs it, and returns its path. On failure it removes the file itself.
  [[nodiscard]] virtual Result<std::string> write_temporary(
      const std::string& directory, std::span<const std::string_view> pieces) = 0;
  // Gives the regular file `file` (not a symbolic link) a second, uniquely named name in
  // `directory`, after fsyncing its bytes, and returns that path: the file's bytes kept without
  // copying them (a journal's backup of a file about to be replaced by a rename). Fails where the
  // system has no hard links or `directory` is on another file system; callers then copy. This one
  // always fails.
  [[nodiscard]] virtual Result<std::string> link_temporary(const std::string& file,
                                                           const std::string& directory) {
    return Status(Errc::io, file + ": not linked into " + directory + ": no hard links here");
  }
  // Appends `bytes` to a regular file (created, mode 0644, when missing) with one write in append
  // mode, then fsyncs it: concurrent appenders never interleave inside a line. Refuses to follow a
  // final symbolic link.
  [[nodiscard]] virtual Status append_file(const std::string& path, std::string_view bytes) = 0;
  // Writes `pieces` at the end of an existing regular file of one name whose length is exactly
  // `offset` (Errc::io when it is not: the file changed), then fsyncs it. A file with other hard
  // links is refused: an append would write through every name, one outside the root too.
  // Refuses to follow a final symbolic link.
  [[nodiscard]] virtual Status append_at(const std::string& path, std::uint64_t offset,
                                         std::span<const std::string_view> pieces) = 0;
  // Cuts an existing regular file of one name to `size` bytes (Errc::io when it is shorter), then
  // fsyncs it: how an append is undone. Refuses to follow a final symbolic link.
  [[nodiscard]] virtual Status truncate_file(const std::string& path, std::uint64_t size) = 0;
  [[nodiscard]] virtual Status set_mode(const std::string& path, std::uint32_t mode) = 0;
  // Atomically renames `from` over `to`.
  [[nodiscard]] virtual Status rename_replace(const std::string& from, const std::string& to) = 0;
  // Atomically renames `from` to `to`, failing with Errc::io when `to` exists.
  [[nodiscard]] virtual Status rename_no_replace(const std::string& from,
                                                 const std::string& to) = 0;
  [[nodiscard]] virtual Status sync_directory(const std::string& path) = 0;
  [[nodiscard]] virtual Status remove_file(const std::string& path) = 0;
  // Removes an empty directory; succeeds when it is already gone.
  [[nodiscard]] virtual Status remove_directory(const std::string& path) = 0;
  // Takes an exclusive advisory lock on `path` (created if needed, a regular file), waiting up to
  // the timeout, and sets the file's modification time to the moment it was taken.
  [[nodiscard]] virtual Result<std::unique_ptr<LockHandle>> lock_exclusive(
      const std::string& path, double timeout_seconds) = 0;
};

// The real file system (POSIX).
[[nodiscard]] FileSystem& posix_file_system();

// Writes `bytes` to `path` atomically (spec README.md "Writes"): a temporary file in the same
// directory, fsync, the target's permission bits (0644 for a new file), rename, fsync of the
// directory, then a read-back that must give the bytes again. With `create_only`, an existing
// target is never replaced. Refuses a symbolic link.
[[nodiscard]] Status write_file_atomically(FileSystem& fs, const std::string& path,
                                           std::string_view bytes, bool create_only);

// The same for bytes made of pieces written one after another (a plan's kept slices and inserts),
// never joined in memory.
[[nodiscard]] Status write_file_atomically(FileSystem& fs, const std::string& path,
                                           std::span<const std::string_view> pieces,
                                           bool create_only);

// write_file_atomically (never create-only) when the file `prepared` already holds `pieces`,
// fsynced (a journal's prepared file): where the system can, `prepared` itself is renamed over
// `path` (and is gone from where it was), so the bytes are not written again; elsewhere (another
// file system) they are. The read-back is the same.
[[nodiscard]] Status replace_with_file(FileSystem& fs, const std::string& path,
                                       const std::string& prepared,
                                       std::span<const std::string_view> pieces);

}  // namespace memkit
