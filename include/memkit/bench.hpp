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

// One size: the grown inbox, its Plan ID (the same in every run; none when nothing is removable),
// the process's peak RSS once its runs were done, and its phases in order.
struct SizeFigures {
  std::uint64_t size = 0;  // as asked for
  std::uint64_t bytes = 0;
  std::uint64_t items = 0;
  std::uint32_t rounds = 0;
  std::optional<std::string> plan_id;
  std::int64_t peak_rss_kib = 0;
  std::vector<PhaseFigures> phases;
};

struct CompactionFigures {
  std::uint64_t runs = 0;  // timed runs of each size, after one untimed run
  std::vector<SizeFigures> sizes;
};

}  // namespace memkit::bench
