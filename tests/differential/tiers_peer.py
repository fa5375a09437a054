#!/usr/bin/env python3
"""Differential test: `memkit tiers` against the reference memory-manager script of
hailingu/llm-prompts (`skills/memory-manager/scripts/memory_manager.py`), the peer of tiers3.md
(spec peers.md §2, §2.2; tiers3.md §12, §13).

Usage: tiers_peer.py MEMKIT_BINARY [CASES | @SEED]
       tiers_peer.py MEMKIT_BINARY --self-check [CASES]

  MEMKIT_BINARY  the memkit CLI, for example /tmp/build-diff/src/cli/memkit
  CASES          a number: how many generated cases to run (default 200), with the seeds
                 SEED .. SEED+CASES-1 (case index i has seed SEED+i); or `@S`: the one case with
                 seed S (to reproduce a failure)
  --self-check   runs the first CASES cases (default 6) once per planted disagreement (see
                 MEMKIT_DIFF_PLANT) and passes only when every case a plant touched is reported
                 as differing: the comparison itself is shown to be able to fail

The peer is $MEMKIT_PEERS_DIR/hailingu+llm-prompts/skills/memory-manager/scripts/memory_manager.py.
When MEMKIT_PEERS_DIR is unset or empty, the script is missing, or faketime is not installed (the
peer takes its time from datetime.now(), so its clock must be pinned), the script prints a
message and exits 77 (skipped).

Each case is a fresh temporary root holding two workspaces, peer/ and memkit/, both seeded with the
same memory/global.md (§13 "New global.md"); memkit's then gets `memkit tiers init` (which never
overwrites global.md), the peer creates the same layout on its first command (§12 defect 7). A
case is a random but valid sequence of 3-16 commands, each run on both sides at the same local
time: the peer as `TZ=UTC faketime -f 'YYYY-MM-DD HH:MM:SS' python3 S --workspace peer CMD ARGS`
(-f stops the clock at that second: L1 and L2 headers carry seconds),
memkit as `TZ=UTC memkit tiers CMD ARGS --workspace memkit --now YYYY-MM-DDTHH:MM:SS+00:00 --format
json`, with the same ARGS and the root as working directory. The clock starts at 2026-03-07
14:05:09 and moves between steps: not at all, by seconds, minutes, hours or days, and now and then
backwards.

Commands: persist-turn (with and without extracted content, theme, template, title, tools,
session id, --promote-global), log-turn, write-theme, write-global --append, write-data
(--csv-content or --source-file, new names, --replace, the refusal to overwrite without it),
read-logs, read-theme, read-global, list-themes, read-data (with and without --head; a missing
name), list-data and session-init. Inputs follow §13: ASCII and LF only; themes valid (§7) but
given in any case and with surrounding spaces; content, titles and session ids non-empty with no
whitespace around titles and session ids; write-global always with --append; CSV with no blank
line, quoted newline or BOM (quoted commas and doubled quotes, ragged rows, characters after a
closing quote, with and without a final LF).

Compared after every step:
- the exit: both succeed (peer exit 0 and "status": "success", memkit exit 0), or, for the
  planned refusals (write-data over an existing file without --replace, read-data of a missing
  name), both fail; only successful runs have their results compared (§13 "Failure side effects");
- the result key names: the peer's flat keys without "status" against memkit's `data` keys (and
  the keys of their nested records). memkit may have only the keys tiers3.md §8 gives it and the
  peer lacks: write-global `mode` and `backup_path`, read-global `exists` and `read_order`,
  session-init `global_exists`, `l2_archive_due` and (with --no-log) `log_path`;
- the results' values, paths made relative to the workspace (§13 "Paths"): the written paths and
  flags, `theme`, `global_updated` (and `global_path` when both updated), which files read-logs
  and read-theme select, in order, with dates, timestamps, sizes and content; list-themes;
  read-global's content; read-data's name, path, size, metadata and content (with --head, one
  final LF removed from memkit's content and `truncated` not compared: §13 "read-data --head N"
  and "CSV"); list-data's records; write-data's manifest entry (row_count, column_count,
  detected_columns and the rest); session-init's excerpt, recent logs and recent themes;
- the whole tree of both workspaces: the same directories and files, every file byte for byte
  (L1 session logs, L2 notes, global.md, CSV files), except: manifest.json is compared as a parsed
  object with each entry's `path` made relative (§13 "CSV", "Paths"); memkit's .memkit/ (its lock
  and journal, §9 and §12 defect 10) is left out.

Normalised, and only as tiers3.md §13 allows:
- "SESSION_INIT body": the body line of SESSION_INIT entries in L1 files and read-logs content;
  sizes are then each held to their own side's content;
- "Promotion": theme `preferences` with a marker word (remember, default, always, preference,
  constraint) and no --promote-global is generated on purpose. The peer must then append exactly
  the `## <kind> Promotion - <YYYY-MM-DD HH:MM>` block and report global_updated true, memkit must
  leave global.md alone and report false; from then on that block is cut out of the peer's
  global.md (at the offset where it was appended) before comparing;
- `global_path` is compared only when both report global_updated true; a session-init
  global_excerpt is held to each side's own global.md when such a block exists.

The fixtures avoid the other §13 rows (empty content, whitespace around session ids and titles,
invalid themes, write-global without flags, BOM, blank CSV lines, non-ASCII, CR).

A difference stops its case (later steps would only repeat it). A failing case prints its
seed and index, the commands up to the failing step and every difference of that step; its root
is kept. The last lines name the first diverging case and how to rerun it.

Environment: MEMKIT_DIFF_KEEP=1 keeps every case's root (a failed case's root is always kept);
MEMKIT_DIFF_JOBS=N runs N cases at once (default: the number of CPUs); MEMKIT_DIFF_VERBOSE=1
prints a line per case; MEMKIT_DIFF_PLANT=KIND plants a disagreement on memkit's side, so that the
run must fail: `clock` (the first write runs one second later), `content` (the first step with
content gets " planted" appended), `csv` (the first write-data with --csv-content gets an extra
row).

Exit: 0 when everything agrees (or --self-check caught every plant), 1 on any difference, 2 on a
usage error, 77 when skipped.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import string
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import peer_setup  # noqa: E402  (tests/support, shared with the other *_peer.py scripts)

PEER_SCRIPT = Path("skills") / "memory-manager" / "scripts" / "memory_manager.py"
PEER = peer_setup.Peer(
    "hailingu+llm-prompts", PEER_SCRIPT, "peers.md §2, §2.2", "memory-manager script",
    "check out hailingu/llm-prompts at 402c9aca2edb8aa68f8244435ba8397f09c4093c there "
    "(peers.md §1)",
    clock_why="the memory-manager script reads datetime.now(), so its clock must be pinned")
START = datetime(2026, 3, 7, 14, 5, 9)
SEED = 20260307
DEFAULT_CASES = 200
SELF_CHECK_CASES = 6
PLANTS = ("clock", "content", "csv")

GLOBAL = "memory/global.md"
MANIFEST = "memory/data/manifest.json"
WRITERS = {"log-turn", "persist-turn", "write-theme", "write-global", "write-data"}

# tiers3.md §12 defect 6: the peer's English marker words (it lower-cases the content first).
MARKERS = ("remember", "default", "always", "preference", "constraint")

# The data keys memkit has for a command and the peer does not (tiers3.md §8's table).
MEMKIT_ONLY_KEYS = {
    "write-global": {"mode", "backup_path"},
    "read-global": {"exists", "read_order"},
    "session-init": {"global_exists", "l2_archive_due"},
}

WORDS = ["memory", "note", "plan", "deploy", "parser", "cache", "review", "user", "asked", "for",
         "a", "the", "fix", "queue", "retry", "docs", "agent", "turn", "budget", "index", "tests",
         "green", "draft", "call", "sync", "model", "rows", "theme", "log", "error", "of", "and",
         "API", "v2", "42", "x86_64", "Friday"]
MARKER_WORDS = ["remember", "Remember", "default", "defaults", "Always", "ALWAYS", "preference",
                "preferences", "constraint", "Constraints"]
THEMES = ["decision", "research", "error", "task", "preferences", "preferences", "notes",
          "api-design", "q2_plan", "0day", "x", "user-prefs"]
ENTRY_TYPES = ["turn", "user", "assistant", "tool", "Note", "a", "x_1", "AB-9", "session-end"]
SESSION_IDS = ["s1", "abc-123", "session 7", "S_2026_03", "42"]
TOOLS = ["search", "read", "write", "run tests", "grep", "web.fetch", "A", "edit_file"]
DATA_NAMES = ["metrics", "m", "sales data", "users", "q1-report", "Report", "m.csv", "Totals.CSV"]


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------- generation


def words(rng: random.Random, lo: int, hi: int, markers: bool = False) -> str:
    out = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    if markers:
        out.insert(rng.randrange(len(out) + 1), rng.choice(MARKER_WORDS))
    return " ".join(out)


def content_line(rng: random.Random, markers: bool) -> str:
    kind = rng.randrange(10)
    if kind <= 3:
        return words(rng, 2, 9, markers).capitalize() + rng.choice([".", "", "!", ":"])
    if kind == 4:
        return f"- {words(rng, 1, 6, markers)}"
    if kind == 5:
        return f"  - {words(rng, 1, 4)}"
    if kind == 6:
        return f"{rng.randint(1, 9)}. {words(rng, 1, 5)}"
    if kind == 7:
        return f"**{rng.choice(['Context', 'Decision', 'Fix', 'Done'])}**: {words(rng, 1, 5)}"
    if kind == 8:
        return f"`{rng.choice(WORDS)}` {words(rng, 1, 4)}  "   # trailing spaces inside
    return rng.choice(["", "", "---", "#### " + words(rng, 1, 3)])


def content(rng: random.Random, markers: bool = False) -> str:
    """Non-empty ASCII text, LF only, sometimes with whitespace around it (both sides strip)."""
    lines = [content_line(rng, False) for _ in range(rng.choice([1, 1, 1, 2, 3, 5]))]
    if markers:
        lines[rng.randrange(len(lines))] = content_line(rng, True)
    if not lines[0].strip() or lines[0].lstrip().startswith("-"):
        # A value starting with "-" reads as an option to argparse; an empty first line is
        # fine, but the whole text must not be blank.
        lines[0] = words(rng, 1, 5, markers).capitalize()
    if not lines[-1].strip():
        lines[-1] = words(rng, 1, 4)
    text = "\n".join(lines)
    return rng.choice(["", "", "", "  ", "\n", "\t", " \n "]) + text + \
        rng.choice(["", "", "", " ", "\n", "\n\n", "\t \n"])


def title(rng: random.Random) -> str:
    return rng.choice([words(rng, 1, 5).capitalize(), f"{words(rng, 1, 2)}: {words(rng, 1, 3)}",
                       f"Use {rng.choice(WORDS)} (v{rng.randint(1, 9)})", "#1 priority"])


def random_theme(rng: random.Random) -> str:
    alphabet = string.ascii_lowercase + string.digits + "_-"
    first = rng.choice(string.ascii_lowercase + string.digits)
    size = rng.choice([0, 1, 5, 12, 63])
    return first + "".join(rng.choice(alphabet) for _ in range(size))


def theme_arg(rng: random.Random, theme: str) -> str:
    """The theme as a caller may spell it: §7 strips and lower-cases it, as the peer does."""
    roll = rng.random()
    if roll < 0.15:
        theme = theme.upper()
    elif roll < 0.25:
        theme = theme.capitalize()
    if rng.random() < 0.15:
        theme = f" {theme}  "
    return theme


def entry_type(rng: random.Random) -> str:
    if rng.random() < 0.8:
        return rng.choice(ENTRY_TYPES)
    alphabet = string.ascii_letters + string.digits + "_-"
    return rng.choice(string.ascii_letters) + "".join(
        rng.choice(alphabet) for _ in range(rng.randint(0, 31)))


def json_array(rng: random.Random, values: list[str]) -> str:
    """A JSON array of strings, now and then with escapes both sides must decode."""
    text = json.dumps(values, separators=rng.choice([(",", ":"), (", ", ": ")]))
    if rng.random() < 0.15:
        text = re.sub(r"[a-z]", lambda m: f"\\u{ord(m.group()):04x}", text, count=1)
    if rng.random() < 0.1:
        text = text.replace("/", "\\/")
    return text


def tools_json(rng: random.Random) -> str:
    tools = rng.sample(TOOLS, rng.choice([0, 1, 1, 2, 3]))
    if tools and rng.random() < 0.1:
        # Single-line strings are taken as they are: empty, spaced, with a comma, quote or tab.
        tools[0] = rng.choice(["", " padded ", "a, b", 'say "x"', "a\tb", "web/fetch"])
    return json_array(rng, tools)


def csv_field(rng: random.Random, header: bool) -> tuple[str, str]:
    """A CSV field as (its text, its value). No LF, CR or BOM: §13 "CSV" and "UTF-8 BOM"."""
    roll = rng.random()
    if header and roll < 0.7:
        value = rng.choice(["date", "value", "name", "first name", "id", "score", "note", "x"])
        return value, value
    if roll < 0.55:
        value = rng.choice([rng.choice(WORDS), str(rng.randint(0, 9999)), f"{rng.random():.3f}"])
        return value, value
    if roll < 0.63:
        return "", ""
    if roll < 0.78:
        value = f"{rng.choice(WORDS)}, {rng.choice(WORDS)}"
        return f'"{value}"', value
    if roll < 0.88:
        value = f'say "{rng.choice(WORDS)}"'
        return '"' + value.replace('"', '""') + '"', value
    if roll < 0.94:
        return 'a"b', 'a"b'                      # a quote inside an unquoted field is literal
    return '"ab"cd', "abcd"                      # characters after the closing quote are kept


def csv_text(rng: random.Random) -> tuple[str, list[str]]:
    """CSV text with no blank line, and its header's values."""
    header = [csv_field(rng, True) for _ in range(rng.randint(1, 5))]
    lines = [",".join(text for text, _ in header)]
    for _ in range(rng.choice([0, 1, 2, 3, 3, 5, 8])):
        count = len(header) if rng.random() < 0.8 else rng.randint(1, len(header) + 2)
        lines.append(",".join(csv_field(rng, False)[0] for _ in range(count)))
    lines = [line if line.strip() else "0" for line in lines]   # never a blank line
    if lines[0].startswith("-"):
        lines[0] = "h" + lines[0]
    return "\n".join(lines) + ("\n" if rng.random() < 0.7 else ""), [v for _, v in header]


