"""The wire between a differential script and its C++ helper (tests/unit/*/differential.py): the
helper is run with a mode, reads cases from stdin and answers with little-endian unsigned integers
and length-prefixed blobs (tests/support/differential_wire.hpp writes them)."""

import argparse
import subprocess
import sys
import unicodedata


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def uint(self, size):
        value = int.from_bytes(self.data[self.pos:self.pos + size], "little")
        self.pos += size
        return value

    def blob(self):
        size = self.uint(4)
        value = self.data[self.pos:self.pos + size]
        self.pos += size
        return value


def run_helper(helper, mode, stdin=b""):
    result = subprocess.run([helper, mode], input=stdin, capture_output=True, check=False)
    if result.returncode != 0:
        sys.exit(f"{helper} {mode} exited with {result.returncode}: {result.stderr.decode()}")
    return Reader(result.stdout)


def report(failures, what):
    """Prints up to 20 failures and the verdict; returns the exit code."""
    for failure in failures[:20]:
        print(failure)
    if failures:
        print(f"FAILED: {len(failures)} differences over {what}")
        return 1
    print(f"ok: {what} agree with python3 {sys.version.split()[0]} "
          f"(Unicode {unicodedata.unidata_version})")
    return 0


def main(doc, run_cases, run_all_code_points):
    """The command line every differential script has: HELPER cases|all-code-points."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("helper")
    parser.add_argument("mode", choices=["cases", "all-code-points"])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    if args.mode == "cases":
        return run_cases(args.helper, args.count, args.seed)
    return run_all_code_points(args.helper)
