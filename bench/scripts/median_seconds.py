#!/usr/bin/env python3
"""median_seconds.py RUNS COMMAND [ARG...]

Runs COMMAND once to warm up, then RUNS times, with stdout discarded and no shell in between,
and prints the median wall-clock time in seconds. The fallback timer of parse_vs_cat.sh when
hyperfine is not installed; standard library only.
"""
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 3 or not argv[1].isdigit() or int(argv[1]) < 1:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    runs, command = int(argv[1]), argv[2:]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    print(f"{statistics.median(times):.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
