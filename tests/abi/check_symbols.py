#!/usr/bin/env python3
"""Checks that libmemkit.so, capi/memkit.map and capi/memkit.h name the same symbols (STYLE T3).

The version script is the single list of exports. A function declared with MK_API but missing from
the map would be hidden from hosts; one in the map but not in the header is not API; and a symbol
the library exports beyond the map means the version script no longer applies. Each such drift
fails here, with the symbols that differ.

Usage: check_symbols.py --library libmemkit.so --map memkit.map --header memkit.h [--nm nm]
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

VERSION_NODE = "MEMKIT_0"


def strip_c_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", " ", text)


def read_map(path: Path) -> set[str]:
    """Returns the symbols listed under global: in the MEMKIT_0 node of a version script."""
    text = strip_c_comments(path.read_text(encoding="utf-8"))
    text = re.sub(r"#[^\n]*", " ", text)
    node = re.search(VERSION_NODE + r"\s*\{(.*?)\}\s*[A-Za-z0-9_]*\s*;", text, flags=re.DOTALL)
    if node is None:
        raise SystemExit(f"{path}: no '{VERSION_NODE} {{ ... }};' node")
    body = node.group(1)
    globals_part = re.search(r"global\s*:(.*?)(?:local\s*:|$)", body, flags=re.DOTALL)
    if globals_part is None:
        raise SystemExit(f"{path}: the {VERSION_NODE} node has no global: list")
    names = [name.strip() for name in globals_part.group(1).split(";")]
    symbols = {name for name in names if name}
    for name in sorted(symbols):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise SystemExit(f"{path}: '{name}' is not one named symbol (no wildcards: STYLE C9)")
    local_part = re.search(r"local\s*:\s*\*\s*;", body)
    if local_part is None:
        raise SystemExit(f"{path}: the {VERSION_NODE} node must end with 'local: *;'")
    return symbols


def read_header(path: Path) -> set[str]:
    """Returns the names of the functions declared with MK_API."""
    text = strip_c_comments(path.read_text(encoding="utf-8"))
    text = re.sub(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", " ", text, flags=re.MULTILINE)
    symbols = set()
    for declaration in re.finditer(r"\bMK_API\b([^;{]*)", text):
        name = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", declaration.group(1))
        if name is None:
            raise SystemExit(f"{path}: cannot find the function name in "
                             f"'MK_API{' '.join(declaration.group(1).split())}'")
        symbols.add(name.group(1))
    return symbols


def read_library(path: Path, nm: str) -> tuple[set[str], list[str]]:
    """Returns the defined dynamic symbols, without version tags, and those not in MEMKIT_0."""
    result = subprocess.run([nm, "-D", "--defined-only", str(path)], check=False,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{nm} -D --defined-only {path} failed:\n{result.stderr}")
    symbols = set()
    unversioned = []
    for line in result.stdout.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        base, _, version = name.replace("@@", "@").partition("@")
        if kind == "A" and base == VERSION_NODE:
            continue  # the version node's own marker, not a symbol
        symbols.add(base)
        if version != VERSION_NODE:
            unversioned.append(name)
    return symbols, unversioned


def report(title: str, names: set[str] | list[str]) -> None:
    print(f"  {title}:")
    for name in sorted(names):
        print(f"    {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--map", type=Path, required=True)
    parser.add_argument("--header", type=Path, required=True)
    parser.add_argument("--nm", default="nm")
    args = parser.parse_args()

    mapped = read_map(args.map)
    declared = read_header(args.header)
    exported, unversioned = read_library(args.library, args.nm or "nm")

    problems = []
    if declared - mapped:
        problems.append(("declared MK_API in memkit.h but missing from memkit.map",
                         declared - mapped))
    if mapped - declared:
        problems.append(("listed in memkit.map but not declared MK_API in memkit.h",
                         mapped - declared))
    if mapped - exported:
        problems.append(("listed in memkit.map but not exported by the library", mapped - exported))
    if exported - mapped:
        problems.append(("exported by the library but not listed in memkit.map", exported - mapped))
    if unversioned:
        problems.append((f"exported without the {VERSION_NODE} version tag", unversioned))
    unprefixed = sorted(name for name in mapped if not name.startswith("mk_"))
    if unprefixed:
        problems.append(("exported names must start with mk_ (STYLE C1)", unprefixed))

    if problems:
        print(f"ABI drift between {args.library}, {args.map} and {args.header}:")
        for title, names in problems:
            report(title, names)
        return 1
    print(f"{len(mapped)} symbols agree in {args.map.name}, {args.header.name} and "
          f"{args.library.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
