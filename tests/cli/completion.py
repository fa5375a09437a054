#!/usr/bin/env python3
"""`memkit completion bash` completes what the command table holds (issue 30).

Sources the script in bash and calls its function as bash does (COMP_WORDS, COMP_CWORD), for
every group, every verb word, every command's options, every option's choices, a path option
(the files there), and the built-ins' words (the shells of completion, the groups of man and help);
the script must also be valid bash and leave the shell's state alone.

usage: completion.py MEMKIT
"""
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def complete(script, words, cwd):
    """COMPREPLY for the command line `words`, the cursor in the last word."""
    line = " ".join("'%s'" % w.replace("'", "'\\''") for w in words)
    program = ('source "%s"; COMP_WORDS=(%s); COMP_CWORD=%d; _memkit; '
               'printf "%%s\\n" "${COMPREPLY[@]}"' % (script, line, len(words) - 1))
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True,
                          text=True, cwd=cwd, timeout=60)
    check(done.returncode == 0, "bash failed for %r: %s" % (words, done.stderr))
    return set(w for w in done.stdout.split("\n") if w)


def main():
    memkit = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="memkit-completion-")
    script = os.path.join(folder, "memkit.bash")
    with open(script, "w") as f:
        f.write(subprocess.run([memkit, "completion", "bash"], capture_output=True, text=True,
                               check=True).stdout)
    check(subprocess.run(["bash", "-n", script]).returncode == 0, "the script is valid bash")
    table = json.loads(subprocess.run([memkit, "commands", "--format", "json"],
                                      capture_output=True, text=True, check=True).stdout)
    groups = {g["name"] for g in table["groups"]}
    check(complete(script, ["memkit", ""], folder) ==
          groups | {"help", "commands", "completion", "man"}, "every group and built-in first")
    # The built-ins' words: the shells, man's and help's groups, help's verbs.
    check(complete(script, ["memkit", "completion", ""], folder) == {"bash", "zsh", "fish"},
          "completion's shells")
    check(complete(script, ["memkit", "man", ""], folder) == groups, "man's groups")
    check(complete(script, ["memkit", "help", ""], folder) == groups, "help's groups")
    check(complete(script, ["memkit", "help", "memorybox", "sync", ""], folder) ==
          {"push", "pull", "status", "resolve"}, "help's verbs")
    globals_ = {a["name"] for a in table["global_options"]}
    for group in table["groups"]:
        for command in group["commands"]:
            words = command["name"].split(" ")
            # Each word of the command's name, completed from its first letter.
            for k in range(1, len(words)):
                got = complete(script, ["memkit"] + words[:k] + [words[k][0]], folder)
                check(words[k] in got, "%s: %r offers %s" % (command["name"], words[:k], got))
            options = {a["name"] for a in command["arguments"] if not a["positional"]}
            got = complete(script, ["memkit"] + words + ["-"], folder)
            check(got == options | globals_,
                  "%s: its options %s, got %s" % (command["name"], options | globals_, got))
            for a in command["arguments"]:
                if a["choices"]:
                    got = complete(script, ["memkit"] + words + [a["name"], ""], folder)
                    check(got == set(a["choices"]),
                          "%s %s: %s, got %s" % (command["name"], a["name"], a["choices"], got))
    # A path option completes the files there; a value given before the cursor is skipped.
    open(os.path.join(folder, "notes.md"), "w").close()
    check(complete(script, ["memkit", "search", "--root", "no"], folder) == {"notes.md"},
          "--root completes a path")
    check(complete(script, ["memkit", "--format", "json", "custodian", "st"], folder) ==
          {"status"}, "a global option's value is not a word of the command")
    check(complete(script, ["memkit", "--format", ""], folder) == {"text", "json"},
          "--format's choices")
    for failure in FAILURES:
        print("FAIL", failure)
    print("%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
