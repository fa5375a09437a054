#!/usr/bin/env python3
"""Hostile path and name arguments (issue 24, "keep it fixed"): every command's path and name
arguments, given a traversal, an absolute path, a symbolic link to outside, a FIFO, a directory,
a hard link or control characters, are refused, and nothing is written anywhere.

Each case runs the real `memkit` binary in a fresh temporary folder holding a copy of one example
(`proj` the custodian project, `box` the MemoryBox root, `tw` the tiers workspace, `cs` the curated
store) and an `outside/` folder that no command may touch. Every file and folder inside and
outside is snapshotted (lstat, and SHA-256 of each regular file) before and after the run, and
the case asserts:
  - a non-zero exit, within the timeout (a FIFO must never be opened blocking),
  - an error naming the argument (or, for a hostile memory file, the file),
  - no change anywhere: no new, changed or removed file or folder.

A hostile memory file (a FIFO or a hard link where a log is appended) is not an argument; those
cases assert that the command does not hang, that the FIFO or the hard link's other name is left
alone, and that a message names the file.

usage: hostile_paths.py MEMKIT_BINARY
"""

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "examples"))
TIMEOUT_SECONDS = 10

# Refusals write nothing at all, not even `.memkit/` (issue 24, defect 14): no change inside a
# state folder is tolerated either.
TOLERATE_STATE_FOLDER = False

COPIES = {"proj": "project", "box": "memorybox", "tw": "tiers", "cs": "curated"}


def environment():
    env = dict(os.environ)
    env["MEMKIT_NOW"] = "2026-11-30T10:00:00+00:00"
    env["NO_COLOR"] = "1"
    env["LC_ALL"] = "C"
    env["TZ"] = "UTC"
    env.pop("MEMKIT_SYNC_CONNINFO", None)
    return env


def snapshot(root):
    """Every path under root (not following links): its type, mode, size, link count and, for a
    regular file, the SHA-256 of its bytes. A FIFO is never opened."""
    out = {}
    for here, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            full = os.path.join(here, name)
            st = os.lstat(full)
            digest = None
            if stat.S_ISREG(st.st_mode):
                with open(full, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
            elif stat.S_ISLNK(st.st_mode):
                digest = "->" + os.readlink(full)
            key = os.path.relpath(full, root)
            if stat.S_ISDIR(st.st_mode):
                # A folder's size and link count follow its entries, each compared on its own.
                out[key] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode))
                continue
            out[key] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_size, st.st_nlink,
                        digest)
    return out


def shown(text):
    """The value as memkit's messages show it (src/text/shown_text.cpp), for plain ASCII input."""
    out = ""
    for c in text:
        if c == "\n":
            out += "\\n"
        elif c == "\t":
            out += "\\t"
        elif c == "\r":
            out += "\\r"
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out += "\\x%02x" % ord(c)
        else:
            out += c
    return out


def in_state_folder(path):
    return ".memkit" in path.split(os.sep)


def changes(before, after, derived=()):
    found = []
    for path in sorted(set(before) | set(after)):
        if before.get(path) == after.get(path):
            continue
        if any(path == d or path.startswith(d + os.sep) for d in derived):
            continue
        if TOLERATE_STATE_FOLDER and in_state_folder(path):
            continue
        what = "new" if path not in before else "removed" if path not in after else "changed"
        found.append("%s %s" % (what, path))
    return found


# ---- what each case plants before the run --------------------------------------------------------

def plant_symlink(t, at):
    os.symlink(os.path.join(t, "outside"), os.path.join(t, at))


def replacing(path):
    if os.path.lexists(path):
        os.remove(path)
    return path


def plant_fifo(t, at):
    os.mkfifo(replacing(os.path.join(t, at)))


def plant_directory(t, at):
    os.makedirs(os.path.join(t, at), exist_ok=True)


def plant_hard_link(t, at):
    os.link(os.path.join(t, "outside", "victim.txt"), replacing(os.path.join(t, at)))


def plant_nothing(t, at):
    pass


