// The parsed command line (spec README.md "CLI shape", "Global options").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "memkit/result.hpp"

namespace memkit::cli {

enum class Format : std::uint8_t { text, json };

struct Invocation {
  std::string group;    // "custodian", "markdown", or "" when none was given
  std::string command;  // "status", "units", ...
  Format format = Format::text;
  std::optional<std::string> now;  // --now, or MEMKIT_NOW
  double lock_timeout_seconds = 10.0;
  bool help = false;
  bool version = false;
  std::vector<std::string> positionals;        // after group and command
  std::map<std::string, std::string> options;  // "--project-root" -> value
  std::vector<std::string> flags;              // "--extended"
};

// The options each command accepts: those with a value and bare flags.
struct CommandOptions {
  std::vector<std::string> with_value;
  std::vector<std::string> flags;
};

// The words of argv that are neither options nor option values: the group, the command and the
// positionals, even when the line as a whole does not parse.
[[nodiscard]] std::vector<std::string> plain_words(
    const std::vector<std::string>& args, const std::map<std::string, CommandOptions>& known);

// Splits argv (without argv[0]) into an Invocation. Global options may appear anywhere;
// `known` maps "group command" to the options that command takes. Fails with
// Errc::invalid_argument naming the argument.
[[nodiscard]] Result<Invocation> parse_invocation(
    const std::vector<std::string>& args, const std::map<std::string, CommandOptions>& known);

}  // namespace memkit::cli
