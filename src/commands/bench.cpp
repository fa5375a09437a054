// `memkit bench compaction` (issue 32; docs/benchmarks.md): inbox compaction timed phase by phase
// on the user's own inbox grown to each size (memkit/bench.hpp), in a scratch folder removed at the
// end. The CLI's alone (the table's "cli" workspace).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "commands/bench_example.hpp"
#include "commands/bench_support.hpp"
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

constexpr std::array<std::string_view, 6> kPhases = {"read",   "plan",  "hash",
                                                     "report", "apply", "read-back"};

// What one run of the bench needs: where, on what, when, and how.
struct BenchRun {
  FileSystem& fs;
  const Scratch& scratch;
  const CustodianInputs& inputs;
  ClockReading now;
  std::uint64_t runs = 0;
  std::string executable;  // this memkit, for the whole-process runs
  const Launcher& launcher;
  std::optional<std::string> vs;  // --vs, as given
  std::int64_t vs_timeout_ms = 0;
};

struct SizeResult {
  std::uint64_t requested = 0;
  bench::GrownInbox inbox;
  std::optional<std::string> plan_id;
  std::array<std::vector<Sample>, kPhases.size()> samples;
  std::int64_t peak_rss_kib = 0;
  std::vector<ProcessRun> dry_runs;
  std::vector<ProcessRun> applies;
  std::optional<bench::ComparisonFigures> vs;
};

// A fresh copy of the memory with the grown inbox, as the project `name` below the scratch folder.
Result<std::string> fresh_copy(const BenchRun& bench, const std::string& inbox,
                               const std::string& name) {
  const std::string project = join(bench.scratch.path(), name);
  if (Status made = make_folders(bench.fs, bench.scratch.path(),
                                 name + "/" + bench.inputs.memory_dir);
      !made.ok()) {
    return made;
  }
  if (Status w = write_memory(bench.fs, join(project, bench.inputs.memory_dir), bench.inputs, inbox);
      !w.ok()) {
    return w;
  }
  return project;
}

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
  // What the apply wrote, read back as the next command would read it.
  Result<CustodianInputs> after = Status(Errc::internal, "not read");
  samples[5] = measure([&] { after = ws->read_custodian_inputs(); });
  if (!after) return after.status();
  return id;
}

// `memkit custodian compact` on `project` as a process of its own: the dry run, or with `plan_id`
// the apply. Fails when it does not end with status 0.
Result<ProcessRun> compact_process(const BenchRun& bench, const std::string& project,
                                   const std::optional<std::string>& plan_id) {
  std::vector<std::string> argv = {bench.executable, "custodian",    "compact",
                                   "--project-root", project,       "--memory-dir",
                                   bench.inputs.memory_dir,  "--now", bench.now.local_rfc3339(),
                                   "--format",       "json"};
  if (plan_id) {
    argv.insert(argv.end(), {"--apply", "--confirm-plan", *plan_id});
  }
  Result<ProcessRun> run = bench.launcher.run(argv, bench.scratch.path(),
                                       join(bench.scratch.path(), "stderr"), 3'600'000);
  if (!run) return run.status();
  if (run->timed_out || run->exit_status != 0) {
    return Status(Errc::internal,
                  fmt::format("memkit custodian compact{} on {}: ended with status {}: {}",
                              plan_id ? " --apply" : "", project, run->exit_status,
                              run->stderr_tail));
  }
  return run;
}

// The --vs command with every {dir} replaced by `project`, quoted for /bin/sh.
std::string vs_command_for(const std::string& command, const std::string& project) {
  std::string quoted = "'";
  for (const char c : project) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = command.find("{dir}"); at != std::string::npos;
       at = command.find("{dir}", from)) {
    out.append(command, from, at - from);
    out += quoted;
    from = at + 5;
  }
  return out + command.substr(from);
}