# Hostile values of an argument naming something inside a root. `base` is the folder the name
# is resolved in (relative to the temporary folder), `suffix` what memkit adds to the name.
def inner_values(base, suffix="", drop=()):
    return [v for v in [
        ("traversal", "../../../../outside/evil", plant_nothing, None),
        ("absolute", "@T@/outside/evil", plant_nothing, None),
        ("symlink to outside", "lnk", plant_symlink, base + "/lnk" + suffix),
        ("symlink inside a path", "lnk/evil", plant_symlink, base + "/lnk"),
        ("fifo", "fifo", plant_fifo, base + "/fifo" + suffix),
        ("directory", "adir", plant_directory, base + "/adir" + suffix),
        ("line feed", "x\ny", plant_nothing, None),
        ("escape sequence", "x\x1b[2J", plant_nothing, None),
    ] if v[0] not in drop]


# A folder memkit makes or reads by this name (a theme, a curated workspace): an existing folder
# of that name is simply that folder, so only a directory is not hostile.
FOLDER = ("directory",)
# A curated row name is a slug, never a path: a slug that happens to name a file is not hostile.
SLUG = ("symlink to outside", "fifo", "directory")


# Hostile values of a root argument (an existing folder memkit works in; a path anywhere is fine
# for it, so traversal and absolute paths are not hostile here).
def root_values():
    return [
        ("regular file", "outside/victim.txt", plant_nothing, None),
        ("fifo", "fifo", plant_fifo, "fifo"),
        ("line feed", "new\nroot", plant_nothing, None),
        ("escape sequence", "new\x1b[2Jroot", plant_nothing, None),
    ]


# Hostile values of an input file (read from anywhere, never written).
def input_values():
    return [
        ("fifo", "fifo", plant_fifo, "fifo"),
        ("directory", "outside", plant_nothing, None),
        ("line feed", "no\nsuch", plant_nothing, None),
    ]


# Hostile values of an output file named anywhere (bench --report): never through a link, never
# into something that is not a file, never into a folder that does not exist.
def output_values():
    return [
        ("symlink to outside", "lnk", plant_symlink, "lnk"),
        ("fifo", "fifo", plant_fifo, "fifo"),
        ("directory", "adir", plant_directory, "adir"),
        ("missing folder", "no/such/report.html", plant_nothing, None),
        ("line feed", "x\ny/report.html", plant_nothing, None),
        ("escape sequence", "x\x1b[2J/report.html", plant_nothing, None),
    ]


