// run_both: both tasks run, and a failure in either reaches the caller once both are done.
// Background: a task on its own thread, joined later, its failure carried to join().
#include "parallel/run_both.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
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

using memkit::detail::Background;

TEST_CASE("parallel: a Background task runs while the caller goes on, and join waits for it") {
  std::atomic<bool> go = false;
  std::atomic<bool> done = false;
  std::thread::id ran_on;
  Background task([&] {
    ran_on = std::this_thread::get_id();
    while (!go) std::this_thread::yield();  // only the caller, going on, lets it finish
    done = true;
  });
  CHECK_FALSE(done);
  go = true;
  task.join();
  CHECK(done);
  CHECK(ran_on != std::this_thread::get_id());
  task.join();  // a second join does nothing
}

TEST_CASE("parallel: a Background task's exception reaches join, once") {
  Background task([] { throw std::runtime_error("background"); });
  CHECK_THROWS_WITH_AS(task.join(), "background", std::runtime_error);
  CHECK_NOTHROW(task.join());
}

TEST_CASE("parallel: a Background left unjoined is waited for, its exception dropped") {
  std::atomic<bool> done = false;
  {
    Background task([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done = true;
      throw std::runtime_error("dropped");
    });
  }
  CHECK(done);
}
