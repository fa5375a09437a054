// `memkit bench compaction` (issue 32; docs/benchmarks.md): inbox compaction timed phase by phase
// on the user's own inbox grown to each size (memkit/bench.hpp), in a scratch folder removed at the
// end. The CLI's alone (the table's "cli" workspace).
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <random>

#include "commands/flow.hpp"
#include "files/state_directory.hpp"
#include "json/json.hpp"
#include "memkit/bench.hpp"
#include "memkit/compact.hpp"
#include "store/workspace.hpp"

namespace memkit::commands_detail {
namespace {

using detail::join;

// The largest inbox compaction plans (inbox_compaction.cpp refuses 4 GiB).
constexpr std::uint64_t kMaxSize = (std::uint64_t{4} << 30) - 1;
constexpr std::uint64_t kMaxRuns = 100;

// "1M,10M" as bytes: each a decimal number with an optional K, M or G (powers of 1024).
Result<std::vector<std::uint64_t>> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    std::string_view word(text.data() + from, comma - from);
    std::uint64_t unit = 1;
    if (!word.empty()) {
      const char last = word.back();
      if (last == 'K' || last == 'k') unit = std::uint64_t{1} << 10;
      if (last == 'M' || last == 'm') unit = std::uint64_t{1} << 20;
      if (last == 'G' || last == 'g') unit = std::uint64_t{1} << 30;
      if (unit != 1) word.remove_suffix(1);
    }
    std::uint64_t n = 0;
    bool digits = !word.empty() && word.size() <= 10;
    for (const char c : word) {
      digits = digits && c >= '0' && c <= '9';
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!digits || n == 0 || n * unit > kMaxSize) {
      return Status(Errc::invalid_argument,
                    fmt::format("--sizes: expected sizes such as 1M,10M (from 1 byte to 4G less one "
                                "byte), got '{}'",
                                text));
    }
    sizes.push_back(n * unit);
    from = comma + 1;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// A folder memkit made below the scratch root, removed with everything in it.
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

// The scratch folder: made new, removed when the run ends, whatever happened.
class Scratch final {
 public:
  static Result<Scratch> make(FileSystem& fs, const std::string& parent) {
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
  Scratch(Scratch&& other) noexcept : fs_(other.fs_), path_(std::exchange(other.path_, {})) {}
  Scratch& operator=(Scratch&&) = delete;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (!path_.empty()) (void)remove_tree(*fs_, path_);
  }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

