// What the command flows share (src/commands): the clock, flags and the first checks every command
// makes, and one entry point per command group. Internal to src/commands.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "commands/text_view.hpp"
#include "memkit/agent_root.hpp"
#include "memkit/commands.hpp"
#include "memkit/memorybox.hpp"

namespace memkit::commands_detail {

// --now, else MEMKIT_NOW, else the environment's clock.
[[nodiscard]] Result<ClockReading> clock_of(const CommandRequest& inv,
                                            const CommandEnvironment& env);

[[nodiscard]] bool has_flag(const CommandRequest& inv, std::string_view flag);

// The value of an option, or nullopt when it was not given.
[[nodiscard]] std::optional<std::string> option(const CommandRequest& inv, std::string_view name);

// What every command checks first: no stray positional (unless it takes some), and the clock;
// every command reads it, so a bad --now fails the same way everywhere. On failure the finding is
// in `reply` and the result is nullopt.
[[nodiscard]] std::optional<ClockReading> start_command(const CommandRequest& inv,
                                                        const CommandEnvironment& env,
                                                        CommandReply& reply,
                                                        bool takes_positionals);

// One entry point per group.
void run_custodian(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);
void run_memorybox(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply);

// One `memorybox` command after the shared start: the clock read, the agent root open and its files
// read. A command that writes under the lock reads the files again there.
struct MemoryBoxRun {
  const CommandRequest& inv;
  const CommandEnvironment& env;
  ClockReading now;
  AgentRoot& root;
  const memorybox::Inputs& inputs;
  view::Style style;
  CommandReply& reply;
};

// memorybox.md §4: `memorybox gate` (memorybox_gate.cpp).
void run_memorybox_gate(MemoryBoxRun& run);

// memorybox.md §7 `compact`, §11 `promote` and §6 `update --resolve archive`, plan-confirmed
// (memorybox_moves.cpp).
void run_memorybox_compact(MemoryBoxRun& run);
void run_memorybox_promote(MemoryBoxRun& run);
void run_memorybox_resolve_archive(MemoryBoxRun& run);

}  // namespace memkit::commands_detail
