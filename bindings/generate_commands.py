#!/usr/bin/env python3
"""Generates the Rust binding's command builders (bindings/rust/src/commands.rs) from the command
table (bindings/commands.json, the snapshot of `memkit commands --format json`).

Usage:
  generate_commands.py [--table FILE] [--out FILE]   write the builders
  generate_commands.py [--table FILE] [--out FILE] --check
                                                     exit 1 when --out differs from what the table
                                                     makes (the committed file is stale)
  generate_commands.py [--table FILE] --compare-with-cli MEMKIT
                                                     exit 1 when the table differs, as parsed
                                                     JSON, from `MEMKIT commands --format json`

One builder per command of the groups a workspace runs, which the table's `workspace` key of each
group names: a layout (custodian, memorybox, tiers, curated), "any" (every layout: search) or
"none" (markdown: skipped). `ws.<group>_<verb>()` (spaces and dashes as `_`:
`ws.memorybox_sync_pull()`; a command without a verb is its group's name: `ws.search()`) makes
`<Group><Verb><'w>` (`MemoryboxSyncPull`, `Search`), with one setter per argument the request may
set (the roots come from the workspace), named after the argument (`--confirm-plan` is
`confirm_plan`, the positional `MESSAGE` is `message`; a Rust keyword or a builder method gets a
trailing `_`: `type_`), and `run(self, now)`. Every setter forwards the table's name unchanged through the
crate's one request path (`Request`), so the library, not this file, decides what is valid.
Standard library only.
"""
import argparse
import difflib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_TABLE = HERE / "commands.json"
DEFAULT_OUT = HERE / "rust" / "src" / "commands.rs"

# The layouts a group's `workspace` may name, as the crate's Layout variants; "any" runs on every
# layout and "none" on no workspace. The arguments a workspace gives (the table's "root" ones) are
# refused by a request, so they get no setter.
LAYOUTS = {"custodian": "Custodian", "memorybox": "MemoryBox", "tiers": "Tiers",
           "curated": "Curated"}
EVERY_LAYOUT = "any"
NO_WORKSPACE = "none"
SERVER = "server"  # the CLI alone runs it (mcp): no door of a library has it
CLI_ONLY = "cli"  # the CLI alone runs it (bench: it times memkit processes)

RUST_KEYWORDS = set("""as async await break const continue crate dyn else enum extern false fn for
    gen if impl in let loop match mod move mut pub ref return self Self static struct super trait
    true try type unsafe use where while abstract become box do final macro override priv typeof
    unsized virtual yield""".split())
BUILDER_METHODS = {"run", "judge"}

EFFECTS = {
    "reads": "Reads only: writes nothing.",
    "writes": "Writes directly (all its files or none); "
              "[`applied`](crate::CommandResult::applied) says whether it wrote.",
    "plans": "A dry run that shows its plan and Plan ID; with `apply` and `confirm_plan` set to "
             "that ID it writes the plan, only if planning again gives the same ID.",
}

# What each table type's setter takes, and the Request method it forwards to.
SETTERS = {
    "string": ("value: impl AsRef<str>", "string"),
    "time": ("value: impl AsRef<str>", "string"),
    "json": ("value: impl AsRef<str>", "string"),
    "path": ("value: impl AsRef<Path>", "path"),
    "integer": ("value: i64", "int"),
    "number": ("value: f64", "number"),
    "boolean": ("value: bool", "bool"),
}


def rust_str(text):
    """A Rust string literal (JSON's escapes but \\u, which Rust spells \\u{...})."""
    return json.dumps(text, ensure_ascii=False)


def camel(words):
    return "".join(w[:1].upper() + w[1:] for w in words)


def words_of(text):
    return text.replace("-", " ").split()


def doc_text(text):
    """Table text as Markdown that rustdoc shows as written (no HTML tags or links)."""
    for c in "\\<>[]*":
        text = text.replace(c, "\\" + c)
    return text


def sentence(text):
    text = doc_text(text.strip())
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def request_name(arg):
    """The name the request takes: the table's without dashes, a positional's in lower case."""
    return arg["name"].lower() if arg["positional"] else arg["name"][2:]


def setter_name(arg):
    name = request_name(arg).replace("-", "_")
    return name + "_" if name in RUST_KEYWORDS or name in BUILDER_METHODS else name


def spelled(arg):
    if arg["positional"]:
        return f"positional `{arg['name']}`"
    placeholder = f" {arg['placeholder']}" if arg["placeholder"] else ""
    return f"`{arg['name']}{placeholder}`"


