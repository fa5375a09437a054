// The ways the core uses another core: two independent tasks, one on a new thread and one on the
// caller's, joined before returning (run_both); or a task started on its own thread and joined
// later (Background), for work that overlaps several steps of the caller. An exception from a
// task (std::bad_alloc on a huge input) reaches the caller after the join instead of terminating
// the process.
#pragma once

#include <exception>
#include <functional>
#include <thread>
#include <utility>

namespace memkit::detail {

template <class First, class Second>
void run_both(First&& first, Second&& second) {
  std::exception_ptr failed;
  std::thread other([&] {
    try {
      second();
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    first();
  } catch (...) {
    other.join();
    throw;
  }
  other.join();
  if (failed) std::rethrow_exception(failed);
}

// A task running on its own thread from construction until join(), which rethrows its exception.
// Destroyed unjoined (the caller stopped early), it waits for the task and drops any exception.
class Background final {
 public:
  explicit Background(std::function<void()> task)
      : thread_([this, task = std::move(task)] {
          try {
            task();
          } catch (...) {
            failed_ = std::current_exception();
          }
        }) {}
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  ~Background() {
    if (thread_.joinable()) thread_.join();
  }

  void join() {
    if (thread_.joinable()) thread_.join();
    if (std::exception_ptr failed = std::exchange(failed_, nullptr)) std::rethrow_exception(failed);
  }

 private:
  std::exception_ptr failed_;  // before thread_, which may set it as soon as it starts
  std::thread thread_;
};

}  // namespace memkit::detail
