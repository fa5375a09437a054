// run_both: both tasks run, and a failure in either reaches the caller once both are done.
#include "parallel/run_both.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

using memkit::detail::run_both;

TEST_CASE("parallel: run_both runs the second task on another thread") {
  std::thread::id first;
  std::thread::id second;
  run_both([&] { first = std::this_thread::get_id(); },
           [&] { second = std::this_thread::get_id(); });
  CHECK(first == std::this_thread::get_id());
  CHECK(second != std::thread::id());
  CHECK(second != first);
}

TEST_CASE("parallel: an exception from either task is rethrown after both finished") {
  std::atomic<bool> other_done = false;
  CHECK_THROWS_WITH_AS(
      run_both([] { throw std::runtime_error("first"); }, [&] { other_done = true; }), "first",
      std::runtime_error);
  CHECK(other_done);
  bool first_done = false;
  CHECK_THROWS_WITH_AS(
      run_both([&] { first_done = true; }, [] { throw std::length_error("second"); }), "second",
      std::length_error);
  CHECK(first_done);
}
