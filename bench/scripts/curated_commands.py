#!/usr/bin/env python3
"""curated_commands.py MEMKIT [--sizes 100,2000,20000] [--runs N] [--batch-adds N[,N]] [--keep DIR]
                            [--json FILE]

Whole-command wall times of `memkit curated` (spec curated.md) on this machine, every command
with the fixed clock --now 2026-11-30T09:00:00Z, --format json, stdout discarded, no shell in
between (python3 time.perf_counter around subprocess.run):

  For each N of --sizes (default 100, 2000, 20000) a store is built directly on disk, never by N
  `add` calls: workspace ws1 with N rows spread over the six type files in the §4 format (fields
  in memkit's order, entries sorted by name, bodies of 1 to 10 lines, one row in four with 1 to 3
  links, 2% soft-deleted), history.jsonl in the §6 format (an insert per row, then link,
  append and delete records, in time order) and access.jsonl (about three reads per row). Then
  RUNS runs (default 20) of each command, after one untimed run whose JSON is checked:
  add (an insert at a sorted place in the middle of project.md), append, reclassify (a thread's
  status toggled), get-relevant (the digest), get-relevant --initiative (the largest initiative),
  show, search (two words), list --sort injection, stats and story (of the row with the most
  links), and `memkit --version` (process start-up, reads nothing). The median, p99 (nearest
  rank) and max of each; the writes change the store as they go (one more row per add), the reads
  append their access records, as in real use.
  After the N = 2000 commands, `batch` of --batch-adds adds (default 200; 0 skips it), written as
  one transaction (§10), into that store and into an empty one: the total and the time per add.
  Several counts (--batch-adds 500,2000) each add into a copy of that store and a new empty one.

MEMKIT is the memkit CLI; time a Release build (its CMakeCache.txt, two folders up, is read for
the build type). Every file is generated in a temporary folder from a fixed seed and removed at
the end (--keep DIR copies each store there once its commands ran). --json FILE also writes every
figure printed (times in seconds, sizes in bytes) to FILE, for bench/scripts/benchmarks_md.py.
Standard library only.
"""
import argparse
import datetime
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from command_timing import machine_lines, quantile, timed_run  # noqa: E402

NOW = "2026-11-30T09:00:00Z"
WORKSPACE = "ws1"
SEED = 20261130
T0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
END = datetime.datetime(2026, 11, 29, tzinfo=datetime.timezone.utc)
# Body text: ASCII words (some of them search terms), and a few accented and CJK ones.
WORDS = ["memory", "agent", "context", "budget", "tabs", "config", "deploy", "cache", "index",
         "review", "Kafka", "build", "schema", "turn", "theme", "global", "window", "token",
         "flaky", "runner", "timeout", "retry", "migration", "queue", "latency", "owner",
         "café", "Straße", "記住"]
SLUG_WORDS = ["cache", "deploy", "index", "schema", "queue", "build", "review", "token",
              "window", "budget", "runner", "retry", "owner", "agent", "theme", "config"]
# (type, slug prefix, share)
TYPES = [("project", "project_", 30), ("feedback", "feedback_", 15), ("user", "user_", 10),
         ("atom", "atom_", 15), ("decision", "decision_", 20), ("negative", "negative_", 10)]
STATUSES = [("open", 40), ("carry_forward", 20), ("closed", 25), ("graduated", 15)]
LINK_KINDS = [("relates_to", 50), ("derived_from", 30), ("supersedes", 10), ("graduated_to", 10)]


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    pick = rng.randrange(total)
    for value, w in pairs:
        if pick < w:
            return value
        pick -= w
    raise AssertionError


def ts(moment):
    """RFC 3339 UTC with milliseconds (§2)."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def canonical(value):
    """compaction.md §12.1 canonical JSON, as memkit writes it."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# ---- the store ----------------------------------------------------------------------------------

