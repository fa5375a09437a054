#!/usr/bin/env python3
"""Every multi-file write of every group (and every appending one), killed at each step where the disk
changes.

A preload library (kill_at.c) makes the real `memkit` process SIGKILL itself just before its Nth
durable step (fsync, rename, link, unlink, mkdir, rmdir). For each case below the script counts
the steps of a clean run, then for every N (and a few kills after random delays) runs the write
in a fresh copy of its folder, kills it there, runs the group's `recover --apply`, and checks:

  * every file the write changes holds all of its old bytes or all of its new ones, and the files
    are all old or all new together (a transaction never shows half);
  * no transaction is left in .memkit/txn and no .memkit-tmp-* file anywhere;
  * the write can then be made again and gives the same bytes as a clean run.

usage: kill_matrix.py MEMKIT_BINARY KILL_AT_LIBRARY [CASE...]
"""

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "examples"))
NOW = "2026-11-30T10:00:00+00:00"
RANDOM_KILLS = 3
TIMEOUT = 60


def environment(extra=None):
    env = dict(os.environ)
    env.pop("MEMKIT_NOW", None)
    env.pop("LD_PRELOAD", None)
    env.update({"NO_COLOR": "1", "LC_ALL": "C", "LANG": "C", "TZ": "UTC"})
    env.update(extra or {})
    return env


