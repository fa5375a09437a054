#include "memkit/version.hpp"

namespace memkit {

std::string_view version() noexcept { return MEMKIT_VERSION_STRING; }

}  // namespace memkit