# (label, argv with @V@ for the value, the argument's name, its values, setup commands)
MAVEN = [["memorybox", "init", "--root", "box", "--profile", "maven"]]
ARGUMENTS = [
    # custodian
    ("custodian init --project-root", ["custodian", "init", "--project-root", "@V@"],
     "--project-root", root_values(), []),
    ("custodian status --project-root", ["custodian", "status", "--project-root", "@V@"],
     "--project-root", root_values(), []),
    ("custodian init --memory-dir",
     ["custodian", "init", "--project-root", "proj", "--memory-dir", "@V@"], "--memory-dir",
     [v for v in inner_values("proj") if v[0] not in ("fifo", "directory")]
     + [("fifo", "docs/fifo", plant_fifo, "proj/docs/fifo")], []),
    ("custodian add --memory-dir",
     ["custodian", "add", "a note", "--type", "fact", "--project-root", "proj", "--memory-dir",
      "@V@"], "--memory-dir",
     [v for v in inner_values("proj") if v[0] not in ("fifo", "directory")], []),
    ("custodian add --name",
     ["custodian", "add", "a rule", "--type", "rule", "--project-root", "proj", "--name", "@V@"],
     "--name", inner_values("proj/docs/memory/rules", ".md"), []),
    ("custodian add --area",
     ["custodian", "add", "a rule of the area", "--type", "constraint", "--project-root", "proj",
      "--area", "@V@"],
     "--area", inner_values("proj/docs/memory/areas", ".md"), []),
    ("custodian compact --target",
     ["custodian", "compact", "--project-root", "proj", "--target", "@V@"], "--target",
     inner_values("proj/docs/memory"), []),
    # search
    ("search --root", ["search", "x", "--root", "@V@"], "--root", root_values(), []),
    ("agent init --root", ["agent", "init", "--agent", "all", "--root", "@V@"], "--root",
     root_values(), []),
    # bench: refused before its scratch folder is made
    ("bench compaction --project-root",
     ["bench", "compaction", "--sizes", "1K", "--runs", "1", "--project-root", "@V@"],
     "--project-root", root_values(), []),
    ("bench compaction --memory-dir",
     ["bench", "compaction", "--sizes", "1K", "--runs", "1", "--project-root", "proj",
      "--memory-dir", "@V@"], "--memory-dir",
     [v for v in inner_values("proj") if v[0] not in ("fifo", "directory")], []),
    ("bench compaction --report",
     ["bench", "compaction", "--sizes", "1K", "--runs", "1", "--project-root", "proj",
      "--report", "@V@"], "--report", output_values(),
     [["custodian", "init", "--project-root", "proj"]]),
    ("bench recall --root",
     ["bench", "recall", "--runs", "1", "--queries", "1", "--root", "@V@"], "--root",
     root_values(), []),
    ("bench recall --report",
     ["bench", "recall", "--runs", "1", "--queries", "1", "--root", "proj", "--report", "@V@"],
     "--report", output_values(), []),
    # mcp: refused before it serves (its standard input is empty here)
    ("mcp --root", ["mcp", "--root", "@V@"], "--root", root_values(), []),
    ("mcp --memory-dir", ["mcp", "--root", "proj", "--memory-dir", "@V@"], "--memory-dir",
     [v for v in inner_values("proj") if v[0] not in ("fifo", "directory")],
     [["custodian", "init", "--project-root", "proj"]]),
    ("context --root", ["context", "--budget", "100", "--root", "@V@"], "--root", root_values(),
     []),
    # memorybox
    ("memorybox init --root", ["memorybox", "init", "--root", "@V@"], "--root", root_values(),
     []),
    ("memorybox status --root", ["memorybox", "status", "--root", "@V@"], "--root",
     root_values(), []),
    ("memorybox decay --file", ["memorybox", "decay", "--root", "box", "--file", "@V@"],
     "--file", inner_values("box"), []),
    ("memorybox load --file", ["memorybox", "load", "--root", "box", "--file", "@V@"], "--file",
     inner_values("box"), []),
    ("memorybox compact --file", ["memorybox", "compact", "--root", "box", "--file", "@V@"],
     "--file", inner_values("box"), []),
    ("memorybox canon add --file",
     ["memorybox", "canon", "add", "--root", "box", "--file", "@V@", "--text", "a rule"],
     "--file", inner_values("box/brain/canon"), MAVEN),
    ("memorybox sync push --conninfo-file",
     ["memorybox", "sync", "push", "--root", "box", "--remote", "postgres", "--conninfo-file",
      "@V@"], "--conninfo-file", input_values(), []),
    # tiers
    ("tiers init --workspace", ["tiers", "init", "--workspace", "@V@"], "--workspace",
     root_values(), []),
    ("tiers read-global --workspace", ["tiers", "read-global", "--workspace", "@V@"],
     "--workspace", root_values(), []),
    ("tiers persist-turn --theme",
     ["tiers", "persist-turn", "--workspace", "tw", "--raw-content", "r", "--extracted-content",
      "e", "--theme", "@V@"], "--theme", inner_values("tw/memory", drop=FOLDER), []),
    ("tiers read-theme --theme", ["tiers", "read-theme", "--workspace", "tw", "--theme", "@V@"],
     "--theme", inner_values("tw/memory", drop=FOLDER), []),
    ("tiers write-data --name",
     ["tiers", "write-data", "--workspace", "tw", "--name", "@V@", "--csv-content", "a,b\n1,2\n"],
     "--name", inner_values("tw/memory/data", ".csv"), []),
    ("tiers read-data --name", ["tiers", "read-data", "--workspace", "tw", "--name", "@V@"],
     "--name", inner_values("tw/memory/data", ".csv"), []),
    ("tiers write-data --source-file",
     ["tiers", "write-data", "--workspace", "tw", "--name", "ok", "--source-file", "@V@"],
     "--source-file", input_values(), []),
    # curated
    ("curated add --store",
     ["curated", "add", "--store", "@V@", "--workspace", "billing", "--name", "project_zzz",
      "--type", "project", "--body", "b"], "--store", root_values(), []),
    ("curated add --workspace",
     ["curated", "add", "--store", "cs", "--workspace", "@V@", "--name", "project_zzz", "--type",
      "project", "--body", "b"], "--workspace", inner_values("cs/rows", drop=FOLDER), []),
    ("curated get-relevant --workspace",
     ["curated", "get-relevant", "--store", "cs", "--workspace", "@V@"], "--workspace",
     inner_values("cs/rows", drop=FOLDER), []),
    ("curated add --name",
     ["curated", "add", "--store", "cs", "--workspace", "billing", "--name", "@V@", "--type",
      "project", "--body", "b"], "--name", inner_values("cs/rows/billing", ".md", drop=SLUG), []),
    ("curated add --body-file",
     ["curated", "add", "--store", "cs", "--workspace", "billing", "--name", "project_zzz",
      "--type", "project", "--body-file", "@V@"], "--body-file", input_values(), []),
    ("curated checkpoint --file",
     ["curated", "checkpoint", "--store", "cs", "--workspace", "billing", "--file", "@V@"],
     "--file", input_values(), []),
    ("curated batch --file",
     ["curated", "batch", "--store", "cs", "--workspace", "billing", "--file", "@V@"], "--file",
     input_values(), []),
    ("curated episode add --file",
     ["curated", "episode", "add", "--store", "cs", "--workspace", "billing", "--file", "@V@"],
     "--file", input_values(), []),
]