 private:
  Scratch(FileSystem& fs, std::string path) : fs_(&fs), path_(std::move(path)) {}
  FileSystem* fs_;
  std::string path_;
};

// Writes every file of `inputs` (memory-relative), with the inbox's bytes replaced, below
// `memory` (made, with its parents, as needed).
Status write_memory(FileSystem& fs, const std::string& memory, const CustodianInputs& inputs,
                    const std::string& inbox) {
  for (const FileSnapshot& file : inputs.snapshot.files()) {
    if (file.state != EntryState::file || !file.bytes) continue;
    std::string dir = memory;
    std::size_t from = 0;
    for (std::size_t slash = file.path.find('/'); slash != std::string::npos;
         slash = file.path.find('/', from)) {
      dir = join(dir, file.path.substr(from, slash - from));
      if (Status made = fs.create_directory(dir); !made.ok()) return made;
      from = slash + 1;
    }
    const std::string_view bytes = file.path == "inbox.md" ? inbox : std::string_view(*file.bytes);
    if (Status w = write_file_atomically(fs, join(memory, file.path), bytes, false); !w.ok()) {
      return w;
    }
  }
  return Status();
}

// Makes `path` and every missing folder above it, below `root`.
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

struct Sample {
  std::int64_t wall_us = 0;
  std::int64_t cpu_us = 0;  // user and system, every thread of the process
  std::int64_t page_faults = 0;
};

std::int64_t micros(const timeval& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000 + static_cast<std::int64_t>(t.tv_usec);
}

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

std::int64_t median(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

constexpr std::array<std::string_view, 5> kPhases = {"read", "plan", "hash", "report", "apply"};

struct SizeResult {
  std::uint64_t requested = 0;
  bench::GrownInbox inbox;
  std::optional<std::string> plan_id;
  std::array<std::vector<Sample>, kPhases.size()> samples;
  std::int64_t peak_rss_kib = 0;
};

// One run on a fresh copy: every phase measured, the Plan ID returned (nullopt: nothing to plan).
Result<std::optional<std::string>> run_once(FileSystem& fs, const std::string& project,
                                            const std::string& memory_dir,
                                            const ClockReading& now,
                                            std::array<Sample, kPhases.size()>& samples) {
  WorkspaceOptions options;
  options.project_root = project;
  options.memory_dir = memory_dir;
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), options);
  if (!ws) return ws.status();
  Result<CustodianInputs> inputs = Status(Errc::internal, "not read");
  samples[0] = measure([&] { inputs = ws->read_custodian_inputs(); });
  if (!inputs) return inputs.status();
  std::optional<InboxCompaction> report;
  samples[1] =
      measure([&] { report = plan_inbox_compaction(*inputs, default_token_counter(), now); });
  std::optional<std::string> id;
  samples[2] = measure([&] {
    if (report->plan) id = report->plan->id();
  });
  std::uint64_t written = 0;
  samples[3] = measure([&] {
    write_inbox_compaction_json(*report, false, {},
                                [&](std::string_view piece) { written += piece.size(); });
  });
  Status applied;
  samples[4] = measure([&] {
    if (!report->plan) return;
    Result<std::unique_ptr<LockHandle>> lock = ws->lock();
    if (!lock) {
      applied = lock.status();
      return;
    }
    applied = ws->apply(*report->plan, now).status();
  });
  if (!applied.ok()) return applied;
  return id;
}

Result<SizeResult> run_size(FileSystem& fs, const Scratch& scratch, const CustodianInputs& inputs,
                            std::string_view inbox, std::uint64_t size, std::uint64_t runs,
                            const ClockReading& now) {
  SizeResult result;
  result.requested = size;
  Result<bench::GrownInbox> grown = bench::grow_inbox(inbox, size);
  if (!grown) return grown.status();
  result.inbox = std::move(grown).value();
  for (std::uint64_t run = 0; run <= runs; ++run) {  // run 0 is the untimed one
    const std::string project = join(scratch.path(), fmt::format("{}-{}", size, run));
    if (Status made = make_folders(fs, scratch.path(),
                                   fmt::format("{}-{}/{}", size, run, inputs.memory_dir));
        !made.ok()) {
      return made;
    }
    if (Status w = write_memory(fs, join(project, inputs.memory_dir), inputs, result.inbox.bytes);
        !w.ok()) {
      return w;
    }
    std::array<Sample, kPhases.size()> samples{};
    Result<std::optional<std::string>> id = run_once(fs, project, inputs.memory_dir, now, samples);
    if (!id) return id.status();
    if (run == 0) {
      result.plan_id = *id;
    } else {
      if (*id != result.plan_id) {
        return Status(Errc::internal,
                      fmt::format("{} bytes: run {} planned {}, the first run {}: compaction is "
                                  "not deterministic here",
                                  result.inbox.bytes.size(), run, id->value_or("nothing"),
                                  result.plan_id.value_or("nothing")));
      }
      for (std::size_t p = 0; p < kPhases.size(); ++p) result.samples[p].push_back(samples[p]);
    }
    if (Status removed = remove_tree(fs, project); !removed.ok()) return removed;
  }
  rusage usage{};
  (void)::getrusage(RUSAGE_SELF, &usage);
  result.peak_rss_kib = usage.ru_maxrss;
  return result;
}

bench::SizeFigures figures_of(const SizeResult& r) {
  bench::SizeFigures f;
  f.size = r.requested;
  f.bytes = r.inbox.bytes.size();
  f.items = r.inbox.items;
  f.rounds = r.inbox.rounds;
  f.plan_id = r.plan_id;
  f.peak_rss_kib = r.peak_rss_kib;
  for (std::size_t p = 0; p < kPhases.size(); ++p) {
    std::vector<std::int64_t> wall;
    std::vector<std::int64_t> cpu;
    std::vector<std::int64_t> faults;
    for (const Sample& s : r.samples[p]) {
      wall.push_back(s.wall_us);
      cpu.push_back(s.cpu_us);
      faults.push_back(s.page_faults);
    }
    bench::PhaseFigures phase;
    phase.phase = std::string(kPhases[p]);
    phase.wall_median_us = median(wall);
    phase.wall_min_us = *std::min_element(wall.begin(), wall.end());
    phase.wall_max_us = *std::max_element(wall.begin(), wall.end());
    phase.cpu_median_us = median(cpu);
    phase.page_faults_median = median(faults);
    phase.bytes_per_second =
        phase.wall_median_us > 0
            ? static_cast<std::int64_t>(f.bytes * 1'000'000 /
                                        static_cast<std::uint64_t>(phase.wall_median_us))
            : 0;
    f.phases.push_back(std::move(phase));
  }
  return f;
}

std::string ms(std::int64_t us) { return fmt::format("{:.2f}", static_cast<double>(us) / 1000); }

std::string size_text(const bench::SizeFigures& f) {
  std::string out =
      fmt::format("{} bytes ({} items, {} copies of the inbox after it): Plan ID {}, peak RSS "
                  "{} MiB\n",
                  f.bytes, f.items, f.rounds, f.plan_id.value_or("none (nothing to remove)"),
                  f.peak_rss_kib / 1024);
  std::vector<std::vector<std::string>> rows = {
      {"PHASE", "MEDIAN ms", "MIN ms", "MAX ms", "CPU ms", "PAGE FAULTS", "MB/s"}};
  for (const bench::PhaseFigures& p : f.phases) {
    rows.push_back({p.phase, ms(p.wall_median_us), ms(p.wall_min_us), ms(p.wall_max_us),
                    ms(p.cpu_median_us), std::to_string(p.page_faults_median),
                    fmt::format("{:.1f}", static_cast<double>(p.bytes_per_second) / 1e6)});
  }
  return out + view::table_text(rows, view::Style{}) + "\n";
}

}  // namespace

