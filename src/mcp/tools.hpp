// The MCP tools of the command table (server.hpp): each command's name, schema and annotations,
// and a request built from a call's arguments. Internal to src/mcp/.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "commands/table.hpp"
#include "mcp/server.hpp"
#include "memkit/result.hpp"

namespace memkit::mcp {

struct Tool {
  const CommandSpec* spec = nullptr;
  std::string name;  // "custodian_compact", "memorybox_sync_push", "search"
};

// Every command of the table a library door runs (not the server's own group), in table order.
[[nodiscard]] const std::vector<Tool>& tools();
[[nodiscard]] const Tool* find_tool(std::string_view name);

// The tools/list entry of a tool: name, title, description, inputSchema, outputSchema (the
// result envelope) and annotations from the command's effect.
[[nodiscard]] nlohmann::ordered_json tool_json(const Tool& tool);

// The property an argument is in a tool's input: "--confirm-plan" is "confirm_plan", the
// positional "MESSAGE" is "message".
[[nodiscard]] std::string property_of(const ArgumentSpec& argument);

// The request a call of `tool` with `arguments` (a JSON object) makes: the command's root
// arguments the server's root, every path inside it. Fails with Errc::invalid_argument naming the
// argument ("arguments.limit: not an integer", "arguments.file: outside the root").
[[nodiscard]] Result<CommandRequest> request_of(const Tool& tool, const nlohmann::json& arguments,
                                                const ServerOptions& options);

}  // namespace memkit::mcp
