// Conversions between memkit.h's C values and the library's C++ ones, shared by the capi/ files.
#pragma once

#include <string_view>

#include "memkit.h"
#include "memkit/clock.hpp"
#include "memkit/result.hpp"
#include "store/system_clock.hpp"

namespace memkit::capi {

// Copies bytes into a buffer mk_buf_dispose() releases. Records MK_E_NOMEM on failure.
[[nodiscard]] mk_status fill_buffer(mk_buf* out, std::string_view bytes);

// The reading an mk_clock stands for (MK_CLOCK_SYSTEM: the system clock now).
[[nodiscard]] Result<ClockReading> clock_of(const mk_clock* now);

}  // namespace memkit::capi
