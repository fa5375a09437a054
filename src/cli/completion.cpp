// `memkit completion bash|zsh|fish`: each shell's completion script, made from the command table
// (commands/table.hpp), so every group, verb, option and choice the table has completes in all
// three.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/help.hpp"
#include "commands/table.hpp"

namespace memkit::cli {
namespace {

// `text` as one bash or zsh word in single quotes.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// `text` as one fish word in single quotes, where a backslash escapes as well as a quote.
std::string fish_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string joined(const std::set<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> out;
  while (!name.empty()) {
    const std::size_t space = name.find(' ');
    out.emplace_back(name.substr(0, space));
    name = space == std::string_view::npos ? std::string_view() : name.substr(space + 1);
  }
  return out;
}

// The options that take a value, of any command: the parser reads the word after one as its value
// whatever the command (cli/invocation.cpp), so the scripts never take it for a command's word.
std::set<std::string> valued_options() {
  std::set<std::string> out;
  const auto add = [&out](const ArgumentSpec& a) {
    if (!a.positional && a.type != ArgumentType::boolean) out.emplace(a.name);
  };
  for (const ArgumentSpec& a : global_options()) add(a);
  for (const CommandSpec& c : command_table()) {
    for (const ArgumentSpec& a : c.arguments) add(a);
  }
  return out;
}

// A word that may come next, and what it names.
struct NextWord {
  std::string word;
  std::string summary;
};
using NextWords = std::vector<std::pair<std::string, std::vector<NextWord>>>;

void add_next(NextWords& next, const std::string& typed, std::string_view word,
              std::string_view summary) {
  auto at = std::find_if(next.begin(), next.end(),
                         [&typed](const auto& entry) { return entry.first == typed; });
  if (at == next.end()) at = next.insert(next.end(), {typed, {}});
  std::vector<NextWord>& words = at->second;
  if (std::none_of(words.begin(), words.end(),
                   [word](const NextWord& w) { return w.word == word; })) {
    words.push_back({std::string(word), std::string(summary)});
  }
}

// The words that may follow each run of plain words a command line can start with: "" -> the
// groups and the built-ins, "custodian" -> its verbs, "memorybox sync" -> push, pull..., "help" and
// "man" -> the groups, "help custodian" -> its verbs, "completion" -> the shells. In the table's
// order, each word once. zsh and fish offer these (bash keeps its own list of command lines).
NextWords next_words() {
  NextWords next;
  for (const GroupSpec& g : command_groups()) add_next(next, "", g.name, g.summary);
  for (const BuiltinCommand& b : builtin_commands()) add_next(next, "", b.name, b.summary);
  for (const CommandSpec& c : command_table()) {
    const std::vector<std::string> words = words_of(c.name());
    std::string typed;
    for (std::size_t k = 1; k < words.size(); ++k) {
      typed += (k == 1 ? "" : " ") + words[k - 1];
      add_next(next, typed, words[k], k + 1 == words.size() ? c.summary : std::string_view());
    }
  }
  // A word between the group and the last word of its commands ("sync") names those last words.
  for (auto& entry : next) {
    for (NextWord& w : entry.second) {
      if (!w.summary.empty()) continue;
      const std::string after = (entry.first.empty() ? "" : entry.first + " ") + w.word;
      for (const auto& other : next) {
        if (other.first != after) continue;
        for (const NextWord& last : other.second) {
          w.summary += (w.summary.empty() ? "" : ", ") + last.word;
        }
      }
    }
  }
  const std::size_t table_prefixes = next.size();
  for (std::size_t i = 0; i < table_prefixes; ++i) {
    const std::string help_typed = next[i].first.empty() ? "help" : "help " + next[i].first;
    for (std::size_t w = 0; w < next[i].second.size(); ++w) {
      const NextWord word = next[i].second[w];  // a copy: add_next may grow `next`
      if (next[i].first.empty() && find_builtin(word.word) != nullptr) continue;
      add_next(next, help_typed, word.word, word.summary);
    }
  }
  for (const GroupSpec& g : command_groups()) add_next(next, "man", g.name, g.summary);
  for (const std::string_view shell : completion_shells()) {
    add_next(next, "completion", shell, "the completion script for " + std::string(shell));
  }
  return next;
}

// ---- bash ---------------------------------------------------------------------------------------

std::string bash_completion() {
  // Per command (its words, "custodian compact"): its options; per option of a command, or
  // global: the words it takes (choices), a path, or any value.
  std::string commands;
  std::string options;
  std::string values;
  std::set<std::string> global_flags;
  for (const ArgumentSpec& a : global_options()) {
    global_flags.insert(std::string(a.name));
    if (a.type == ArgumentType::boolean) continue;
    std::set<std::string> choices(a.choices.begin(), a.choices.end());
    values += "  [" + quoted("* " + std::string(a.name)) + "]=" +
              quoted(choices.empty() ? "?" : joined(choices)) + "\n";
  }
  for (const CommandSpec& c : command_table()) {
    const std::string name = c.name();
    commands += "  " + quoted(name) + "\n";
    std::set<std::string> own;
    for (const ArgumentSpec& a : c.arguments) {
      if (a.positional) continue;
      own.insert(std::string(a.name));
      if (a.type == ArgumentType::boolean) continue;
      std::set<std::string> choices(a.choices.begin(), a.choices.end());
      const std::string taken = !choices.empty()                ? joined(choices)
                                : a.type == ArgumentType::path ? std::string("@path")
                                                                : std::string("?");
      values += "  [" + quoted(name + " " + std::string(a.name)) + "]=" + quoted(taken) + "\n";
    }
    options += "  [" + quoted(name) + "]=" + quoted(joined(own)) + "\n";
  }
  // The built-ins' command lines: `help GROUP [COMMAND]`, `man [GROUP]`, `completion SHELL`.
  std::string builtins = "  'help'\n  'commands'\n  'man'\n";
  for (const CommandSpec& c : command_table()) builtins += "  " + quoted("help " + c.name()) + "\n";
  for (const GroupSpec& g : command_groups()) {
    builtins += "  " + quoted("man " + std::string(g.name)) + "\n";
  }
  for (const std::string_view shell : completion_shells()) {
    builtins += "  " + quoted("completion " + std::string(shell)) + "\n";
    options += "  [" + quoted("completion " + std::string(shell)) + "]=''\n";
  }
  return R"(# bash completion for memkit, made from its command table by `memkit completion bash`.
# Load it with `source <(memkit completion bash)`, or install it as
# /usr/share/bash-completion/completions/memkit.

_memkit_commands=(
)" + commands + builtins + R"()
declare -A _memkit_options=(
)" + options + R"()
# What an option takes: its words, @path for a file or folder, ? for any value. A flag is absent.
declare -A _memkit_values=(
)" + values + R"()
_memkit_globals=')" + joined(global_flags) +
         R"('

_memkit() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local words=() i=1 word command='' taken
  # The words before the cursor that are not options or their values.
  while (( i < COMP_CWORD )); do
    word=${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      command=${words[*]}
      if [[ -n ${_memkit_values["$command $word"]+x} || -n ${_memkit_values["* $word"]+x} ]]; then
        (( i++ ))
      fi
    else
      words+=("$word")
    fi
    (( i++ ))
  done
  # The longest run of those words that names a command.
  command=''
  local n=${#words[@]} k c
  for (( k = n; k >= 1; k-- )); do
    c=${words[*]:0:k}
    if [[ -n ${_memkit_options["$c"]+x} ]]; then command=$c; break; fi
  done
  if [[ $prev == -* ]]; then
    taken=${_memkit_values["$command $prev"]-${_memkit_values["* $prev"]-}}
    if [[ $taken == @path ]]; then
      COMPREPLY=($(compgen -f -- "$cur"))
      return
    elif [[ -n $taken && $taken != '?' ]]; then
      COMPREPLY=($(compgen -W "$taken" -- "$cur"))
      return
    elif [[ $taken == '?' ]]; then
      COMPREPLY=()
      return
    fi
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "${_memkit_options["$command"]-} $_memkit_globals" -- "$cur"))
    return
  fi
  # The next word of every command that starts with the words given, each once.
  local -A next=()
  local typed=${words[*]}
  for c in "${_memkit_commands[@]}"; do
    if (( n == 0 )); then
      next[${c%% *}]=1
    elif [[ $c == "$typed "* ]]; then
      c=${c#"$typed "}
      next[${c%% *}]=1
    fi
  done
  COMPREPLY=($(compgen -W "${!next[*]}" -- "$cur"))
}
complete -F _memkit memkit
)";
}

// ---- zsh ----------------------------------------------------------------------------------------

// `text` inside an _arguments spec's description ("[...]") or message: the characters that end
// those parts escaped.
std::string zsh_spec_text(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '[' || c == ']' || c == ':') out += '\\';
    out += c;
  }
  return out;
}