def data_name(rng: random.Random) -> tuple[str, str]:
    """A data name as given, and the file name both sides make of it (§10)."""
    name = rng.choice(DATA_NAMES)
    if rng.random() < 0.2:
        name = f"{name}-{rng.randint(1, 99)}"
    if rng.random() < 0.15:
        name = f"  {name} "
    stored = name.strip()
    if not stored.lower().endswith(".csv"):
        stored += ".csv"
    return name, stored


def spellings(rng: random.Random, stored: str) -> str:
    """Another way to name an existing data file: without .csv, or with spaces around."""
    if stored.endswith(".csv") and rng.random() < 0.4:
        return stored[:-4]
    if rng.random() < 0.2:
        return f" {stored} "
    return stored


@dataclass
class Step:
    command: str
    args: list[str]
    when: datetime
    refused: bool = False                 # both sides must fail (and change nothing)
    promotion: tuple[str, str] | None = None   # (kind, content): the peer's keyword promotion
    csv_arg: int | None = None            # index in args of the --csv-content value
    content_args: list[int] = field(default_factory=list)   # indexes of content values
    head: int | None = None

    def shell(self) -> str:
        return f"[{self.when:%Y-%m-%d %H:%M:%S}] {self.command} " + " ".join(
            shlex.quote(a) for a in self.args)


