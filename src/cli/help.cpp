// The CLI's help, made from the command table (commands/table.hpp): nothing here names a command.
// The same words as text (`--help`) and as roff (`memkit man`, for man(1)).
#include "cli/help.hpp"

#include <algorithm>
#include <cstdio>

#include "memkit/version.hpp"
#include "text/utf8_decode.hpp"

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

// `text` with a capital first letter, unless it starts with memkit's name, which has none.
std::string capitalised(std::string_view text) {
  std::string out(text);
  if (text.rfind("memkit", 0) == 0) return out;
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') {
    out[0] = static_cast<char>(out[0] - 'a' + 'A');
  }
  return out;
}

// What running the command does to the files, as a sentence.
std::string_view effect_sentence(const CommandSpec& c) {
  return c.effect == CommandEffect::plans
             ? "A dry run prints the plan and its Plan ID; --apply --confirm-plan ID writes it."
         : c.effect == CommandEffect::reads ? "It writes nothing."
                                            : "It writes directly.";
}

}  // namespace

const std::vector<BuiltinCommand>& builtin_commands() {
  static const std::vector<BuiltinCommand> builtins = {
      {"help", "[GROUP [COMMAND]]", "a group's commands, or a command's arguments"},
      {"commands", "", "every command on one line; with --format json, the whole command table"},
      {"completion", "bash|zsh|fish", "the shell's completion script for every command"},
      {"man", "[GROUP]", "the manual page memkit(1), or memkit-GROUP(1), in roff"},
  };
  return builtins;
}

