#!/usr/bin/env python3
"""STYLE L2: the pure core does no I/O and reads no clock, and dependencies point inward.

Checks every file of the pure modules (the list src/CMakeLists.txt passes in) for includes that
reach the OS, a clock or Boost.Filesystem; that public headers include only the standard
library and other public memkit headers; and that nothing under src/ includes capi/.

usage: check_layering.py SOURCE_DIR MODULE...
"""
import pathlib
import re
import sys

FORBIDDEN_IN_PURE = re.compile(
    r'#\s*include\s*[<"](fstream|iostream|istream|ostream|cstdio|stdio\.h|chrono|ctime|time\.h|'
    r'filesystem|random|unistd\.h|fcntl\.h|sys/[^>"]+|boost/[^>"]+)[>"]')
# <thread> is allowed: the core may spread pure work over cores when the result cannot depend on
# which thread computed what (keys of an inbox, say).
INCLUDE = re.compile(r'#\s*include\s*([<"])([^>"]+)[>"]')


def main():
    root = pathlib.Path(sys.argv[1])
    pure = sys.argv[2:]
    problems = []
    for module in pure:
        for path in sorted((root / "src" / module).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".inc"):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if FORBIDDEN_IN_PURE.search(line):
                    problems.append(f"{path.relative_to(root)}:{n}: pure module includes {line.strip()}")
    for path in sorted((root / "include" / "memkit").glob("*.hpp")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.search(line)
            if not m:
                continue
            quote, name = m.groups()
            if quote == '"' and not name.startswith("memkit/"):
                problems.append(f"{path.relative_to(root)}:{n}: public header includes {name}")
            if quote == "<" and ("/" in name or name.endswith(".h")):
                problems.append(f"{path.relative_to(root)}:{n}: public header includes <{name}>")
    for path in sorted((root / "src").rglob("*")):
        if path.suffix in (".cpp", ".hpp") and "capi/" in path.read_text(encoding="utf-8"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if INCLUDE.search(line) and "capi/" in line:
                    problems.append(f"{path.relative_to(root)}:{n}: src/ includes the C API")
    for p in problems:
        print(p)
    print(f"{len(pure)} pure modules and the public headers checked: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