# Hostile memory files: (label, argv, the planted path, planter, the text a message must hold)
GET_RELEVANT = ["curated", "get-relevant", "--store", "cs", "--workspace", "billing"]
EVENT_ADD = ["curated", "event", "add", "--store", "cs", "--workspace", "billing", "--type",
             "deploy"]
MEMORY_FILES = [
    ("get-relevant, access.jsonl a FIFO", GET_RELEVANT, "cs/log/billing/access.jsonl",
     plant_fifo, "access.jsonl"),
    ("get-relevant, access.jsonl a hard link", GET_RELEVANT, "cs/log/billing/access.jsonl",
     plant_hard_link, "access.jsonl"),
    ("event add, the day file a hard link", EVENT_ADD, "cs/floors/events/2026-11-30.jsonl",
     plant_hard_link, "2026-11-30.jsonl"),
    ("event add, the day file a FIFO", EVENT_ADD, "cs/floors/events/2026-11-30.jsonl",
     plant_fifo, "2026-11-30.jsonl"),
    ("custodian status, inbox.md a FIFO", ["custodian", "status", "--project-root", "proj"],
     "proj/docs/memory/inbox.md", plant_fifo, "inbox.md"),
    ("memorybox status, SESSION_LOG.md a FIFO", ["memorybox", "status", "--root", "box"],
     "box/memory/SESSION_LOG.md", plant_fifo, "SESSION_LOG.md"),
    ("search, inbox.md a FIFO", ["search", "budget", "--root", "proj"],
     "proj/docs/memory/inbox.md", plant_fifo, "inbox.md"),
    ("context, brief.md a FIFO", ["context", "--budget", "900", "--root", "proj"],
     "proj/docs/memory/brief.md", plant_fifo, "brief.md"),
    ("search, LONG_TERM.md a FIFO", ["search", "budget", "--root", "box"],
     "box/memory/LONG_TERM.md", plant_fifo, "LONG_TERM.md"),
    ("tiers read-global, global.md a FIFO", ["tiers", "read-global", "--workspace", "tw"],
     "tw/memory/global.md", plant_fifo, "global.md"),
    # Files memkit appends to in place: a second name would be written through (issue 31).
    ("curated add, history.jsonl a hard link",
     ["curated", "add", "--store", "cs", "--workspace", "billing", "--name", "project_zzz",
      "--type", "project", "--body", "b"], "cs/log/billing/history.jsonl", plant_hard_link,
     "history.jsonl"),
    ("tiers persist-turn, today's log a hard link",
     ["tiers", "persist-turn", "--workspace", "tw", "--raw-content", "r"],
     "tw/memory/sessions/2026-11-30.md", plant_hard_link, "2026-11-30.md"),
]


def fresh_folder():
    t = tempfile.mkdtemp(prefix="memkit-hostile-")
    for copy, example in COPIES.items():
        shutil.copytree(os.path.join(EXAMPLES, example), os.path.join(t, copy), symlinks=True)
    os.makedirs(os.path.join(t, "outside"))
    with open(os.path.join(t, "outside", "victim.txt"), "w") as f:
        f.write("outside: never written\n")
    return t


