// The CLI's help texts, generated from the command table (commands/table.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands/table.hpp"

namespace memkit::cli {

// The CLI's own commands, which describe the table rather than run one of its commands.
struct BuiltinCommand {
  std::string_view name;       // "completion"
  std::string_view arguments;  // "bash|zsh|fish", "[GROUP]"; empty when none
  std::string_view summary;
};
[[nodiscard]] const std::vector<BuiltinCommand>& builtin_commands();
[[nodiscard]] const BuiltinCommand* find_builtin(std::string_view name) noexcept;

// `memkit --help`, `memkit help`: the groups and the built-ins.
[[nodiscard]] std::string top_help();
// `memkit <group> --help`: the group's commands, each with its positionals and required options.
[[nodiscard]] std::string group_help(const GroupSpec& group);
// `memkit <group> <command> --help`: every argument with its doc, choices and default.
[[nodiscard]] std::string command_help(const CommandSpec& command);
// `memkit <built-in> --help`, `memkit help <built-in>`: its usage.
[[nodiscard]] std::string builtin_help(const BuiltinCommand& builtin);
// `memkit commands`: one synopsis line per command.
[[nodiscard]] std::string commands_text();

// `memkit man`: memkit(1) in roff (man macros): the groups, the global options, the exit status,
// the environment. `memkit man GROUP`: memkit-GROUP(1), every command of the group with every
// argument.
[[nodiscard]] std::string man_page();
[[nodiscard]] std::string group_man_page(const GroupSpec& group);

// The shells `memkit completion` writes a script for: bash, zsh, fish.
[[nodiscard]] const std::vector<std::string_view>& completion_shells();
// `memkit completion SHELL`: the shell's completion script for every group, verb, option and
// choice of the command table (completion.cpp); nullopt for a shell not in completion_shells().
[[nodiscard]] std::optional<std::string> completion_script(std::string_view shell);

}  // namespace memkit::cli
