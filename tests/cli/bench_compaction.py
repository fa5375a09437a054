#!/usr/bin/env python3
"""`memkit bench compaction` (issue 32) on the bundled example project, with TMPDIR a fresh folder:

  * --format json: conforms to docs/schemas/bench-compaction.schema.json (and the checker refuses
    a document that does not); one entry per size (sorted, duplicates dropped), the grown inbox
    at least that large, six phases each with wall (median within min..max), CPU, page faults and
    throughput, the dry-run and apply processes with their peak RSS, a Plan ID, the machine and
    the command line;
  * without --project-root, in a folder with no memory: the bundled example;
  * --vs: a command that succeeds gives one pair per run and a ratio; one that fails or runs past
    --vs-timeout is reported (exit 2) with memkit's own figures still in the reply and the
    report still written, its process group killed;
  * --report: one HTML page written where asked; a folder that does not exist is refused first;
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
import time
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_environment import environment  # noqa: E402
from json_schema import errors as schema_errors  # noqa: E402

EXAMPLE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "examples", "project"))
NOW = "2026-03-07T10:00:00+00:00"
PHASES = ["read", "plan", "hash", "report", "apply", "read-back"]
SCHEMA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                       "docs", "schemas", "bench-compaction.schema.json"))


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
        with open(SCHEMA, encoding="utf-8") as f:
            schema = json.load(f)
        if code == 0:
            problems = schema_errors(data, schema)
            check("json: conforms to the schema", problems == [], "\n".join(problems))
            broken = json.loads(json.dumps(data))
            broken["sizes"][0]["phases"][0]["wall_us"]["median"] = -1
            broken["machine"]["extra"] = 1
            check("json: the schema check refuses what does not conform",
                  len(schema_errors(broken, schema)) == 2)
            machine = data["machine"]
            check("json: the machine", machine["cores"] > 0 and machine["memory_bytes"] > 0 and
                  machine["cpu"] and machine["kernel"] and machine["compiler"], out)
            check("json: the command line",
                  data["command_line"].startswith("memkit bench compaction --project-root ") and
                  "--sizes 64K,8K,64K" in data["command_line"], out)
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
            check("json: %d: the dry-run and apply processes" % size["size"],
                  [p["step"] for p in size["processes"]] == ["dry run", "apply"], out)
            for p in size["processes"]:
                wall = p["wall_us"]
                check("json: %d %s process: min <= median <= max, a peak" % (size["size"],
                                                                             p["step"]),
                      0 < wall["min"] <= wall["median"] <= wall["max"] and
                      p["peak_rss_kib"] > 0, out)
            check("json: %d: no comparison without --vs" % size["size"], size["vs"] is None, out)
        check("json: the scratch folder is gone", os.listdir(scratch) == [], repr(os.listdir(scratch)))
        check("json: the project is untouched", tree_digest(project) == before)

        if data["sizes"]:
            code, text, err = run("--sizes", "8K", "--runs", "1")
            check("text: exit 0", code == 0, text + err)
            check("text: the Plan ID in the heading",
                  ("Plan ID %s" % data["sizes"][0]["plan_id"]) in text, text)
            for phase in PHASES:
                check("text: a row for %s" % phase, re.search(r"^%s\s" % phase, text, re.M), text)

        # The bundled example, from a folder without memory.
        elsewhere = os.path.join(work, "elsewhere")
        os.mkdir(elsewhere)
        done = subprocess.run([memkit, "bench", "compaction", "--sizes", "8K", "--runs", "1",
                               "--now", NOW, "--format", "json"], cwd=elsewhere, env=env,
                              capture_output=True, text=True, timeout=300)
        check("example: exit 0", done.returncode == 0, done.stdout + done.stderr)
        if done.returncode == 0:
            example = json.loads(done.stdout)["data"]
            check("example: says so", "bundled example" in example["input"], done.stdout)
            check("example: a plan", example["sizes"][0]["plan_id"] is not None, done.stdout)
        check("example: nothing written where it ran", os.listdir(elsewhere) == [])

        # --vs: a command that does its work on the copy it is given.
        report = os.path.join(work, "report.html")
        code, out, err = run("--sizes", "8K", "--runs", "2", "--format", "json", "--report", report,
                             "--vs", "grep -c '^- ' {dir}/docs/memory/inbox.md")
        check("vs: exit 0", code == 0, out + err)
        if code == 0:
            vs = json.loads(out)["data"]["sizes"][0]["vs"]
            check("vs: a pair per run, a ratio",
                  len(vs["pairs"]) == 2 and vs["ratio_median"] > 0 and vs["failure"] is None, out)
        check("report: written", os.path.isfile(report))
        if os.path.isfile(report):
            with open(report, encoding="utf-8") as f:
                page = f.read()
            check("report: an HTML page", page.lower().startswith("<!doctype html"), page[:200])

        # A command that fails, and one that hangs: reported, memkit's figures still written. The
        # sleep's length is this test's own, so no other test's sleep is taken for it.
        sleeper = "sleep 1%d.5" % (os.getpid() % 100000)
        for label, args in [("fails", ["--vs", "echo no such peer >&2; exit 3 # {dir}"]),
                            ("hangs", ["--vs", "%s & %s; # {dir}" % (sleeper, sleeper),
                                       "--vs-timeout", "1"])]:
            os.path.exists(report) and os.remove(report)
            started = time.monotonic()
            code, out, err = run("--sizes", "8K", "--runs", "1", "--format", "json",
                                 "--report", report, *args)
            took = time.monotonic() - started
            reply = json.loads(out) if out.startswith("{") else {}
            messages = " ".join(f["message"] for f in reply.get("findings", []))
            check("vs %s: exit 2, naming --vs" % label, code == 2 and "--vs" in messages,
                  out + err)
            sizes = reply.get("data", {}).get("sizes", [])
            check("vs %s: memkit's figures still there" % label,
                  len(sizes) == 1 and len(sizes[0]["phases"]) == len(PHASES) and
                  sizes[0]["vs"]["failure"], out)
            check("vs %s: the report still written" % label, os.path.isfile(report))
            check("vs %s: scratch folder gone" % label, os.listdir(scratch) == [],
                  repr(os.listdir(scratch)))
            if label == "fails":
                check("vs fails: its status and error", "status 3" in messages and
                      "no such peer" in messages, messages)
            else:
                check("vs hangs: stopped at the time limit", "time limit" in messages and
                      took < 60, messages)
                left = subprocess.run(["pgrep", "-f", sleeper], capture_output=True)
                check("vs hangs: its process group is gone", left.returncode == 1,
                      left.stdout.decode())

        for args, named in [(["--sizes", "0"], "--sizes"), (["--sizes", "5G"], "--sizes"),
                            (["--sizes", "1M,lots"], "--sizes"), (["--runs", "0"], "--runs"),
                            (["--runs", "many"], "--runs"),
                            (["--vs", "peer compact"], "{dir}"),
                            (["--vs", "x {dir}", "--vs-timeout", "0"], "--vs-timeout"),
                            (["--report", os.path.join(work, "no-such", "r.html")], "--report")]:
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
