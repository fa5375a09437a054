// `memkit agent init` (agents/agent_files.hpp; docs/agents.md "memkit agent init"): every file
// read and its new bytes made first, then written, so bad input writes nothing.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "agents/agent_files.hpp"
#include "commands/commands.hpp"
#include "commands/flow.hpp"
#include "files/file_system.hpp"
#include "text/shown_text.hpp"

namespace memkit::commands_detail {
namespace {

using agents::Agent;
using agents::AgentFile;

// A file of the project as init leaves it.
struct AgentChange {
  std::string path;      // relative to the root
  std::string action;    // "created", "updated", "unchanged", "removed", "kept"
  std::optional<std::string> bytes;  // the new bytes to write; none: remove (or nothing to do)
  bool remove = false;
  bool executable = false;
};

// What is at root/path: its bytes, none when nothing is there; an error for anything but a
// regular file, or a path through a link.
Result<std::optional<std::string>> existing(FileSystem& fs, const std::string& root,
                                            const std::string& path) {
  std::size_t slash = path.find('/');
  for (; slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const Result<NodeType> type = fs.node_type(root + "/" + path.substr(0, slash));
    if (!type) return type.status();
    if (*type == NodeType::none) return std::optional<std::string>();
    if (*type == NodeType::symlink) {
      return Status(Errc::unsafe_path,
                    path.substr(0, slash) + ": a symbolic link; memkit never writes through one");
    }
    if (*type != NodeType::directory) {
      return Status(Errc::io, path.substr(0, slash) + ": not a folder");
    }
  }
  const Result<NodeType> type = fs.node_type(root + "/" + path);
  if (!type) return type.status();
  if (*type == NodeType::none) return std::optional<std::string>();
  if (*type == NodeType::symlink) {
    return Status(Errc::unsafe_path, path + ": a symbolic link; memkit never writes through one");
  }
  if (*type != NodeType::file) return Status(Errc::io, path + ": not a regular file");
  Result<std::string> bytes = fs.read_file(root + "/" + path);
  if (!bytes) return bytes.status();
  return std::optional<std::string>(std::move(bytes).value());
}

Result<AgentChange> change_of(FileSystem& fs, const std::string& root, const AgentFile& file,
                         bool remove, std::vector<Finding>& findings) {
  Result<std::optional<std::string>> had = existing(fs, root, file.path);
  if (!had) return had.status();
  const std::string was = had->value_or("");
  AgentChange change{file.path, "unchanged", std::nullopt, false, file.executable};
  std::string now = was;
  switch (file.kind) {
    case AgentFile::Kind::block: {
      Result<std::string> made = remove ? agents::without_block(was) : agents::with_block(was, file.content);
      if (!made) return Status(Errc::invalid_argument, file.path + ": " + made.status().message());
      now = std::move(made).value();
      break;
    }
    case AgentFile::Kind::mcp_config: {
      if (remove) {
        now = agents::without_mcp_server(was, file.content);
        if (now == was && was.find("\"memkit\"") != std::string::npos) {
          findings.push_back(make_finding("MK-AGENT-001", Severity::warning, file.path,
                                          file.path + ": its memkit server is not as agent init "
                                                      "wrote it; left as it is"));
        }
        break;
      }
      Result<std::string> made = agents::with_mcp_server(was, file.content);
      if (!made) return Status(Errc::invalid_argument, file.path + ": " + made.status().message());
      now = std::move(made).value();
      break;
    }
    case AgentFile::Kind::owned:
      if (!remove) {
        now = file.content;
      } else if (had->has_value() && was != file.content) {
        findings.push_back(make_finding("MK-AGENT-001", Severity::warning, file.path,
                                        file.path + ": changed since agent init wrote it; kept"));
        change.action = "kept";
        return change;
      } else {
        now.clear();
      }
      break;
  }
  if (!had->has_value() && now.empty()) return change;  // nothing there, nothing to write
  if (had->has_value() && now == was) return change;
  if (now.empty() && (remove || file.kind == AgentFile::Kind::owned)) {
    change.action = "removed";
    change.remove = true;
    return change;
  }
  change.action = had->has_value() ? "updated" : "created";
  change.bytes = std::move(now);
  return change;
}

// Makes the folders on the way to root/path (none of them a link: existing() checked).
Status make_parents(FileSystem& fs, const std::string& root, const std::string& path) {
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (Status made = fs.create_directory(root + "/" + path.substr(0, slash)); !made.ok()) {
      return made;
    }
  }
  return Status();
}

}  // namespace

