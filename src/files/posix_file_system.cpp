// The POSIX FileSystem: the only code that makes system calls on memory files.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <thread>

#include "files/file_system.hpp"
#include "files/progress.hpp"

namespace memkit {
namespace {

Status io_error(const std::string& path, int error) {
  const Errc code = error == ENOENT ? Errc::not_found : Errc::io;
  std::string what = std::strerror(error);
  if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  return Status(code, path + ": " + what);
}

Status not_regular(const std::string& path) {
  return Status(Errc::io, path + ": not a regular file");
}

// Opens what should be a regular file without following a final link and without blocking: a
// FIFO opened for reading would wait for a writer forever, and a device could do anything.
// O_NONBLOCK changes nothing for a regular file; callers fstat and refuse anything else.
int open_regular(const std::string& path, int flags) {
  return ::open(path.c_str(), flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
}

// Whether an open file is a regular file of one name. A replace by rename gives the file a new
// inode and so leaves other names of it alone; writing in place (an append, a truncation) would
// write through every other name, to a file outside the memory folder too.
Status one_name(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error(path, errno);
  if (!S_ISREG(st.st_mode)) return not_regular(path);
  if (st.st_nlink > 1) {
    return Status(Errc::io, path + ": has " + std::to_string(st.st_nlink) +
                                " hard links; memkit changes in place only a file of one name");
  }
  return Status();
}

// Large writes go in steps of this size, so a progress display moves while a file is written.
constexpr std::size_t kWriteStep = std::size_t{8} << 20;

class FdCloser final {
 public:
  explicit FdCloser(int fd) noexcept : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;
  [[nodiscard]] int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

class FlockHandle final : public LockHandle {
 public:
  explicit FlockHandle(int fd) noexcept : fd_(fd) {}
  ~FlockHandle() override {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }

 private:
  int fd_;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<NodeType> node_type(const std::string& path) const override {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return NodeType::none;
      return io_error(path, errno);
    }
    if (S_ISREG(st.st_mode)) return NodeType::file;
    if (S_ISDIR(st.st_mode)) return NodeType::directory;
    if (S_ISLNK(st.st_mode)) return NodeType::symlink;
    return NodeType::other;
  }

  Result<std::string> read_file(const std::string& path) const override {
    FdCloser fd(open_regular(path, O_RDONLY));
    if (fd.get() < 0) return io_error(path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (!S_ISREG(st.st_mode)) return not_regular(path);
    std::string bytes;
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    char more[4096];  // end of file is confirmed here, so the buffer never grows (and copies)
    while (true) {
      const bool full = done == bytes.size();
      const ssize_t n = full ? ::read(fd.get(), more, sizeof more)
                             : ::read(fd.get(), bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return io_error(path, errno);
      }
      if (n == 0) break;
      if (full) {
        bytes.append(more, static_cast<std::size_t>(n));  // the file grew since fstat
      }
      done += static_cast<std::size_t>(n);
    }
    bytes.resize(done);
    return bytes;
  }

  Result<std::string> read_range(const std::string& path, std::uint64_t offset,
                                 std::size_t size) const override {
    FdCloser fd(open_regular(path, O_RDONLY));
    if (fd.get() < 0) return io_error(path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (!S_ISREG(st.st_mode)) return not_regular(path);
    std::string bytes(size, '\0');
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n =
          ::pread(fd.get(), bytes.data() + done, size - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return io_error(path, errno);
      }
      if (n == 0) break;
      done += static_cast<std::size_t>(n);
    }
    bytes.resize(done);
    return bytes;
  }

  Result<std::vector<std::string>> list_directory(const std::string& path) const override {
    return names_in(path, nullptr);
  }

  Result<std::vector<std::pair<std::string, FileStat>>> list_directory_stats(
      const std::string& path) const override {
    int fd = -1;
    Result<std::vector<std::string>> names = names_in(path, &fd);
    if (!names) return names.status();
    const FdCloser dir(fd);
    std::vector<std::pair<std::string, FileStat>> out;
    out.reserve(names->size());
    for (std::string& name : *names) {
      struct stat st {};
      const bool found = ::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
      out.emplace_back(std::move(name), found ? stat_of(st) : FileStat{});
    }
    return out;
  }

  // The sorted names in a directory; with `kept`, a descriptor of the directory left open in it.
  static Result<std::vector<std::string>> names_in(const std::string& path, int* kept) {
    // Errors keep the wording they had (Errc::io, the system's message as it stands).
    const auto failed = [&path](int error) {
      return Status(Errc::io, path + ": " + std::strerror(error));
    };
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr) return failed(errno);
    if (kept != nullptr) {
      *kept = ::fcntl(::dirfd(dir), F_DUPFD_CLOEXEC, 0);
      if (*kept < 0) {
        const int error = errno;
        ::closedir(dir);
        return failed(error);
      }
    }
    std::vector<std::string> names;
    for (;;) {
      errno = 0;
      const dirent* entry = ::readdir(dir);
      if (entry == nullptr) break;
      const std::string_view name = entry->d_name;
      if (name != "." && name != "..") names.emplace_back(name);
    }
    const int error = errno;
    ::closedir(dir);
    if (error != 0) {
      if (kept != nullptr) ::close(*kept);
      return failed(error);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<std::uint32_t> file_mode(const std::string& path) const override {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return io_error(path, errno);
    return static_cast<std::uint32_t>(st.st_mode & 07777);
  }

  Result<std::int64_t> modified_millis(const std::string& path) const override {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return io_error(path, errno);
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
  }

  Result<FileStat> stat(const std::string& path) const override {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return io_error(path, errno);
    return stat_of(st);
  }

  static FileStat stat_of(const struct stat& st) {
    FileStat out;
    out.type = S_ISREG(st.st_mode)   ? NodeType::file
               : S_ISDIR(st.st_mode) ? NodeType::directory
               : S_ISLNK(st.st_mode) ? NodeType::symlink
                                     : NodeType::other;
    out.size = static_cast<std::uint64_t>(st.st_size);
    out.modified_ns =
        static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    out.changed_ns =
        static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
    out.device = static_cast<std::uint64_t>(st.st_dev);
    out.inode = static_cast<std::uint64_t>(st.st_ino);
    out.links = static_cast<std::uint64_t>(st.st_nlink);
    return out;
  }

  Result<MappedFile> map_file(const std::string& path) const override {
    FdCloser fd(open_regular(path, O_RDONLY));
    if (fd.get() < 0) return errno == ENXIO ? not_regular(path) : io_error(path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (!S_ISREG(st.st_mode)) return not_regular(path);
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size == 0) return MappedFile{std::string_view(), nullptr};
    void* at = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (at == MAP_FAILED) return FileSystem::map_file(path);  // a file system that cannot map
    std::shared_ptr<const void> owner(at, [size](const void* p) {
      ::munmap(const_cast<void*>(p), size);  // NOLINT: munmap takes a non-const pointer
    });
    return MappedFile{std::string_view(static_cast<const char*>(at), size), std::move(owner)};
  }

  Status create_directory(const std::string& path) override {
    if (::mkdir(path.c_str(), 0755) == 0) return Status();
    if (errno == EEXIST) {
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return Status();
      return Status(Errc::io, path + ": exists and is not a directory");
    }
    return io_error(path, errno);
  }

  Result<bool> file_matches(const std::string& path,
                            std::span<const std::string_view> pieces) const override {
    FdCloser fd(open_regular(path, O_RDONLY));
    if (fd.get() < 0) return io_error(path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (!S_ISREG(st.st_mode)) return not_regular(path);
    std::size_t expected = 0;
    for (const std::string_view piece : pieces) expected += piece.size();
    if (static_cast<std::uint64_t>(st.st_size) != expected) return false;
    // The pieces still to compare: pieces[piece] from offset `at` on.
    std::size_t piece = 0;
    std::size_t at = 0;
    std::size_t matched = 0;  // bytes read and found equal (every byte read is compared)
    std::vector<char> buffer(std::size_t{1} << 20);
    while (true) {
      const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return io_error(path, errno);
      }
      if (n == 0) break;
      std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
      matched += chunk.size();
      while (!chunk.empty()) {
        while (piece < pieces.size() && at == pieces[piece].size()) {
          ++piece;
          at = 0;
        }
        if (piece == pieces.size()) return false;  // longer than the pieces (it grew meanwhile)
        const std::size_t size = std::min(chunk.size(), pieces[piece].size() - at);
        if (chunk.substr(0, size) != pieces[piece].substr(at, size)) return false;
        chunk.remove_prefix(size);
        at += size;
      }
    }
    return matched == expected;  // not shorter than the pieces (it shrank meanwhile)
  }

  Result<std::string> write_temporary(const std::string& directory,
                                      std::span<const std::string_view> pieces) override {
    for (int attempt = 0; attempt < 16; ++attempt) {
      const std::string path = directory + "/.memkit-tmp-" + random_suffix();
      const int raw =
          ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
      if (raw < 0 && errno != EEXIST) return io_error(path, errno);
      if (raw >= 0) {
        FdCloser opened(raw);
        return finish_temporary(path, opened, pieces);
      }
    }
    return Status(Errc::io, directory + ": cannot create a temporary file");
  }

  Result<std::string> link_temporary(const std::string& file,
                                     const std::string& directory) override {
    FdCloser fd(open_regular(file, O_RDONLY));
    if (fd.get() < 0) return errno == ENXIO ? not_regular(file) : io_error(file, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(file, errno);
    if (!S_ISREG(st.st_mode)) return not_regular(file);
    // The bytes are durable before a second name makes them count (a copy would be fsynced too).
    if (::fsync(fd.get()) != 0) return io_error(file, errno);
    for (int attempt = 0; attempt < 16; ++attempt) {
      const std::string path = directory + "/.memkit-tmp-" + random_suffix();
      // link(2) does not follow a final symbolic link of `file` on Linux.
      if (::link(file.c_str(), path.c_str()) != 0) {
        if (errno == EEXIST) continue;
        return io_error(path, errno);
      }
      // The name must be of the file opened and synced, not of one put in its place since.
      struct stat linked {};
      if (::lstat(path.c_str(), &linked) != 0 || linked.st_dev != st.st_dev ||
          linked.st_ino != st.st_ino) {
        ::unlink(path.c_str());
        return Status(Errc::io, file + ": replaced while it was being linked");
      }
      progress::written(static_cast<std::uint64_t>(st.st_size));  // as good as written
      return path;
    }
    return Status(Errc::io, directory + ": cannot create a temporary name");
  }

  Status append_file(const std::string& path, std::string_view bytes) override {
    FdCloser fd(open_regular(path, O_WRONLY | O_APPEND | O_CREAT));
    if (fd.get() < 0) return errno == ENXIO ? not_regular(path) : io_error(path, errno);
    if (Status one = one_name(fd.get(), path); !one.ok()) return one;
    // One write(2) per call: with O_APPEND the kernel places it whole at the end, so two
    // processes appending lines never cut into each other's. A short write is finished, but
    // then another appender may land in between; lines are far below the sizes where that
    // happens on a local file system.
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return io_error(path, errno);
      }
      done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0) return io_error(path, errno);
    return Status();
  }

  Status append_at(const std::string& path, std::uint64_t offset,
                   std::span<const std::string_view> pieces) override {
    FdCloser fd(open_regular(path, O_WRONLY));
    if (fd.get() < 0) return errno == ENXIO ? not_regular(path) : io_error(path, errno);
    if (Status one = one_name(fd.get(), path); !one.ok()) return one;
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (static_cast<std::uint64_t>(st.st_size) != offset) {
      return Status(Errc::io, path + ": changed while the plan was being applied (" +
                                  std::to_string(st.st_size) + " bytes, expected " +
                                  std::to_string(offset) + ")");
    }
    std::uint64_t at = offset;
    for (const std::string_view piece : pieces) {
      std::size_t done = 0;
      while (done < piece.size()) {
        const ssize_t n =
            ::pwrite(fd.get(), piece.data() + done, std::min(piece.size() - done, kWriteStep),
                     static_cast<off_t>(at));
        if (n < 0) {
          if (errno == EINTR) continue;
          return io_error(path, errno);
        }
        done += static_cast<std::size_t>(n);
        at += static_cast<std::uint64_t>(n);
        progress::written(static_cast<std::uint64_t>(n));
      }
    }
    if (::fsync(fd.get()) != 0) return io_error(path, errno);
    return Status();
  }

  Status truncate_file(const std::string& path, std::uint64_t size) override {
    FdCloser fd(open_regular(path, O_WRONLY));
    if (fd.get() < 0) return errno == ENXIO ? not_regular(path) : io_error(path, errno);
    if (Status one = one_name(fd.get(), path); !one.ok()) return one;
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (static_cast<std::uint64_t>(st.st_size) < size) {
      return Status(Errc::io, path + ": " + std::to_string(st.st_size) +
                                  " bytes, shorter than the " + std::to_string(size) +
                                  " it should be cut to");
    }
    if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) return io_error(path, errno);
    if (::fsync(fd.get()) != 0) return io_error(path, errno);
    return Status();
  }

  Status set_mode(const std::string& path, std::uint32_t mode) override {
    if (::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) return io_error(path, errno);
    return Status();
  }

  Status rename_replace(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return io_error(to, errno);
    return Status();
  }

  Status rename_no_replace(const std::string& from, const std::string& to) override {
    // link() fails with EEXIST instead of replacing, which renameat2 needs a newer libc to offer
    // portably; the temporary name is removed afterwards.
    if (::link(from.c_str(), to.c_str()) != 0) {
      if (errno == EEXIST) return Status(Errc::io, to + ": already exists");
      return io_error(to, errno);
    }
    ::unlink(from.c_str());
    return Status();
  }

  Status sync_directory(const std::string& path) override {
    FdCloser fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) return io_error(path, errno);
    if (::fsync(fd.get()) != 0) return io_error(path, errno);
    return Status();
  }

  Status remove_file(const std::string& path) override {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return io_error(path, errno);
    return Status();
  }

  Status remove_directory(const std::string& path) override {
    if (::rmdir(path.c_str()) != 0 && errno != ENOENT) return io_error(path, errno);
    return Status();
  }

  Result<std::unique_ptr<LockHandle>> lock_exclusive(const std::string& path,
                                                     double timeout_seconds) override {
    FdCloser fd(open_regular(path, O_RDWR | O_CREAT));
    if (fd.get() < 0) return io_error(path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return io_error(path, errno);
    if (!S_ISREG(st.st_mode)) return not_regular(path);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<long>(timeout_seconds * 1000));
    while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) return io_error(path, errno);
      if (std::chrono::steady_clock::now() >= deadline) {
        return Status(Errc::lock_busy, path + ": lock not acquired within the timeout");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // The lock file's mtime says when the lock was last taken: a temporary older than that
    // belongs to no write in flight under the lock (remove_stale_temporaries).
    if (::futimens(fd.get(), nullptr) != 0) return io_error(path, errno);
    return std::unique_ptr<LockHandle>(std::make_unique<FlockHandle>(fd.release()));
  }

 private:
  static std::string random_suffix() {
    static thread_local std::mt19937_64 rng(std::random_device{}());
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(16, '0');
    std::uint64_t v = rng();
    for (char& c : out) {
      c = kHex[v & 0xF];
      v >>= 4;
    }
    return out;
  }

  static Result<std::string> finish_temporary(const std::string& path, FdCloser& fd,
                                              std::span<const std::string_view> pieces) {
    for (const std::string_view bytes : pieces) {
      std::size_t done = 0;
      while (done < bytes.size()) {
        // In steps of kWriteStep, each told to a progress display.
        const ssize_t n =
            ::write(fd.get(), bytes.data() + done, std::min(bytes.size() - done, kWriteStep));
        if (n < 0) {
          if (errno == EINTR) continue;
          const Status failed = io_error(path, errno);
          ::unlink(path.c_str());
          return failed;
        }
        done += static_cast<std::size_t>(n);
        progress::written(static_cast<std::uint64_t>(n));
      }
    }
    if (::fsync(fd.get()) != 0) {
      const Status failed = io_error(path, errno);
      ::unlink(path.c_str());
      return failed;
    }
    return path;
  }
};

}  // namespace

FileSystem& posix_file_system() {
  static PosixFileSystem fs;
  return fs;
}

}  // namespace memkit
