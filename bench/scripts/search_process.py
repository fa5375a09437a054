#!/usr/bin/env python3
"""Whole `memkit search` and `memkit context` processes (issue 28) on a generated custodian root
of N short entries (about 100 bytes, a Zipf vocabulary, fixed seed), split into files of 1,000
bullets (about 100 KB each). Wall time of the whole process:
  first search       no index yet: every file read, cut and indexed, the index written (its
                     peak RSS, and the index's size on disk, are in --json's figures)
  search             the index kept (.memkit/index/), page cache warm: median of R runs
  after one change   one 100 KB file appended to, then a search (its pack re-indexed): median of R
  context --query    a context of 2,000 tokens with a query: median of R runs

Usage: search_process.py MEMKIT [--entries 100000,1000000] [--runs 5] [--json FILE]

--json FILE also writes the figures (seconds) to FILE, for bench/scripts/benchmarks_md.py.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from command_timing import machine_lines

NOW = "2026-11-30T10:00:00+00:00"


def vocabulary(n=50_000, seed=7):
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(3, 10))))
    return sorted(words)


def make_root(folder, entries, seed=11):
    """A custodian project whose docs/memory holds `entries` bullets: manifest.md and notes-N.md."""
    memory = Path(folder) / "docs" / "memory"
    memory.mkdir(parents=True)
    (memory / "manifest.md").write_text("# Memory Manifest\n\n## Always load\n\n- brief.md\n")
    (memory / "brief.md").write_text("# Brief\n\n- A generated root for search_process.py.\n")
    words = vocabulary()
    weights = [1 / (rank + 1) for rank in range(len(words))]
    rng = random.Random(seed)
    for start in range(0, entries, 1_000):
        count = min(1_000, entries - start)
        drawn = rng.choices(words, weights, k=count * 14)
        lines = ["# Notes\n\n"]
        for i in range(count):
            lines.append("- " + " ".join(drawn[i * 14:(i + 1) * 14]) + "\n")
        (memory / f"notes-{start // 1_000:05d}.md").write_text("".join(lines))
    return words


def seconds(argv):
    began = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - began


def seconds_and_peak(argv):
    """The wall time and the peak RSS (KiB) of one run."""
    began = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, argv, stderr=child.stderr.read())
    child.stderr.close()
    return took, usage.ru_maxrss


def folder_bytes(folder):
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def median_seconds(argv, runs, before=lambda run: None):
    subprocess.run(argv, check=True, capture_output=True)  # warm-up: the page cache
    times = []
    for run in range(runs):
        before(run)
        times.append(seconds(argv))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("memkit")
    parser.add_argument("--entries", default="100000,1000000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    memkit = os.path.abspath(args.memkit)
    machine = machine_lines(memkit, NOW)
    for line in machine:
        print(line)
    rows = []
    print("| entries | first search | search (mid term) | search (common term) "
          "| after one change | context --query |")
    print("|---|---|---|---|---|---|")
    for entries in [int(n) for n in args.entries.split(",")]:
        with tempfile.TemporaryDirectory() as folder:
            words = make_root(folder, entries)
            mid, common = words[500], words[0]
            base = [memkit, "--now", NOW, "--format", "json"]
            first, first_peak = seconds_and_peak(base + ["search", mid, "--root", folder])
            index_bytes = folder_bytes(Path(folder) / ".memkit" / "index")
            figures = [first]
            figures += [median_seconds(base + ["search", w, "--root", folder], args.runs)
                        for w in (mid, common)]
            notes = sorted((Path(folder) / "docs" / "memory").glob("notes-*.md"))

            def change(run):
                with open(notes[(run * 7919) % len(notes)], "a") as f:
                    f.write(f"- {mid} changed in run {run}\n")
            figures.append(median_seconds(base + ["search", mid, "--root", folder], args.runs,
                                          change))
            figures.append(median_seconds(base + ["context", "--budget", "2000", "--query", mid,
                                                  "--root", folder], args.runs))
            print(f"| {entries:,} | " + " | ".join(f"{s * 1000:,.1f} ms" for s in figures) + " |")
            rows.append(dict(zip(("entries", "first_search_s", "search_mid_s", "search_common_s",
                                  "after_change_s", "context_query_s"), [entries, *figures]),
                             index_bytes=index_bytes, first_search_peak_rss_kib=first_peak,
                             files=len(notes)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(json.dumps({"now": NOW, "machine": machine, "runs": args.runs,
                                "sizes": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
