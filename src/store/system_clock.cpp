// The system clock and the local zone's offset at this instant: the one clock read in memkit.
#include "store/system_clock.hpp"

#include <sys/random.h>
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

std::array<std::uint8_t, 10> read_system_random() {
  std::array<std::uint8_t, 10> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n > 0) got += static_cast<std::size_t>(n);  // EINTR: try again
  }
  return bytes;
}

}  // namespace memkit
