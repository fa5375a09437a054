// What `memkit agent init` writes (agents/agent_files.hpp): a block or a server entry added and
// taken out gives back the bytes it was added to, every other byte kept; bad markers and JSON that
// is no object are refused.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agents/agent_files.hpp"

using namespace memkit::agents;

TEST_CASE("agent files: a block appended and taken out gives back the bytes, whatever they were") {
  const std::string body = "## Memory\n\n- use memkit\n";
  for (const std::string text : {"", "# Notes\n", "# Notes\n\nend", "a\r\nb\r\n", "\n\n", "x"}) {
    const std::string with = *with_block(text, body);
    CHECK(with.starts_with(text));
    CHECK(with.find(std::string(kBlockBegin) + "\n" + body + std::string(kBlockEnd) + "\n") !=
          std::string::npos);
    CHECK(*with_block(with, body) == with);  // again: the same bytes
    CHECK(*without_block(with) == text);
  }
  // A block already there is replaced where it is; what the user wrote after it stays.
  const std::string old = "top\n\n" + std::string(kBlockBegin) + "\nold\n" +
                          std::string(kBlockEnd) + "\nafter\n";
  CHECK(*with_block(old, "new\n") ==
        "top\n\n" + std::string(kBlockBegin) + "\nnew\n" + std::string(kBlockEnd) + "\nafter\n");
  CHECK(*without_block(old) == "top\nafter\n");
  CHECK(*without_block("no block here\n") == "no block here\n");
}

TEST_CASE("agent files: markers that are not one begin then one end are refused, naming the line") {
  const std::string begin(kBlockBegin);
  const std::string end(kBlockEnd);
  CHECK(with_block("a\n" + end + "\n", "x\n").status().message() ==
        "line 2: a memkit:end marker without its begin");
  CHECK(with_block(begin + "\n" + begin + "\n", "x\n").status().message() ==
        "line 2: a second memkit:begin marker");
  CHECK(without_block(begin + "\nx\n").status().message() == "a memkit:begin marker without its end");
}

TEST_CASE("agent files: memkit's MCP server inserted as text and taken out, every other byte kept") {
  const std::string entry = mcp_entry();
  const std::vector<std::string> configs = {
      "",
      "{}\n",
      "{\"theme\": \"dark\"}\n",
      "{\n  \"mcpServers\": {}\n}\n",
      "{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"}\n  },\n  \"z\": [1, {\"a\": 2}]\n}\n",
      "{\"a\": {\"mcpServers\": 1}, \"mcpServers\": {\"b\": {}}}",
      "{\"mcpServers\": {}}",
      "{\"mcpServers\":{}}\n",
      "  {}  ",
      "{\"k\": \"a \\\"mcpServers\\\" b\", \"mcpServers\": {}}",
  };
  for (const std::string& text : configs) {
    const std::string with = *with_mcp_server(text, entry);
    const nlohmann::json parsed = nlohmann::json::parse(with);
    CHECK(parsed["mcpServers"]["memkit"] == nlohmann::json::parse(entry));
    CHECK(*with_mcp_server(with, entry) == with);  // again: the same bytes
    CHECK(without_mcp_server(with, entry) == text);
    if (!text.empty()) {  // everything it held, still there
      const nlohmann::json before = nlohmann::json::parse(text);
      for (const auto& [key, value] : before.items()) {
        if (key != "mcpServers") CHECK(parsed[key] == value);
      }
    }
  }
  // The user's own "memkit" server is theirs: kept as it is, and not taken out.
  const std::string theirs = "{\"mcpServers\": {\"memkit\": {\"command\": \"/opt/memkit\"}}}\n";
  CHECK(*with_mcp_server(theirs, entry) == theirs);
  CHECK(without_mcp_server(theirs, entry) == theirs);
  CHECK(with_mcp_server("[1]", entry).status().message() == "not a JSON object");
  CHECK(with_mcp_server("{\"mcpServers\": []}", entry).status().message() ==
        "\"mcpServers\" is not an object");
  CHECK_FALSE(with_mcp_server("{oops", entry));
}

TEST_CASE("agent files: every agent gets its files, Claude Code its hook with the budget") {
  for (const Agent a : {Agent::claude, Agent::codex, Agent::gemini, Agent::cursor}) {
    CHECK_FALSE(agent_files(a, 4000).empty());
  }
  const std::vector<AgentFile> claude = agent_files(Agent::claude, 1234);
  const auto hook = std::find_if(claude.begin(), claude.end(), [](const AgentFile& f) {
    return f.path.ends_with("hooks/session-start");
  });
  REQUIRE(hook != claude.end());
  CHECK(hook->executable);
  CHECK(hook->content.find("memkit context --budget 1234 --format json") != std::string::npos);
  CHECK(codex_config_snippet().starts_with("[mcp_servers.memkit]\n"));
}
