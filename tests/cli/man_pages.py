#!/usr/bin/env python3
"""`memkit man [GROUP]`: man pages made from the command table (issue 30).

Renders memkit(1) and every memkit-GROUP(1) with groff (`groff -man -Tutf8 -ww -z`, every warning
on) and with man-db (`man --warnings -l`) and fails on any warning. Then reads the pages as text:
each group page names every command of the group (`memkit commands --format json`) with, in that
command's own section, every argument, choice and default, so a command or an option added to the
table without reaching its page fails; memkit(1) names every group, global option, exit code and
each environment variable src/cli/main.cpp reads, and points to every group's page. A hyphen the
user types is a minus sign in the roff source (no "--" left unescaped). An unknown group is
refused with exit 2, and no page writes anything but standard output. groff and man must be
installed (scripts/bootstrap installs them): without them the test fails, never skips.

usage: man_pages.py MEMKIT
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MAIN_SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "GROUPS", "BUILT-IN COMMANDS",
                 "GLOBAL OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"]
GROUP_SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "EXIT STATUS",
                  "SEE ALSO"]


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def page_of(memkit, cwd, *group):
    done = subprocess.run([memkit, "man", *group], capture_output=True, text=True, cwd=cwd,
                          timeout=60)
    name = "memkit-" + group[0] if group else "memkit"
    check(done.returncode == 0 and not done.stderr, "memkit man %s: exit %d, %s" % (
        " ".join(group), done.returncode, done.stderr))
    return name, done.stdout


def warnings_of(name, roff, folder):
    """groff's and man's complaints about a page, if any."""
    path = os.path.join(folder, name + ".1")
    with open(path, "w") as f:
        f.write(roff)
    groff = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", path], capture_output=True,
                           text=True, timeout=60)
    check(groff.returncode == 0 and not groff.stderr, "%s(1): groff -ww: %s" % (name, groff.stderr))
    man = subprocess.run(["man", "--warnings", "-l", path], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, MANPAGER="cat", PAGER="cat",
                                              MANWIDTH="80", LC_ALL="C.UTF-8"))
    check(man.returncode == 0 and not man.stderr, "%s(1): man --warnings: %s" % (name, man.stderr))


def text_of(roff):
    """The page as plain text, one space between words: what a reader sees."""
    done = subprocess.run(["groff", "-man", "-Tascii", "-P-c", "-P-b", "-P-u", "-P-o"],
                          input=roff, capture_output=True, text=True, timeout=60)
    return done.stdout


def flat(text):
    return " " + re.sub(r"\s+", " ", text) + " "


def sections_of(text):
    """{heading: body} of a rendered page: headings start a line, in capitals."""
    out = {}
    heading = None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z -]*$", line):
            heading = line
            out[heading] = ""
        elif heading is not None:
            out[heading] += line + "\n"
    return out


def named(word, text):
    return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(word), text) is not None


def check_escaped(name, roff):
    for number, line in enumerate(roff.split("\n"), 1):
        if line.startswith('.\\"'):
            continue
        check("--" not in line, "%s(1):%d: an unescaped option: %s" % (name, number, line))


def main():
    for tool in ("groff", "man"):
        if shutil.which(tool) is None:
            print("FAIL %s is not installed: scripts/bootstrap installs it" % tool)
            return 1
    memkit = os.path.abspath(sys.argv[1])
    folder = tempfile.mkdtemp(prefix="memkit-man-")
    empty = os.path.join(folder, "cwd")
    os.mkdir(empty)
    table = json.loads(subprocess.run([memkit, "commands", "--format", "json"],
                                      capture_output=True, text=True, check=True).stdout)

    name, roff = page_of(memkit, empty)
    check(roff.startswith('.\\"') and "\n.TH MEMKIT 1 " in roff, "memkit(1) has its .TH")
    warnings_of(name, roff, folder)
    check_escaped(name, roff)
    text = text_of(roff)
    sections = sections_of(text)
    check(list(sections) == MAIN_SECTIONS, "memkit(1)'s sections: %s" % list(sections))
    for group in table["groups"]:
        check(named(group["name"], sections.get("GROUPS", "")), "memkit(1) lists " + group["name"])
        check(("memkit-%s(1)" % group["name"]) in flat(sections.get("SEE ALSO", "")),
              "memkit(1) points to memkit-%s(1)" % group["name"])
    for option in table["global_options"]:
        check(named(option["name"], sections.get("GLOBAL OPTIONS", "")),
              "memkit(1) explains " + option["name"])
    for code in ("0", "1", "2"):
        check(re.search(r"^ +%s\b" % code, sections.get("EXIT STATUS", ""), re.M) is not None,
              "memkit(1) explains exit status " + code)
    with open(os.path.join(SOURCE, "src", "cli", "main.cpp")) as f:
        variables = set(re.findall(r'"((?:MEMKIT_|NO_)[A-Z_]+)"', f.read()))
    check("MEMKIT_NOW" in variables, "the environment read from main.cpp: %s" % variables)
    for variable in sorted(variables):
        check(named(variable, sections.get("ENVIRONMENT", "")), "memkit(1) explains " + variable)
    for builtin in ("help", "commands", "completion", "man"):
        check(("memkit " + builtin) in flat(sections.get("BUILT-IN COMMANDS", "")),
              "memkit(1) explains memkit " + builtin)

    for group in table["groups"]:
        name, roff = page_of(memkit, empty, group["name"])
        check(("\n.TH MEMKIT\\-%s 1 " % group["name"].upper()) in roff, name + "(1) has its .TH")
        warnings_of(name, roff, folder)
        check_escaped(name, roff)
        text = text_of(roff)
        sections = sections_of(text)
        check(list(sections) == GROUP_SECTIONS, "%s(1)'s sections: %s" % (name, list(sections)))
        check(flat(sections.get("NAME", "")).strip() == "%s - %s" % (name, group["summary"]),
              "%s(1)'s NAME: %r" % (name, sections.get("NAME")))
        # Each command's own part of COMMANDS starts with its synopsis, indented by 3.
        parts = {}
        current = None
        for line in sections.get("COMMANDS", "").splitlines():
            if line.startswith("   memkit ") and not line.startswith("    "):
                current = line.strip()
                parts[current] = ""
            elif current is not None:
                parts[current] += line + "\n"
        check(len(parts) == len(group["commands"]), "%s(1): %d commands, the table has %d" % (
            name, len(parts), len(group["commands"])))
        synopsis = flat(sections.get("SYNOPSIS", ""))
        for command in group["commands"]:
            head = "memkit " + command["name"]
            check((" %s " % head) in synopsis, "%s(1)'s synopsis has %s" % (name, head))
            own = [p for p in parts if (p + " ").startswith(head + " ")]
            check(len(own) == 1, "%s(1) has a part for %s: %s" % (name, head, list(parts)))
            body = flat(parts[own[0]]) if own else ""
            check(command["summary"].split(" ")[0].lower() in body.lower(),
                  "%s: its summary in %s(1)" % (head, name))
            for a in command["arguments"]:
                check(named(a["name"], body), "%s(1): %s explains %s" % (name, head, a["name"]))
                for word in a["choices"] + ([a["default"]] if a["default"] else []):
                    check(named(word, body), "%s(1): %s %s: %s" % (name, head, a["name"], word))
        for option in table["global_options"]:
            check(named(option["name"], sections.get("GLOBAL OPTIONS", "")),
                  "%s(1) explains %s" % (name, option["name"]))

    for wrong in (["custodan"], ["custodian", "add"]):
        done = subprocess.run([memkit, "man", *wrong], capture_output=True, text=True, cwd=empty,
                              timeout=60)
        check(done.returncode == 2 and not done.stdout and "memkit: man:" in done.stderr,
              "memkit man %s: exit 2 and an error, got %d %r" % (" ".join(wrong), done.returncode,
                                                                 done.stderr))
    done = subprocess.run([memkit, "man", "custodan"], capture_output=True, text=True, cwd=empty)
    check("'custodian'" in done.stderr, "a mistyped group names the closest: %r" % done.stderr)
    check(os.listdir(empty) == [], "memkit man writes nothing: %s" % os.listdir(empty))
    for failure in FAILURES:
        print("FAIL", failure)
    print("%d pages, %d failures" % (len(table["groups"]) + 1, len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
