"""What the scripts that time whole memkit commands share (tiers_commands.py,
curated_commands.py): the machine description printed with their figures, one timed run of a
command, and the summary statistics. Standard library only."""

import math
import mmap
import os
import platform
import subprocess
import sys
import time
from pathlib import Path


def first_touch_us(mib=64):
    """Microseconds to touch one fresh 4 KiB page: a virtual machine's page faults can cost ten
    times a bare machine's, and every command pays them for the memory it allocates."""
    size = mib << 20
    with mmap.mmap(-1, size) as block:  # anonymous: each page is mapped on its first write
        start = time.perf_counter()
        for at in range(0, size, 4096):
            block[at] = 1
        return (time.perf_counter() - start) * 1e6 / (size // 4096)


def machine_lines(memkit, now):
    """The lines that say where and how the figures were measured."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    build_type = "unknown build type"
    cache = Path(memkit).resolve().parent.parent.parent / "CMakeCache.txt"
    if cache.is_file():
        for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("CMAKE_BUILD_TYPE:"):
                build_type = line.split("=", 1)[1] or "no CMAKE_BUILD_TYPE"
    u = platform.uname()
    thp = "unknown"
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled", encoding="utf-8") as f:
            thp = f.read().split("[", 1)[1].split("]", 1)[0]
    except (OSError, IndexError):
        pass
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        f"machine: {cpu}, {os.cpu_count()} cores ({affinity} usable), "
        f"{u.system} {u.release} {u.machine}, load average {load}",
        f"uname:   {' '.join(u)}",
        f"memory:  first touch of fresh memory {first_touch_us():.1f} us per 4 KiB page "
        f"(page faults; what a command pays for each page it allocates), huge pages: {thp}",
        f"memkit:  {memkit} ({build_type})",
        f"timing:  wall time, python3 time.perf_counter around subprocess.run (no shell), "
        f"stdout to /dev/null, --now {now}, --format json",
    ]


def timed_run(command, script, capture=False):
    """Runs `command` (no shell); returns (seconds, stdout or None). A failure ends `script`
    with the command and the end of its output."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{script}: exit {done.returncode}: {' '.join(command)}\n"
                 f"{(done.stdout or b'').decode(errors='replace')[-2000:]}"
                 f"{done.stderr.decode(errors='replace')[-2000:]}")
    return seconds, done.stdout if capture else None


def quantile(sorted_values, q):
    """Nearest rank: the smallest value with at least q of the values at or below it."""
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]
