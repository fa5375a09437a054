// The commands every front end runs (spec README.md "CLI shape", compaction.md §8-§16): a request
// in, the findings, the JSON data and the human view out. The CLI and the C ABI both call
// execute(), so they cannot drift.
#include "commands/commands.hpp"

#include <charconv>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include "commands/flow.hpp"
#include "commands/table.hpp"
#include "commands/text_view.hpp"
#include "memkit/text.hpp"
#include "text/shown_text.hpp"

namespace memkit {

using commands_detail::fixed;
using namespace view;  // NOLINT: the text views of the commands below

// Failures of the invocation or environment become fatal findings (spec README.md exit classes).
Finding finding_from(const Status& status) {
  // Messages carry paths and arguments as the user gave them: shown, never raw.
  std::string message = shown_text(status.message());
  switch (status.code()) {
    case Errc::invalid_argument:
      return make_fatal("MK-ARG-001", "", std::move(message));
    case Errc::layout:
    case Errc::unsafe_path:
      return make_fatal("MK-LAYOUT-001", "", std::move(message));
    case Errc::lock_busy:
      return make_finding("MK-LOCK-001", Severity::blocker, "", std::move(message),
                          "retry when the other memkit process has finished");
    default:
      return make_fatal("MK-IO-001", "", std::move(message));
  }
}

namespace commands_detail {

Result<ClockReading> clock_of(const CommandRequest& inv, const CommandEnvironment& env) {
  if (inv.now) return ClockReading::parse_rfc3339(*inv.now, "--now");
  if (env.memkit_now) return ClockReading::parse_rfc3339(*env.memkit_now, "MEMKIT_NOW");
  return env.system_clock();
}

Result<std::string> read_input(const CommandEnvironment& env, std::string_view option,
                               const std::string& file) {
  const std::string named = std::string(option) + ": " + file;
  auto too_large = [&] {
    return Status(Errc::invalid_argument,
                  std::string(option) + ": " + (file == "-" ? "standard input" : file) +
                      ": larger than 64 MiB, the most memkit reads from one input");
  };
  Result<std::string> bytes = Status(Errc::io, "");
  if (file == "-") {
    if (!env.read_stdin) {
      return Status(Errc::invalid_argument,
                    std::string(option) + ": '-' (standard input) is not available here");
    }
    bytes = env.read_stdin(kMaxInputBytes);
  } else {
    // Resolved against the current directory, not the root or store; it is only read.
    const std::string path =
        !file.empty() && file.front() == '/' ? file : env.current_directory + "/" + file;
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (!error && size > kMaxInputBytes) return too_large();  // refused before it is read
    bytes = posix_file_system().read_file(path);
  }
  if (!bytes) return Status(Errc::invalid_argument, named + ": cannot be read");
  if (bytes->size() > kMaxInputBytes) return too_large();
  return bytes;
}

Finding unfinished_transaction(std::string remediation) {
  return make_finding("MK-TXN-001", Severity::blocker, "",
                      "an unfinished transaction is in .memkit/txn", std::move(remediation));
}

bool has_flag(const CommandRequest& inv, std::string_view flag) {
  for (const std::string& f : inv.flags) {
    if (f == flag) return true;
  }
  return false;
}

std::optional<std::string> option(const CommandRequest& inv, std::string_view name) {
  const auto it = inv.options.find(std::string(name));
  if (it == inv.options.end()) return std::nullopt;
  return it->second;
}

Result<std::uint64_t> count_option(const CommandRequest& inv, std::string_view name,
                                   std::uint64_t fallback) {
  const std::optional<std::string> text = option(inv, name);
  if (!text) return fallback;
  std::uint64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [at, ec] = std::from_chars(text->data(), end, value);
  if (text->empty() || ec != std::errc() || at != end) {
    return Status(Errc::invalid_argument, std::string(name) +
                                              ": expected a non-negative integer, got '" + *text +
                                              "'");
  }
  return value;
}

std::optional<ListLimits> list_limits(const CommandRequest& inv, const CommandEnvironment& env,
                                      CommandReply& reply) {
  const bool all = has_flag(inv, "--all");
  if (all && option(inv, "--limit")) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "--limit, --all: give one of them")));
    return std::nullopt;
  }
  if (option(inv, "--limit")) {
    const Result<std::uint64_t> limit = count_option(inv, "--limit", 0);
    if (!limit) {
      reply.findings.push_back(finding_from(limit.status()));
      return std::nullopt;
    }
    return ListLimits{*limit, *limit};
  }
  if (!all && env.stdout_is_terminal) return ListLimits{kTerminalListItems, std::nullopt};
  return ListLimits{};
}

