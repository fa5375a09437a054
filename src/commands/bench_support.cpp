// bench_support.hpp.
#include "commands/bench_support.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "memkit/version.hpp"

extern char** environ;

#include "files/state_directory.hpp"

namespace memkit::commands_detail {

using detail::join;

Status remove_tree(FileSystem& fs, const std::string& dir) {
  Result<std::vector<std::pair<std::string, FileStat>>> entries = fs.list_directory_stats(dir);
  if (!entries) return entries.status();
  for (const auto& [name, stat] : *entries) {
    const std::string path = join(dir, name);
    Status removed = stat.type == NodeType::directory ? remove_tree(fs, path) : fs.remove_file(path);
    if (!removed.ok()) return removed;
  }
  return fs.remove_directory(dir);
}

Status make_folders(FileSystem& fs, const std::string& root, const std::string& relative) {
  std::string dir = root;
  std::size_t from = 0;
  while (from <= relative.size()) {
    const std::size_t slash = std::min(relative.find('/', from), relative.size());
    dir = join(dir, relative.substr(from, slash - from));
    if (Status made = fs.create_directory(dir); !made.ok()) return made;
    from = slash + 1;
  }
  return Status();
}

Result<Scratch> Scratch::make(FileSystem& fs, const std::string& parent) {
  std::mt19937_64 random(std::random_device{}());
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::string path = join(parent, fmt::format("memkit-bench-{:016x}", random()));
    const Result<NodeType> type = fs.node_type(path);
    if (!type) return type.status();
    if (*type != NodeType::none) continue;
    if (Status made = fs.create_directory(path); !made.ok()) return made;
    return Scratch(fs, path);
  }
  return Status(Errc::io, parent + ": cannot make a scratch folder");
}

Scratch::~Scratch() {
  if (!path_.empty()) (void)remove_tree(*fs_, path_);
}

Status check_report_path(FileSystem& fs, const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const Result<NodeType> parent = fs.node_type(folder);
  const Result<NodeType> itself = fs.node_type(path);
  if (!parent || *parent != NodeType::directory || !itself ||
      (*itself != NodeType::none && *itself != NodeType::file)) {
    return Status(Errc::invalid_argument,
                  "--report: " + path + ": not a file that can be written (its folder must exist)");
  }
  return Status();
}

std::string scratch_parent(const std::string& temporary_directory) {
  return temporary_directory.empty() ? "/tmp" : temporary_directory;
}

std::optional<std::uint64_t> free_bytes(const std::string& path) {
  struct statvfs space {};
  if (::statvfs(path.c_str(), &space) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(space.f_bavail) * space.f_frsize;
}

std::int64_t micros(const timeval& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000 + static_cast<std::int64_t>(t.tv_usec);
}

std::int64_t median(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

std::int64_t peak_rss_kib() {
  rusage usage{};
  (void)::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

std::string bench_command_line(const CommandRequest& inv) {
  const auto quoted = [](const std::string& word) {
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789-_./,:=+@%") == std::string::npos) {
      return word;
    }
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  };
  std::string line = "memkit bench " + inv.command;
  for (const auto& [name, value] : inv.options) line += " " + name + " " + quoted(value);
  for (const std::string& flag : inv.flags) line += " " + flag;
  if (inv.now) line += " --now " + quoted(*inv.now);
  if (inv.format == OutputFormat::json) line += " --format json";
  return line;
}

bench::Machine this_machine() {
  bench::Machine m;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      m.cpu = line.substr(line.find(':') + 1);
      m.cpu.erase(0, std::min(m.cpu.find_first_not_of(' '), m.cpu.size()));
      break;
    }
  }
  if (m.cpu.empty()) m.cpu = "unknown";
  const long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  m.cores = cores > 0 ? static_cast<std::uint32_t>(cores) : 0;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  m.memory_bytes = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) *
                                               static_cast<std::uint64_t>(page)
                                         : 0;
  utsname names{};
  if (::uname(&names) == 0) {
    m.kernel = fmt::format("{} {} {}", names.sysname, names.release, names.machine);
  }
