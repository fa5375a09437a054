// The `memkit` program's progress line (issue 31): while a command runs, once its open stage of
// work (files/progress.hpp) has lasted a second, one line on stderr, redrawn in place five times a
// second: what is being done, how much of how much, and the rate. Only on a terminal, only with the
// text format, never with --quiet, NO_PROGRESS or MEMKIT_NO_PROGRESS; the line is wiped when the
// stage or the command ends, so the command's own output follows on a clean line.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "files/progress.hpp"

namespace memkit::cli {

// One line of the display: "memkit: writing custodian compact: 120.3 of 410.0 MB, 95.2 MB/s".
[[nodiscard]] std::string progress_line(const progress::Reading& reading);

class ProgressDisplay final {
 public:
  // Starts drawing on `err` when `enabled`; otherwise does nothing at all.
  ProgressDisplay(std::ostream& err, bool enabled);
  ~ProgressDisplay();  // stops, and wipes the line if one is shown
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

 private:
  void run();
  std::ostream& err_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool shown_ = false;
  std::thread thread_;
};

}  // namespace memkit::cli