namespace {
Status no_positionals(const CommandRequest& inv) {
  if (inv.positionals.empty()) return Status();
  return Status(Errc::invalid_argument, "unexpected argument '" + inv.positionals[0] + "'");
}
}  // namespace

// What every command checks first: no stray positional (unless it takes some), and the clock;
// every command reads it, so a bad --now fails the same way everywhere.
std::optional<ClockReading> start_command(const CommandRequest& inv, const CommandEnvironment& env,
                                          CommandReply& reply, bool takes_positionals) {
  if (Status extra = no_positionals(inv); !extra.ok() && !takes_positionals) {
    reply.findings.push_back(finding_from(extra));
    return std::nullopt;
  }
  Result<ClockReading> now = clock_of(inv, env);
  if (!now) {
    reply.findings.push_back(finding_from(now.status()));
    return std::nullopt;
  }
  return *now;
}

}  // namespace commands_detail

namespace {

using commands_detail::run_curated;
using commands_detail::run_context;
using commands_detail::run_bench;
using commands_detail::run_agent_init;
using commands_detail::run_search;
using commands_detail::run_custodian;
using commands_detail::run_memorybox;
using commands_detail::run_tiers;

// Paths in output are relative to the current directory and never absolute (spec README.md).
std::string display_path(const std::string& given, const CommandEnvironment& env) {
  const std::filesystem::path path(given);
  if (!path.is_absolute()) return path.lexically_normal().generic_string();
  return path.lexically_relative(env.current_directory).generic_string();
}

void run_markdown_units(const CommandRequest& inv, const CommandEnvironment& env,
                        CommandReply& reply) {
  if (inv.positionals.size() != 1) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "markdown units: expected exactly one FILE")));
    return;
  }
  const std::string path = display_path(inv.positionals[0], env);
  // A read-only tool may follow a link to the file the user named; only writes refuse links.
  std::error_code resolve_error;
  const std::filesystem::path resolved =
      std::filesystem::canonical(inv.positionals[0], resolve_error);
  const std::string target = resolve_error ? inv.positionals[0] : resolved.string();
  Result<std::string> bytes = posix_file_system().read_file(target);
  if (!bytes) {
    Status failed = bytes.status();
    std::string message = failed.message();
    // Name the file as the user will recognise it, not as the OS spelled it.
    if (message.rfind(target, 0) == 0) message = path + message.substr(target.size());
    Finding finding = make_fatal("MK-IO-001", path, message);
    reply.findings.push_back(std::move(finding));
    return;
  }
  const Document doc = parse_markdown(std::move(bytes).value());
  if (const auto& issue = doc.parse_error()) {
    reply.findings.push_back(
        make_finding("MK-PARSE-001", Severity::error, path, describe_issue(*issue, path)));
  }
  if (const auto& issue = doc.utf8_error()) {
    reply.findings.push_back(
        make_finding("MK-UTF8-001", Severity::error, path, describe_issue(*issue, path)));
  }
  if (inv.format == OutputFormat::json) {
    reply.data = fixed(document_json(doc));
    return;
  }
  reply.text = fixed(units_text(doc, Style{env.stdout_is_terminal && !env.no_colour}));
}

}  // namespace

namespace {

// The reply of a command an exception stopped: only the finding, none of its partial data.
CommandReply stopped(const std::string& command, const char* code, const std::string& message) {
  CommandReply reply;
  reply.command = command;
  reply.findings.push_back(
      make_fatal(code, "", message, "run the group's `recover` if the command was writing"));
  return reply;
}

}  // namespace

