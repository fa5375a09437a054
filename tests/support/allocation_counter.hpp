// Counts calls to the global operator new, for tests that hold code to "no allocation per line".
// A test program that uses it links memkit_allocation_counter, which replaces the allocator.
#pragma once

#include <cstddef>

namespace memkit::testing {

[[nodiscard]] std::size_t allocation_count() noexcept;

}  // namespace memkit::testing
