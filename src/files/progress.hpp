// Long work told as it goes (issue 31): the one stage of work under way in this process (applying a
// plan, pushing a sync) with how much of it is done, in bytes or items, of how much. The shell
// reports into it (the POSIX file system counts the bytes it writes); a door that wants a display
// reads it (the `memkit` program draws one line on a terminal's stderr). Nothing is shown or kept
// unless a stage is open, and a report costs an atomic add.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace memkit::progress {

enum class Unit : std::uint8_t { bytes, items };

// Opens a stage, replacing any other: `what` ("applying the plan"), `total` (0: unknown).
void begin(std::string_view what, std::uint64_t total, Unit unit);
// Adds `amount` to the open stage's count; nothing when none is open.
void advance(std::uint64_t amount) noexcept;
// Closes the open stage.
void end() noexcept;

// What a display shows: the open stage, or active == false.
struct Reading {
  bool active = false;
  std::string what;
  std::uint64_t done = 0;
  std::uint64_t total = 0;
  Unit unit = Unit::bytes;
  std::chrono::steady_clock::duration elapsed{};
};
[[nodiscard]] Reading read();

// Opens a stage for its scope.
class Stage final {
 public:
  Stage(std::string_view what, std::uint64_t total, Unit unit) { begin(what, total, unit); }
  ~Stage() { end(); }
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;
};

}  // namespace memkit::progress
