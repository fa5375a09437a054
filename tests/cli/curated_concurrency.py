#!/usr/bin/env python3
"""Concurrent `memkit curated` processes on one store: one lock, appends that never tear
(curated.md §2, §6, §9).

N writers start at once, each running M invocations one after the other, so up to N memkit
processes contend for the store's .memkit/lock at any moment.

  phase 1  add: N*M new rows in the same rows/ws1/project.md and history.jsonl. The file must hold
           every row exactly once, sorted by name, each entry intact, and the history one insert
           record per row. A lost update (two writers editing the same old bytes) drops rows here.
  phase 2  append: N*M appends to one shared row. Its body must hold every piece exactly once, and
           the history one append record per piece, each `before` equal to the previous `after`.
  phase 3  show: N*M deliberate reads of that row, appending to access.jsonl without the lock. The
           log must hold exactly N*M whole records, and show's counter must say N*M.

The checks are also run on deliberately damaged copies of the results (a dropped entry, a torn
line, a duplicated record), which they must reject, so a checker that accepts anything fails.

usage: curated_concurrency.py MEMKIT_BINARY
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

WRITERS = 8
TURNS = 25
LOCK_TIMEOUT = "60"
PROCESS_TIMEOUT = 120
SHARED = "project_shared"


def environment():
    env = dict(os.environ)
    for name in ("MEMKIT_NOW", "MEMKIT_STORE", "MEMKIT_WORKSPACE", "MEMKIT_ACTOR"):
        env.pop(name, None)
    env.update({"NO_COLOR": "1", "LC_ALL": "C", "LANG": "C", "TZ": "UTC"})
    return env


def now_arg(writer, turn):
    # A distinct millisecond per invocation, so history and access records say who wrote them.
    return "2026-11-30T09:%02d:%02d.%03dZ" % (10 + writer, turn, writer * 100 + turn)


def run_writers(binary, store, args_for):
    results = []
    results_lock = threading.Lock()
    start = threading.Barrier(WRITERS)

    def loop(writer):
        start.wait()
        for turn in range(TURNS):
            argv = [binary, "curated"] + args_for(writer, turn) + [
                "--store", store, "--workspace", "ws1", "--now", now_arg(writer, turn),
                "--lock-timeout", LOCK_TIMEOUT, "--format", "json"]
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                                  env=environment(), timeout=PROCESS_TIMEOUT)
            with results_lock:
                results.append((writer, turn, proc.returncode, proc.stdout, proc.stderr))

    threads = [threading.Thread(target=loop, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def check_processes(results, failures):
    for writer, turn, code, out, err in sorted(results):
        if code != 0:
            failures.append("w%d-t%d exited %d: %s %s" % (writer, turn, code,
                                                          out.decode("utf-8", "replace"),
                                                          err.decode("utf-8", "replace")))


def piece(writer, turn):
    return "piece-w%d-t%d" % (writer, turn)


def expected_names():
    return sorted("project_w%d_t%02d" % (w, t) for w in range(WRITERS) for t in range(TURNS))


ENTRY = re.compile(
    r"## (?P<name>project_w\d_t\d\d)\nType: project\nClass: log\nAudience: any\n"
    r"Created: (?P<c>[0-9T:.-]+Z)\nUpdated: (?P=c)\n\nbody of (?P=name)\n")


def check_rows(text, failures):
    """rows/ws1/project.md after phase 1: the header, then every row once, by name, intact."""
    header = "# Curated memory: project\n"
    if not text.startswith(header):
        failures.append("project.md: no header: %r" % text[:80])
        return
    names = []
    pos = len(header)
    while pos < len(text):
        if not text.startswith("\n", pos):
            failures.append("project.md: no empty line before byte %d: %r" % (pos, text[pos:pos + 80]))
            return
        m = ENTRY.match(text, pos + 1)
        if m is None:
            failures.append("project.md: malformed entry at byte %d: %r" % (pos, text[pos:pos + 120]))
            return
        names.append(m.group("name"))
        pos = m.end()
    if names != expected_names():
        failures.append("project.md: %d entries (expected %d), sorted %s" % (
            len(names), len(expected_names()), names == sorted(names)))


def history_records(text, label, failures):
    records = []
    for number, line in enumerate(text.split("\n")[:-1], 1):
        try:
            records.append(json.loads(line))
        except ValueError:
            failures.append("%s:%d: not a record: %r" % (label, number, line[:80]))
    if text and not text.endswith("\n"):
        failures.append("%s: the last line is torn: %r" % (label, text[-80:]))
    return records


def check_inserts(text, failures):
    records = history_records(text, "history.jsonl", failures)
    names = sorted(r.get("name") for r in records if r.get("op") == "insert")
    if names != expected_names():
        failures.append("history.jsonl: %d insert records, expected one per row" % len(names))


def check_appends(body, history_text, failures):
    pieces = [piece(w, t) for w in range(WRITERS) for t in range(TURNS)]
    found = [p for p in body.split("\n\n")[1:]]
    if sorted(found) != sorted(pieces):
        failures.append("%s: body holds %d pieces (expected %d), doubled %s" % (
            SHARED, len(found), len(pieces), sorted({p for p in found if found.count(p) > 1})[:5]))
    records = [r for r in history_records(history_text, "history.jsonl", failures)
               if r.get("name") == SHARED and r.get("op") == "append"]
    if len(records) != len(pieces):
        failures.append("history.jsonl: %d append records, expected %d" % (len(records), len(pieces)))
    for before, after in zip(records, records[1:]):
        if after.get("before") != before.get("after"):
            failures.append("history.jsonl: an append at %s does not start from the one before it"
                            % after.get("ts"))
            break


def check_access(text, failures):
    records = history_records(text, "access.jsonl", failures)
    stamps = sorted(r.get("ts") for r in records
                    if r.get("name") == SHARED and r.get("kind") == "deliberate")
    expected = sorted(now_arg(w, t) for w in range(WRITERS) for t in range(TURNS))
    if stamps != expected:
        failures.append("access.jsonl: %d deliberate records of %s, expected %d, one per show" % (
            len(stamps), SHARED, len(expected)))


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8")


def self_check(rows, inserts, body, appends, access):
    """Each damaged copy must be rejected by its check."""
    entry = "\n## project_w0_t00\n"
    damaged = [
        ("a dropped row", lambda f: check_rows(rows.replace(
            rows[rows.index(entry):rows.index("\n## project_w0_t01\n")], ""), f)),
        ("a duplicated insert", lambda f: check_inserts(inserts + inserts.split("\n")[0] + "\n", f)),
        ("a lost append", lambda f: check_appends(body.rsplit("\n\n", 1)[0], appends, f)),
        ("a torn access line", lambda f: check_access(access[:-5], f)),
    ]
    problems = []
    for label, check in damaged:
        caught = []
        check(caught)
        if not caught:
            problems.append("the checker accepted " + label)
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    root = tempfile.mkdtemp(prefix="memkit-curated-concurrency-")
    failures = []
    try:
        store = os.path.join(root, "st")
        results = run_writers(binary, store, lambda w, t: [
            "add", "--name", "project_w%d_t%02d" % (w, t), "--type", "project", "--body",
            "body of project_w%d_t%02d" % (w, t)])
        check_processes(results, failures)
        rows_path = os.path.join(store, "rows", "ws1", "project.md")
        history_path = os.path.join(store, "log", "ws1", "history.jsonl")
        rows = read(rows_path)
        inserts = read(history_path)
        check_rows(rows, failures)
        check_inserts(inserts, failures)

        seed = subprocess.run([binary, "curated", "add", "--store", store, "--workspace", "ws1",
                               "--name", SHARED, "--type", "project", "--body", "start",
                               "--now", "2026-11-30T09:00:00.000Z", "--format", "json"],
                              capture_output=True, env=environment())
        if seed.returncode != 0:
            failures.append("seeding %s failed: %s" % (SHARED, seed.stdout.decode()))
        results = run_writers(binary, store, lambda w, t: [
            "append", SHARED, "--body", piece(w, t)])
        check_processes(results, failures)
        shown = subprocess.run([binary, "curated", "show", SHARED, "--store", store, "--workspace",
                                "ws1", "--include-deleted", "--now", "2026-11-30T08:00:00.000Z",
                                "--format", "json"], capture_output=True, env=environment())
        body = json.loads(shown.stdout.decode()).get("data", {}).get("body", "")
        appends = read(history_path)
        check_appends(body, appends, failures)

        access_path = os.path.join(store, "log", "ws1", "access.jsonl")
        os.remove(access_path)  # the read above counted one; start the phase from none
        results = run_writers(binary, store, lambda w, t: ["show", SHARED])
        check_processes(results, failures)
        access = read(access_path)
        check_access(access, failures)

        txn = os.path.join(store, ".memkit", "txn")
        if os.path.isdir(txn) and os.listdir(txn):
            failures.append(".memkit/txn holds unfinished transactions: %s" % os.listdir(txn))
        failures += self_check(rows, inserts, body, appends, access)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for failure in failures[:20]:
        print("FAIL: " + failure)
    if failures:
        return 1
    print("ok: %d rows, %d appends and %d reads by %d concurrent processes" % (
        WRITERS * TURNS, WRITERS * TURNS, WRITERS * TURNS, WRITERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
