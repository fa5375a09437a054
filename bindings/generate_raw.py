#!/usr/bin/env python3
"""Generates the raw layers of the bindings from capi/memkit.h (issue 27): Python's
bindings/python/memkit/_capi.py (ctypes), Rust's bindings/rust/src/sys.rs and Node's
bindings/node/lib/capi.js (koffi). Every constant, type, struct (fields in order), callback and
function of the header, in header order under its section and (for functions) its C prototype.
The loaders are written by hand (_PY_LOADER,
_JS_HEAD below). Binary text (a `const char*` followed by its size, in a struct or a callback) is
declared as void* where the language would otherwise read it as a NUL-terminated string.

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
NODE = REPO / "bindings" / "node" / "lib" / "capi.js"


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

_load() finds the library: the MEMKIT_LIBRARY environment variable, then the copy bundled in
this package (memkit/_lib/libmemkit.so.0.<minor>), then that versioned soname through the system
loader; it refuses a library whose mk_version_number() is not the MK_VERSION_NUMBER this file was
written for.
"""

from __future__ import annotations

import ctypes
import os
import platform
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int32, c_int64,
                    c_size_t, c_uint32, c_uint64, c_void_p)
from pathlib import Path
from typing import Callable, Mapping, Optional
'''

_PY_LOADER = '''

# The loader (written by hand, kept in bindings/generate_raw.py).

class LoadError(ImportError):
    """libmemkit cannot be found or loaded, or it is not the version this binding was written for."""


def _dotted(number: int) -> str:
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


def _soname(number: int) -> str:
    """The library's soname for a version number: libmemkit.so.0.<minor> before 1.0, then
    libmemkit.so.<major> (STYLE K2). Never the unversioned libmemkit.so, which only a development
    install has, and which may be any version."""
    major, minor = number // 10000, number // 100 % 100
    return f"libmemkit.so.0.{minor}" if major == 0 else f"libmemkit.so.{major}"


def _install_hint(number: int) -> str:
    arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    return (f"install the Debian package memkit (apt-get install ./memkit_{_dotted(number)}_{arch}"
            ".deb), or build memkit from source (cmake --install), or set MEMKIT_LIBRARY")


def _check_version(lib: ctypes.CDLL, where: str, expected: int) -> None:
    number = lib.mk_version_number
    number.restype = c_int32
    number.argtypes = []
    found = number()
    if found != expected:
        raise LoadError(
            f"memkit: {where} is libmemkit {_dotted(found)} (mk_version_number() == {found}), but "
            f"this binding was written for {_dotted(expected)} ({expected}); load a matching "
            f"library (MEMKIT_LIBRARY) or update the binding")


def _load(env: Optional[Mapping[str, str]] = None, package_dir: Optional[Path] = None,
          dlopen: Callable[[str], ctypes.CDLL] = ctypes.CDLL,
          expected: Optional[int] = None) -> tuple[ctypes.CDLL, str]:
    """Loads libmemkit and checks its version; returns the library and where it came from (a
    path, or the soname when the system loader found it).

    Tries, in order: the path in MEMKIT_LIBRARY (when set, it must load: no silent fallback),
    the copy bundled in the package (_lib/<soname>, put there by the wheel build; it must load),
    then the soname through the system loader (the Debian package's /usr/lib/<triplet>). The
    parameters exist for tests.
    """
    env = os.environ if env is None else env
    package_dir = Path(__file__).resolve().parent if package_dir is None else package_dir
    expected = MK_VERSION_NUMBER if expected is None else expected
    soname = _soname(expected)

    def open_(path: str, why: str) -> tuple[ctypes.CDLL, str]:
        try:
            lib = dlopen(path)
        except OSError as error:
            raise LoadError(f"memkit: cannot load {path} ({why}): {error}") from error
        _check_version(lib, path, expected)
        return lib, path

    explicit = env.get("MEMKIT_LIBRARY")
    if explicit:
        return open_(explicit, "from MEMKIT_LIBRARY")
    bundled = package_dir / "_lib" / soname
    if bundled.exists():
        return open_(str(bundled), "bundled with the package")
    try:
        lib = dlopen(soname)
    except OSError as error:
        raise LoadError(
            f"memkit: libmemkit not found: MEMKIT_LIBRARY is not set, {bundled} does not exist, "
            f"and the system loader cannot load {soname} ({error}); {_install_hint(expected)}"
        ) from error
    _check_version(lib, soname, expected)
    return lib, soname


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
    base = " ".join(w for w in words if w not in ("*", "const"))
    out = _RS_SCALARS.get(base, base)
    # Each level's pointee is const when `const` stands before the base type (level 0) or right
    # after the previous star: `const char* const*` is *const *const c_char.
    pointee_const = bool(words) and words[0] == "const"
    for i, word in enumerate(words):
        if word == "*":
            out = ("*const " if pointee_const else "*mut ") + out
            pointee_const = i + 1 < len(words) and words[i + 1] == "const"
    return out


