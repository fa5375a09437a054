// `memkit completion bash`: the shell's completion script, made from the command table
// (commands/table.hpp), so every group, verb, option and choice the table has completes.
#include <set>
#include <string>

#include "cli/help.hpp"
#include "commands/table.hpp"

namespace memkit::cli {
namespace {

// `text` as one bash word in single quotes.
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

std::string joined(const std::set<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

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
  return R"(# bash completion for memkit, made from its command table by `memkit completion bash`.
# Load it with `source <(memkit completion bash)`, or install it as
# /usr/share/bash-completion/completions/memkit.

_memkit_commands=(
)" + commands + R"(  'help'
  'commands'
  'completion bash'
)
declare -A _memkit_options=(
)" + options + R"(  ['completion bash']=''
)
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

}  // namespace memkit::cli
