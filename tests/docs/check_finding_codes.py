#!/usr/bin/env python3
"""Every finding code the sources emit is documented in docs/findings.md, and every documented
code is emitted somewhere, so the table hosts rely on cannot drift from the code.

usage: check_finding_codes.py SOURCE_DIR
"""
import pathlib
import re
import sys

CODE = re.compile(r'"(MK-[A-Z0-9]+-[0-9]{3})"')
DOC_CODE = re.compile(r"^\| `(MK-[A-Z0-9]+-[0-9]{3})` \|", re.M)


def main():
    root = pathlib.Path(sys.argv[1])
    emitted = set()
    for path in (root / "src").rglob("*.cpp"):
        emitted |= set(CODE.findall(path.read_text(encoding="utf-8")))
    documented = set(DOC_CODE.findall((root / "docs" / "findings.md").read_text(encoding="utf-8")))
    problems = [f"{c}: emitted by src/ but not in docs/findings.md" for c in sorted(emitted - documented)]
    problems += [f"{c}: in docs/findings.md but emitted nowhere" for c in sorted(documented - emitted)]
    for p in problems:
        print(p)
    print(f"{len(emitted)} emitted codes, {len(documented)} documented: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
