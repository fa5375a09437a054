// The library's version, from the one version source (capi/memkit.h, read by CMake).
#pragma once

#include <string_view>

namespace memkit {

[[nodiscard]] std::string_view version() noexcept;  // "0.1.0"

}  // namespace memkit
