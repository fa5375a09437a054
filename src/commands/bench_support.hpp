// What `memkit bench compaction` and `bench recall` share: the scratch folder everything they
// write goes into, and timing a piece of work with the process's resource usage.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "commands/commands.hpp"
#include "files/file_system.hpp"
#include "memkit/bench.hpp"
#include "memkit/result.hpp"

namespace memkit::commands_detail {

// `dir` and everything in it.
[[nodiscard]] Status remove_tree(FileSystem& fs, const std::string& dir);

// Makes `relative` and every missing folder above it, below `root`.
[[nodiscard]] Status make_folders(FileSystem& fs, const std::string& root,
                                  const std::string& relative);

// The scratch folder, memkit-bench-<random> below a parent (TMPDIR, else /tmp): made new, removed
// with everything in it when the run ends, whatever happened.
class Scratch final {
 public:
  [[nodiscard]] static Result<Scratch> make(FileSystem& fs, const std::string& parent);
  Scratch(Scratch&& other) noexcept : fs_(other.fs_), path_(std::exchange(other.path_, {})) {}
  Scratch& operator=(Scratch&&) = delete;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch();
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

 private:
  Scratch(FileSystem& fs, std::string path) : fs_(&fs), path_(std::move(path)) {}
  FileSystem* fs_;
  std::string path_;
};

// Refuses (Errc::invalid_argument, naming --report) a report path that cannot be written: its
// folder missing, or the path something other than a file (a link, a folder, a FIFO). Checked
// before the runs, so that a long run does not end in a report it cannot write.
[[nodiscard]] Status check_report_path(FileSystem& fs, const std::string& path);

// The scratch folders' parent: the environment's TMPDIR, else /tmp.
[[nodiscard]] std::string scratch_parent(const std::string& temporary_directory);

// Free bytes in the file system holding `path`; nullopt when it cannot be asked.
[[nodiscard]] std::optional<std::uint64_t> free_bytes(const std::string& path);

struct Sample {
  std::int64_t wall_us = 0;
  std::int64_t cpu_us = 0;  // user and system, every thread of the process
  std::int64_t page_faults = 0;
};

[[nodiscard]] std::int64_t micros(const timeval& t);

// `work()` timed by the steady clock, with the CPU time and page faults it cost the process.
template <class Work>
Sample measure(Work&& work) {
  rusage before{};
  rusage after{};
  (void)::getrusage(RUSAGE_SELF, &before);
  const auto start = std::chrono::steady_clock::now();
  work();
  const auto stop = std::chrono::steady_clock::now();
  (void)::getrusage(RUSAGE_SELF, &after);
  Sample s;
  s.wall_us = std::chrono::duration_cast<std::chrono::microseconds>(stop - start).count();
  s.cpu_us = micros(after.ru_utime) + micros(after.ru_stime) - micros(before.ru_utime) -
             micros(before.ru_stime);
  s.page_faults = (after.ru_minflt + after.ru_majflt) - (before.ru_minflt + before.ru_majflt);
  return s;
}

// The middle value (the upper of the two middle ones for an even count); 0 for none.
[[nodiscard]] std::int64_t median(std::vector<std::int64_t> values);

// The process's peak resident set so far, in KiB.
[[nodiscard]] std::int64_t peak_rss_kib();

// `memkit bench ...` as given, for the report and the JSON: options in name order, quoted for a
// shell where needed.
[[nodiscard]] std::string bench_command_line(const CommandRequest& inv);

// The machine this runs on: /proc/cpuinfo's model name, the CPUs online, the memory, uname, and
// the compiler and build type memkit was built with.
[[nodiscard]] bench::Machine this_machine();

// A child process's end, as wait4 saw it.
struct ProcessRun {
  std::int64_t wall_us = 0;
  std::int64_t cpu_us = 0;
  std::int64_t peak_rss_kib = 0;
  std::int64_t page_faults = 0;
  bool timed_out = false;
  int exit_status = 0;  // the exit code; 128 + the signal when a signal ended it
  std::string stderr_tail;  // the last bytes it wrote to standard error, when it failed
};

// Runs `argv` (argv[0] a path) in a process group of its own, standard input and output on
// /dev/null, standard error into `stderr_file`, in `cwd`; kills the group past `timeout_ms`.
// Fails only when the process cannot be started.
[[nodiscard]] Result<ProcessRun> run_process(const std::vector<std::string>& argv,
                                             const std::string& cwd,
                                             const std::string& stderr_file,
                                             std::int64_t timeout_ms);

// Starts the bench's whole processes from a small process of its own, forked before the bench
// grows. Linux counts the high-water mark of the memory a process replaces at exec into its peak
// RSS (wait4's ru_maxrss), so a child started from the bench itself would report at least the
// bench's peak. A child started through the launcher reports at least the launcher's, which is
// memkit's size at start-up (floor_kib()).
class Launcher final {
 public:
  [[nodiscard]] static Result<Launcher> start();
  Launcher(Launcher&& other) noexcept
      : pid_(std::exchange(other.pid_, -1)),
        to_(std::exchange(other.to_, -1)),
        from_(std::exchange(other.from_, -1)),
        floor_kib_(other.floor_kib_) {}
  Launcher& operator=(Launcher&&) = delete;
  Launcher(const Launcher&) = delete;
  Launcher& operator=(const Launcher&) = delete;
  ~Launcher();
  // run_process(), in the launcher.
  [[nodiscard]] Result<ProcessRun> run(const std::vector<std::string>& argv,
                                       const std::string& cwd, const std::string& stderr_file,
                                       std::int64_t timeout_ms) const;
  // The least peak RSS a child can report: the launcher's own when it started.
  [[nodiscard]] std::int64_t floor_kib() const noexcept { return floor_kib_; }

 private:
  Launcher(int pid, int to, int from, std::int64_t floor_kib)
      : pid_(pid), to_(to), from_(from), floor_kib_(floor_kib) {}
  int pid_;
  int to_;    // requests
  int from_;  // answers
  std::int64_t floor_kib_;
};

}  // namespace memkit::commands_detail
