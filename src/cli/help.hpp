// The CLI's help texts, generated from the command table (commands/table.hpp).
#pragma once

#include <string>

#include "commands/table.hpp"

namespace memkit::cli {

// `memkit --help`, `memkit help`: the groups.
[[nodiscard]] std::string top_help();
// `memkit <group> --help`: the group's commands, each with its positionals and required options.
[[nodiscard]] std::string group_help(const GroupSpec& group);
// `memkit <group> <command> --help`: every argument with its doc, choices and default.
[[nodiscard]] std::string command_help(const CommandSpec& command);
// `memkit commands`: one synopsis line per command.
[[nodiscard]] std::string commands_text();
// `memkit completion bash`: bash's completion script for every group, verb, option and choice of
// the command table (completion.cpp).
[[nodiscard]] std::string bash_completion();

}  // namespace memkit::cli