void run_agent_init(const CommandRequest& inv, const CommandEnvironment& env, CommandReply& reply) {
  if (!start_command(inv, env, reply, /*takes_positionals=*/false)) return;
  std::string root = option(inv, "--root").value_or(env.current_directory);
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  FileSystem& fs = posix_file_system();
  const Result<NodeType> type = fs.node_type(root + "/.");
  if (!type || *type != NodeType::directory) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "--root: " + shown_text(root) + ": no such directory")));
    return;
  }
  const Result<std::uint64_t> budget = count_option(inv, "--budget", 4000);
  if (!budget) {
    reply.findings.push_back(finding_from(budget.status()));
    return;
  }
  const std::string which = option(inv, "--agent").value_or("all");
  std::vector<Agent> chosen;
  for (const Agent a : {Agent::claude, Agent::codex, Agent::gemini, Agent::cursor}) {
    if (which == "all" || which == agents::agent_name(a)) chosen.push_back(a);
  }
  const bool remove = has_flag(inv, "--remove");
  // Every file first: its new bytes, or the reason it cannot be changed (then nothing is written).
  std::vector<AgentChange> changes;
  std::vector<Finding> warnings;
  for (const Agent a : chosen) {
    for (const AgentFile& file : agents::agent_files(a, *budget)) {
      if (std::any_of(changes.begin(), changes.end(),
                      [&file](const AgentChange& c) { return c.path == file.path; })) {
        continue;
      }
      Result<AgentChange> change = change_of(fs, root, file, remove, warnings);
      if (!change) {
        reply.findings.push_back(
            change.status().code() == Errc::unsafe_path
                ? make_finding("MK-IO-002", Severity::blocker, file.path,
                               shown_text(change.status().message()),
                               "replace the link with the file or folder it points to")
                : finding_from(change.status()));
        return;
      }
      changes.push_back(std::move(change).value());
    }
  }
  for (const AgentChange& c : changes) {
    const std::string path = root + "/" + c.path;
    Status done;
    if (c.remove) {
      done = fs.remove_file(path);
      // The folders it leaves empty go too (init made them, or they held nothing of the user's).
      for (std::size_t slash = c.path.rfind('/'); done.ok() && slash != std::string::npos;
           slash = slash == 0 ? std::string::npos : c.path.rfind('/', slash - 1)) {
        const std::string folder = root + "/" + c.path.substr(0, slash);
        const Result<std::vector<std::string>> left = fs.list_directory(folder);
        if (!left || !left->empty()) break;
        done = fs.remove_directory(folder);
      }
    } else if (c.bytes) {
      done = make_parents(fs, root, c.path);
      if (done.ok()) done = write_file_atomically(fs, path, *c.bytes, false);
      if (done.ok() && c.executable && c.action == "created") done = fs.set_mode(path, 0755);
    }
    if (!done.ok()) {
      reply.findings.push_back(finding_from(done));
      return;
    }
  }
  reply.findings.insert(reply.findings.end(), warnings.begin(), warnings.end());
  const bool codex = std::find(chosen.begin(), chosen.end(), Agent::codex) != chosen.end();
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  std::string view;
  for (const AgentChange& c : changes) {
    files.push_back({{"path", c.path}, {"action", c.action}});
    view += c.action + " " + c.path + "\n";
  }
  nlohmann::ordered_json agents_json = nlohmann::ordered_json::array();
  for (const Agent a : chosen) agents_json.push_back(std::string(agents::agent_name(a)));
  const nlohmann::ordered_json data = {
      {"agents", agents_json},
      {"files", files},
      {"codex_config", codex && !remove ? nlohmann::ordered_json(agents::codex_config_snippet())
                                        : nlohmann::ordered_json(nullptr)},
      {"removed", remove}};
  if (codex && !remove) {
    view += "\nCodex reads its MCP servers from ~/.codex/config.toml; add:\n\n" +
            agents::codex_config_snippet();
  }
  reply.data = fixed(data.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  if (inv.format == OutputFormat::text) reply.text = fixed(std::move(view));
}

}  // namespace memkit::commands_detail
