#!/usr/bin/env python3
"""The layering check on small planted trees: a clean one passes, and each kind of violation
(a cycle, dlopen in a pure module, another module's private header, an undeclared or unused use,
a folder or public header outside the table, a public header of the shell or not named after its
module, an umbrella that misses or adds a header) is reported, naming the file and line."""
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_layering  # noqa: E402

TABLE = """# module | layer | uses | headers
base  | pure  | - | memkit/base.hpp
text  | pure  | base | memkit/text.hpp shared.hpp
shell | shell | base text | -
"""

FILES = {
    "include/memkit/base.hpp": "#pragma once\nint base();\n",
    "include/memkit/text.hpp": '#pragma once\n#include "memkit/base.hpp"\nint text();\n',
    "include/memkit/memkit.hpp": '#pragma once\n#include "memkit/base.hpp"\n#include "memkit/text.hpp"\n',
    "src/base/base.cpp": '#include "memkit/base.hpp"\n#include <vector>\nint base() { return 1; }\n',
    "src/text/text.cpp": '#include "memkit/text.hpp"\n#include "text/own.hpp"\nint text() { return 2; }\n',
    "src/text/own.hpp": "#pragma once\n",
    "src/text/shared.hpp": "#pragma once\n",
    "src/shell/io.cpp": ('#include <dlfcn.h>\n#include "memkit/base.hpp"\n#include "memkit/text.hpp"\n'
                         '#include "text/shared.hpp"\nvoid* load() { return dlopen("x", 0); }\n'),
}


def problems_of(table=TABLE, changes=None):
    files = dict(FILES)
    files.update(changes or {})
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "src").mkdir()
        (root / "src" / "modules.txt").write_text(table)
        for path, text in files.items():
            if text is None:
                continue
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        return check_layering.check(root)[0]


failures = 0


def expect(what, problems, *fragments):
    global failures
    missing = [f for f in fragments if not any(f in p for p in problems)]
    if fragments == () and problems:
        missing = ["no problem"]
    if missing:
        failures += 1
        print(f"FAIL: {what}: expected {missing} in {problems}")
    else:
        print(f"ok   {what}")


expect("a clean tree passes", problems_of())
expect("a planted include cycle is reported as a cycle",
       problems_of(changes={"src/base/base.cpp": '#include "memkit/text.hpp"\nint base();\n'}),
       "module cycle: base -> text -> base",
       "src/base/base.cpp:1: base includes memkit/text.hpp of text, which src/modules.txt does not "
       "let it use")
expect("a table that uses a module below is refused",
       problems_of(table=TABLE.replace("base  | pure  | - |", "base  | pure  | text |")),
       "base uses text, which is not a module above it (it is below")
expect("a planted dlopen in a pure module is reported, header and call",
       problems_of(changes={"src/text/text.cpp": '#include <dlfcn.h>\n#include "memkit/text.hpp"\n'
                                                 'void* f() { return dlopen("x", 0); }\n'}),
       "src/text/text.cpp:1: pure module text includes <dlfcn.h>",
       "src/text/text.cpp:3: pure module text calls dlopen")
expect("clocks, files and sockets are refused in a pure module",
       problems_of(changes={"src/base/base.cpp": "#include <chrono>\n#include <fstream>\n"
                                                 "#include <sys/socket.h>\n"}),
       "includes <chrono>", "includes <fstream>", "includes <sys/socket.h>")
expect("another module's private header is refused",
       problems_of(changes={"src/shell/io.cpp": '#include "memkit/base.hpp"\n'
                                                '#include "memkit/text.hpp"\n#include "text/own.hpp"\n'}),
       "src/shell/io.cpp:3: shell includes text/own.hpp, a private header of text")
expect("a declared use without an include is reported",
       problems_of(changes={"src/shell/io.cpp": '#include "memkit/text.hpp"\n'}),
       "shell uses base, but includes none of its headers")
expect("a folder outside the table is reported",
       problems_of(changes={"src/extra/x.cpp": "int x;\n"}),
       "src/extra/: not a module of src/modules.txt")
expect("a public header outside the table is reported",
       problems_of(changes={"include/memkit/stray.hpp": "#pragma once\n"}),
       "include/memkit/stray.hpp: belongs to no module")
expect("a public header includes only the standard library and public headers",
       problems_of(changes={"include/memkit/text.hpp": '#pragma once\n#include "memkit/base.hpp"\n'
                                                       '#include "text/own.hpp"\n#include <xxhash.h>\n'}),
       "include/memkit/text.hpp:3: a public header includes text/own.hpp",
       "include/memkit/text.hpp:4: a public header includes xxhash.h")
expect("ARCHITECTURE.md names every module",
       problems_of(changes={"ARCHITECTURE.md": "`base`: the base. `shell`: the shell.\n"}),
       "ARCHITECTURE.md: does not say what module text does")
expect("a pure module may not use a shell module",
       problems_of(table=TABLE + "late  | pure  | shell | -\n",
                   changes={"src/late/late.cpp": '#include "memkit/base.hpp"\n'}),
       "pure late uses shell shell")
expect("the shell offers no public header",
       problems_of(table=TABLE.replace("shell | shell | base text | -", "shell | shell | base text | memkit/shell.hpp"),
                   changes={"include/memkit/shell.hpp": "#pragma once\n",
                            "include/memkit/memkit.hpp": '#include "memkit/base.hpp"\n'
                                                         '#include "memkit/text.hpp"\n#include "memkit/shell.hpp"\n'}),
       "shell module shell offers memkit/shell.hpp: the installed C++ API is the pure core")
expect("a public header is named after its module",
       problems_of(table=TABLE.replace("memkit/text.hpp shared.hpp", "memkit/text.hpp memkit/words.hpp shared.hpp"),
                   changes={"include/memkit/words.hpp": "#pragma once\n",
                            "include/memkit/memkit.hpp": '#include "memkit/base.hpp"\n'
                                                         '#include "memkit/text.hpp"\n#include "memkit/words.hpp"\n'}),
       "memkit/words.hpp is not named after its module (memkit/text.hpp or memkit/text/...)")
expect("a part in the module's folder is named after it",
       problems_of(table=TABLE.replace("memkit/text.hpp shared.hpp", "memkit/text.hpp memkit/text/words.hpp shared.hpp"),
                   changes={"include/memkit/text/words.hpp": "#pragma once\n",
                            "include/memkit/memkit.hpp": '#include "memkit/base.hpp"\n'
                                                         '#include "memkit/text.hpp"\n#include "memkit/text/words.hpp"\n'}))
expect("the umbrella includes exactly the public headers",
       problems_of(changes={"include/memkit/memkit.hpp": '#include "memkit/base.hpp"\n#include "memkit/gone.hpp"\n'}),
       "include/memkit/memkit.hpp: does not include memkit/text.hpp",
       "include/memkit/memkit.hpp: includes memkit/gone.hpp, which is not a public header")
expect("the umbrella exists",
       problems_of(changes={"include/memkit/memkit.hpp": None}),
       "include/memkit/memkit.hpp: missing")

repository = pathlib.Path(__file__).resolve().parents[2]
expect("the repository itself passes", check_layering.check(repository)[0])
sys.exit(1 if failures else 0)
