// The MCP server (server.hpp): one session, one message at a time.
#include "mcp/server.hpp"

#include <cstdio>
#include <filesystem>
#include <deque>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "codec/bounded_json.hpp"
#include "files/file_system.hpp"
#include "json/json.hpp"
#include "mcp/tools.hpp"
#include "memkit/findings.hpp"
#include "memkit/layouts.hpp"
#include "memkit/memorybox/gate.hpp"
#include "memkit/recall.hpp"
#include "memkit/text.hpp"
#include "memkit/version.hpp"
#include "store/recall_root.hpp"
#include "store/workspace.hpp"
#include "text/shown_text.hpp"

namespace memkit::mcp {
namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

// JSON-RPC's error codes, and MCP's for a resource it does not have.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kResourceNotFound = -32002;

constexpr std::string_view kUriPrefix = "memkit:///";

std::string dumped(const ordered& value) {
  return value.dump(-1, ' ', false, ordered::error_handler_t::replace);
}

std::string response(const json& id, const std::string& result) {
  return R"({"jsonrpc":"2.0","id":)" + id.dump() + R"(,"result":)" + result + "}";
}

std::string error_response(const json& id, int code, const std::string& message) {
  const ordered error = {{"code", code}, {"message", message}};
  return R"({"jsonrpc":"2.0","id":)" + id.dump() + R"(,"error":)" + dumped(error) + "}";
}

// A request failed with a JSON-RPC error.
struct Failure {
  int code = kInvalidParams;
  std::string message;
};

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t word = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      word = word << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0U);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      out += k <= n ? kDigits[(word >> (18 - 6 * k)) & 63] : '=';
    }
  }
  return out;
}

// A memory file's path in a URI (RFC 3986: unreserved characters and '/' as they are) and back.
std::string uri_of(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out(kUriPrefix);
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}
std::optional<std::string> path_of(std::string_view uri) {
  if (!uri.starts_with(kUriPrefix)) return std::nullopt;
  uri.remove_prefix(kUriPrefix.size());
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    if (i + 2 >= uri.size() || std::isxdigit(static_cast<unsigned char>(uri[i + 1])) == 0 ||
        std::isxdigit(static_cast<unsigned char>(uri[i + 2])) == 0) {
      return std::nullopt;
    }
    out += static_cast<char>(std::stoi(std::string(uri.substr(i + 1, 2)), nullptr, 16));
    i += 2;
  }
  return out;
}

std::string mime_of(std::string_view path) {
  if (path.ends_with(".md")) return "text/markdown";
  if (path.ends_with(".csv")) return "text/csv";
  if (path.ends_with(".jsonl")) return "application/jsonl";
  if (path.ends_with(".json")) return "application/json";
  return "text/plain";
}

// How a gate's answer is written (memorybox::parse_gate_answer).
std::string_view answer_form(memorybox::Gate gate) {
  switch (gate) {
    case memorybox::Gate::value:
      return "`yes` or `no`";
    case memorybox::Gate::alignment:
      return "`existing <category>`, `new <name>` or `none`";
    case memorybox::Gate::redundancy:
      return "the ID of the entry that already holds it, or `none`";
    case memorybox::Gate::freshness:
      return "`stable`, or `time_sensitive <YYYY-MM-DD>` for the day it stops being true";
    case memorybox::Gate::placement:
      return "`<tier> <file>`";
  }
  return "";
}

class Session {
 public:
  Session(Channel& channel, const ServerOptions& options, const CommandEnvironment& env)
      : channel_(channel), options_(options), env_(env) {
    env_.current_directory = options_.root;
    env_.read_stdin = {};
  }

  void run() {
    for (;;) {
      json message;
      if (!queued_.empty()) {
        message = std::move(queued_.front());
        queued_.pop_front();
      } else {
        std::optional<Channel::Line> line = channel_.read(kMaxMessageBytes);
        if (!line) return;
        if (line->too_long) {
          channel_.write(error_response(nullptr, kInvalidRequest,
                                        "message over " + std::to_string(kMaxMessageBytes) +
                                            " bytes"));
          continue;
        }
        if (line->text.find_first_not_of(" \t\r") == std::string::npos) continue;
        message = detail::parse_bounded_json<json>(line->text);
        if (message.is_discarded()) {
          channel_.write(error_response(nullptr, kParseError, "parse error: not JSON"));
          continue;
        }
      }
      dispatch(message);
    }
  }

