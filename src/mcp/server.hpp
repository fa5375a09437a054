// `memkit mcp`: memkit as an agent's Model Context Protocol server (issue 29; docs/agents.md).
// JSON-RPC 2.0 messages, one a line each way (MCP's stdio transport), protocol versions 2025-11-25
// and 2025-06-18. Shell: it runs commands (commands/commands.hpp) on the files under one root.
//
// - Tools: one per command of the command table (commands/table.hpp), its input schema made from
//   the command's arguments, its result the JSON envelope the CLI prints (structuredContent) and
//   the CLI's human view (text). A command that removes or moves returns its plan; applying takes
//   `apply` and `confirm_plan`, as the CLI's --apply --confirm-plan.
// - Judgements: `memorybox_gate` asks the client's model through sampling/createMessage when the
//   client offers sampling; else it answers NEEDS_JUDGEMENT with the questions.
// - Resources: every memory file under the root (memkit:///<path>), a template per layout.
// - Prompts: `session-start`, the root's `memkit context`.
// Every path a request names stays inside the root; a malformed message gets its JSON-RPC error
// and the server keeps serving.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "commands/commands.hpp"

namespace memkit::mcp {

// The protocol versions served, newest first: a client asking for another gets the newest.
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18"};

// The most bytes one message may hold: a longer line is skipped and answered with an error.
inline constexpr std::size_t kMaxMessageBytes = kMaxInputBytes;

// Where messages come from and go to: one a line.
class Channel {
 public:
  virtual ~Channel() = default;
  struct Line {
    std::string text;       // without its line break; empty when too long
    bool too_long = false;  // over the limit: read to its end and dropped
  };
  // The next line of the input, nullopt at its end.
  virtual std::optional<Line> read(std::size_t limit) = 0;
  // One message, its line break added, and flushed.
  virtual void write(std::string_view message) = 0;
};

// Standard input and output.
[[nodiscard]] std::unique_ptr<Channel> stdio_channel();

struct ServerOptions {
  std::string root;        // absolute and normal: the folder whose memory is served
  std::string memory_dir;  // the custodian's, relative to the root; empty: docs/memory
  double lock_timeout_seconds = 10.0;  // how long a tool's write waits for the root's lock
};

// The options of a server at `root` (relative to `current_directory` unless absolute), checked as
// the commands check theirs: the root a folder ("--root: x: no such directory"), the custodian's
// memory folder (`memory_dir`; none: docs/memory) inside it through no link.
[[nodiscard]] Result<ServerOptions> server_options(const std::string& root,
                                                   const std::string& current_directory,
                                                   const std::optional<std::string>& memory_dir);

// Serves `channel` until its input ends. `env`: what the commands may read of their surroundings
// (the clock, MEMKIT_* settings); a command's working directory is the root, and it reads no
// standard input.
void serve(Channel& channel, const ServerOptions& options, const CommandEnvironment& env);

}  // namespace memkit::mcp
