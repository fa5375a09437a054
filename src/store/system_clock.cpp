// The system clock and the local zone's offset at this instant: the one clock read in memkit.
#include "memkit/system_clock.hpp"

#include <time.h>

#include <chrono>

namespace memkit {

ClockReading read_system_clock() {
  const auto now = std::chrono::system_clock::now();
  const std::int64_t millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const time_t seconds = static_cast<time_t>(millis / 1000);
  struct tm local {};
  localtime_r(&seconds, &local);
  const auto offset_minutes = static_cast<std::int32_t>(local.tm_gmtoff / 60);
  return *ClockReading::create(millis, offset_minutes);
}

}  // namespace memkit