 private:
  void dispatch(const json& message) {
    const bool has_id = message.is_object() && message.contains("id") &&
                        (message["id"].is_string() || message["id"].is_number_integer());
    const json id = has_id ? message["id"] : json(nullptr);
    if (!message.is_object() || message.value("jsonrpc", json()) != "2.0") {
      channel_.write(error_response(id, kInvalidRequest, "invalid request: not a JSON-RPC 2.0 object"));
      return;
    }
    if (!message.contains("method")) {
      if (message.contains("result") || message.contains("error")) return;  // a late response
      channel_.write(error_response(id, kInvalidRequest, "invalid request: no method"));
      return;
    }
    if (!message["method"].is_string() || (message.contains("id") && !has_id)) {
      channel_.write(error_response(id, kInvalidRequest,
                                    "invalid request: the method must be a string and the id a "
                                    "string or an integer"));
      return;
    }
    const std::string method = message["method"].get<std::string>();
    const json params = message.contains("params") ? message["params"] : json::object();
    if (!has_id) return;  // a notification: initialized, cancelled, ... need no answer
    if (!params.is_object()) {
      channel_.write(error_response(id, kInvalidParams, "invalid params: not an object"));
      return;
    }
    std::optional<std::string> result;
    std::optional<Failure> failure;
    try {
      if (method == "initialize") {
        result = initialize(params);
      } else if (method == "ping") {
        result = "{}";
      } else if (method == "tools/list") {
        result = tools_list();
      } else if (method == "tools/call") {
        result = tools_call(params, failure);
      } else if (method == "resources/list") {
        result = resources_list();
      } else if (method == "resources/templates/list") {
        result = templates_list();
      } else if (method == "resources/read") {
        result = resources_read(params, failure);
      } else if (method == "prompts/list") {
        result = prompts_list();
      } else if (method == "prompts/get") {
        result = prompts_get(params, failure);
      } else {
        failure = Failure{kMethodNotFound, "method not found: " + method};
      }
    } catch (const std::exception& e) {  // a bug, or out of memory: said, and the session goes on
      failure = Failure{-32603, std::string("internal error: ") + e.what()};
    }
    channel_.write(failure ? error_response(id, failure->code, failure->message)
                           : response(id, *result));
  }

  std::string initialize(const json& params) {
    std::string asked;
    if (params.contains("protocolVersion") && params["protocolVersion"].is_string()) {
      asked = params["protocolVersion"].get<std::string>();
    }
    std::string_view chosen = kProtocolVersions[0];
    for (const std::string_view v : kProtocolVersions) {
      if (v == asked) chosen = v;
    }
    sampling_ = params.contains("capabilities") && params["capabilities"].is_object() &&
                params["capabilities"].contains("sampling");
    const ordered result = {
        {"protocolVersion", std::string(chosen)},
        {"capabilities",
         {{"tools", {{"listChanged", false}}},
          {"resources", {{"subscribe", false}, {"listChanged", false}}},
          {"prompts", {{"listChanged", false}}}}},
        {"serverInfo", {{"name", "memkit"}, {"title", "memkit"}, {"version", std::string(version())}}},
        {"instructions",
         "memkit keeps this project's memory in Markdown files. Start a session with the "
         "session-start prompt (or the context tool); search finds what memory holds; writes are "
         "additive; a removal or a move returns a plan that applies only with its Plan ID "
         "(apply: true, confirm_plan: ID)."}};
    return dumped(result);
  }

  std::string tools_list() const {
    ordered list = ordered::array();
    for (const Tool& tool : tools()) list.push_back(tool_json(tool));
    return dumped(ordered{{"tools", std::move(list)}});
  }

