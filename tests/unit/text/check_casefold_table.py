#!/usr/bin/env python3
"""Checks that the committed src/text/casefold_table.inc is exactly what
scripts/gen_casefold_table.py writes, so a hand edit or a generator change without regenerating
fails, and that the generator refuses a CaseFolding.txt of any other Unicode version. Exits 77
(skipped) where Debian's unicode-data package, the generator's only input, is not installed.

Usage: check_casefold_table.py GENERATOR
"""

import os
import pathlib
import subprocess
import sys
import tempfile

CASE_FOLDING = "/usr/share/unicode/CaseFolding.txt"


def refuses_other_versions(generator):
    """Returns true iff the generator rejects a 15.1.0 header and writes nothing."""
    text = pathlib.Path(CASE_FOLDING).read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as scratch:
        newer = pathlib.Path(scratch, "CaseFolding.txt")
        newer.write_text(text.replace("CaseFolding-15.0.0.txt", "CaseFolding-15.1.0.txt", 1),
                         encoding="utf-8")
        output = pathlib.Path(scratch, "table.inc")
        result = subprocess.run([sys.executable, generator, "--input", str(newer), "--output",
                                 str(output)], capture_output=True, text=True, check=False)
        if result.returncode == 0 or output.exists() or "15.1.0" not in result.stderr:
            print(f"the generator accepted Unicode 15.1.0: {result.stderr.strip()}")
            return False
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    generator = sys.argv[1]
    if not os.path.exists(CASE_FOLDING):
        print(f"skipped: {CASE_FOLDING} is missing (apt-get install unicode-data)")
        return 77
    if not refuses_other_versions(generator):
        return 1
    return subprocess.run([sys.executable, generator, "--input", CASE_FOLDING, "--check"],
                          check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
