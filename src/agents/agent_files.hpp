// What `memkit agent init` writes into a project so that a coding agent uses its memory (issue 29;
// docs/agents.md "memkit agent init"). Pure: a file's bytes in, its new bytes out.
//
// Three kinds of change, each undone byte for byte by --remove:
// - a managed block in a file the agent reads (CLAUDE.md, AGENTS.md, GEMINI.md), between
//   markers, appended after the text it finds and never touching that text;
// - memkit's entry in an MCP configuration (.mcp.json, .cursor/mcp.json, .gemini/settings.json),
//   inserted as text into the JSON it finds, every other byte kept;
// - files memkit owns whole (a Cursor rule, the Claude Code plugin: its hook and skill).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/result.hpp"

namespace memkit::agents {

enum class Agent : std::uint8_t { claude, codex, gemini, cursor };
[[nodiscard]] std::string_view agent_name(Agent agent) noexcept;  // "claude", ...

inline constexpr std::string_view kBlockBegin =
    "<!-- memkit:begin (written by `memkit agent init`; edit outside this block) -->";
inline constexpr std::string_view kBlockEnd = "<!-- memkit:end -->";

// `text` with memkit's block holding `body` (whole lines): the block replaced where it is, else
// appended after one line break. Fails with Errc::invalid_argument, "line N: ...", when the
// markers are not one begin followed by one end.
[[nodiscard]] Result<std::string> with_block(std::string_view text, std::string_view body);
// `text` without memkit's block and the line break before it: what with_block() was given.
[[nodiscard]] Result<std::string> without_block(std::string_view text);

// An MCP configuration ({"mcpServers": {...}}) with memkit's server ("memkit": `entry`): `text`
// as it is when it already names a server "memkit" (even another one: the user's), else with
// the entry inserted as text after the opening brace of "mcpServers" (or a new "mcpServers"
// after the object's own), or a new file for empty text. Fails with Errc::invalid_argument for
// text that is not a JSON object, or whose "mcpServers" is not one.
[[nodiscard]] Result<std::string> with_mcp_server(std::string_view text, std::string_view entry);
// `text` without what with_mcp_server() inserted, byte for byte ("" for the file it made); as
// it is when that text is not there as memkit wrote it (changed since: the user's).
[[nodiscard]] std::string without_mcp_server(std::string_view text, std::string_view entry);

// One file an agent gets.
struct AgentFile {
  enum class Kind : std::uint8_t { block, mcp_config, owned };
  std::string path;  // relative to the project root
  Kind kind = Kind::owned;
  std::string content;  // the block's body, the server entry, or the file's bytes
  bool executable = false;
};

// The MCP server entry every configuration gets: memkit mcp on the project's root.
[[nodiscard]] std::string mcp_entry();

// What `agent` gets, in order. `budget`: the tokens of the context a session-start hook adds.
[[nodiscard]] std::vector<AgentFile> agent_files(Agent agent, std::uint64_t budget);

// Codex reads its MCP servers from ~/.codex/config.toml, outside the project: the lines to add
// there, which `agent init` prints and never writes.
[[nodiscard]] std::string codex_config_snippet();

}  // namespace memkit::agents
