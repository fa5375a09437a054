#!/usr/bin/env python3
"""MemoryBox sync end to end (spec memorybox.md §9): real `memkit` processes, agent roots in
temporary folders, and one remote: a folder (`dir`) or a real PostgreSQL server (`postgres`, the
server the ctest fixture started: MEMKIT_TEST_PG_DIR/conninfo).

usage: sync_scenarios.py MEMKIT dir|postgres [--keep]

Every scenario uses a workspace id of its own, so they share one remote without seeing each other
(which is itself checked by `isolation`). Roots converge when a copy of each, pushed to a scratch
folder remote, gives the same records.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

MEMKIT = None
KIND = None
REMOTE = None  # the --remote value
ENV = None
FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message, file=sys.stderr)


def check(condition, message):
    if not condition:
        fail(message)
    return condition


def run(root, *args, now=None, env=None, remote=True, expect=None):
    """Runs `memkit memorybox sync ...` on a root; returns (exit code, JSON envelope)."""
    argv = [MEMKIT, "memorybox", "sync", *args, "--root", root, "--format", "json"]
    if remote:
        argv += ["--remote", remote if isinstance(remote, str) else REMOTE]
    if now:
        argv += ["--now", now]
    done = subprocess.run(argv, env=env or ENV, capture_output=True, text=True, timeout=120)
    try:
        envelope = json.loads(done.stdout)
    except ValueError:
        fail("%s: not JSON: %r %r" % (" ".join(argv[1:]), done.stdout, done.stderr))
        envelope = {"data": {}, "findings": []}
    if expect is not None and done.returncode != expect:
        fail("%s exited %d, expected %d: %s" % (" ".join(args), done.returncode, expect,
                                                 json.dumps(envelope.get("findings"))))
    return done.returncode, envelope


def codes(envelope):
    return [f["code"] for f in envelope.get("findings", [])]


def pull(root, now, expect=0):
    """A pull; a plan that needs confirmation is confirmed (as an agent would after review)."""
    code, env = run(root, "pull", now=now, expect=expect)
    data = env.get("data", {})
    if code == 0 and data.get("needs_confirmation") and not data.get("applied"):
        plan = data["plan"]["plan_id"]
        code, env = run(root, "pull", "--apply", "--confirm-plan", plan, now=now, expect=0)
    return env


def new_root(base, name):
    root = os.path.join(base, name)
    os.makedirs(root)
    subprocess.run([MEMKIT, "memorybox", "init", "--root", root], check=True,
                   capture_output=True)
    return root


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8", newline="") as f:
        return f.read()


def append(root, path, text):
    write(root, path, read(root, path) + text)


def tree_digest(root, skip=(os.path.join(".memkit", "lock"),)):
    """Every file under the root (names and bytes) but `skip`, for "nothing was written"."""
    h = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if rel in skip:
                continue
            h.update(rel.encode() + b"\0")
            with open(path, "rb") as f:
                h.update(f.read() + b"\0")
    return h.hexdigest()


def records(root, base):
    """The records a root holds: a copy pushed to a scratch folder remote, read back."""
    copy = tempfile.mkdtemp(dir=base)
    shutil.copytree(root, os.path.join(copy, "r"), symlinks=True)
    r = os.path.join(copy, "r")
    shutil.rmtree(os.path.join(r, ".memkit", "sync"), ignore_errors=True)
    if os.path.exists(os.path.join(r, ".memkit", "sync.json")):
        os.remove(os.path.join(r, ".memkit", "sync.json"))
    scratch = os.path.join(copy, "remote")
    os.makedirs(scratch)
    done = subprocess.run([MEMKIT, "memorybox", "sync", "push", "--root", r, "--remote",
                           "dir:" + scratch, "--workspace-id", str(uuid.UUID(int=1)),
                           "--format", "json", "--now", "2026-11-30T12:00:00Z"],
                          env=ENV, capture_output=True, text=True)
    if done.returncode != 0:
        fail("records of %s: push to scratch failed: %s" % (root, done.stdout))
        return {}
    out = {}
    for table in ("memories", "session_logs", "daily_logs"):
        path = os.path.join(scratch, table + ".jsonl")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                out[r["id"]] = (r["table"], r["file"], r["category"], r["text"], r["confidence"],
                                r["verified"])
    shutil.rmtree(copy)
    return out


def converged(a, b, base, what):
    ra, rb = records(a, base), records(b, base)
    if not check(ra == rb, "%s: the roots differ:\n  only A %s\n  only B %s" % (
            what, sorted(set(ra.items()) - set(rb.items())),
            sorted(set(rb.items()) - set(ra.items())))):
        return False
    return ra


FACTS = """
## Facts

- The API base URL is https://api.example.com
  Confidence: 0.90
  Verified: 2026-11-20
  Updated: 2026-11-20T10:00:00.000Z
- Deploys happen on Tuesdays
  Confidence: 0.80
  Verified: 2026-11-25
  Updated: 2026-11-25T10:00:00.000Z
  Source: ops channel
"""

PATTERN = """
## 2026-11-28 \u2014 Retry with backoff
Confidence: 0.85
Verified: 2026-11-28
Updated: 2026-11-28T10:00:00.000Z

Retry flaky calls three times with exponential backoff.
"""

SESSION = """
### 2026-11-29 \u2014 Billing session
Updated: 2026-11-29T18:00:00.000Z

