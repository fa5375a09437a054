#!/usr/bin/env python3
"""Times whole `memkit memorybox sync` commands (memorybox.md §9) on a large root: the issue's goals
are a full initial push of 100,000 entries in under 10 s and an incremental sync of 100 changed
entries in under 100 ms.

usage: sync_commands.py MEMKIT dir|postgres [--entries N] [--changes K] [--repeat R] [--rounds C]
                        [--json FILE]

`postgres` reads the connection string from MEMKIT_SYNC_CONNINFO (start a throwaway server with
`tests/postgres/pg_server.py start DIR` and use DIR/conninfo). Each run uses a new workspace id, so
runs do not see each other. Timed, each R times (fresh roots each time) with the median printed:
  push-all     the first push of N entries (Ids assigned and written, then every record sent)
  pull-all     a new root's first pull of the N records (every entry added)
  push-K       a push after K entries were edited by hand, their `Updated` left as it was, so
               that the push stamps them and writes the file (C rounds of K other entries each,
               default 5: the first round also meets the server writing out the N rows it was
               just sent, which later rounds, as an agent's day of syncs, do not)
  pull-K       the other root's pull of those K edits (a plan to confirm: dry run + apply)
  push-K own-timed   the same after K edits that set their `Updated` too (as memkit's own writes
               do): sent with that time, no file written (C rounds, alternating with the others,
               each followed by the pull)
  push, nothing changed   a push that finds nothing to send: the cost of finding out
  status (local only)     `sync status` without a remote: the scan of the root alone
--json FILE also writes the figures (seconds) to FILE, for bench/scripts/benchmarks_md.py.
Standard library only.
"""
import json
import os
import shutil
import statistics
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from command_timing import machine_lines, timed_run  # noqa: E402

NOW = "2026-11-30T18:00:00Z"
CATEGORIES = ["Infrastructure", "Billing", "Customers", "Release process", "Security"]


def write_root(root, entries, memkit):
    timed_run([memkit, "memorybox", "init", "--root", root], "sync_commands")
    lines = ["# LONG_TERM", ""]
    per = entries // len(CATEGORIES) + 1
    n = 0
    for c in CATEGORIES:
        lines += ["## " + c, ""]
        for i in range(per):
            if n == entries:
                break
            lines += [f"- Fact {n}: the {c.lower()} service {n % 97} answers on port "
                      f"{1000 + n % 50000} and its owner is team {n % 13}",
                      "  Confidence: 0.90", "  Verified: 2026-11-20",
                      "  Updated: 2026-11-20T10:00:00.000Z"]
            n += 1
        lines.append("")
    with open(os.path.join(root, "memory", "LONG_TERM.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def sync(memkit, verb, root, remote, *extra):
    return [memkit, "memorybox", "sync", verb, "--root", root, "--remote", remote, "--now", NOW,
            "--format", "json", *extra]


def one_run(memkit, remote, entries, changes, rounds, base):
    a, b = os.path.join(base, "a"), os.path.join(base, "b")
    os.makedirs(a)
    os.makedirs(b)
    write_root(a, entries, memkit)
    timed_run([memkit, "memorybox", "init", "--root", b], "sync_commands")
    ws = str(uuid.uuid4())
    t = {}

    def add(name, seconds):
        t.setdefault(name, []).append(seconds)

    t["push-all"], _ = timed_run(sync(memkit, "push", a, remote, "--workspace-id", ws),
                                 "sync_commands")
    t["pull-all"], _ = timed_run(sync(memkit, "pull", b, remote, "--workspace-id", ws),
                                 "sync_commands")
    t = {name: [seconds] for name, seconds in t.items()}
    path = os.path.join(a, "memory", "LONG_TERM.md")
    step = max(1, entries // changes)
    for r in range(2 * rounds):  # other entries each round: Fact r, r + step, ...
        own = r % 2 == 1  # every other round, their Updated set later than the last sync too
        with open(path, encoding="utf-8") as f:
            text = f.read()
        pieces, done = [], 0  # the text cut at each edit, in file order (facts are in order)
        for i in range(r % step, step * changes, step):
            head = f"- Fact {i}: "
            at = text.index(head, done)
            pieces += [text[done:at], f"- Fact {i} (edited): "]
            done = at + len(head)
            if own:
                field = text.index("  Updated: ", done) + len("  Updated: ")
                pieces += [text[done:field], "2026-11-30T18:00:01.000Z"]
                done = field + 24
        text = "".join(pieces) + text[done:]
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        name = f"push-{changes} own-timed" if own else f"push-{changes}"
        add(name, timed_run(sync(memkit, "push", a, remote), "sync_commands")[0])
        if own:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:  # a memkit from before cd214d8 stamps every edit
                    add(f"push-{changes} own-timed wrote the file", 0.0)
        seconds, out = timed_run(sync(memkit, "pull", b, remote), "sync_commands", capture=True)
        plan = json.loads(out)["data"]["plan"]["plan_id"]
        applied, out = timed_run(
            sync(memkit, "pull", b, remote, "--apply", "--confirm-plan", plan), "sync_commands",
            capture=True)
        data = json.loads(out)["data"]
        updated = sum(1 for i in data["items"] if i["action"] == "updated")
        if updated != changes or not data["applied"]:
            sys.exit(f"sync_commands: the pull applied {updated} of {changes} edits")
        add(f"pull-{changes}", seconds + applied)
        add(f"pull-{changes} apply only", applied)
    add("push, nothing changed", timed_run(sync(memkit, "push", a, remote), "sync_commands")[0])
    status = [memkit, "memorybox", "sync", "status", "--root", a, "--now", NOW, "--format", "json"]
    add("status (local only)", timed_run(status, "sync_commands")[0])
    return t


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[1] not in ("dir", "postgres"):
        sys.exit(__doc__)
    memkit, kind = os.path.abspath(args[0]), args[1]

    def value(flag, default):
        return int(args[args.index(flag) + 1]) if flag in args else default

    entries, changes, repeat = value("--entries", 100000), value("--changes", 100), value(
        "--repeat", 3)
    rounds = value("--rounds", 5)
    json_out = args[args.index("--json") + 1] if "--json" in args else None
    machine = machine_lines(memkit, NOW)
    for line in machine:
        print(line)
    results = {}
    for _ in range(repeat):
        base = tempfile.mkdtemp(prefix="memkit-sync-bench-")
        try:
            if kind == "dir":
                os.makedirs(os.path.join(base, "remote"))
                remote = "dir:" + os.path.join(base, "remote")
            else:
                if "MEMKIT_SYNC_CONNINFO" not in os.environ:
                    sys.exit("sync_commands: set MEMKIT_SYNC_CONNINFO for the postgres remote")
                remote = "postgres"
            for name, seconds in one_run(memkit, remote, entries, changes, rounds, base).items():
                results.setdefault(name, []).extend(seconds)
        finally:
            shutil.rmtree(base, ignore_errors=True)
    print(f"remote:  {kind}; {entries} entries, {changes} changed; {repeat} root pairs, "
          f"{rounds} rounds of edits each; medians")
    for name, values in results.items():
        print(f"  {name:24} {statistics.median(values) * 1000:10.1f} ms   "
              f"(min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f}, n={len(values)})")
    if json_out:
        figures = {"now": NOW, "machine": machine, "remote": kind, "entries": entries,
                   "changes": changes, "repeat": repeat, "rounds": rounds,
                   "results": {name: {"median_s": statistics.median(values),
                                      "min_s": min(values), "max_s": max(values),
                                      "n": len(values)}
                               for name, values in results.items()}}
        with open(json_out, "w", encoding="utf-8") as f:
            f.write(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
