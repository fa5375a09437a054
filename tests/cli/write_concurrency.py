#!/usr/bin/env python3
"""Concurrent direct writers on one root: every acknowledged write kept, exactly once (issue 24).

N writers start at once. Each runs M invocations one after the other, so up to N memkit processes
contend for the root's .memkit/lock at any moment. A command that writes without taking the lock,
or that writes bytes it read before taking it, loses other writers' entries here (a lost update),
or fails its own read-back.

  phase 1  custodian add --type inbox: N*M bullets under today's heading of docs/memory/inbox.md
  phase 2  memorybox gate --apply: N*M WRITE outcomes into memory/LONG_TERM.md, section Team
  phase 3  memorybox update --contradict: one Review line on each of N*M entries of
           memory/LONG_TERM.md, each entry updated by exactly one invocation
  phase 4  memorybox log: N*M session entries in memory/SESSION_LOG.md and as many lines in
           today's daily file, each pair written as one transaction

Every invocation must exit 0 and say it wrote; afterwards each file holds what it held before plus
every acknowledged write exactly once, and no transaction is left in .memkit/txn. The checks are
also run on a damaged copy of each result (an entry dropped, an entry doubled), which they must
reject, so a checker that accepts anything fails.

tiers persist-turn and curated add have their own scripts (tiers_concurrency.py and
curated_concurrency.py), with the same number of writers and turns.

usage: write_concurrency.py MEMKIT_BINARY EXAMPLES_DIR
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from cli_environment import environment

WRITERS = 8
TURNS = 25
NOW = "2026-11-30T10:00:00+00:00"
TODAY = "2026-11-30"
LOCK_TIMEOUT = "60"
PROCESS_TIMEOUT = 120


def tag(writer, turn):
    return "w%d-t%02d" % (writer, turn)


def all_tags():
    return [tag(w, t) for w in range(WRITERS) for t in range(TURNS)]


def run(binary, args):
    proc = subprocess.run([binary] + args, stdin=subprocess.DEVNULL, capture_output=True,
                          env=environment(), timeout=PROCESS_TIMEOUT)
    return proc.returncode, proc.stdout, proc.stderr


def run_writers(binary, args_for):
    """Returns (writer, turn, returncode, stdout, stderr) for every invocation."""
    results = []
    results_lock = threading.Lock()
    start = threading.Barrier(WRITERS)

    def loop(writer):
        start.wait()
        for turn in range(TURNS):
            args = args_for(writer, turn) + ["--now", NOW, "--lock-timeout", LOCK_TIMEOUT,
                                             "--format", "json"]
            code, out, err = run(binary, args)
            with results_lock:
                results.append((writer, turn, code, out, err))

    threads = [threading.Thread(target=loop, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def check_processes(results, failures, wrote):
    """Each invocation exits 0, and its envelope says it wrote (`wrote(data)`)."""
    for writer, turn, code, out, err in sorted(results):
        name = tag(writer, turn)
        if code != 0:
            failures.append("%s exited %d: %s %s" % (name, code, out.decode("utf-8", "replace"),
                                                     err.decode("utf-8", "replace")))
            continue
        try:
            envelope = json.loads(out.decode("utf-8"))
        except ValueError:
            failures.append("%s: stdout is not JSON: %r" % (name, out))
            continue
        if not wrote(envelope.get("data") or {}):
            failures.append("%s: exit 0 but nothing written: %s" % (name, out.decode("utf-8")))


def check_once_each(label, found, failures):
    """`found` lists the tags seen in the file, one per occurrence."""
    missing = sorted(set(all_tags()) - set(found))
    doubled = sorted({t for t in found if found.count(t) > 1})
    if missing or doubled or len(found) != WRITERS * TURNS:
        failures.append("%s: %d writes of %d kept; missing %s%s; more than once %s" % (
            label, len(set(found)), WRITERS * TURNS, missing[:8],
            " ..." if len(missing) > 8 else "", doubled[:8]))


def check_no_transaction(root, failures):
    txn = os.path.join(root, ".memkit", "txn")
    if os.path.isdir(txn) and os.listdir(txn):
        failures.append(".memkit/txn holds unfinished transactions: %s" % sorted(os.listdir(txn)))


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8")


# Phase 1: custodian add --type inbox.

def inbox_line(t):
    return "- inbox note %s" % t


def check_inbox(text, before, failures):
    # The items that were there stay, once each; every note is a line of its own, once.
    lines = text.split("\n")
    for line in before.split("\n"):
        if line.startswith("- ") and lines.count(line) != 1:
            failures.append("inbox.md: %r is there %d times" % (line, lines.count(line)))
    if lines.count("## " + TODAY) != 1:
        failures.append("inbox.md: %d headings for %s" % (lines.count("## " + TODAY), TODAY))
    found = [line[len("- inbox note "):] for line in lines if line.startswith("- inbox note ")]
    check_once_each("docs/memory/inbox.md", found, failures)


def phase_custodian_add(binary, examples, root):
    shutil.copytree(os.path.join(examples, "project"), root, dirs_exist_ok=True)
    inbox = os.path.join(root, "docs", "memory", "inbox.md")
    before = read_text(inbox)
    failures = []

    def args(writer, turn):
        return ["custodian", "add", inbox_line(tag(writer, turn))[2:], "--type", "inbox",
                "--project-root", root]

    results = run_writers(binary, args)
    check_processes(results, failures, lambda data: data.get("written") == ["inbox.md"])
    after = read_text(inbox)
    check_inbox(after, before, failures)
    check_no_transaction(root, failures)
    # The checker rejects a lost and a doubled write.
    for damaged in (after.replace(inbox_line(tag(3, 7)) + "\n", "", 1),
                    after.replace(inbox_line(tag(5, 1)) + "\n",
                                  inbox_line(tag(5, 1)) + "\n" + inbox_line(tag(5, 1)) + "\n", 1)):
        rejected = []
        check_inbox(damaged, before, rejected)
        if not rejected:
            failures.append("the inbox check accepts a damaged file")
    return failures


# Phase 2: memorybox gate --apply.

def fact_text(t):
    # Distinct words per writer and turn, so that no two facts are near-duplicates.
    return "Concurrent fact %s says %s" % (t, " ".join("z%sq%d" % (t.replace("-", ""), i)
                                                     for i in range(4)))


def long_term_entries(text):
    """The first lines of the top-level bullets of LONG_TERM.md."""
    return [line[2:] for line in text.split("\n") if line.startswith("- ")]


def check_gated(text, before, failures):
    entries = long_term_entries(text)
    for old in long_term_entries(before):
        if entries.count(old) != 1:
            failures.append("LONG_TERM.md: %r is there %d times" % (old, entries.count(old)))
    by_text = {fact_text(t): t for t in all_tags()}
    found = [by_text[e] for e in entries if e in by_text]
    strays = [e for e in entries if e not in by_text and e not in long_term_entries(before)]
    if strays:
        failures.append("LONG_TERM.md: unexpected entries %s" % strays[:5])
    check_once_each("memory/LONG_TERM.md", found, failures)


def phase_gate(binary, examples, root):
    shutil.copytree(os.path.join(examples, "memorybox"), root, dirs_exist_ok=True)
    path = os.path.join(root, "memory", "LONG_TERM.md")
    before = read_text(path)
    failures = []

    def args(writer, turn):
        return ["memorybox", "gate", "--root", root, "--text", fact_text(tag(writer, turn)),
                "--confidence", "0.90", "--value", "yes", "--category", "Team",
                "--not-redundant", "--stable", "--tier", "2", "--file", "memory/LONG_TERM.md",
                "--apply"]

    results = run_writers(binary, args)
    check_processes(results, failures, lambda data: data.get("applied") is True)
    after = read_text(path)
    check_gated(after, before, failures)
    check_no_transaction(root, failures)
    first = "- " + fact_text(tag(2, 4)) + "\n"
    for damaged in (after.replace(first, "- something else\n", 1), after + first):
        rejected = []
        check_gated(damaged, before, rejected)
        if not rejected:
            failures.append("the LONG_TERM.md check accepts a damaged file")
    return failures


# Phase 3: memorybox update --contradict, one entry per invocation.

def seeded_long_term():
    out = "# LONG_TERM\n\n## Facts\n"
    for t in all_tags():
        out += "- seeded fact %s\n  Confidence: 0.70\n  Verified: 2026-11-01\n" % t
    return out


def entry_ids(binary, root, failures):
    """seeded tag -> entry ID. memorybox.md §3: SHA-256 of the identity key, which for these
    bullets (lowercase ASCII, single spaces) is their text; `memorybox decay` must list each."""
    ids = {t: "memory/LONG_TERM.md#" + hashlib.sha256(
        ("seeded fact %s" % t).encode("utf-8")).hexdigest()[:12] for t in all_tags()}
    code, out, err = run(binary, ["memorybox", "decay", "--root", root, "--now", NOW,
                                  "--format", "json"])
    try:
        listed = {e["entry_id"] for e in json.loads(out.decode("utf-8"))["data"]["entries"]}
    except (ValueError, KeyError, TypeError):
        failures.append("memorybox decay exited %d: %r %r" % (code, out[:300], err[:300]))
        return ids
    if not set(ids.values()) <= listed:
        failures.append("memorybox decay lists %d of %d seeded entries" % (
            len(set(ids.values()) & listed), WRITERS * TURNS))
    return ids


def check_updated(text, failures):
    # Each seeded entry once, with the Review line of its own invocation, once.
    blocks = text.split("\n- ")[1:]
    found = []
    for block in blocks:
        lines = block.split("\n")
        if not lines[0].startswith("seeded fact "):
            failures.append("LONG_TERM.md: unexpected entry %r" % lines[0])
            continue
        t = lines[0][len("seeded fact "):]
        reviews = [line for line in lines if line.strip().startswith("Review:")]
        want = "  Review: contradicted %s: update note %s" % (TODAY, t)
        if reviews == [want]:
            found.append(t)
        elif reviews:
            failures.append("LONG_TERM.md: %s has %r" % (t, reviews))
    check_once_each("memory/LONG_TERM.md (Review lines)", found, failures)


def phase_update(binary, examples, root):
    shutil.copytree(os.path.join(examples, "memorybox"), root, dirs_exist_ok=True)
    path = os.path.join(root, "memory", "LONG_TERM.md")
    with open(path, "wb") as f:
        f.write(seeded_long_term().encode("utf-8"))
    failures = []
    ids = entry_ids(binary, root, failures)
    if failures:
        return failures

    def args(writer, turn):
        t = tag(writer, turn)
        return ["memorybox", "update", "--root", root, "--entry", ids[t], "--contradict",
                "--note", "update note %s" % t]

    results = run_writers(binary, args)
    check_processes(results, failures, lambda data: bool(data.get("written")))
    after = read_text(path)
    check_updated(after, failures)
    check_no_transaction(root, failures)
    review = "  Review: contradicted %s: update note %s\n" % (TODAY, tag(6, 6))
    for damaged in (after.replace(review, "", 1), after.replace(review, review + review, 1)):
        rejected = []
        check_updated(damaged, rejected)
        if not rejected:
            failures.append("the Review check accepts a damaged file")
    return failures


# Phase 4: memorybox log, two files per invocation.

def check_logged(session_log, daily, failures):
    found = []
    for block in session_log.split("\n### ")[1:]:
        lines = block.split("\n")
        heading = "%s \u2014 s " % TODAY
        if not lines[0].startswith(heading):
            failures.append("SESSION_LOG.md: unexpected heading %r" % lines[0])
            continue
        t = lines[0][len(heading):]
        if "log %s" % t not in lines:
            failures.append("SESSION_LOG.md: the entry of %s lacks its text" % t)
        found.append(t)
    check_once_each("memory/SESSION_LOG.md", found, failures)
    lines = [line[len("- s "):].split(": log ")[0] for line in daily.split("\n")
             if line.startswith("- s ")]
    check_once_each("memory/daily/%s.md" % TODAY, lines, failures)


def phase_log(binary, examples, root):
    shutil.copytree(os.path.join(examples, "memorybox"), root, dirs_exist_ok=True)
    log_path = os.path.join(root, "memory", "SESSION_LOG.md")
    day_path = os.path.join(root, "memory", "daily", TODAY + ".md")
    with open(log_path, "wb") as f:
        f.write(b"# SESSION_LOG\n")
    if os.path.exists(day_path):
        os.remove(day_path)
    failures = []

    def args(writer, turn):
        t = tag(writer, turn)
        return ["memorybox", "log", "--root", root, "--text", "log %s" % t, "--session", "s %s" % t]

    results = run_writers(binary, args)
    check_processes(results, failures, lambda data: len(data.get("written", [])) == 2)
    session_log, daily = read_text(log_path), read_text(day_path)
    check_logged(session_log, daily, failures)
    check_no_transaction(root, failures)
    line = "- s %s: log %s\n" % (tag(3, 3), tag(3, 3))
    for damaged in ((session_log, daily.replace(line, "", 1)), (session_log, daily + line)):
        rejected = []
        check_logged(damaged[0], damaged[1], rejected)
        if not rejected:
            failures.append("the daily file check accepts a damaged file")
    return failures


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    examples = os.path.abspath(argv[2])
    ok = True
    for name, phase in (("custodian add", phase_custodian_add), ("memorybox gate --apply", phase_gate),
                        ("memorybox update", phase_update), ("memorybox log", phase_log)):
        root = tempfile.mkdtemp(prefix="memkit-write-concurrency-")
        try:
            failures = phase(binary, examples, root)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        if failures:
            ok = False
            print("FAIL %s: %d writers x %d turns" % (name, WRITERS, TURNS))
            # What the files hold first, then the invocations that failed.
            failures.sort(key=lambda f: " exited " in f or ": exit 0 but" in f)
            for failure in failures[:20]:
                print(failure)
            if len(failures) > 20:
                print("(%d more)" % (len(failures) - 20))
        else:
            print("ok %s: %d writers x %d turns" % (name, WRITERS, TURNS))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