@dataclass
class Case:
    seed: int
    global_md: bytes
    steps: list[Step]
    sources: dict[str, str]               # --source-file files, relative to the root
    differences: list[str] = field(default_factory=list)
    failed_step: int | None = None
    done: int = 0
    planted: bool = False
    tally: dict[str, int] = field(default_factory=dict)
    root: Path | None = None


def global_md(rng: random.Random) -> str:
    roll = rng.randrange(4)
    if roll == 0:      # tiers3.md §6's skeleton
        text = ("# Global Memory\n\nRead Order: Active Mission -> Key Constraints -> Research "
                "Index -> User Preferences\n\n## 1. Active Mission\n### Mission Snapshot\n"
                "### Key Constraints (Immutable)\n### Next Useful Reads\n\n## 2. Research Index\n\n"
                "## 3. Decisions\n\n## 4. User Preferences\n")
    elif roll == 1:
        text = "# Global Memory\n\n## Active Mission\n- " + words(rng, 2, 6) + "\n"
    elif roll == 2:
        text = "# Long-term\n\n" + "\n".join(f"- {words(rng, 2, 8)}"
                                             for _ in range(rng.randint(1, 60))) + "\n"
    else:
        text = "# Global Memory\n\n## User Preferences\n\n" + words(rng, 3, 9) + "."
    return text if rng.random() < 0.8 else text.rstrip("\n")


def advance(rng: random.Random, when: datetime) -> datetime:
    roll = rng.random()
    if roll < 0.2:
        return when
    if roll < 0.45:
        return when + timedelta(seconds=rng.randint(1, 59))
    if roll < 0.65:
        return when + timedelta(minutes=rng.randint(1, 59), seconds=rng.randint(0, 59))
    if roll < 0.8:
        return when + timedelta(hours=rng.randint(1, 5), minutes=rng.randint(0, 59))
    if roll < 0.9:
        return when + timedelta(hours=rng.randint(6, 30))
    if roll < 0.95:
        return when + timedelta(days=rng.randint(1, 9), hours=rng.randint(0, 23))
    if roll < 0.975:
        # The read-logs and read-theme windows' edges: a full hour, or midnight, exactly.
        edge = when.replace(minute=0, second=0) + timedelta(hours=1)
        return edge if rng.random() < 0.5 else edge.replace(hour=0) + timedelta(days=1)
    return when - timedelta(hours=rng.randint(1, 48))


