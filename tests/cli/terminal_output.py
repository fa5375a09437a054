#!/usr/bin/env python3
"""What a person at a terminal sees (issue 31): memkit run with its standard output on a
pseudo-terminal, beside the same command into a pipe.

`custodian compact` on an inbox of 50 candidates and one duplicate:
  * on a terminal the text leads with the counts and the Plan ID, lists 20 candidates and says in
    one line how many more there are; --all lists all 50, --limit 5 five;
  * into a pipe (a file, another program) it lists all 50, and --format json every one too, unless
    --limit is given;
  * the Plan ID is the same whatever is listed.

usage: terminal_output.py MEMKIT
"""
import json
import os
import pty
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_environment import environment  # noqa: E402

NOW = "2026-03-07T10:00:00+00:00"
CANDIDATES = 50


def project(folder):
    memory = os.path.join(folder, "docs", "memory")
    os.makedirs(memory)
    with open(os.path.join(memory, "manifest.md"), "w") as f:
        f.write("# Memory Manifest\n")
    with open(os.path.join(memory, "inbox.md"), "w") as f:
        f.write("# Inbox\n\n")
        for i in range(CANDIDATES):
            f.write("- candidate number %d\n" % i)
        f.write("- candidate number 7\n")  # the one exact duplicate


def on_terminal(memkit, cwd, args):
    """Runs memkit with stdout on a pseudo-terminal; returns (exit code, what the terminal got)."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.Popen([memkit] + args + ["--now", NOW], cwd=cwd, env=environment(),
                                stdin=subprocess.DEVNULL, stdout=follower,
                                stderr=subprocess.PIPE)
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the other side closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        done.wait(timeout=60)
        return done.returncode, b"".join(chunks).decode().replace("\r\n", "\n")
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)


def piped(memkit, cwd, args):
    done = subprocess.run([memkit] + args + ["--now", NOW], cwd=cwd, env=environment(),
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    return done.returncode, done.stdout.decode()


def listed(text):
    return len(re.findall(r"^\d+\. candidate number", text, re.M))


def plan_id(text):
    found = re.search(r"^Plan ID: ([0-9a-f]{16})$", text, re.M)
    return found.group(1) if found else None


def main():
    memkit = os.path.abspath(sys.argv[1])
    failures = []

    def check(label, condition, text=""):
        if not condition:
            failures.append(label + ("\n" + text[:2000] if text else ""))

    with tempfile.TemporaryDirectory(prefix="memkit-terminal-") as cwd:
        project(cwd)
        compact = ["custodian", "compact"]
        code, shown = on_terminal(memkit, cwd, compact)
        check("terminal: exit 0", code == 0, shown)
        check("terminal: 20 candidates listed", listed(shown) == 20, shown)
        check("terminal: the rest counted in one line",
              "... and 30 more: --all lists every one, --limit N the first N\n" in shown, shown)
        check("terminal: the Plan ID before the candidates",
              plan_id(shown) is not None and shown.index("Plan ID:") < shown.index("1. candidate"),
              shown)
        ids = {plan_id(shown)}

        code, shown = on_terminal(memkit, cwd, compact + ["--all"])
        check("terminal --all: 50 listed", code == 0 and listed(shown) == CANDIDATES, shown)
        check("terminal --all: no count of the rest", "more:" not in shown, shown)
        ids.add(plan_id(shown))

        code, shown = on_terminal(memkit, cwd, compact + ["--limit", "5"])
        check("terminal --limit 5: 5 listed", code == 0 and listed(shown) == 5, shown)
        check("terminal --limit 5: 45 more", "... and 45 more" in shown, shown)

        code, text = piped(memkit, cwd, compact)
        check("pipe: every candidate listed", code == 0 and listed(text) == CANDIDATES, text)
        ids.add(plan_id(text))

        code, text = piped(memkit, cwd, compact + ["--format", "json"])
        data = json.loads(text)["data"]
        check("pipe json: every candidate", len(data["candidates"]) == CANDIDATES, text)

        code, text = on_terminal(memkit, cwd, compact + ["--format", "json"])
        data = json.loads(text)["data"]
        check("terminal json: every candidate (JSON is for programs)",
              len(data["candidates"]) == CANDIDATES, text)

        code, text = piped(memkit, cwd, compact + ["--format", "json", "--limit", "3"])
        data = json.loads(text)["data"]
        check("pipe json --limit 3: three", [c["index"] for c in data["candidates"]] == [1, 2, 3],
              text)
        check("pipe json --limit 3: the total still follows from the counts",
              data["inbox_items"] - data["empty_items"] - data["duplicates"] -
              data["tombstone_matches"] == CANDIDATES, text)

        check("one Plan ID whatever is listed", len(ids) == 1 and None not in ids, repr(ids))

    for failure in failures:
        print("FAIL " + failure)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
