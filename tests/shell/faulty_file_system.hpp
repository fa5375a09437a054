// A FileSystem that forwards to the real one and fails chosen calls (STYLE T2, after leveldb's
// fault_injection_test): the Nth call of one operation, before or after the real effect, or
// every read of chosen files. It logs the mutating calls so tests can check their order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "files/file_system.hpp"

namespace memkit::shell_test {

enum class Op : std::uint8_t {
  write_temporary,
  set_mode,
  rename_replace,
  rename_no_replace,
  sync_directory,
  create_directory,
  remove_file,
  read_file,
  file_matches,
  append_file,
  read_range,
  append_at,
  truncate_file,
  link_temporary,
};
inline constexpr std::size_t kOpCount = 14;

inline std::string_view op_name(Op op) noexcept {
  switch (op) {
    case Op::write_temporary:
      return "write_temporary";
    case Op::set_mode:
      return "set_mode";
    case Op::rename_replace:
      return "rename_replace";
    case Op::rename_no_replace:
      return "rename_no_replace";
    case Op::sync_directory:
      return "sync_directory";
    case Op::create_directory:
      return "create_directory";
    case Op::remove_file:
      return "remove_file";
    case Op::read_file:
      return "read_file";
    case Op::file_matches:
      return "file_matches";
    case Op::append_file:
      return "append_file";
    case Op::read_range:
      return "read_range";
    case Op::append_at:
      return "append_at";
    case Op::truncate_file:
      return "truncate_file";
    case Op::link_temporary:
      return "link_temporary";
  }
  return "?";
}

// When an injected fault strikes: before the real call (nothing happened) or after it (the
// effect is on disk, but the caller is told it failed, like a crash between two steps).
enum class Timing : std::uint8_t { before, after };

struct LoggedCall {
  Op op;
  std::string path;  // the first path argument
  std::string to;    // renames: the destination
};

class FaultyFileSystem final : public FileSystem {
 public:
  explicit FaultyFileSystem(FileSystem& inner = posix_file_system()) : inner_(&inner) {}

  // Fails the `nth` call (1-based) of `op` from now on; 0 disarms.
  void fail_nth(Op op, int nth, Timing timing = Timing::before) {
    fault_op_ = op;
    fault_nth_ = nth;
    fault_timing_ = timing;
    calls_.fill(0);
  }
  // Makes the armed fault a crash: once it strikes, every later call that it counts fails before
  // its effect, and so does remove_directory, as if the process had died there. What the disk
  // holds then is what a real crash at that point leaves.
  void crash_on_fault() { crash_ = true; }
  // Makes a struck append_at that fails after its effect write only the first half of its bytes,
  // as a crash in the middle of the write (or a full disk) leaves it.
  void tear_appends() { tear_ = true; }
  // Makes every link_temporary fail, as on a file system without hard links: writes copy.
  void without_hard_links() { no_links_ = true; }
  // Fails every read_file, read_range and file_matches of a path that ends with `suffix`.
  void fail_reads_of(std::string suffix) { unreadable_.push_back(std::move(suffix)); }
  // Runs `write` before each of the next `times` reads (read_file) of a path that ends with
  // `suffix`: a writer beside the reader, changing the file just before it is read.
  void write_before_reads_of(std::string suffix, int times, std::function<void()> write) {
    writer_ = {std::move(suffix), times, std::move(write)};
  }

  [[nodiscard]] int calls(Op op) const noexcept { return calls_[static_cast<std::size_t>(op)]; }
  [[nodiscard]] bool fault_struck() const noexcept { return struck_; }
  [[nodiscard]] const std::vector<LoggedCall>& log() const noexcept { return log_; }
  // The temporary files write_temporary and link_temporary handed out, in order.
  [[nodiscard]] const std::vector<std::string>& temporaries() const noexcept {
    return temporaries_;
  }

  Result<NodeType> node_type(const std::string& path) const override {
    return inner_->node_type(path);
  }

  Result<std::string> read_file(const std::string& path) const override {
    if (unreadable(path)) return Status(Errc::io, path + ": permission denied");
    if (writer_.times > 0 && path.ends_with(writer_.suffix)) {
      --writer_.times;
      writer_.write();
    }
    if (strikes(Op::read_file)) {
      crashed_ = crash_;
      return injected(path);
    }
    return inner_->read_file(path);
  }

  Result<bool> file_matches(const std::string& path,
                            std::span<const std::string_view> pieces) const override {
    if (unreadable(path)) return Status(Errc::io, path + ": permission denied");
    if (strikes(Op::file_matches)) {
      crashed_ = crash_;
      return injected(path);
    }
    return inner_->file_matches(path, pieces);
  }

  Result<std::string> read_range(const std::string& path, std::uint64_t offset,
                                 std::size_t size) const override {
    if (unreadable(path)) return Status(Errc::io, path + ": permission denied");
    if (strikes(Op::read_range)) {
      crashed_ = crash_;
      return injected(path);
    }
    return inner_->read_range(path, offset, size);
  }

  Result<std::vector<std::string>> list_directory(const std::string& path) const override {
    return inner_->list_directory(path);
  }

  Result<std::uint32_t> file_mode(const std::string& path) const override {
    return inner_->file_mode(path);
  }
  Result<std::int64_t> modified_millis(const std::string& path) const override {
    return inner_->modified_millis(path);
  }
  // Makes stat() report no inode change time, as a file system without one (or a change within
  // one tick of a coarse clock, the same size, the same file) would.
  void hide_change_times() { hide_change_times_ = true; }
  Result<FileStat> stat(const std::string& path) const override {
    Result<FileStat> out = inner_->stat(path);
    if (out && hide_change_times_) out->changed_ns = 0;
    return out;
  }