// What completes an argument's value: its choices, files (folders for a DIR), or nothing but the
// message.
std::string zsh_action(const ArgumentSpec& a) {
  if (!a.choices.empty()) {
    std::string out = "(";
    for (std::size_t i = 0; i < a.choices.size(); ++i) {
      for (const char c : a.choices[i]) {
        if (c == '\\' || c == ' ' || c == '(' || c == ')' || c == ':') out += '\\';
        out += c;
      }
      out += i + 1 == a.choices.size() ? ")" : " ";
    }
    return out;
  }
  if (a.type == ArgumentType::path) return a.placeholder == "DIR" ? "_files -/" : "_files";
  return " ";
}

// One _arguments spec: "--apply[doc]", "--type=[doc]:WORD:(a b)", "1:MESSAGE: ".
std::string zsh_spec(const ArgumentSpec& a, std::size_t position) {
  if (a.positional) {
    return std::to_string(position) + ":" + zsh_spec_text(a.name) + ":" + zsh_action(a);
  }
  const std::string described = std::string(a.name) + (a.type == ArgumentType::boolean ? "" : "=") +
                                "[" + zsh_spec_text(a.doc) + "]";
  if (a.type == ArgumentType::boolean) return described;
  return described + ":" + zsh_spec_text(a.placeholder) + ":" + zsh_action(a);
}

