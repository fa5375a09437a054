// The process's one stage of long work (issue 31).
#include "files/progress.hpp"

#include <atomic>
#include <mutex>

namespace memkit::progress {
namespace {

struct Board {
  std::mutex mutex;  // guards what, total, unit, started
  std::string what;
  std::uint64_t total = 0;
  Unit unit = Unit::bytes;
  std::chrono::steady_clock::time_point started{};
  std::atomic<bool> active{false};
  std::atomic<bool> writes{false};  // the file system's writes count
  std::atomic<std::uint64_t> done{0};
};

Board& board() {
  static Board instance;
  return instance;
}

}  // namespace

void begin(std::string_view what, std::uint64_t total, Unit unit, Counts counts) {
  Board& b = board();
  const std::lock_guard<std::mutex> held(b.mutex);
  b.what = std::string(what);
  b.total = total;
  b.unit = unit;
  b.started = std::chrono::steady_clock::now();
  b.done.store(0, std::memory_order_relaxed);
  b.writes.store(counts == Counts::written, std::memory_order_relaxed);
  b.active.store(true, std::memory_order_release);
}

void advance(std::uint64_t amount) noexcept {
  Board& b = board();
  if (b.active.load(std::memory_order_relaxed)) b.done.fetch_add(amount, std::memory_order_relaxed);
}

void written(std::uint64_t amount) noexcept {
  Board& b = board();
  if (b.writes.load(std::memory_order_relaxed)) advance(amount);
}

void end() noexcept { board().active.store(false, std::memory_order_release); }

Saved save() {
  Board& b = board();
  const std::lock_guard<std::mutex> held(b.mutex);
  return Saved{.active = b.active.load(std::memory_order_acquire),
               .what = b.what,
               .total = b.total,
               .unit = b.unit,
               .counts = b.writes.load(std::memory_order_relaxed) ? Counts::written
                                                                  : Counts::reported,
               .done = b.done.load(std::memory_order_relaxed),
               .started = b.started};
}

void restore(Saved saved) {
  Board& b = board();
  const std::lock_guard<std::mutex> held(b.mutex);
  b.what = std::move(saved.what);
  b.total = saved.total;
  b.unit = saved.unit;
  b.started = saved.started;
  b.done.store(saved.done, std::memory_order_relaxed);
  b.writes.store(saved.counts == Counts::written, std::memory_order_relaxed);
  b.active.store(saved.active, std::memory_order_release);
}

Reading read() {
  Board& b = board();
  Reading out;
  const std::lock_guard<std::mutex> held(b.mutex);
  out.active = b.active.load(std::memory_order_acquire);
  if (!out.active) return out;
  out.what = b.what;
  out.total = b.total;
  out.unit = b.unit;
  out.done = b.done.load(std::memory_order_relaxed);
  out.elapsed = std::chrono::steady_clock::now() - b.started;
  return out;
}

}  // namespace memkit::progress