def rs_params(params: list) -> str:
    return ", ".join(f"{rs_name(name)}: {rs_type(ctype)}" for ctype, name in params)


def rs_result(ctype: str) -> str:
    return "" if ctype == "void" else " -> " + rs_type(ctype)


def rust_layer(items: list) -> str:
    scalars = {"i32", "u32", "i64", "u64", "usize", "c_char"}
    scalars |= {i.name for i in items if i.kind == "alias"}  # the int32_t enums
    version = {i.name: i.text for i in items if i.kind == "constant"}
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
                spelled = ".".join(version[f"MK_VERSION_{p}"] for p in ("MAJOR", "MINOR", "PATCH"))
                out.append(f'pub const MK_VERSION_STRING: &str = "{spelled}";')
            elif item.name.startswith("MK_VERSION_"):
                out.append(f"pub const {item.name}: i32 = {value};")
            elif value == "INT64_MIN":
                out.append(f"pub const {item.name}: i64 = i64::MIN;")
            elif re.fullmatch(r"\d+[uU]", value):
                out.append(f"pub const {item.name}: u32 = {value[:-1]};")
            else:
                # The values of an int32_t enum share its first word: MK_LAYOUT_* of
                # mk_layout, MK_OK and MK_E_* of mk_status; others (MK_JUDGE_*) are i32.
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


# ---- Node (bindings/node/lib/capi.js, koffi) -------------------------------------------------

def js_type(ctype: str, binary: bool = False) -> str:
    """A C type as koffi spells it: `const char*` as 'const char *', binary text as void."""
    words = ctype.replace("*", " * ").split()
    const = bool(words) and words[0] == "const"
    words = [w for w in words if w != "const"]
    stars = words.count("*")
    base = " ".join(w for w in words if w != "*")
    if binary and base == "char" and stars == 1:
        base = "void"
    spelled = ("const " if const else "") + base
    return spelled + (" " + "*" * stars if stars else "")


def js_params(params: list, callbacks: set, function: str = "") -> str:
    out = []
    for i, (ctype, name) in enumerate(params):
        following = params[i + 1][0] if i + 1 < len(params) else ""
        binary = not function and following.strip() == "size_t" and "char" in ctype
        spelled = js_type(ctype, binary)
        if ctype in callbacks:
            spelled = ctype + " *"  # koffi passes a callback through a pointer to its proto
        annotation = ""
        if "*" in ctype and not ctype.startswith("const"):
            if function == "mk_buf_dispose":
                annotation = "_Inout_ "
            elif function.endswith("_options_init"):
                annotation = "_Inout_ "  # filled only as far as the caller's version goes
            elif name == "out":
                annotation = "_Out_ "
        out.append(f"{annotation}{spelled}{'' if spelled.endswith('*') else ' '}{name}")
    return ", ".join(out) if out else "void"


