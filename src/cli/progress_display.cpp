// The progress line on a terminal's stderr (issue 31).
#include "cli/progress_display.hpp"

#include <fmt/format.h>

#include <chrono>

namespace memkit::cli {
namespace {

constexpr auto kShowAfter = std::chrono::seconds(1);
constexpr auto kRedraw = std::chrono::milliseconds(200);

std::string amount(std::uint64_t n, progress::Unit unit) {
  if (unit == progress::Unit::items) return fmt::format("{}", n);
  return fmt::format("{:.1f} MB", static_cast<double>(n) / 1e6);
}

}  // namespace

std::string progress_line(const progress::Reading& reading) {
  const double seconds = std::chrono::duration<double>(reading.elapsed).count();
  if (reading.total == 0 && reading.done == 0) {
    return fmt::format("memkit: {} ({:.0f} s)", reading.what, seconds);
  }
  std::string line = "memkit: " + reading.what + ": ";
  const std::uint64_t done =
      reading.total != 0 && reading.done > reading.total ? reading.total : reading.done;
  if (reading.total != 0) {
    line += reading.unit == progress::Unit::items
                ? fmt::format("{} of {}", done, reading.total)
                : fmt::format("{:.1f} of {}", static_cast<double>(done) / 1e6,
                              amount(reading.total, reading.unit));
  } else {
    line += amount(done, reading.unit);
  }
  if (seconds > 0 && done > 0) {
    line += reading.unit == progress::Unit::items
                ? fmt::format(", {:.0f}/s", static_cast<double>(done) / seconds)
                : fmt::format(", {:.1f} MB/s", static_cast<double>(done) / 1e6 / seconds);
  }
  line += fmt::format(" ({:.0f} s)", seconds);
  return line;
}

ProgressDisplay::ProgressDisplay(std::ostream& err, bool enabled) : err_(err) {
  if (enabled) thread_ = std::thread([this] { run(); });
}

ProgressDisplay::~ProgressDisplay() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> held(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void ProgressDisplay::run() {
  std::unique_lock<std::mutex> held(mutex_);
  while (!wake_.wait_for(held, kRedraw, [this] { return stop_; })) {
    const progress::Reading reading = progress::read();
    if (reading.active && reading.elapsed >= kShowAfter) {
      err_ << '\r' << progress_line(reading) << "\x1b[K" << std::flush;
      shown_ = true;
    } else if (shown_) {
      err_ << "\r\x1b[K" << std::flush;  // the stage ended: the line goes with it
      shown_ = false;
    }
  }
  if (shown_) err_ << "\r\x1b[K" << std::flush;
}

}  // namespace memkit::cli
