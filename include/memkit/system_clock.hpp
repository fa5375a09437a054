// The one read of the system clock (shell): the CLI's main() and the C ABI's MK_CLOCK_SYSTEM.
// The core never reads a clock; it is handed a ClockReading.
#pragma once

#include "memkit/clock.hpp"

namespace memkit {

// The system clock and the local zone's UTC offset at this instant.
[[nodiscard]] ClockReading read_system_clock();

}  // namespace memkit