  Status create_directory(const std::string& path) override {
    return run(Op::create_directory, path, {}, [&] { return inner_->create_directory(path); });
  }

  Result<std::string> write_temporary(const std::string& directory,
                                      std::span<const std::string_view> pieces) override {
    log_.push_back({Op::write_temporary, directory, {}});
    // A temporary whose creation "fails after the effect" would be unknown to the caller and
    // could never be cleaned up; FileSystem promises it removes it itself, so only "before".
    if (strikes(Op::write_temporary)) {
      crashed_ = crash_;
      return injected(directory);
    }
    Result<std::string> made = inner_->write_temporary(directory, pieces);
    if (made) temporaries_.push_back(*made);
    return made;
  }

  Result<std::string> link_temporary(const std::string& file,
                                     const std::string& directory) override {
    log_.push_back({Op::link_temporary, file, directory});
    // Like write_temporary: a name the caller never learnt of could not be cleaned up, and
    // FileSystem promises none is left on failure, so only "before".
    if (strikes(Op::link_temporary)) {
      crashed_ = crash_;
      return injected(file);
    }
    if (no_links_) return Status(Errc::io, file + ": operation not permitted");
    Result<std::string> made = inner_->link_temporary(file, directory);
    if (made) temporaries_.push_back(*made);
    return made;
  }

  Status append_file(const std::string& path, std::string_view bytes) override {
    return run(Op::append_file, path, {}, [&] { return inner_->append_file(path, bytes); });
  }
  Status append_at(const std::string& path, std::uint64_t offset,
                   std::span<const std::string_view> pieces) override {
    log_.push_back({Op::append_at, path, {}});
    const bool dead = crashed_;
    if (!strikes(Op::append_at)) return inner_->append_at(path, offset, pieces);
    if (!dead && fault_timing_ == Timing::after) {
      if (tear_) {
        std::string joined;
        for (const std::string_view piece : pieces) joined += piece;
        const std::string_view half = std::string_view(joined).substr(0, joined.size() / 2);
        (void)inner_->append_at(path, offset, std::span<const std::string_view>(&half, 1));
      } else {
        (void)inner_->append_at(path, offset, pieces);
      }
    }
    crashed_ = crash_;
    return injected(path);
  }
  Status truncate_file(const std::string& path, std::uint64_t size) override {
    return run(Op::truncate_file, path, {}, [&] { return inner_->truncate_file(path, size); });
  }
  Status set_mode(const std::string& path, std::uint32_t mode) override {
    return run(Op::set_mode, path, {}, [&] { return inner_->set_mode(path, mode); });
  }

  Status rename_replace(const std::string& from, const std::string& to) override {
    return run(Op::rename_replace, from, to, [&] { return inner_->rename_replace(from, to); });
  }

  Status rename_no_replace(const std::string& from, const std::string& to) override {
    return run(Op::rename_no_replace, from, to,
               [&] { return inner_->rename_no_replace(from, to); });
  }

  Status sync_directory(const std::string& path) override {
    return run(Op::sync_directory, path, {}, [&] { return inner_->sync_directory(path); });
  }

  Status remove_file(const std::string& path) override {
    return run(Op::remove_file, path, {}, [&] { return inner_->remove_file(path); });
  }
  Status remove_directory(const std::string& path) override {
    if (crashed_) return injected(path);
    return inner_->remove_directory(path);
  }

  Result<std::unique_ptr<LockHandle>> lock_exclusive(const std::string& path,
                                                     double timeout_seconds) override {
    return inner_->lock_exclusive(path, timeout_seconds);
  }

 private:
  // Returns true iff fail_reads_of named a suffix of `path`.
  [[nodiscard]] bool unreadable(const std::string& path) const {
    for (const std::string& suffix : unreadable_) {
      if (path.size() >= suffix.size() &&
          path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return true;
      }
    }
    return false;
  }

  static Status injected(const std::string& path) {
    return Status(Errc::io, path + ": injected fault");
  }

  // Counts the call and says whether the armed fault strikes it.
  bool strikes(Op op) const {
    const int n = ++calls_[static_cast<std::size_t>(op)];
    if (crashed_) return true;
    if (fault_nth_ <= 0 || op != fault_op_ || n != fault_nth_) return false;
    struck_ = true;
    return true;
  }

  template <class Call>
  Status run(Op op, const std::string& path, const std::string& to, Call&& call) {
    log_.push_back({op, path, to});
    const bool dead = crashed_;
    if (!strikes(op)) return call();
    if (!dead && fault_timing_ == Timing::after) (void)call();
    crashed_ = crash_;
    return injected(path);
  }

  FileSystem* inner_;
  Op fault_op_ = Op::write_temporary;
  int fault_nth_ = 0;
  Timing fault_timing_ = Timing::before;
  mutable std::array<int, kOpCount> calls_{};
  mutable bool struck_ = false;
  bool crash_ = false;
  bool tear_ = false;
  bool no_links_ = false;
  mutable bool crashed_ = false;
  std::vector<std::string> unreadable_;
  struct Writer {
    std::string suffix;
    int times = 0;
    std::function<void()> write;
  };
  mutable Writer writer_;
  std::vector<LoggedCall> log_;
  bool hide_change_times_ = false;
  std::vector<std::string> temporaries_;
};

}  // namespace memkit::shell_test
