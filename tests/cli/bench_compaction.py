#!/usr/bin/env python3
"""`memkit bench compaction` (issue 32) on the bundled example project, with TMPDIR a fresh folder:

  * --format json: one entry per size (sorted, duplicates dropped), the grown inbox at least that
    large, five phases each with wall (median within min..max), CPU, page faults and throughput,
    and a Plan ID;
  * text: a table per size, the same Plan ID in its heading (the grown inbox and its plan do not
    depend on the run);
  * the scratch folder is gone at the end, and the project is untouched;
  * refusals (exit 2, the argument named, nothing left in TMPDIR): a size of 0 or over 4 GiB, a
    word that is no size, --runs 0, a folder without an inbox, and any other door than the CLI
    (the command table marks the group "cli").

usage: bench_compaction.py MEMKIT
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_environment import environment  # noqa: E402

EXAMPLE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "examples", "project"))
NOW = "2026-03-07T10:00:00+00:00"
PHASES = ["read", "plan", "hash", "report", "apply"]


def tree_digest(root):
    out = []
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out.append((os.path.relpath(path, root), hashlib.sha256(f.read()).hexdigest()))
    return out


def main():
    memkit = os.path.abspath(sys.argv[1])
    failures = []

    def check(label, condition, text=""):
        if not condition:
            failures.append(label + ("\n" + text[:3000] if text else ""))

    with tempfile.TemporaryDirectory(prefix="memkit-bench-test-") as work:
        project = os.path.join(work, "project")
        shutil.copytree(EXAMPLE, project)
        scratch = os.path.join(work, "tmp")
        os.mkdir(scratch)
        env = dict(environment(), TMPDIR=scratch)
        before = tree_digest(project)

        def run(*args):
            done = subprocess.run([memkit, "bench", "compaction", "--project-root", project,
                                   "--now", NOW] + list(args), env=env, capture_output=True,
                                  text=True, timeout=300)
            return done.returncode, done.stdout, done.stderr

        code, out, err = run("--sizes", "64K,8K,64K", "--runs", "2", "--format", "json")
        check("json: exit 0", code == 0, out + err)
        data = json.loads(out)["data"] if code == 0 else {"sizes": []}
        check("json: the runs", data.get("runs") == 2, out)
        check("json: sizes sorted, duplicates dropped",
              [s["size"] for s in data["sizes"]] == [8192, 65536], out)
        for size in data["sizes"]:
            check("json: %d: the inbox at least that large" % size["size"],
                  size["bytes"] >= size["size"] and size["items"] > 0 and size["rounds"] > 0, out)
            check("json: %d: a Plan ID" % size["size"],
                  re.fullmatch(r"[0-9a-f]{16}", size["plan_id"] or "") is not None, out)
            check("json: %d: five phases in order" % size["size"],
                  [p["phase"] for p in size["phases"]] == PHASES, out)
            for p in size["phases"]:
                wall = p["wall_us"]
                check("json: %d %s: min <= median <= max" % (size["size"], p["phase"]),
                      0 <= wall["min"] <= wall["median"] <= wall["max"], out)
                check("json: %d %s: counts" % (size["size"], p["phase"]),
                      p["cpu_us"] >= 0 and p["page_faults"] >= 0 and p["bytes_per_second"] >= 0,
                      out)
            check("json: %d: peak RSS" % size["size"], size["peak_rss_kib"] > 0, out)
        check("json: the scratch folder is gone", os.listdir(scratch) == [], repr(os.listdir(scratch)))
        check("json: the project is untouched", tree_digest(project) == before)

        if data["sizes"]:
            code, text, err = run("--sizes", "8K", "--runs", "1")
            check("text: exit 0", code == 0, text + err)
            check("text: the Plan ID in the heading",
                  ("Plan ID %s" % data["sizes"][0]["plan_id"]) in text, text)
            for phase in PHASES:
                check("text: a row for %s" % phase, re.search(r"^%s\s" % phase, text, re.M), text)

        for args, named in [(["--sizes", "0"], "--sizes"), (["--sizes", "5G"], "--sizes"),
                            (["--sizes", "1M,lots"], "--sizes"), (["--runs", "0"], "--runs"),
                            (["--runs", "many"], "--runs")]:
            code, out, err = run(*(args + ["--format", "json"]))
            check("refused %s: exit 2, naming it" % args, code == 2 and named in out, out + err)
        empty = os.path.join(work, "empty")
        os.mkdir(empty)
        done = subprocess.run([memkit, "bench", "compaction", "--project-root", empty, "--format",
                               "json"], env=env, capture_output=True, text=True, timeout=60)
        check("no inbox: exit 2, naming inbox.md",
              done.returncode == 2 and "inbox.md" in done.stdout, done.stdout + done.stderr)
        check("refusals leave nothing in TMPDIR", os.listdir(scratch) == [],
              repr(os.listdir(scratch)))

        table = json.loads(subprocess.run([memkit, "commands", "--format", "json"], env=env,
                                          capture_output=True, text=True, check=True).stdout)
        group = next((g for g in table["groups"] if g["name"] == "bench"), None)
        check("the table marks bench the CLI's alone", group is not None and
              group["workspace"] == "cli", json.dumps(group))

    for f in failures:
        print("FAIL " + f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
