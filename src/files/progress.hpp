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
#include <utility>

namespace memkit::progress {

enum class Unit : std::uint8_t { bytes, items };

// What counts toward a stage: what its owner reports (advance), or also every byte the file
// system writes (written), for a stage that is a write.
enum class Counts : std::uint8_t { reported, written };

// Opens a stage, replacing any other: `what` ("writing the plan"), `total` (0: unknown).
void begin(std::string_view what, std::uint64_t total, Unit unit, Counts counts = Counts::reported);
// Adds `amount` to the open stage's count; nothing when none is open.
void advance(std::uint64_t amount) noexcept;
// What the POSIX file system calls for every byte it writes: counted by a Counts::written stage.
void written(std::uint64_t amount) noexcept;
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

// The board as it stands, to be put back (a stage opened inside another, such as an apply
// inside a sync, gives the outer one its place back when it closes).
struct Saved {
  bool active = false;
  std::string what;
  std::uint64_t total = 0;
  Unit unit = Unit::bytes;
  Counts counts = Counts::reported;
  std::uint64_t done = 0;
  std::chrono::steady_clock::time_point started{};
};
[[nodiscard]] Saved save();
void restore(Saved saved);

// Opens a stage for its scope; when it closes, the stage it replaced is open again (or none).
class Stage final {
 public:
  Stage(std::string_view what, std::uint64_t total, Unit unit, Counts counts = Counts::reported)
      : replaced_(save()) {
    begin(what, total, unit, counts);
  }
  ~Stage() { restore(std::move(replaced_)); }
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;

 private:
  Saved replaced_;
};

}  // namespace memkit::progress