  std::optional<std::string> tools_call(const json& params, std::optional<Failure>& failure) {
    if (!params.contains("name") || !params["name"].is_string()) {
      failure = Failure{kInvalidParams, "invalid params: name: not a string"};
      return std::nullopt;
    }
    const std::string name = params["name"].get<std::string>();
    const Tool* tool = find_tool(name);
    if (tool == nullptr) {
      failure = Failure{kInvalidParams, "unknown tool: " + name};
      return std::nullopt;
    }
    const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
    CommandReply reply;
    Result<CommandRequest> request = request_of(*tool, arguments, options_);
    if (request) {
      if (tool->spec->judged && sampling_) request->judge = sampling_judge();
      reply = execute(*request, env_);
    } else {
      reply.command = tool->spec->name();
      reply.findings.push_back(finding_from(request.status()));
    }
    std::string envelope;
    write_reply_json(reply, [&envelope](std::string_view piece) { envelope.append(piece); });
    std::string view;
    if (reply.text) reply.text([&view](std::string_view piece) { view.append(piece); });
    const ExitClass exit = derive_exit_class(reply.findings);
    if (view.empty()) view = summary_of(reply, exit);
    const bool error = exit == ExitClass::fatal || exit == ExitClass::blocker;
    const ordered content = ordered::array({{{"type", "text"}, {"text", view}}});
    return R"({"content":)" + dumped(content) + R"(,"isError":)" + (error ? "true" : "false") +
           R"(,"structuredContent":)" + envelope + "}";
  }

  static std::string summary_of(const CommandReply& reply, ExitClass exit) {
    std::string out = reply.command + ": " + std::string(exit_class_name(exit));
    for (const Finding& f : reply.findings) out += "\n" + f.code + " " + f.message;
    if (reply.plan) out += "\nPlan ID: " + reply.plan->id();
    return out + "\n";
  }

  // The host's judge through the client's model: each question a sampling/createMessage request,
  // its answer parsed as the C ABI's judge callback's is. A client that declines, fails or goes
  // away gives no answer (NEEDS_JUDGEMENT).
  memorybox::Judge sampling_judge() {
    return [this](const memorybox::GateQuestion& q)
               -> Result<std::optional<memorybox::GateAnswer>> {
      const std::string gate(memorybox::gate_name(q.gate));
      const std::string text =
          "memkit's write filter asks you the " + gate +
          " question about a memory it may store. The question, as JSON:\n" +
          memorybox_gate_question_json(q) + "\n\nAnswer with one line and nothing else: " +
          std::string(answer_form(q.gate)) + ".";
      const std::string id = "memkit-" + std::to_string(next_id_++);
      const ordered request = {
          {"jsonrpc", "2.0"},
          {"id", id},
          {"method", "sampling/createMessage"},
          {"params",
           {{"messages", ordered::array({{{"role", "user"},
                                          {"content", {{"type", "text"}, {"text", text}}}}})},
            {"systemPrompt", "You judge what an agent's memory should keep. Be brief."},
            {"includeContext", "none"},
            {"maxTokens", 200}}}};
      channel_.write(dumped(request));
      const std::optional<json> answer = await(id);
      if (!answer || !answer->contains("result")) return std::optional<memorybox::GateAnswer>();
      const json& result = (*answer)["result"];
      std::string said;
      if (result.contains("content")) {
        const json& content = result["content"];
        const auto text_of = [](const json& c) {
          return c.is_object() && c.value("type", "") == "text" && c.contains("text") &&
                         c["text"].is_string()
                     ? c["text"].get<std::string>()
                     : std::string();
        };
        if (content.is_array()) {
          for (const json& c : content) said += text_of(c);
        } else {
          said = text_of(content);
        }
      }
      const std::size_t first = said.find_first_not_of(" \t\r\n`");
      const std::size_t last = said.find_last_not_of(" \t\r\n`.");
      said = first == std::string::npos ? std::string() : said.substr(first, last - first + 1);
      Result<memorybox::GateAnswer> parsed = memorybox::parse_gate_answer(q.gate, said);
      if (!parsed) return Status(Errc::callback, "the client's model: " + parsed.status().message());
      return std::optional<memorybox::GateAnswer>(std::move(parsed).value());
    };
  }

  // Reads messages until the response to `id`: requests and notifications that come meanwhile wait
  // their turn; nullopt when the input ends first.
  std::optional<json> await(const std::string& id) {
    for (;;) {
      std::optional<Channel::Line> line = channel_.read(kMaxMessageBytes);
      if (!line) return std::nullopt;
      if (line->too_long) continue;
      json message = detail::parse_bounded_json<json>(line->text);
      if (message.is_discarded()) continue;
      if (message.is_object() && !message.contains("method") && message.contains("id") &&
          message["id"] == id) {
        return message;
      }
      queued_.push_back(std::move(message));
    }
  }