void run_bench(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  const std::optional<ClockReading> now = start_command(inv, env, reply, false);
  if (!now) return;
  const Result<std::vector<std::uint64_t>> sizes =
      parse_sizes(option(inv, "--sizes").value_or("1M,10M"));
  if (!sizes) {
    reply.findings.push_back(finding_from(sizes.status()));
    return;
  }
  const Result<std::uint64_t> runs = count_option(inv, "--runs", 3);
  if (!runs || *runs == 0 || *runs > kMaxRuns) {
    reply.findings.push_back(finding_from(
        runs ? Status(Errc::invalid_argument,
                      fmt::format("--runs: expected 1 to {}, got {}", kMaxRuns, *runs))
             : runs.status()));
    return;
  }
  FileSystem& fs = posix_file_system();
  WorkspaceOptions options;
  if (const std::optional<std::string> root = option(inv, "--project-root")) {
    options.project_root = *root;
  }
  if (const std::optional<std::string> dir = option(inv, "--memory-dir")) options.memory_dir = *dir;
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), options);
  if (!ws) {
    reply.findings.push_back(finding_from(ws.status()));
    return;
  }
  Result<CustodianInputs> inputs = ws->read_custodian_inputs();
  if (!inputs) {
    reply.findings.push_back(finding_from(inputs.status()));
    return;
  }
  const FileSnapshot* inbox = inputs->snapshot.find("inbox.md");
  if (inbox == nullptr || inbox->state != EntryState::file || !inbox->bytes) {
    reply.findings.push_back(finding_from(Status(
        Errc::layout, inputs->memory_dir + "/inbox.md: no inbox to grow; bench compaction "
                                           "measures a custodian memory folder's inbox")));
    return;
  }
  // A size needs its grown inbox in memory and, on disk, the copy, the journal's and the undo
  // record's: four times its bytes, checked before anything is written.
  const std::string parent = env.temporary_directory.empty() ? "/tmp" : env.temporary_directory;
  struct statvfs space {};
  if (::statvfs(parent.c_str(), &space) == 0) {
    const std::uint64_t free = static_cast<std::uint64_t>(space.f_bavail) * space.f_frsize;
    if (sizes->back() * 4 > free) {
      reply.findings.push_back(finding_from(Status(
          Errc::invalid_argument,
          fmt::format("--sizes: {} bytes need about {} MiB in {}, which has {} MiB free",
                      sizes->back(), sizes->back() * 4 >> 20, parent, free >> 20))));
      return;
    }
  }
  Result<Scratch> scratch = Scratch::make(fs, parent);
  if (!scratch) {
    reply.findings.push_back(finding_from(scratch.status()));
    return;
  }
  std::vector<SizeResult> results;
  for (const std::uint64_t size : *sizes) {
    Result<SizeResult> done = run_size(fs, *scratch, *inputs, *inbox->bytes, size, *runs, *now);
    if (!done) {
      reply.findings.push_back(finding_from(done.status()));
      return;
    }
    results.push_back(std::move(done).value());
  }
  bench::CompactionFigures figures;
  figures.runs = *runs;
  std::string text =
      fmt::format("inbox compaction, {} timed run(s) after an untimed one\n\n", *runs);
  for (const SizeResult& r : results) {
    figures.sizes.push_back(figures_of(r));
    text += size_text(figures.sizes.back());
  }
  reply.data = fixed(bench_compaction_json(figures));
  if (inv.format == OutputFormat::text) reply.text = fixed(std::move(text));
}

}  // namespace memkit::commands_detail
