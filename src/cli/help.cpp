// The CLI's help, made from the command table (commands/table.hpp): nothing here names a command.
#include "cli/help.hpp"

#include <algorithm>

namespace memkit::cli {
namespace {

constexpr std::size_t kWidth = 100;

// `text` as lines of at most kWidth columns (counting bytes), each starting with `indent`.
std::string wrapped(std::string_view text, std::size_t indent) {
  std::string out;
  std::size_t column = 0;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    if (column == 0) {
      out.append(indent, ' ');
      column = indent;
    } else if (column + 1 + word.size() > kWidth) {
      out += '\n';
      out.append(indent, ' ');
      column = indent;
    } else {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return out + "\n";
}

// "--type WORD", "--apply", "MESSAGE".
std::string spelled(const ArgumentSpec& a) {
  if (a.positional || a.placeholder.empty()) return std::string(a.name);
  return std::string(a.name) + " " + std::string(a.placeholder);
}

// The command's name with its positionals and required options: "search QUERY", "sync push".
std::string synopsis(const CommandSpec& c) {
  std::string out = c.name();
  for (const ArgumentSpec& a : c.arguments) {
    if (a.positional || a.required) out += " " + spelled(a);
  }
  return out;
}

// One line per argument: its spelling, then its doc with choices, default and need.
std::string argument_lines(const std::vector<ArgumentSpec>& arguments) {
  std::size_t width = 0;
  for (const ArgumentSpec& a : arguments) width = std::max(width, spelled(a).size());
  std::string out;
  for (const ArgumentSpec& a : arguments) {
    std::string doc(a.doc);
    if (!a.choices.empty() && a.placeholder == "WORD") {  // else the placeholder shows them
      doc += " (";
      for (std::size_t i = 0; i < a.choices.size(); ++i) {
        doc += (i == 0 ? "" : ", ") + std::string(a.choices[i]);
      }
      doc += ")";
    }
    if (!a.default_value.empty()) doc += "; default " + std::string(a.default_value);
    if (a.required && !a.positional) doc += "; required";
    std::string head = "  " + spelled(a);
    head.append(width + 4 - head.size(), ' ');
    const std::string body = wrapped(doc, head.size());
    out += head + body.substr(head.size());
  }
  return out;
}

}  // namespace

std::string top_help() {
  std::string out =
      "usage: memkit <group> <command> [arguments] [--format text|json] [--now TIME] "
      "[--lock-timeout SECONDS]\n\ngroups:\n";
  for (const GroupSpec& g : command_groups()) {
    std::string head = "  " + std::string(g.name);
    head.append(14 - head.size(), ' ');
    out += head + std::string(g.summary) + "\n";
  }
  out +=
      "\nRun `memkit <group> --help` for its commands, `memkit <group> <command> --help` for a\n"
      "command's arguments, `memkit commands --format json` for the whole command table, and\n"
      "`source <(memkit completion bash)` to complete them in bash.\n";
  return out;
}

std::string group_help(const GroupSpec& group) {
  std::string out = "usage: memkit " + std::string(group.name) + " <command> [arguments]\n\n";
  out += "commands:\n";
  for (const CommandSpec& c : command_table()) {
    if (c.group != group.name) continue;
    out += "  " + synopsis(c).substr(group.name.size() + 1) + "\n";
    out += wrapped(std::string(c.summary) + (c.effect == CommandEffect::plans
                                                 ? " (a plan: --apply --confirm-plan ID writes it)"
                                             : c.effect == CommandEffect::reads
                                                 ? "; writes nothing"
                                                 : ""),
                   6);
  }
  if (!group.notes.empty()) out += "\n" + wrapped(group.notes, 0);
  out += "\nRun `memkit " + std::string(group.name) +
         " <command> --help` for a command's arguments.\n";
  return out;
}

std::string command_help(const CommandSpec& c) {
  std::string out = "usage: memkit " + synopsis(c);
  if (std::any_of(c.arguments.begin(), c.arguments.end(),
                  [](const ArgumentSpec& a) { return !a.positional && !a.required; })) {
    out += " [options]";
  }
  out += "\n\n" + wrapped(std::string(c.summary) + ".", 0);
  out += c.effect == CommandEffect::plans
             ? "A dry run prints the plan and its Plan ID; --apply --confirm-plan ID writes it.\n"
         : c.effect == CommandEffect::reads ? "It writes nothing.\n"
                                            : "It writes directly.\n";
  std::vector<ArgumentSpec> positionals;
  std::vector<ArgumentSpec> options;
  for (const ArgumentSpec& a : c.arguments) (a.positional ? positionals : options).push_back(a);
  if (!positionals.empty()) out += "\narguments:\n" + argument_lines(positionals);
  if (!options.empty()) out += "\noptions:\n" + argument_lines(options);
  out += "\nglobal options:\n" + argument_lines(global_options());
  if (const GroupSpec* g = find_group(c.group); g != nullptr && !g->notes.empty()) {
    out += "\n" + wrapped(g->notes, 0);
  }
  return out;
}

std::string commands_text() {
  std::string out;
  for (const CommandSpec& c : command_table()) {
    out += "memkit " + synopsis(c) + "\n";
  }
  return out;
}

}  // namespace memkit::cli
