// The bloat limits (spec memorybox.md §7) that `status` reports against and `compact` enforces.
// Internal to src/memorybox.
#pragma once

#include <cstdint>

namespace memkit::memorybox::limits {

inline constexpr std::uint64_t kSessionLogLines = 200;
inline constexpr std::uint64_t kActiveTaskItems = 50;
inline constexpr std::uint64_t kEntryItems = 30;  // MISTAKES.md, PATTERNS.md
inline constexpr std::int64_t kDailyKeepDays = 30;

}  // namespace memkit::memorybox::limits
