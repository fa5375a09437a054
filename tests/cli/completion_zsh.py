#!/usr/bin/env python3
"""`memkit completion zsh` completes what the command table holds (issue 30).

The script must be valid zsh (`zsh -n`) and a `#compdef memkit` function. Then a real interactive
zsh, driven through a pseudo-terminal by zsh's own zpty module, loads compinit from a throwaway
ZDOTDIR and the script both ways docs/cli.md gives (installed as _memkit in a folder of $fpath,
and `source <(memkit completion zsh)`), and TAB is pressed after each command line: the test's
.zshrc binds TAB to a widget that runs the completion system as usual and prints the candidates
that every compadd call added. Asked: the groups and built-ins first; every word of every
command's name from its first letter; each command's options, and those of no other command;
each option's choices; folders for a DIR, files for another path; the global options and their
values anywhere. zsh must be installed (scripts/bootstrap installs it): without it the test
fails, never skips.

usage: completion_zsh.py MEMKIT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
BUILTINS = {"help", "commands", "completion", "man"}

# Runs an interactive zsh on a pseudo-terminal, types each line with a TAB after it, and prints
# the candidates the widget reports for it, then "---"; Ctrl-U clears the line for the next one.
DRIVER = r"""
zmodload zsh/zpty || exit 3
export ZDOTDIR=$1
shift
zpty memkit_shell zsh -d -i
local out
for line in "$@"; do
  zpty -w -n memkit_shell "$line"$'\t'
  out=
  zpty -r memkit_shell out '*<<<*>>>*' || { print -u2 "no answer to $line"; exit 4 }
  print -r -- "${${out##*<<<}%%>>>*}"
  print -r -- ---
  zpty -w -n memkit_shell $'\C-u'
done
zpty -d memkit_shell
"""

# The throwaway .zshrc: compinit, the script (LOAD), and a TAB that prints the candidates between
# <<< and >>>. compadd is wrapped to record what each call would add (-A), then add it as asked;
# the calls that only compute (-O, -A, -D) pass through.
ZSHRC = r"""
PS1='> '
unsetopt autolist beep
%(load)s
typeset -ga memkit_candidates
compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "$@"
    return
  fi
  local -a hits
  builtin compadd -A hits "$@"
  memkit_candidates+=("${hits[@]}")
  builtin compadd "$@"
}
_memkit_test_complete() {
  memkit_candidates=()
  _main_complete
  print -r -- "<<<${(pj:\n:)memkit_candidates}>>>"
}
zle -C memkit-test-complete complete-word _memkit_test_complete
bindkey '^I' memkit-test-complete
"""


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def zsh_quoted(text):
    return "'" + text.replace("'", "'\\''") + "'"


def ask_zsh(zdotdir, lines, cwd):
    """zsh's candidates for each command line, the cursor at its end: [set of words]."""
    done = subprocess.run(["zsh", "-f", "-c", DRIVER, "driver", zdotdir] + lines,
                          capture_output=True, text=True, cwd=cwd, timeout=300)
    check(done.returncode == 0, "the zpty driver failed (%d): %s" % (done.returncode, done.stderr))
    answers = []
    for block in done.stdout.replace("\r", "").split("---\n")[:-1]:
        answers.append({w for w in block.split("\n") if w})
    check(len(answers) == len(lines), "zsh answered %d of %d lines" % (len(answers), len(lines)))
    return answers + [set()] * (len(lines) - len(answers))


def zdotdir_with(folder, name, load):
    zdotdir = os.path.join(folder, name)
    os.mkdir(zdotdir)
    with open(os.path.join(zdotdir, ".zshrc"), "w") as f:
        f.write(ZSHRC % {"load": load})
    return zdotdir