#if defined(__clang__)
  m.compiler = fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__,
                           __clang_patchlevel__);
#elif defined(__GNUC__)
  m.compiler = fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  m.compiler = "unknown";
#endif
  m.build_type = MEMKIT_BUILD_TYPE;
  if (m.build_type.empty()) m.build_type = "unspecified";
  m.memkit_version = std::string(version());
  return m;
}

namespace {

// The file's last `limit` bytes, from a line's start where one begins within them.
std::string tail_of(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!bytes.empty() && (bytes.back() == '\n' || bytes.back() == ' ')) bytes.pop_back();
  if (bytes.size() <= limit) return bytes;
  std::string tail = bytes.substr(bytes.size() - limit);
  if (const std::size_t newline = tail.find('\n'); newline != std::string::npos) {
    tail.erase(0, newline + 1);
  }
  return tail;
}

// Waits up to `timeout_ms` for `pid` to end (a pidfd where the kernel has them, else polling).
// True when it ended (then it is still to be reaped).
bool wait_for_end(pid_t pid, std::int64_t timeout_ms) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  const long pidfd = ::syscall(SYS_pidfd_open, pid, 0);
  for (;;) {
    const std::int64_t left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count();
    if (left <= 0) break;
    if (pidfd >= 0) {
      pollfd ready{static_cast<int>(pidfd), POLLIN, 0};
      const int n = ::poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(left, 60'000)));
      if (n > 0) {
        ::close(static_cast<int>(pidfd));
        return true;
      }
    } else {
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == pid) {
        return true;
      }
      ::usleep(1000);
    }
  }
  if (pidfd >= 0) ::close(static_cast<int>(pidfd));
  return false;
}

}  // namespace

Result<ProcessRun> run_process(const std::vector<std::string>& argv, const std::string& cwd,
                               const std::string& stderr_file, std::int64_t timeout_ms) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawnattr_init(&attributes);
  ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, 2, stderr_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  ::posix_spawnattr_setpgroup(&attributes, 0);
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(),
                                    environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return Status(Errc::io, fmt::format("{}: cannot be started: {}", argv[0],
                                        std::generic_category().message(spawned)));
  }
  ProcessRun run;
  if (!wait_for_end(pid, timeout_ms)) {
    run.timed_out = true;
    (void)::kill(-pid, SIGKILL);
  }
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  const auto stop = std::chrono::steady_clock::now();
  if (!run.timed_out) (void)::kill(-pid, SIGKILL);  // what it left running in its group
  run.wall_us = std::chrono::duration_cast<std::chrono::microseconds>(stop - start).count();
  run.cpu_us = micros(usage.ru_utime) + micros(usage.ru_stime);
  run.peak_rss_kib = usage.ru_maxrss;
  run.page_faults = usage.ru_minflt + usage.ru_majflt;
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (run.timed_out || run.exit_status != 0) run.stderr_tail = tail_of(stderr_file, 400);
  return run;
}

