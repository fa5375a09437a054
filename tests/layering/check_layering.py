#!/usr/bin/env python3
"""Checks the code against src/modules.txt, the table of memkit's modules (STYLE L2).

Each module lives in src/<module>/ (capi/ at the top), with the public headers the table gives it.
For every #include "..." of every file of a module (and of its public headers):
  - a header of another module must be one that module offers (its headers column): another
    module's private header is refused;
  - that module must be among the ones it uses, and every module it uses must be used: the
    table is the graph, no more and no less;
  - a module uses only modules above it in the table, so the graph has no cycle; a cycle in the
    includes is reported as one.
A pure module includes no header that reaches the OS, a clock or the process (files, sockets,
dynamic loading, time) and calls none of dlopen, getenv, exit or abort. A public header includes
only the standard library and other public headers. Every folder of src/
is a module of the table, and every public header belongs to one module (memkit.hpp, the
umbrella, to none). The installed API is the pure core: only pure modules offer public headers,
each named after its module (memkit/<module>.hpp or memkit/<module>/<part>.hpp), and the umbrella
includes exactly the public headers.

usage: check_layering.py REPOSITORY_ROOT      exit 1 with one line per problem
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# What a pure module may not include: files and streams, processes, the OS, dynamic loading,
# sockets, clocks and randomness. <thread> is allowed: pure work may be spread over cores when the
# result cannot depend on which thread computed what.
FORBIDDEN_HEADERS = re.compile(
    r'^(fstream|iostream|istream|ostream|cstdio|stdio\.h|cstdlib|stdlib\.h|chrono|ctime|time\.h|'
    r'filesystem|random|csignal|signal\.h|unistd\.h|fcntl\.h|dirent\.h|dlfcn\.h|netdb\.h|'
    r'sys/.*|netinet/.*|arpa/.*|boost/.*)$')
FORBIDDEN_CALLS = re.compile(r'\b(dlopen|dlsym|getenv|setenv|exit|_Exit|abort|system|popen)\s*\(')
SOURCE_SUFFIXES = {".cpp", ".hpp", ".inc", ".h", ".c"}
UMBRELLA = "memkit.hpp"


class Module:
    def __init__(self, name, layer, uses, headers, line):
        self.name, self.layer, self.uses, self.headers, self.line = name, layer, uses, headers, line


def read_table(path, problems):
    modules = {}
    order = []
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        cells = [c.strip() for c in text.split("|")]
        if len(cells) != 4 or cells[1] not in ("pure", "shell"):
            problems.append(f"{path.name}:{n}: expected 'module | pure|shell | uses | headers'")
            continue
        words = lambda cell: [] if cell == "-" else cell.split()
        module = Module(cells[0], cells[1], words(cells[2]), words(cells[3]), n)
        if module.name in modules:
            problems.append(f"{path.name}:{n}: module {module.name} is listed twice")
            continue
        for used in module.uses:
            if used not in modules:
                known = " (it is below: the table would have a cycle)" if any(
                    used == c.split("|")[0].strip()
                    for c in path.read_text(encoding="utf-8").splitlines()) else ""
                problems.append(f"{path.name}:{n}: {module.name} uses {used}, which is not a "
                                f"module above it{known}")
            elif module.layer == "pure" and modules[used].layer != "pure":
                problems.append(f"{path.name}:{n}: pure {module.name} uses shell {used}")
        modules[module.name] = module
        order.append(module.name)
    return modules, order


def folder_of(root, name):
    inside = root / "src" / name
    return inside if inside.is_dir() else root / name


def find_cycle(graph):
    """A list of modules forming a cycle in `graph` (module -> set of modules), or None."""
    state = {}
    stack = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def check(root):
    problems = []
    table = root / "src" / "modules.txt"
    modules, order = read_table(table, problems)

    # Every folder of src/ is a module; every module has its folder.
    for folder in sorted(p.name for p in (root / "src").iterdir() if p.is_dir()):
        if folder not in modules:
            problems.append(f"src/{folder}/: not a module of src/modules.txt")
    for name in order:
        if not folder_of(root, name).is_dir():
            problems.append(f"src/modules.txt:{modules[name].line}: {name} has no folder")

    # Who offers which header.
    public_owner = {}
    for m in modules.values():
        for header in m.headers:
            if header.startswith("memkit/"):
                if header in public_owner:
                    problems.append(f"src/modules.txt:{m.line}: {header} is offered by "
                                    f"{public_owner[header]} too")
                public_owner[header] = m.name
                if not (root / "include" / header).is_file():
                    problems.append(f"src/modules.txt:{m.line}: {header} does not exist")
            elif not (folder_of(root, m.name) / header).is_file():
                problems.append(f"src/modules.txt:{m.line}: {m.name}/{header} does not exist")
    public_dir = root / "include" / "memkit"
    public_headers = sorted(str(p.relative_to(root / "include")) for p in public_dir.rglob("*.hpp"))
    if "memkit/" + UMBRELLA in public_headers:
        public_headers.remove("memkit/" + UMBRELLA)
    else:
        problems.append(f"include/memkit/{UMBRELLA}: missing: the umbrella of the public headers")
    for header in public_headers:
        if header not in public_owner:
            problems.append(f"include/{header}: belongs to no module of src/modules.txt")
    for header, owner in sorted(public_owner.items()):
        if modules[owner].layer != "pure":
            problems.append(f"src/modules.txt:{modules[owner].line}: shell module {owner} offers "
                            f"{header}: the installed C++ API is the pure core")
        stem = header[len("memkit/"):-len(".hpp")] if header.endswith(".hpp") else header
        if stem != owner and not stem.startswith(owner + "/"):
            problems.append(f"src/modules.txt:{modules[owner].line}: {header} is not named after "
                            f"its module (memkit/{owner}.hpp or memkit/{owner}/...)")
    umbrella = public_dir / UMBRELLA
    if umbrella.is_file():
        included = set()
        for line in umbrella.read_text(encoding="utf-8").splitlines():
            found = INCLUDE.match(line)
            if found:
                included.add(found.group(2))
        for header in sorted(set(public_headers) - included):
            problems.append(f"include/memkit/{UMBRELLA}: does not include {header}")
        for header in sorted(included - set(public_headers)):
            problems.append(f"include/memkit/{UMBRELLA}: includes {header}, which is not a public "
                            f"header")

    # The includes of every file of every module.
    used = {name: set() for name in order}
    for name in order:
        m = modules[name]
        files = [p for p in sorted(folder_of(root, name).rglob("*")) if p.suffix in SOURCE_SUFFIXES]
        files += [root / "include" / h for h in m.headers if h.startswith("memkit/")]
        for path in files:
            where = path.relative_to(root)
            text = path.read_text(encoding="utf-8")
            for n, line in enumerate(text.splitlines(), 1):
                found = INCLUDE.match(line)
                if found:
                    quote, header = found.groups()
                    if public_dir in path.parents and (
                            (quote == '"' and not header.startswith("memkit/")) or
                            (quote == "<" and ("/" in header or header.endswith(".h")))):
                        problems.append(f"{where}:{n}: a public header includes {header}: only "
                                        f"the standard library and memkit/ headers are installed")
                    if quote == "<":
                        if m.layer == "pure" and FORBIDDEN_HEADERS.match(header):
                            problems.append(f"{where}:{n}: pure module {name} includes <{header}>")
                        continue
                    owner = None
                    if header.startswith("memkit/"):
                        owner = public_owner.get(header)
                        if owner is None and header != "memkit/" + UMBRELLA:
                            problems.append(f"{where}:{n}: {header} belongs to no module")
                    elif "/" in header and header.split("/", 1)[0] in modules:
                        owner, inside = header.split("/", 1)
                        if owner != name and inside not in modules[owner].headers:
                            problems.append(f"{where}:{n}: {name} includes {header}, a private "
                                            f"header of {owner}")
                    if owner is not None and owner != name:
                        used[name].add(owner)
                        if owner not in m.uses:
                            problems.append(f"{where}:{n}: {name} includes {header} of {owner}, "
                                            f"which src/modules.txt does not let it use")
                elif m.layer == "pure":
                    code = line.split("//", 1)[0]
                    call = FORBIDDEN_CALLS.search(code)
                    if call:
                        problems.append(f"{where}:{n}: pure module {name} calls {call.group(1)}")
        for unused in sorted(set(m.uses) - used[name]):
            problems.append(f"src/modules.txt:{m.line}: {name} uses {unused}, but includes none "
                            f"of its headers")

    # ARCHITECTURE.md says what each module does: it names every one.
    architecture = root / "ARCHITECTURE.md"
    if architecture.is_file():
        text = architecture.read_text(encoding="utf-8")
        for name in order:
            if f"`{name}`" not in text:
                problems.append(f"ARCHITECTURE.md: does not say what module {name} does")

    cycle = find_cycle(used)
    if cycle:
        problems.append("module cycle: " + " -> ".join(cycle))
    return problems, len(order)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    problems, count = check(pathlib.Path(sys.argv[1]))
    for p in problems:
        print(p)
    print(f"{count} modules checked against src/modules.txt: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
