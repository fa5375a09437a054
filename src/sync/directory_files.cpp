// The POSIX side of the directory remote: every system call the adapter makes.
#include "sync/directory_files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace memkit::sync::detail {

namespace {

// Files hold lines of a few hundred bytes; the tail read for a partial line takes this much at a
// time.
constexpr std::uint64_t kTailBlock = 64 * 1024;

Status check_regular(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error(path, errno);
  if (!S_ISREG(st.st_mode)) return Status(Errc::io, path + ": not a regular file");
  return Status();
}

}  // namespace

Status io_error(const std::string& path, int error) {
  std::string what = std::strerror(error);
  if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  return Status(Errc::io, path + ": " + what);
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

Result<FileDescriptor> lock_file(const std::string& path, LockMode mode) {
  FileDescriptor fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644));
  if (!fd.is_open() && mode == LockMode::shared && (errno == EACCES || errno == EROFS)) {
    // A read-only copy of a remote can still be pulled: flock needs no write access.
    fd = FileDescriptor(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  }
  if (!fd.is_open()) return io_error(path, errno);
  if (Status regular = check_regular(fd.get(), path); !regular.ok()) return regular;
  const int operation = mode == LockMode::shared ? LOCK_SH : LOCK_EX;
  while (::flock(fd.get(), operation) != 0) {
    if (errno != EINTR) return io_error(path, errno);
  }
  return fd;
}

Result<FileDescriptor> open_if_present(const std::string& path, bool for_append) {
  const int flags = for_append ? O_RDWR | O_APPEND : O_RDONLY;
  FileDescriptor fd(::open(path.c_str(), flags | O_CLOEXEC | O_NONBLOCK));
  if (!fd.is_open()) {
    if (errno == ENOENT) return FileDescriptor();
    return io_error(path, errno);
  }
  if (Status regular = check_regular(fd.get(), path); !regular.ok()) return regular;
  return fd;
}

Result<FileDescriptor> open_for_append(const std::string& path, bool& created) {
  created = false;
  FileDescriptor fd(::open(path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC | O_NONBLOCK));
  if (!fd.is_open()) {
    if (errno != ENOENT) return io_error(path, errno);
    fd = FileDescriptor(::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644));
    if (!fd.is_open()) return io_error(path, errno);
    created = true;
  }
  if (Status regular = check_regular(fd.get(), path); !regular.ok()) return regular;
  return fd;
}

Result<std::uint64_t> size_of(const FileDescriptor& file, const std::string& path) {
  struct stat st {};
  if (::fstat(file.get(), &st) != 0) return io_error(path, errno);
  return static_cast<std::uint64_t>(st.st_size);
}

Status read_range(const FileDescriptor& file, const std::string& path, std::uint64_t offset,
                  std::uint64_t length, std::string& out) {
  out.resize(static_cast<std::size_t>(length));
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(file.get(), out.data() + done, out.size() - done,
                              static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(path, errno);
    }
    if (n == 0) return Status(Errc::io, path + ": the file shrank while it was read");
    done += static_cast<std::size_t>(n);
  }
  return Status();
}

Result<std::uint64_t> complete_size(const FileDescriptor& file, const std::string& path,
                                    std::uint64_t size) {
  std::string block;
  std::uint64_t end = size;
  while (end > 0) {
    const std::uint64_t begin = end > kTailBlock ? end - kTailBlock : 0;
    if (Status read = read_range(file, path, begin, end - begin, block); !read.ok()) return read;
    const auto lf = std::find(block.rbegin(), block.rend(), '\n');
    if (lf != block.rend()) {
      return begin + static_cast<std::uint64_t>(block.rend() - lf);
    }
    end = begin;
  }
  return std::uint64_t{0};
}

Status truncate_to(const FileDescriptor& file, const std::string& path, std::uint64_t size) {
  while (::ftruncate(file.get(), static_cast<off_t>(size)) != 0) {
    if (errno != EINTR) return io_error(path, errno);
  }
  return Status();
}

Status append_all(const FileDescriptor& file, const std::string& path, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(file.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(path, errno);
    }
    done += static_cast<std::size_t>(n);
  }
  return Status();
}

Status sync_file(const FileDescriptor& file, const std::string& path) {
  if (::fsync(file.get()) != 0) return io_error(path, errno);
  return Status();
}

Status sync_folder(const std::string& path) {
  const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.is_open()) return io_error(path, errno);
  if (::fsync(fd.get()) != 0) return io_error(path, errno);
  return Status();
}

}  // namespace memkit::sync::detail
