#!/usr/bin/env python3
"""The specs the code cites are in the repository: every "<spec>.md §N" or "§N.M" in src/,
include/, capi/, bindings/ and tests/ names a section docs/spec/<spec>.md has (a heading
"## N." or "### N.M"), so a clone is self-contained. The user docs stay short enough to read:
README.md at most 10 KB, ARCHITECTURE.md under 6 KB.

usage: check_spec_citations.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

SPECS = ("compaction.md", "memorybox.md", "curated.md", "tiers3.md")
CITATION = re.compile(r"\b(" + "|".join(re.escape(s) for s in SPECS) + r") §(\d+(?:\.\d+)?)")
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)?)[. ]")
SOURCES = ("src", "include", "capi", "bindings", "tests", "fuzz", "bench")
SUFFIXES = {".cpp", ".hpp", ".h", ".c", ".inc", ".py", ".rs", ".js", ".mjs", ".md", ".txt"}


def main():
    root = pathlib.Path(sys.argv[1])
    problems = []
    sections = {}
    for spec in SPECS:
        path = root / "docs" / "spec" / spec
        if not path.is_file():
            problems.append(f"docs/spec/{spec}: missing")
            sections[spec] = set()
            continue
        sections[spec] = {m.group(1) for line in path.read_text(encoding="utf-8").splitlines()
                          if (m := HEADING.match(line))}
    cited = 0
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "node_modules" in path.parts or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for n, line in enumerate(text.splitlines(), 1):
                for spec, section in CITATION.findall(line):
                    cited += 1
                    if section not in sections[spec]:
                        problems.append(f"{path.relative_to(root)}:{n}: cites {spec} §{section}, "
                                        f"which docs/spec/{spec} does not have")
    for name, limit in (("README.md", 10 * 1024), ("ARCHITECTURE.md", 6 * 1024 - 1)):
        size = (root / name).stat().st_size
        if size > limit:
            problems.append(f"{name}: {size} bytes, more than {limit}")
    for p in problems:
        print(p)
    print(f"{cited} citations of docs/spec checked: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
