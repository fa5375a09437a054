#!/usr/bin/env python3
"""Checks that the committed src/similarity/word_table.inc is exactly what
scripts/gen_word_table.py writes, so a hand edit or a generator change without regenerating
fails, and that the generator refuses a UnicodeData.txt whose ReadMe.txt names any other Unicode
version. Exits 77 (skipped) where Debian's unicode-data package, the generator's only input, is
not installed.

Usage: check_word_table.py GENERATOR
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

UNICODE_DIR = pathlib.Path("/usr/share/unicode")
UNICODE_DATA = UNICODE_DIR / "UnicodeData.txt"
README = UNICODE_DIR / "ReadMe.txt"


def refuses_other_versions(generator):
    """Returns true iff the generator rejects a 15.1.0 ReadMe.txt and writes nothing."""
    text = README.read_text(encoding="utf-8")
    newer_text = text.replace("for Version 15.0.0 of", "for Version 15.1.0 of", 1)
    if newer_text == text:
        print(f"{README}: no 'for Version 15.0.0 of' line to change")
        return False
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(UNICODE_DATA, pathlib.Path(scratch, "UnicodeData.txt"))
        pathlib.Path(scratch, "ReadMe.txt").write_text(newer_text, encoding="utf-8")
        output = pathlib.Path(scratch, "table.inc")
        result = subprocess.run([sys.executable, generator, "--input",
                                 str(pathlib.Path(scratch, "UnicodeData.txt")), "--output",
                                 str(output)], capture_output=True, text=True, check=False)
        if result.returncode == 0 or output.exists() or "15.1.0" not in result.stderr:
            print(f"the generator accepted Unicode 15.1.0: {result.stderr.strip()}")
            return False
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    generator = sys.argv[1]
    if not os.path.exists(UNICODE_DATA) or not os.path.exists(README):
        print(f"skipped: {UNICODE_DATA} or {README} is missing (apt-get install unicode-data)")
        return 77
    if not refuses_other_versions(generator):
        return 1
    return subprocess.run([sys.executable, generator, "--input", str(UNICODE_DATA), "--check"],
                          check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