def argument_doc(arg):
    """The doc lines of one argument's setter."""
    spelling = spelled(arg)
    need = ", required" if arg["required"] else ""
    lines = [f"{spelling[:1].upper()}{spelling[1:]} ({arg['type']}{need}): {doc_text(arg['doc'])}."]
    if arg["default"] is not None:
        lines.append(f"Default: `{arg['default']}`.")
    if arg["choices"]:
        lines.append("Choices: " + ", ".join(f"`{c}`" for c in arg["choices"]) + ".")
    return lines


def doc(lines, indent):
    return "".join(f"{indent}///{' ' if line else ''}{line}\n" for line in lines)


def command_doc(command, layout):
    """layout: a Layout variant, or None for a command that runs on every layout."""
    lines = [f"`memkit {command['name']}`: {doc_text(command['summary'])}.", ""]
    lines.append(EFFECTS.get(command["effect"], f"Effect: {doc_text(command['effect'])}."))
    required = [spelled(a) for a in command["arguments"] if a["required"]]
    if required:
        lines.append("Requires " + ", ".join(required) + " (else a finding in the result).")
    if layout is None:
        lines += ["", "Runs on a workspace of every layout."]
    else:
        lines += ["", f"Runs on a workspace opened with "
                  f"[`Layout::{layout}`](crate::Layout::{layout})."]
    return lines


def builder(group, command, layout):
    verb = command["verb"]
    struct = camel(words_of(group) + words_of(verb))
    method = "_".join(words_of(group) + words_of(verb)).replace("-", "_")
    arguments = [a for a in command["arguments"] if not a.get("root")]
    setters = []
    names = set(BUILDER_METHODS)
    for arg in arguments:
        setter_type = SETTERS.get(arg["type"], SETTERS["string"])  # a new type: its CLI text
        name = setter_name(arg)
        setters.append((name, arg, argument_doc(arg), setter_type))
        if arg["type"] == "json":
            list_doc = [f"{spelled(arg)} as a list of strings, sent as a JSON array: "
                        f"{doc_text(arg['doc'])}."]
            setters.append((name + "_list", arg, list_doc, (
                "items: impl IntoIterator<Item = impl AsRef<str>>", "list")))
    for name, arg, _, _ in setters:
        if name in names:
            raise SystemExit(f"{group} {verb}: two setters named {name!r} ({arg['name']})")
        names.add(name)

    head = command_doc(command, layout)
    out = [doc(head, ""), "#[derive(Debug)]\n",
           "#[must_use = \"a command does nothing until it runs\"]\n",
           f"pub struct {struct}<'w>(Request<'w>);\n\n",
           f"impl<'w> {struct}<'w> {{\n"]
    for name, arg, lines, (parameter, forward) in setters:
        value = parameter.split(":")[0]
        out.append(doc(lines, "    "))
        out.append(f"    pub fn {name}(self, {parameter}) -> Self {{\n"
                   f"        Self(self.0.{forward}({rust_str(request_name(arg))}, {value}))\n"
                   f"    }}\n\n")
    if command.get("judged"):  # its request takes a judge (mk_request_set_judge)
        out.append(doc(["The host's [`Judge`](crate::Judge), asked for each judgement the gates "
                        "need; without one the run stops at VALUE with NEEDS_JUDGEMENT."], "    "))
        out.append("    pub fn judge<F>(self, judge: F) -> Self\n"
                   "    where\n"
                   "        F: FnMut(crate::Gate, &str) -> Option<String> + 'w,\n"
                   "    {\n"
                   "        Self(self.0.judge(judge))\n"
                   "    }\n\n")
    out.append(doc([f"Runs `memkit {command['name']}` at `now`: the result the CLI prints for the "
                    "same arguments and clock (see [`Request::run`])."], "    "))
    out.append("    pub fn run(self, now: &Clock) -> Result<CommandResult> {\n"
               "        self.0.run(now)\n"
               "    }\n}\n\n")
    # The way out to the generic request, for an argument newer than this file.
    out.append(f"impl<'w> From<{struct}<'w>> for Request<'w> {{\n"
               f"    fn from(command: {struct}<'w>) -> Request<'w> {{\n"
               f"        command.0\n"
               f"    }}\n}}\n")
    constructor = (doc([head[0], "", f"Set its arguments on the [`{struct}`] this returns, then "
                        "`run` it."], "    ")
                   + f"    pub fn {method}(&self) -> {struct}<'_> {{\n"
                   f"        {struct}(self.request({rust_str(group)}, {rust_str(verb)}))\n"
                   f"    }}\n")
    return method, struct, constructor, "".join(out)


