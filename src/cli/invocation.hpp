// The parsed command line (spec README.md "CLI shape", "Global options").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "commands/table.hpp"
#include "memkit/result.hpp"

namespace memkit::cli {

// The parsed command line is a CommandRequest; these names keep the CLI's own words.
using Format = OutputFormat;
using Invocation = CommandRequest;

// The words of argv that are neither options nor option values: the group, the command and the
// positionals, even when the line as a whole does not parse.
[[nodiscard]] std::vector<std::string> plain_words(const std::vector<std::string>& args);

// The command the plain words name (commands/table.hpp), and how many words its verb takes (1 or
// 2); nullptr when they name no group or a group alone. Fails with Errc::invalid_argument naming
// an unknown group or verb, with the closest one as a suggestion.
[[nodiscard]] Result<const CommandSpec*> resolve_command(const std::vector<std::string>& words,
                                                         std::size_t* verb_words);

// Splits argv (without argv[0]) into an Invocation, checking each option against the command
// table. Global options may appear anywhere. A two-word verb ("memorybox sync push") becomes the
// command "sync" with "push" as its first positional. Fails with Errc::invalid_argument naming the
// argument (and the closest known one).
[[nodiscard]] Result<Invocation> parse_invocation(const std::vector<std::string>& args);

}  // namespace memkit::cli