namespace {

// The launcher's messages: strings and integers, each written whole to a pipe.
bool write_all(int fd, const void* data, std::size_t size) {
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}
bool read_all(int fd, void* data, std::size_t size) {
  char* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}
bool write_int(int fd, std::int64_t value) { return write_all(fd, &value, sizeof value); }
bool read_int(int fd, std::int64_t& value) { return read_all(fd, &value, sizeof value); }
bool write_text(int fd, const std::string& text) {
  return write_int(fd, static_cast<std::int64_t>(text.size())) &&
         write_all(fd, text.data(), text.size());
}
bool read_text(int fd, std::string& text) {
  std::int64_t size = 0;
  if (!read_int(fd, size) || size < 0 || size > (std::int64_t{1} << 20)) return false;
  text.assign(static_cast<std::size_t>(size), '\0');
  return read_all(fd, text.data(), text.size());
}

// The launcher's loop: a request (argv, cwd, standard error's file, time limit), then its answer
// (started or why not, and the run), until the bench closes its end.
[[noreturn]] void serve_launches(int requests, int answers) {
  for (;;) {
    std::int64_t count = 0;
    if (!read_int(requests, count) || count <= 0 || count > 4096) ::_exit(0);
    std::vector<std::string> argv(static_cast<std::size_t>(count));
    std::string cwd;
    std::string stderr_file;
    std::int64_t timeout_ms = 0;
    bool ok = true;
    for (std::string& a : argv) ok = ok && read_text(requests, a);
    ok = ok && read_text(requests, cwd) && read_text(requests, stderr_file) &&
         read_int(requests, timeout_ms);
    if (!ok) ::_exit(0);
    const Result<ProcessRun> run = run_process(argv, cwd, stderr_file, timeout_ms);
    const ProcessRun r = run ? *run : ProcessRun{};
    if (!write_text(answers, run ? std::string() : run.status().message()) ||
        !write_int(answers, r.wall_us) || !write_int(answers, r.cpu_us) ||
        !write_int(answers, r.peak_rss_kib) || !write_int(answers, r.page_faults) ||
        !write_int(answers, r.timed_out ? 1 : 0) || !write_int(answers, r.exit_status) ||
        !write_text(answers, r.stderr_tail)) {
      ::_exit(0);
    }
  }
}

}  // namespace

Result<Launcher> Launcher::start() {
  int requests[2];
  int answers[2];
  if (::pipe2(requests, O_CLOEXEC) != 0) return Status(Errc::io, "bench: cannot make a pipe");
  if (::pipe2(answers, O_CLOEXEC) != 0) {
    ::close(requests[0]);
    ::close(requests[1]);
    return Status(Errc::io, "bench: cannot make a pipe");
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    for (const int fd : {requests[0], requests[1], answers[0], answers[1]}) ::close(fd);
    return Status(Errc::io, "bench: cannot start its launcher process");
  }
  if (pid == 0) {
    ::close(requests[1]);
    ::close(answers[0]);
    // Its peak from here on is what it holds now, not the bench's before it.
    if (const int fd = ::open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC); fd >= 0) {
      (void)!::write(fd, "5", 1);
      ::close(fd);
    }
    serve_launches(requests[0], answers[1]);
  }
  ::close(requests[0]);
  ::close(answers[1]);
  Launcher launcher(pid, requests[1], answers[0], 0);
  // A child that does nothing shows the floor.
  const Result<ProcessRun> empty = launcher.run({"/bin/true"}, "/", "/dev/null", 10'000);
  if (empty) launcher.floor_kib_ = empty->peak_rss_kib;
  return launcher;
}

Launcher::~Launcher() {
  if (pid_ < 0) return;
  ::close(to_);
  ::close(from_);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

Result<ProcessRun> Launcher::run(const std::vector<std::string>& argv, const std::string& cwd,
                                 const std::string& stderr_file, std::int64_t timeout_ms) const {
  bool ok = write_int(to_, static_cast<std::int64_t>(argv.size()));
  for (const std::string& a : argv) ok = ok && write_text(to_, a);
  ok = ok && write_text(to_, cwd) && write_text(to_, stderr_file) && write_int(to_, timeout_ms);
  std::string failure;
  ProcessRun r;
  std::int64_t timed_out = 0;
  std::int64_t exit_status = 0;
  ok = ok && read_text(from_, failure) && read_int(from_, r.wall_us) &&
       read_int(from_, r.cpu_us) && read_int(from_, r.peak_rss_kib) &&
       read_int(from_, r.page_faults) && read_int(from_, timed_out) &&
       read_int(from_, exit_status) && read_text(from_, r.stderr_tail);
  if (!ok) return Status(Errc::io, "bench: its launcher process stopped answering");
  if (!failure.empty()) return Status(Errc::io, failure);
  r.timed_out = timed_out != 0;
  r.exit_status = static_cast<int>(exit_status);
  return r;
}

}  // namespace memkit::commands_detail
