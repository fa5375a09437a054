#!/usr/bin/env python3
"""Generates the raw layers of the bindings from capi/memkit.h (issue 27): Python's
bindings/python/memkit/_capi.py (ctypes) and Rust's bindings/rust/src/sys.rs. Every constant,
type, struct (fields in order), callback and function of the header, in header order under its
section and (for functions) its C prototype; in Python the hand-written loader (_PY_LOADER below)
sits between the types and the functions.

usage: generate_raw.py [--check]     (--check: exit 1 when a committed file differs)
Standard library only.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEADER = REPO / "capi" / "memkit.h"
PYTHON = REPO / "bindings" / "python" / "memkit" / "_capi.py"
RUST = REPO / "bindings" / "rust" / "src" / "sys.rs"


# ---- the header, as items in order ----------------------------------------------------------

@dataclass
class Item:
    kind: str  # section, constant, alias, struct, opaque, callback, function
    name: str
    text: str = ""                               # section title; constant value (C)
    fields: list = field(default_factory=list)   # struct: [(type, name)]; callback/function params
    result: str = ""                             # callback/function return type
    prototype: str = ""                          # function/callback prototype as written


def blank_comments(text: str) -> str:
    """Comments replaced by spaces (positions kept), but section banners kept as markers."""
    def blank(match: re.Match) -> str:
        body = match.group(0)
        section = re.match(r"/\* Section - ([^\n*]+)", body)
        if section:
            marker = "@@SECTION " + section.group(1).strip() + "@@"
            return marker + re.sub(r"[^\n]", " ", body[len(marker):]) if len(body) > len(marker) \
                else marker
        return re.sub(r"[^\n]", " ", body)
    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)


def split_params(params: str) -> list:
    params = " ".join(params.split())
    if params in ("", "void"):
        return []
    out = []
    for param in params.split(","):
        param = param.strip()
        match = re.match(r"(.*?)(\w+)$", param)
        out.append((" ".join(match.group(1).replace("*", " * ").split()), match.group(2)))
    return out


def read_header(path: Path = HEADER) -> list:
    raw = path.read_text(encoding="utf-8")
    text = blank_comments(raw).replace("\\\n", "  ")  # continuation lines joined
    patterns = [
        ("section", r"@@SECTION ([^@]+)@@"),
        ("enum", r"\benum\s*\{([^}]*)\}\s*;"),
        ("struct", r"\btypedef\s+struct\s+(\w+)\s*\{([^}]*)\}\s*(\w+)\s*;"),
        ("opaque", r"\btypedef\s+struct\s+(\w+)\s+(\w+)\s*;"),
        ("callback", r"\btypedef\s+([\w\s\*]+?)\s*\(\s*\*\s*(\w+)\s*\)\s*\(([^)]*)\)\s*;"),
        ("alias", r"\btypedef\s+(\w+)\s+(\w+)\s*;"),
        ("function", r"\bMK_API\s+([^;{()]*?)\b(mk_\w+)\s*\(([^)]*)\)\s*;"),
        ("constant", r"^#define\s+(MK_[A-Z0-9_]+)[ \t]+([^\n]*)"),
    ]
    found = []
    for kind, pattern in patterns:
        for match in re.finditer(pattern, text, re.MULTILINE | re.DOTALL):
            found.append((match.start(), kind, match))
    found.sort(key=lambda f: f[0])
    items = []
    for _, kind, m in found:
        if kind == "section":
            items.append(Item("section", m.group(1).strip(), m.group(1).strip()))
        elif kind == "enum":
            for entry in m.group(1).split(","):
                if "=" in entry:
                    name, value = (part.strip() for part in entry.split("=", 1))
                    items.append(Item("constant", name, value))
        elif kind == "struct":
            fields = []
            for declaration in m.group(2).split(";"):
                declaration = " ".join(declaration.split())
                if declaration:
                    match = re.match(r"(.*?)(\w+)$", declaration)
                    fields.append((" ".join(match.group(1).replace("*", " * ").split()),
                                   match.group(2)))
            items.append(Item("struct", m.group(3), fields=fields))
        elif kind == "opaque":
            items.append(Item("opaque", m.group(2)))
        elif kind == "callback":
            items.append(Item("callback", m.group(2), result=" ".join(m.group(1).split()),
                              fields=split_params(m.group(3))))
        elif kind == "alias":
            items.append(Item("alias", m.group(2), text=m.group(1)))
        elif kind == "function":
            prototype = " ".join(f"{m.group(1)}{m.group(2)}({m.group(3)});".split())
            items.append(Item("function", m.group(2), result=" ".join(m.group(1).split()),
                              fields=split_params(m.group(3)), prototype=prototype))
        else:
            value = " ".join(m.group(2).replace("\\\n", " ").split())
            if value and not value.startswith("__") and "QUOTE" not in m.group(1) \
                    and "EXPAND" not in m.group(1) and m.group(1) != "MK_API":
                items.append(Item("constant", m.group(1), value))
    return items


# ---- Python (ctypes) ------------------------------------------------------------------------

_PY_SCALARS = {"int32_t": "c_int32", "uint32_t": "c_uint32", "int64_t": "c_int64",
               "uint64_t": "c_uint64", "size_t": "c_size_t", "double": "c_double",
               "char": "c_char", "void": "None"}


def py_type(ctype: str, where: str, known: dict) -> str:
    """The ctypes type of a C type: `where` is param, return, field or callback."""
    ctype = ctype.replace("*", " * ")
    const = "const" in ctype.split()
    words = [w for w in ctype.split() if w != "const"]
    stars = words.count("*")
    base = " ".join(w for w in words if w != "*")
    if stars == 0:
        return _PY_SCALARS.get(base, base)
    if base == "char" and stars == 1:
        if where == "callback":
            return "c_void_p"  # the address, not a copy cut at the first NUL
        return "c_char_p" if const or where != "field" else "POINTER(c_char)"
    if base == "void" and stars == 1:
        return "c_void_p"
    inner = _PY_SCALARS.get(base, base)
    for _ in range(stars):
        inner = f"POINTER({inner})"
    return inner


def py_constant(value: str) -> str:
    value = value.strip()
    if value.startswith("MK_VERSION_EXPAND_"):
        return 'f"{MK_VERSION_MAJOR}.{MK_VERSION_MINOR}.{MK_VERSION_PATCH}"'
    if value == "INT64_MIN":
        return "-(1 << 63)"
    return re.sub(r"\b(\d+)[uU]\b", r"\1", value)


def wrap_call(head: str, args: list, indent: int) -> str:
    """`head(arg, arg, ...)` wrapped under 100 columns, continuation lines under the paren."""
    lines = [head + "("]
    for i, arg in enumerate(args):
        piece = arg + (", " if i + 1 < len(args) else ")")
        if len(lines[-1]) + len(piece.rstrip()) > 100:
            lines[-1] = lines[-1].rstrip()
            lines.append(" " * indent + piece)
        else:
            lines[-1] += piece
    if not args:
        lines[-1] += ")"
    return "\n".join(lines)


def python_layer(items: list) -> str:
    out = [_PY_HEAD]
    section = None
    functions = []
    for item in items:
        if item.kind == "function":
            functions.append((section, item))
            continue
        if item.kind == "section":
            section = item.name
            out.append(f"\n# Section - {item.name}\n")
            continue
        if item.kind == "constant":
            if item.name == "MK_VERSION_NUMBER":
                out.append("MK_VERSION_NUMBER = MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 "
                           "+ MK_VERSION_PATCH")
            else:
                out.append(f"{item.name} = {py_constant(item.text)}")
        elif item.kind == "alias":
            out.append(f"{item.name} = {_PY_SCALARS.get(item.text, item.text)}")
        elif item.kind == "opaque":
            out.append(f"\n\nclass {item.name}(Structure):\n"
                       f'    """Opaque: only ever handled as POINTER({item.name})."""\n\n')
        elif item.kind == "struct":
            rows = [f'("{name}", {py_type(ctype, "field", {})})' for ctype, name in item.fields]
            body = (",\n" + " " * 16).join(rows)
            out.append(f"\n\nclass {item.name}(Structure):\n    _fields_ = [{body}]\n\n")
        elif item.kind == "callback":
            params = [py_type(ctype, "callback", {}) for ctype, _ in item.fields]
            # A callback handed to a callback arrives as an address: ctypes cannot pass it on.
            params = ["c_void_p" if p.endswith("_fn") else p for p in params]
            result = _PY_SCALARS.get(item.result, item.result)
            out.append(wrap_call(f"{item.name} = CFUNCTYPE", [result] + params,
                                 len(item.name) + 13))
    out.append(_PY_LOADER)
    current = None
    for section_name, item in functions:
        if section_name != current:
            current = section_name
            out.append(f"\n# Section - {section_name}\n")
        out.append("\n".join(f"# {line}" for line in prototype_lines(item.prototype)))
        args = [f'"{item.name}"', py_type(item.result, "return", {})] + \
            [py_type(ctype, "param", {}) for ctype, _ in item.fields]
        out.append(wrap_call(f"{item.name} = _fn", args, len(item.name) + 7))
    text = "\n".join(out)
    # A section with nothing of its own to declare (Export) is left out.
    text = re.sub(r"# Section - [^\n]*\n+(?=# Section)", "", text)
    text = re.sub(r"\n{3,}(?=# Section)", "\n\n\n", text)
    return re.sub(r"\n{4,}", "\n\n\n", text).rstrip("\n") + "\n"


def prototype_lines(prototype: str) -> list:
    """A prototype in lines of at most 98 columns, continuation lines under the paren."""
    if len(prototype) <= 98:
        return [prototype]
    paren = prototype.index("(") + 1
    lines = [prototype[:paren]]
    for i, piece in enumerate(prototype[paren:].split(", ")):
        piece = piece + ("," if not piece.endswith(";") else "")
        if len(lines[-1]) + 1 + len(piece) > 98 and lines[-1] != prototype[:paren]:
            lines.append(" " * paren + piece)
        else:
            lines[-1] += ("" if lines[-1].endswith("(") else " ") + piece
    return lines


_PY_HEAD = '''"""The raw layer: memkit.h as ctypes declarations, and nothing more. GENERATED by
bindings/generate_raw.py from capi/memkit.h: edit the header (or the generator), never this file.

