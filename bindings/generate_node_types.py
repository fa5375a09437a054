#!/usr/bin/env python3
"""Generates the Node binding's TypeScript declarations (bindings/node/index.d.ts) from the command
table (bindings/commands.json, the snapshot of `memkit commands --format json`) and the constants
of capi/memkit.h.

Usage:
  generate_node_types.py [--table FILE] [--out FILE]           write the declarations
  generate_node_types.py [--table FILE] [--out FILE] --check   exit 1 when --out differs from
                                                               what the table makes (stale)

index.js makes a Workspace's command methods from the table when it opens; this file gives each
layout's workspace the same methods, found the same way (commandMethods in index.js): the groups
whose `workspace` is the layout, then those whose `workspace` is "any", the first of a name
winning, and none that would hide a member of the class (close, run). Each takes `(now, args)`,
args an interface of the arguments a request may set (not the roots, which the workspace gives),
under the keys index.js takes (--confirm-plan is confirmPlan, the positional PLAN_ID is planId),
typed by the table's type: a flag a boolean, an integer a number or bigint, a number also its
decimal text, a list (json) an array of strings, text a string or bytes, a closed set of choices
their union. A required argument makes args required. The rest of index.js (classes, results,
errors, enumerations) is written here by hand, in _HEAD and _TAIL. Standard library only.
"""
import argparse
import difflib
import json
import re
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_TABLE = HERE / "commands.json"
DEFAULT_OUT = HERE / "node" / "index.d.ts"
sys.path.insert(0, str(HERE))
import generate_raw  # noqa: E402  (the header reader, for the constants)

LAYOUTS = {"custodian": "CUSTODIAN", "memorybox": "MEMORYBOX", "tiers": "TIERS",
           "curated": "CURATED"}
EVERY_LAYOUT = "any"
# What `name in workspace` finds before any command method: the class's members and Object's.
MEMBERS = {"close", "closed", "group", "run", "constructor", "toString", "toLocaleString",
           "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "__proto__",
           "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"}
# What setArg in index.js sends for each table type.
VALUE_TYPES = {"boolean": "boolean", "integer": "number | bigint",
               "number": "number | bigint | string", "json": "Text | readonly string[]",
               "string": "Text", "path": "Text", "time": "Text"}
# Enumerations index.js exports, by the prefix of their constants' names.
ENUMS = [("Status", r"MK_(OK|E_\w+)", "a status: mk_status"),
         ("BudgetState", r"MK_BUDGET_(\w+)", "a budget row's state: mk_budget_state"),
         ("UnitKind", r"MK_UNIT_(\w+)", "a document unit's kind: mk_unit_kind"),
         ("Layout", r"MK_LAYOUT_(\w+)", "a workspace's layout: mk_layout"),
         ("Gate", r"MK_GATE_(\w+)", "a MemoryBox gate: mk_gate")]


def camel(words):
    """index.js's camel(): 'sync push' -> syncPush, 'confirm-plan' -> confirmPlan."""
    return re.sub(r"[-_ ](\w)", lambda m: m.group(1).upper(), words)


def pascal(words):
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[-_ ]", words) if w)


def key_of(argument):
    """index.js's keyOf(): --confirm-plan -> confirmPlan, PLAN_ID -> planId."""
    bare = argument["name"].lstrip("-")
    return camel(bare.lower() if argument["positional"] else bare)


def comment(text, indent):
    """A JSDoc comment, on one line when it fits in 100 columns."""
    text = text.replace("*/", "*\\/")
    if len(indent) + len(text) + 7 <= 100:
        return f"{indent}/** {text} */"
    lines = textwrap.wrap(text, 100 - len(indent) - 3, break_long_words=False,
                          break_on_hyphens=False)
    return "\n".join([f"{indent}/**"] + [f"{indent} * {line}" for line in lines]
                     + [f"{indent} */"])


