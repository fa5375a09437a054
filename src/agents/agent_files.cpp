// What `memkit agent init` writes (agent_files.hpp).
#include "agents/agent_files.hpp"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "codec/bounded_json.hpp"

namespace memkit::agents {
namespace {

Status bad(const std::string& why) { return Status(Errc::invalid_argument, why); }

// The whole lines of `text`: [begin, end) offsets, the end past the line break.
std::vector<std::pair<std::size_t, std::size_t>> lines_of(std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t cut = text.find('\n', at);
    const std::size_t end = cut == std::string_view::npos ? text.size() : cut + 1;
    out.emplace_back(at, end);
    at = end;
  }
  return out;
}

// A line's text without its line break (LF or CRLF).
std::string_view bare(std::string_view text, std::pair<std::size_t, std::size_t> line) {
  std::string_view s = text.substr(line.first, line.second - line.first);
  if (s.ends_with('\n')) s.remove_suffix(1);
  if (s.ends_with('\r')) s.remove_suffix(1);
  return s;
}

// Where memkit's block is: [begin of its first line, end of its last), or none; an error when
// its markers are not one begin followed by one end.
Result<std::optional<std::pair<std::size_t, std::size_t>>> find_block(std::string_view text) {
  std::optional<std::size_t> begin;
  std::optional<std::size_t> end;
  std::size_t number = 0;
  for (const auto& line : lines_of(text)) {
    ++number;
    const std::string_view s = bare(text, line);
    if (s == kBlockBegin) {
      if (begin) return bad("line " + std::to_string(number) + ": a second memkit:begin marker");
      begin = line.first;
    } else if (s == kBlockEnd) {
      if (!begin || end) {
        return bad("line " + std::to_string(number) + ": a memkit:end marker without its begin");
      }
      end = line.second;
    }
  }
  if (begin && !end) return bad("a memkit:begin marker without its end");
  if (!begin) return std::optional<std::pair<std::size_t, std::size_t>>();
  return std::optional<std::pair<std::size_t, std::size_t>>(std::pair(*begin, *end));
}

std::string block_of(std::string_view body) {
  std::string out(kBlockBegin);
  out += '\n';
  out += body;
  if (!body.empty() && !body.ends_with('\n')) out += '\n';
  out += kBlockEnd;
  out += '\n';
  return out;
}

// The offset of the '{' that opens the value of the top-level key `key` of the JSON object
// `text`, or of the object itself for an empty key; npos when there is none. `text` is JSON.
std::size_t object_brace(std::string_view text, std::string_view key) {
  const std::size_t open = text.find('{');
  if (key.empty() || open == std::string_view::npos) return open;
  const auto past_space = [&text](std::size_t at) {  // the first offset from `at` not white space
    return std::min(text.find_first_not_of(" \t\n\r", at), text.size());
  };
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      const std::string_view string = text.substr(i + 1, j - i - 1);
      std::size_t k = past_space(j + 1);
      if (depth == 1 && k < text.size() && text[k] == ':' && string == key) {
        k = past_space(k + 1);
        return k < text.size() && text[k] == '{' ? k : std::string_view::npos;
      }
      i = j;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::string_view::npos;
}

// The texts with_mcp_server() inserts, by where: into "mcpServers" (not empty, empty), as a new
// "mcpServers" (into an object not empty, empty), and the file it makes. Each has a shape of its
// own, so that taking it out gives back the very bytes it went into (no two starting points end
// in the same bytes).
std::string into_servers(std::string_view entry, bool empty) {
  return empty ? " \"memkit\": " + std::string(entry) + " "
               : "\n    \"memkit\": " + std::string(entry) + ",";
}
std::string new_servers(std::string_view entry, bool empty) {
  return "\n  \"mcpServers\": {\"memkit\": " + std::string(entry) + "}" + (empty ? "\n" : ",");
}
std::string new_file(std::string_view entry) {
  return "{\n  \"mcpServers\": {\n    \"memkit\": " + std::string(entry) + "\n  }\n}\n";
}

}  // namespace

std::string_view agent_name(Agent agent) noexcept {
  switch (agent) {
    case Agent::claude:
      return "claude";
    case Agent::codex:
      return "codex";
    case Agent::gemini:
      return "gemini";
    case Agent::cursor:
      return "cursor";
  }
  return "?";
}

Result<std::string> with_block(std::string_view text, std::string_view body) {
  const auto found = find_block(text);
  if (!found) return found.status();
  const std::string block = block_of(body);
  if (*found) {
    return std::string(text.substr(0, (*found)->first)) + block +
           std::string(text.substr((*found)->second));
  }
  return std::string(text) + (text.empty() ? "" : "\n") + block;
}

Result<std::string> without_block(std::string_view text) {
  const auto found = find_block(text);
  if (!found) return found.status();
  if (!*found) return std::string(text);
  std::size_t from = (*found)->first;
  if (from > 0 && text[from - 1] == '\n') --from;  // the line break with_block() added
  return std::string(text.substr(0, from)) + std::string(text.substr((*found)->second));
}

Result<std::string> with_mcp_server(std::string_view text, std::string_view entry) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return new_file(entry);
  const nlohmann::json parsed = detail::parse_bounded_json(text);
  if (!parsed.is_object()) return bad("not a JSON object");
  if (!parsed.contains("mcpServers")) {
    const std::size_t at = object_brace(text, "");
    return std::string(text.substr(0, at + 1)) + new_servers(entry, parsed.empty()) +
           std::string(text.substr(at + 1));
  }
  const nlohmann::json& servers = parsed["mcpServers"];
  if (!servers.is_object()) return bad("\"mcpServers\" is not an object");
  if (servers.contains("memkit")) return std::string(text);
  const std::size_t at = object_brace(text, "mcpServers");
  if (at == std::string_view::npos) return bad("\"mcpServers\" not found as written");
  return std::string(text.substr(0, at + 1)) + into_servers(entry, servers.empty()) +
         std::string(text.substr(at + 1));
}