// `--vs`: memkit's dry-run process and the command, each on a fresh copy, in pairs after an
// untimed one, memkit first in even pairs. A failed or hung command ends the pairs with why.
Result<bench::ComparisonFigures> compare(const BenchRun& bench, const SizeResult& size) {
  bench::ComparisonFigures out;
  for (std::uint64_t pair = 0; pair <= bench.runs; ++pair) {
    Result<std::string> ours = fresh_copy(bench, size.inbox.bytes, fmt::format("vs-memkit-{}", pair));
    if (!ours) return ours.status();
    Result<std::string> theirs =
        fresh_copy(bench, size.inbox.bytes, fmt::format("vs-other-{}", pair));
    if (!theirs) return theirs.status();
    const std::vector<std::string> argv = {"/bin/sh", "-c", vs_command_for(*bench.vs, *theirs)};
    const std::string stderr_file = join(bench.scratch.path(), "vs-stderr");
    Result<ProcessRun> memkit_run = Status(Errc::internal, "not run");
    Result<ProcessRun> other_run = Status(Errc::internal, "not run");
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (pair % 2 == 0)) {
        memkit_run = compact_process(bench, *ours, std::nullopt);
        if (!memkit_run) return memkit_run.status();
      } else {
        other_run = bench.launcher.run(argv, bench.scratch.path(), stderr_file,
                                       bench.vs_timeout_ms);
        if (!other_run) return other_run.status();
      }
    }
    if (other_run->timed_out) {
      out.failure = fmt::format("ran past its time limit of {} s and was stopped",
                                bench.vs_timeout_ms / 1000);
    } else if (other_run->exit_status != 0) {
      out.failure = fmt::format("ended with status {}{}{}", other_run->exit_status,
                                other_run->stderr_tail.empty() ? "" : ": ",
                                other_run->stderr_tail);
    }
    if (out.failure) return out;
    if (pair > 0) {
      out.pairs.push_back({memkit_run->wall_us, other_run->wall_us, other_run->peak_rss_kib});
    }
    for (const std::string& project : {*ours, *theirs}) {
      if (Status removed = remove_tree(bench.fs, project); !removed.ok()) return removed;
    }
  }
  return out;
}

Result<SizeResult> run_size(const BenchRun& bench, std::string_view inbox, std::uint64_t size,
                            bool compare_too) {
  SizeResult result;
  result.requested = size;
  Result<bench::GrownInbox> grown = bench::grow_inbox(inbox, size);
  if (!grown) return grown.status();
  result.inbox = std::move(grown).value();
  for (std::uint64_t run = 0; run <= bench.runs; ++run) {  // run 0 is the untimed one
    Result<std::string> project =
        fresh_copy(bench, result.inbox.bytes, fmt::format("{}-{}", size, run));
    if (!project) return project.status();
    std::array<Sample, kPhases.size()> samples{};
    Result<std::optional<std::string>> id =
        run_once(bench.fs, *project, bench.inputs.memory_dir, bench.now, samples);
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
    if (Status removed = remove_tree(bench.fs, *project); !removed.ok()) return removed;
  }
  result.peak_rss_kib = peak_rss_kib();
  // The same, as the CLI runs it: a process for the dry run, another for the apply.
  for (std::uint64_t run = 0; run <= bench.runs; ++run) {
    Result<std::string> project =
        fresh_copy(bench, result.inbox.bytes, fmt::format("{}-process-{}", size, run));
    if (!project) return project.status();
    Result<ProcessRun> dry = compact_process(bench, *project, std::nullopt);
    if (!dry) return dry.status();
    Result<ProcessRun> apply = ProcessRun{};
    if (result.plan_id) apply = compact_process(bench, *project, result.plan_id);
    if (!apply) return apply.status();
    if (run > 0) {
      result.dry_runs.push_back(*dry);
      if (result.plan_id) result.applies.push_back(*apply);
    }
    if (Status removed = remove_tree(bench.fs, *project); !removed.ok()) return removed;
  }
  if (compare_too) {
    Result<bench::ComparisonFigures> vs = compare(bench, result);
    if (!vs) return vs.status();
    result.vs = std::move(vs).value();
  }
  return result;
}

bench::ProcessFigures process_figures(std::string step, const std::vector<ProcessRun>& runs) {
  std::vector<std::int64_t> wall;
  std::vector<std::int64_t> cpu;
  std::vector<std::int64_t> rss;
  std::vector<std::int64_t> faults;
  for (const ProcessRun& r : runs) {
    wall.push_back(r.wall_us);
    cpu.push_back(r.cpu_us);
    rss.push_back(r.peak_rss_kib);
    faults.push_back(r.page_faults);
  }
  bench::ProcessFigures f;
  f.step = std::move(step);
  f.wall_median_us = median(wall);
  f.wall_min_us = *std::min_element(wall.begin(), wall.end());
  f.wall_max_us = *std::max_element(wall.begin(), wall.end());
  f.cpu_median_us = median(cpu);
  f.peak_rss_median_kib = median(rss);
  f.page_faults_median = median(faults);
  return f;
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
  if (!r.dry_runs.empty()) f.processes.push_back(process_figures("dry run", r.dry_runs));
  if (!r.applies.empty()) f.processes.push_back(process_figures("apply", r.applies));
  f.vs = r.vs;
  return f;
}

std::string ms(std::int64_t us) { return fmt::format("{:.2f}", static_cast<double>(us) / 1000); }

