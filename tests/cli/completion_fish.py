#!/usr/bin/env python3
"""`memkit completion fish` completes what the command table holds (issue 30).

Loads the script into a real fish (`fish --no-config`) and asks fish itself what it would offer
(`complete --do-complete LINE`): the groups and built-ins first; every word of every command's
name from its first letter; each command's options with their docs, and those of no other
command; each option's choices; folders for a DIR, files for another path; the global options
and their values anywhere. fish must be installed (scripts/bootstrap installs it): without it the
test fails, never skips.

usage: completion_fish.py MEMKIT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
BUILTINS = {"help", "commands", "completion", "man"}


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def ask_fish(script, lines, cwd):
    """fish's candidates for each command line, the cursor at its end: [{word: description}]."""
    queries = os.path.join(cwd, "queries.txt")
    with open(queries, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    program = ('source %s; while read -l line; echo "<<<"; complete --do-complete "$line"; '
               'echo ">>>"; end < %s' % (quoted(script), quoted(queries)))
    done = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True,
                          text=True, cwd=cwd, timeout=120)
    check(done.returncode == 0 and not done.stderr, "fish failed: %s" % done.stderr)
    answers = []
    for block in done.stdout.split("<<<\n")[1:]:
        offered = {}
        for row in block.split(">>>\n")[0].splitlines():
            word, _, description = row.partition("\t")
            offered[word] = description
        answers.append(offered)
    check(len(answers) == len(lines), "fish answered %d of %d lines" % (len(answers), len(lines)))
    return answers + [{}] * (len(lines) - len(answers))


def quoted(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main():
    if shutil.which("fish") is None:
        print("FAIL fish is not installed: scripts/bootstrap installs it")
        return 1
    memkit = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="memkit-fish-")
    script = os.path.join(folder, "memkit.fish")
    with open(script, "w") as f:
        f.write(subprocess.run([memkit, "completion", "fish"], capture_output=True, text=True,
                               check=True).stdout)
    check(subprocess.run(["fish", "--no-config", "-n", script]).returncode == 0,
          "the script is valid fish")
    table = json.loads(subprocess.run([memkit, "commands", "--format", "json"],
                                      capture_output=True, text=True, check=True).stdout)
    groups = {g["name"]: g["summary"] for g in table["groups"]}
    globals_ = {a["name"]: a for a in table["global_options"]}
    os.mkdir(os.path.join(folder, "notes"))
    open(os.path.join(folder, "notes.md"), "w").close()

    # Loaded as docs/cli.md says, from the program's output through a pipe.
    done = subprocess.run(["fish", "--no-config", "-c",
                           "%s completion fish | source; complete --do-complete 'memkit cust'"
                           % quoted(memkit)], capture_output=True, text=True, timeout=60)
    check(done.stdout == "custodian\t%s\n" % groups["custodian"],
          "`memkit completion fish | source`, then memkit cust: custodian, got %r %r" % (
              done.stdout, done.stderr))

    # Every question, then every answer: one fish for them all.
    questions = []
    expect = []

    def ask(line, test):
        questions.append(line)
        expect.append(test)

    def exactly(words, what):
        return lambda got: check(set(got) == set(words), "%s: %s, got %s" % (
            what, sorted(words), sorted(got)))

    def has(word, what):
        return lambda got: check(word in got, "%s: %s, got %s" % (what, word, sorted(got)))

    ask("memkit ", exactly(set(groups) | BUILTINS, "the groups and built-ins come first"))
    ask("memkit cust", lambda got: check(got == {"custodian": groups["custodian"]},
                                         "memkit cust: custodian and its summary, got %s" % got))
    ask("memkit --", exactly(globals_, "the global options before a group"))
    ask("memkit --format ", exactly({"text", "json"}, "--format's choices"))
    ask("memkit --format json custodian st", exactly({"status"},
                                                     "a global option's value is not a word"))
    ask("memkit completion ", exactly({"bash", "zsh", "fish"}, "completion's shells"))
    ask("memkit man ", exactly(groups, "man's groups"))
    ask("memkit help ", exactly(groups, "help's groups"))
    ask("memkit custodian status --project-root ", exactly({"notes/"}, "a DIR offers folders"))
    ask("memkit curated add --body-file no", exactly({"notes/", "notes.md"},
                                                     "a FILE offers files"))
    ask("memkit markdown units no", exactly({"notes/", "notes.md"}, "a path positional: files"))
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
            options = {a["name"]: a for a in command["arguments"] if not a["positional"]}

            def its_options(got, name=name, options=options):
                check(set(got) == set(options) | set(globals_), "%s: its options %s, got %s" % (
                    name, sorted(set(options) | set(globals_)), sorted(got)))
                for option, spec in options.items():
                    check(got.get(option) in (None, spec["doc"]),
                          "%s %s: its doc %r, got %r" % (
                              name, option, spec["doc"], got.get(option)))

            ask("memkit %s --" % name, its_options)
            # Options after a positional, and after another option's value, still complete.
            positional = " x" if any(a["positional"] for a in command["arguments"]) else ""
            ask("memkit %s --format json%s --" % (name, positional), its_options)
            for option in options.values():
                if option["choices"]:
                    ask("memkit %s %s " % (name, option["name"]),
                        exactly(option["choices"], "%s %s's choices" % (name, option["name"])))
    for line, test, offered in zip(questions, expect, ask_fish(script, questions, folder)):
        before = len(FAILURES)
        test(offered)
        if len(FAILURES) > before:
            FAILURES[-1] = "%r: %s" % (line, FAILURES[-1])
    for failure in FAILURES:
        print("FAIL", failure)
    print("%d lines asked, %d failures" % (len(questions), len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