std::string zsh_completion() {
  std::string valued;
  for (const std::string& name : valued_options()) valued += (valued.empty() ? "" : "|") + name;
  std::string globals;
  for (const ArgumentSpec& a : global_options()) globals += "    " + quoted(zsh_spec(a, 0)) + "\n";
  std::string names;
  std::string cases;
  for (const CommandSpec& c : command_table()) {
    names += (names.empty() ? "" : "|") + quoted(c.name());
    cases += "    (" + quoted(c.name()) + ")\n      _arguments -S : \"${globals[@]}\"";
    std::size_t position = 0;
    for (const ArgumentSpec& a : c.arguments) {
      cases += " \\\n        " + quoted(zsh_spec(a, a.positional ? ++position : 0));
    }
    cases += " ;;\n";
  }
  std::string next_cases;
  for (const auto& entry : next_words()) {
    next_cases += "    (" + quoted(entry.first) + ") next=(";
    for (const NextWord& w : entry.second) {
      std::string item;
      for (const char c : w.word) {
        if (c == ':' || c == '\\') item += '\\';
        item += c;
      }
      next_cases += "\n      " + quoted(item + ":" + w.summary);
    }
    next_cases += ") ;;\n";
  }
  return R"(#compdef memkit
# zsh completion for memkit, made from its command table by `memkit completion zsh`.
# Install it as _memkit in a folder of $fpath, e.g. `memkit completion zsh > ~/.zfunc/_memkit` with
# `fpath=(~/.zfunc $fpath)` before compinit in ~/.zshrc, or load it after compinit with
# `source <(memkit completion zsh)`.

_memkit() {
  # The words before the cursor that are neither options nor their values (the command's words,
  # then its positionals), and where they are on the line.
  local -a typed at
  local -i i
  for (( i = 2; i < CURRENT; i++ )); do
    case ${words[i]} in
      ()" + valued + R"() (( i++ )) ;;
      (-*) ;;
      (*) typed+=("${words[i]}"); at+=($i) ;;
    esac
  done
  # The command: the longest run of those words that names one.
  local command=''
  local -i k
  for (( k = ${#typed}; k >= 1; k-- )); do
    case ${(j: :)typed[1,k]} in
      ()" + names + R"()
        command=${(j: :)typed[1,k]}
        break ;;
    esac
  done
  # _arguments reads the line without the command's words (without every plain word when it names
  # no command yet), so that it counts positionals from the command's first.
  local -a command_words=(${(s: :)command})
  local -i n=${#typed}
  [[ -n $command ]] && n=${#command_words}
  local -a kept=("${words[1]}")
  for (( i = 2; i <= ${#words}; i++ )); do
    (( ${at[(Ie)$i]} >= 1 && ${at[(Ie)$i]} <= n )) || kept+=("${words[i]}")
  done
  words=("${kept[@]}")
  (( CURRENT -= n ))
  local -a globals=(
)" + globals + R"(  )
  case $command in
)" + cases + R"(    (*)
      _arguments -S : "${globals[@]}" '1: :_memkit_next_word' ;;
  esac
}

# The words that may follow the plain words typed so far (_memkit's $typed): groups, verbs,
# built-ins, shells.
_memkit_next_word() {
  local -a next
  case ${(j: :)typed} in
)" + next_cases + R"(  esac
  _describe -t commands 'memkit command' next
}

# From $fpath this file is _memkit's body, run at the first completion: it defines the functions,
# then completes. Sourced, it registers _memkit for memkit instead.
if [[ ${funcstack[1]} == _memkit ]]; then
  _memkit "$@"
elif (( ${+functions[compdef]} )); then
  compdef _memkit memkit
else
  print -u2 'memkit: zsh completion: run compinit before loading it'
fi
)";
}

// ---- fish ---------------------------------------------------------------------------------------

// The `complete` switches of an argument's value: its choices, files (folders for a DIR), or any
// word but no file.
std::string fish_value(const ArgumentSpec& a) {
  if (!a.choices.empty()) {
    std::string choices;
    for (const std::string_view c : a.choices) {
      choices += (choices.empty() ? "" : " ") + std::string(c);
    }
    return " -x -a " + fish_quoted(choices);
  }
  if (a.type == ArgumentType::path) {
    return a.placeholder == "DIR" ? " -x -a '(__fish_complete_directories)'" : " -r -F";
  }
  return " -x";
}

// One `complete` line for an option, under `condition` (none: everywhere).
std::string fish_option(const ArgumentSpec& a, const std::string& condition) {
  std::string out = "complete -c memkit";
  if (!condition.empty()) out += " -n " + fish_quoted(condition);
  const std::string_view name(a.name);
  out += name.rfind("--", 0) == 0 ? " -l " + std::string(name.substr(2))
                                  : " -o " + std::string(name.substr(1));
  out += " -d " + fish_quoted(a.doc);
  if (a.type != ArgumentType::boolean) out += fish_value(a);
  return out + "\n";
}

std::string fish_completion() {
  std::string valued;
  for (const std::string& name : valued_options()) valued += " " + fish_quoted(name);
  std::string globals;
  for (const ArgumentSpec& a : global_options()) globals += fish_option(a, "");
  std::string words;
  for (const auto& entry : next_words()) {
    const std::string condition = "__memkit_after" + (entry.first.empty() ? "" : " " + entry.first);
    for (const NextWord& w : entry.second) {
      words += "complete -c memkit -n " + fish_quoted(condition) + " -a " + fish_quoted(w.word) +
               " -d " + fish_quoted(w.summary) + "\n";
    }
  }
  std::string options;
  for (const CommandSpec& c : command_table()) {
    const std::string condition = "__memkit_in " + c.name();
    options += "\n# memkit " + c.name() + "\n";
    for (const ArgumentSpec& a : c.arguments) {
      if (!a.positional) {
        options += fish_option(a, condition);
      } else if (!a.choices.empty() || a.type == ArgumentType::path) {
        options += "complete -c memkit -n " + fish_quoted(condition) + fish_value(a) + "\n";
      }
    }
  }
  return R"(# fish completion for memkit, made from its command table by `memkit completion fish`.
# Install it with `memkit completion fish > ~/.config/fish/completions/memkit.fish`, or load it
# with `memkit completion fish | source`.

# The words before the cursor that are neither options nor their values (the command's words, then
# its positionals), joined by spaces.
function __memkit_words
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l words
    while set -q tokens[1]
        switch $tokens[1]
            case)" + valued + R"(
                set -e tokens[1]
            case '-*'
            case '*'
                set -a words $tokens[1]
        end
        set -e tokens[1]
    end
    string join ' ' -- $words
end

# Returns true iff the plain words typed so far are exactly $argv: the word that follows them.
function __memkit_after
    set -l typed (__memkit_words)
    test "$typed" = "$argv"
end

# Returns true iff the plain words typed so far start with the command $argv: its arguments.
function __memkit_in
    set -l typed (__memkit_words)
    test "$typed" = "$argv"; or string match -q -- "$argv *" "$typed"
end

complete -c memkit -e
complete -c memkit -f

# Everywhere: the global options.
)" + globals + R"(
# The groups, the built-ins, then the words that follow them.
)" + words + options;
}

}  // namespace

const std::vector<std::string_view>& completion_shells() {
  static const std::vector<std::string_view> shells = {"bash", "zsh", "fish"};
  return shells;
}

std::optional<std::string> completion_script(std::string_view shell) {
  if (shell == "bash") return bash_completion();
  if (shell == "zsh") return zsh_completion();
  if (shell == "fish") return fish_completion();
  return std::nullopt;
}

}  // namespace memkit::cli
