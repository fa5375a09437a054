#!/usr/bin/env python3
"""Checks that every exported C function is bound in each language binding (issue 4, STYLE B1).

For each binding folder, every symbol of capi/memkit.map must appear as a whole word in the
binding's raw layer (its source files, tests and dependencies excluded), or be listed with a
reason in the folder's UNBOUND file (one `mk_name: reason` per line). A name listed in UNBOUND
that the map does not export is an error too, so the list cannot go stale.

Usage: check_bindings.py --map capi/memkit.map BINDING_DIR...
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_symbols import read_map  # noqa: E402

SOURCE_SUFFIXES = {".py", ".rs", ".js", ".mjs", ".cjs", ".ts"}
SKIPPED_PARTS = {"tests", "test", "node_modules", "target", "__pycache__"}


def raw_layer_text(binding: Path) -> str:
    texts = []
    for path in sorted(binding.rglob("*")):
        relative = path.relative_to(binding)
        if any(part in SKIPPED_PARTS for part in relative.parts):
            continue
        if path.is_file() and path.suffix in SOURCE_SUFFIXES:
            texts.append(path.read_text(encoding="utf-8"))
    return "\n".join(texts)


def unbound(binding: Path) -> dict[str, str]:
    listed = {}
    path = binding / "UNBOUND"
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(":")
                listed[name.strip()] = reason.strip()
    return listed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--map", required=True, type=Path)
    parser.add_argument("bindings", nargs="+", type=Path)
    args = parser.parse_args()
    exported = read_map(args.map)
    problems = []
    for binding in args.bindings:
        if not binding.is_dir():
            problems.append(f"{binding}: no such binding folder")
            continue
        text = raw_layer_text(binding)
        if not text:
            problems.append(f"{binding}: no source files")
            continue
        skipped = unbound(binding)
        for name in sorted(skipped):
            if name not in exported:
                problems.append(f"{binding}/UNBOUND: {name} is not exported")
            elif not skipped[name]:
                problems.append(f"{binding}/UNBOUND: {name} has no reason")
        for name in sorted(exported):
            if name in skipped:
                continue
            if re.search(r"\b" + re.escape(name) + r"\b", text) is None:
                problems.append(f"{binding}: {name} is neither bound nor listed in UNBOUND")
        print(f"{binding}: {len(exported) - len(skipped)} of {len(exported)} functions bound"
              + (f", {len(skipped)} deliberately unbound" if skipped else ""))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