COMMANDS = {"persist-turn": 24, "log-turn": 10, "write-theme": 14, "write-global": 7,
            "write-data": 10, "read-logs": 8, "read-theme": 8, "list-themes": 4, "read-data": 6,
            "list-data": 4, "read-global": 3, "session-init": 4}


class Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.args: list[str] = []
        self.content_args: list[int] = []

    def add(self, flag: str, value: str | None = None, *, is_content: bool = False) -> None:
        self.args.append(flag)
        if value is not None:
            if is_content:
                self.content_args.append(len(self.args))
            self.args.append(value)

    def maybe(self, p: float, flag: str, make) -> None:
        if self.rng.random() < p:
            self.add(flag, make())

    def l1_options(self) -> None:
        rng = self.rng
        self.maybe(0.5, "--entry-type", lambda: entry_type(rng))
        self.maybe(0.35, "--tools", lambda: tools_json(rng))
        self.maybe(0.35, "--session-id", lambda: rng.choice(SESSION_IDS))


def promoted(theme: str, text: str, flag: bool) -> bool:
    """Whether the peer promotes by keyword (§12 defect 6), which memkit never does."""
    return not flag and theme.strip().lower() == "preferences" and \
        any(m in text.lower() for m in MARKERS)


def build_case(seed: int) -> Case:
    rng = random.Random(seed)
    when = START
    themes: list[str] = []
    data: dict[str, list[str]] = {}       # stored name -> header values
    sources: dict[str, str] = {}
    steps: list[Step] = []
    names, weights = zip(*COMMANDS.items())
    for index in range(rng.randint(3, 16)):
        if index:
            when = advance(rng, when)
        command = rng.choices(names, weights)[0]
        b = Builder(rng)
        step = Step(command, b.args, when)
        if command == "log-turn":
            b.add("--content", content(rng), is_content=True)
            b.l1_options()
        elif command in ("persist-turn", "write-theme"):
            theme = rng.choice(themes) if themes and rng.random() < 0.4 else \
                rng.choice(THEMES) if rng.random() < 0.85 else random_theme(rng)
            markers = theme == "preferences" and rng.random() < 0.5
            note = content(rng, markers)
            flag = rng.random() < 0.2
            if command == "persist-turn":
                b.add("--raw-content", content(rng), is_content=True)
                extracted = rng.random() < 0.65
                if extracted:
                    b.add("--extracted-content", note, is_content=True)
                if extracted or rng.random() < 0.25:
                    b.add("--theme", theme_arg(rng, theme))
                if extracted and theme not in themes:
                    themes.append(theme)
                kind = "Persisted Turn"
            else:
                b.add("--theme", theme_arg(rng, theme))
                b.add("--content", note, is_content=True)
                if rng.random() < 0.3:
                    b.add("--raw-content", content(rng), is_content=True)
                extracted = True
                if theme not in themes:
                    themes.append(theme)
                kind = "Theme Memory"
            b.maybe(0.45, "--template", lambda: rng.choice(["decision", "error", "task"]))
            b.maybe(0.45, "--title", lambda: title(rng))
            if flag:
                b.add("--promote-global")
            b.l1_options()
            if extracted and promoted(theme, note, flag):
                step.promotion = (kind, note)
        elif command == "write-global":
            b.add("--content", content(rng), is_content=True)
            b.add("--append")     # §13: the peer overwrites without it
            if rng.random() < 0.3:
                b.add("--raw-content", content(rng), is_content=True)
            b.l1_options()
        elif command == "write-data":
            if data and rng.random() < 0.3:
                stored = rng.choice(sorted(data))
                given = spellings(rng, stored)
                step.refused = rng.random() < 0.35
                if not step.refused:
                    b.add("--replace")
            else:
                given, stored = data_name(rng)
                step.refused = stored in data
                if step.refused and rng.random() < 0.5:
                    step.refused = False
                    b.add("--replace")
            b.args.insert(0, "--name")
            b.args.insert(1, given)
            text, header = csv_text(rng)
            if rng.random() < 0.8:
                b.add("--csv-content", text)
                step.csv_arg = len(b.args) - 1
            else:
                source = f"src/{len(sources)}.csv"
                sources[source] = text
                b.add("--source-file", source)
            b.maybe(0.3, "--description", lambda: words(rng, 1, 6))
            b.maybe(0.3, "--source-label", lambda: rng.choice(["export", "crm v2", "manual"]))
            if rng.random() < 0.3:
                declared = rng.choice([header, header, [], ["other"], header[:1] + ["extra"]])
                b.add("--columns-json", json_array(rng, declared))
            if rng.random() < 0.25:
                b.add("--raw-content", content(rng), is_content=True)
            b.l1_options()
            if not step.refused:
                data[stored] = header
        elif command == "read-logs":
            b.maybe(0.6, "--days-back", lambda: str(rng.choice([0, 1, 1, 2, 3, 7, 10])))
            b.maybe(0.4, "--limit", lambda: str(rng.randint(1, 4)))
        elif command == "read-theme":
            theme = rng.choice(themes) if themes and rng.random() < 0.85 else rng.choice(THEMES)
            b.add("--theme", theme_arg(rng, theme))
            b.maybe(0.6, "--hours-back", lambda: str(rng.choice([0, 1, 2, 5, 24, 48, 100])))
            b.maybe(0.3, "--limit", lambda: str(rng.randint(1, 4)))
        elif command == "read-data":
            if data and rng.random() < 0.9:
                b.add("--name", spellings(rng, rng.choice(sorted(data))))
            elif index:
                b.add("--name", f"missing-{rng.randint(1, 9)}")
                step.refused = True
            else:
                command = step.command = "list-data"
            if command == "read-data" and rng.random() < 0.5:
                step.head = rng.randint(0, 10)
                b.add("--head", str(step.head))
        elif command == "session-init":
            b.maybe(0.4, "--session-id", lambda: rng.choice(SESSION_IDS))
            b.maybe(0.4, "--recent-days", lambda: str(rng.choice([0, 1, 2, 7, 10])))
            b.maybe(0.3, "--theme-limit", lambda: str(rng.randint(1, 5)))
            if rng.random() < 0.3:
                b.add("--no-log")
        step.content_args = b.content_args
        steps.append(step)
    return Case(seed, global_md(rng).encode(), steps, sources)