  Result<std::vector<RecallFile>> memory_files() const {
    return read_recall_files(posix_file_system(), options_.root, "--root",
                             options_.memory_dir.empty() ? "docs/memory" : options_.memory_dir,
                             std::nullopt, /*read_bytes=*/false);
  }

  std::string resources_list() const {
    ordered list = ordered::array();
    if (const Result<std::vector<RecallFile>> files = memory_files()) {
      for (const RecallFile& f : *files) {
        if (!f.file.exists()) continue;
        list.push_back({{"uri", uri_of(f.file.path)},
                        {"name", f.file.path},
                        {"description", std::string(recall::layout_name(f.source.layout)) +
                                            " memory"},
                        {"mimeType", mime_of(f.file.path)},
                        {"size", f.stat.size}});
      }
    }
    return dumped(ordered{{"resources", std::move(list)}});
  }

  std::string templates_list() const {
    const std::string custodian = options_.memory_dir.empty() ? "docs/memory" : options_.memory_dir;
    const ordered list = ordered::array({
        {{"uriTemplate", uri_of(custodian) + "/{+path}"},
         {"name", "custodian"},
         {"description", "a file of the memory-custodian layout"},
         {"mimeType", "text/markdown"}},
        {{"uriTemplate", std::string(kUriPrefix) + "brain/{+path}"},
         {"name", "memorybox-brain"},
         {"description", "a MemoryBox tier file under brain/"},
         {"mimeType", "text/markdown"}},
        {{"uriTemplate", std::string(kUriPrefix) + "memory/{+path}"},
         {"name", "memory"},
         {"description", "a MemoryBox or three-tier file under memory/"},
         {"mimeType", "text/markdown"}},
        {{"uriTemplate", std::string(kUriPrefix) + "rows/{+path}"},
         {"name", "curated"},
         {"description", "a curated store's rows"},
         {"mimeType", "text/markdown"}},
    });
    return dumped(ordered{{"resourceTemplates", list}});
  }

  std::optional<std::string> resources_read(const json& params, std::optional<Failure>& failure) {
    if (!params.contains("uri") || !params["uri"].is_string()) {
      failure = Failure{kInvalidParams, "invalid params: uri: not a string"};
      return std::nullopt;
    }
    const std::string uri = params["uri"].get<std::string>();
    const std::optional<std::string> path = path_of(uri);
    // Only the memory files the server lists: nothing else under the root, nothing outside it.
    const Result<std::vector<RecallFile>> files = memory_files();
    const RecallFile* found = nullptr;
    if (path && files) {
      for (const RecallFile& f : *files) {
        if (f.file.exists() && f.file.path == *path) found = &f;
      }
    }
    if (found == nullptr) {
      failure = Failure{kResourceNotFound, "resource not found: " + uri};
      return std::nullopt;
    }
    const Result<std::string> bytes = posix_file_system().read_file(options_.root + "/" + *path);
    if (!bytes) {
      failure = Failure{kResourceNotFound, "resource not readable: " + uri + ": " +
                                               bytes.status().message()};
      return std::nullopt;
    }
    ordered content = {{"uri", uri}, {"mimeType", mime_of(*path)}};
    if (find_invalid_utf8(*bytes)) {
      content["blob"] = base64(*bytes);
    } else {
      content["text"] = *bytes;
    }
    return dumped(ordered{{"contents", ordered::array({content})}});
  }

  static std::string prompts_list() {
    const ordered prompt = {
        {"name", "session-start"},
        {"title", "memkit session start"},
        {"description",
         "this project's memory compiled under a token budget (memkit context): what an agent "
         "reads before it starts"},
        {"arguments",
         ordered::array({{{"name", "task"},
                          {"description", "what the session is for (the custodian's Load by task)"},
                          {"required", false}},
                         {{"name", "budget"},
                          {"description", "the most tokens it may take (default 4000)"},
                          {"required", false}}})}};
    return dumped(ordered{{"prompts", ordered::array({prompt})}});
  }

