#!/usr/bin/env python3
"""tiers_commands.py MEMKIT [--turns N] [--runs N] [--big-log-mib N] [--json FILE]

Whole-command wall times of `memkit tiers` (spec tiers3.md) on this machine, every command with
the fixed clock --now 2026-03-07T14:05:09+00:00 and --format json, stdout discarded, no shell in
between (python3 time.perf_counter around subprocess.run):

  1. persist-turn (L1 + L2): N sequential turns (default 1000) into one fresh workspace. With a
     fixed clock every turn appends to the same day log and to one of five notes of the same hour,
     so the files grow all along: the per-turn median, p90, p99 and max, the medians of the first
     and the last 100 turns, and the L1 and L2 sizes at the end.
  2. persist-turn on a day log already --big-log-mib MiB long (default 16; 0 skips it), the median
     of RUNS turns, beside what rewriting that file costs from Python (write a temporary file,
     fsync it, rename it over the old one, fsync the folder): the share of a turn that grows with
     the log.
  3. Reads on a workspace of 365 daily logs (about 10 KiB each, the last one today), 50 themes of
     200 notes each (at distinct hours of the last year) and a global.md of about 32 KiB in the
     seed's skeleton: session-init --max-tokens 4000 --no-log, session-init --no-log,
     list-themes and read-logs (its defaults, then --days-back 365 --limit 365), each the median
     of RUNS runs (default 20) after one untimed run whose JSON is checked. `tiers template
     decision` is timed as well: a tiers command that reads nothing, i.e. process start-up.

MEMKIT is the memkit CLI; time a Release build (its CMakeCache.txt, two folders up, is read for
the build type). Every file is generated in a temporary folder from a fixed seed and removed at
the end. --json FILE also writes every figure printed (times in seconds, sizes in bytes) to FILE,
for bench/scripts/benchmarks_md.py. Standard library only.
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

NOW = "2026-03-07T14:05:09+00:00"
TODAY = (2026, 3, 7)
NOW_HOUR = 14
SEED = 20260307
WORDS = ["memory", "agent", "context", "budget", "tabs", "config", "deploy", "cache", "index",
         "review", "Kafka", "build", "schema", "turn", "theme", "global", "window", "token",
         "café", "Straße", "記住"]
THEMES = ["decision", "error", "task", "research", "preferences"]


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def run(memkit, workspace, args, capture=False):
    """Runs `memkit tiers ARGS`; returns (seconds, stdout or None). Exits on a failure."""
    return timed_run([memkit, "tiers", *args, "--workspace", str(workspace), "--now", NOW,
                      "--format", "json"], "tiers_commands.py", capture)


def ms(seconds):
    return f"{seconds * 1000:.2f}"


def persist_args(rng, n):
    theme = THEMES[n % len(THEMES)]
    args = ["persist-turn",
            "--raw-content", f"Turn {n}: " + words(rng, 20 + rng.randrange(60)),
            "--extracted-content", words(rng, 8 + rng.randrange(20)),
            "--theme", theme, "--session-id", f"s-{n // 50}", "--tools", '["search","read"]']
    if n % 3 == 0:
        args += ["--template", "decision", "--title", f"Point {n}"]
    return args


def bench_persist_turns(memkit, work, turns):
    workspace = work / "turns"
    workspace.mkdir()
    run(memkit, workspace, ["init"])
    rng = random.Random(SEED)
    times = []
    for n in range(turns):
        times.append(run(memkit, workspace, persist_args(rng, n))[0])
    memory = workspace / "memory"
    l1 = memory / "sessions" / "2026-03-07.md"
    l2 = sorted(memory.glob("*/2026-03-07_14.md"))
    ordered = sorted(times)
    head = statistics.median(times[:100])
    tail = statistics.median(times[-100:])
    print(f"## 1. {turns} sequential persist-turn (L1 + L2) into one workspace")
    print(f"   per turn: median {ms(statistics.median(times))} ms, "
          f"p90 {ms(quantile(ordered, 0.90))} ms, p99 {ms(quantile(ordered, 0.99))} ms, "
          f"max {ms(ordered[-1])} ms, total {sum(times):.1f} s")
    print(f"   first 100 turns: median {ms(head)} ms; last 100: median {ms(tail)} ms "
          f"({tail / head:.2f}x)")
    print(f"   at the end: L1 {l1.relative_to(workspace)} {l1.stat().st_size} bytes; "
          f"{len(l2)} L2 notes of {sum(p.stat().st_size for p in l2)} bytes in all")
    print()
    figures = {"turns": turns, "median_s": statistics.median(times),
               "p90_s": quantile(ordered, 0.90), "p99_s": quantile(ordered, 0.99),
               "max_s": ordered[-1], "total_s": sum(times), "first_100_median_s": head,
               "last_100_median_s": tail, "l1_bytes": l1.stat().st_size, "l2_notes": len(l2),
               "l2_bytes": sum(p.stat().st_size for p in l2)}
    shutil.rmtree(workspace)
    return figures


def session_log_bytes(rng, date, entries):
    """A day log in the §4 format (no final LF)."""
    parts = [f"# Session Log - {date}"]
    for n in range(entries):
        lines = [f"### [{date} {8 + n // 60 % 12:02d}:{n % 60:02d}:{(7 * n) % 60:02d}] TURN"]
        if n % 2 == 0:
            lines.append(f"**Session:** s-{n // 10}")
        if n % 3 == 0:
            lines.append("**Tools:** search, read")
        lines += ["", words(rng, 12 + rng.randrange(70)), "", "---"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts).encode()


def rewrite_seconds(path, data, runs):
    """Median time of rewriting `path` with `data` the way an atomic write does."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        temporary = path.with_name(path.name + ".tmp")
        with open(temporary, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_big_log(memkit, work, mib, runs):
    workspace = work / "big"
    workspace.mkdir()
    run(memkit, workspace, ["init"])
    rng = random.Random(SEED + 1)
    log = workspace / "memory" / "sessions" / "2026-03-07.md"
    data = bytearray(session_log_bytes(rng, "2026-03-07", 1))
    while len(data) < mib * 1024 * 1024:
        data += b"\n\n" + session_log_bytes(rng, "2026-03-07", 500).split(b"\n\n", 1)[1]
    log.write_bytes(bytes(data))
    size = len(data)
    run(memkit, workspace, persist_args(rng, 0))  # warm the page cache and the note
    times = [run(memkit, workspace, persist_args(rng, n))[0] for n in range(1, runs + 1)]
    scratch = work / "rewrite" / "2026-03-07.md"
    scratch.parent.mkdir()
    scratch.write_bytes(log.read_bytes())
    rewrite = rewrite_seconds(scratch, scratch.read_bytes(), runs)
    turn = statistics.median(times)
    print(f"## 2. persist-turn (L1 + L2) on a day log of {size} bytes ({mib} MiB)")
    print(f"   per turn: median {ms(turn)} ms (min {ms(min(times))}, max {ms(max(times))}) "
          f"of {runs} turns")
    print(f"   rewriting that file once from python3 (write, fsync, rename, fsync folder): "
          f"median {ms(rewrite)} ms; the turn costs {turn / rewrite:.1f}x that")
    print()
    shutil.rmtree(workspace)
    return {"log_bytes": size, "mib": mib, "runs": runs, "median_s": turn, "min_s": min(times),
            "max_s": max(times), "rewrite_median_s": rewrite}


def make_read_workspace(memkit, workspace):
    """365 daily logs, 50 themes x 200 notes, a global.md of about 32 KiB."""
    workspace.mkdir()
    run(memkit, workspace, ["init"])
    memory = workspace / "memory"
    rng = random.Random(SEED + 2)
    today = datetime.datetime(*TODAY, NOW_HOUR)
    for day in range(365):
        date = (today - datetime.timedelta(days=day)).strftime("%Y-%m-%d")
        (memory / "sessions" / f"{date}.md").write_bytes(
            session_log_bytes(rng, date, 20 + rng.randrange(15)))
    for t in range(50):
        folder = memory / f"theme-{t:02d}"
        folder.mkdir()
        for hours in rng.sample(range(365 * 24), 200):
            stamp = today - datetime.timedelta(hours=hours)
            heading = rng.choice(["Decision Record: ", "Error Record: ", ""]) + words(rng, 3)
            entries = [f"## {heading}\n\n{words(rng, 20 + rng.randrange(60))}\n"
                       for _ in range(1 + rng.randrange(3))]
            (folder / stamp.strftime("%Y-%m-%d_%H.md")).write_text("\n\n".join(entries),
                                                                  encoding="utf-8")
    glob = ["# Global Memory", "",
            "Read Order: Active Mission -> Key Constraints -> Research Index -> User Preferences",
            "", "## 1. Active Mission", "### Mission Snapshot", f"- {words(rng, 12)}",
            f"- {words(rng, 10)}", "### Key Constraints (Immutable)", f"- {words(rng, 9)}",
            f"- {words(rng, 11)}", "### Next Useful Reads", "- memory/theme-01/", ""]
    topic = 0
    for h2, share in (("2. Research Index", 0.45), ("3. Decisions", 0.85),
                      ("4. User Preferences", 1.0)):
        glob += [f"## {h2}", ""]
        while sum(len(line.encode()) + 1 for line in glob) < share * 32 * 1024:
            topic += 1
            glob += [f"### Topic {topic}: {words(rng, 3)}"]
            glob += [f"- {words(rng, 5 + rng.randrange(15))}" for _ in range(2 + rng.randrange(5))]
            glob += [""]
    (memory / "global.md").write_text("\n".join(glob), encoding="utf-8")


def bench_reads(memkit, work, runs):
    workspace = work / "reads"
    make_read_workspace(memkit, workspace)
    cases = [
        ("template decision (start-up, reads nothing)", ["template", "decision"]),
        ("session-init --max-tokens 4000 --no-log",
         ["session-init", "--max-tokens", "4000", "--no-log"]),
        ("session-init --no-log", ["session-init", "--no-log"]),
        ("list-themes", ["list-themes"]),
        ("read-logs (--days-back 7 --limit 20)", ["read-logs"]),
        ("read-logs --days-back 365 --limit 365",
         ["read-logs", "--days-back", "365", "--limit", "365"]),
    ]
    notes = sum(1 for _ in (workspace / "memory").glob("theme-*/*.md"))
    logs = sum(p.stat().st_size for p in (workspace / "memory" / "sessions").iterdir())
    print(f"## 3. reads: 365 daily logs ({logs} bytes), 50 themes x 200 notes ({notes} files), "
          f"global.md {(workspace / 'memory' / 'global.md').stat().st_size} bytes; "
          f"median of {runs} runs")
    print(f"   {'command':<45} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'stdout':>9}  "
          f"checked")
    figures = {"runs": runs, "log_bytes": logs, "notes": notes,
               "global_bytes": (workspace / "memory" / "global.md").stat().st_size, "commands": {}}
    for label, args in cases:
        _, out = run(memkit, workspace, args, capture=True)  # untimed, checked
        data = json.loads(out)["data"]
        if args[0] == "session-init":
            seen = (f"logs {len(data['recent_logs'])}, themes {len(data['recent_themes'])}, "
                    f"archive due {data['l2_archive_due']}")
            if "tokens_used" in data:
                seen += f", tokens {data['tokens_used']}, dropped {len(data['dropped'])}"
        elif args[0] == "list-themes":
            seen = f"themes {len(data['themes'])}"
        elif args[0] == "read-logs":
            seen = f"logs {len(data['logs'])}"
        else:
            seen = f"{len(data['text'])} chars"
        times = [run(memkit, workspace, args)[0] for _ in range(runs)]
        print(f"   {label:<45} {ms(statistics.median(times)):>10} {ms(min(times)):>8} "
              f"{ms(max(times)):>8} {len(out):>9}  {seen}")
        figures["commands"][" ".join(args)] = {
            "label": label, "median_s": statistics.median(times), "min_s": min(times),
            "max_s": max(times), "stdout_bytes": len(out), "checked": seen}
    print()
    shutil.rmtree(workspace)
    return figures


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("memkit", help="the memkit CLI (a Release build)")
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--big-log-mib", type=int, default=16)
    parser.add_argument("--json", help="also write the figures to this file")
    options = parser.parse_args(argv[1:])
    memkit = shutil.which(options.memkit) or options.memkit
    if not os.access(memkit, os.X_OK):
        print(f"tiers_commands.py: {memkit} is not an executable", file=sys.stderr)
        return 2
    if options.turns < 100 or options.runs < 1:
        print("tiers_commands.py: --turns must be at least 100 and --runs at least 1",
              file=sys.stderr)
        return 2
    machine = machine_lines(memkit, NOW)
    for line in machine:
        print(line)
    print()
    figures = {"now": NOW, "machine": machine}
    with tempfile.TemporaryDirectory(prefix="memkit-tiers-commands.") as scratch:
        work = Path(scratch)
        figures["persist_turns"] = bench_persist_turns(memkit, work, options.turns)
        if options.big_log_mib > 0:
            figures["big_log"] = bench_big_log(memkit, work, options.big_log_mib, options.runs)
        figures["reads"] = bench_reads(memkit, work, options.runs)
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
