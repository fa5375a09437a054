#!/usr/bin/env python3
"""Whole `memkit search` and `memkit context` processes (issue 28) on a generated custodian root
of N short entries (about 100 bytes, a Zipf vocabulary, fixed seed), split into files of 10,000
bullets. Each figure is the median of R runs of the whole process, wall time, after one warm-up.

Usage: search_process.py MEMKIT [--entries 100000,1000000] [--runs 5]

Today every search reads, cuts and indexes the whole root: the figure is what the on-disk index
of issue 28 (.memkit/index/) is to take down to under 10 ms at 1,000,000 entries.
"""
import argparse
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
    for start in range(0, entries, 10_000):
        count = min(10_000, entries - start)
        drawn = rng.choices(words, weights, k=count * 14)
        lines = ["# Notes\n\n"]
        for i in range(count):
            lines.append("- " + " ".join(drawn[i * 14:(i + 1) * 14]) + "\n")
        (memory / f"notes-{start // 10_000:04d}.md").write_text("".join(lines))
    return words


def median_seconds(argv, runs):
    subprocess.run(argv, check=True, capture_output=True)  # warm-up: the page cache
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("memkit")
    parser.add_argument("--entries", default="100000,1000000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    memkit = os.path.abspath(args.memkit)
    for line in machine_lines(memkit, NOW):
        print(line)
    print("| entries | search (mid term) | search (common term) | context --budget 2000 --query |")
    print("|---|---|---|---|")
    for entries in [int(n) for n in args.entries.split(",")]:
        with tempfile.TemporaryDirectory() as folder:
            words = make_root(folder, entries)
            mid, common = words[500], words[0]
            base = [memkit, "--now", NOW, "--format", "json"]
            figures = [median_seconds(base + ["search", w, "--root", folder], args.runs)
                       for w in (mid, common)]
            figures.append(median_seconds(base + ["context", "--budget", "2000", "--query", mid,
                                                  "--root", folder], args.runs))
            print(f"| {entries:,} | " + " | ".join(f"{s * 1000:,.0f} ms" for s in figures) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