# ---------------------------------------------------------------------------- running


class Sides:
    def __init__(self, memkit: str, peer_script: Path, faketime: str) -> None:
        self.memkit_bin = memkit
        self.peer_script = peer_script
        self.faketime = faketime
        self.env = dict(os.environ, TZ="UTC", PYTHONDONTWRITEBYTECODE="1", LC_ALL="C.UTF-8")

    def run(self, command: list[str], cwd: Path) -> tuple[int, dict | None, str]:
        try:
            result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                                    encoding="utf-8", env=self.env, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise Failure(f"{command[0]}: {exc}") from exc
        try:
            parsed = json.loads(result.stdout)
        except json.JSONDecodeError:
            parsed = None
        return result.returncode, parsed, (result.stdout + result.stderr).strip()[-600:]

    def peer(self, root: Path, ws: Path, step: Step) -> tuple[int, dict | None, str]:
        # -f: the absolute timestamp stops the clock there. Without it faketime only starts the
        # clock at that second, and a slow start-up (a loaded machine) moves the L1 and L2
        # headers, which carry seconds, to the next one.
        return self.run([self.faketime, "-f", f"{step.when:%Y-%m-%d %H:%M:%S}", sys.executable,
                         str(self.peer_script), "--workspace", str(ws), step.command, *step.args],
                        root)

    def memkit(self, root: Path, ws: Path, command: str, args: list[str],
               when: datetime) -> tuple[int, dict | None, str]:
        return self.run([self.memkit_bin, "tiers", command, *args, "--workspace", str(ws), "--now",
                         f"{when:%Y-%m-%dT%H:%M:%S}+00:00", "--format", "json"], root)


def snapshot(ws: Path, memkit: bool) -> tuple[set[str], dict[str, bytes]]:
    dirs: set[str] = set()
    files: dict[str, bytes] = {}
    for top, subdirs, names in os.walk(ws):
        rel_top = os.path.relpath(top, ws)
        if memkit and rel_top == ".":
            subdirs[:] = [d for d in subdirs if d != ".memkit"]    # memkit's lock and journal
        for d in subdirs:
            dirs.add(os.path.normpath(os.path.join(rel_top, d)))
        for n in names:
            files[os.path.normpath(os.path.join(rel_top, n))] = Path(top, n).read_bytes()
    return dirs, files


SESSION_INIT = re.compile(r"(### \[[0-9: -]+\] SESSION_INIT\n(?:\*\*Session:\*\* [^\n]*\n)?\n)"
                          r"[^\n]*(\n\n---)")


def without_session_init_bodies(text: str) -> str:
    """§13 "SESSION_INIT body": each side logs its own sentence."""
    return SESSION_INIT.sub(r"\1<SESSION_INIT body>\2", text)


