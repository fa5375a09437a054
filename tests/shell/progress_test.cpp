// The progress board (files/progress, issue 31): one stage at a time; a stage opened inside
// another (an apply inside a sync) gives the outer one its place back, count and clock included,
// when it closes; the file system's writes count only toward a write stage.
#include <doctest/doctest.h>

#include "files/progress.hpp"

namespace progress = memkit::progress;

TEST_CASE("progress: a stage inside another gives the outer one back when it closes") {
  REQUIRE_FALSE(progress::read().active);
  {
    const progress::Stage outer("memorybox sync push", 0, progress::Unit::items);
    progress::advance(3);
    {
      const progress::Stage inner("writing memorybox sync push", 100, progress::Unit::bytes,
                                  progress::Counts::written);
      progress::written(40);
      const progress::Reading reading = progress::read();
      CHECK(reading.what == "writing memorybox sync push");
      CHECK(reading.done == 40);
      CHECK(reading.total == 100);
    }
    const progress::Reading reading = progress::read();
    CHECK(reading.active);
    CHECK(reading.what == "memorybox sync push");
    CHECK(reading.done == 3);
    CHECK(reading.unit == progress::Unit::items);
    // The outer stage counts no writes of the file system.
    progress::written(1000);
    CHECK(progress::read().done == 3);
  }
  CHECK_FALSE(progress::read().active);
}
