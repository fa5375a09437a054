#!/usr/bin/env python3
"""Concurrent `memkit tiers` writers on one workspace: real processes, one lock (tiers3.md §9).

N writers start at once. Each runs M `memkit tiers` invocations one after the other, so up to N
memkit processes contend for the workspace's .memkit/lock at any moment. Afterwards the files must
hold every turn exactly once, each entry intact in the byte format of tiers3.md, and no transaction
may be left behind. A lost update (two processes appending to the same old bytes), a torn entry or
a half-applied persist-turn all fail here.

  phase 1  log-turn: N*M L1 entries in memory/sessions/2026-03-07.md
  phase 2  persist-turn --theme shared --promote-global: each turn writes L1, L2 and global.md in
           one transaction, so the three files must list the turns in the same order, and
           global.md must start with exactly one skeleton (created on first need, under the lock)

usage: tiers_concurrency.py MEMKIT_BINARY
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
DAY = "2026-03-07"
LOCK_TIMEOUT = "60"
PROCESS_TIMEOUT = 120

SKELETON = ("# Global Memory\n\nRead Order: Active Mission -> Key Constraints -> Research Index -> "
            "User Preferences\n\n## 1. Active Mission\n### Mission Snapshot\n"
            "### Key Constraints (Immutable)\n### Next Useful Reads\n\n## 2. Research Index\n\n"
            "## 3. Decisions\n\n## 4. User Preferences\n")


def environment():
    env = dict(os.environ)
    env.pop("MEMKIT_NOW", None)
    env["NO_COLOR"] = "1"
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    env["TZ"] = "UTC"
    return env


def stamp(writer, turn):
    # Same local day and hour for everyone (one L1 file, one L2 file); the minute names the
    # writer and the second the turn, so each entry's header tells which invocation wrote it.
    return "%s 14:%02d:%02d" % (DAY, 10 + writer, turn)


def now_arg(writer, turn):
    return stamp(writer, turn).replace(" ", "T") + "+00:00"


def turn_id(writer, turn):
    return "p%d-t%d" % (writer, turn)


def run_writers(binary, workspace, args_for):
    """Runs WRITERS threads, each starting TURNS processes in sequence; all threads start together.

    Returns (writer, turn, returncode, stdout, stderr) for every invocation."""
    results = []
    results_lock = threading.Lock()
    start = threading.Barrier(WRITERS)

    def writer_loop(writer):
        start.wait()
        for turn in range(TURNS):
            argv = [binary, "tiers"] + args_for(writer, turn) + [
                "--workspace", workspace, "--now", now_arg(writer, turn), "--lock-timeout",
                LOCK_TIMEOUT, "--format", "json"]
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=environment())
            try:
                out, err = proc.communicate(timeout=PROCESS_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                err += b"\n(killed after %d s)" % PROCESS_TIMEOUT
            with results_lock:
                results.append((writer, turn, proc.returncode, out, err))

    threads = [threading.Thread(target=writer_loop, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def check_processes(results, failures, expect_data):
    for writer, turn, code, out, err in sorted(results):
        name = "%s (%s)" % (turn_id(writer, turn), now_arg(writer, turn))
        if code != 0:
            failures.append("%s exited %d: %s %s" % (name, code, out.decode("utf-8", "replace"),
                                                     err.decode("utf-8", "replace")))
            continue
        try:
            envelope = json.loads(out.decode("utf-8"))
        except ValueError:
            failures.append("%s: stdout is not JSON: %r" % (name, out))
            continue
        if envelope.get("status") != "PASS" or envelope.get("findings"):
            failures.append("%s: %s" % (name, out.decode("utf-8")))
        for key, value in expect_data.items():
            if envelope.get("data", {}).get(key) != value:
                failures.append("%s: data.%s is %r, expected %r" % (
                    name, key, envelope.get("data", {}).get(key), value))


def parse_sequence(label, text, prefix, separator, entry_re, failures):
    """Splits text into prefix + entry (separator entry)*, each entry matching entry_re exactly.

    Returns the list of match objects; reports the first byte where the format breaks."""
    if not text.startswith(prefix):
        failures.append("%s: does not start with %r: %r" % (label, prefix, text[:200]))
        return []
    matches = []
    pos = len(prefix)
    while True:
        m = entry_re.match(text, pos)
        if m is None:
            failures.append("%s: entry %d is malformed at byte %d: %r" % (
                label, len(matches) + 1, pos, text[pos:pos + 200]))
            return matches
        matches.append(m)
        pos = m.end()
        if pos == len(text):
            return matches
        if not text.startswith(separator, pos):
            failures.append("%s: after entry %d expected %r at byte %d, found %r" % (
                label, len(matches), separator, pos, text[pos:pos + 200]))
            return matches
        pos += len(separator)


def check_once_each(label, ids, failures):
    expected = sorted(turn_id(w, t) for w in range(WRITERS) for t in range(TURNS))
    if len(ids) != WRITERS * TURNS:
        failures.append("%s: %d entries, expected %d" % (label, len(ids), WRITERS * TURNS))
    if sorted(ids) != expected:
        missing = sorted(set(expected) - set(ids))
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        failures.append("%s: missing %s, more than once %s" % (label, missing[:10], doubled[:10]))


def check_stamps(label, matches, failures):
    # Every entry carries the clock of the invocation that wrote its content: nothing was
    # stitched together from two turns.
    for m in matches:
        writer, turn = int(m.group("w")), int(m.group("t"))
        if m.group("ts") != stamp(writer, turn):
            failures.append("%s: %s has the time %s, expected %s" % (
                label, turn_id(writer, turn), m.group("ts"), stamp(writer, turn)))


def l1_entry_re(entry_type):
    # tiers3.md §4: header, the Session line, an empty line, the content (two lines here, inner
    # LF kept), an empty line, ---.
    return re.compile(
        r"### \[(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\] " + entry_type + r"\n"
        r"\*\*Session:\*\* w(?P<sw>\d+)\n"
        r"\n"
        r"(?:raw )?p(?P<w>\d+)-t(?P<t>\d+)\nsecond line of p(?P=w)-t(?P=t)\n"
        r"\n"
        r"---")


def read_l1(workspace, entry_type, failures):
    path = os.path.join(workspace, "memory", "sessions", DAY + ".md")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    label = "memory/sessions/%s.md" % DAY
    matches = parse_sequence(label, text, "# Session Log - %s\n\n" % DAY, "\n\n",
                             l1_entry_re(entry_type), failures)
    for m in matches:
        if m.group("sw") != m.group("w"):
            failures.append("%s: p%s-t%s has session w%s" % (label, m.group("w"), m.group("t"),
                                                            m.group("sw")))
    check_stamps(label, matches, failures)
    ids = ["p%s-t%s" % (m.group("w"), m.group("t")) for m in matches]
    check_once_each(label, ids, failures)
    return ids


def check_no_leftovers(workspace, expected_files, failures):
    txn = os.path.join(workspace, ".memkit", "txn")
    if os.path.isdir(txn) and os.listdir(txn):
        failures.append(".memkit/txn holds unfinished transactions: %s" % sorted(os.listdir(txn)))
    found = []
    for here, _, files in os.walk(os.path.join(workspace, "memory")):
        for name in files:
            found.append(os.path.relpath(os.path.join(here, name), workspace).replace(os.sep, "/"))
    if sorted(found) != sorted(expected_files):
        failures.append("files under memory/: %s, expected %s" % (sorted(found),
                                                                 sorted(expected_files)))


def turn_lines(writer, turn, prefix=""):
    return "%sp%d-t%d\nsecond line of p%d-t%d" % (prefix, writer, turn, writer, turn)


def phase_log_turn(binary, workspace):
    failures = []

    def args(writer, turn):
        return ["log-turn", "--content", turn_lines(writer, turn), "--session-id", "w%d" % writer]

    results = run_writers(binary, workspace, args)
    check_processes(results, failures, {"path": "memory/sessions/%s.md" % DAY})
    read_l1(workspace, "TURN", failures)
    check_no_leftovers(workspace, ["memory/sessions/%s.md" % DAY], failures)
    return failures


def phase_persist_turn(binary, workspace):
    failures = []

    def args(writer, turn):
        return ["persist-turn", "--raw-content", turn_lines(writer, turn, "raw "),
                "--extracted-content", turn_lines(writer, turn, "note "), "--theme", "shared",
                "--promote-global", "--entry-type", "persist", "--session-id", "w%d" % writer]

    l2_rel = "memory/shared/%s_14.md" % DAY
    results = run_writers(binary, workspace, args)
    check_processes(results, failures, {
        "l1_written": True, "l2_written": True, "l2_path": l2_rel, "theme": "shared",
        "global_updated": True})
    l1_ids = read_l1(workspace, "PERSIST", failures)

    # tiers3.md §5: "## <ts>" (no title, no template), LF, LF, content, LF; entries joined by
    # LF LF.
    with open(os.path.join(workspace, l2_rel), "rb") as f:
        l2_text = f.read().decode("utf-8")
    l2_re = re.compile(r"## (?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\n\n"
                       r"note p(?P<w>\d+)-t(?P<t>\d+)\nsecond line of p(?P=w)-t(?P=t)\n")
    l2_matches = parse_sequence(l2_rel, l2_text, "", "\n\n", l2_re, failures)
    check_stamps(l2_rel, l2_matches, failures)
    l2_ids = ["p%s-t%s" % (m.group("w"), m.group("t")) for m in l2_matches]
    check_once_each(l2_rel, l2_ids, failures)

    # tiers3.md §6: the skeleton once (first need), then LF LF and one promotion block per turn,
    # no final LF. The heading has minutes only, so the minute is checked against the writer.
    with open(os.path.join(workspace, "memory", "global.md"), "rb") as f:
        global_text = f.read().decode("utf-8")
    global_re = re.compile(r"## Persisted Turn Promotion - (?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d)\n\n"
                           r"note p(?P<w>\d+)-t(?P<t>\d+)\nsecond line of p(?P=w)-t(?P=t)")
    global_matches = parse_sequence("memory/global.md", global_text, SKELETON + "\n\n", "\n\n",
                                    global_re, failures)
    for m in global_matches:
        want = stamp(int(m.group("w")), int(m.group("t")))[:16]
        if m.group("ts") != want:
            failures.append("memory/global.md: p%s-t%s has the time %s, expected %s" % (
                m.group("w"), m.group("t"), m.group("ts"), want))
    global_ids = ["p%s-t%s" % (m.group("w"), m.group("t")) for m in global_matches]
    check_once_each("memory/global.md", global_ids, failures)

    # One transaction per turn under one lock: the three files grow in the same order.
    if l1_ids != l2_ids or l1_ids != global_ids:
        failures.append("the turns are in different orders:\n  L1 %s\n  L2 %s\n  L3 %s" % (
            l1_ids, l2_ids, global_ids))
    check_no_leftovers(workspace, ["memory/sessions/%s.md" % DAY, l2_rel, "memory/global.md"],
                       failures)
    return failures


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    ok = True
    for name, phase in (("log-turn", phase_log_turn), ("persist-turn", phase_persist_turn)):
        workspace = tempfile.mkdtemp(prefix="memkit-tiers-concurrency-")
        try:
            failures = phase(binary, workspace)
        finally:
            shutil.rmtree(workspace, ignore_errors=True)
        if failures:
            ok = False
            print("FAIL %s: %d writers x %d turns" % (name, WRITERS, TURNS))
            for failure in failures[:20]:
                print(failure)
            if len(failures) > 20:
                print("(%d more)" % (len(failures) - 20))
        else:
            print("ok %s: %d writers x %d turns" % (name, WRITERS, TURNS))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