def js_string_lines(text: str, head: str) -> list:
    """`head` and a prototype string split into 'a ' + 'b' pieces of at most 100 columns."""
    if len(head) + len(text) + 5 <= 100:
        return [f"{head}'{text}');"]
    lines = [head]
    pieces = text.split(", ")
    current = "  '"
    for i, piece in enumerate(pieces):
        piece = piece + (", " if i + 1 < len(pieces) else "")
        if len(current) + len(piece) + 4 > 100 and current not in ("  '", "    '"):
            lines.append(current + "' +")
            current = "    '"
        current += piece
    lines.append(current + "',")
    lines.append(");")
    return lines


def node_layer(items: list) -> str:
    callbacks = {i.name for i in items if i.kind == "callback"}
    version = {i.name: i.text for i in items if i.kind == "constant"}
    number = int(version["MK_VERSION_MAJOR"]) * 10000 + int(version["MK_VERSION_MINOR"]) * 100 \
        + int(version["MK_VERSION_PATCH"])
    major, minor = int(version["MK_VERSION_MAJOR"]), int(version["MK_VERSION_MINOR"])
    dotted = f"{major}.{minor}.{version['MK_VERSION_PATCH']}"
    soname = f"libmemkit.so.0.{minor}" if major == 0 else f"libmemkit.so.{major}"
    out = [_JS_HEAD.replace("@@VERSION_NUMBER@@", str(number)).replace("@@SONAME@@", soname)
           .replace("@@VERSION@@", dotted)]
    functions, types, constants = [], [], []
    for item in items:
        if item.kind == "section":
            if item.name != "Export":
                out.append(f"\n/* Section - {item.name} */\n")
        elif item.kind == "constant":
            if item.name.startswith("MK_VERSION_"):
                continue  # read from the library (mk_version_number), not a constant here
            value = "-(2n ** 63n)" if item.text == "INT64_MIN" else \
                re.sub(r"\b(\d+)[uU]\b", r"\1", item.text)
            out.append(f"const {item.name} = {value};")
            constants.append(item.name)
        elif item.kind == "alias":
            out.append(f"koffi.alias('{item.name}', '{item.text}');")
        elif item.kind == "opaque":
            out.append(f"\nkoffi.opaque('{item.name}');\n")
        elif item.kind == "struct":
            rows = []
            for i, (ctype, name) in enumerate(item.fields):
                following = item.fields[i + 1] if i + 1 < len(item.fields) else ("", "")
                binary = following[1] == name + "_size" or (name == "ptr" and following[1] == "size")
                rows.append(f"  {name}: '{js_type(ctype, binary)}',")
            out.append(f"\nconst {item.name} = koffi.struct('{item.name}', {{\n" + "\n".join(rows)
                       + "\n});\n")
            types.append(item.name)
        elif item.kind == "callback":
            proto = f"{item.result} {item.name}({js_params(item.fields, callbacks)})"
            out.append("")
            out.extend(js_string_lines(proto, f"const {item.name} = koffi.proto("))
            types.append(item.name)
        elif item.kind == "function":
            result = js_type(item.result)
            proto = f"{result}{'' if result.endswith('*') else ' '}{item.name}" \
                    f"({js_params(item.fields, callbacks, item.name)})"
            out.append("\n".join("// " + ("MK_API " if i == 0 else "       ") + line
                                 for i, line in enumerate(prototype_lines(item.prototype))))
            out.extend(js_string_lines(proto, f"const {item.name} = lib.func("))
            functions.append(item.name)
            if item.name == "mk_version_string":
                out.append(_JS_VERSION_CHECK.replace("@@VERSION@@", dotted))
    out.append("\nmodule.exports = {\n  koffi,\n  libraryPath,\n  SONAME,\n  MK_VERSION_NUMBER,\n"
               "  // functions, in header order\n"
               + "".join(f"  {name},\n" for name in functions)
               + "  // types\n  types: {\n" + "".join(f"    {name},\n" for name in types)
               + "  },\n  // constants, with the header's names\n  constants: Object.freeze({\n"
               + "".join(f"    {name},\n" for name in constants) + "  }),\n};\n")
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