def first_difference(a: bytes | str, b: bytes | str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return (f"lengths {len(a)}/{len(b)}, first difference at {i}: peer {a[max(0, i - 30):i + 40]!r}"
            f" vs memkit {b[max(0, i - 30):i + 40]!r}")


def plantable(plant: str | None, step: Step) -> bool:
    """Whether MEMKIT_DIFF_PLANT=plant changes this step on memkit's side (the first such step
    of a case is changed, and nothing after it)."""
    if plant is None or step.refused:
        return False
    if plant == "clock":
        return step.command in WRITERS
    if plant == "content":
        return bool(step.content_args)
    return step.csv_arg is not None


class Run:
    """One case: two workspaces, the promotion blocks cut from the peer's global.md, a plant."""

    def __init__(self, case: Case, sides: Sides, plant: str | None) -> None:
        self.case = case
        self.sides = sides
        self.plant = plant
        self.planted = False
        self.root = Path(tempfile.mkdtemp(prefix=f"memkit-tiers-diff-{case.seed}-"))
        self.peer_ws = self.root / "peer"
        self.memkit_ws = self.root / "memkit"
        self.peer_real = os.path.realpath(self.peer_ws)
        self.blocks: list[tuple[int, bytes]] = []   # (offset in the peer's global.md, block)
        self.diffs: list[str] = []

    # -- normalising ------------------------------------------------------------------------

    def rel(self, path, where: str):
        """§13 "Paths": the peer's absolute paths, made relative to its workspace."""
        if path is None:
            return None
        if isinstance(path, str) and path.startswith(self.peer_real + "/"):
            return path[len(self.peer_real) + 1:]
        self.diffs.append(f"{where}: the peer's path {path!r} is not under its workspace")
        return path

    def peer_global(self, data: bytes) -> bytes:
        """The peer's global.md with its keyword promotion blocks cut out (§13 "Promotion")."""
        for offset, block in reversed(self.blocks):
            if data[offset:offset + len(block)] != block:
                self.diffs.append(f"{GLOBAL}: the peer's promotion block at {offset} is gone")
                return data
            data = data[:offset] + data[offset + len(block):]
        return data

    def manifest(self, raw: bytes, peer: bool, where: str):
        try:
            parsed = json.loads(raw)
        except json.JSONDecodeError as exc:
            side = "peer" if peer else "memkit"
            self.diffs.append(f"{where}: not JSON on the {side} side: {exc}")
            return None
        if peer and isinstance(parsed, dict):
            for entry in parsed.values():
                if isinstance(entry, dict) and "path" in entry:
                    entry["path"] = self.rel(entry["path"], where)
        return parsed

    # -- comparing ----------------------------------------------------------------------------

    def trees(self) -> None:
        peer_dirs, peer_files = snapshot(self.peer_ws, False)
        mk_dirs, mk_files = snapshot(self.memkit_ws, True)
        if peer_dirs != mk_dirs:
            self.diffs.append(f"tree: directories only in the peer {sorted(peer_dirs - mk_dirs)}, "
                              f"only in memkit {sorted(mk_dirs - peer_dirs)}")
        if set(peer_files) != set(mk_files):
            self.diffs.append(f"tree: files only in the peer "
                              f"{sorted(set(peer_files) - set(mk_files))}, only in memkit "
                              f"{sorted(set(mk_files) - set(peer_files))}")
        for rel in sorted(set(peer_files) & set(mk_files)):
            a, b = peer_files[rel], mk_files[rel]
            if rel == MANIFEST:
                a, b = self.manifest(a, True, rel), self.manifest(b, False, rel)
                if a != b:
                    self.diffs.append(f"{rel} (parsed, paths relative): peer {a} vs memkit {b}")
                continue
            if rel == GLOBAL:
                a = self.peer_global(a)
            elif rel.startswith("memory/sessions/"):
                a = without_session_init_bodies(a.decode()).encode()
                b = without_session_init_bodies(b.decode(errors="replace")).encode()
            if a != b:
                self.diffs.append(f"{rel}: {first_difference(a, b)}")

    def keys(self, where: str, peer, mk, extra: set[str] = frozenset()) -> bool:
        if not isinstance(peer, dict) or not isinstance(mk, dict):
            self.diffs.append(f"{where}: peer {peer!r}, memkit {mk!r}")
            return False
        p, m = set(peer) - ({"status"} if where == "result" else set()), set(mk)
        if p != m - (extra - p):
            self.diffs.append(f"{where}: key names only in the peer {sorted(p - m)}, only in "
                              f"memkit {sorted(m - p - extra)}")
            return False
        return True

    def same(self, where: str, peer, mk) -> None:
        if peer != mk:
            if isinstance(peer, str) and isinstance(mk, str):
                self.diffs.append(f"{where}: {first_difference(peer, mk)}")
            else:
                self.diffs.append(f"{where}: peer {peer!r}, memkit {mk!r}")

    def texts(self, where: str, peer: dict, mk: dict) -> None:
        """L1 content and size: equal, or, with SESSION_INIT bodies, each size its own length."""
        p, m = peer.get("content"), mk.get("content")
        if not isinstance(p, str) or not isinstance(m, str):
            self.diffs.append(f"{where}.content: peer {p!r}, memkit {m!r}")
            return
        self.same(f"{where}.content", without_session_init_bodies(p),
                  without_session_init_bodies(m))
        if p == m:
            self.same(f"{where}.size", peer.get("size"), mk.get("size"))
        elif peer.get("size") != len(p.encode()) or mk.get("size") != len(m.encode()):
            self.diffs.append(f"{where}.size: peer {peer.get('size')} for {len(p.encode())} "
                              f"bytes, memkit {mk.get('size')} for {len(m.encode())}")

    def records(self, where: str, peer, mk, extra: set[str] = frozenset()) -> list[tuple]:
        if not isinstance(peer, list) or not isinstance(mk, list):
            self.diffs.append(f"{where}: peer {peer!r}, memkit {mk!r}")
            return []
        if len(peer) != len(mk):
            self.diffs.append(f"{where}: {len(peer)} records in the peer, {len(mk)} in memkit: "
                              f"peer {[self.rel(r.get('path'), where) for r in peer]}, memkit "
                              f"{[r.get('path') for r in mk]}")
            return []
        pairs = []
        for i, (p, m) in enumerate(zip(peer, mk)):
            if self.keys(f"{where}[{i}]", p, m, extra):
                pairs.append((f"{where}[{i}]", p, m))
                self.same(f"{where}[{i}].path", self.rel(p.get("path"), where), m.get("path"))
        return pairs

    def result(self, step: Step, peer: dict, mk: dict, before) -> None:
        c = step.command
        extra = set(MEMKIT_ONLY_KEYS.get(c, set()))
        if c == "session-init" and "log_path" not in peer and mk.get("log_path") is None:
            extra.add("log_path")     # the peer has log_path only when it logged
        if not self.keys("result", peer, mk, extra):
            return
        for key in ("path", "l1_path", "l2_path", "data_path", "global_path"):
            if key in peer and not (key == "global_path" and c != "session-init"):
                self.same(key, self.rel(peer[key], key), mk[key])
        for key in ("l1_written", "l2_written", "theme", "log_written"):
            if key in peer:
                self.same(key, peer[key], mk[key])
        if "global_updated" in peer:
            if step.promotion:
                if (peer["global_updated"], mk["global_updated"]) != (True, False):
                    self.diffs.append(f"global_updated: keyword promotion expected (peer true, "
                                      f"memkit false), got peer {peer['global_updated']}, memkit "
                                      f"{mk['global_updated']}")
            else:
                self.same("global_updated", peer["global_updated"], mk["global_updated"])
                if peer["global_updated"] and mk["global_updated"]:
                    self.same("global_path", self.rel(peer["global_path"], "global_path"),
                              mk["global_path"])
        if c == "write-data":
            if self.keys("manifest_entry", peer["manifest_entry"], mk["manifest_entry"]):
                entry = dict(peer["manifest_entry"])
                entry["path"] = self.rel(entry["path"], "manifest_entry.path")
                for key in entry:
                    self.same(f"manifest_entry.{key}", entry[key], mk["manifest_entry"][key])
        elif c == "read-logs":
            for where, p, m in self.records("logs", peer["logs"], mk["logs"]):
                self.same(f"{where}.date", p.get("date"), m.get("date"))
                self.texts(where, p, m)
        elif c == "read-theme":
            for where, p, m in self.records("memories", peer["memories"], mk["memories"]):
                self.same(f"{where}.timestamp", p.get("timestamp"), m.get("timestamp"))
                self.same(f"{where}.content", p.get("content"), m.get("content"))
        elif c == "list-themes":
            self.same("themes", peer["themes"], mk["themes"])
        elif c == "read-global":
            p = peer["content"]
            if isinstance(p, str):
                p = self.peer_global(p.encode()).decode()
            self.same("content", p, mk["content"])
        elif c == "read-data":
            p, m = peer["data"], mk["data"]
            if self.keys("data", p, m):
                for key in ("name", "size"):
                    self.same(f"data.{key}", p[key], m[key])
                self.same("data.path", self.rel(p["path"], "data.path"), m["path"])
                pm = p["metadata"]
                if isinstance(pm, dict):
                    pm = dict(pm, path=self.rel(pm.get("path"), "data.metadata.path"))
                self.same("data.metadata", pm, m["metadata"])
                mc = m["content"]
                if step.head is None:
                    self.same("data.truncated", p["truncated"], m["truncated"])
                elif isinstance(mc, str) and mc.endswith("\n"):
                    mc = mc[:-1]      # §13 "read-data --head N"
                self.same("data.content", p["content"], mc)
        elif c == "list-data":
            for where, p, m in self.records("data_files", peer["data_files"], mk["data_files"]):
                self.same(f"{where}.name", p.get("name"), m.get("name"))
                self.same(f"{where}.size", p.get("size"), m.get("size"))
                pm = p.get("metadata")
                if isinstance(pm, dict):
                    pm = dict(pm, path=self.rel(pm.get("path"), f"{where}.metadata.path"))
                self.same(f"{where}.metadata", pm, m.get("metadata"))
        elif c == "session-init":
            (peer_files, mk_files) = before
            p_global, m_global = peer_files.get(GLOBAL, b""), mk_files.get(GLOBAL, b"")
            if self.blocks:     # each excerpt against its own global.md
                self.same("global_excerpt (peer's own)", peer["global_excerpt"],
                          p_global.decode()[:2000])
                self.same("global_excerpt (memkit's own)", m_global.decode()[:2000],
                          mk["global_excerpt"])
            else:
                self.same("global_excerpt", peer["global_excerpt"], mk["global_excerpt"])
            for where, p, m in self.records("recent_logs", peer["recent_logs"], mk["recent_logs"]):
                self.same(f"{where}.date", p.get("date"), m.get("date"))
                path = m.get("path", "")
                self.texts(where, dict(p, content=peer_files.get(path, b"").decode()),
                           dict(m, content=mk_files.get(path, b"").decode()))
            for where, p, m in self.records("recent_themes", peer["recent_themes"],
                                            mk["recent_themes"]):
                for key in ("theme", "timestamp", "preview"):
                    self.same(f"{where}.{key}", p.get(key), m.get(key))

    # -- one step ------------------------------------------------------------------------------

    def memkit_args(self, step: Step) -> tuple[list[str], datetime]:
        """The step's arguments and time for memkit, with the plant, if any, applied."""
        args, when = list(step.args), step.when
        if self.planted or not plantable(self.plant, step):
            return args, when
        if self.plant == "clock":
            when += timedelta(seconds=1)
        elif self.plant == "content":
            args[step.content_args[0]] += " planted"
        else:
            text = args[step.csv_arg]
            args[step.csv_arg] = text + ("" if text.endswith("\n") else "\n") + "planted,row\n"
        self.planted = True
        return args, when

    def step(self, step: Step) -> None:
        before = (snapshot(self.peer_ws, False)[1], snapshot(self.memkit_ws, True)[1])
        peer_rc, peer, peer_out = self.sides.peer(self.root, self.peer_ws, step)
        args, when = self.memkit_args(step)
        mk_rc, mk, mk_out = self.sides.memkit(self.root, self.memkit_ws, step.command, args, when)
        peer_ok = peer_rc == 0 and isinstance(peer, dict) and peer.get("status") == "success"
        mk_ok = mk_rc == 0 and isinstance(mk, dict) and isinstance(mk.get("data"), dict)
        if step.refused:
            self.case.tally["refusals"] = self.case.tally.get("refusals", 0) + 1
            if peer_ok or mk_ok or peer_rc == 0 or mk_rc == 0:
                self.diffs.append(f"a refusal was expected on both sides: peer exit {peer_rc} "
                                  f"{peer_out!r}; memkit exit {mk_rc} {mk_out!r}")
            if snapshot(self.memkit_ws, True)[1] != before[1]:
                self.diffs.append("memkit's refused command changed files")
            self.trees()
            return
        if not (peer_ok and mk_ok):
            self.diffs.append(f"exit: peer {peer_rc} ({'ok' if peer_ok else peer_out!r}), memkit "
                              f"{mk_rc} ({'ok' if mk_ok else mk_out!r})")
            return
        self.case.tally[step.command] = self.case.tally.get(step.command, 0) + 1
        if step.promotion:
            self.promotion(step, before)
        self.result(step, peer, mk["data"], before)
        self.trees()

    def promotion(self, step: Step, before) -> None:
        """§13 "Promotion": the peer appends a block by keyword, memkit does not."""
        kind, note = step.promotion
        block = f"\n\n## {kind} Promotion - {step.when:%Y-%m-%d %H:%M}\n\n{note.strip()}".encode()
        peer_before, mk_before = before[0][GLOBAL], before[1][GLOBAL]
        peer_after = (self.peer_ws / GLOBAL).read_bytes()
        if peer_after != peer_before + block:
            self.diffs.append(f"{GLOBAL}: the peer was expected to append the keyword promotion "
                              f"block {block!r}; "
                              f"{first_difference(peer_before + block, peer_after)}")
            return
        if (self.memkit_ws / GLOBAL).read_bytes() != mk_before:
            self.diffs.append(f"{GLOBAL}: memkit changed it without --promote-global")
        self.blocks.append((len(peer_before), block))
        self.case.tally["keyword promotions"] = self.case.tally.get("keyword promotions", 0) + 1

    def go(self) -> None:
        case = self.case
        for ws in (self.peer_ws, self.memkit_ws):
            (ws / "memory").mkdir(parents=True)
            (ws / GLOBAL).write_bytes(case.global_md)
        for rel, text in case.sources.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_bytes(text.encode())
        rc, out, text = self.sides.memkit(self.root, self.memkit_ws, "init", [], START)
        if rc != 0 or (self.memkit_ws / GLOBAL).read_bytes() != case.global_md:
            raise Failure(f"memkit tiers init: exit {rc}, {text!r}, or global.md overwritten")
        for index, step in enumerate(case.steps):
            self.step(step)
            if self.diffs:
                case.failed_step = index
                case.differences = self.diffs
                return
            case.done += 1


def run_case(case: Case, sides: Sides, keep: bool, plant: str | None) -> Case:
    run = Run(case, sides, plant)
    case.root = run.root
    try:
        run.go()
    except Failure as exc:
        case.differences.append(str(exc))
    case.planted = run.planted
    if not case.differences and not keep:
        shutil.rmtree(run.root, ignore_errors=True)
    return case


def run_all(seeds: list[int], sides: Sides, plant: str | None, keep: bool, jobs: int) -> list[Case]:
    cases = [build_case(seed) for seed in seeds]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda c: run_case(c, sides, keep, plant), cases))