std::string size_text(const bench::SizeFigures& f) {
  std::string out =
      fmt::format("{} bytes ({} items, {} copies of the inbox after it): Plan ID {}, peak RSS "
                  "{} MiB in-process\n",
                  f.bytes, f.items, f.rounds, f.plan_id.value_or("none (nothing to remove)"),
                  f.peak_rss_kib / 1024);
  std::vector<std::vector<std::string>> rows = {
      {"PHASE", "MEDIAN ms", "MIN ms", "MAX ms", "CPU ms", "PAGE FAULTS", "MB/s", "PEAK MiB"}};
  for (const bench::PhaseFigures& p : f.phases) {
    rows.push_back({p.phase, ms(p.wall_median_us), ms(p.wall_min_us), ms(p.wall_max_us),
                    ms(p.cpu_median_us), std::to_string(p.page_faults_median),
                    fmt::format("{:.1f}", static_cast<double>(p.bytes_per_second) / 1e6), ""});
  }
  for (const bench::ProcessFigures& p : f.processes) {
    rows.push_back({"process: " + p.step, ms(p.wall_median_us), ms(p.wall_min_us),
                    ms(p.wall_max_us), ms(p.cpu_median_us), std::to_string(p.page_faults_median),
                    "", fmt::format("{:.1f}", static_cast<double>(p.peak_rss_median_kib) / 1024)});
  }
  out += view::table_text(rows, view::Style{});
  if (f.vs) {
    out += fmt::format("--vs: {} pair(s)", f.vs->pairs.size());
    if (!f.vs->pairs.empty()) {
      out += fmt::format(", the command took {:.2f} times memkit's dry run (median); pairs:",
                         bench::median_ratio(*f.vs));
      for (const bench::PairFigures& pair : f.vs->pairs) {
        out += fmt::format(" {} ms / {} ms", ms(pair.other_us), ms(pair.memkit_us));
      }
    }
    if (f.vs->failure) out += "; the command " + *f.vs->failure;
    out += "\n";
  }
  return out + "\n";
}

// Where `memkit` itself is, for the whole-process runs.
Result<std::string> this_executable() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<std::size_t>(n) >= path.size()) {
    return Status(Errc::io, "/proc/self/exe: cannot tell where memkit is");
  }
  path.resize(static_cast<std::size_t>(n));
  return path;
}

// The bundled example's memory folder, written below the scratch folder as example/docs/memory.
Result<WorkspaceOptions> write_example(FileSystem& fs, const Scratch& scratch) {
  WorkspaceOptions options;
  options.project_root = join(scratch.path(), "example");
  options.memory_dir = "docs/memory";
  for (const BenchExampleFile& file : bench_example()) {
    const std::string path = std::string(file.path);
    const std::size_t slash = path.rfind('/');
    const std::string folder =
        "example/docs/memory" + (slash == std::string::npos ? "" : "/" + path.substr(0, slash));
    if (Status made = make_folders(fs, scratch.path(), folder); !made.ok()) return made;
    if (Status w = write_file_atomically(
            fs, join(join(options.project_root, options.memory_dir), path), file.bytes, false);
        !w.ok()) {
      return w;
    }
  }
  return options;
}

}  // namespace

