// Dispatch, the envelope, and the mapping from failures to findings.
#include "cli/app.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/help.hpp"
#include "cli/invocation.hpp"
#include "cli/progress_display.hpp"
#include "commands/commands.hpp"
#include "commands/text_view.hpp"
#include "json/json.hpp"
#include "mcp/server.hpp"
#include "memkit/version.hpp"
#include "text/shown_text.hpp"

namespace memkit::cli {
namespace {

using view::findings_text;
using view::Style;

int emit(const CommandReply& reply, const Invocation& inv, const Environment& env,
         std::ostream& out, std::ostream& err) {
  std::vector<Finding> findings = reply.findings;
  sort_findings(findings);
  const ExitClass exit_class = derive_exit_class(findings);
  std::size_t written = 0;
  const TextSink sink = [&](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    written += piece.size();
  };
  if (inv.format == Format::json) {
    write_reply_json(reply, sink);
    out << '\n';
  } else if (exit_class == ExitClass::fatal && !reply.text) {
    for (const Finding& f : findings) {
      err << "memkit: " << shown_text(f.message) << '\n';
      if (!f.remediation.empty()) err << "  " << shown_text(f.remediation) << '\n';
    }
  } else {
    // The human view, then every finding: those of the report and those the shell added.
    const Style style{env.stdout_is_terminal && !env.no_colour};
    if (reply.text) reply.text(sink);
    if (written != 0 && !findings.empty()) out << '\n';
    out << findings_text(findings, style);
  }
  return exit_code(exit_class);
}

// `memkit mcp`: the arguments checked as every command's are, then the server, until its input
// ends (mcp/server.hpp).
int serve_mcp(const Invocation& inv, const Environment& env, std::ostream& out, std::ostream& err) {
  CommandReply reply;
  reply.command = "mcp";
  const CommandSpec* spec = find_command("mcp", "");
  Status taken = check_arguments(*spec, inv.options, inv.flags);
  if (taken.ok() && !inv.positionals.empty()) {
    taken = Status(Errc::invalid_argument, "mcp takes no " + shown_text(inv.positionals[0]));
  }
  const auto given = inv.options.find("--root");
  const auto dir = inv.options.find("--memory-dir");
  Result<mcp::ServerOptions> options = mcp::server_options(
      given == inv.options.end() ? "." : given->second, env.current_directory,
      dir == inv.options.end() ? std::nullopt : std::optional<std::string>(dir->second));
  if (taken.ok() && !options) taken = options.status();
  if (!taken.ok()) {
    reply.findings.push_back(finding_from(taken));
    return emit(reply, inv, env, out, err);
  }
  Environment served = env;
  served.cli = false;  // an agent runs what every door has
  if (inv.now) served.memkit_now = inv.now;                  // --now: every command's clock
  options->lock_timeout_seconds = inv.lock_timeout_seconds;  // --lock-timeout: every write's
  mcp::serve(*mcp::stdio_channel(), *options, served);
  return 0;
}

}  // namespace

// `memkit help [GROUP [COMMAND]]`, `memkit GROUP [COMMAND] --help`: the words after `help` (or
// before --help) name what to explain.
int help(const Invocation& inv, const std::vector<std::string>& words, const Environment& env,
         std::ostream& out, std::ostream& err) {
  if (words.empty()) {
    out << top_help();
    return 0;
  }
  if (const BuiltinCommand* builtin = find_builtin(words[0]);
      builtin != nullptr && words.size() == 1) {
    out << builtin_help(*builtin);
    return 0;
  }
  std::size_t verb_words = 0;
  const Result<const CommandSpec*> command = resolve_command(words, &verb_words);
  if (!command) {
    CommandReply reply;
    reply.command = "help";
    reply.findings.push_back(finding_from(command.status()));
    return emit(reply, inv, env, out, err);
  }
  if (*command != nullptr) {
    out << command_help(**command);
  } else {
    out << group_help(*find_group(words[0]));
  }
  return 0;
}

int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err) {
  Result<Invocation> parsed = parse_invocation(args);
  if (!parsed) {
    // Without a parse there is no format either; look for --format json by hand so that
    // scripts still receive an envelope for their typo.
    Invocation fallback;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == "--format" && args[i + 1] == "json") fallback.format = Format::json;
    }
    for (const std::string& a : args) {
      if (a == "--format=json") fallback.format = Format::json;
    }
    CommandReply reply;
    const std::vector<std::string> words = plain_words(args);
    for (std::size_t w = 0; w < words.size() && w < 2; ++w) {
      reply.command += (w == 0 ? "" : " ") + words[w];
    }
    reply.findings.push_back(finding_from(parsed.status()));
    return emit(reply, fallback, env, out, err);
  }
  const Invocation& inv = *parsed;
  if (inv.version) {
    if (inv.format == Format::json) {
      CommandReply reply;
      reply.command = "version";
      reply.data = commands_detail::fixed(R"({"version":")" + std::string(version()) + R"("})");
      return emit(reply, inv, env, out, err);
    }
    out << "memkit " << version() << '\n';
    return 0;
  }
  if (inv.help) {
    std::vector<std::string> words;
    if (!inv.group.empty()) words.push_back(inv.group);
    words.insert(words.end(), inv.positionals.begin(), inv.positionals.end());
    return help(inv, words, env, out, err);
  }
  if (inv.group == "help") {
    std::vector<std::string> words;
    if (!inv.command.empty()) words.push_back(inv.command);
    words.insert(words.end(), inv.positionals.begin(), inv.positionals.end());
    return help(inv, words, env, out, err);
  }
  if (inv.group == "commands") {
    if (inv.format == Format::json) {
      out << command_table_json() << '\n';
    } else {
      out << commands_text();
    }
    return 0;
  }
  // The built-ins that generate files for packages write only to stdout and open no workspace.
  if (inv.group == "completion") {
    const std::optional<std::string> script =
        inv.positionals.empty() ? completion_script(inv.command) : std::nullopt;
    if (script) {
      out << *script;
      return 0;
    }
    err << "memkit: completion: the shell to complete for: bash, zsh or fish\n";
    return 2;
  }
  if (inv.group == "man") {
    if (inv.command.empty()) {
      out << man_page();
      return 0;
    }
    if (!inv.positionals.empty()) {
      err << "memkit: man: one group at most: memkit man [GROUP]\n";
      return 2;
    }
    if (const GroupSpec* group = find_group(inv.command); group != nullptr) {
      out << group_man_page(*group);
      return 0;
    }
    std::vector<std::string> names;
    for (const GroupSpec& g : command_groups()) names.emplace_back(g.name);
    const std::optional<std::string> suggestion = closest(inv.command, names);
    err << "memkit: man: no group '" << shown_text(inv.command) << "'"
        << (suggestion ? " (did you mean '" + *suggestion + "'?)" : std::string())
        << "; a page is memkit(1) or one group's: memkit man [GROUP]\n";
    return 2;
  }
  if (inv.group.empty() && inv.format == Format::json) {
    CommandReply reply;
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "missing group; see memkit --help")));
    return emit(reply, inv, env, out, err);
  }
  if (inv.group.empty()) {
    out << top_help();
    return 2;
  }
  if (inv.group == "mcp") return serve_mcp(inv, env, out, err);
  CommandReply reply;
  {
    // Stopped (its line wiped) before the reply is printed.
    const ProgressDisplay display(err, inv.format == Format::text && !inv.quiet &&
                                           env.stderr_is_terminal && !env.no_progress);
    reply = execute(inv, env);
  }
  return emit(reply, inv, env, out, err);
}

}  // namespace memkit::cli
