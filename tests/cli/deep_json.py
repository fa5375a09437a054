#!/usr/bin/env python3
"""usage: deep_json.py MEMKIT_BINARY

Issue 24, defect 5: JSON nested deeper than memkit's one limit (512 levels, docs/limits.md) is
refused with a clear error naming the argument or file, quickly and without writing anything,
where it once crashed (exit 139) or ran for seconds and rewrote a 120 KB manifest as 800 MB:
  curated event add --payload   with 20,000 nested arrays
  curated episode add --file    whose tags nest 20,000 deep
  tiers write-data              over a memory/data/manifest.json nested 20,000 and 100,000 deep
and JSON nested exactly 512 deep is still read. The inputs are generated (up to 200 KB), so they
live here rather than as golden cases. Standard library only.
"""
import json
import os
import subprocess
import sys
import tempfile

from cli_environment import environment

TIMEOUT_SECONDS = 20
NOW = "2026-11-30T10:00:00Z"
TOO_DEEP = "nested more than 512 levels deep"


def nested(depth):
    return "[" * depth + "]" * depth


def run(binary, cwd, *args):
    done = subprocess.run([binary, *args, "--now", NOW, "--format", "json"], cwd=cwd,
                          capture_output=True, timeout=TIMEOUT_SECONDS, env=environment())
    return done.returncode, done.stdout.decode("utf-8", "replace")


def tree(root):
    out = {}
    for here, _, names in os.walk(root):
        for name in names:
            path = os.path.join(here, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


class Checks:
    def __init__(self):
        self.failed = 0

    def expect(self, what, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if not ok and detail else ""))
        self.failed += 0 if ok else 1

    def refused(self, what, result, fragment, before, after):
        code, stdout = result
        try:
            messages = [f["message"] for f in json.loads(stdout)["findings"]]
        except (ValueError, KeyError):
            messages = []
        self.expect(f"{what}: exit 2", code == 2, f"exit {code}, stdout {stdout[:300]!r}")
        self.expect(f"{what}: '{fragment}' ... '{TOO_DEEP}'",
                    any(fragment in m and TOO_DEEP in m for m in messages), repr(messages))
        self.expect(f"{what}: nothing written", before == after,
                    f"changed: {sorted(set(before.items()) ^ set(after.items()))[:3]!r}"[:300])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    checks = Checks()
    with tempfile.TemporaryDirectory() as temp:
        store = os.path.join(temp, "curated")
        os.makedirs(os.path.join(store, "st"))
        base = ["curated", "--store", "st", "--workspace", "ws1"]

        before = tree(store)
        result = run(binary, store, *base[:1], "event", "add", *base[1:], "--type", "x",
                     "--payload", nested(20000))
        checks.refused("event add --payload (20,000 deep)", result, "--payload", before,
                       tree(store))
        result = run(binary, store, *base[:1], "event", "add", *base[1:], "--type", "x",
                     "--payload", nested(512))
        checks.expect("event add --payload (512 deep): written", result[0] == 0, result[1][:300])

        episode = os.path.join(store, "episode.json")
        with open(episode, "w", encoding="utf-8") as f:
            f.write('{"episode_id": "e1", "tags": ' + nested(20000) + "}")
        before = tree(store)
        result = run(binary, store, *base[:1], "episode", "add", *base[1:], "--file", "episode.json")
        checks.refused("episode add --file (tags 20,000 deep)", result, "episode", before,
                       tree(store))

        for depth in (20000, 100000):
            root = os.path.join(temp, f"tiers{depth}")
            os.makedirs(root)
            code, stdout = run(binary, temp, "tiers", "init", "--workspace", root)
            checks.expect(f"tiers init ({depth})", code == 0, stdout[:300])
            manifest = os.path.join(root, "memory", "data", "manifest.json")
            with open(manifest, "w", encoding="utf-8") as f:
                f.write('{"old.csv": ' + nested(depth) + "}\n")
            before = tree(root)
            result = run(binary, root, "tiers", "write-data", "--name", "people", "--csv-content",
                         "a,b\n1,2\n", "--workspace", ".")
            checks.refused(f"tiers write-data (manifest.json {depth:,} deep)", result,
                           "memory/data/manifest.json", before, tree(root))
    print(f"{checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
