// The command table: one declarative description of every command of every door (issue 27). The
// CLI's parser, its help and its suggestions, the option check of execute() and the C ABI's
// `mk_commands_json` all read it; nothing else lists commands or their arguments.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/result.hpp"

namespace memkit {

// What a command does to the files: only reads; writes directly (additive writes); or makes a
// plan that `--apply --confirm-plan ID` writes (removals and moves).
enum class CommandEffect : std::uint8_t { reads, writes, plans };
[[nodiscard]] std::string_view command_effect_name(CommandEffect effect) noexcept;

// The type of an argument's value: what a binding's setter takes and what the CLI documents.
enum class ArgumentType : std::uint8_t {
  string,   // any text
  path,     // a file or folder, relative to the current directory unless absolute
  integer,  // decimal digits
  number,   // a decimal number ("0.90")
  time,     // RFC 3339 with an offset
  json,     // one JSON value
  boolean,  // a flag: present or not
};
[[nodiscard]] std::string_view argument_type_name(ArgumentType type) noexcept;

struct ArgumentSpec {
  std::string_view name;  // "--root", or a positional's name in capitals ("MESSAGE")
  ArgumentType type = ArgumentType::string;
  bool positional = false;
  bool required = false;
  std::string_view placeholder;    // "DIR"; empty for a flag (and a positional: its name)
  std::string_view default_value;  // as the user would write it; empty when none
  std::vector<std::string_view> choices;  // the words it takes, when it takes a fixed set
  std::string_view doc;                   // one sentence, lower case, no full stop
  bool root = false;  // the folder a workspace is opened on: given by it, never by a request
};

struct CommandSpec {
  std::string_view group;  // "custodian"
  std::string_view verb;   // "status", two words: "sync push", or none: the group is the command
                           // ("search": every word after it is its positional)
  std::string_view summary;
  CommandEffect effect = CommandEffect::reads;
  std::vector<ArgumentSpec> arguments;  // positionals in order, then options
  bool judged = false;  // asks the host's judge (memorybox gate: the C ABI's mk_judge_fn)
  [[nodiscard]] std::string name() const;  // "custodian status", "search"
  [[nodiscard]] const ArgumentSpec* argument(std::string_view name) const noexcept;
};

struct GroupSpec {
  std::string_view name;
  std::string_view summary;
  std::string_view notes;  // what the group's options default to; empty when nothing
  // The workspace its commands run on, in the C ABI and the bindings: a layout ("custodian",
  // "memorybox", "tiers", "curated"), "any" (a workspace of every layout: search), "none"
  // (markdown: it reads the one file it is given), "server" (mcp: the CLI alone runs it, as a
  // server on its standard input and output; no other door has it) or "cli" (bench: the CLI alone
  // runs it, since it times memkit processes; no other door has it).
  std::string_view workspace;
};

// The options every command takes (spec README.md "Global options").
[[nodiscard]] const std::vector<ArgumentSpec>& global_options();

// The groups, in the order help lists them, and every command, grouped, in that order.
[[nodiscard]] const std::vector<GroupSpec>& command_groups();
[[nodiscard]] const std::vector<CommandSpec>& command_table();

[[nodiscard]] const GroupSpec* find_group(std::string_view group) noexcept;
[[nodiscard]] const CommandSpec* find_command(std::string_view group,
                                              std::string_view verb) noexcept;

// The closest of `candidates` to `given` when it is close enough to be a typo (an edit distance
// of at most a third of its length, at least 1, or a prefix of one candidate only), else nullopt.
[[nodiscard]] std::optional<std::string> closest(std::string_view given,
                                                 const std::vector<std::string>& candidates);

// The command that `group` and the words after it name, and how many of those words its verb takes
// (1 or 2: "sync push"; 0 for a group that is its own command, "search"); nullptr for a group
// alone. Fails with Errc::invalid_argument naming an
// unknown group or verb, with the closest known one as a suggestion.
[[nodiscard]] Result<const CommandSpec*> resolve_command(std::string_view group,
                                                         const std::vector<std::string>& words,
                                                         std::size_t* verb_words);

// Checks that `command` takes each of `options` (with a value) and `flags` (without): else
// Errc::invalid_argument, "unknown option --x for group verb", with the closest one. The one check
// of every door: the CLI's parser and execute() both call it.
[[nodiscard]] Status check_arguments(const CommandSpec& command,
                                     const std::map<std::string, std::string>& options,
                                     const std::vector<std::string>& flags);

// The table as JSON (`memkit commands --format json`, `mk_commands_json`):
// {"global_options":[argument],"groups":[{"commands":[{"arguments":[argument],"effect","judged",
// "name","summary","verb"}],"name","notes","summary","workspace"}],"table_version":1}, each argument
// {"choices","default","doc","name","placeholder","positional","required","root","type"}.
[[nodiscard]] std::string command_table_json();

}  // namespace memkit