def run(binary, argv, t, env):
    try:
        done = subprocess.run([binary] + argv, cwd=t, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "backslashreplace")


def prepare(binary, t, env, setup, planter, planted):
    for argv in setup:
        code, output = run(binary, argv, t, env)
        if code not in (0, 1):
            raise RuntimeError("setup %r failed (%r): %s" % (argv, code, output))
    if planted is not None:
        parent = os.path.dirname(os.path.join(t, planted))
        os.makedirs(parent, exist_ok=True)
        planter(t, planted)


def check_argument(binary, env, label, argv, name, value_label, value, planter, planted, setup):
    t = fresh_folder()
    try:
        prepare(binary, t, env, setup, planter, planted)
        value = value.replace("@T@", t)
        args = [value if a == "@V@" else a for a in argv]
        before = snapshot(t)
        code, output = run(binary, args, t, env)
        after = snapshot(t)
        problems = []
        if code is None:
            problems.append("hung (killed after %d s)" % TIMEOUT_SECONDS)
        elif code == 0:
            problems.append("exit 0: not refused")
        # The argument, or what it named: its value as shown (control characters escaped) or the
        # file planted there.
        named = [name, shown(value)] + ([os.path.basename(planted)] if planted else [])
        if code is not None and not any(n in output for n in named):
            problems.append("no error naming %s or its value" % name)
        if "\x1b" in output or (value_label == "line feed" and value in output):
            problems.append("a control character echoed raw")
        problems += changes(before, after)
        return ["%s = %s (%s): %s\n    output: %s" % (label, value_label, repr(value), p,
                                                    output.strip()[:300])
                for p in problems]
    finally:
        shutil.rmtree(t, ignore_errors=True)


def check_memory_file(binary, env, label, argv, planted, planter, named):
    t = fresh_folder()
    try:
        prepare(binary, t, env, [], planter, planted)
        before = snapshot(t)
        code, output = run(binary, argv, t, env)
        after = snapshot(t)
        problems = []
        if code is None:
            problems.append("hung (killed after %d s)" % TIMEOUT_SECONDS)
        elif named not in output:
            problems.append("no message naming %s" % named)
        # A search that goes on past a skipped file keeps its index (docs/search.md), derived
        # state under the root's .memkit/ and nothing else.
        derived = ()
        if argv[0] in ("search", "context"):
            root = argv[argv.index("--root") + 1]
            derived = (os.path.join(root, ".memkit"),) if os.path.join(root, ".memkit") not in before \
                else (os.path.join(root, ".memkit", "index"),
                      os.path.join(root, ".memkit", ".gitignore"))
        problems += changes(before, after, derived)
        return ["%s: %s\n    output: %s" % (label, p, output.strip()[:300]) for p in problems]
    finally:
        shutil.rmtree(t, ignore_errors=True)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    binary = os.path.abspath(sys.argv[1])
    env = environment()
    failures = []
    runs = 0
    # Every path argument of the command table, in each group that has it, has its cases here.
    table = json.loads(subprocess.run([binary, "commands", "--format", "json"], env=env,
                                      capture_output=True, text=True, check=True).stdout)
    covered = {(argv[0], name) for _, argv, name, _, _ in ARGUMENTS}
    for group in table["groups"]:
        for command in group["commands"]:
            for argument in command["arguments"]:
                if argument["type"] == "path" and not argument["positional"] and \
                        (group["name"], argument["name"]) not in covered:
                    failures.append("no hostile cases for %s %s (%s has it)" % (
                        group["name"], argument["name"], command["name"]))
    for label, argv, name, values, setup in ARGUMENTS:
        for value_label, value, planter, planted in values:
            runs += 1
            failures += check_argument(binary, env, label, argv, name, value_label, value,
                                       planter, planted, setup)
    for label, argv, planted, planter, named in MEMORY_FILES:
        runs += 1
        failures += check_memory_file(binary, env, label, argv, planted, planter, named)
    for failure in failures:
        print("FAIL " + failure)
    print("%d runs, %d failures" % (runs, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