const BuiltinCommand* find_builtin(std::string_view name) noexcept {
  for (const BuiltinCommand& b : builtin_commands()) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

std::string top_help() {
  std::string out =
      "usage: memkit <group> <command> [arguments] [--format text|json] [--now TIME] "
      "[--lock-timeout SECONDS]\n\ngroups:\n";
  for (const GroupSpec& g : command_groups()) {
    std::string head = "  " + std::string(g.name);
    head.append(14 - head.size(), ' ');
    out += head + std::string(g.summary) + "\n";
  }
  out += "\nbuilt-ins:\n";
  for (const BuiltinCommand& b : builtin_commands()) {
    std::string head = "  " + std::string(b.name);
    head.append(14 - head.size(), ' ');
    out += head + std::string(b.summary) + "\n";
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
                                             : c.effect == CommandEffect::reads ? "; writes nothing"
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
  out += std::string(effect_sentence(c)) + "\n";
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

std::string builtin_help(const BuiltinCommand& builtin) {
  std::string out = "usage: memkit " + std::string(builtin.name);
  if (!builtin.arguments.empty()) out += " " + std::string(builtin.arguments);
  return out + "\n\n" + wrapped(capitalised(builtin.summary) + ", on standard output.", 0);
}

std::string commands_text() {
  std::string out;
  for (const CommandSpec& c : command_table()) {
    out += "memkit " + synopsis(c) + "\n";
  }
  return out;
}

// ---- man pages (memkit man [GROUP]) -----------------------------------------------------------

namespace {

// `text` as roff text: a backslash, a double quote and any non-ASCII character as an escape, a
// leading dot or quote made plain text. A hyphen becomes a minus sign (\-) where the user would
// type it: everywhere in `code` (an option, a verb, a choice), and in prose within a word that
// starts with one ("--memory-dir"), so that it can be copied and searched for.
std::string roff(std::string_view text, bool code = false) {
  std::string out;
  bool word_start = true;
  bool typed = code;
  std::size_t i = 0;
  while (i < text.size()) {
    const detail::DecodedChar d = detail::decode_char(detail::byte_data(text) + i, text.size() - i);
    i += d.size;
    const char32_t c = d.cp;
    if (c == ' ' || c == '\n' || c == '\t') {
      out += ' ';
      word_start = true;
      typed = code;
      continue;
    }
    if (word_start && c == '-') typed = true;
    word_start = word_start && (c == '(' || c == '`' || c == '"' || c == '\'' || c == '[');
    if (c == '\\') {
      out += "\\e";
    } else if (c == '"') {
      out += "\\(dq";
    } else if (c == '-') {
      out += typed ? "\\-" : "-";
    } else if (c >= 0x80) {
      char escape[16];
      std::snprintf(escape, sizeof escape, "\\[u%04X]", static_cast<unsigned>(c));
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

// What the user types, in bold.
std::string roff_bold(std::string_view typed) { return "\\fB" + roff(typed, true) + "\\fR"; }

// A placeholder ("DIR", "[GROUP [COMMAND]]", "soft|hard|purge"): its words in italics, the
// brackets and bars that join them in roman.
std::string roff_placeholder(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const bool word = text.find_first_of("[]| ") != 0;
    const std::size_t end = word ? text.find_first_of("[]| ") : text.find_first_not_of("[]| ");
    const std::string_view run = text.substr(0, end);
    out += word ? "\\fI" + roff(run, true) + "\\fR" : roff(run, true);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end);
  }
  return out;
}

// "--type WORD", "--apply", "MESSAGE", as roff.
std::string roff_spelled(const ArgumentSpec& a) {
  if (a.positional) return roff_placeholder(a.name);
  if (a.placeholder.empty()) return roff_bold(a.name);
  return roff_bold(a.name) + " " + roff_placeholder(a.placeholder);
}

// A .TP paragraph per argument: its spelling, then its doc, type, choices, default and need.
std::string roff_arguments(const std::vector<ArgumentSpec>& arguments) {
  std::string out;
  for (const ArgumentSpec& a : arguments) {
    out += ".TP\n" + roff_spelled(a) + "\n" + roff(capitalised(a.doc)) + ".\n";
    if (a.type == ArgumentType::boolean) continue;
    out += ".br\nType: " + std::string(argument_type_name(a.type));
    if (!a.choices.empty()) {
      out += "; one of:";
      for (std::size_t i = 0; i < a.choices.size(); ++i) {
        out += (i == 0 ? " " : ", ") + roff_bold(a.choices[i]);
      }
    }
    if (!a.default_value.empty()) out += "; default: " + roff_bold(a.default_value);
    if (a.required) out += "; required";
    out += "\n";
  }
  return out;
}

// A command line as roff: "memkit custodian add" in bold, then its positionals and required
// options, then "[options]" when it has others.
std::string roff_synopsis(const CommandSpec& c) {
  std::string out = roff_bold("memkit " + c.name());
  bool optional = false;
  for (const ArgumentSpec& a : c.arguments) {
    if (a.positional || a.required) {
      out += " " + roff_spelled(a);
    } else {
      optional = true;
    }
  }
  return out + (optional ? " [\\fIoptions\\fR]" : "");
}

std::string roff_title(std::string_view page, std::string_view name, std::string_view summary) {
  std::string upper(page);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return ".\\\" " + std::string(page) +
         "(1), made from memkit's command table by `memkit man`; edit that instead.\n.TH " +
         roff(upper, true) + " 1 \"\" \"memkit " + roff(version(), true) +
         "\" \"memkit manual\"\n"
         // No hyphenation: a word cut at a line's end could be an option's own hyphen.
         ".nh\n.SH NAME\n" +
         roff(name, true) + " \\- " + roff(summary) + "\n";
}

// The sections every page ends with.
std::string roff_common_sections(std::string_view page) {
  std::string out = ".SH \"GLOBAL OPTIONS\"\nEvery command takes these, anywhere on the line.\n" +
                    roff_arguments(global_options());
  out += R"(.SH "EXIT STATUS"
.TP
.B 0
Success: the command did what it was asked; its findings, if any, are warnings or notes.
.TP
.B 1
A check failed: a finding is an error (a budget over its limit, a gate that refused).
.TP
.B 2
A blocker or bad input: an unknown group, command or option, a bad value, a file that does not
parse, a plan whose ID no longer matches, a lock held too long, an unfinished transaction.
Bad input writes nothing.
)";
  out += ".SH \"SEE ALSO\"\n";
  std::vector<std::string> pages;
  if (page != "memkit") pages.emplace_back("memkit");
  for (const GroupSpec& g : command_groups()) {
    if ("memkit-" + std::string(g.name) != page) pages.push_back("memkit-" + std::string(g.name));
  }
  for (std::size_t i = 0; i < pages.size(); ++i) {
    out += ".BR " + roff(pages[i], true) + " (1)" + (i + 1 < pages.size() ? "," : "") + "\n";
  }
  return out;
}

}  // namespace

std::string man_page() {
  std::string out =
      roff_title("memkit", "memkit", "keep AI agents' memory files small, true and safe");
  out += ".SH SYNOPSIS\n.B memkit\n\\fIgroup\\fR [\\fIcommand\\fR] [\\fIarguments\\fR]";
  for (const ArgumentSpec& a : global_options()) {
    if (a.type != ArgumentType::boolean) out += " [" + roff_spelled(a) + "]";
  }
  out += "\n";
  for (const BuiltinCommand& b : builtin_commands()) {
    out += ".br\n" + roff_bold("memkit " + std::string(b.name)) +
           (b.arguments.empty() ? "" : " " + roff_placeholder(b.arguments)) + "\n";
  }
  out += R"(.SH DESCRIPTION
memkit keeps the memory files of AI coding agents small, true and safe. It parses them without
losing a byte, measures them against their token and line budgets, checks them against their
layout's rules, and finds memory across every layout under a folder.
.PP
A command that removes or moves memory is a plan: a dry run prints it with its Plan ID, and
\fB\-\-apply \-\-confirm\-plan\fR \fIID\fR writes it, only if the files are still as planned.
Additive writes apply directly. Every write takes the root's lock and replaces a file atomically,
several files through a journal, so that a crash leaves each file whole, old or new.
.PP
Each command reports in text, or with \fB\-\-format json\fR as one JSON envelope.
Its group's page, \fBmemkit\-\fIgroup\fR(1), lists its arguments, as does
\fBmemkit\fR \fIgroup\fR \fIcommand\fR \fB\-\-help\fR.
.SH GROUPS
)";
  for (const GroupSpec& g : command_groups()) {
    out += ".TP\n" + roff_bold(g.name) + "\n" + roff(capitalised(g.summary)) + "; see \\fB" +
           roff("memkit-" + std::string(g.name), true) + "\\fR(1).\n";
  }
  out += ".SH \"BUILT-IN COMMANDS\"\n";
  for (const BuiltinCommand& b : builtin_commands()) {
    out += ".TP\n" + roff_bold("memkit " + std::string(b.name)) +
           (b.arguments.empty() ? "" : " " + roff_placeholder(b.arguments)) + "\n" +
           roff(capitalised(b.summary)) + ".\n";
  }
  out += roff_common_sections("memkit");
  // Between EXIT STATUS and SEE ALSO, in man-pages(7)'s order.
  const std::size_t see_also = out.find(".SH \"SEE ALSO\"");
  out.insert(see_also, R"(.SH ENVIRONMENT
.TP
.B MEMKIT_NOW
The time every command takes as now (RFC 3339 with its offset), when \fB\-\-now\fR is not given.
.TP
.B MEMKIT_STORE
The curated store, when \fB\-\-store\fR is not given; else \fI./curated\fR.
.TP
.B MEMKIT_WORKSPACE
The curated workspace, when \fB\-\-workspace\fR is not given.
.TP
.B MEMKIT_ACTOR
Who writes curated memory, when \fB\-\-actor\fR is not given; none is the human owner.
.TP
.B MEMKIT_SYNC_CONNINFO
The PostgreSQL connection string of \fBmemkit memorybox sync \-\-remote postgres\fR, when no
\fB\-\-conninfo\-file\fR is given; never printed. libpq's own \fBPG\fR* variables apply too.
.TP
.B NO_COLOR
When set, text output has no colour.
.TP
.B NO_PROGRESS\fR, \fBMEMKIT_NO_PROGRESS
When either is set, long work draws no progress line on stderr (as with \fB\-\-quiet\fR).
.SH FILES
.TP
.I .memkit/
memkit's state under each root it writes: \fIlock\fR, the write lock; \fItxn/\fR, the journal
of a write a crash interrupted, which each group's \fBrecover\fR finishes or rolls back;
\fIindex/\fR, the search index; the records that \fBundo\fR reads. Its \fI.gitignore\fR keeps it
out of version control.
)");
  return out;
}

std::string group_man_page(const GroupSpec& group) {
  const std::string page = "memkit-" + std::string(group.name);
  std::string out = roff_title(page, page, group.summary);
  out += ".SH SYNOPSIS\n";
  bool first = true;
  for (const CommandSpec& c : command_table()) {
    if (c.group != group.name) continue;
    out += (first ? "" : ".br\n") + roff_synopsis(c) + "\n";
    first = false;
  }
  out += ".SH DESCRIPTION\n" + roff(capitalised(group.summary)) + ".\n";
  if (!group.notes.empty()) out += ".PP\n" + roff(group.notes) + "\n";
  out +=
      ".PP\nEvery command also takes the global options below; \\fBmemkit\\fR(1) lists the "
      "groups.\n.SH COMMANDS\n";
  for (const CommandSpec& c : command_table()) {
    if (c.group != group.name) continue;
    out += ".SS \"" + roff_synopsis(c) + "\"\n" + roff(capitalised(c.summary)) + ". " +
           roff(effect_sentence(c)) + "\n";
    out += roff_arguments(c.arguments);
  }
  out += roff_common_sections(page);
  return out;
}

}  // namespace memkit::cli