Each C function is declared once, in the order of capi/memkit.h, under its C prototype. Names,
structs and constants are the header's own; the idiomatic layer (memkit/__init__.py) is the
only user. Standard library only (STYLE B2).

_load() finds the library: the MEMKIT_LIBRARY environment variable, then this package's folder,
then ctypes.util.find_library("memkit"); it refuses a library whose mk_version_number() is not
the MK_VERSION_NUMBER this file was written for.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int32, c_int64,
                    c_size_t, c_uint32, c_uint64, c_void_p)
from pathlib import Path
from typing import Callable, Mapping, Optional
'''

_PY_LOADER = '''

# The loader (written by hand, kept in bindings/generate_raw.py).

class LoadError(ImportError):
    """libmemkit cannot be found or loaded, or it is not the version this binding was written for."""


def _library_names() -> list[str]:
    if sys.platform == "win32":
        return ["memkit.dll", "libmemkit.dll"]
    if sys.platform == "darwin":
        return ["libmemkit.dylib"]
    return ["libmemkit.so"]


def _check_version(lib: ctypes.CDLL, where: str, expected: int) -> None:
    number = lib.mk_version_number
    number.restype = c_int32
    number.argtypes = []
    found = number()
    if found != expected:
        def dotted(n: int) -> str:
            return f"{n // 10000}.{n // 100 % 100}.{n % 100}"
        raise LoadError(
            f"memkit: {where} is libmemkit {dotted(found)} (mk_version_number() == {found}), but "
            f"this binding was written for {dotted(expected)} ({expected}); load a matching "
            f"library (MEMKIT_LIBRARY) or update the binding")


