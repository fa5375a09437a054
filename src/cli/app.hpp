// The `memkit` command: argv in, report out. main() only supplies the environment.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "memkit/clock.hpp"

namespace memkit::cli {

using Environment = CommandEnvironment;

// Runs one invocation and returns the process exit code (spec README.md exit classes).
int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err);

}  // namespace memkit::cli