Fixed the invoice rounding bug.
"""


def seeded(base, name):
    root = new_root(base, name)
    append(root, "memory/LONG_TERM.md", FACTS)
    append(root, "memory/PATTERNS.md", PATTERN)
    append(root, "memory/SESSION_LOG.md", SESSION)
    write(root, "memory/daily/2026-11-29.md", "# 2026-11-29\n\n- Rotated the API key.\n")
    return root


def scenario_converge(base):
    """Two roots of one workspace: add, edit, move, delete; both converge."""
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    b = new_root(base, "b")
    _, pushed = run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 5, "converge: A sends its 5 entries: %s" % pushed["data"])
    check(len(pushed["data"].get("assigned", [])) == 5, "converge: 5 Ids assigned")
    check("Id: " in read(a, "memory/daily/2026-11-29.md").splitlines()[0],
          "converge: the daily file starts with its Id line")
    _, pulled = run(b, "pull", "--workspace-id", ws, now="2026-11-30T09:01:00Z", expect=0)
    check(pulled["data"].get("applied") is True and not pulled["data"]["needs_confirmation"],
          "converge: B's first pull only adds, written directly: %s" % pulled["data"])
    check(sorted(i["action"] for i in pulled["data"]["items"]) == ["added"] * 5,
          "converge: 5 added")
    check(read(b, "memory/daily/2026-11-29.md") == read(a, "memory/daily/2026-11-29.md"),
          "converge: the daily file arrives byte for byte")
    converged(a, b, base, "converge after the first pull")
    # B edits a fact by hand (Updated untouched) and pushes: the push stamps it.
    text = read(b, "memory/LONG_TERM.md").replace("Deploys happen on Tuesdays",
                                                  "Deploys happen on Thursdays")
    write(b, "memory/LONG_TERM.md", text)
    _, pushed = run(b, "push", now="2026-11-30T10:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 1 and pushed["data"]["last_push_ok"],
          "converge: B sends its one edit: %s" % pushed["data"])
    check("Updated: 2026-11-30T10:00:00.000Z" in read(b, "memory/LONG_TERM.md"),
          "converge: the pushed edit is stamped")
    pulled = pull(a, "2026-11-30T10:05:00Z")
    check([i["action"] for i in pulled["data"]["items"]] == ["updated"],
          "converge: A takes B's edit: %s" % pulled["data"].get("items"))
    check("Thursdays" in read(a, "memory/LONG_TERM.md") and
          "Source: ops channel" in read(a, "memory/LONG_TERM.md"),
          "converge: the edit replaces the text and keeps A's other fields")
    converged(a, b, base, "converge after an edit")
    # B edits it again and sets its Updated itself, later than its last sync (as memkit's own
    # writes do): the push sends it with that time and leaves the file as it is.
    text = read(b, "memory/LONG_TERM.md")
    check(text.count("Updated: 2026-11-30T10:00:00.000Z") == 1, "converge: B's stamp is there")
    text = text.replace("Deploys happen on Thursdays", "Deploys happen on Fridays").replace(
        "Updated: 2026-11-30T10:00:00.000Z", "Updated: 2026-11-30T10:30:00.000Z")
    write(b, "memory/LONG_TERM.md", text)
    _, pushed = run(b, "push", now="2026-11-30T10:40:00Z", expect=0)
    check(pushed["data"].get("sent") == 1, "converge: B sends its own-timed edit")
    check(read(b, "memory/LONG_TERM.md") == text, "converge: a push leaves an own-timed edit as is")
    pull(a, "2026-11-30T10:45:00Z")
    check("Fridays" in read(a, "memory/LONG_TERM.md") and
          "Updated: 2026-11-30T10:30:00.000Z" in read(a, "memory/LONG_TERM.md"),
          "converge: A takes the edit with B's own time")
    converged(a, b, base, "converge after an own-timed edit")
    # A deletes the pattern; B's pull archives its copy.
    write(a, "memory/PATTERNS.md", "# PATTERNS\n")
    _, pushed = run(a, "push", now="2026-11-30T11:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 1, "converge: A sends one tombstone")
    _, again = run(a, "push", now="2026-11-30T11:01:00Z", expect=0)
    check(again["data"].get("sent") == 0, "converge: the tombstone is sent once")
    pulled = pull(b, "2026-11-30T11:05:00Z")
    check([i["action"] for i in pulled["data"]["items"]] == ["deleted"],
          "converge: B deletes the pattern: %s" % pulled["data"].get("items"))
    archive = os.path.join(b, "memory/ARCHIVES/patterns-2026-11.md")
    check(os.path.exists(archive) and "Retry flaky calls" in read(b, "memory/ARCHIVES/patterns-2026-11.md"),
          "converge: the deleted pattern is kept in B's archive")
    converged(a, b, base, "converge after a deletion")
    # Nothing left on either side.
    for root in (a, b):
        _, status = run(root, "status", now="2026-11-30T12:00:00Z", expect=0)
        check(status["data"]["pending_push"] == 0 and status["data"]["pending_pull"] == 0,
              "converge: nothing pending on %s: %s" % (root, status["data"]))


def hygiene_item_10(root):
    done = subprocess.run([MEMKIT, "memorybox", "hygiene", "--root", root, "--format", "json",
                           "--now", "2026-11-30T11:45:00Z"], env=ENV, capture_output=True,
                          text=True)
    items = json.loads(done.stdout)["data"]["items"]
    return next(i for i in items if i["n"] == 10)


def scenario_conflict(base):
    """Both sides change one fact; newer and higher disagree: flagged, held, resolved."""
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    b = new_root(base, "b")
    run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z", expect=0)
    run(b, "pull", "--workspace-id", ws, now="2026-11-30T09:01:00Z", expect=0)
    # A: higher confidence, earlier; B: lower confidence, later.
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "api.example.com\n  Confidence: 0.90", "api2.example.com\n  Confidence: 0.95"))
    run(a, "push", now="2026-11-30T10:00:00Z", expect=0)
    write(b, "memory/LONG_TERM.md", read(b, "memory/LONG_TERM.md").replace(
        "api.example.com\n  Confidence: 0.90", "api3.example.com\n  Confidence: 0.50"))
    write(b, "memory/LONG_TERM.md", read(b, "memory/LONG_TERM.md").replace(
        "Updated: 2026-11-20T10:00:00.000Z", "Updated: 2026-11-30T11:00:00.000Z"))
    before = read(b, "memory/LONG_TERM.md")
    _, pulled = run(b, "pull", now="2026-11-30T11:30:00Z", expect=0)
    items = pulled["data"].get("items", [])
    check([(i["action"], i["rule"]) for i in items] == [("conflict", "fact_ambiguous")],
          "conflict: B's pull flags it: %s" % items)
    check("MK-BOX-021" in codes(pulled), "conflict: MK-BOX-021")
    after = read(b, "memory/LONG_TERM.md")
    check("api3.example.com" in after and "Review: sync conflict 2026-11-30" in after,
          "conflict: the local version stays, flagged")
    check(after.replace("  Review: sync conflict 2026-11-30\n", "") == before,
          "conflict: only the Review line is added")
    conflicts = read(b, "memory/SYNC_CONFLICTS.md")
    check("api2.example.com" in conflicts and "api3.example.com" in conflicts,
          "conflict: both versions are in SYNC_CONFLICTS.md")
    _, pushed = run(b, "push", now="2026-11-30T11:40:00Z", expect=0)
    check(len(pushed["data"].get("held", [])) == 1 and pushed["data"]["sent"] == 0,
          "conflict: the push holds it: %s" % pushed["data"])
    _, status = run(b, "status", now="2026-11-30T11:41:00Z", remote=False, expect=0)
    conflict_id = status["data"]["open_conflicts"]
    check(len(conflict_id) == 1, "conflict: status lists it")
    # Hygiene item 10: an open conflict fails it and is listed; a root that never synced is N/A.
    item = hygiene_item_10(b)
    check(item["result"] == "FAIL" and {"id": conflict_id[0]} in item["details"],
          "conflict: hygiene item 10 fails and lists the open conflict: %s" % item)
    item = hygiene_item_10(new_root(base, "never-synced"))
    check(item["result"] == "N/A" and item["value"] is None,
          "conflict: hygiene item 10 is N/A on a root that never synced: %s" % item)
    code, resolved = run(b, "resolve", "--id", conflict_id[0], "--take", "remote",
                         now="2026-11-30T11:50:00Z", remote=False, expect=0)
    text = read(b, "memory/LONG_TERM.md")
    check("api2.example.com" in text and "Review:" not in text,
          "conflict: resolve --take remote writes A's version without the Review line")
    check("Resolved " + conflict_id[0] in read(b, "memory/SYNC_CONFLICTS.md"),
          "conflict: the resolution is noted")
    run(b, "push", now="2026-11-30T11:55:00Z", expect=0)
    pull(a, "2026-11-30T12:00:00Z")
    converged(a, b, base, "conflict resolved")


def scenario_hygiene(base):
    """Hygiene item 10 follows what a push would send: the push's own Id and Updated lines are no
    change, an edit of an entry since is one (naming its file), and the next push settles it."""
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    item = hygiene_item_10(a)
    check(item["result"] == "N/A", "hygiene: N/A before the first sync: %s" % item)
    run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z", expect=0)
    check("Id: " in read(a, "memory/LONG_TERM.md"), "hygiene: the push wrote Id lines")
    item = hygiene_item_10(a)
    check(item["result"] == "PASS" and item["value"] == 0 and item["details"] == [],
          "hygiene: item 10 passes right after a push: %s" % item)
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Tuesdays", "Deploys happen on Wednesdays"))
    item = hygiene_item_10(a)
    check(item["result"] == "FAIL" and item["value"] == 1 and
          item["details"] == [{"path": "memory/LONG_TERM.md"}],
          "hygiene: an edited entry fails item 10, naming its file: %s" % item)
    run(a, "push", now="2026-11-30T10:00:00Z", expect=0)
    item = hygiene_item_10(a)
    check(item["result"] == "PASS", "hygiene: the next push settles it: %s" % item)


def scenario_isolation(base):
    """A root of another workspace sees none of the rows, and its pushes touch none."""
    ws1, ws2 = str(uuid.uuid4()), str(uuid.uuid4())
    a = seeded(base, "a")
    run(a, "push", "--workspace-id", ws1, now="2026-11-30T09:00:00Z", expect=0)
    # C is a copy of A (the same Ids) in another workspace, with other texts.
    c = os.path.join(base, "c")
    shutil.copytree(a, c, symlinks=True)
    shutil.rmtree(os.path.join(c, ".memkit", "sync"))
    os.remove(os.path.join(c, ".memkit", "sync.json"))
    write(c, "memory/LONG_TERM.md", read(c, "memory/LONG_TERM.md").replace("Tuesdays", "Mondays"))
    _, pulled = run(c, "pull", "--workspace-id", ws2, now="2026-11-30T09:05:00Z", expect=0)
    check(pulled["data"]["pulled"] == 0, "isolation: C pulls nothing of A's workspace")
    _, pushed = run(c, "push", now="2026-11-30T09:10:00Z", expect=0)
    check(pushed["data"]["last_push_ok"] and not pushed["data"]["refused"],
          "isolation: C's push of the same Ids is its own: %s" % pushed["data"])
    _, pulled = run(a, "pull", now="2026-11-30T09:15:00Z", expect=0)
    check(all(i["action"] == "unchanged" for i in pulled["data"]["items"]),
          "isolation: A sees none of C's rows: %s" % pulled["data"]["items"])
    check("Tuesdays" in read(a, "memory/LONG_TERM.md"), "isolation: A's text is untouched")
    b = new_root(base, "b")
    _, pulled = run(b, "pull", "--workspace-id", ws1, now="2026-11-30T09:20:00Z", expect=0)
    check("Tuesdays" in read(b, "memory/LONG_TERM.md") and
          "Mondays" not in read(b, "memory/LONG_TERM.md"),
          "isolation: a new root of A's workspace gets A's text only")


def scenario_faults(base, unreachable, unreachable_env):
    """Offline work is queued; a repeated push is idempotent; concurrent pushes both land."""
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    b = new_root(base, "b")
    # Offline: the push fails, nothing is acknowledged, and the next push sends it all.
    before = tree_digest(a)
    code, failed = run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z",
                       remote=unreachable, env=unreachable_env)
    check(code == 2 and "MK-BOX-023" in codes(failed),
          "faults: an unreachable remote is MK-BOX-023, exit 2: %d %s" % (code, codes(failed)))
    check(tree_digest(a) == before, "faults: a push that cannot connect writes nothing")
    _, status = run(a, "status", now="2026-11-30T09:01:00Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 5, "faults: the 5 records wait: %s" % status["data"])
    _, pushed = run(a, "push", "--workspace-id", ws, now="2026-11-30T09:05:00Z", expect=0)
    check(pushed["data"]["sent"] == 5 and pushed["data"]["last_push_ok"],
          "faults: the queued records are sent later: %s" % pushed["data"])
    # A root that has synced connects while it takes the lock and reads: a remote that fails then
    # still writes nothing (no Updated stamp for the edit, no base line, no sync.json change), and
    # the edit waits.
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Tuesdays", "Deploys happen on Tuesdays (edited offline)", 1))
    before = tree_digest(a)
    code, failed = run(a, "push", now="2026-11-30T09:05:30Z", remote=unreachable,
                       env=unreachable_env)
    check(code == 2 and codes(failed) == ["MK-BOX-023"],
          "faults: a synced root's push to an unreachable remote is MK-BOX-023 alone: %d %s" % (
              code, codes(failed)))
    check(tree_digest(a) == before, "faults: a synced root's push that cannot connect writes nothing")
    _, status = run(a, "status", now="2026-11-30T09:05:40Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 1, "faults: the edit waits: %s" % status["data"])
    _, pushed = run(a, "push", now="2026-11-30T09:05:50Z", expect=0)
    check(pushed["data"]["sent"] == 1, "faults: the edit is sent later: %s" % pushed["data"])
    # Where no Id is assigned, the Updated stamps are written while the records are sent: a write
    # that fails (memory/ made immutable) after the remote stored the edit leaves the root as it
    # was, base and sync.json too, and the next push sends the edit again.
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "(edited offline)", "(edited twice)", 1))
    memory = os.path.join(a, "memory")
    records_of_a = 5
    if subprocess.run(["chattr", "+i", memory], capture_output=True).returncode != 0:
        print("sync scenarios: chattr +i is not supported here; a failed local write is not tried")
    else:
        before = tree_digest(a)
        try:
            code, failed = run(a, "push", now="2026-11-30T09:05:52Z")
        finally:
            subprocess.run(["chattr", "-i", memory], check=True)
        check(code == 2 and any(f["message"].startswith("memory/LONG_TERM.md: not written: ")
                                for f in failed["findings"]),
              "faults: a failed local write is an error naming the file: %d %s" % (
                  code, failed["findings"]))
        check(tree_digest(a) == before, "faults: a push whose local write failed changed the root")
        seen = new_root(base, "seen")
        run(seen, "pull", "--workspace-id", ws, now="2026-11-30T09:05:54Z", expect=0)
        check("(edited twice)" in read(seen, "memory/LONG_TERM.md"),
              "faults: the records went out while the stamps were written")
        _, pushed = run(a, "push", now="2026-11-30T09:05:56Z", expect=0)
        check(pushed["data"]["sent"] == 1 and not pushed["data"]["refused"],
              "faults: the edit whose stamp failed is sent again: %s" % pushed["data"])
        # An entry given an Id is sent only once its Id line is written: none goes out here.
        append(a, "memory/LONG_TERM.md", "- Fact with no Id yet\n  Confidence: 0.90\n"
               "  Verified: 2026-11-30\n  Updated: 2026-11-30T09:00:00.000Z\n")
        subprocess.run(["chattr", "+i", memory], check=True)
        try:
            code, failed = run(a, "push", now="2026-11-30T09:05:57Z")
        finally:
            subprocess.run(["chattr", "-i", memory], check=True)
        check(code == 2, "faults: a failed Id line is an error: %d %s" % (code, codes(failed)))
        pull(seen, "2026-11-30T09:05:58Z")
        check("Fact with no Id yet" not in read(seen, "memory/LONG_TERM.md"),
              "faults: a record went out without its Id line written")
        _, pushed = run(a, "push", now="2026-11-30T09:05:59Z", expect=0)
        check(pushed["data"]["sent"] == 1 and len(pushed["data"]["assigned"]) == 1,
              "faults: the new entry is sent once its Id is written: %s" % pushed["data"])
        records_of_a = 6
    # A push repeated after a lost acknowledgement (the base never written) is acknowledged.
    os.remove(os.path.join(a, ".memkit", "sync", "base.tsv"))
    _, again = run(a, "push", now="2026-11-30T09:06:00Z", expect=0)
    check(again["data"]["sent"] == records_of_a and not again["data"]["refused"],
          "faults: a repeated push is acknowledged, not refused: %s" % again["data"])
    run(b, "pull", "--workspace-id", ws, now="2026-11-30T09:07:00Z", expect=0)
    converged(a, b, base, "faults: after the repeated push")
    # Two agents push at once: each its own new entries.
    append(a, "memory/LONG_TERM.md", "- Fact from A\n  Confidence: 0.90\n  Verified: 2026-11-30\n"
           "  Updated: 2026-11-30T10:00:00.000Z\n")
    append(b, "memory/LONG_TERM.md", "- Fact from B\n  Confidence: 0.90\n  Verified: 2026-11-30\n"
           "  Updated: 2026-11-30T10:00:00.000Z\n")
    procs = [subprocess.Popen([MEMKIT, "memorybox", "sync", "push", "--root", root, "--remote",
                               REMOTE, "--now", "2026-11-30T10:01:00Z", "--format", "json"],
                              env=ENV, stdout=subprocess.PIPE, text=True) for root in (a, b)]
    for p in procs:
        out, _ = p.communicate(timeout=120)
        check(p.returncode == 0, "faults: a concurrent push failed: %s" % out)
    pull(a, "2026-11-30T10:05:00Z")
    pull(b, "2026-11-30T10:05:00Z")
    both = converged(a, b, base, "faults: after concurrent pushes")
    if both:
        texts = [r[3] for r in both.values()]
        check("- Fact from A\n" in texts and "- Fact from B\n" in texts,
              "faults: both concurrent pushes landed")


BASE_HEADER = "# memkit sync base 2: XXH3-128 digests\n"


def base_lines(root):
    """The lines of base.tsv after its first, which says its version."""
    with open(os.path.join(root, ".memkit", "sync", "base.tsv"), encoding="utf-8",
              newline="") as f:
        lines = f.read().splitlines(keepends=True)
    check(lines[:1] == [BASE_HEADER], "base: the first line says the version: %r" % lines[:1])
    return lines[1:]


def scenario_base_file(base):
    """.memkit/sync/base.tsv is appended to; a torn or bloated one is written whole again."""
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z", expect=0)
    first = base_lines(a)
    check(len(first) == 5 and first == sorted(first, key=lambda l: l.split("\t")[3]),
          "base: the first push writes one sorted line per id: %r" % first)
    # An edit appends one line; the lines before it stay byte for byte.
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Tuesdays", "Deploys happen on Fridays"))
    _, pushed = run(a, "push", now="2026-11-30T10:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 1, "base: one edit sent: %s" % pushed["data"])
    second = base_lines(a)
    check(len(second) == 6 and second[:5] == first and second[5] not in first,
          "base: the edit is appended as one line: %r" % second)
    _, status = run(a, "status", now="2026-11-30T10:01:00Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 0, "base: the later line wins: %s" % status["data"])
    # A crash cut the last append short: that id is merely pushed again, and the base is
    # written whole.
    path = os.path.join(a, ".memkit", "sync", "base.tsv")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(BASE_HEADER + "".join(second[:5]) + second[5][:20])
    _, status = run(a, "status", now="2026-11-30T10:02:00Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 1,
          "base: the torn line's id is pending again: %s" % status["data"])
    _, pushed = run(a, "push", now="2026-11-30T10:03:00Z", expect=0)
    check(pushed["data"].get("sent") == 1 and not pushed["data"]["refused"],
          "base: the torn id is pushed again and acknowledged: %s" % pushed["data"])
    third = base_lines(a)
    check(len(third) == 5 and third == sorted(third, key=lambda l: l.split("\t")[3]) and
          second[5] in third,
          "base: after a torn line the base is written whole: %r" % third)
    # Appends that outgrow twice the ids (and 1,024 lines) are folded into a whole base.
    with open(path, "a", encoding="utf-8", newline="") as f:
        f.write(third[0] * 1100)
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Fridays", "Deploys happen on Mondays"))
    _, pushed = run(a, "push", now="2026-11-30T11:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 1, "base: one more edit sent: %s" % pushed["data"])
    fourth = base_lines(a)
    check(len(fourth) == 5 and fourth == sorted(fourth, key=lambda l: l.split("\t")[3]),
          "base: a bloated base is written whole: %d lines" % len(fourth))
    _, status = run(a, "status", now="2026-11-30T11:01:00Z", expect=0)
    check(status["data"]["pending_push"] == 0 and status["data"]["pending_pull"] == 0,
          "base: nothing pending at the end: %s" % status["data"])


CACHE_HEADER = b"# memkit scan cache 1\n"


def scan_cache(root):
    path = os.path.join(root, ".memkit", "sync", "scan.cache")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def scenario_scan_cache(base):
    """.memkit/sync/scan.cache: written whole once bullets with Ids are read, appended a block per
    push after that, written whole again after a torn append; a damaged or foreign one changes no
    answer."""
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z", expect=0)
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Tuesdays", "Deploys happen on Fridays"))
    run(a, "push", now="2026-11-30T10:00:00Z", expect=0)
    whole = scan_cache(a)
    check(whole is not None and whole.startswith(CACHE_HEADER) and
          (len(whole) - len(CACHE_HEADER) - 16) % 40 == 0,
          "scan cache: a push that read its bullets writes the cache whole: %r" % (whole or b"")[:40])
    bullets = (len(whole) - len(CACHE_HEADER) - 16) // 40
    check(bullets >= 2, "scan cache: it holds the bullets: %d" % bullets)
    # One edit: that bullet alone is read, and appended as a block of one entry.
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Fridays", "Deploys happen on Mondays"))
    _, pushed = run(a, "push", now="2026-11-30T11:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 1, "scan cache: one edit sent: %s" % pushed["data"])
    appended = scan_cache(a)
    check(appended[:len(whole)] == whole and len(appended) == len(whole) + 16 + 40,
          "scan cache: the edited bullet is appended: %d -> %d bytes" % (len(whole), len(appended)))
    _, status = run(a, "status", now="2026-11-30T11:01:00Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 0, "scan cache: nothing pending: %s" % status["data"])
    # The append torn by a crash: nothing is taken from it, and the next push writes it whole.
    path = os.path.join(a, ".memkit", "sync", "scan.cache")
    with open(path, "wb") as f:
        f.write(appended[:-5])
    _, status = run(a, "status", now="2026-11-30T11:02:00Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 0, "scan cache: a torn cache changes nothing: %s" %
          status["data"])
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Mondays", "Deploys happen on Wednesdays"))
    _, pushed = run(a, "push", now="2026-11-30T12:00:00Z", expect=0)
    check(pushed["data"].get("sent") == 1, "scan cache: the next edit sent: %s" % pushed["data"])
    rewritten = scan_cache(a)
    check(rewritten.startswith(CACHE_HEADER) and len(rewritten) == len(whole),
          "scan cache: written whole after a torn append: %d bytes" % len(rewritten))
    # Damaged (each entry's bytes changed) or another root's: the same answers, read in full.
    c = seeded(base, "c")  # the same facts, with Ids of its own
    run(c, "push", "--workspace-id", str(uuid.uuid4()), now="2026-11-30T12:30:00Z", expect=0)
    run(c, "push", now="2026-11-30T12:31:00Z", expect=0)
    foreign = scan_cache(c)
    check(foreign is not None and foreign != rewritten, "scan cache: another root has its own")
    for name, damage in [("damaged", rewritten[:len(CACHE_HEADER) + 16] +
                          bytes(x ^ 0x5a for x in rewritten[len(CACHE_HEADER) + 16:])),
                         ("foreign", foreign or b"")]:
        with open(path, "wb") as f:
            f.write(damage)
        _, status = run(a, "status", now="2026-11-30T12:40:00Z", remote=False, expect=0)
        check(status["data"]["pending_push"] == 0,
              "scan cache: a %s cache changes nothing: %s" % (name, status["data"]))
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Wednesdays", "Deploys happen on Thursdays"))
    _, status = run(a, "status", now="2026-11-30T12:50:00Z", remote=False, expect=0)
    check(status["data"]["pending_push"] == 1,
          "scan cache: the edit is still found: %s" % status["data"])


def scenario_bad_remote(base, cases):
    """Each bad remote: a clear error, exit 2, and nothing written locally."""
    for name, remote, code_expected, env_extra, *setup in cases:
        ws = str(uuid.uuid4())
        for prepare in setup:
            prepare(ws)
        a = seeded(base, "bad-" + name)
        run(a, "status", now="2026-11-30T09:00:00Z", remote=False, expect=0)
        before = tree_digest(a)
        lock = os.path.join(a, ".memkit", "lock")
        locked_before = os.path.exists(lock)
        # A remote that cannot be read is refused by each; an invalid row only by a pull. A
        # confirmed pull (which reads the files only under the lock) takes no lock either.
        pulls = [("pull",), ("pull", "--apply", "--confirm-plan", "0123456789abcdef")]
        for verb in pulls if code_expected == "MK-BOX-025" else pulls + [("push",)]:
            env = dict(ENV, **env_extra)
            code, out = run(a, *verb, "--workspace-id", ws, now="2026-11-30T09:00:00Z", env=env,
                            remote=remote)
            check(code == 2 and code_expected in codes(out),
                  "bad remote %s: %s gives %s, exit 2: got %d %s" % (
                      name, " ".join(verb), code_expected, code,
                      json.dumps(out.get("findings"))))
            if verb[0] == "pull":
                check(tree_digest(a) == before and os.path.exists(lock) == locked_before,
                      "bad remote %s: %s wrote nothing, not even the lock" % (name, " ".join(verb)))
            for secret in ("wrongpassword", "password=right"):
                check(secret not in json.dumps(out), "bad remote %s: the password is printed" % name)
            # Nor any other part of the connection string: host or socket, user, database.
            conninfo = env_extra.get("MEMKIT_SYNC_CONNINFO", "")
            for part in conninfo.split():
                key, _, value = part.partition("=")
                if key in ("host", "user", "dbname") and value not in ("", "postgres"):
                    check(value not in json.dumps(out),
                          "bad remote %s: %s=%s is printed: %s" % (
                              name, key, value, json.dumps(out.get("findings"))))


def scenario_bad_local_state(base):
    """A base.tsv that does not parse is MK-PARSE-001 naming its line; a linked folder of the root
    is told first when both are wrong (the files and the state are read at once). Nothing is
    written: a writer (push, confirmed pull) reads under the lock, so only the lock file and the
    .gitignore beside it may appear; status and a dry-run pull write nothing at all."""
    lock_files = (os.path.join(".memkit", "lock"), os.path.join(".memkit", ".gitignore"))
    a = seeded(base, "bad-state")
    os.makedirs(os.path.join(a, ".memkit", "sync"), exist_ok=True)
    write(a, ".memkit/sync/base.tsv", "zz\tmemories\tmemory/LONG_TERM.md\tid-1\n")
    elsewhere = os.path.join(base, "elsewhere")
    os.makedirs(elsewhere)
    verbs = [("status",), ("push",), ("pull",),
             ("pull", "--apply", "--confirm-plan", "0123456789abcdef")]
    for linked in (False, True):
        if linked:
            shutil.rmtree(os.path.join(a, "memory", "ARCHIVES"), ignore_errors=True)
            os.symlink(elsewhere, os.path.join(a, "memory", "ARCHIVES"))
        before = tree_digest(a, lock_files)
        for verb in verbs:
            all_before = tree_digest(a, ())
            code, out = run(a, *verb, now="2026-11-30T09:00:00Z", remote=verb[0] != "status")
            messages = [f["message"] for f in out.get("findings", [])]
            expected = ("MK-LAYOUT-001", "memory/ARCHIVES: is a symbolic link") if linked else (
                "MK-PARSE-001", ".memkit/sync/base.tsv:1: the digest is not")
            check(code == 2 and codes(out) == [expected[0]] and messages[0].startswith(expected[1]),
                  "bad local state (linked=%s): %s gives %s: got %d %s" % (
                      linked, " ".join(verb), expected[0], code, json.dumps(out.get("findings"))))
            writer = verb[0] == "push" or "--apply" in verb
            check(tree_digest(a, lock_files) == before and (
                writer or tree_digest(a, ()) == all_before),
                  "bad local state (linked=%s): %s wrote nothing" % (linked, " ".join(verb)))


def foreign_file_rows(base, remote_dir, ws):
    """Valid rows of `ws` but one, which names a file outside the synced tier files."""
    source = seeded(base, "foreign-source")
    run(source, "push", "--workspace-id", ws, now="2026-11-30T08:00:00Z",
        remote="dir:" + remote_dir, expect=0)
    path = os.path.join(remote_dir, "memories.jsonl")
    with open(path) as f:
        lines = f.read().splitlines()
    row = json.loads(lines[0])
    row["file"] = "brain/SOUL.md"
    lines[0] = json.dumps(row)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    global MEMKIT, KIND, REMOTE, ENV
    if len(sys.argv) < 3 or sys.argv[2] not in ("dir", "postgres"):
        print(__doc__, file=sys.stderr)
        return 2
    MEMKIT, KIND = os.path.abspath(sys.argv[1]), sys.argv[2]
    ENV = dict(os.environ)
    ENV.pop("MEMKIT_NOW", None)
    ENV.update({"LC_ALL": "C", "TZ": "UTC", "NO_COLOR": "1"})
    base = tempfile.mkdtemp(prefix="memkit-sync-")
    try:
        bad = []
        if KIND == "dir":
            remote_dir = os.path.join(base, "remote")
            os.makedirs(remote_dir)
            REMOTE = "dir:" + remote_dir
            unreachable = "dir:" + os.path.join(base, "no-such-remote")
            unreachable_env = ENV
            broken = os.path.join(base, "broken-remote")
            os.makedirs(broken)
            with open(os.path.join(broken, "memories.jsonl"), "w") as f:
                f.write('{"id": "x"}\n')
            foreign = os.path.join(base, "foreign-file-remote")
            os.makedirs(foreign)
            bad = [("missing", unreachable, "MK-BOX-023", {}),
                   ("invalid-row", "dir:" + broken, "MK-BOX-025", {}),
                   ("foreign-file", "dir:" + foreign, "MK-BOX-025", {},
                    lambda ws: foreign_file_rows(base, foreign, ws))]
        else:
            pg_dir = os.environ.get("MEMKIT_TEST_PG_DIR")
            if not pg_dir:
                print("MEMKIT_TEST_PG_DIR is not set: the PostgreSQL server fixture did not run",
                      file=sys.stderr)
                return 1
            with open(os.path.join(pg_dir, "conninfo")) as f:
                conninfo = f.read().strip()
            ENV["MEMKIT_SYNC_CONNINFO"] = conninfo
            REMOTE = "postgres"
            unreachable = "postgres"
            unreachable_env = dict(
                ENV, MEMKIT_SYNC_CONNINFO="host=127.0.0.1 port=1 connect_timeout=2")
            bad = pg_bad_cases(pg_dir, conninfo)
        scenarios = [("converge", lambda d: scenario_converge(d)),
                     ("conflict", lambda d: scenario_conflict(d)),
                     ("hygiene", lambda d: scenario_hygiene(d)),
                     ("isolation", lambda d: scenario_isolation(d)),
                     ("base file", lambda d: scenario_base_file(d)),
                     ("scan cache", lambda d: scenario_scan_cache(d)),
                     ("bad remote", lambda d: scenario_bad_remote(d, bad)),
                     ("bad local state", lambda d: scenario_bad_local_state(d))]
        scenarios.append(("faults", lambda d: scenario_faults(d, unreachable, unreachable_env)))
        if KIND == "postgres":
            scenarios.append(("base changed while pulling",
                              lambda d: scenario_base_changed_while_pulling(d, pg_dir)))
        for name, scenario in scenarios:
            folder = tempfile.mkdtemp(dir=base, prefix=name.replace(" ", "-") + "-")
            before = len(FAILURES)
            scenario(folder)
            print("%s %s" % ("ok  " if len(FAILURES) == before else "FAIL", name))
    finally:
        if "--keep" not in sys.argv:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print("kept " + base)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES), file=sys.stderr)
        return 1
    return 0


def psql_rows(conninfo, sql):
    done = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d",
                           conninfo, "-c", sql], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def wait_for(condition, what, seconds=30):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            fail("timed out waiting for " + what)
            return False
        time.sleep(0.05)
    return True


def scenario_base_changed_while_pulling(base, pg_dir):
    """A pull plans with the base as it is under the lock: a base.tsv that changed while the pull
    waited for the remote is read again, not taken from the pull's first read (PostgreSQL only:
    a lock held on the table makes the pull wait)."""
    with open(os.path.join(pg_dir, "env.json")) as f:
        env = json.load(f)
    db = "memkit_window_%s" % uuid.uuid4().hex[:8]
    conninfo = "host=%s port=%s user=postgres dbname=" % (env["socket_dir"], env["port"])
    psql(conninfo + "postgres", "CREATE DATABASE %s" % db)
    conninfo += db
    own = dict(ENV, MEMKIT_SYNC_CONNINFO=conninfo)
    ws = str(uuid.uuid4())
    a = seeded(base, "a")
    b = new_root(base, "b")
    run(a, "push", "--workspace-id", ws, now="2026-11-30T09:00:00Z", env=own, expect=0)
    run(b, "pull", "--workspace-id", ws, now="2026-11-30T09:01:00Z", env=own, expect=0)
    # A edits a fact and pushes it; A's base now ends with that fact's new line.
    write(a, "memory/LONG_TERM.md", read(a, "memory/LONG_TERM.md").replace(
        "Deploys happen on Tuesdays", "Deploys happen on Wednesdays"))
    run(a, "push", now="2026-11-30T10:00:00Z", env=own, expect=0)
    b_base = os.path.join(b, ".memkit", "sync", "base.tsv")
    with open(b_base, "rb") as f:
        b_bytes = f.read()
    with open(os.path.join(a, ".memkit", "sync", "base.tsv"), "rb") as f:
        edited = f.read().splitlines(keepends=True)[-1]
    check(b"memories" in edited and edited not in b_bytes, "window: A's base has the new line")
    # As B's first read finds it, its base already holds A's edit: nothing to pull. As it is
    # under the lock, the edit is new to B: an update (which waits for confirmation).
    with open(b_base, "ab") as f:
        f.write(edited)
    locker = subprocess.Popen(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    puller = None
    try:
        locker.stdin.write("BEGIN; LOCK TABLE memories IN ACCESS EXCLUSIVE MODE;\n")
        locker.stdin.flush()
        if not wait_for(lambda: psql_rows(
                conninfo, "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                "WHERE c.relname = 'memories' AND l.mode = 'AccessExclusiveLock' AND l.granted")
                == "1", "the table lock"):
            return
        puller = subprocess.Popen(
            [MEMKIT, "memorybox", "sync", "pull", "--root", b, "--remote", "postgres", "--now",
             "2026-11-30T10:05:00Z", "--format", "json"], env=own, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        if not wait_for(lambda: psql_rows(
                conninfo, "SELECT count(*) FROM pg_locks WHERE NOT granted") != "0",
                "the pull to wait for the table"):
            return
        with open(b_base, "wb") as f:
            f.write(b_bytes)
    finally:
        locker.stdin.write("COMMIT;\n")
        locker.stdin.close()
        locker.wait(timeout=60)
        if puller is not None:
            out, err = puller.communicate(timeout=120)
    data = json.loads(out).get("data", {}) if out else {}
    check([i["action"] for i in data.get("items", [])] == ["updated"],
          "window: the pull planned with the base read under the lock: %s %s" % (out, err))
    check(data.get("needs_confirmation") is True and data.get("applied") is False,
          "window: the update waits for confirmation: %s" % data)
    check("Tuesdays" in read(b, "memory/LONG_TERM.md"), "window: B's file is as it was")


def psql(conninfo, sql):
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo, "-c", sql],
                   check=True, capture_output=True, text=True)


def pg_bad_cases(pg_dir, conninfo):
    """A wrong password, an unreachable server, a database of a newer schema, an invalid row."""
    with open(os.path.join(pg_dir, "env.json")) as f:
        env = json.load(f)
    host = "host=%s port=%s" % (env["socket_dir"], env["port"])
    wrong = "%s user=%s dbname=%s password=wrongpassword" % (host, env["password_role"],
                                                           env["password_dbname"])
    newer_db = "memkit_newer_%s" % uuid.uuid4().hex[:8]
    psql(conninfo, "CREATE DATABASE %s" % newer_db)
    newer = "%s user=postgres dbname=%s" % (host, newer_db)
    psql(newer, "CREATE TABLE memkit_schema (version integer NOT NULL); "
                "INSERT INTO memkit_schema VALUES (99)")
    # A row that no valid push could store: a scored-table record without its scores. The
    # schema is made by a first connection (a status with this remote).
    invalid_db = "memkit_invalid_%s" % uuid.uuid4().hex[:8]
    psql(conninfo, "CREATE DATABASE %s" % invalid_db)
    invalid = "%s user=postgres dbname=%s" % (host, invalid_db)
    scratch = tempfile.mkdtemp()
    try:
        subprocess.run([MEMKIT, "memorybox", "init", "--root", scratch], check=True,
                       capture_output=True)
        subprocess.run([MEMKIT, "memorybox", "sync", "push", "--root", scratch, "--remote",
                        "postgres", "--workspace-id", str(uuid.uuid4())],
                       env=dict(ENV, MEMKIT_SYNC_CONNINFO=invalid), check=True,
                       capture_output=True)
    finally:
        shutil.rmtree(scratch)
    return [("unreachable", "postgres", "MK-BOX-023",
             {"MEMKIT_SYNC_CONNINFO": "host=127.0.0.1 port=1 connect_timeout=2"}),
            ("wrong-password", "postgres", "MK-BOX-023", {"MEMKIT_SYNC_CONNINFO": wrong}),
            ("newer-schema", "postgres", "MK-BOX-024", {"MEMKIT_SYNC_CONNINFO": newer}),
            ("invalid-row", "postgres", "MK-BOX-025", {"MEMKIT_SYNC_CONNINFO": invalid},
             lambda ws: psql(invalid, "INSERT INTO memories (workspace_id, id, file, category, "
                             "text, confidence, verified, updated_at, deleted, revision) VALUES "
                             "('%s', 'bad-row', 'memory/LONG_TERM.md', NULL, '- x', NULL, NULL, "
                             "date_trunc('milliseconds', now()), false, nextval('memkit_revision'))" % ws))]


if __name__ == "__main__":
    sys.exit(main())
