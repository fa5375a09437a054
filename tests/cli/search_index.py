#!/usr/bin/env python3
"""usage: search_index.py MEMKIT_BINARY

Issue 28, "deletion is real": the search index under <root>/.memkit/index/ holds what a search
found (the plain index and a stemmed one), and after `custodian forget --mode purge` (a plan
applied) no index file holds the purged text any more, before any other search runs; a search
then finds nothing of it. A damaged index is rebuilt by the next search, and a search keeps only
the index files its catalog names. Standard library only.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from cli_environment import environment

HERE = os.path.dirname(os.path.abspath(__file__))
SETUP = os.path.join(HERE, "cases", "forget_purge_apply_json", "setup")
NOW = "2026-03-07T10:00:00+00:00"


def run(binary, cwd, *args):
    done = subprocess.run([binary, *args, "--format", "json"], cwd=cwd, capture_output=True,
                          timeout=60, env=environment())
    return done.returncode, json.loads(done.stdout.decode("utf-8"))


def index_bytes(root):
    out = b""
    for here, _, files in os.walk(os.path.join(root, ".memkit", "index")):
        for name in files:
            with open(os.path.join(here, name), "rb") as f:
                out += f.read()
    return out


def main():
    binary = os.path.abspath(sys.argv[1])
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    t = tempfile.mkdtemp(prefix="memkit-search-index-")
    try:
        root = os.path.join(t, "proj")
        shutil.copytree(SETUP, root, symlinks=True)
        code, out = run(binary, root, "search", "zephyr")
        check(code == 0 and out["data"]["total"] == 2, "search zephyr: two hits before the purge")
        check(b"zephyr" in index_bytes(root), "the index holds the term before the purge")
        code, out = run(binary, root, "search", "zephyrs", "--stem", "english")
        check(code == 0 and out["data"]["total"] == 2, "search zephyrs --stem english: two hits")
        stemmed = [d for d in os.listdir(os.path.join(root, ".memkit", "index")) if "stem" in d]
        check(len(stemmed) == 1, "the stemmed search keeps an index of its own")

        forget = ["custodian", "forget", "Zephyr cache", "--mode", "purge", "--allow-broad-match",
                  "--now", NOW]
        code, out = run(binary, root, *forget)
        plan = out["data"]["plan"]["plan_id"]
        code, out = run(binary, root, *forget, "--apply", "--confirm-plan", plan)
        check(code == 0 and out["data"]["applied"], "the purge applied")
        check(b"zephyr" not in index_bytes(root).lower(),
              "after the purge, before any search, no index file holds 'zephyr'")
        code, out = run(binary, root, "search", "zephyr")
        check(code == 0 and out["data"]["total"] == 0, "search zephyr: nothing after the purge")

        # A damaged index: rebuilt, the same answer, and only what the catalog names is kept.
        folder = os.path.join(root, ".memkit", "index", "all")
        code, before = run(binary, root, "search", "keep OR inbox")
        for name in os.listdir(folder):
            if name.startswith("p-"):
                with open(os.path.join(folder, name), "r+b") as f:
                    f.truncate(100)
        with open(os.path.join(folder, "p-stray.idx"), "wb") as f:
            f.write(b"stray")
        code, after = run(binary, root, "search", "keep OR inbox")
        check(code == 0 and after["data"] == before["data"], "a damaged index answers as before")
        check("p-stray.idx" not in os.listdir(folder), "a file the catalog does not name is removed")
    finally:
        shutil.rmtree(t, ignore_errors=True)

    for f in failures:
        print("FAIL " + f)
    print("%d checks failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
