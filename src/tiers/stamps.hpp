// The local timestamps of tiers3.md §2 "Time", made from the injected clock. Internal to src/tiers.
#pragma once

#include <cstdint>
#include <string>

#include "memkit/clock.hpp"

namespace memkit::tiers {

enum class Stamp : std::uint8_t {
  date,       // YYYY-MM-DD: L1 file names and headers
  hour_file,  // YYYY-MM-DD_HH: L2 file names
  minutes,    // YYYY-MM-DD HH:MM: promotion headings
  seconds,    // YYYY-MM-DD HH:MM:SS: L1 and L2 headings
  iso,        // YYYY-MM-DDTHH:MM:SS: manifest times
  compact,    // YYYYMMDDTHHMMSS: global.md backup names
};

[[nodiscard]] std::string local_stamp(const ClockReading& now, Stamp stamp);

}  // namespace memkit::tiers
