"""The wire between a differential script and its C++ helper (tests/unit/*/differential.py): the
helper is run with a mode, reads cases from stdin and answers with little-endian unsigned integers
and length-prefixed blobs (tests/support/differential_wire.hpp writes them)."""

import subprocess
import sys


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
