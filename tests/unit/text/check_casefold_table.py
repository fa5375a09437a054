#!/usr/bin/env python3
"""Checks that the committed src/text/casefold_table.inc is exactly what scripts/gen_casefold_table.py
writes, so a hand edit or a generator change without regenerating fails. Exits 77 (skipped) where
Debian's unicode-data package, the generator's only input, is not installed.

Usage: check_casefold_table.py GENERATOR
"""

import os
import subprocess
import sys

CASE_FOLDING = "/usr/share/unicode/CaseFolding.txt"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    if not os.path.exists(CASE_FOLDING):
        print(f"skipped: {CASE_FOLDING} is missing (apt-get install unicode-data)")
        return 77
    return subprocess.run([sys.executable, sys.argv[1], "--input", CASE_FOLDING, "--check"],
                          check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
