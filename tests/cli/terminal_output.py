#!/usr/bin/env python3
"""What a person at a terminal sees (issue 31): memkit run with its standard output on a
pseudo-terminal, beside the same command into a pipe.

`custodian compact` on an inbox of 50 candidates and one duplicate:
  * on a terminal the text leads with the counts and the Plan ID, lists 20 candidates and says in
    one line how many more there are; --all lists all 50, --limit 5 five;
  * into a pipe (a file, another program) it lists all 50, and --format json every one too, unless
    --limit is given;
  * the Plan ID is the same whatever is listed.

`memorybox compact` on a root with 25 old daily files (50 actions) the same way: the rules and
the Plan ID first, 20 actions and the count of the rest on a terminal, every one into a pipe;
--limit N in the JSON, whose actions_total says how many there are.

And the progress line (stderr on a pseudo-terminal), on a dry run of a 300 MB inbox that takes
over a second: "memkit: planning custodian compact (1 s)" redrawn in place and wiped at the end;
none with --quiet, NO_PROGRESS, MEMKIT_NO_PROGRESS or --format json, and none when stderr is a
pipe. (On a machine that plans it in under 1.3 s the line cannot be expected; that check is
skipped, the others still hold.)

usage: terminal_output.py MEMKIT
"""
import json
import os
import pty
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_environment import environment  # noqa: E402

NOW = "2026-03-07T10:00:00+00:00"
CANDIDATES = 50


def project(folder, items):
    """A custodian project whose inbox holds `items` (an iterable of lines)."""
    memory = os.path.join(folder, "docs", "memory")
    os.makedirs(memory)
    with open(os.path.join(memory, "manifest.md"), "w") as f:
        f.write("# Memory Manifest\n")
    with open(os.path.join(memory, "inbox.md"), "w") as f:
        f.write("# Inbox\n\n")
        f.writelines(items)


def small_items():
    """50 candidates and one exact duplicate."""
    return ["- candidate number %d\n" % i for i in range(CANDIDATES)] + ["- candidate number 7\n"]


def big_items():
    """300 MB: 5.4 million items, a third of them duplicates; over a second to plan."""
    return ("- item %d about the build cache and the deploy window\n" % (i if i % 3 else i // 3)
            for i in range(5_400_000))


def on_terminal(memkit, cwd, args, stream="stdout", extra_env=None):
    """Runs memkit with `stream` (stdout or stderr) on a pseudo-terminal, the other one piped;
    returns (exit code, what the terminal got)."""
    leader, follower = pty.openpty()
    env = environment()
    env.update(extra_env or {})
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    streams[stream] = follower
    try:
        done = subprocess.Popen([memkit] + args + ["--now", NOW], cwd=cwd, env=env,
                                stdin=subprocess.DEVNULL, **streams)
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
        project(cwd, small_items())
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

    with tempfile.TemporaryDirectory(prefix="memkit-terminal-") as cwd:
        root = os.path.join(cwd, "agent")
        done = subprocess.run([memkit, "memorybox", "init", "--root", root],
                              capture_output=True, env=environment())
        check("memorybox init", done.returncode == 0, done.stderr.decode())
        for day in range(1, 26):
            with open(os.path.join(root, "memory", "daily", "2026-01-%02d.md" % day), "w") as f:
                f.write("# 2026-01-%02d\n\nnotes %d\n" % (day, day))
        compact = ["memorybox", "compact", "--root", root]

        def actions(text):
            return len(re.findall(r"^- daily: ", text, re.M))

        code, shown = on_terminal(memkit, cwd, compact)
        check("memorybox terminal: 20 actions listed", code == 0 and actions(shown) == 20, shown)
        check("memorybox terminal: the rest counted in one line",
              "... and 30 more: --all lists every one, --limit N the first N\n" in shown, shown)
        check("memorybox terminal: the Plan ID before the actions",
              plan_id(shown) is not None and
              shown.index("Plan ID:") < shown.index("Actions (50):"), shown)
        ids = {plan_id(shown)}
        code, shown = on_terminal(memkit, cwd, compact + ["--all"])
        check("memorybox terminal --all: 50 listed", code == 0 and actions(shown) == 50, shown)
        code, text = piped(memkit, cwd, compact)
        check("memorybox pipe: every action", code == 0 and actions(text) == 50, text)
        ids.add(plan_id(text))
        code, text = piped(memkit, cwd, compact + ["--format", "json", "--limit", "3"])
        data = json.loads(text)["data"]
        check("memorybox pipe json --limit 3: three of 50",
              len(data["actions"]) == 3 and data["actions_total"] == 50, text)
        ids.add(data["plan"]["plan_id"])
        code, text = piped(memkit, cwd, compact + ["--limit", "3", "--all", "--format", "json"])
        check("memorybox --limit with --all: refused, naming both",
              code == 2 and "--limit, --all: give one of them" in text, text)
        check("memorybox: one Plan ID whatever is listed", len(ids) == 1 and None not in ids,
              repr(ids))

    with tempfile.TemporaryDirectory(prefix="memkit-progress-") as cwd:
        project(cwd, big_items())
        compact = ["custodian", "compact", "--limit", "0"]
        started = time.monotonic()
        code, shown = on_terminal(memkit, cwd, compact, "stderr")
        took = time.monotonic() - started
        check("progress: exit 0", code == 0, shown)
        lines = [part for part in shown.split("\r") if part.startswith("memkit: planning")]
        if took >= 1.3:
            check("progress: a line on stderr", bool(lines), repr(shown[:500]))
            check("progress: each line redrawn in place",
                  all(line.endswith("\x1b[K") for line in lines), repr(lines[:3]))
            check("progress: the line wiped at the end", shown.endswith("\r\x1b[K"),
                  repr(shown[-200:]))
        else:
            print("skipped: the dry run took %.2f s, too fast for a line to be due" % took)
        for label, args, extra in [("--quiet", ["--quiet"], None),
                                   ("NO_PROGRESS", [], {"NO_PROGRESS": "1"}),
                                   ("MEMKIT_NO_PROGRESS", [], {"MEMKIT_NO_PROGRESS": "1"}),
                                   ("--format json", ["--format", "json"], None)]:
            code, shown = on_terminal(memkit, cwd, compact + args, "stderr", extra)
            check("no progress with " + label, code == 0 and "memkit: planning" not in shown,
                  repr(shown[:300]))
        done = subprocess.run([memkit] + compact + ["--now", NOW], cwd=cwd, env=environment(),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        check("no progress into a pipe", b"memkit: planning" not in done.stderr,
              repr(done.stderr[:300]))

    for failure in failures:
        print("FAIL " + failure)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