def quoted(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def member(indent, head, union):
    """`head: A | B | C;` on one line when it fits, else one alternative a line."""
    line = f"{indent}{head}: {' | '.join(union)};"
    if len(line) <= 100:
        return line
    alternatives = [f"{indent}  | {alternative}" for alternative in union]
    return "\n".join([f"{indent}{head}:"] + alternatives) + ";"


def value_type(argument):
    if argument["choices"] and argument["type"] in ("string", "time"):
        return [quoted(choice) for choice in argument["choices"]]
    return VALUE_TYPES[argument["type"]].split(" | ")


def args_interface(group, command):
    """(name, declaration, required) of the interface of a command's arguments."""
    name = pascal(group["name"]) + pascal(command["verb"]) + "Args"
    title = comment(f"The arguments of `memkit {command['name']}`.", "")
    if not command["judged"] and all(a["root"] for a in command["arguments"]):
        # Not {}, which takes any object: an argument given to a command without any is an error.
        return name, f"{title}\nexport type {name} = Record<string, never>;", False
    lines = [title, f"export interface {name} {{"]
    required = False
    for argument in command["arguments"]:
        if argument["root"]:
            continue  # the workspace gives it; a request refuses it
        facts = [argument["name"] + (", positional" if argument["positional"] else ""),
                 argument["type"]]
        if argument["required"]:
            facts.append("required")
        if argument["default"] is not None:
            facts.append(f"default {argument['default']}")
        lines.append(comment(f"{argument['doc']} ({', '.join(facts)})", "  "))
        optional = "" if argument["required"] else "?"
        nullable = [] if argument["required"] else ["null"]
        lines.append(member("  ", key_of(argument) + optional, value_type(argument) + nullable))
        required = required or argument["required"]
    if command["judged"]:
        lines.append(comment("Asked for each gate that needs a judgement (mk_request_set_judge).",
                             "  "))
        lines.append("  judge?: Judge | null;")
    lines.append("}")
    return name, "\n".join(lines), required


def workspace_methods(table, layout):
    """[(method name, group, command)] as commandMethods() in index.js makes them."""
    runs_on = [layout, EVERY_LAYOUT] if layout else [EVERY_LAYOUT]
    methods, taken = [], set(MEMBERS)
    for workspace in runs_on:
        for group in table["groups"]:
            if group["workspace"] != workspace:
                continue
            for command in group["commands"]:
                name = camel(command["verb"] or group["name"])
                if name not in taken:
                    taken.add(name)
                    methods.append((name, group, command))
    return methods


def constants():
    items = generate_raw.read_header()
    values = {}
    for item in items:
        if item.kind == "constant" and not item.name.startswith("MK_VERSION_"):
            values[item.name] = int(re.sub(r"[uU]$", "", item.text))
    return values


def declarations(table):
    out = [_HEAD.rstrip("\n") + "\n", workspace_class(), _WORKSPACE_OPTIONS.rstrip("\n")]
    interfaces, seen = [], set()
    for group in table["groups"]:
        if group["workspace"] not in LAYOUTS and group["workspace"] != EVERY_LAYOUT:
            continue
        for command in group["commands"]:
            name, text, required = args_interface(group, command)
            if name not in seen:
                seen.add(name)
                interfaces.append(text)
    out.append("\n/* The arguments of each command, from the command table */\n")
    out.append("\n\n".join(interfaces))
    out.append("\n/* Each layout's workspace, with its command methods */\n")
    required_of = {}
    for group in table["groups"]:
        for command in group["commands"]:
            required_of[(group["name"], command["verb"])] = any(
                a["required"] and not a["root"] for a in command["arguments"])
    blocks = []
    for layout in list(LAYOUTS) + [None]:
        title = f"{pascal(layout)}Workspace" if layout else "UnknownLayoutWorkspace"
        what = f"layout '{layout}'" if layout else "a layout number this binding does not know"
        lines = [comment(f"A Workspace opened with {what}: its command methods.", ""),
                 f"export interface {title} extends Workspace {{",
                 f"  readonly group: {quoted(layout) if layout else 'undefined'};"]
        for name, group, command in workspace_methods(table, layout):
            args = pascal(group["name"]) + pascal(command["verb"]) + "Args"
            kind = "CommandMethodWithArgs" if required_of[(group["name"], command["verb"])] \
                else "CommandMethod"
            lines.append(comment(f"`memkit {command['name']}`: {command['summary']} "
                                 f"({command['effect']})", "  "))
            lines.append(f"  readonly {name}: {kind}<{args}>;")
        lines.append("}")
        blocks.append("\n".join(lines))
    out.append("\n\n".join(blocks))
    union = [f"{pascal(layout)}Workspace" for layout in LAYOUTS] + ["UnknownLayoutWorkspace"]
    out.append("\n" + comment("A workspace of any layout; its group tells which.", "")
               + "\nexport type LayoutWorkspace =\n" + "\n".join(f"  | {w}" for w in union) + ";")
    values = constants()
    out.append("\n/* Enumerations and constants, from capi/memkit.h */\n")
    for name, pattern, what in ENUMS:
        members = [(re.fullmatch(pattern, key).group(1), value)
                   for key, value in values.items() if re.fullmatch(pattern, key)]
        body = "".join(f"  readonly {member}: {value};\n" for member, value in members)
        out.append(comment(f"The values of {what}, by the constants' suffix.", "")
                   + f"\nexport declare const {name}: {{\n{body}}};")
        out.append(f"export type {name}Value = (typeof {name})[keyof typeof {name}];\n")
    body = "".join(f"  readonly {key}: {value};\n" for key, value in values.items())
    out.append(comment("Every MK_* constant of memkit.h but its version.", "")
               + f"\nexport declare const constants: {{\n{body}}};")
    return "\n".join(out) + "\n"


_HEAD = """\
// TypeScript declarations of the memkit Node binding (index.js). GENERATED by
// bindings/generate_node_types.py from bindings/commands.json (the command table) and
// capi/memkit.h (the constants): edit those, or the generator, never this file. The command
// methods are those of the table this binding was released with; a newer library's table may
// have more, reachable through Workspace.run().

/// <reference types="node" />

/** Text for the library: a string, or bytes (a Buffer or Uint8Array, sent as they are). */
export type Text = string | Uint8Array;

/** A clock reading, or RFC 3339 text with an offset (as the CLI's --now). */
export type ClockLike = Clock | string;

/** A value of Workspace.run's args (index.js setArg). */
export type ArgumentValue = boolean | number | bigint | Text | readonly string[];

/** A gate's name, or its number for a gate newer than this binding. */
export type GateName = 'VALUE' | 'ALIGNMENT' | 'REDUNDANCY' | 'FRESHNESS' | 'PLACEMENT';

/** A gate's question, parsed from its JSON: candidate, categories, category, category_entries,
 *  gate, near_duplicates. */
export interface JudgeQuestion {
  readonly gate: string;
  readonly [key: string]: unknown;
}

/** The host's judgement for memorybox gate: an answer ('yes', 'new Team', 'stable', ...), or
 *  null/undefined to abstain. Synchronous; what it throws becomes the finding MK-BOX-005. */
export type Judge = (
  gateName: GateName | number,
  question: JudgeQuestion,
) => string | Uint8Array | null | undefined;

/** A non-OK mk_status. */
export declare class MemkitError extends Error {
  constructor(code: number, message: string, options?: { cause?: unknown });
  /** The mk_status number, e.g. -1. */
  readonly code: number;
  /** Its name (mk_status_name), e.g. 'MK_E_ARG'. */
  readonly status: string;
}

/** The loaded library's version string, e.g. "0.2.0" (mk_version_string). */
export declare function version(): string;
/** The loaded library's MAJOR * 10000 + MINOR * 100 + PATCH, e.g. 200 (mk_version_number). */
export declare function versionNumber(): number;
/** The name of a status code, e.g. "MK_E_ARG" for -1 (mk_status_name). */
export declare function statusName(code: number): string;
/** The message of the last failure on this thread, or "" (mk_error_message). */
export declare function errorMessage(): string;
/** The command table (mk_commands_json), parsed; a fresh copy on every call. */
export declare function commands(): CommandTable;
/** Same as Clock.parse(text). */
export declare function parseClock(text: string): Clock;
/** Where the library was loaded from: a path, or the soname the system loader found. */
export declare const libraryPath: string;

/** An argument of the command table. */
export interface CommandArgument {
  /** '--confirm-plan', or a positional's upper-case name ('PLAN_ID'). */
  name: string;
  /** 'string', 'integer', 'number', 'boolean', 'path', 'json' or 'time'. */
  type: string;
  positional: boolean;
  required: boolean;
  /** The workspace gives it (--project-root, --root, ...); a request refuses it. */
  root: boolean;
  default: string | null;
  choices: string[];
  doc: string;
  placeholder: string;
}

/** A command of the table. */
export interface CommandEntry {
  /** 'custodian compact', 'memorybox sync push', 'search'. */
  name: string;
  /** 'compact', 'sync push', or '' for a command without a verb. */
  verb: string;
  summary: string;
  /** 'reads', 'writes' or 'plans'. */
  effect: string;
  /** It takes a judge (memorybox gate). */
  judged: boolean;
  arguments: CommandArgument[];
}

/** A group of the table. */
export interface CommandGroup {
  name: string;
  /** The layout whose workspace runs it, 'any' (every layout), 'none', or 'server' or 'cli' (the CLI's alone). */
  workspace: string;
  summary: string;
  notes: string;
  commands: CommandEntry[];
}

/** What `memkit commands --format json` prints. */
export interface CommandTable {
  table_version: number;
  global_options: CommandArgument[];
  groups: CommandGroup[];
}

/** A clock reading (mk_clock): an instant and the UTC offset that every local date uses. */
export declare class Clock {
  private constructor();
  /** Parses RFC 3339 with an offset, as the CLI's --now takes it (mk_clock_parse). */
  static parse(text: string): Clock;
  /** The system clock and the local zone's offset, read when a command runs. */
  static system(): Clock;
  readonly version: number;
  readonly flags: number;
  readonly unixMs: number;
  readonly utcOffsetMinutes: number;
  readonly isSystem: boolean;
  /** The mk_clock fields, as lib/capi.js passes them. */
  toC(): { version: number; flags: number; unix_ms: number; utc_offset_minutes: number };
}

/** The counts of an inbox compaction. */
export interface InboxCounts {
  inboxItems: number;
  emptyItems: number;
  duplicates: number;
  tombstoneMatches: number;
  candidates: number;
}

/** A file row of a custodian status. */
export interface BudgetRow {
  path: string;
  tokens: number;
  limit: number;
  state: BudgetStateValue;
}

/** The outcome of one command (mk_result). Immutable; close() it when done. */
export declare class Result {
  private constructor();
  /** Destroys the result (mk_result_destroy); calling it again does nothing. */
  close(): void;
  [Symbol.dispose](): void;
  readonly closed: boolean;
  /** What the gate's judge threw (the run then carries MK-BOX-005), else null. */
  readonly judgeError: unknown;
  /** The CLI's exit code: 0 success, 1 a domain failure, 2 a blocker or a fatal error. */
  readonly exitCode: number;
  /** The envelope's exact bytes, as `memkit ... --format json` prints them without the newline. */
  readonly jsonBytes: Buffer;
  /** The envelope as a string. */
  readonly json: string;
  /** Streams the envelope to fn in pieces of about 64 KiB (mk_result_write_json). */
  writeJson(fn: (chunk: Buffer) => void): void;
  /** The Plan ID shown or applied (16 hex digits), or null when the command made no plan. */
  readonly planId: string | null;
  /** True when the plan (or additive write) reached the disk. */
  readonly applied: boolean;
  /** How many files the plan writes or deletes. */
  readonly planOperationCount: number;
  /** The counts of an inbox compaction, or null when the result is none. */
  readonly inboxCounts: InboxCounts | null;
  /** The file rows of a custodian status ([] for other commands). */
  readonly budgetRows: BudgetRow[];
}

/** A unit of a parsed Markdown file: its kind and where it is. */
export interface Unit {
  kind: UnitKindValue;
  headingLevel: number;
  firstLine: number;
  lastLine: number;
  /** Byte offsets. */
  begin: number;
  end: number;
}

/** A parsed Markdown file (mk_document): its lines partitioned into units. Immutable. */
export declare class Document {
  private constructor();
  /** Parses UTF-8 bytes (or a string) as Markdown; never fails on text. */
  static parse(text: Text): Document;
  close(): void;
  [Symbol.dispose](): void;
  readonly closed: boolean;
  readonly unitCount: number;
  readonly units: Unit[];
  /** `memkit markdown units --format json`'s data, as exact bytes (mk_document_json). */
  readonly jsonBytes: Buffer;
  readonly json: string;
}

/** A command method of a workspace, made from the table: its documentation and entry with it. */
export interface CommandMethod<A> {
  (now: ClockLike, args?: A | null): Result;
  /** The summary and every argument it takes, under the keys args takes. */
  readonly doc: string;
  /** The table's entry. */
  readonly command: CommandEntry;
}

/** A command method with a required argument: args must be given. */
export interface CommandMethodWithArgs<A> {
  (now: ClockLike, args: A): Result;
  readonly doc: string;
  readonly command: CommandEntry;
}

/** Options of Workspace.open for any layout. */
export interface WorkspaceOptions {
  /** How long an apply waits for the root's lock, in seconds (default 10). */
  lockTimeout?: number;
  /** The command table the methods are made from (default: the library's). */
  table?: CommandTable;
}

/** A layout's name, which is also its own group of the table. */
export type LayoutName = 'custodian' | 'memorybox' | 'tiers' | 'curated';

"""

_WORKSPACE_OPTIONS = """
export declare namespace Workspace {
  /** Options of a custodian workspace: its memory folder, relative to the project root. */
  interface CustodianOptions extends WorkspaceOptions {
    layout?: 'custodian' | (typeof Layout)['CUSTODIAN'];
    memoryDir?: string | null;
  }
}
"""

def workspace_class():
    lines = [
        "/**",
        " * A project's memory folder (mk_workspace), opened with a layout. Workspace.open returns",
        " * the layout's own interface (CustodianWorkspace, ...), which adds a method per command.",
        " * Not thread-safe; close() it when done.",
        " */",
        "export declare class Workspace {",
        "  private constructor();",
        "  /**",
        "   * Opens the memory folder of a project (mk_workspace_open): root is the project root",
        "   * (custodian: the CLI's --project-root), the agent root (memorybox: --root), the",
        "   * workspace (tiers: --workspace) or the store (curated: --store).",
        "   */",
        "  static open(root: string, opts?: Workspace.CustodianOptions | null): "
        "CustodianWorkspace;",
    ]
    for layout, constant in LAYOUTS.items():
        if layout == "custodian":
            continue
        layout_type = f"'{layout}' | (typeof Layout)['{constant}']"
        lines += ["  static open(",
                  "    root: string,",
                  f"    opts: WorkspaceOptions & {{ layout: {layout_type} }},",
                  f"  ): {pascal(layout)}Workspace;"]
    lines += [
        "  /** A layout known only when the program runs: narrow the result by its group. */",
        "  static open(",
        "    root: string,",
        "    opts?: (WorkspaceOptions & { layout?: LayoutName | number }) | null,",
        "  ): LayoutWorkspace;",
        "  /** Closes the workspace (mk_workspace_destroy); calling it again does nothing. */",
        "  close(): void;",
        "  [Symbol.dispose](): void;",
        "  readonly closed: boolean;",
        "  /** The layout's name ('custodian', ...), undefined for a layout number it does not"
        " know. */",
        "  readonly group: LayoutName | undefined;",
        "  /**",
        "   * Runs `memkit <group> <verb>` with its arguments by name: ws.run(now, 'custodian',",
        "   * 'add', {message: 'Use PostgreSQL', type: 'decision'}); '' for a command without a",
        "   * verb (ws.run(now, 'search', '', {query})). judge is for memorybox gate only.",
        "   */",
        "  run(",
        "    now: ClockLike,",
        "    group: string,",
        "    verb: string,",
        "    args?: { readonly [key: string]: ArgumentValue | Judge | null | undefined } | null,",
        "  ): Result;",
        "}",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", type=Path, default=DEFAULT_TABLE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = declarations(json.loads(args.table.read_text(encoding="utf-8")))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            sys.stderr.writelines(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True), str(args.out), "generated"))
            print(f"{args.out} differs from what bindings/generate_node_types.py makes of "
                  f"{args.table}: run bindings/generate_node_types.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