def layout_of(group):
    """The Layout variant of a group's `workspace`, None for "any", or False for "none"."""
    workspace = group.get("workspace")
    if workspace in (NO_WORKSPACE, SERVER, CLI_ONLY):
        return False
    if workspace == EVERY_LAYOUT:
        return None
    if workspace not in LAYOUTS:
        raise SystemExit(f"group {group['name']}: workspace {workspace!r} is no layout this "
                         f"generator knows ({', '.join(LAYOUTS)}, {EVERY_LAYOUT}, {NO_WORKSPACE}, {SERVER}, {CLI_ONLY})")
    return LAYOUTS[workspace]


def generate(table):
    constructors, builders, made = [], [], {}
    for group in table["groups"]:
        layout = layout_of(group)
        if layout is False:
            continue  # no workspace runs it (markdown, mcp, bench)
        for command in group["commands"]:
            method, struct, constructor, body = builder(group["name"], command, layout)
            for name in (method, struct):
                if name in made:
                    raise SystemExit(f"{command['name']} and {made[name]} both make {name}")
                made[name] = command["name"]
            constructors.append(constructor)
            builders.append(body)
    return (
        "//! The command builders, GENERATED by bindings/generate_commands.py from\n"
        "//! bindings/commands.json (what `memkit commands --format json` prints): edit the table\n"
        "//! (or the generator), never this file.\n"
        "//!\n"
        "//! One builder per command of the groups a workspace runs (the table's `workspace`: one\n"
        "//! layout, or every layout), made by the [`Workspace`] method `<group>_<verb>`\n"
        "//! (`ws.custodian_compact()`, `ws.memorybox_sync_pull()`; a command without a verb is\n"
        "//! its group's name: `ws.search()`), with one setter per argument and `run(self, now)`.\n"
        "//! Each setter forwards the table's name to [`Request`]: the library checks it. Each\n"
        "//! builder also converts into its [`Request`], for an argument newer than this file.\n\n"
        "use crate::{Clock, CommandResult, Request, Result, Workspace};\n"
        "use std::path::Path;\n\n"
        "impl Workspace {\n" + "\n".join(constructors) + "}\n\n" + "\n".join(builders))


def compare_with_cli(table, memkit):
    done = subprocess.run([memkit, "commands", "--format", "json"], capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"{memkit} commands --format json: exit {done.returncode}: "
                         f"{done.stderr.decode(errors='replace')}")
    printed = json.loads(done.stdout)
    if printed == table:
        return []
    problems = []

    def walk(path, a, b):
        if type(a) is not type(b) or not isinstance(a, (dict, list)):
            if a != b:
                problems.append(f"{path}: snapshot {json.dumps(a)[:80]}, CLI {json.dumps(b)[:80]}")
        elif isinstance(a, dict):
            for key in sorted(set(a) | set(b)):
                walk(f"{path}.{key}", a.get(key), b.get(key))
        else:
            for i in range(max(len(a), len(b))):
                label = a[i].get("name") if i < len(a) and isinstance(a[i], dict) else i
                walk(f"{path}[{label}]", a[i] if i < len(a) else None,
                     b[i] if i < len(b) else None)

    walk("table", table, printed)
    return problems or ["the JSON differs"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", type=Path, default=DEFAULT_TABLE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--compare-with-cli", metavar="MEMKIT")
    options = parser.parse_args()
    table = json.loads(options.table.read_text(encoding="utf-8"))
    if options.compare_with_cli:
        problems = compare_with_cli(table, options.compare_with_cli)
        for problem in problems:
            print(problem)
        if problems:
            print(f"{options.table} is not what the CLI prints: regenerate it with "
                  f"`memkit commands --format json`, then run {Path(__file__).name}")
            return 1
        return 0
    text = generate(table)
    if options.check:
        committed = options.out.read_text(encoding="utf-8") if options.out.exists() else ""
        if committed != text:
            sys.stdout.writelines(difflib.unified_diff(
                committed.splitlines(True), text.splitlines(True), str(options.out), "generated"))
            print(f"{options.out} is stale: run {Path(__file__).name}")
            return 1
        return 0
    options.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
