#!/usr/bin/env python3
"""checkpoint_scaling.py MEMKIT [--sizes 250,500,1000,2000] [--max-ratio R] [--json FILE]

How `memkit curated checkpoint` (curated.md §10) grows with the number of pending items (issue 24,
defect 13): for each N of --sizes, a payload of one record and N pending threads (new names, one
type) is checkpointed into a fresh copy of examples/curated (workspace billing) with the fixed
clock MEMKIT_NOW=2026-11-30T10:00:00+00:00; then the next session's checkpoint carries the same
N threads forward (every other body changed, the rest unchanged) under a new record. Prints the
wall time of each (python3 time.perf_counter around subprocess.run) and the ratio between
consecutive sizes: about 2 when the checkpoint is linear, about 4 when it is quadratic.

With --max-ratio R it exits 1 when a ratio between the last two sizes exceeds R (a linear
checkpoint passes --max-ratio 3), so that a quadratic checkpoint coming back can be caught without
an absolute timing. --json FILE also writes the times (seconds) to FILE, for
bench/scripts/benchmarks_md.py. Standard library only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "curated"))


def payload(n, session="x", changed=False):
    return {
        "record": {"name": "project_session_" + session, "type": "project", "body": "The session."},
        "pending": [{"name": "project_thread_%06d" % i,
                     "body": "Thread %d, carried forward.%s" % (i, " Again." if changed and i % 2
                                                                 else "")}
                    for i in range(n)],
    }


def seconds(binary, n):
    """The first checkpoint of N new threads, and the next one carrying them forward."""
    t = tempfile.mkdtemp(prefix="memkit-checkpoint-")
    try:
        store = os.path.join(t, "cs")
        shutil.copytree(EXAMPLE, store)
        path = os.path.join(t, "payload.json")
        env = dict(os.environ, MEMKIT_NOW="2026-11-30T10:00:00+00:00")
        times = []
        for body in (payload(n), payload(n, "y", changed=True)):
            with open(path, "w") as f:
                json.dump(body, f)
            start = time.perf_counter()
            done = subprocess.run([binary, "curated", "checkpoint", "--store", store,
                                   "--workspace", "billing", "--file", path, "--format", "json"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise RuntimeError("checkpoint of %d failed: %s" % (n, done.stderr.decode()))
        return times
    finally:
        shutil.rmtree(t, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("memkit")
    parser.add_argument("--sizes", default="250,500,1000,2000")
    parser.add_argument("--max-ratio", type=float)
    parser.add_argument("--json", help="also write the times to this file")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    previous = None
    ratios = None
    rows = []
    for n in sizes:
        times = seconds(os.path.abspath(args.memkit), n)
        rows.append({"pending": n, "new_s": times[0], "carried_forward_s": times[1]})
        ratios = [a / b for a, b in zip(times, previous)] if previous else None
        print("N = %6d: new threads %8.3f s%s, carried forward %8.3f s%s" % (
            n, times[0], "" if ratios is None else " (x%.2f)" % ratios[0],
            times[1], "" if ratios is None else " (x%.2f)" % ratios[1]))
        previous = times
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps({"now": "2026-11-30T10:00:00+00:00", "sizes": rows}, indent=1)
                    + "\n")
    if args.max_ratio is not None and ratios is not None and max(ratios) > args.max_ratio:
        print("the last ratio %.2f exceeds %.2f: not linear" % (max(ratios), args.max_ratio))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
