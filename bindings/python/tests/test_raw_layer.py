"""The raw layer against capi/memkit.h: every function, once, in header order, under its C
prototype (STYLE B1); the struct layouts and constants a C compiler sees (when one is installed)."""
import ctypes
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

try:
    from .support import BINDING, REPO
except ImportError:
    from support import BINDING, REPO

from memkit import _capi

HEADER = REPO / "capi" / "memkit.h"
MAP = REPO / "capi" / "memkit.map"
RAW = BINDING / "memkit" / "_capi.py"


def squash(text):
    text = " ".join(text.split())
    return re.sub(r"\s*([(),*;])\s*", r"\1", text)


def header_prototypes():
    """[(name, prototype without MK_API, parameter count)] in header order."""
    text = re.sub(r"/\*.*?\*/", " ", HEADER.read_text(encoding="utf-8"), flags=re.DOTALL)
    found = []
    for match in re.finditer(r"\bMK_API\s+([^;{]*?\b(mk_\w+)\s*\(([^)]*)\)\s*;)", text):
        params = match.group(3).strip()
        count = 0 if params in ("", "void") else params.count(",") + 1
        found.append((match.group(2), squash(match.group(1)), count))
    return found


def raw_declarations():
    """[(name, prototype from the comment above it)] in the raw layer's order."""
    lines = RAW.read_text(encoding="utf-8").splitlines()
    found = []
    for index, line in enumerate(lines):
        match = re.match(r'(mk_\w+) = _fn\("(mk_\w+)"', line)
        if not match:
            continue
        comment = []
        back = index - 1
        while back >= 0 and lines[back].startswith("# "):
            comment.insert(0, lines[back][2:])
            back -= 1
        found.append((match.group(1), match.group(2), squash(" ".join(comment))))
    return found


class RawLayerTests(unittest.TestCase):
    def test_every_function_once_in_header_order_under_its_prototype(self):
        header = header_prototypes()
        raw = raw_declarations()
        self.assertEqual(len(header), 33)
        self.assertEqual([name for name, _, _ in raw], [name for name, _, _ in header])
        for (attribute, symbol, comment), (name, prototype, params) in zip(raw, header):
            with self.subTest(function=name):
                self.assertEqual(attribute, symbol)
                self.assertEqual(comment, prototype)
                function = getattr(_capi, name)
                self.assertEqual(len(function.argtypes), params)
                self.assertEqual(function.restype is None, prototype.startswith("void "))

    def test_header_map_and_raw_layer_name_the_same_symbols(self):
        mapped = set(re.findall(r"^\s*(mk_\w+);", MAP.read_text(encoding="utf-8"), re.MULTILINE))
        raw_text = RAW.read_text(encoding="utf-8")
        self.assertEqual(mapped, {name for name, _, _ in header_prototypes()})
        for name in sorted(mapped):
            self.assertIn(name, raw_text)
            self.assertTrue(hasattr(_capi, name), name)

    def test_struct_layouts_and_constants_match_a_c_compiler(self):
        compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if compiler is None:
            self.skipTest("no C compiler to read memkit.h's layouts")
        structs = {name: getattr(_capi, name) for name in (
            "mk_buf", "mk_clock", "mk_workspace_options", "mk_inbox_counts", "mk_budget_row",
            "mk_unit")}
        constants = [name for name in dir(_capi) if re.fullmatch(r"MK_[A-Z0-9_]+", name)
                     and isinstance(getattr(_capi, name), int)]
        body = []
        for name, struct in structs.items():
            body.append(f'printf("{name} %zu\\n", sizeof({name}));')
            for field, _ in struct._fields_:
                body.append(f'printf("{name}.{field} %zu\\n", offsetof({name}, {field}));')
        for name in constants:
            body.append(f'printf("{name} %lld\\n", (long long)({name}));')
        source = ("#include <stddef.h>\n#include <stdio.h>\n#include \"memkit.h\"\n"
                  "int main(void) {\n" + "\n".join(body) + "\nreturn 0;\n}\n")
        with tempfile.TemporaryDirectory() as temp:
            (Path(temp) / "layout.c").write_text(source)
            exe = Path(temp) / "layout"
            subprocess.run([compiler, "-std=c11", "-I", str(HEADER.parent), "-o", str(exe),
                            str(Path(temp) / "layout.c")], check=True, capture_output=True)
            output = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
        seen = dict(line.rsplit(" ", 1) for line in output.splitlines())
        for name, struct in structs.items():
            with self.subTest(struct=name):
                self.assertEqual(int(seen[name]), ctypes.sizeof(struct))
                for field, _ in struct._fields_:
                    self.assertEqual(int(seen[f"{name}.{field}"]), getattr(struct, field).offset,
                                     f"{name}.{field}")
        self.assertGreater(len(constants), 35)
        for name in constants:
            with self.subTest(constant=name):
                self.assertEqual(int(seen[name]), getattr(_capi, name))


if __name__ == "__main__":
    unittest.main()