class Memkit:
    def __init__(self, binary, preload):
        self.binary = binary
        self.preload = preload

    def run(self, cwd, args, check=True, stdin=None, now=NOW):
        done = subprocess.run([self.binary] + args + ["--now", now], cwd=cwd, env=environment(),
                              stdin=stdin, capture_output=True, timeout=TIMEOUT)
        if check and done.returncode != 0:
            raise AssertionError("%s: exit %d\n%s%s" % (" ".join(args), done.returncode,
                                                        done.stdout.decode(errors="replace"),
                                                        done.stderr.decode(errors="replace")))
        return done

    def json(self, cwd, args):
        done = self.run(cwd, args + ["--format", "json"], check=False)
        return json.loads(done.stdout)

    def killed(self, cwd, args, kill_at=0, count_file=None, delay=None):
        extra = {"LD_PRELOAD": self.preload, "MEMKIT_KILL_AT": str(kill_at)}
        if count_file:
            extra["MEMKIT_KILL_COUNT"] = count_file
        process = subprocess.Popen([self.binary] + args + ["--now", NOW], cwd=cwd,
                                   env=environment(extra), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        if delay is not None:
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
        return process.wait(timeout=TIMEOUT)


def snapshot(root):
    """Every file under root but .memkit/, with its digest."""
    files = {}
    for here, dirs, names in os.walk(root):
        rel = os.path.relpath(here, root)
        if rel == ".":
            dirs[:] = [d for d in dirs if d != ".memkit"]
        for name in names:
            path = os.path.normpath(os.path.join(rel, name))
            with open(os.path.join(here, name), "rb") as f:
                files[path] = hashlib.sha256(f.read()).hexdigest()
    return files


def leftovers(root):
    found = []
    for here, dirs, names in os.walk(root):
        for name in names + dirs:
            if name.startswith(".memkit-tmp-"):
                found.append(os.path.relpath(os.path.join(here, name), root))
    txn = os.path.join(root, ".memkit", "txn")
    if os.path.isdir(txn):
        found += [".memkit/txn/" + t for t in os.listdir(txn)]
    return found


# ---- cases --------------------------------------------------------------------------------------
# Each case: the folder to copy, what prepares it (run normally), the write to kill (a function of
# the prepared folder, so a plan ID can be read from its dry run), and the group's recover.


def confirmed(memkit, cwd, args):
    """args with --apply --confirm-plan ID, the ID from args' own dry run."""
    plan = memkit.json(cwd, args)
    plan_id = plan["data"].get("plan_id") or (plan["data"].get("plan") or {}).get("plan_id")
    assert plan_id, "no plan for %s: %s" % (" ".join(args), json.dumps(plan)[:600])
    return args + ["--apply", "--confirm-plan", plan_id]


def custodian_project(memkit, cwd):
    memkit.run(cwd, ["custodian", "init", "--project-root", "."])


def case_custodian_forget(memkit, cwd):
    # The tab note and its duplicate leave the inbox; the tombstone goes into do-not-use.md.
    return confirmed(memkit, cwd, ["custodian", "forget", "tabs", "--project-root", ".",
                                   "--allow-broad-match"])


def case_custodian_compact(memkit, cwd):
    # Changelog enabled: the inbox cleanup and its changelog line are one transaction.
    memkit.run(cwd, ["custodian", "init", "--project-root", ".", "--extended"])
    return confirmed(memkit, cwd, ["custodian", "compact", "--project-root", "."])


def case_custodian_undo(memkit, cwd):
    applied = memkit.run(cwd, case_custodian_forget(memkit, cwd) + ["--format", "json"])
    data = json.loads(applied.stdout)["data"]
    plan_id = data.get("plan_id") or data["plan"]["plan_id"]
    return confirmed(memkit, cwd, ["custodian", "undo", plan_id, "--project-root", "."])


def bloated_memorybox(memkit, cwd):
    # SESSION_LOG over its 200 lines: compact moves the oldest sessions to memory/ARCHIVES/.
    path = os.path.join(cwd, "memory", "SESSION_LOG.md")
    with open(path, "a", encoding="utf-8") as f:
        for day in range(1, 29):
            f.write("\n## 2026-09-%02d: session %d\n" % (day, day))
            for line in range(8):
                f.write("- step %d of session %d\n" % (line, day))


def case_memorybox_compact(memkit, cwd):
    bloated_memorybox(memkit, cwd)
    return confirmed(memkit, cwd, ["memorybox", "compact", "--root", "."])


def case_memorybox_gate(memkit, cwd):
    return ["memorybox", "gate", "--root", ".", "--text", "Staging lives at staging.example.org",
            "--confidence", "0.9", "--value", "yes", "--category", "Stack",
            "--not-redundant", "--stable", "--tier", "2", "--file", "memory/LONG_TERM.md",
            "--apply"]


def case_memorybox_log(memkit, cwd):  # SESSION_LOG.md and today's daily file, one transaction
    return ["memorybox", "log", "--root", ".", "--text", "Moved staging to a new host",
            "--session", "ops"]


def case_memorybox_promote(memkit, cwd):
    decay = memkit.json(cwd, ["memorybox", "decay", "--root", "."])
    patterns = [e["entry_id"] for e in decay["data"]["entries"]
                if e["entry_id"].startswith("memory/PATTERNS.md#")]
    assert patterns, "no pattern to promote: %s" % json.dumps(decay)[:600]
    return confirmed(memkit, cwd, ["memorybox", "promote", "--root", ".", "--entry", patterns[0]])


def synced_pair(memkit, cwd):
    # Root A pushes an edit and a new fact through a folder remote; this root (B, an earlier copy)
    # pulls them: the pull replaces LONG_TERM.md's entry, writes the base and sync.json.
    other = cwd + "-a"
    shutil.copytree(cwd, other, symlinks=True)
    os.mkdir(cwd + "-remote")
    remote = ["--remote", "dir:" + cwd + "-remote", "--workspace-id",
              "5b0e8f0a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"]
    earlier = "2026-11-29T10:00:00+00:00"
    memkit.run(other, ["memorybox", "sync", "push", "--root", "."] + remote, now=earlier)
    memkit.run(cwd, ["memorybox", "sync", "pull", "--root", "."] + remote, now=earlier)
    path = os.path.join(other, "memory", "LONG_TERM.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace("for 30 minutes", "for 45 minutes"))
    memkit.run(other, ["memorybox", "gate", "--root", ".", "--text", "Invoices are kept 10 years",
                       "--confidence", "0.9", "--value", "yes", "--category", "Stack",
                       "--not-redundant", "--stable", "--tier", "2", "--file",
                       "memory/LONG_TERM.md", "--apply"])
    # Later than the files' modification times, which stand in for a missing Updated field.
    memkit.run(other, ["memorybox", "sync", "push", "--root", "."] + remote,
               now="2030-01-01T00:00:00+00:00")
    return remote


def case_memorybox_sync_pull(memkit, cwd):
    remote = synced_pair(memkit, cwd)
    return confirmed(memkit, cwd, ["memorybox", "sync", "pull", "--root", "."] + remote)


def case_tiers_persist_turn(memkit, cwd):
    return ["tiers", "persist-turn", "--workspace", ".", "--raw-content", "we chose CSV",
            "--extracted-content", "Exports are CSV", "--theme", "decision", "--title", "export",
            "--promote-global"]


def case_tiers_write_global(memkit, cwd):
    return ["tiers", "write-global", "--workspace", ".", "--replace", "--content",
            "# Global Memory\n\n## 1. Active Mission\nShip the exporter.\n"]


def case_curated_checkpoint(memkit, cwd):
    return ["curated", "checkpoint", "--store", ".", "--workspace", "billing", "--file",
            "checkpoint.json"]


def case_curated_delete(memkit, cwd):
    names = memkit.json(cwd, ["curated", "list", "--store", ".", "--workspace", "billing"])
    rows = names["data"].get("items") or []
    assert rows, "no curated row to delete: %s" % json.dumps(names)[:600]
    return ["curated", "delete", rows[0]["name"], "--store", ".", "--workspace", "billing",
            "--hard", "--yes"]


def curated_store(memkit, cwd):
    shutil.copy(os.path.join(EXAMPLES, "curated", "checkpoint.json"), cwd)


# Appending transactions (issue 31): the files already exist, so the write appends to them.
def tiers_turn_taken(memkit, cwd):
    memkit.run(cwd, case_tiers_persist_turn(memkit, cwd))


def case_curated_add(memkit, cwd):
    return ["curated", "add", "--store", ".", "--workspace", "billing", "--name", "atom_kill",
            "--type", "atom", "--body", "Appended under a kill."]


def curated_history_started(memkit, cwd):
    memkit.run(cwd, ["curated", "add", "--store", ".", "--workspace", "billing", "--name",
                     "atom_first", "--type", "atom", "--body", "The history starts here."])


def case_curated_event(memkit, cwd):
    return ["curated", "event", "add", "--store", ".", "--workspace", "billing", "--type",
            "deploy", "--result", "ok"]


def curated_day_started(memkit, cwd):
    memkit.run(cwd, case_curated_event(memkit, cwd))


# A batch (curated.md §10) writes all its operations as one transaction: inserts into two row
# files, an edit and a move of rows that exist, and the history's append.
def curated_batch_ready(memkit, cwd):
    curated_history_started(memkit, cwd)
    ops = [{"op": "add", "name": "atom_batch", "type": "atom", "body": "One of a batch."},
           {"op": "add", "name": "decision_batch", "type": "decision", "body": "Decided."},
           {"op": "append", "name": "atom_first", "body": "More, in the same batch."},
           {"op": "link", "src": "atom_batch", "dst": "atom_first", "kind": "relates_to"}]
    with open(os.path.join(cwd, "ops.json"), "w", encoding="utf-8") as f:
        json.dump(ops, f)


def case_curated_batch(memkit, cwd):
    return ["curated", "batch", "--store", ".", "--workspace", "billing", "--file", "ops.json"]


CASES = {
    "custodian forget": ("project", None, case_custodian_forget, "custodian"),
    "custodian compact": ("project", None, case_custodian_compact, "custodian"),
    "custodian undo": ("project", None, case_custodian_undo, "custodian"),
    "memorybox compact": ("memorybox", None, case_memorybox_compact, "memorybox"),
    "memorybox gate": ("memorybox", None, case_memorybox_gate, "memorybox"),
    "memorybox promote": ("memorybox", None, case_memorybox_promote, "memorybox"),
    "memorybox log": ("memorybox", None, case_memorybox_log, "memorybox"),
    "memorybox sync pull": ("memorybox", None, case_memorybox_sync_pull, "memorybox"),
    "tiers persist-turn": ("tiers", None, case_tiers_persist_turn, "tiers"),
    "tiers write-global --replace": ("tiers", None, case_tiers_write_global, "tiers"),
    "curated checkpoint": ("curated", curated_store, case_curated_checkpoint, "curated"),
    "curated delete --hard": ("curated", None, case_curated_delete, "curated"),
    "tiers persist-turn, appending": ("tiers", tiers_turn_taken, case_tiers_persist_turn,
                                      "tiers"),
    "curated add, appending": ("curated", curated_history_started, case_curated_add, "curated"),
    "curated event add, appending": ("curated", curated_day_started, case_curated_event,
                                     "curated"),
    "curated batch": ("curated", curated_batch_ready, case_curated_batch, "curated"),
}

RECOVER = {
    "custodian": ["custodian", "recover", "--project-root", ".", "--apply"],
    "memorybox": ["memorybox", "recover", "--root", ".", "--apply"],
    "tiers": ["tiers", "recover", "--workspace", ".", "--apply"],
    "curated": ["curated", "recover", "--store", ".", "--workspace", "billing", "--apply"],
}


def fresh(example, prepare, memkit, scratch):
    cwd = tempfile.mkdtemp(dir=scratch)
    shutil.rmtree(cwd)
    shutil.copytree(os.path.join(EXAMPLES, example), cwd, symlinks=True)
    if prepare:
        prepare(memkit, cwd)
    return cwd


def run_case(name, memkit, scratch):
    example, prepare, make_args, group = CASES[name]
    # A clean run: the old and new states, and the number of durable steps it takes.
    cwd = fresh(example, prepare, memkit, scratch)
    args = make_args(memkit, cwd)
    old = snapshot(cwd)
    count_file = os.path.join(scratch, "count")
    rc = memkit.killed(cwd, args, count_file=count_file)
    assert rc == 0, "%s: a clean run exited %d" % (name, rc)
    new = snapshot(cwd)
    with open(count_file) as f:
        steps = int(f.read())
    changed = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
    assert changed, "%s: the write changed nothing" % name
    problems = []
    states = {"old": 0, "new": 0}
    trials = [("step", n) for n in range(1, steps + 1)]
    rng = random.Random(name)
    trials += [("delay", rng.uniform(0.0, 0.05)) for _ in range(RANDOM_KILLS)]
    for kind, at in trials:
        cwd = fresh(example, prepare, memkit, scratch)
        args = make_args(memkit, cwd)
        if kind == "step":
            memkit.killed(cwd, args, kill_at=at)
        else:
            memkit.killed(cwd, args, delay=at)
        label = "%s, killed at %s %s" % (name, kind, at)
        recovered = memkit.run(cwd, RECOVER[group], check=False)
        if recovered.returncode != 0:
            problems.append("%s: recover exited %d: %s" % (label, recovered.returncode,
                                                           recovered.stdout.decode()[:400]))
            continue
        now = snapshot(cwd)
        mixed = {p: now.get(p) for p in changed}
        if all(mixed[p] == old.get(p) for p in changed):
            states["old"] += 1
        elif all(mixed[p] == new.get(p) for p in changed):
            states["new"] += 1
        else:
            detail = ", ".join("%s=%s" % (p, "old" if mixed[p] == old.get(p) else
                                          "new" if mixed[p] == new.get(p) else "other")
                               for p in changed)
            problems.append("%s: a mix after recover: %s" % (label, detail))
        others = sorted(p for p in set(now) | set(old)
                        if p not in changed and now.get(p) != old.get(p))
        if others:
            problems.append("%s: files outside the write changed: %s" % (label, others))
        left = leftovers(cwd)
        if left:
            problems.append("%s: left behind after recover: %s" % (label, left))
        shutil.rmtree(cwd)
    print("%s: %d steps, %d trials: %d old, %d new, %d problem(s)" % (
        name, steps, len(trials), states["old"], states["new"], len(problems)))
    if states["old"] == 0 or states["new"] == 0:
        problems.append("%s: the kills never reached both sides of the commit" % name)
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    memkit = Memkit(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
    names = sys.argv[3:] or list(CASES)
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            try:
                problems = run_case(name, memkit, scratch)
            except AssertionError as e:
                problems = [str(e)]
            for p in problems[:20]:
                print("  FAIL " + p)
            failed += 1 if problems else 0
    print("%d passed, %d failed" % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