def main():
    if shutil.which("zsh") is None:
        print("FAIL zsh is not installed: scripts/bootstrap installs it")
        return 1
    memkit = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="memkit-zsh-")
    script = subprocess.run([memkit, "completion", "zsh"], capture_output=True, text=True,
                            check=True).stdout
    check(script.startswith("#compdef memkit\n"), "the script is a #compdef memkit function")
    functions = os.path.join(folder, "functions")
    os.mkdir(functions)
    with open(os.path.join(functions, "_memkit"), "w") as f:
        f.write(script)
    done = subprocess.run(["zsh", "-n", os.path.join(functions, "_memkit")], capture_output=True,
                          text=True)
    check(done.returncode == 0 and not done.stderr, "zsh -n: %s" % done.stderr)
    table = json.loads(subprocess.run([memkit, "commands", "--format", "json"],
                                      capture_output=True, text=True, check=True).stdout)
    groups = {g["name"] for g in table["groups"]}
    globals_ = {a["name"] for a in table["global_options"]}
    work = os.path.join(folder, "work")
    os.mkdir(work)
    os.mkdir(os.path.join(work, "notes"))
    open(os.path.join(work, "notes.md"), "w").close()

    questions = []
    expect = []

    def ask(line, test):
        questions.append(line)
        expect.append(test)

    def exactly(words, what):
        return lambda got: check(got == set(words), "%s: %s, got %s" % (
            what, sorted(words), sorted(got)))

    def has(word, what):
        return lambda got: check(word in got, "%s: %s, got %s" % (what, word, sorted(got)))

    ask("memkit ", exactly(groups | BUILTINS, "the groups and built-ins come first"))
    ask("memkit cust", exactly({"custodian"}, "memkit cust"))
    ask("memkit --", exactly(globals_, "the global options before a group"))
    ask("memkit --format ", exactly({"text", "json"}, "--format's choices"))
    ask("memkit --format json custodian st", exactly({"status"},
                                                     "a global option's value is not a word"))
    ask("memkit completion ", exactly({"bash", "zsh", "fish"}, "completion's shells"))
    ask("memkit man ", exactly(groups, "man's groups"))
    ask("memkit help ", exactly(groups, "help's groups"))
    ask("memkit custodian status --project-root ", exactly({"notes"}, "a DIR offers folders"))
    ask("memkit curated add --body-file no", exactly({"notes", "notes.md"}, "a FILE offers files"))
    ask("memkit markdown units no", exactly({"notes", "notes.md"}, "a path positional: files"))
    for group in table["groups"]:
        verbs = {c["name"].split(" ")[1] for c in group["commands"] if c["verb"]}
        if verbs:
            ask("memkit %s " % group["name"], exactly(verbs, group["name"] + "'s verbs"))
            ask("memkit help %s " % group["name"],
                exactly(verbs, "help %s's verbs" % group["name"]))
        for command in group["commands"]:
            name = command["name"]
            words = name.split(" ")
            for k in range(1, len(words)):
                ask("memkit " + " ".join(words[:k] + [words[k][0]]),
                    has(words[k], "%s from %r" % (name, words[:k] + [words[k][0]])))
            options = {a["name"] for a in command["arguments"] if not a["positional"]}
            ask("memkit %s --" % name, exactly(options | globals_, name + ": its options"))
            # An option given is not offered again; after a positional and another option's
            # value, the rest still are.
            positional = " x" if any(a["positional"] for a in command["arguments"]) else ""
            ask("memkit %s --format json%s --" % (name, positional),
                exactly(options | globals_ - {"--format"}, name + ": its options after others"))
            for option in command["arguments"]:
                if option["choices"] and not option["positional"]:
                    ask("memkit %s %s " % (name, option["name"]), exactly(
                        option["choices"], "%s %s's choices" % (name, option["name"])))

    installed = zdotdir_with(folder, "installed", "fpath=(%s $fpath)\nautoload -Uz compinit\n"
                             "compinit -u -D" % zsh_quoted(functions))
    for line, test, got in zip(questions, expect, ask_zsh(installed, questions, work)):
        before = len(FAILURES)
        test(got)
        if len(FAILURES) > before:
            FAILURES[-1] = "installed in $fpath, %r: %s" % (line, FAILURES[-1])
    # Sourced after compinit, as docs/cli.md gives it: the same function, registered by compdef.
    sourced = zdotdir_with(folder, "sourced", "autoload -Uz compinit\ncompinit -u -D\n"
                           "source <(%s completion zsh)" % zsh_quoted(memkit))
    some = [0, 1, 2, 3, 4, 5, 8]
    for i, got in zip(some, ask_zsh(sourced, [questions[i] for i in some], work)):
        before = len(FAILURES)
        expect[i](got)
        if len(FAILURES) > before:
            FAILURES[-1] = "sourced, %r: %s" % (questions[i], FAILURES[-1])
    for failure in FAILURES:
        print("FAIL", failure)
    print("%d lines asked, %d failures" % (len(questions) + len(some), len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
