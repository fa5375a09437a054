#!/usr/bin/env python3
"""What memkit reads is bounded, and running out of memory is a finding, not an abort.

  * standard input and input files (--body-file, --file, --source-file) over 64 MiB are refused
    with MK-ARG-001 naming the option, before anything is parsed or written, whatever follows
    (an endless stream included);
  * under an address-space limit a command that runs out of memory ends with exit 2 and an
    MK-MEM-001 envelope: no uncaught std::bad_alloc (exit 134), nothing half-written.

usage: input_limits.py MEMKIT_BINARY
"""

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

from cli_environment import environment

LIMIT = 64 << 20
NOW = "2026-11-30T10:00:00+00:00"


def run(binary, cwd, args, stdin=None, preexec=None):
    return subprocess.run([binary] + args + ["--now", NOW, "--format", "json"], cwd=cwd,
                          env=environment(), stdin=stdin, capture_output=True, timeout=120,
                          preexec_fn=preexec)


def tree(root):
    out = []
    for here, dirs, names in os.walk(root):
        for name in dirs + names:
            out.append(os.path.relpath(os.path.join(here, name), root))
    return sorted(out)


def refused(done, option, what):
    problems = []
    if done.returncode != 2:
        problems.append("%s: exit %d, expected 2" % (what, done.returncode))
    try:
        envelope = json.loads(done.stdout)
        finding = envelope["findings"][0]
        if finding["code"] != "MK-ARG-001" or option not in finding["message"] or \
                "larger than 64 MiB" not in finding["message"]:
            problems.append("%s: unexpected finding %s" % (what, finding))
    except (ValueError, KeyError, IndexError):
        problems.append("%s: no envelope: %r %r" % (what, done.stdout[:300], done.stderr[:300]))
    return problems


def main():
    binary = os.path.abspath(sys.argv[1])
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        # An endless standard input: refused once 64 MiB + 1 bytes are in, nothing written.
        cwd = os.path.join(scratch, "stdin")
        os.mkdir(cwd)
        with open("/dev/zero", "rb") as zero:
            done = run(binary, cwd, ["curated", "add", "--store", "store", "--workspace", "w",
                                     "--name", "endless", "--type", "project", "--body-file", "-"],
                       stdin=zero)
        problems += refused(done, "--body-file: standard input", "endless --body-file -")
        if tree(cwd):
            problems.append("endless --body-file -: wrote %s" % tree(cwd))

        # One byte over, from a file: refused before it is read; one byte under is taken.
        cwd = os.path.join(scratch, "file")
        os.mkdir(cwd)
        with open(os.path.join(cwd, "big.json"), "wb") as f:
            f.truncate(LIMIT + 1)
        done = run(binary, cwd, ["curated", "checkpoint", "--store", "store", "--workspace", "w",
                                 "--file", "big.json"])
        problems += refused(done, "--file: big.json", "checkpoint --file of 64 MiB + 1")
        if tree(cwd) != ["big.json"]:
            problems.append("checkpoint --file of 64 MiB + 1: wrote %s" % tree(cwd))
        with open(os.path.join(cwd, "rows.csv"), "wb") as f:
            f.write(b"a,b\n")
            f.write(b"1,2\n" * ((LIMIT + 8) // 4))
        done = run(binary, cwd, ["tiers", "write-data", "--workspace", ".", "--name", "rows",
                                 "--source-file", "rows.csv", "--raw-content", "rows"])
        problems += refused(done, "--source-file: rows.csv", "write-data --source-file over")
        if os.path.exists(os.path.join(cwd, "memory")):
            problems.append("write-data --source-file over: wrote memory/")

        # Out of memory: a 64-line-per-KiB file parsed under a 600 MiB address space.
        if "ASAN_OPTIONS" in os.environ:
            print("out-of-memory case skipped: the sanitizer reserves its own address space")
        else:
            cwd = os.path.join(scratch, "oom")
            os.mkdir(cwd)
            with open(os.path.join(cwd, "huge.md"), "wb") as f:
                f.write(b"# Huge\n\n" + b"- a\n" * (60 << 20))

            def cap():
                resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))

            done = run(binary, cwd, ["markdown", "units", "huge.md"], preexec=cap)
            if done.returncode != 2:
                problems.append("oom: exit %d, expected 2; stderr %r" % (done.returncode,
                                                                        done.stderr[:300]))
            elif b"MK-MEM-001" not in done.stdout and b"out of memory" not in done.stderr:
                problems.append("oom: neither MK-MEM-001 nor a message: %r %r" % (
                    done.stdout[:300], done.stderr[:300]))
    for p in problems:
        print("FAIL " + p)
    print("%d passed, %d failed" % (1 if not problems else 0, 1 if problems else 0))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