def _load(env: Optional[Mapping[str, str]] = None, package_dir: Optional[Path] = None,
          find_library: Callable[[str], Optional[str]] = ctypes.util.find_library,
          expected: Optional[int] = None) -> tuple[ctypes.CDLL, str]:
    """Loads libmemkit and checks its version; returns the library and where it came from.

    Tries, in order: the path in MEMKIT_LIBRARY (when set, it must load: no silent fallback),
    the package folder, then find_library("memkit"). The parameters exist for tests.
    """
    env = os.environ if env is None else env
    package_dir = Path(__file__).resolve().parent if package_dir is None else package_dir
    expected = MK_VERSION_NUMBER if expected is None else expected

    def open_(path: str, why: str) -> tuple[ctypes.CDLL, str]:
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            raise LoadError(f"memkit: cannot load {path} ({why}): {error}") from error
        _check_version(lib, path, expected)
        return lib, path

    explicit = env.get("MEMKIT_LIBRARY")
    if explicit:
        return open_(explicit, "from MEMKIT_LIBRARY")
    for name in _library_names():
        candidate = package_dir / name
        if candidate.exists():
            return open_(str(candidate), "from the package folder")
    found = find_library("memkit")
    if found:
        return open_(found, 'from ctypes.util.find_library("memkit")')
    raise LoadError(
        "memkit: libmemkit not found: set MEMKIT_LIBRARY to its path, put "
        f"{_library_names()[0]} in {package_dir}, or install it where the system linker looks")


_lib, library_path = _load()


def _fn(name: str, restype, *argtypes):
    function = getattr(_lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)
    return function


