// Atomic file replacement (spec README.md "Writes"): the old bytes or the new ones survive any
// crash, never a mix.
#include "files/file_system.hpp"

namespace memkit {

Status write_file_atomically(FileSystem& fs, const std::string& path, std::string_view bytes,
                             bool create_only) {
  return write_file_atomically(fs, path, std::span<const std::string_view>(&bytes, 1), create_only);
}

namespace {

// What follows the rename: the directory fsynced, then the read-back (compaction.md §12.3 step 9),
// which compares the bytes themselves: the same check as comparing their SHA-256 with the one
// expected of them, without hashing the file twice.
Status settle(FileSystem& fs, const std::string& path, const std::string& directory,
              std::span<const std::string_view> pieces) {
  if (Status synced = fs.sync_directory(directory); !synced.ok()) return synced;
  const Result<bool> written = fs.file_matches(path, pieces);
  if (!written) return written.status();
  if (!*written) return Status(Errc::io, path + ": read-back mismatch after the write");
  return Status();
}

// write_file_atomically, with the bytes already in the file `prepared` when it is not empty: that
// file is renamed over `path` where the system can (else the bytes are written as usual).
Status place_atomically(FileSystem& fs, const std::string& path,
                        std::span<const std::string_view> pieces, bool create_only,
                        const std::string& prepared) {
  const std::size_t slash = path.find_last_of('/');
  const std::string directory = slash == std::string::npos ? "." : path.substr(0, slash);
  const Result<NodeType> existing = fs.node_type(path);
  if (!existing) return existing.status();
  if (*existing == NodeType::symlink) {
    return Status(Errc::unsafe_path, path + ": refusing to write through a symbolic link");
  }
  if (*existing != NodeType::none && *existing != NodeType::file) {
    return Status(Errc::io, path + ": not a regular file");
  }
  if (create_only && *existing == NodeType::file) {
    return Status(Errc::io, path + ": already exists");
  }
  std::uint32_t mode = 0644;
  if (*existing == NodeType::file) {
    const Result<std::uint32_t> current = fs.file_mode(path);
    if (!current) return current.status();
    mode = *current;
  }
  // The prepared file is moved into place, never given a second name (a reader at the file's end
  // refuses a file of two names, store/read_entry.hpp, and may read without the lock); from
  // another file system its bytes are written instead.
  if (!prepared.empty()) {
    const Result<FileStat> from = fs.stat(prepared);
    const Result<FileStat> to = fs.stat(directory);
    if (from && to && from->device == to->device) {
      if (Status moved = fs.set_mode(prepared, mode); !moved.ok()) return moved;
      if (Status moved = fs.rename_replace(prepared, path); !moved.ok()) return moved;
      return settle(fs, path, directory, pieces);
    }
  }
  const Result<std::string> temporary = fs.write_temporary(directory, pieces);
  if (!temporary) {
    // Named by the file it was for: a temporary's name means nothing to the reader.
    std::string why = temporary.status().message();
    const std::string prefix = directory + "/.memkit-tmp-";
    if (const std::size_t colon = why.find(": ");
        why.compare(0, prefix.size(), prefix) == 0 && colon != std::string::npos) {
      why.erase(0, colon + 2);
    }
    return Status(temporary.status().code(), path + ": not written: " + why);
  }
  Status status = fs.set_mode(*temporary, mode);
  if (status.ok()) {
    status =
        create_only ? fs.rename_no_replace(*temporary, path) : fs.rename_replace(*temporary, path);
  }
  if (!status.ok()) {
    (void)fs.remove_file(*temporary);  // best effort: the target is untouched either way
    return status;
  }
  return settle(fs, path, directory, pieces);
}

}  // namespace

Status write_file_atomically(FileSystem& fs, const std::string& path,
                             std::span<const std::string_view> pieces, bool create_only) {
  return place_atomically(fs, path, pieces, create_only, std::string());
}

Status replace_with_file(FileSystem& fs, const std::string& path, const std::string& prepared,
                         std::span<const std::string_view> pieces) {
  return place_atomically(fs, path, pieces, false, prepared);
}

}  // namespace memkit