void run_bench(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  if (inv.command == "recall") {
    run_bench_recall(inv, env, reply);
    return;
  }
  const auto refuse = [&](Status status) { reply.findings.push_back(finding_from(status)); };
  const std::optional<ClockReading> now = start_command(inv, env, reply, false);
  if (!now) return;
  const Result<std::vector<std::uint64_t>> sizes =
      parse_sizes(option(inv, "--sizes").value_or("1M,10M"));
  if (!sizes) return refuse(sizes.status());
  const Result<std::uint64_t> runs = count_option(inv, "--runs", 3);
  if (!runs || *runs == 0 || *runs > kMaxRuns) {
    return refuse(runs ? Status(Errc::invalid_argument,
                                fmt::format("--runs: expected 1 to {}, got {}", kMaxRuns, *runs))
                       : runs.status());
  }
  const std::optional<std::string> vs = option(inv, "--vs");
  if (vs && vs->find("{dir}") == std::string::npos) {
    return refuse(Status(Errc::invalid_argument,
                         "--vs: the command must name {dir}, the copy's project root, as in "
                         "'peer compact --project-root {dir}'"));
  }
  const Result<std::uint64_t> vs_timeout = count_option(inv, "--vs-timeout", 600);
  if (!vs_timeout || *vs_timeout == 0 || *vs_timeout > 86'400) {
    return refuse(vs_timeout ? Status(Errc::invalid_argument,
                                      fmt::format("--vs-timeout: expected 1 to 86400 seconds, "
                                                  "got {}",
                                                  *vs_timeout))
                             : vs_timeout.status());
  }
  FileSystem& fs = posix_file_system();
  const std::optional<std::string> report_path = option(inv, "--report");
  if (report_path) {
    if (Status writable = check_report_path(fs, *report_path); !writable.ok()) {
      return refuse(writable);
    }
  }
  const Result<std::string> executable = this_executable();
  if (!executable) return refuse(executable.status());
  // A size needs its grown inbox in memory and, on disk, the copy, the journal's and the undo
  // record's (and with --vs two more copies): checked before anything is written.
  const std::string parent = scratch_parent(env.temporary_directory);
  if (const std::optional<std::uint64_t> free = free_bytes(parent)) {
    const std::uint64_t need = sizes->back() * (vs ? 6 : 4);
    if (need > *free) {
      return refuse(Status(
          Errc::invalid_argument,
          fmt::format("--sizes: {} bytes need about {} MiB in {}, which has {} MiB free",
                      sizes->back(), need >> 20, parent, *free >> 20)));
    }
  }
  // Before the bench grows (Launcher says why).
  Result<Launcher> launcher = Launcher::start();
  if (!launcher) return refuse(launcher.status());
  Result<Scratch> scratch = Scratch::make(fs, parent);
  if (!scratch) return refuse(scratch.status());
  // The memory measured: the one named, else the current directory's, else the bundled example.
  WorkspaceOptions options;
  const std::optional<std::string> root = option(inv, "--project-root");
  const std::optional<std::string> memory_dir = option(inv, "--memory-dir");
  if (root) options.project_root = *root;
  if (memory_dir) options.memory_dir = *memory_dir;
  bool example = false;
  if (!root && !memory_dir) {
    const Result<NodeType> inbox = fs.node_type(join(join(".", "docs/memory"), "inbox.md"));
    if (!inbox || *inbox != NodeType::file) {
      Result<WorkspaceOptions> written = write_example(fs, *scratch);
      if (!written) return refuse(written.status());
      options = std::move(written).value();
      example = true;
    }
  }
  Result<Workspace> ws = Workspace::open(fs, custodian_layout(), options);
  if (!ws) return refuse(ws.status());
  Result<CustodianInputs> inputs = ws->read_custodian_inputs();
  if (!inputs) return refuse(inputs.status());
  const FileSnapshot* inbox = inputs->snapshot.find("inbox.md");
  if (inbox == nullptr || inbox->state != EntryState::file || !inbox->bytes) {
    return refuse(Status(Errc::layout, join(options.project_root.empty() ? "." : options.project_root,
                                            inputs->memory_dir) +
                                           "/inbox.md: no inbox to grow; bench compaction "
                                           "measures a custodian memory folder's inbox"));
  }
  const BenchRun bench{fs,
                       *scratch,
                       *inputs,
                       *now,
                       *runs,
                       *executable,
                       *launcher,
                       vs,
                       static_cast<std::int64_t>(*vs_timeout) * 1000};
  bench::CompactionFigures figures;
  figures.command = bench_command_line(inv);
  figures.input = example ? std::string("the bundled example (examples/project/docs/memory)")
                          : join(options.project_root.empty() ? "." : options.project_root,
                                 inputs->memory_dir);
  figures.vs_command = vs;
  figures.machine = this_machine();
  figures.runs = *runs;
  std::optional<std::string> vs_failure;
  for (const std::uint64_t size : *sizes) {
    Result<SizeResult> done = run_size(bench, *inbox->bytes, size, vs && !vs_failure);
    if (!done) return refuse(done.status());
    figures.sizes.push_back(figures_of(*done));
    if (done->vs && done->vs->failure) {
      vs_failure = fmt::format("--vs: the command {} at {} bytes; memkit's own figures stand",
                               *done->vs->failure, done->inbox.bytes.size());
    }
  }
  if (vs_failure) refuse(Status(Errc::invalid_argument, *vs_failure));
  // The text names the report only once it is written; a failed write is a finding instead.
  bool written = false;
  if (report_path) {
    if (Status w = write_file_atomically(fs, *report_path, bench::compaction_report_html(figures),
                                         false);
        !w.ok()) {
      refuse(w);
    } else {
      written = true;
    }
  }
  std::string text = fmt::format(
      "inbox compaction on {}, {} timed run(s) after an untimed one\n"
      "machine: {}, {} CPUs, {} MiB; {}; memkit {} ({}, {})\n\n",
      figures.input, *runs, figures.machine.cpu, figures.machine.cores,
      figures.machine.memory_bytes >> 20, figures.machine.kernel, figures.machine.memkit_version,
      figures.machine.compiler, figures.machine.build_type);
  for (const bench::SizeFigures& f : figures.sizes) text += size_text(f);
  if (written) text += "report: " + shown_text(*report_path) + "\n";
  reply.data = fixed(bench_compaction_json(figures));
  if (inv.format == OutputFormat::text) reply.text = fixed(std::move(text));
}

}  // namespace memkit::commands_detail
