// The POSIX side of the directory remote (spec memorybox.md §9): its lock, and its JSON Lines
// files read whole, cut back to their last LF and appended in one write. Internal to src/sync.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "memkit/result.hpp"

namespace memkit::sync::detail {

// "<path>: <strerror>" (first letter lower case), with Errc::io.
[[nodiscard]] Status io_error(const std::string& path, int error);

// An open file descriptor, closed when destroyed (which also drops a flock held through it).
class FileDescriptor final {
 public:
  FileDescriptor() noexcept = default;
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  [[nodiscard]] int get() const noexcept { return fd_; }
  // Returns true iff a file is open (a missing file opens as "not open", not as a failure).
  [[nodiscard]] bool is_open() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

enum class LockMode : std::uint8_t { shared, exclusive };

// Opens `path` (created if needed) and waits for a flock of `mode` on it; the lock lasts as long
// as the descriptor. Each call opens its own descriptor, so two Remote objects in one process
// exclude each other like two processes.
[[nodiscard]] Result<FileDescriptor> lock_file(const std::string& path, LockMode mode);

// Opens an existing regular file for reading, or for reading and appending; a missing file gives
// a descriptor that is not open.
[[nodiscard]] Result<FileDescriptor> open_if_present(const std::string& path, bool for_append);

// Opens `path` for reading and appending, creating it (0644) when missing; `created` tells which.
[[nodiscard]] Result<FileDescriptor> open_for_append(const std::string& path, bool& created);

[[nodiscard]] Result<std::uint64_t> size_of(const FileDescriptor& file, const std::string& path);

// Replaces `out` with the `length` bytes at `offset`.
// REQUIRES: offset + length <= the file's size.
[[nodiscard]] Status read_range(const FileDescriptor& file, const std::string& path,
                                std::uint64_t offset, std::uint64_t length, std::string& out);

// The size the file has once a final line without its LF (a crashed push) is cut off: the
// offset after its last LF, or 0. Reads backwards from `size`, so only the tail is read.
[[nodiscard]] Result<std::uint64_t> complete_size(const FileDescriptor& file,
                                                  const std::string& path, std::uint64_t size);

// Cuts the file to `size` bytes.
[[nodiscard]] Status truncate_to(const FileDescriptor& file, const std::string& path,
                                 std::uint64_t size);

// Appends `bytes` with one write(2) call, continued only after a partial write, so a reader
// holding the shared lock never waits on a file stitched from several writes.
[[nodiscard]] Status append_all(const FileDescriptor& file, const std::string& path,
                                std::string_view bytes);

[[nodiscard]] Status sync_file(const FileDescriptor& file, const std::string& path);

// fsyncs a folder, so that a file created in it survives a crash.
[[nodiscard]] Status sync_folder(const std::string& path);

}  // namespace memkit::sync::detail
