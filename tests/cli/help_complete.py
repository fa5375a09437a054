#!/usr/bin/env python3
"""The CLI's help and suggestions come from the command table (issue 27).

Reads the table (`memkit commands --format json`) and checks, for every group and command:
`memkit --help` and `memkit help` list every group; `memkit <group> --help` every command;
`memkit <group> <command> --help` (the same as `memkit help <group> <command>`) every argument with
its placeholder, default and choices; `memkit commands` one line per command. Then the mistakes a
user makes: a mistyped group, command or option is refused with exit 2, naming it and the closest
known one, and writes nothing; `--version --format json` is an envelope.

usage: help_complete.py MEMKIT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []


def run(memkit, *args, cwd=None):
    done = subprocess.run([memkit, *args], capture_output=True, text=True, cwd=cwd, timeout=60,
                          env=dict(os.environ, NO_COLOR="1", LC_ALL="C"))
    return done.returncode, done.stdout, done.stderr


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def main():
    memkit = os.path.abspath(sys.argv[1])
    code, out, _ = run(memkit, "commands", "--format", "json")
    check(code == 0, "memkit commands --format json exits 0")
    table = json.loads(out)
    check(table["table_version"] == 1, "the table has a version")
    _, top, _ = run(memkit, "--help")
    _, top_again, _ = run(memkit, "help")
    check(top == top_again, "memkit help is memkit --help")
    _, listing, _ = run(memkit, "commands")
    count = 0
    for group in table["groups"]:
        check(("  " + group["name"] + " ") in top, "memkit --help lists " + group["name"])
        code, group_help, _ = run(memkit, group["name"], "--help")
        check(code == 0, "memkit %s --help exits 0" % group["name"])
        for command in group["commands"]:
            count += 1
            name = command["name"]
            # The folder a workspace is opened on is marked, so that no door lists its own copy:
            # one per command of a group that has a workspace, a path, and never positional.
            roots = [a for a in command["arguments"] if a["root"]]
            check(bool(roots) == (group["name"] != "markdown"), name + ": its root is marked")
            check(all(a["type"] == "path" and not a["positional"] for a in roots),
                  name + ": a root is a path option")
            check(("  " + command["verb"]) in group_help, "memkit %s --help lists %s" % (
                group["name"], command["verb"]))
            check(("memkit " + name) in listing, "memkit commands lists " + name)
            words = name.split(" ")
            code, help_text, _ = run(memkit, *words, "--help")
            check(code == 0, "memkit %s --help exits 0" % name)
            _, help_again, _ = run(memkit, "help", *words)
            check(help_text == help_again, "memkit help %s is memkit %s --help" % (name, name))
            flat = " ".join(help_text.split())  # wrapping aside
            check(command["summary"] in flat, name + ": its summary")
            for argument in command["arguments"] + table["global_options"]:
                spelled = argument["name"]
                if argument["placeholder"] and not argument["positional"]:
                    spelled += " " + argument["placeholder"]
                check(spelled in flat, "%s --help shows %s" % (name, spelled))
                check(" ".join(argument["doc"].split()) in flat,
                      "%s --help documents %s" % (name, argument["name"]))
                if argument["default"] is not None:
                    check("default " + argument["default"] in flat,
                          "%s --help shows the default of %s" % (name, argument["name"]))
                for choice in argument["choices"]:
                    check(choice in flat, "%s --help shows %s's choice %s" % (
                        name, argument["name"], choice))
    check(count == len(listing.splitlines()), "memkit commands: one line per command")

    # Every command of the table reaches an executor: run bare in an empty folder (arguments it
    # needs are missing, so nothing is written), it answers as itself, never as an unknown one.
    # A server (mcp) answers on its standard input instead: with none, it ends at once, silent.
    empty = tempfile.mkdtemp(prefix="memkit-table-")
    for group in table["groups"]:
        if group["workspace"] == "server":
            for command in group["commands"]:
                done = subprocess.run([memkit, *command["name"].split(" ")], cwd=empty, timeout=60,
                                      input="", capture_output=True, text=True)
                check(done.returncode == 0 and done.stdout == "",
                      "%s with no input: %r" % (command["name"], done))
            continue
        for command in group["commands"]:
            name = command["name"]
            code, out, err = run(memkit, *name.split(" "), "--format", "json",
                                 "--now", "2026-11-30T10:00:00Z", "--lock-timeout", "0",
                                 cwd=empty)
            try:
                envelope = json.loads(out)
            except ValueError:
                check(False, "%s: no envelope: %r %r" % (name, out, err))
                continue
            check(envelope["command"].startswith(name),
                  "%s answers as %s" % (name, envelope["command"]))
            check("unknown command" not in out and "unknown group" not in out,
                  "%s: %s" % (name, out))
    shutil.rmtree(empty, ignore_errors=True)

    scratch = tempfile.mkdtemp(prefix="memkit-help-")
    for args, named, suggested in (
            (["custodain", "status"], "custodain", "custodian"),
            (["custodian", "stauts"], "stauts", "status"),
            (["memorybox", "sync", "psh"], "sync psh", "sync push"),
            (["custodian", "status", "--project-rot", "."], "--project-rot", "--project-root"),
            (["memorybox", "sync", "push", "--take", "local"], "--take", None),
            (["help", "tiers", "persist-trun"], "persist-trun", "persist-turn")):
        for format_args in ([], ["--format", "json"]):
            code, out, err = run(memkit, *args, *format_args, cwd=scratch)
            said = out + err
            check(code == 2, "%s exits 2, got %d" % (" ".join(args), code))
            check(named in said, "%s names %s: %r" % (" ".join(args), named, said))
            if suggested:
                check("did you mean '%s'?" % suggested in said,
                      "%s suggests %s: %r" % (" ".join(args), suggested, said))
            if format_args:
                check(json.loads(out)["findings"][0]["code"] == "MK-ARG-001",
                      "%s: MK-ARG-001 in the envelope" % " ".join(args))
    check(os.listdir(scratch) == [], "the refusals wrote nothing: %s" % os.listdir(scratch))
    os.rmdir(scratch)
    code, out, _ = run(memkit, "--version", "--format", "json")
    envelope = json.loads(out)
    check(code == 0 and envelope["command"] == "version" and envelope["data"]["version"],
          "--version --format json is an envelope: %r" % out)

    for failure in FAILURES[:30]:
        print("FAIL " + failure)
    print("%d commands checked, %d problem(s)" % (count, len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