class Row:
    __slots__ = ("name", "type", "row_class", "status", "initiative", "audience", "description",
                 "project_ref", "origin_session", "created", "updated", "deleted", "links",
                 "body", "first_body")

    def state(self, body=None, deleted=None):
        """The §6 history state of the row."""
        return {"type": self.type, "class": self.row_class, "status": self.status,
                "initiative": self.initiative, "audience": self.audience,
                "description": self.description,
                "body": self.body if body is None else body, "project_ref": self.project_ref,
                "deleted": deleted is not None, "deleted_at": deleted}

    def entry(self):
        """The §4 entry, fields in memkit's order, one final LF."""
        lines = [f"## {self.name}", f"Type: {self.type}", f"Class: {self.row_class}"]
        if self.status:
            lines.append(f"Status: {self.status}")
        if self.initiative:
            lines.append(f"Initiative: {self.initiative}")
        lines.append(f"Audience: {self.audience}")
        if self.description:
            lines.append(f"Description: {self.description}")
        if self.project_ref:
            lines.append(f"Project-Ref: {self.project_ref}")
        if self.origin_session:
            lines.append(f"Origin-Session: {self.origin_session}")
        lines += [f"Created: {self.created}", f"Updated: {self.updated}"]
        if self.deleted:
            lines.append(f"Deleted: {self.deleted}")
        for kind, dst, at in self.links:
            lines.append(f"Link: {kind} {dst} {at}")
        return "\n".join(lines) + "\n\n" + self.body + "\n"


def body_text(rng):
    """1 to 10 lines: paragraphs, bullets, now and then a `## Evidence` section (§4 allows it)."""
    lines = []
    for n in range(1 + rng.randrange(10)):
        kind = rng.randrange(10)
        if kind < 5 or n == 0:
            lines.append(words(rng, 6 + rng.randrange(14)))
        elif kind < 9:
            lines.append("- " + words(rng, 4 + rng.randrange(10)))
        else:
            lines += ["", "## Evidence", ""]
    while lines[-1] == "" or lines[-1].startswith("## "):
        lines.pop()
    return "\n".join(lines)


