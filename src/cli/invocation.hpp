// The parsed command line (spec README.md "CLI shape", "Global options").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "memkit/result.hpp"

namespace memkit::cli {

// The parsed command line is a CommandRequest; these names keep the CLI's own words.
using Format = OutputFormat;
using Invocation = CommandRequest;

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
