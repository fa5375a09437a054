// Benchmark inputs made from a user's own memory (issue 32, `memkit bench`): the inbox grown to a
// size from its own items, so that the shapes of its items and the rate of its exact duplicates
// are the user's, not a generator's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/result.hpp"

namespace memkit::bench {

// SplitMix64 (Steele, Lea and Flood 2014): the same sequence on every machine and standard
// library, which <random>'s distributions do not promise, so generated stores and drawn queries
// are the same everywhere for a seed.
class SplitMix64 final {
 public:
  explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // A value below n (n > 0), and one in [lo, hi]; the modulo's bias does not matter here.
  std::uint64_t below(std::uint64_t n) noexcept { return next() % n; }
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) noexcept {
    return lo + next() % (hi - lo + 1);
  }

 private:
  std::uint64_t state_;
};

struct GrownInbox {
  std::string bytes;
  std::uint64_t items = 0;   // bullet units in `bytes`
  std::uint32_t rounds = 0;  // copies of the inbox's body after the inbox itself (the last may be partial)
};

// The inbox itself, then copies of its body (from its first H2 heading or bullet item to its end)
// until `target` bytes are reached, stopping after the item that reaches it. In copy r every
// bullet item's first line ends in " (rR)" (before its trailing white space), so no item of one
// copy is an exact duplicate of another copy's, while items that are duplicates of each other
// within the inbox stay so within each copy: whole copies keep the inbox's duplicate rate.
// Tombstone matches do not carry over (the suffix changes the text). An inbox already at or over
// `target` is returned as it is. Fails with Errc::parse when a fence or comment is left open, and
// Errc::invalid_argument when the inbox holds no bullet item.
[[nodiscard]] Result<GrownInbox> grow_inbox(std::string_view inbox, std::uint64_t target);

// What `memkit bench compaction` measured of one phase over its timed runs: wall time (median,
// min, max), CPU time of every thread and page faults (medians), and the inbox's bytes over the
// median wall time.
struct PhaseFigures {
  std::string phase;  // "read", "plan", "hash", "report", "apply"
  std::int64_t wall_median_us = 0;
  std::int64_t wall_min_us = 0;
  std::int64_t wall_max_us = 0;
  std::int64_t cpu_median_us = 0;
  std::int64_t page_faults_median = 0;
  std::int64_t bytes_per_second = 0;
};

// A whole CLI process timed from outside (wait4): `memkit custodian compact` on a fresh copy, a
// dry run ("dry run") or the apply of its plan ("apply"). Medians over the timed runs, with the
// wall time's min and max.
struct ProcessFigures {
  std::string step;  // "dry run", "apply"
  std::int64_t wall_median_us = 0;
  std::int64_t wall_min_us = 0;
  std::int64_t wall_max_us = 0;
  std::int64_t cpu_median_us = 0;  // user and system
  std::int64_t peak_rss_median_kib = 0;
  std::int64_t page_faults_median = 0;
};

// One pair of `--vs`: memkit's dry-run process and the other command, each on a fresh copy of the
// same memory, run one after the other (memkit first in even pairs, the other first in odd ones).
struct PairFigures {
  std::int64_t memkit_us = 0;
  std::int64_t other_us = 0;
  std::int64_t other_peak_rss_kib = 0;
};

// `--vs 'COMMAND {dir}'` at one size: the pairs that completed and, when the other command failed
// or ran past its time limit, why (its pairs stop there; memkit's own figures stand).
struct ComparisonFigures {
  std::vector<PairFigures> pairs;
  std::optional<std::string> failure;
};

// The median of other_us / memkit_us over the pairs (0 when there are none).
[[nodiscard]] double median_ratio(const ComparisonFigures& comparison);

// One size: the grown inbox, its Plan ID (the same in every run; none when nothing is removable),
// the bench process's peak RSS once the in-process runs were done, the in-process phases in order,
// the whole processes, and the comparison when `--vs` was given.
struct SizeFigures {
  std::uint64_t size = 0;  // as asked for
  std::uint64_t bytes = 0;
  std::uint64_t items = 0;
  std::uint32_t rounds = 0;
  std::optional<std::string> plan_id;
  std::int64_t peak_rss_kib = 0;
  std::vector<PhaseFigures> phases;
  std::vector<ProcessFigures> processes;
  std::optional<ComparisonFigures> vs;
};

// The machine the figures come from.
struct Machine {
  std::string cpu;  // /proc/cpuinfo's model name
  std::uint32_t cores = 0;  // logical CPUs online
  std::uint64_t memory_bytes = 0;
  std::string kernel;  // "Linux 6.1.0-18-amd64 x86_64"
  std::string compiler;  // "GCC 12.2.0"
  std::string build_type;  // "Release"
  std::string memkit_version;
};

struct CompactionFigures {
  std::string command;  // the command line as run, for the report
  std::string input;  // the memory folder measured, or "the bundled example"
  std::optional<std::string> vs_command;  // as given, with its {dir}
  Machine machine;
  std::uint64_t runs = 0;  // timed runs of each size, after one untimed run
  std::vector<SizeFigures> sizes;
};

// The report of `memkit bench compaction --report FILE.html`: one self-contained HTML page (inline
// SVG, no script, no network): time against size on log-log axes per phase, throughput per phase,
// peak memory against size, the comparison's ratios, the machine and the command.
[[nodiscard]] std::string compaction_report_html(const CompactionFigures& figures);