  std::optional<std::string> prompts_get(const json& params, std::optional<Failure>& failure) {
    if (params.value("name", json()) != "session-start") {
      failure = Failure{kInvalidParams, "unknown prompt: " + params.value("name", json()).dump()};
      return std::nullopt;
    }
    const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
    if (!arguments.is_object()) {
      failure = Failure{kInvalidParams, "invalid params: arguments: not an object"};
      return std::nullopt;
    }
    const CommandSpec* spec = find_command("context", "");
    CommandRequest request = request_for(*spec);
    request.format = OutputFormat::json;
    set_root_arguments(*spec, options_.root, options_.memory_dir, request);
    request.options["--budget"] = "4000";
    for (const auto& [key, value] : arguments.items()) {
      // Prompt arguments are strings.
      if (!value.is_string() || (key != "task" && key != "budget")) {
        failure = Failure{kInvalidParams, "invalid params: arguments." + key +
                                              ": the prompt takes task and budget, as strings"};
        return std::nullopt;
      }
      request.options["--" + key] = value.get<std::string>();
    }
    CommandReply reply = execute(request, env_);
    if (derive_exit_class(reply.findings) == ExitClass::fatal) {
      std::string why;
      for (const Finding& f : reply.findings) why += (why.empty() ? "" : "; ") + f.message;
      failure = Failure{kInvalidParams, "session-start: " + why};
      return std::nullopt;
    }
    std::string data;
    if (reply.data) reply.data([&data](std::string_view piece) { data.append(piece); });
    const json parsed = json::parse(data.empty() ? "{}" : data, nullptr, false);
    const std::string block =
        parsed.is_object() && parsed.contains("block") && parsed["block"].is_string()
            ? parsed["block"].get<std::string>()
            : std::string();
    const ordered result = {
        {"description", "this project's memory, compiled by memkit context"},
        {"messages", ordered::array({{{"role", "user"},
                                      {"content", {{"type", "text"}, {"text", block}}}}})}};
    return dumped(result);
  }

  Channel& channel_;
  ServerOptions options_;
  CommandEnvironment env_;
  bool sampling_ = false;
  std::uint64_t next_id_ = 1;
  std::deque<json> queued_;  // what came while the session waited for a response
};

class StdioChannel final : public Channel {
 public:
  std::optional<Line> read(std::size_t limit) override {
    Line line;
    bool any = false;  // a byte of this line was read
    for (int c = getc_unlocked(stdin); c != EOF; c = getc_unlocked(stdin)) {
      any = true;
      if (c == '\n') {
        if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
        return line;
      }
      if (line.too_long) continue;
      if (line.text.size() >= limit) {  // the rest of the line is read and dropped
        line.too_long = true;
        std::string().swap(line.text);
        continue;
      }
      line.text.push_back(static_cast<char>(c));
    }
    return any ? std::optional<Line>(std::move(line)) : std::nullopt;  // a last line with no break
  }
  void write(std::string_view message) override {
    std::fwrite(message.data(), 1, message.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
};

}  // namespace

std::unique_ptr<Channel> stdio_channel() { return std::make_unique<StdioChannel>(); }

Result<ServerOptions> server_options(const std::string& root, const std::string& current_directory,
                                     const std::optional<std::string>& memory_dir) {
  namespace fs = std::filesystem;
  fs::path path(root);
  if (path.is_relative()) path = fs::path(current_directory) / path;
  std::string normal = path.lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();  // "dir/" as "dir"
  std::error_code error;
  if (!fs::is_directory(normal, error)) {
    const bool exists = fs::symlink_status(normal, error).type() != fs::file_type::not_found;
    return Status(Errc::invalid_argument, "--root: " + shown_text(root) +
                                              (exists ? ": not a directory" : ": no such directory"));
  }
  ServerOptions options;
  options.root = normal;
  if (memory_dir) {  // as the custodian's commands take it: inside the root, through no link
    WorkspaceOptions custodian;
    custodian.project_root = normal;
    custodian.memory_dir = *memory_dir;
    const Result<Workspace> opened =
        Workspace::open(posix_file_system(), custodian_layout(), std::move(custodian));
    if (!opened) return opened.status();
    options.memory_dir = opened->memory_dir();
  }
  return options;
}

void serve(Channel& channel, const ServerOptions& options, const CommandEnvironment& env) {
  Session(channel, options, env).run();
}

}  // namespace memkit::mcp
