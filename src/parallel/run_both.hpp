// The one way the core uses a second core: two independent tasks, one on a new thread and one on
// the caller's, joined before returning. An exception from either (std::bad_alloc on a huge
// input) reaches the caller after the join instead of terminating the process.
#pragma once

#include <exception>
#include <thread>

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

}  // namespace memkit::detail
