// The MCP server's session (mcp/server.hpp) on a channel of lines held in memory: what a client
// no one here wrote does not do (tests/mcp/ drives it with the official SDK): a message over the
// limit, a client that answers a sampling request with an error or not at all, requests that come
// while the server waits for an answer.
#include <doctest/doctest.h>

#include <chrono>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "files/file_system.hpp"
#include "mcp/server.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

using json = nlohmann::json;

// Lines in, lines out; `answer` may add lines to read when the server writes one.
class Lines final : public mcp::Channel {
 public:
  std::deque<Line> in;
  std::vector<json> out;
  std::function<void(const json&, Lines&)> answer;
  std::optional<Line> read(std::size_t /*limit*/) override {
    if (in.empty()) return std::nullopt;
    Line line = std::move(in.front());
    in.pop_front();
    return line;
  }
  void write(std::string_view message) override {
    out.push_back(json::parse(message));
    if (answer) answer(out.back(), *this);
  }
  void send(const json& message) { in.push_back({message.dump(), false}); }
};

json request(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

CommandEnvironment environment() {
  CommandEnvironment env;
  env.memkit_now = "2026-11-30T10:00:00Z";
  return env;
}

// A MemoryBox root, and a gate call whose first question is VALUE.
json gate_call(int id) {
  return request(id, "tools/call",
                 {{"name", "memorybox_gate"},
                  {"arguments", {{"text", "Always run the tests before pushing"},
                                 {"confidence", 0.9}}}});
}

}  // namespace

TEST_CASE("mcp session: a message over the limit is answered with an error, and the next served") {
  TempDir root;
  Lines lines;
  lines.in.push_back({"", true});
  lines.send(request(1, "ping"));
  mcp::serve(lines, {root.str(), ""}, environment());
  REQUIRE(lines.out.size() == 2);
  CHECK(lines.out[0]["error"]["code"] == -32600);
  CHECK(lines.out[0]["id"].is_null());
  CHECK(lines.out[1]["id"] == 1);
  CHECK(lines.out[1]["result"] == json::object());
}

TEST_CASE("mcp session: initialize negotiates the version, an unknown one gets the newest") {
  TempDir root;
  Lines lines;
  lines.send(request(1, "initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()}}));
  lines.send(request(2, "initialize", {{"protocolVersion", "1999-01-01"}, {"capabilities", json::object()}}));
  mcp::serve(lines, {root.str(), ""}, environment());
  REQUIRE(lines.out.size() == 2);
  CHECK(lines.out[0]["result"]["protocolVersion"] == "2025-06-18");
  CHECK(lines.out[1]["result"]["protocolVersion"] == std::string(mcp::kProtocolVersions[0]));
}

TEST_CASE("mcp session: a client that declines sampling gets NEEDS_JUDGEMENT, one that goes away too") {
  TempDir root;
  write_bytes(root.path() / "memory/LONG_TERM.md", "# Long-term memory\n");
  write_bytes(root.path() / "brain/USER.md", "# User\n");
  for (const bool declines : {true, false}) {
    Lines lines;
    lines.send(request(1, "initialize", {{"protocolVersion", "2025-11-25"},
                                         {"capabilities", {{"sampling", json::object()}}}}));
    lines.send(gate_call(2));
    // While the server waits for its answer, a ping comes; it is served after the call.
    lines.answer = [declines](const json& written, Lines& channel) {
      if (written.value("method", "") != "sampling/createMessage") return;
      channel.send(request(3, "ping"));
      if (declines) {
        channel.send({{"jsonrpc", "2.0"},
                      {"id", written["id"]},
                      {"error", {{"code", -1}, {"message", "User rejected sampling request"}}}});
      }
    };
    mcp::serve(lines, {root.str(), ""}, environment());
    std::vector<json> answers;
    for (const json& o : lines.out) {
      if (o.contains("id") && !o.contains("method")) answers.push_back(o);
    }
    REQUIRE_MESSAGE(answers.size() == 3, lines.out.back().dump());
    CHECK(answers[1]["id"] == 2);
    CHECK(answers[1]["result"]["structuredContent"]["data"]["outcome"] == "NEEDS_JUDGEMENT");
    CHECK(answers[1]["result"]["isError"] == false);
    CHECK(answers[2]["id"] == 3);  // the ping that came meanwhile, after the call
  }
}

TEST_CASE("mcp session: an answer the gate cannot read fails the gate, nothing is written") {
  TempDir root;
  write_bytes(root.path() / "memory/LONG_TERM.md", "# Long-term memory\n");
  write_bytes(root.path() / "brain/USER.md", "# User\n");
  const std::vector<std::string> tree = tree_of(root.path());
  Lines lines;
  lines.send(request(1, "initialize", {{"protocolVersion", "2025-11-25"},
                                       {"capabilities", {{"sampling", json::object()}}}}));
  lines.send(gate_call(2));
  lines.answer = [](const json& written, Lines& channel) {
    if (written.value("method", "") != "sampling/createMessage") return;
    channel.send({{"jsonrpc", "2.0"},
                  {"id", written["id"]},
                  {"result", {{"role", "assistant"},
                              {"model", "m"},
                              {"content", {{"type", "text"}, {"text", "perhaps"}}}}}});
  };
  mcp::serve(lines, {root.str(), ""}, environment());
  const json& call = lines.out.back();
  REQUIRE(call.at("id") == 2);
  const json& envelope = call.at("result").at("structuredContent");
  CHECK(envelope.at("data").value("outcome", "") != "WRITE");
  CHECK(envelope.at("findings").dump().find("MK-BOX-005") != std::string::npos);
  CHECK(tree_of(root.path()) == tree);
}

TEST_CASE("mcp session: a write waits for the root's lock as long as the server was told, no more") {
  TempDir root;
  write_bytes(root.path() / "docs/memory/manifest.md", "# Memory Manifest\n");
  fs::create_directories(root.path() / ".memkit");
  Result<std::unique_ptr<LockHandle>> held =
      posix_file_system().lock_exclusive(root.str() + "/.memkit/lock", 0.0);
  REQUIRE(held);
  Lines lines;
  lines.send(request(1, "tools/call",
                     {{"name", "custodian_add"},
                      {"arguments", {{"message", "Prefer small commits"}, {"type", "preference"}}}}));
  mcp::ServerOptions options{root.str(), ""};
  options.lock_timeout_seconds = 0;
  const auto began = std::chrono::steady_clock::now();
  mcp::serve(lines, options, environment());
  // Refused at once, not after the default 10 s.
  CHECK(std::chrono::steady_clock::now() - began < std::chrono::seconds(5));
  REQUIRE(lines.out.size() == 1);
  CHECK(lines.out[0]["result"]["isError"] == true);
  CHECK(lines.out[0]["result"]["structuredContent"]["findings"].dump().find("MK-LOCK-001") !=
        std::string::npos);
}

}  // namespace memkit::shell_test