# The functions of memkit.h, in header order.
'''


# ---- Rust (bindings/rust/src/sys.rs) ---------------------------------------------------------

_RS_SCALARS = {"int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64",
               "size_t": "usize", "double": "f64", "char": "c_char", "void": "c_void"}
_RS_KEYWORDS = {"type", "ref", "mod", "match", "fn", "in", "loop", "move", "self", "use", "where"}


def rs_name(name: str) -> str:
    return name + "_" if name in _RS_KEYWORDS else name


def rs_type(ctype: str) -> str:
    words = ctype.replace("*", " * ").split()
    # memkit.h writes `const T* x`: the const is the pointee's.
    const = bool(words) and words[0] == "const"
    words = [w for w in words if w != "const"]
    stars = words.count("*")
    base = " ".join(w for w in words if w != "*")
    out = _RS_SCALARS.get(base, base)
    for level in range(stars):
        out = ("*const " if const and level == 0 else "*mut ") + out
    return out


def rs_params(params: list) -> str:
    return ", ".join(f"{rs_name(name)}: {rs_type(ctype)}" for ctype, name in params)


def rs_result(ctype: str) -> str:
    return "" if ctype == "void" else " -> " + rs_type(ctype)


def rust_layer(items: list) -> str:
    scalars = {"i32", "u32", "i64", "u64", "usize", "c_char"}
    scalars |= {i.name for i in items if i.kind == "alias"}  # the int32_t enums
    out = [_RS_HEAD]
    alias = "i32"
    in_extern = False
    for item in items:
        if item.kind != "function" and in_extern:
            out.append("}\n")
            in_extern = False
        if item.kind == "section":
            out.append(f"// Section - {item.name}\n")
        elif item.kind == "constant":
            value = item.text
            if item.name == "MK_VERSION_NUMBER":
                out.append("pub const MK_VERSION_NUMBER: i32 =\n"
                           "    MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH;")
            elif item.name == "MK_VERSION_STRING":
                out.append('pub const MK_VERSION_STRING: &str = "0.1.0";')
            elif item.name.startswith("MK_VERSION_"):
                out.append(f"pub const {item.name}: i32 = {value};")
            elif value == "INT64_MIN":
                out.append(f"pub const {item.name}: i64 = i64::MIN;")
            elif re.fullmatch(r"\d+[uU]", value):
                out.append(f"pub const {item.name}: u32 = {value[:-1]};")
            else:
                # The values of an int32_t enum share its first word: MK_FORGET_* of
                # mk_forget_mode, MK_OK and MK_E_* of mk_status; others (MK_JUDGE_*) are i32.
                word = alias[3:].split("_")[0].upper()
                typed = item.name.startswith(f"MK_{word}_") or \
                    (alias == "mk_status" and re.match(r"MK_(OK|E_)", item.name))
                out.append(f"pub const {item.name}: {alias if typed else 'i32'} = {value};")
        elif item.kind == "alias":
            alias = item.name
            out.append(f"/// `typedef {item.text} {item.name};`\n"
                       f"pub type {item.name} = {_RS_SCALARS.get(item.text, item.text)};")
        elif item.kind == "opaque":
            out.append(f"\n/// `typedef struct {item.name} {item.name};` (opaque)\n#[repr(C)]\n"
                       f"pub struct {item.name} {{\n    _private: [u8; 0],\n"
                       f"    _marker: PhantomData<(*mut u8, PhantomPinned)>,\n}}\n")
        elif item.kind == "struct":
            types = [rs_type(ctype) for ctype, _ in item.fields]
            plain = all(t in scalars for t in types)
            # A struct owning what a field points to (mk_buf) is not copied by accident.
            owning = any(t.startswith("*mut ") for t in types)
            derive = ("Debug" if owning else
                      "Clone, Copy, Debug, Default, PartialEq, Eq" if plain else "Clone, Copy, Debug")
            fields = "".join(f"    pub {rs_name(name)}: {t},\n"
                             for (_, name), t in zip(item.fields, types))
            out.append(f"\n/// `{item.name}` of memkit.h.\n#[repr(C)]\n#[derive({derive})]\n"
                       f"pub struct {item.name} {{\n{fields}}}\n")
        elif item.kind == "callback":
            out.append(f"\n/// `{item.name}` of memkit.h.\npub type {item.name} = Option<\n"
                       f"    unsafe extern \"C\" fn({rs_params(item.fields)})"
                       f"{rs_result(item.result)},\n>;\n")
        elif item.kind == "function":
            if not in_extern:
                out.append('\nextern "C" {')
                in_extern = True
            out.append("\n".join(f"    // {line}" for line in prototype_lines(item.prototype)))
            out.append(f"    pub fn {item.name}({rs_params(item.fields)}){rs_result(item.result)};")
    if in_extern:
        out.append("}\n")
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


_RS_HEAD = """//! The raw C ABI of memkit, GENERATED by bindings/generate_raw.py from capi/memkit.h: edit the
//! header (or the generator), never this file.
//!
//! Every function is declared once, in header order, under its C prototype. Nothing here is
//! safe to call without reading that prototype's contract in memkit.h: ownership, NULL rules
//! and thread safety are stated there, and the safe API in `lib.rs` is built on them.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::{c_char, c_void};
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    items = read_header()
    outputs = {PYTHON: python_layer(items), RUST: rust_layer(items)}
    stale = []
    for path, text in outputs.items():
        if args.check:
            if path.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path.relative_to(REPO)} differs from what bindings/generate_raw.py makes of "
              "capi/memkit.h: run bindings/generate_raw.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