def describe(case: Case) -> str:
    lines = [f"FAIL seed {case.seed} (case index {case.seed - SEED}), step {case.failed_step}, "
             f"root {case.root}:"]
    last = case.failed_step if case.failed_step is not None else -1
    for i, step in enumerate(case.steps[:last + 1]):
        lines.append(f"    {'>' if i == last else ' '} {i:2} {step.shell()}")
    lines += [f"    - {d}" for d in case.differences]
    return "\n".join(lines)


def self_check(memkit: str, sides: Sides, count: int, jobs: int) -> int:
    """Every plant must make each case it touched differ; without that the test cannot fail.
    Each plant runs on the first `count` cases that have a step it changes."""
    ok = True
    for plant in PLANTS:
        seeds: list[int] = []
        seed = SEED
        while len(seeds) < count:
            if any(plantable(plant, step) for step in build_case(seed).steps):
                seeds.append(seed)
            seed += 1
        cases = run_all(seeds, sides, plant, False, jobs)
        touched = [c for c in cases if c.planted]
        missed = [c for c in touched if not c.differences]
        stray = [c for c in cases if not c.planted and c.differences]
        print(f"plant {plant}: applied in {len(touched)} of {len(cases)} cases, caught in "
              f"{len(touched) - len(missed)}")
        for case in stray:
            print("  a case the plant did not touch differs:\n" + describe(case))
        if not touched or missed or stray:
            ok = False
            for case in missed:
                print(f"  MISSED: seed {case.seed}: the planted {plant} went unnoticed "
                      f"({memkit}, {case.root})")
        for case in cases:
            if not (case in missed or case in stray):
                shutil.rmtree(case.root, ignore_errors=True)
    print("self-check: " + ("every planted disagreement was caught" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv: list[str]) -> int:
    args = argv[1:]
    check = "--self-check" in args
    if check:
        args.remove("--self-check")
    if len(args) not in (1, 2):
        print("usage: tiers_peer.py MEMKIT_BINARY [CASES | @SEED]\n"
              "       tiers_peer.py MEMKIT_BINARY --self-check [CASES]", file=sys.stderr)
        return 2
    seeds = peer_setup.seeds(args[1] if len(args) == 2 else None,
                             SELF_CHECK_CASES if check else DEFAULT_CASES, SEED,
                             allow_at_seed=not check)
    if not seeds:
        return 2
    plant = os.environ.get("MEMKIT_DIFF_PLANT") or None
    if plant not in (None, *PLANTS):
        print(f"MEMKIT_DIFF_PLANT must be one of {', '.join(PLANTS)}, not {plant!r}",
              file=sys.stderr)
        return 2

    ready = peer_setup.start(args[0], PEER)
    if isinstance(ready, int):
        return ready
    memkit = ready.memkit
    sides = Sides(memkit, ready.peer_file, ready.faketime)
    jobs, keep, verbose = peer_setup.run_options()
    print(f"peer: {ready.peer_file}; clock from TZ=UTC faketime -f '{START:%Y-%m-%d %H:%M:%S}' / "
          f"memkit --now {START:%Y-%m-%dT%H:%M:%S}+00:00, moved between steps")
    if check:
        return self_check(memkit, sides, len(seeds), jobs)
    if plant:
        print(f"MEMKIT_DIFF_PLANT={plant}: a disagreement is planted on memkit's side; this run "
              "must fail")
    started = time.monotonic()
    cases = run_all(seeds, sides, plant, keep, jobs)

    failed = [c for c in cases if c.differences]
    for case in failed[:20]:
        print(describe(case))
    if len(failed) > 20:
        print(f"... and {len(failed) - 20} more failing cases")
    if verbose or keep:
        for case in cases:
            if not case.differences:
                print(f"ok   seed {case.seed}: {len(case.steps)} steps"
                      + (f", kept {case.root}" if keep else ""))
    totals: dict[str, int] = {}
    for case in cases:
        for key, value in case.tally.items():
            totals[key] = totals.get(key, 0) + value
    steps = sum(c.done for c in cases)
    print("agreeing steps by command: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    print(f"{time.monotonic() - started:.1f} s, {jobs} at once; {steps} steps agree; cases "
          f"{len(cases)}: {len(cases) - len(failed)} agree, {len(failed)} differ")
    if failed:
        first = failed[0]
        print(f"first diverging case: index {first.seed - SEED}, seed {first.seed}, step "
              f"{first.failed_step}; rerun it with: tiers_peer.py {memkit} @{first.seed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