CommandRequest request_for(const CommandSpec& spec) {
  CommandRequest request;
  request.group = std::string(spec.group);
  const std::string_view verb = spec.verb;
  const std::size_t space = verb.find(' ');
  request.command = std::string(verb.substr(0, space));
  if (space != std::string_view::npos) request.positionals.emplace_back(verb.substr(space + 1));
  return request;
}

void set_root_arguments(const CommandSpec& spec, const std::string& root,
                        const std::string& memory_dir, CommandRequest& request) {
  for (const ArgumentSpec& a : spec.arguments) {
    if (!a.root) continue;
    if (a.name != "--memory-dir") {
      request.options[std::string(a.name)] = root;
    } else if (!memory_dir.empty()) {
      request.options[std::string(a.name)] = memory_dir;
    }
  }
}

CommandReply execute(const CommandRequest& request, const CommandEnvironment& env) {
  CommandReply reply;
  reply.command = request.group + (request.command.empty() ? "" : " " + request.command);
  // The command the request names, and what it takes: the one check of every door (the CLI's
  // parser resolves the command the same way; a request built elsewhere, the C ABI's, meets it
  // here).
  if (request.group.empty()) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "missing group; see memkit --help")));
    return reply;
  }
  std::vector<std::string> words;
  if (!request.command.empty()) words.push_back(request.command);
  words.insert(words.end(), request.positionals.begin(), request.positionals.end());
  std::size_t verb_words = 0;
  const Result<const CommandSpec*> spec = resolve_command(request.group, words, &verb_words);
  if (!spec) {
    reply.findings.push_back(finding_from(spec.status()));
    return reply;
  }
  if (*spec == nullptr || (request.command.empty() && !(*spec)->verb.empty())) {
    reply.findings.push_back(finding_from(
        Status(Errc::invalid_argument, "missing command for '" + request.group +
                                           "'; see memkit " + request.group + " --help")));
    return reply;
  }
  reply.command = (*spec)->name();
  if (const GroupSpec* group = find_group((*spec)->group);
      group != nullptr && group->workspace == "server") {
    reply.findings.push_back(finding_from(Status(
        Errc::invalid_argument, reply.command + ": a server the CLI runs (`memkit " +
                                    reply.command + "`), on its standard input and output")));
    return reply;
  } else if (group != nullptr && group->workspace == "cli" && !env.cli) {
    reply.findings.push_back(finding_from(Status(
        Errc::invalid_argument,
        reply.command + ": the CLI's alone (`memkit " + reply.command + "`): it times memkit")));
    return reply;
  }
  if (Status taken = check_arguments(**spec, request.options, request.flags); !taken.ok()) {
    reply.findings.push_back(finding_from(taken));
    return reply;
  }
  // No exception leaves a command: running out of memory (or a bug) is a finding like any other,
  // with what the command had not yet written left unwritten. A write it had begun is atomic or
  // journalled, so the files hold the old or the new bytes, as after a crash.
  try {
    if (request.group == "custodian") {
      run_custodian(request, env, reply);
    } else if (request.group == "memorybox") {
      run_memorybox(request, env, reply);
    } else if (request.group == "tiers") {
      run_tiers(request, env, reply);
    } else if (request.group == "curated") {
      run_curated(request, env, reply);
    } else if (request.group == "search") {
      run_search(request, env, reply);
    } else if (request.group == "context") {
      run_context(request, env, reply);
    } else if (request.group == "agent") {
      run_agent_init(request, env, reply);
    } else if (request.group == "bench") {
      run_bench(request, env, reply);
    } else {
      run_markdown_units(request, env, reply);
    }
  } catch (const std::bad_alloc&) {
    reply = stopped(reply.command, "MK-MEM-001", "out of memory; the command stopped");
  } catch (const std::exception& e) {
    reply = stopped(reply.command, "MK-INTERNAL-001",
                    std::string("internal error: ") + e.what() + "; the command stopped");
  }
  return reply;
}

void write_reply_json(const CommandReply& reply, const TextSink& sink) {
  std::vector<Finding> findings = reply.findings;
  sort_findings(findings);
  const JsonWriter data =
      reply.data ? reply.data : JsonWriter([](const TextSink& out) { out("{}"); });
  write_envelope_json(reply.command, data, findings, sink);
}

}  // namespace memkit