std::string without_mcp_server(std::string_view text, std::string_view entry) {
  if (text == new_file(entry)) return std::string();
  for (const std::string& inserted : {new_servers(entry, false), new_servers(entry, true),
                                      into_servers(entry, false), into_servers(entry, true)}) {
    const std::size_t at = text.find(inserted);
    if (at != std::string_view::npos && at > 0 && text[at - 1] == '{') {
      return std::string(text.substr(0, at)) + std::string(text.substr(at + inserted.size()));
    }
  }
  return std::string(text);
}

std::string mcp_entry() {
  return R"({"command": "memkit", "args": ["mcp", "--root", "."]})";
}

std::string codex_config_snippet() {
  return "[mcp_servers.memkit]\ncommand = \"memkit\"\nargs = [\"mcp\", \"--root\", \".\"]\n";
}

namespace {

// The guidance every agent's file gets: which memkit verbs to use when.
std::string guidance() {
  return R"(## Memory (memkit)

This project keeps what agents learn in Markdown files that memkit maintains. Use its MCP server
`memkit` (or the `memkit` command) rather than editing memory files by hand:

- At the start of a session, read the `session-start` prompt (`memkit context --budget 4000`).
- Before answering about past decisions, constraints or conventions, `search` for them.
- Record a durable fact, decision or preference with `custodian_add` (CLI: `memkit custodian add`);
  additive writes apply at once.
- Removals and moves (`custodian_compact`, `custodian_forget`) return a plan: show its Plan ID,
  and apply it (`apply: true`, `confirm_plan: ID`) only once it is confirmed.
)";
}

std::string skill() {
  return R"(---
name: memkit
description: Use this project's memory kept by memkit: read it at the start, search it before answering about past decisions, record durable facts, and compact it through reviewed plans.
---

# memkit

memkit keeps this project's memory in Markdown files (docs/memory/, memory/, brain/, rows/).
Its MCP server `memkit` has one tool per command; the `memkit` CLI has the same verbs.

| when | tool (CLI) |
|---|---|
| a session starts | prompt `session-start` (`memkit context --budget 4000`) |
| you need what memory says about X | `search` (`memkit search X`) |
| you learned a durable fact, decision, constraint or preference | `custodian_add` with `type` (`memkit custodian add "..." --type decision`) |
| memory is over budget or holds duplicates | `custodian_status`, then `custodian_compact` |
| a topic must go | `custodian_forget` |
| a candidate for MemoryBox's tiers | `memorybox_gate` (it asks you the five questions) |

A removal or a move returns a plan and writes nothing: show the Plan ID, and apply it with
`apply: true` and `confirm_plan: <ID>` only once the user (or your review) confirms it.
)";
}

std::string session_start_script(std::uint64_t budget) {
  const std::string tokens = std::to_string(budget);
  return R"(#!/bin/sh
# Claude Code's SessionStart hook (written by `memkit agent init`): this project's memory, compiled
# by memkit under a token budget, as the context the session starts with: the hook's JSON with
# additionalContext where python3 is at hand to make it, else the block as plain output (which
# Claude Code adds to the context as well).
cd "${CLAUDE_PROJECT_DIR:-.}" || exit 0
if command -v python3 >/dev/null 2>&1; then
  memkit context --budget )" +
         tokens + R"( --format json 2>/dev/null | python3 -c '
import json, sys
block = json.load(sys.stdin)["data"]["block"]
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                         "additionalContext": block}}))
' 2>/dev/null || exit 0
else
  memkit context --budget )" +
         tokens + R"( 2>/dev/null || exit 0
fi
)";
}

}  // namespace

std::vector<AgentFile> agent_files(Agent agent, std::uint64_t budget) {
  using Kind = AgentFile::Kind;
  switch (agent) {
    case Agent::claude:
      return {
          {"CLAUDE.md", Kind::block, guidance()},
          {".mcp.json", Kind::mcp_config, mcp_entry()},
          {".claude/memkit-plugin/.claude-plugin/plugin.json", Kind::owned,
           "{\n  \"name\": \"memkit\",\n  \"description\": \"This project's memory at session "
           "start, and the skill to use it (memkit)\",\n  \"version\": \"1.0.0\"\n}\n"},
          {".claude/memkit-plugin/hooks/hooks.json", Kind::owned,
           "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"hooks\": [\n"
           "          {\"type\": \"command\", \"command\": "
           "\"${CLAUDE_PLUGIN_ROOT}/hooks/session-start\", \"timeout\": 30}\n        ]\n      }\n"
           "    ]\n  }\n}\n"},
          {".claude/memkit-plugin/hooks/session-start", Kind::owned, session_start_script(budget),
           true},
          {".claude/memkit-plugin/skills/memkit/SKILL.md", Kind::owned, skill()},
      };
    case Agent::codex:
      return {{"AGENTS.md", Kind::block, guidance()}};
    case Agent::gemini:
      return {{"GEMINI.md", Kind::block, guidance()},
              {".gemini/settings.json", Kind::mcp_config, mcp_entry()}};
    case Agent::cursor:
      return {{".cursor/rules/memkit.mdc", Kind::owned,
               "---\ndescription: Use this project's memory through memkit\nalwaysApply: true\n"
               "---\n\n" + guidance()},
              {".cursor/mcp.json", Kind::mcp_config, mcp_entry()}};
  }
  return {};
}

}  // namespace memkit::agents