def make_rows(n, rng):
    """N rows in creation order, with links to earlier rows."""
    step = (END - T0) / max(n, 1) * 0.8
    initiatives = [f"{rng.choice(SLUG_WORDS)}_{k}" for k in range(max(5, n // 40))]
    rows = []
    for i in range(n):
        r = Row()
        type_name, prefix, _ = weighted(rng, [((t, p, w), w) for t, p, w in TYPES])
        r.type = type_name
        r.name = f"{prefix}{i:06d}_{rng.choice(SLUG_WORDS)}"
        pick = rng.randrange(100)
        r.row_class = "thread" if pick < 35 else "anchor" if pick < 65 else "log"
        r.status = weighted(rng, STATUSES) if r.row_class == "thread" else None
        r.initiative = rng.choice(initiatives) if rng.randrange(4) else None
        if type_name == "user":
            r.audience = "executor" if rng.randrange(2) else "any"
        else:
            r.audience = weighted(rng, [("any", 85), ("orchestrator", 10), ("executor", 5)])
        r.description = words(rng, 4 + rng.randrange(9)) if rng.randrange(100) < 85 else None
        r.project_ref = (f"/srv/repos/{r.initiative or 'misc'}/.git"
                         if rng.randrange(5) == 0 else None)
        r.origin_session = f"s-{i // 7}" if rng.randrange(10) < 3 else None
        created = T0 + step * i + datetime.timedelta(milliseconds=rng.randrange(1000))
        updated = created + datetime.timedelta(minutes=rng.randrange(60 * 24 * 20))
        updated = min(updated, END)
        r.created, r.updated = ts(created), ts(updated)
        r.deleted = r.updated if rng.randrange(50) == 0 else None
        r.links = []
        if i > 0 and rng.randrange(4) == 0:
            seen = set()
            for _ in range(1 + rng.randrange(3)):
                kind = weighted(rng, LINK_KINDS)
                dst = rows[rng.randrange(i)].name
                if (kind, dst) not in seen:
                    seen.add((kind, dst))
                    at = created + datetime.timedelta(minutes=1 + rng.randrange(60))
                    r.links.append((kind, dst, ts(min(at, END))))
            r.links.sort(key=lambda link: (link[0], link[1]))
        r.body = body_text(rng)
        r.first_body = r.body.split("\n", 1)[0]
        rows.append(r)
    return rows


def history_lines(rows):
    """An insert per row (its first body line), an append when the body grew, link records and
    delete records: canonical JSON Lines sorted by ts."""
    records = []
    for r in rows:
        records.append((r.created, {"ts": r.created, "name": r.name, "op": "insert",
                                    "before": None, "after": r.state(body=r.first_body),
                                    "actor": None}))
        if r.body != r.first_body:
            records.append((r.updated, {"ts": r.updated, "name": r.name, "op": "append",
                                        "before": r.state(body=r.first_body),
                                        "after": r.state(), "actor": "orchestrator"}))
        for kind, dst, at in r.links:
            records.append((at, {"ts": at, "name": r.name, "op": "link",
                                 "link": {"kind": kind, "dst": dst}, "actor": None}))
        if r.deleted:
            records.append((r.deleted, {"ts": r.deleted, "name": r.name, "op": "delete",
                                        "before": r.state(), "after": r.state(deleted=r.deleted),
                                        "actor": None}))
    records.sort(key=lambda pair: pair[0])
    return "".join(canonical(record) + "\n" for _, record in records)


def access_lines(rows, rng):
    """About three counted reads per row (§9), sorted by ts."""
    kinds = [("deliberate", "show", 50), ("injection", "get-relevant", 35),
             ("kernel", "kernel", 15)]
    records = []
    for _ in range(3 * len(rows)):
        r = rng.choice(rows)
        kind, surface = weighted(rng, [((k, s), w) for k, s, w in kinds])
        at = T0 + (END - T0) * rng.random()
        records.append({"ts": ts(at), "name": r.name, "kind": kind, "surface": surface})
    records.sort(key=lambda record: record["ts"])
    return "".join(canonical(record) + "\n" for record in records)


def write_store(store, rows, rng):
    """rows/ws1/<type>.md, log/ws1/history.jsonl and access.jsonl, written directly."""
    row_dir = store / "rows" / WORKSPACE
    log_dir = store / "log" / WORKSPACE
    row_dir.mkdir(parents=True)
    log_dir.mkdir(parents=True)
    for type_name, _, _ in TYPES:
        entries = sorted((r for r in rows if r.type == type_name), key=lambda r: r.name.encode())
        if not entries:
            continue
        text = f"# Curated memory: {type_name}\n\n" + "\n".join(r.entry() for r in entries)
        (row_dir / f"{type_name}.md").write_text(text, encoding="utf-8")
    (log_dir / "history.jsonl").write_text(history_lines(rows), encoding="utf-8")
    (log_dir / "access.jsonl").write_text(access_lines(rows, rng), encoding="utf-8")


def store_bytes(store):
    return sum(p.stat().st_size for p in store.rglob("*") if p.is_file())


# ---- timing -------------------------------------------------------------------------------------

def run(memkit, store, args, capture=False, curated=True):
    """Runs `memkit curated ARGS` on `store` (or `memkit ARGS` when not `curated`); returns
    (seconds, stdout or None). Exits on a failure."""
    if curated:
        command = [memkit, "curated", *args, "--store", str(store), "--workspace", WORKSPACE,
                   "--now", NOW, "--format", "json"]
    else:
        command = [memkit, *args]
    return timed_run(command, "curated_commands.py", capture)


def ms(seconds):
    return f"{seconds * 1000:.1f}"


def command_cases(rows, rng, runs):
    """(label, [args per run], check) for each timed command: a different row per run where it
    matters, so that no run is a no-op."""
    live = [r for r in rows if not r.deleted]
    projects = [r for r in live if r.type == "project"]
    middle = sorted(projects, key=lambda r: r.name.encode())[len(projects) // 2]
    add_args = [["add", "--name", f"{middle.name}_b{k:03d}", "--type", "project",
                 "--body", words(rng, 30) + "\n\n- " + words(rng, 8), "--description",
                 words(rng, 6), "--class", "thread", "--status", "open", "--initiative",
                 "bench"] for k in range(runs + 1)]
    appended = rng.sample(live, min(len(live), runs + 1))
    append_args = [["append", r.name, "--body", words(rng, 12)] for r in appended]
    threads = [r for r in live if r.row_class == "thread"]
    toggled = threads[len(threads) // 2]
    status = [toggled.status]

    def flip():
        status[0] = "open" if status[0] != "open" else "carry_forward"
        return status[0]

    reclassify_args = [["reclassify", toggled.name, "--status", flip()] for _ in range(runs + 1)]
    counts = {}
    for r in live:
        if r.initiative:
            counts[r.initiative] = counts.get(r.initiative, 0) + 1
    biggest = max(sorted(counts), key=lambda k: counts[k])
    shown = live[len(live) // 3]
    # The story of the row with the most links (the first such by name): a walk worth showing.
    seed = min(live, key=lambda r: (-len(r.links), r.name.encode()))
    repeat = lambda args: [args] * (runs + 1)  # noqa: E731
    return [
        ("add (insert mid-file)", add_args, lambda d: f"{d['action']}, {len(d['files'])} files"),
        ("append", append_args, lambda d: f"{d['result']}"),
        ("reclassify --status", reclassify_args, lambda d: f"{d['result']}"),
        ("get-relevant (digest)", repeat(["get-relevant"]),
         lambda d: f"{len(d['items'])} buckets, overflow {d['overflow_initiatives']}"),
        (f"get-relevant --initiative", repeat(["get-relevant", "--initiative", biggest]),
         lambda d: f"{len(d['items'])} rows of {biggest}"),
        ("show", repeat(["show", shown.name]), lambda d: f"{d['name']}"),
        ("search 'cache deploy'", repeat(["search", "cache deploy"]),
         lambda d: f"{len(d['results'])} results"),
        ("list --sort injection", repeat(["list", "--sort", "injection"]),
         lambda d: f"{d['count']} rows"),
        ("stats", repeat(["stats"]), lambda d: f"{d['rows']} live, {d['live_pending']} pending"),
        ("story", repeat(["story", seed.name]),
         lambda d: f"{len(d['nodes'])} nodes, {len(d['timeline'])} events"),
    ]


def bench_size(memkit, work, n, runs, keep):
    rng = random.Random(SEED + n)
    store = work / f"store-{n}"
    build_start = time.perf_counter()
    rows = make_rows(n, rng)
    write_store(store, rows, rng)
    built = time.perf_counter() - build_start
    files = {p.name: p.stat().st_size for p in store.rglob("*") if p.is_file()}
    row_bytes = sum(p.stat().st_size for p in (store / "rows").rglob("*.md"))
    figures = {"rows": n, "runs": runs, "store_bytes": store_bytes(store),
               "row_files_bytes": row_bytes, "project_md_bytes": files.get("project.md", 0),
               "history_bytes": files["history.jsonl"], "access_bytes": files["access.jsonl"],
               "commands": {}}
    print(f"## N = {n} rows: {store_bytes(store)} bytes on disk (project.md "
          f"{files.get('project.md', 0)}, history.jsonl {files['history.jsonl']}, access.jsonl "
          f"{files['access.jsonl']}), built from Python in {built:.1f} s; {runs} runs each")
    print(f"   {'command':<30} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}  checked")
    results = {}
    for label, args_per_run, check in command_cases(rows, rng, runs):
        _, out = run(memkit, store, args_per_run[0], capture=True)  # untimed, checked
        seen = check(json.loads(out)["data"])
        times = sorted(run(memkit, store, args)[0] for args in args_per_run[1:])
        results[label] = times
        print(f"   {label:<30} {ms(statistics.median(times)):>10} "
              f"{ms(quantile(times, 0.99)):>8} {ms(times[-1]):>8}  {seen}")
        name = args_per_run[0][0]
        if name == "get-relevant" and "--initiative" in args_per_run[0]:
            name += " --initiative"
        figures["commands"][name] = {
            "label": label, "median_s": statistics.median(times),
            "p99_s": quantile(times, 0.99), "max_s": times[-1], "checked": seen}
    run(memkit, store, ["--version"], curated=False)
    times = sorted(run(memkit, store, ["--version"], curated=False)[0] for _ in range(runs))
    print(f"   {'memkit --version (start-up)':<30} {ms(statistics.median(times)):>10} "
          f"{ms(quantile(times, 0.99)):>8} {ms(times[-1]):>8}")
    figures["commands"]["--version"] = {
        "label": "memkit --version (start-up)", "median_s": statistics.median(times),
        "p99_s": quantile(times, 0.99), "max_s": times[-1], "checked": ""}
    print()
    if keep:
        shutil.copytree(store, Path(keep) / store.name, dirs_exist_ok=True)
    return store, figures


def bench_batch(memkit, work, store, label, adds):
    """`batch` of `adds` inserts, written as one transaction (§10)."""
    rng = random.Random(SEED - adds)
    ops = [{"op": "add", "name": f"decision_batch{adds}_{k:05d}", "type": "decision",
            "body": words(rng, 20 + rng.randrange(40)), "description": words(rng, 6),
            "class": "anchor", "initiative": "batch"} for k in range(adds)]
    ops_file = work / f"ops-{adds}.json"
    ops_file.write_text(json.dumps(ops), encoding="utf-8")
    seconds, out = run(memkit, store, ["batch", "--file", str(ops_file)], capture=True)
    results = json.loads(out)["data"]["results"]
    applied = sum(1 for r in results if r["result"] == "applied")
    print(f"   batch of {adds} adds into {label}: {seconds:.2f} s, "
          f"{ms(seconds / adds)} ms per add ({applied} applied)")
    return {"adds": adds, "seconds": seconds, "applied": applied}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("memkit", help="the memkit CLI (a Release build)")
    parser.add_argument("--sizes", default="100,2000,20000")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--batch-adds", default="200",
                        help="adds per batch, or several counts: 500,2000 (0 skips it)")
    parser.add_argument("--keep", help="copy the generated stores into this folder")
    parser.add_argument("--json", help="also write the figures to this file")
    options = parser.parse_args(argv[1:])
    memkit = shutil.which(options.memkit) or options.memkit
    if not os.access(memkit, os.X_OK):
        print(f"curated_commands.py: {memkit} is not an executable", file=sys.stderr)
        return 2
    sizes = [int(s) for s in options.sizes.split(",") if s]
    batch_adds = [int(s) for s in options.batch_adds.split(",") if s and int(s) > 0]
    if options.runs < 1 or any(n < 10 for n in sizes):
        print("curated_commands.py: --runs must be at least 1 and every size at least 10",
              file=sys.stderr)
        return 2
    machine = machine_lines(memkit, NOW)
    for line in machine:
        print(line)
    print()
    figures = {"now": NOW, "machine": machine, "sizes": [], "batch": []}
    with tempfile.TemporaryDirectory(prefix="memkit-curated-commands.") as scratch:
        work = Path(scratch)
        for n in sizes:
            store, size_figures = bench_size(memkit, work, n, options.runs, options.keep)
            figures["sizes"].append(size_figures)
            if batch_adds and n == 2000:
                print(f"## batch (the adds written as one transaction, §10)")
                for adds in batch_adds:
                    into = store
                    if len(batch_adds) > 1:  # each count into the same store as it was
                        into = work / f"store-{n}-batch-{adds}"
                        shutil.copytree(store, into)
                    done = bench_batch(memkit, work, into, f"the N = {n} store", adds)
                    figures["batch"].append(dict(done, into_rows=n))
                    empty = work / f"store-empty-{adds}"
                    empty.mkdir()
                    done = bench_batch(memkit, work, empty, "an empty store", adds)
                    figures["batch"].append(dict(done, into_rows=0))
                print()
            shutil.rmtree(store)
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n",
                                      encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
