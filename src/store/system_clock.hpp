// The one read of the system clock (shell): the CLI's main() and the C ABI's MK_CLOCK_SYSTEM.
// The core never reads a clock; it is handed a ClockReading. Likewise the one read of the system's
// random source, for a new sync workspace id (memorybox.md §9).
#pragma once

#include <array>
#include <cstdint>

#include "memkit/clock.hpp"

namespace memkit {

// The system clock and the local zone's UTC offset at this instant.
[[nodiscard]] ClockReading read_system_clock();

// Ten bytes from the kernel's random source (getrandom(2)).
[[nodiscard]] std::array<std::uint8_t, 10> read_system_random();

}  // namespace memkit