_JS_VERSION_CHECK = """
// Checked before any other declaration, so a mismatched library fails here with a clear message
// rather than later with a missing symbol or a wrong struct layout.
{
  const found = mk_version_number();
  if (found !== MK_VERSION_NUMBER) {
    throw new Error(
      `memkit: ${libraryPath} is version ${found} (${mk_version_string()}), but this binding ` +
        `needs MK_VERSION_NUMBER ${MK_VERSION_NUMBER} (@@VERSION@@)`,
    );
  }
}
"""


_JS_HEAD = r"""'use strict';
// The raw layer: capi/memkit.h as koffi sees it, one declaration per C function, in header order.
// GENERATED by bindings/generate_raw.py from capi/memkit.h: edit the header (or the generator).
// Nothing here owns memory or checks a status; index.js does that. Each function is declared from
// its C prototype string, and the header's own declaration stands above it as a comment.
//
// koffi 3 turns every pointer into a BigInt that no longer knows its C type, so a handle handed to
// the wrong function is undefined behaviour: only index.js touches these functions, and it keeps
// each handle in a private #ptr field of the class that owns it.

const fs = require('node:fs');
const path = require('node:path');
const koffi = require('koffi');

// The header version this file was written against (MK_VERSION_NUMBER). The struct layouts below
// are those of that version, so a library of any other version is refused on load (STYLE C10).
const MK_VERSION_NUMBER = @@VERSION_NUMBER@@;

/* Section - Export: library loading */

// The library's soname, libmemkit.so.0.<minor> before 1.0, then libmemkit.so.<major> (STYLE K2);
// never the unversioned libmemkit.so, which only a development install has and which may be any
// version.
const SONAME = '@@SONAME@@';

// Where `npm pack` puts the library it bundles (scripts/prepack.js).
const BUNDLED = path.join(
  __dirname, '..', 'prebuilds', `${process.platform}-${process.arch}`, SONAME);

function installHint() {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  return (
    `install the Debian package memkit (apt-get install ./memkit_@@VERSION@@_${arch}.deb), ` +
    'or build memkit from source (cmake --install), or set MEMKIT_LIBRARY'
  );
}

// MEMKIT_LIBRARY when set (it must load), else the copy bundled in the package (it must load),
// else the soname through the system loader (the Debian package's /usr/lib/<triplet>).
function loadLibrary() {
  const fromEnv = process.env.MEMKIT_LIBRARY;
  if (fromEnv) {
    try {
      return { lib: koffi.load(fromEnv), from: fromEnv };
    } catch (err) {
      throw new Error(`memkit: cannot load MEMKIT_LIBRARY=${fromEnv}: ${err.message}`, {
        cause: err,
      });
    }
  }
  if (fs.existsSync(BUNDLED)) {
    try {
      return { lib: koffi.load(BUNDLED), from: BUNDLED };
    } catch (err) {
      throw new Error(`memkit: cannot load ${BUNDLED} (bundled with the package): ${err.message}`,
        { cause: err });
    }
  }
  try {
    return { lib: koffi.load(SONAME), from: SONAME };
  } catch (err) {
    throw new Error(
      `memkit: libmemkit not found: MEMKIT_LIBRARY is not set, ${BUNDLED} does not exist, and ` +
        `the system loader cannot load ${SONAME} (${err.message}); ${installHint()}`,
      { cause: err },
    );
  }
}

const { lib, from: libraryPath } = loadLibrary();
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    items = read_header()
    outputs = {PYTHON: python_layer(items), RUST: rust_layer(items), NODE: node_layer(items)}
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
