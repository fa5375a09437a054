// The `memkit` command: argv in, report out. main() only supplies the environment.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "memkit/clock.hpp"

namespace memkit::cli {

struct Environment {
  std::optional<std::string> memkit_now;  // MEMKIT_NOW
  bool stdout_is_terminal = false;
  bool no_colour = false;                      // NO_COLOR is set
  std::function<ClockReading()> system_clock;  // the system clock and local zone
  std::string current_directory;               // absolute; for `markdown units` paths
};

// Runs one invocation and returns the process exit code (spec README.md exit classes).
int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err);

}  // namespace memkit::cli