// ---- `memkit bench recall` (issue 32): a generated store, and the figures -----------------------

inline constexpr std::uint64_t kSyntheticStoreSeed = 0x7265636C6C2D3031ULL;  // "recll-01"
inline constexpr std::uint64_t kSyntheticEntriesPerFile = 1000;

// One file of a generated store: its path in the memory folder and its bytes.
struct SyntheticFile {
  std::string path;
  std::string bytes;
  std::uint64_t entries = 0;  // the bullet entries it holds
};

// A custodian memory folder of `entries` short entries, what `bench recall --synthetic` measures:
// brief.md, manifest.md, then notes-00000.md, notes-00001.md, ... (in path order), each a "# Notes"
// heading and kSyntheticEntriesPerFile bullets (the last file fewer), each bullet 12 to 20 words
// (about 90 bytes) drawn from a Zipf(1) distribution over 50,000 made-up words of letters only.
// A file's bytes depend only on `entries`, its index and the seed, and each is made alone, so a
// store far larger than memory is written a file at a time.
class SyntheticStore final {
 public:
  explicit SyntheticStore(std::uint64_t entries, std::uint64_t seed = kSyntheticStoreSeed);
  [[nodiscard]] std::uint64_t entries() const noexcept { return entries_; }
  [[nodiscard]] std::uint64_t files() const noexcept;
  // REQUIRES: index < files()
  [[nodiscard]] SyntheticFile file(std::uint64_t index) const;

 private:
  std::uint64_t entries_;
  std::uint64_t seed_;
  std::vector<double> cumulative_;  // the Zipf weights of the ranks, summed
};

// A step `bench recall` timed over its runs: wall time (median, min, max), and the CPU time of
// every thread and the page faults (medians).
struct RecallTiming {
  std::int64_t wall_median_us = 0;
  std::int64_t wall_min_us = 0;
  std::int64_t wall_max_us = 0;
  std::int64_t cpu_median_us = 0;
  std::int64_t page_faults_median = 0;
};

// The index brought up to date after one file changed: "grew" (an entry appended to it, the usual
// write) or "changed" (edited in place), with what the update did (the medians of its runs).
struct RecallUpdateFigures {
  std::string change;  // "grew", "changed"
  std::string file;    // the file changed, as a search shows its path
  RecallTiming time;
  std::uint64_t packs_kept = 0;
  std::uint64_t packs_built = 0;
  std::uint64_t files_read = 0;
};

// The shapes of the queries `bench recall` draws: one word, two or three ANDed, two or three ORed.
inline constexpr std::string_view kRecallOneWord = "one word";
inline constexpr std::string_view kRecallAllOf = "all of";
inline constexpr std::string_view kRecallAnyOf = "any of";

// One query of the timed pass: its text, its shape, its latency and the units it matches (counted
// outside the timed region).
struct RecallQueryTiming {
  std::string query;
  std::string shape;  // kRecallOneWord, kRecallAllOf, kRecallAnyOf
  std::int64_t ns = 0;
  std::uint64_t matches = 0;
};

// The latencies of the queries of one shape (nearest-rank percentiles).
struct RecallShapeFigures {
  std::string shape;
  std::uint64_t queries = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p90_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t max_ns = 0;
};

// Queries of one to three of the memory's own words (ANDed or ORed, drawn from a fixed seed), each
// parsed and answered (the best `limit` by BM25) with the index open, after an untimed pass over
// them all; and the cold path: the index opened from disk, brought up to date and one query
// answered with its hits' units, as a search command does (`cold_queries` of them).
struct RecallQueryFigures {
  std::uint64_t queries = 0;
  std::uint64_t limit = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p90_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t max_ns = 0;
  std::int64_t queries_per_second = 0;
  std::vector<RecallShapeFigures> shapes;  // the shapes drawn, in the order of kRecall* above
  std::vector<RecallQueryTiming> each;     // in the order they were asked
  std::uint64_t cold_queries = 0;
  RecallTiming cold;
};

struct RecallFigures {
  std::string command;  // the command line as run
  Machine machine;
  std::string input;  // the root measured, or "a generated store of N entries"
  std::optional<std::uint64_t> synthetic_entries;  // --synthetic
  std::uint64_t runs = 0;                          // timed runs of each step, after one untimed run
  std::uint64_t files = 0;                         // memory files indexed
  std::uint64_t units = 0;
  std::uint64_t memory_bytes = 0;
  std::uint64_t index_bytes = 0;  // .memkit/index/ on disk once built
  std::uint64_t packs = 0;
  std::int64_t peak_rss_kib = 0;            // the bench process's, at the end
  RecallTiming build;                       // from nothing: no .memkit/index/
  std::int64_t build_bytes_per_second = 0;  // memory_bytes over the build's median wall time
  std::uint64_t build_packs_built = 0;      // by the last build
  std::uint64_t build_files_read = 0;
  std::vector<RecallUpdateFigures> updates;
  RecallQueryFigures queries;
};

// The report of `memkit bench recall --report FILE.html`, a page like compaction_report_html's:
// what was measured, the steps, the latency of each query shape, each query's latency against its
// matches on log-log axes, the machine and the command.
[[nodiscard]] std::string recall_report_html(const RecallFigures& figures);

}  // namespace memkit::bench
