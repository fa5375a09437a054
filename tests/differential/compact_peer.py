#!/usr/bin/env python3
"""Differential test: `memkit custodian compact` (inbox mode and --target) against the
MemoryCustodian v0.9.1 peer (spec compaction.md §7-§11 and §19, peers.md §2 and §2.1).

Usage: compact_peer.py MEMKIT_BINARY [CASES]

  MEMKIT_BINARY  the memkit CLI, for example /tmp/build-diff/src/cli/memkit
  CASES          a number: how many generated cases to run (default 200; the families keep their
                 proportions); or `list`: print the case names and exit; or a regular expression:
                 run the default cases whose names it matches (re.search). The opt-in `probe-*`
                 cases show shapes where the two programs are known to differ in ways §19 does
                 not list; they run only when the expression names them (for example `probe`).

Run by hand; it is not registered in ctest. The peer is read from
$MEMKIT_PEERS_DIR/waittim+MemoryCustodian and run through its bin/memory-custodian wrapper,
under `TZ=UTC faketime '2026-03-07 14:05:09'` when faketime is installed; memkit gets
`--now 2026-03-07T14:05:09+00:00`. Without faketime the peer runs on the real clock, and dates
(the changelog's new date section, the archive file's date) are compared loosely. When
MEMKIT_PEERS_DIR is unset or empty, or the peer is missing, the script exits 77 with a message.
Environment: MEMKIT_DIFF_KEEP=1 keeps every case's directory (failed cases are always kept);
MEMKIT_DIFF_JOBS sets the number of cases run at once (default: the number of CPUs);
MEMKIT_DIFF_VERBOSE=1 prints a line for every case; MEMKIT_DIFF_NO_FAKETIME=1 runs the peer
unpinned even when faketime is installed (to exercise the loose date comparison).

Every case runs in a fresh temporary directory holding two identical project trees, one per
side: the peer's own `init --extended` layout (made once, under the pinned clock) with the
case's fixture files written over it byte for byte. Fixtures come from a fixed seed. They avoid
every shape §19 says to avoid: LF only, no BOM, no \\v \\f \\x1c-\\x1e U+0085 U+2028 U+2029, no
HTML comments or front matter, only well-formed column-0 fences of length 3 whose closer is
exactly the opener's three characters, no thematic breaks (rows 4-10); plain `## ` headings
outside fences (row 10); no trailing blank lines at EOF and no trailing whitespace on a file's
last line (row 14: the peer re-renders and rewrites the inbox even with nothing removed); no
bare `- ` markers (row 21); one entry per H2 and the bare `Decision:` form (row 17); no trailing
whitespace on the lines of H2-archived files (row 1: the peer strips each section's end); changelog
date headings unique and newest first (row 2: memkit merges and date-sorts changelog archives).

Compared, after normalising only as §19 says:
- inbox mode (§8): the counts (items, exact duplicates, tombstone matches, candidates); every
  candidate's label and continuation lines (the peer's trailing blank continuation lines, which
  are the gap after the unit in its model, are dropped); after apply, inbox.md with blank lines
  removed and trailing whitespace at EOF stripped (row 1); changelog.md only as "both added
  exactly one bullet, under today's date heading" when something was removed, and "both left it
  alone" otherwise (rows 11 and 12: wording and grouping differ);
- target mode (§9): tokens and limit, the long decision entries (title and tokens), the action
  (none / dedupe / archive / manual review), the dedupe count and projected tokens and whether
  the result remains over budget, the keep and archive counts, projected tokens, archive path and
  kept long decisions; after apply the trimmed target (row 1 normalisation), the archived H2
  sections in order with their non-blank lines, ignoring preambles and the peer's
  `## <date> - From <target>` wrapper sections (row 2; with an existing archive file only the
  newly archived sections are compared, because the peer appends and memkit inserts newest
  first), archive/README.md created by both or neither, and the changelog line as above;
- the refusals: the decision gates (--archive-oldest missing, kept long decisions: exit 1 on
  both, nothing written), rejected targets (peer exit 2, memkit MK-TARGET-001 exit 2) and a
  missing target file (peer exit 1, memkit MK-LAYOUT-002 exit 2: row 16 maps the classes);
- on both sides, the set of files an apply changed; and for memkit alone, that a dry run writes
  nothing and that an apply writes exactly the files its data.written lists.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import peer_setup  # noqa: E402  (tests/support, shared with the other *_peer.py scripts)

# faketime is optional here (Sides looks for it): without it the dates are compared loosely.
PEER = peer_setup.Peer(
    "waittim+MemoryCustodian", Path("bin") / "memory-custodian", "peers.md §2",
    "MemoryCustodian peer",
    "check out waittim/MemoryCustodian at v0.9.1 as MEMKIT_PEERS_DIR/waittim+MemoryCustodian",
    clock_why=None)
PEER_NOW = "2026-03-07 14:05:09"
MEMKIT_NOW = "2026-03-07T14:05:09+00:00"
TODAY = "2026-03-07"
SEED = 20260307
DEFAULT_CASES = 200
MEMORY = Path("docs") / "memory"
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")

BUDGETS = {"brief.md": 500, "decisions.md": 800, "constraints.md": 400, "do-not-use.md": 400,
           "preferences.md": 300, "changelog.md": 800}

# compaction.md §2.2: W.
W = frozenset([chr(c) for c in range(0x09, 0x0E)] + [chr(c) for c in range(0x1C, 0x20)]
              + ["\u0020", "\u0085", "\u00a0", "\u1680"] + [chr(c) for c in range(0x2000, 0x200B)]
              + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"])


def spec_tokens(text: str) -> int:
    """compaction.md §4; used only to size fixtures, never as a verdict."""
    count, in_run = 0, False
    for ch in text:
        if ch == "_" or ("0" <= ch <= "9") or ("A" <= ch <= "Z") or ("a" <= ch <= "z"):
            count += 0 if in_run else 1
            in_run = True
        else:
            in_run = False
            count += 0 if ch in W else 1
    return count


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------- words and units

ASCII = ["use", "tabs", "spaces", "cache", "redis", "mongo", "build", "test", "deploy", "api",
         "queue", "retry", "log", "json", "config", "docker", "cmake", "lint", "format", "budget",
         "token", "schema", "index", "shard", "lock", "review", "release", "branch", "merge",
         "x_y-z", "v0.9.1", "3.14", "C++20", "(draft)", "snake_case", "HTTP/2", "UTF-8", "[link](url)",
         "`code`", "—", "“quoted”", "100%"]
ACCENTED = ["café", "Straße", "naïve", "Zürich", "résumé", "façade", "Ångström", "São",
            "jalapeño", "Œuvre", "Ελλάδα", "Σίσυφος", "ДАННЫЕ", "ﬁne"]
CJK = ["記住", "日本語", "中文字符", "한국어", "テスト"]
EMOJI = ["🙂", "🚀", "✅"]


def word(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.72:
        return rng.choice(ASCII)
    if r < 0.88:
        return rng.choice(ACCENTED)
    if r < 0.97:
        return rng.choice(CJK)
    return rng.choice(EMOJI)


def phrase(rng: random.Random, lo: int = 2, hi: int = 7) -> str:
    # Interior separators: space, two spaces or a tab (all W and Python whitespace, never leading).
    out = word(rng)
    for _ in range(rng.randint(lo, hi) - 1):
        out += rng.choice([" ", " ", " ", " ", "  ", "\t"]) + word(rng)
    return out


def case_variant(rng: random.Random, text: str) -> str:
    """Same §6.3 key (full case folding), different bytes."""
    return rng.choice([str.upper, str.lower, str.title, str.swapcase, lambda s: s])(text)


class Unit:
    """A top-level bullet unit: first-line text plus continuation lines (exact bytes)."""

    def __init__(self, first: str, rest: list[str] | None = None) -> None:
        self.first = first
        self.rest = rest or []

    def render(self, rng: random.Random, vary: bool = False) -> list[str]:
        marker = rng.choice("-*+")
        first = self.first
        spacing = " "
        trailing = ""
        rest = list(self.rest)
        if vary:
            first = case_variant(rng, first)
            spacing = rng.choice([" ", " ", "  ", "   "])
            trailing = rng.choice(["", "", "  ", "\t", " \t"])
            rest = [line + rng.choice(["", "", " ", "\t"]) if line.strip() else line
                    for line in rest]
            rest = [case_variant(rng, line) if line.strip() and rng.random() < 0.3 else line
                    for line in rest]
        return [f"{marker}{spacing}{first}{trailing}"] + rest


def nested_rest(rng: random.Random) -> list[str]:
    kind = rng.randrange(5)
    if kind == 0:
        return [f"  - {phrase(rng, 1, 4)}"]
    if kind == 1:
        return [f"  - {phrase(rng, 1, 3)}", f"    - {phrase(rng, 1, 3)}"]
    if kind == 2:
        return [f"  {phrase(rng, 2, 5)}", f"\t{phrase(rng, 1, 3)}"]
    if kind == 3:  # a loose item: interior blank line, then an indented paragraph
        return ["", f"  {phrase(rng, 2, 5)}"]
    return [f"  - {phrase(rng, 1, 3)}", "  ```", "  - inside an indented fence", "  ```"]


def reindent(rest: list[str]) -> list[str]:
    """A near duplicate: the same lines with different indentation (§6.3: not a duplicate)."""
    return [("  " + line) if line.startswith("  ") else line for line in rest]


def finish(lines: list[str]) -> str:
    """LF only, no trailing blank lines, no trailing whitespace on the last line (rows 1, 14)."""
    while lines and not lines[-1].strip():
        lines.pop()
    lines[-1] = lines[-1].rstrip(" \t")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- fixtures: inbox mode


def tombstone_file(rng: random.Random) -> tuple[str | None, list[tuple[str, Unit]]]:
    """do-not-use.md text and the tombstones an inbox can match: ('h2', title) or ('bullet', unit)."""
    shape = rng.randrange(6)
    if shape == 0:
        return None, []  # no do-not-use.md at all
    lines = ["# Do Not Use / Tombstones", "", "Tombstones are newest first.", ""]
    tombs: list[tuple[str, Unit]] = []
    for _ in range(rng.randint(1, 6)):
        if shape in (1, 3, 4, 5) and rng.random() < 0.6:
            title = phrase(rng, 1, 4)
            head = rng.choice(["Tombstone: ", "TOMBSTONE: ", "tombstone:", "Tombstone:   "])
            lines += [f"## {head}{title}",
                      f"Do not reintroduce unless the user explicitly reverses this. Reason: "
                      f"{phrase(rng)}. Date: 2026-03-0{rng.randint(1, 6)}.", ""]
            tombs.append(("h2", Unit(title)))
        if shape in (2, 3, 4, 5) and rng.random() < 0.6:
            unit = Unit(phrase(rng, 1, 4), nested_rest(rng) if rng.random() < 0.3 else [])
            if rng.random() < 0.5:
                lines += ["## Rejected paths"]
            lines += unit.render(rng) + [""]
            tombs.append(("bullet", unit))
    if rng.random() < 0.1:
        lines += ["## Tombstone:", "An empty title is ignored (§8).", ""]
    if not tombs:
        unit = Unit(phrase(rng, 1, 3))
        lines += unit.render(rng)
        tombs.append(("bullet", unit))
    return finish(lines), tombs


def inbox_file(rng: random.Random, tombs: list[tuple[str, Unit]], blocks: int,
               removable: bool, unterminated: bool = False) -> str:
    lines = ["# Memory Inbox", "", "Entries are newest first.", ""]
    seen: list[Unit] = []
    for i in range(blocks):
        r = rng.random()
        block: list[str]
        if r < 0.07:
            block = [f"## 2026-03-0{rng.randint(1, 7)}"]
        elif r < 0.10:
            block = [f"Note {phrase(rng)}"]
        elif r < 0.13:
            fence = rng.choice(["```", "~~~"])
            block = ["", fence + rng.choice(["", "python"]) if fence == "```" else fence,
                     "- not an item", "* nor this", phrase(rng), fence, ""]
        elif r < 0.15:
            block = [f"1. ordered {phrase(rng)}", f"-{word(rng)}"]
        elif r < 0.33 and seen and removable:
            block = rng.choice(seen).render(rng, vary=True)  # exact duplicate
        elif r < 0.43 and tombs and removable:
            kind, unit = rng.choice(tombs)
            block = unit.render(rng, vary=True)  # exact tombstone match
        elif r < 0.47 and tombs:
            kind, unit = rng.choice(tombs)  # near misses: candidates
            if kind == "h2" or not unit.rest:
                near = Unit(unit.first + " for sessions") if rng.random() < 0.5 else \
                    Unit(unit.first, [f"  - {phrase(rng, 1, 2)}"])
            else:
                near = Unit(unit.first, reindent(unit.rest))
            block = near.render(rng)
        elif r < 0.52 and seen:
            base = rng.choice(seen)  # near duplicates: different indentation, or words
            near = Unit(base.first, reindent(base.rest)) if base.rest and "" not in base.rest \
                else Unit(base.first + " " + word(rng), base.rest)
            block = near.render(rng)
            seen.append(near)
        else:
            unit = Unit(phrase(rng), nested_rest(rng) if rng.random() < 0.35 else [])
            seen.append(unit)
            block = unit.render(rng)
        lines += block
        if rng.random() < 0.5 or block[0].startswith("## ") or block[-1] == "":
            lines.append("")
    if unterminated:
        # An unterminated last line that is an exact duplicate: something is always removed
        # (with nothing removed the peer re-renders the file anyway, row 14), and the removal
        # reaches the end of the file (§7.1).
        if not seen:
            seen.append(Unit(phrase(rng)))
            lines += seen[-1].render(rng)
        lines += rng.choice(seen).render(rng, vary=True)
        return finish(lines)[:-1]
    return finish(lines)


def changelog_file(rng: random.Random, with_today: bool) -> str:
    lines = ["# Memory Changelog", "", "Entries are newest first.", ""]
    days = ([7] if with_today else []) + sorted(rng.sample(range(1, 7), rng.randint(1, 3)),
                                                 reverse=True)
    for day in days:
        lines.append(f"## 2026-03-{day:02d}")
        lines += [f"- {phrase(rng)}" for _ in range(rng.randint(1, 3))]
        lines.append("")
    return finish(lines)


# ---------------------------------------------------------------------------- fixtures: target mode


def sized_bullets(rng: random.Random, title: str, target_tokens: int, dup_rate: float,
                  groups: bool) -> str:
    lines = [f"# {title}", "", "One bullet each.", ""]
    seen: list[Unit] = []
    while spec_tokens("\n".join(lines)) < target_tokens:
        if groups and rng.random() < 0.06:
            lines += ["", f"## {phrase(rng, 1, 3)}", ""]
        if seen and rng.random() < dup_rate:
            lines += rng.choice(seen).render(rng, vary=True)
        else:
            unit = Unit(phrase(rng, 3, 9), nested_rest(rng) if rng.random() < 0.2 else [])
            seen.append(unit)
            lines += unit.render(rng)
        if rng.random() < 0.3:
            lines.append("")
    text = finish(lines)
    return text[:-1] if rng.random() < 0.1 else text  # sometimes an unterminated last line


def words_of_tokens(rng: random.Random, n: int) -> str:
    """Plain ASCII words, n tokens exactly, wrapped at about 12 words a line."""
    pool = [w for w in ASCII if re.fullmatch(r"[A-Za-z]+", w)]
    out, line = [], []
    for _ in range(n):
        line.append(rng.choice(pool))
        if len(line) == 12:
            out.append(" ".join(line))
            line = []
    if line:
        out.append(" ".join(line))
    return "\n".join(out)


def decision_section(rng: random.Random, date: str, size: int, decision: bool = True) -> list[str]:
    """One H2 entry of about `size` tokens (a decision unless told otherwise)."""
    head = f"## {date} - {phrase(rng, 1, 3).replace(chr(9), ' ')}"
    body = ["Decision:" if decision else "Context:"]
    if decision and rng.random() < 0.1:
        body = ["  Decision:"]
    used = spec_tokens(head) + spec_tokens("\n".join(body))
    reason = rng.random() < 0.4
    text_tokens = max(1, size - used - (2 if reason else 0))
    words = words_of_tokens(rng, text_tokens)
    if reason:
        half = words.split("\n")
        cut = max(1, len(half) // 2)
        body += half[:cut] + ["Reason:"] + (half[cut:] or ["because"])
    else:
        body += words.split("\n")
    if rng.random() < 0.2:
        body.append(f"- {phrase(rng, 1, 3)}")
    if rng.random() < 0.15:
        body += ["### Notes", phrase(rng, 2, 5)]
    return [head] + body


def dates_desc(count: int, start: tuple[int, int] = (2026, 3), first_day: int = 6) -> list[str]:
    """`count` distinct dates, newest first, ending before the pinned today."""
    out, (year, month), day = [], start, first_day
    while len(out) < count:
        out.append(f"{year:04d}-{month:02d}-{day:02d}")
        day -= 1
        if day == 0:
            month -= 1
            if month == 0:
                year, month = year - 1, 12
            day = 28
    return out


def decisions_file(rng: random.Random, sizes: list[int], decision_flags: list[bool] | None = None,
                   preamble: bool = True) -> str:
    lines = ["# Decisions", "", "Entries are newest first.", ""] if preamble else []
    flags = decision_flags or [True] * len(sizes)
    for date, size, flag in zip(dates_desc(len(sizes)), sizes, flags):
        lines += decision_section(rng, date, size, flag) + [""] * rng.choice([1, 1, 2])
    text = finish(lines)
    return text[:-1] if rng.random() < 0.1 else text  # sometimes an unterminated last line


def changelog_target_file(rng: random.Random, sizes: list[int], with_today: bool) -> str:
    lines = ["# Memory Changelog", "", "Entries are newest first.", ""]
    dates = ([TODAY] if with_today else []) + dates_desc(len(sizes) - (1 if with_today else 0))
    for date, size in zip(dates, sizes):
        lines.append(f"## {date}")
        remaining = size - spec_tokens(f"## {date}")
        while remaining > 0:
            n = min(remaining - 1, rng.randint(6, 20)) if remaining > 1 else 0
            bullet = "- " + (words_of_tokens(rng, n).replace("\n", " ") if n > 0 else "")
            if n == 0:
                bullet = "- done"
                n = 1
            lines.append(bullet)
            remaining -= n + 1
        lines.append("")
    text = finish(lines)
    return text[:-1] if rng.random() < 0.1 else text  # sometimes an unterminated last line


def existing_archive(target: str, rng: random.Random, legacy_wrapper: bool) -> str:
    """A same-day archive file written earlier: older entries, optionally in the peer's own
    layout (title, `## <date> - From <target>` wrapper with `Reason:`)."""
    lines = [f"# Archived Memory: {target}", ""]
    if legacy_wrapper:
        lines += [f"## {TODAY} - From {target}", "Reason:",
                  "Active memory exceeded its context budget; older complete entries were moved.",
                  ""]
    for date in dates_desc(rng.randint(1, 3), start=(2025, 11), first_day=20):
        if target == "changelog.md":
            lines += [f"## {date}", f"- {phrase(rng)}", ""]
        else:
            lines += decision_section(rng, date, rng.randint(20, 50)) + [""]
    return finish(lines)


# ---------------------------------------------------------------------------- running both sides


class Sides:
    def __init__(self, memkit: str, peer: Path) -> None:
        self.memkit = memkit
        self.peer_wrapper = str(peer / "bin" / "memory-custodian")
        self.env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8",
                        PYTHONDONTWRITEBYTECODE="1")
        self.faketime = None if os.environ.get("MEMKIT_DIFF_NO_FAKETIME") else shutil.which("faketime")

    def peer(self, root: Path, *args: str) -> tuple[int, str, str]:
        command = [self.peer_wrapper, *args, "--project-root", str(root)]
        if self.faketime:
            command = [self.faketime, PEER_NOW, *command]
        done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                              env=self.env, timeout=120)
        return done.returncode, done.stdout, done.stderr

    def mk(self, root: Path, *args: str) -> tuple[int, dict]:
        command = [self.memkit, "custodian", *args, "--project-root", str(root),
                   "--format", "json", "--now", MEMKIT_NOW]
        done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                              env=self.env, timeout=120)
        try:
            reply = json.loads(done.stdout)
        except json.JSONDecodeError as exc:
            raise Failure(f"memkit {' '.join(args)}: not JSON ({exc}); exit {done.returncode}, "
                          f"stdout {done.stdout[:300]!r}, stderr {done.stderr[:300]!r}")
        return done.returncode, reply


def snapshot(root: Path) -> dict[str, bytes]:
    memory = root / MEMORY
    return {p.relative_to(memory).as_posix(): p.read_bytes()
            for p in sorted(memory.rglob("*")) if p.is_file()}


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {p for p in set(before) | set(after) if before.get(p) != after.get(p)}


def normalise(text: str) -> str:
    """§19 row 1: blank lines removed, trailing whitespace at EOF stripped."""
    return "\n".join(line for line in text.split("\n") if line.strip(" \t")).rstrip()


def date_bullets(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    heading = None
    for line in text.split("\n"):
        if line.startswith("## "):
            heading = line[3:].strip()
        elif heading is not None and line.startswith("- "):
            counts[heading] = counts.get(heading, 0) + 1
    return counts


def bullet_delta(before: bytes | None, after: bytes | None) -> dict[str, int]:
    b = date_bullets(before.decode("utf-8")) if before is not None else {}
    a = date_bullets(after.decode("utf-8")) if after is not None else {}
    return {k: a.get(k, 0) - b.get(k, 0) for k in set(a) | set(b) if a.get(k, 0) != b.get(k, 0)}


def h2_sections(text: str, target: str) -> list[tuple[str, ...]]:
    """The archive's H2 sections as (heading, non-blank lines...), wrappers left out (row 2)."""
    out: list[list[str]] = []
    for line in text.split("\n"):
        if line.startswith("## "):
            out.append([line.rstrip()])
        elif out and line.strip(" \t"):
            out[-1].append(line.rstrip())
    wrapper = re.compile(r"^## .* - From " + re.escape(target) + r"$")
    return [tuple(s) for s in out if not wrapper.match(s[0])]


class Case:
    def __init__(self, name: str, family: str) -> None:
        self.name = name
        self.family = family
        self.files: dict[str, str] = {}
        self.remove: list[str] = []
        self.target: str | None = None
        self.mode = "inbox"           # inbox | target | rejected | missing
        self.gate_check = False       # decisions: try --apply without --archive-oldest first
        self.archive_oldest = True
        self.differences: list[str] = []
        self.summary = ""

    def diff(self, what: str, peer, memkit) -> None:
        self.differences.append(f"{what}: peer {peer!r}, memkit {memkit!r}")


# ---------------------------------------------------------------------------- peer text parsing


def peer_int(stdout: str, label: str) -> int | None:
    m = re.search(r"^" + re.escape(label) + r" (\d+)", stdout, re.M)
    return int(m.group(1)) if m else None


def peer_candidates(stdout: str) -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, list[str]]] = []
    started = False
    for line in stdout.split("\n"):
        if line.startswith("Candidates requiring Agent review:"):
            started = True
            continue
        if not started:
            continue
        if line.startswith("No semantic destinations"):
            break
        m = re.match(r"^- \[\d+\] (.*)$", line)
        if m:
            out.append((m.group(1), []))
        elif line.startswith("      ") and out:
            out[-1][1].append(line[6:])
    result = []
    for label, rest in out:
        while rest and not rest[-1].strip(" \t"):
            rest.pop()  # the unit's trailing blank lines: the gap, in memkit's model (§6.1)
        result.append((label, tuple(rest)))
    return result


def peer_target_report(stdout: str) -> dict:
    report: dict = {}
    m = re.search(r"^Current tokens: (\d+)/(\d+) max", stdout, re.M)
    if m:
        report["tokens"], report["limit"] = int(m.group(1)), int(m.group(2))
    longs = []
    m = re.search(r"^Long decision entries: (\d+) over", stdout, re.M)
    if m:
        report["long_count"] = int(m.group(1))
        for line in stdout[m.end():].split("\n")[1:]:
            if not line.startswith("- ") or line.startswith("- ... and"):
                break
            title, tokens = line[2:].rsplit(": ", 1)
            longs.append((title, int(tokens.split()[0])))
    else:
        report["long_count"] = 0
    report["long"] = longs
    if re.search(r"^Action: archive oldest", stdout, re.M):
        report["action"] = "archive"
        report["keep"] = peer_int(stdout, "Keep entries:")
        report["archive"] = peer_int(stdout, "Archive entries:")
        m = re.search(r"^Archive path: (\S+)", stdout, re.M)
        report["archive_path"] = m.group(1) if m else None
        m = re.search(r"^Projected tokens: (\d+)/", stdout, re.M)
        report["projected"] = int(m.group(1)) if m else None
        m = re.search(r"^Kept long entries: (\d+)", stdout, re.M)
        report["kept_long"] = int(m.group(1)) if m else 0
    elif re.search(r"^Action: remove (\d+) exact duplicate", stdout, re.M):
        report["action"] = "dedupe"
        report["removed"] = int(re.search(r"^Action: remove (\d+)", stdout, re.M).group(1))
        m = re.search(r"^Projected tokens after dedupe: (\d+)/", stdout, re.M)
        report["projected"] = int(m.group(1)) if m else None
        report["remains_over"] = "Manual review required" in stdout or "remains over budget" in stdout
    elif "Manual review required" in stdout:
        report["action"] = "manual-review"
    elif re.search(r"^Status: OK", stdout, re.M):
        report["action"] = "none"
    else:
        report["action"] = "?"
    report["not_applied"] = bool(re.search(r"^Not applied:", stdout, re.M))
    return report


# ---------------------------------------------------------------------------- one case


def copy_fixture(template: Path, root: Path, case: Case) -> None:
    shutil.copytree(template, root, symlinks=True)
    memory = root / MEMORY
    for rel in case.remove:
        path = memory / rel
        if path.exists():
            path.unlink()
    for rel, text in case.files.items():
        path = memory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def memkit_dry(sides: Sides, root: Path, args: list[str], case: Case) -> tuple[int, dict]:
    before = snapshot(root)
    code, reply = sides.mk(root, "compact", *args)
    if snapshot(root) != before:
        case.differences.append(f"memkit dry run wrote {sorted(changed(before, snapshot(root)))}")
    return code, reply


def memkit_apply(sides: Sides, root: Path, args: list[str], plan_id: str | None,
                 extra: list[str], case: Case) -> tuple[int, dict, set[str]]:
    before = snapshot(root)
    confirm = ["--confirm-plan", plan_id] if plan_id else []
    code, reply = sides.mk(root, "compact", *args, "--apply", *confirm, *extra)
    wrote = changed(before, snapshot(root))
    listed = set((reply.get("data") or {}).get("written") or [])
    if wrote != listed:
        case.differences.append(f"memkit apply: data.written {sorted(listed)} but the files that "
                                f"changed are {sorted(wrote)}")
    return code, reply, wrote


def compare_changelog(case: Case, sides: Sides, pb: dict, pa: dict, mb: dict, ma: dict,
                      expect_line: bool) -> None:
    p = bullet_delta(pb.get("changelog.md"), pa.get("changelog.md"))
    m = bullet_delta(mb.get("changelog.md"), ma.get("changelog.md"))
    if "changelog.md" not in pb:
        if p or m:
            case.diff("changelog bullets added with no changelog.md", p, m)
        return
    want = {TODAY: 1} if expect_line else {}
    if sides.faketime:
        if p != want or m != want:
            case.diff(f"changelog bullets added per date (want {want})", p, m)
    else:  # loose: the peer's date is the real one
        if sorted(p.values()) != sorted(want.values()) or m != want:
            case.diff(f"changelog bullets added (want {want}, peer dates loose)", p, m)


def run_inbox(case: Case, sides: Sides, proot: Path, mroot: Path) -> None:
    pb, mb = snapshot(proot), snapshot(mroot)
    pcode, pout, perr = sides.peer(proot, "compact", "--apply")
    pa = snapshot(proot)
    mcode, dry = memkit_dry(sides, mroot, [], case)
    data = dry.get("data") or {}
    if pcode != 0 or mcode != 0:
        case.diff("exit code", (pcode, perr.strip()[-300:]), (mcode, dry.get("findings")))
        return
    p_counts = (peer_int(pout, "Inbox items:"), peer_int(pout, "Exact duplicates removable:"),
                peer_int(pout, "Exact tombstone matches removable:"),
                peer_int(pout, "Candidates requiring Agent review:"))
    m_counts = (data.get("inbox_items"), data.get("duplicates"), data.get("tombstone_matches"),
                len(data.get("candidates") or []))
    if p_counts != m_counts:
        case.diff("counts (items, duplicates, tombstone matches, candidates)", p_counts, m_counts)
    if data.get("empty_items"):
        case.differences.append(f"fixture produced {data['empty_items']} empty items (row 21)")
    p_cands = peer_candidates(pout)
    m_cands = [(c["label"], tuple(c["continuation"])) for c in data.get("candidates") or []]
    if p_cands != m_cands:
        for i, (a, b) in enumerate(zip(p_cands, m_cands)):
            if a != b:
                case.diff(f"candidate {i + 1}", a, b)
                break
        else:
            case.diff("candidate count", len(p_cands), len(m_cands))
    removed = (data.get("duplicates") or 0) + (data.get("tombstone_matches") or 0)
    plan = data.get("plan")
    if bool(plan) != (removed > 0):
        case.differences.append(f"memkit: plan {bool(plan)} with {removed} removals (§8)")
    if plan:
        mcode, applied, _ = memkit_apply(sides, mroot, [], plan["plan_id"], [], case)
        if mcode != 0 or not (applied.get("data") or {}).get("applied"):
            case.diff("apply", pcode, (mcode, applied.get("findings")))
    else:
        mcode, applied, _ = memkit_apply(sides, mroot, [], None, [], case)
        if mcode != 0:
            case.diff("apply with nothing to apply: exit", 0, (mcode, applied.get("findings")))
    ma = snapshot(mroot)
    pc, mc = changed(pb, pa), changed(mb, ma)
    if pc != mc:
        case.diff("files changed by apply", sorted(pc), sorted(mc))
    p_inbox, m_inbox = pa["inbox.md"].decode(), ma["inbox.md"].decode()
    if normalise(p_inbox) != normalise(m_inbox):
        case.diff("inbox.md after apply (§19 row 1 normalised)",
                  first_difference(normalise(p_inbox), normalise(m_inbox)), "")
    compare_changelog(case, sides, pb, pa, mb, ma, removed > 0)
    case.summary = (f"items {m_counts[0]}, dup {m_counts[1]}, tomb {m_counts[2]}, "
                    f"cand {m_counts[3]}")


def first_difference(a: str, b: str) -> str:
    al, bl = a.split("\n"), b.split("\n")
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f"line {i + 1}: peer {x!r} vs memkit {y!r}"
    return f"peer has {len(al)} lines, memkit {len(bl)}; extra: {(al[len(bl):] or bl[len(al):])[:3]!r}"


def memkit_report(data: dict) -> dict:
    report = {"tokens": data.get("tokens"), "limit": data.get("limit"),
              "long": [(d["title"], d["tokens"]) for d in data.get("long_decisions") or []],
              "action": data.get("action")}
    if report["action"] == "archive":
        report.update(keep=data.get("keep_entries"), archive=data.get("archive_entries"),
                      archive_path=data.get("archive_path"), projected=data.get("projected_tokens"),
                      kept_long=len(data.get("kept_long_decisions") or []))
    if report["action"] == "dedupe":
        report.update(removed=data.get("duplicates_removed"), projected=data.get("projected_tokens"))
    return report


def compare_archives(case: Case, sides: Sides, pb: dict, pa: dict, mb: dict, ma: dict) -> None:
    target = case.target
    stem = target[:-3].replace("/", "-")
    pattern = re.compile(r"^archive/" + re.escape(stem) + r"-\d{4}-\d{2}-\d{2}\.md$")
    p_files = sorted(p for p in changed(pb, pa) if pattern.match(p))
    m_files = sorted(p for p in changed(mb, ma) if pattern.match(p))
    loose = (lambda s: [DATE_RE.sub("<date>", x) for x in s]) if not sides.faketime else list
    if loose(p_files) != loose(m_files) or len(m_files) > 1:
        case.diff("archive files written", p_files, m_files)
        return
    if not m_files:
        return
    pf, mf = p_files[0], m_files[0]
    p_old = h2_sections(pb[pf].decode(), target) if pf in pb else []
    m_old = h2_sections(mb[mf].decode(), target) if mf in mb else []
    p_new_all = h2_sections(pa[pf].decode(), target)
    m_new_all = h2_sections(ma[mf].decode(), target)
    # Row 2: the peer appends a batch after what was there; memkit inserts it first.
    if p_new_all[:len(p_old)] != p_old:
        case.diff("peer archive no longer starts with its earlier sections", len(p_old), "")
        return
    if len(m_old) > len(m_new_all) or m_new_all[len(m_new_all) - len(m_old):] != m_old:
        case.diff("memkit archive no longer ends with its earlier sections", "",
                  [s[0] for s in m_new_all])
        return
    p_new = p_new_all[len(p_old):]
    m_new = m_new_all[:len(m_new_all) - len(m_old)]
    if p_new != m_new:
        case.diff("archived H2 sections (headings)", [s[0] for s in p_new], [s[0] for s in m_new])
        if [s[0] for s in p_new] == [s[0] for s in m_new]:
            for a, b in zip(p_new, m_new):
                if a != b:
                    case.diff(f"archived section {a[0]!r} lines", a[1:], b[1:])
                    break


def run_target(case: Case, sides: Sides, proot: Path, mroot: Path) -> None:
    target = case.target
    args = ["--target", target]
    pb, mb = snapshot(proot), snapshot(mroot)
    mcode, dry = memkit_dry(sides, mroot, args, case)
    data = dry.get("data") or {}
    m_report = memkit_report(data)
    plan = data.get("plan")
    is_decisions = target == "decisions.md"

    if case.gate_check:  # --apply without --archive-oldest: both refuse, nothing written
        pcode, pout, perr = sides.peer(proot, "compact", "--target", target, "--apply")
        if snapshot(proot) != pb:
            case.diff("peer wrote without --archive-oldest", sorted(changed(pb, snapshot(proot))), "")
        before = snapshot(mroot)
        gcode, greply = sides.mk(mroot, "compact", *args, "--apply", "--confirm-plan",
                                 (plan or {}).get("plan_id", "0" * 16))
        codes = [f["code"] for f in greply.get("findings") or []]
        if snapshot(mroot) != before:
            case.diff("memkit wrote without --archive-oldest", "", sorted(changed(before, snapshot(mroot))))
        p_refused = pcode == 1 and peer_target_report(pout)["not_applied"]
        m_refused = gcode == 1 and any(c.startswith("MK-GATE-") for c in codes)
        if p_refused != m_refused or pcode != gcode:
            case.diff("--apply without --archive-oldest (exit, refused)", (pcode, p_refused),
                      (gcode, codes))

    extra = ["--archive-oldest"] if (is_decisions and case.archive_oldest) else []
    pcode, pout, perr = sides.peer(proot, "compact", "--target", target, "--apply", *extra)
    pa = snapshot(proot)
    p_report = peer_target_report(pout)
    if pcode == 2 or "tokens" not in p_report:
        case.diff("peer refused or failed", (pcode, perr.strip()[-300:]), (mcode, dry.get("findings")))
        return

    m_codes = [f["code"] for f in dry.get("findings") or []]
    if (m_report["action"] == "none" and "MK-REVIEW-001" in m_codes
            and (m_report["tokens"] or 0) <= (m_report["limit"] or 0)
            and p_report["action"] == "manual-review"):
        # §9 "within budget, long decisions": memkit reports action "none" with the
        # MK-REVIEW-001 manual-review finding; the peer prints "Manual review required".
        m_report["action"] = "manual-review"
    # The report: compare only the fields the peer prints for this action.
    for key in ("tokens", "limit", "long", "action", "keep", "archive", "archive_path",
                "projected", "kept_long", "removed"):
        if key not in p_report and key not in m_report:
            continue
        p, m = p_report.get(key), m_report.get(key)
        if key == "long" and p_report.get("long_count", 0) > 10:
            m = m[:10]
        if key == "archive_path" and not sides.faketime and p and m:
            p, m = DATE_RE.sub("<date>", p), DATE_RE.sub("<date>", m)
        if p != m:
            case.diff(key, p, m)
    if p_report.get("long_count") != len(m_report["long"]):
        case.diff("long decision count", p_report.get("long_count"), len(m_report["long"]))
    if p_report["action"] == "dedupe":
        m_over = (m_report.get("projected") or 0) > (m_report.get("limit") or 0)
        if p_report["remains_over"] != m_over or m_over != ("MK-REVIEW-001" in m_codes):
            case.diff("remains over budget after dedupe", p_report["remains_over"],
                      (m_over, m_codes))
    if p_report["action"] == "manual-review" and "MK-REVIEW-001" not in m_codes:
        case.diff("manual review finding", "Manual review required", m_codes)

    # Apply on memkit's side.
    plan_id = plan["plan_id"] if plan else None
    if bool(plan) != (m_report["action"] in ("dedupe", "archive")):
        case.differences.append(f"memkit: action {m_report['action']} with plan {bool(plan)}")
    acode, applied, _ = memkit_apply(sides, mroot, args, plan_id, extra, case)
    ma = snapshot(mroot)
    a_codes = [f["code"] for f in applied.get("findings") or []]
    p_gate = pcode == 1 and p_report["not_applied"]
    m_gate = acode == 1 and any(c.startswith("MK-GATE-") for c in a_codes)
    if (pcode, p_gate) != (acode, m_gate):
        case.diff("apply exit (gate refusal)", (pcode, p_gate), (acode, a_codes))
    pc, mc = changed(pb, pa), changed(mb, ma)
    if pc != mc and not (not sides.faketime and
                         sorted(DATE_RE.sub("<d>", x) for x in pc) ==
                         sorted(DATE_RE.sub("<d>", x) for x in mc)):
        case.diff("files changed by apply", sorted(pc), sorted(mc))
    if target in pa and target in ma and normalise(pa[target].decode()) != normalise(ma[target].decode()):
        case.diff(f"{target} after apply (§19 row 1 normalised)",
                  first_difference(normalise(pa[target].decode()), normalise(ma[target].decode())), "")
    if target != "changelog.md":
        compare_changelog(case, sides, pb, pa, mb, ma, bool(pc & {target}))
    compare_archives(case, sides, pb, pa, mb, ma)
    case.summary = (f"{target}: {m_report['tokens']}/{m_report['limit']} {m_report['action']}"
                    + (f" keep {m_report.get('keep')} archive {m_report.get('archive')}"
                       if m_report["action"] == "archive" else "")
                    + (f" removed {m_report.get('removed')}" if m_report["action"] == "dedupe" else "")
                    + (f", exit {pcode}" if pcode else ""))


def run_refusal(case: Case, sides: Sides, proot: Path, mroot: Path) -> None:
    pb, mb = snapshot(proot), snapshot(mroot)
    pcode, pout, perr = sides.peer(proot, "compact", "--target", case.target)
    mcode, reply = sides.mk(mroot, "compact", "--target", case.target)
    codes = [f["code"] for f in reply.get("findings") or []]
    want_peer = 2 if case.mode == "rejected" else 1
    want_code = "MK-TARGET-001" if case.mode == "rejected" else "MK-LAYOUT-002"
    if pcode != want_peer or mcode != 2 or want_code not in codes:
        case.diff(f"refusal (peer exit {want_peer}; memkit exit 2 with {want_code})",
                  (pcode, (perr or pout).strip()[-200:]), (mcode, codes))
    if snapshot(proot) != pb or snapshot(mroot) != mb:
        case.differences.append("a refused target wrote files")
    case.summary = f"{case.target!r} refused"


def run_case(case: Case, sides: Sides, template: Path, keep: bool) -> Case:
    work = Path(tempfile.mkdtemp(prefix=f"memkit-compact-diff-{case.name}-"))
    proot, mroot = work / "peer", work / "memkit"
    try:
        copy_fixture(template, proot, case)
        copy_fixture(template, mroot, case)
        if case.mode == "inbox":
            run_inbox(case, sides, proot, mroot)
        elif case.mode == "target":
            run_target(case, sides, proot, mroot)
        else:
            run_refusal(case, sides, proot, mroot)
    except Failure as exc:
        case.differences.append(str(exc))
    except Exception as exc:  # a harness problem is reported as a difference, not a crash
        case.differences.append(f"harness error: {type(exc).__name__}: {exc}")
    if case.differences or keep:
        case.summary += f" [kept: {work}]"
    else:
        shutil.rmtree(work, ignore_errors=True)
    return case


# ---------------------------------------------------------------------------- the case list


def inbox_cases(rng: random.Random, n: int) -> list[Case]:
    out = []
    for i in range(n):
        c = Case(f"inbox-{i:03d}", "inbox")
        dnu, tombs = tombstone_file(rng)
        if dnu is None:
            c.remove.append("do-not-use.md")
        else:
            c.files["do-not-use.md"] = dnu
        removable = i % 10 != 9  # every tenth case has nothing to remove
        c.files["inbox.md"] = inbox_file(rng, tombs, rng.choice([3, 8, 15, 30, 60]), removable,
                                         unterminated=removable and i % 7 == 3)
        if i % 2:
            c.remove.append("changelog.md")
        else:
            c.files["changelog.md"] = changelog_file(rng, with_today=i % 4 == 0)
            if i % 6 == 4:
                c.files["changelog.md"] = c.files["changelog.md"][:-1]  # unterminated last line
        out.append(c)
    return out


def dedupe_cases(rng: random.Random, n: int) -> list[Case]:
    out = []
    for i in range(n):
        target = "constraints.md" if i % 2 == 0 else "preferences.md"
        budget = BUDGETS[target]
        kind = i % 5
        c = Case(f"dedupe-{i:03d}-{target[:-3]}", "dedupe")
        c.mode, c.target = "target", target
        if kind == 0:    # over budget, fits after dedupe
            text = sized_bullets(rng, target[:-3].title(), int(budget * 1.1), 0.3, i % 3 == 0)
        elif kind == 1:  # over budget, still over after dedupe
            text = sized_bullets(rng, target[:-3].title(), int(budget * 2.2), 0.12, i % 3 == 0)
        elif kind == 2:  # over budget, no duplicates: manual review
            text = sized_bullets(rng, target[:-3].title(), int(budget * 1.3), 0.0, i % 3 == 0)
        elif kind == 3:  # under budget with duplicates: nothing to do
            text = sized_bullets(rng, target[:-3].title(), int(budget * 0.6), 0.3, False)
        else:            # around the budget, heavy duplication
            text = sized_bullets(rng, target[:-3].title(), budget + rng.randint(-5, 40), 0.5, True)
        c.files[target] = text
        if i % 3 == 2:
            c.remove.append("changelog.md")
        out.append(c)
    return out


def decisions_cases(rng: random.Random, n: int) -> list[Case]:
    out = []
    for i in range(n):
        c = Case(f"decisions-{i:03d}", "decisions")
        c.mode, c.target = "target", "decisions.md"
        kind = i % 10
        if kind in (0, 1, 2, 3):  # over budget, short entries: archive
            count = rng.randint(3, 20)
            sizes = [rng.randint(30, 110) for _ in range(count)]
            while sum(sizes) <= 820:
                sizes.append(rng.randint(30, 110))
            flags = [rng.random() > 0.15 for _ in sizes]
            c.files["decisions.md"] = decisions_file(rng, sizes, flags, preamble=kind != 3)
            c.gate_check = kind == 1
        elif kind == 4:  # a long decision among the kept ones: MK-GATE-001 on both
            sizes = [rng.randint(40, 90) for _ in range(12)]
            sizes[rng.randint(0, 3)] = rng.randint(125, 200)
            c.files["decisions.md"] = decisions_file(rng, sizes)
        elif kind == 5:  # long decisions only among the archived ones: archival allowed
            sizes = []  # newest short entries fill 680-790 tokens, so no long one fits beside them
            while sum(sizes) < 680:
                sizes.append(min(rng.randint(40, 90), 790 - sum(sizes)))
            sizes += [rng.randint(125, 250) for _ in range(3)]
            c.files["decisions.md"] = decisions_file(rng, sizes)
        elif kind == 6:  # the newest entry alone is over budget: no keep fits
            sizes = [rng.randint(820, 900)] + [rng.randint(20, 60) for _ in range(rng.randint(1, 4))]
            c.files["decisions.md"] = decisions_file(rng, sizes, [False] * len(sizes))
        elif kind == 7:  # one section over budget: fewer than two sections
            c.files["decisions.md"] = decisions_file(rng, [rng.randint(810, 900)], [False])
        elif kind == 8:  # under budget with long decisions: manual review
            sizes = [rng.randint(121, 200), rng.randint(20, 60), rng.randint(121, 160)]
            c.files["decisions.md"] = decisions_file(rng, sizes)
        else:            # under budget, near the limit or not: nothing to do
            sizes = [rng.randint(30, 100) for _ in range(rng.randint(2, 8))]
            c.files["decisions.md"] = decisions_file(rng, sizes)
        if i % 4 == 1:
            c.remove.append("changelog.md")
        if i % 5 == 2:
            c.remove.append("archive/README.md")
        if i % 7 == 3:
            c.files[f"archive/decisions-{TODAY}.md"] = existing_archive("decisions.md", rng, i % 2 == 1)
        out.append(c)
    return out


def changelog_cases(rng: random.Random, n: int) -> list[Case]:
    out = []
    for i in range(n):
        c = Case(f"changelog-{i:03d}", "changelog")
        c.mode, c.target = "target", "changelog.md"
        kind = i % 5
        if kind == 4:  # under budget
            sizes = [rng.randint(30, 120) for _ in range(rng.randint(2, 5))]
        elif kind == 3:  # the newest section alone is over budget
            sizes = [rng.randint(810, 850), rng.randint(20, 40)]
        else:
            sizes = [rng.randint(40, 200) for _ in range(rng.randint(3, 15))]
            while sum(sizes) <= 830:
                sizes.append(rng.randint(40, 200))
        c.files["changelog.md"] = changelog_target_file(rng, sizes, with_today=i % 2 == 0)
        if i % 4 == 2:
            c.remove.append("archive/README.md")
        if i % 3 == 1:
            c.files[f"archive/changelog-{TODAY}.md"] = existing_archive("changelog.md", rng, i % 2 == 0)
        out.append(c)
    return out


def manual_cases(rng: random.Random, n: int) -> list[Case]:
    specs = [("brief.md", 500), ("do-not-use.md", 400), ("rules/alpha.md", 400),
             ("profiles/beta.md", 500), ("areas/gamma.md", 600), (" rules\\alpha.md ", 400),
             ("areas/gamma.md", -1)]
    out = []
    for i in range(n):
        target, budget = specs[i % len(specs)]
        rel = target.strip().replace("\\", "/")
        c = Case(f"manual-{i:03d}-{rel.replace('/', '-')[:-3]}", "manual")
        c.mode, c.target = "target", target
        if budget == -1:  # under budget, but long decisions: manual review on both
            c.files[rel] = decisions_file(rng, [rng.randint(125, 180), rng.randint(20, 60)])
        elif rel == "do-not-use.md":
            lines = ["# Do Not Use / Tombstones", ""]
            while spec_tokens("\n".join(lines)) <= budget + 30:
                lines += [f"## Tombstone: {phrase(rng, 1, 4)}", f"Reason: {phrase(rng, 4, 9)}", ""]
            c.files[rel] = finish(lines)
        elif rel == "brief.md":
            c.files[rel] = finish(["# Brief", ""] + words_of_tokens(rng, budget + rng.randint(1, 200)).split("\n"))
        else:
            c.files[rel] = sized_bullets(rng, rel.split("/")[-1][:-3].title(),
                                         budget + rng.randint(1, 200), 0.2, True)
        if i % 2:
            c.remove.append("changelog.md")
        out.append(c)
    return out


REJECTED = ["manifest.md", "inbox.md", "archive/README.md", f"archive/decisions-{TODAY}.md",
            "/etc/decisions.md", "../memory/decisions.md", "rules/../decisions.md", "notes.md",
            "decisions.txt", "decisions", "C:/decisions.md", "README.md", ".md",
            "./decisions.md"]
MISSING = ["rules/absent.md", "profiles/absent.md", "areas/absent.md"]


def refusal_cases() -> list[Case]:
    out = []
    for i, target in enumerate(REJECTED):
        c = Case(f"rejected-{i:02d}", "rejected")
        c.mode, c.target = "rejected", target
        out.append(c)
    for i, target in enumerate(MISSING):
        c = Case(f"missing-{i:02d}", "missing")
        c.mode, c.target = "missing", target
        out.append(c)
    return out


def vector_cases() -> list[Case]:
    """compaction.md §20's vectors whose shapes both programs read alike."""
    out = []
    c = Case("vector-inbox-dedupe", "vector")
    c.files["inbox.md"] = "# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n"
    c.remove += ["changelog.md", "do-not-use.md"]
    out.append(c)
    c = Case("vector-tombstones", "vector")
    c.files["do-not-use.md"] = "# Do Not Use\n\n## Tombstone: Redis cache\nReason: x.\n\n- use MongoDB\n"
    c.files["inbox.md"] = ("# Memory Inbox\n\n- redis CACHE\n- Use mongodb\n"
                           "- Redis cache for sessions\n")
    out.append(c)
    x = "-" + " x" * 300
    for with_readme in (True, False):
        c = Case(f"vector-archive-changelog{'' if with_readme else '-no-readme'}", "vector")
        c.mode, c.target = "target", "changelog.md"
        c.files["changelog.md"] = (f"# Memory Changelog\n\n## 2026-03-07\n{x}\n\n## 2026-03-06\n{x}\n\n"
                                   f"## 2026-03-05\n{x}\n")
        if not with_readme:
            c.remove.append("archive/README.md")
        out.append(c)
    c = Case("vector-archive-run-at-eof", "vector")
    c.mode, c.target = "target", "changelog.md"
    c.files["changelog.md"] = "# D\n\n## c\n" + x + "\n\n## b\n" + x + "\n\n## a\n" + x + "\n"
    out.append(c)
    return out


def probe_cases(rng: random.Random) -> list[Case]:
    """Opt-in: shapes where the two programs differ and §19 does not say so (see README.md)."""
    out = []
    # §9 target normalisation: pathlib drops empty and `.` segments, so the peer accepts these;
    # memkit rejects them (MK-TARGET-001).
    for i, target in enumerate(["rules//alpha.md", "rules/./alpha.md"]):
        c = Case(f"probe-target-segments-{i}", "probe")
        c.mode, c.target = "rejected", target
        c.files["rules/alpha.md"] = sized_bullets(rng, "Alpha", 450, 0.0, False)
        out.append(c)
    # §5: README.md files have no budget in memkit; the peer budgets rules/README.md at 400.
    c = Case("probe-target-readme", "probe")
    c.mode, c.target = "rejected", "rules/README.md"
    out.append(c)
    # §8: the ` — tombstone:` heading form; the peer only knows a leading `Tombstone:`.
    c = Case("probe-emdash-tombstone", "probe")
    c.files["do-not-use.md"] = finish(["# Do Not Use", "", "## Redis — tombstone: Redis cache",
                                       "Reason: too slow.", ""])
    c.files["inbox.md"] = finish(["# Memory Inbox", "", "- Keep CRLF", "- redis CACHE"])
    out.append(c)
    # §2.5: bullets inside formal entry sections (`## MC-INBOX-…`) are not units for memkit;
    # the peer dedupes them.
    c = Case("probe-formal-section", "probe")
    c.files["inbox.md"] = finish(["# Memory Inbox", "", "## MC-INBOX-001 note", "- a", "- a", "",
                                  "## 2026-03-07", "- b", "- B"])
    c.remove.append("do-not-use.md")
    out.append(c)
    # §8: `tombstone:` is matched ASCII case-insensitively; the peer casefolds the heading, so
    # `TOMBſTONE:` (U+017F) is a tombstone only for the peer.
    c = Case("probe-casefolded-tombstone-prefix", "probe")
    c.files["do-not-use.md"] = finish(["# Do Not Use", "", "## TOMB\u017fTONE: Kafka", "x"])
    c.files["inbox.md"] = finish(["# Memory Inbox", "", "- kafka", "- Keep CRLF"])
    out.append(c)
    # Row 14 variant: trailing whitespace on the inbox's last line, nothing to remove.
    c = Case("probe-trailing-space-eof", "probe")
    c.files["inbox.md"] = "# Memory Inbox\n\n- Keep CRLF\n- Use tabs  \n"
    out.append(c)
    return out


def build_cases(total: int) -> list[Case]:
    rng = random.Random(SEED)
    refusals = refusal_cases() + vector_cases()
    rest = max(0, total - len(refusals))
    shares = [("inbox", 0.42), ("dedupe", 0.16), ("decisions", 0.22), ("changelog", 0.12),
              ("manual", 0.08)]
    counts = {name: int(rest * share) for name, share in shares}
    counts["inbox"] += rest - sum(counts.values())
    cases = (inbox_cases(random.Random(rng.random()), counts["inbox"])
             + dedupe_cases(random.Random(rng.random()), counts["dedupe"])
             + decisions_cases(random.Random(rng.random()), counts["decisions"])
             + changelog_cases(random.Random(rng.random()), counts["changelog"])
             + manual_cases(random.Random(rng.random()), counts["manual"]))
    return cases + (refusals if total >= len(refusals) else refusals[:total])


# ---------------------------------------------------------------------------- main


def make_template(sides: Sides) -> Path:
    template = Path(tempfile.mkdtemp(prefix="memkit-compact-diff-template-"))
    code, out, err = sides.peer(template, "init", "--extended")
    if code != 0:
        raise SystemExit(f"FAIL: peer init --extended failed: exit {code}: {out} {err}")
    return template


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: compact_peer.py MEMKIT_BINARY [CASES]", file=sys.stderr)
        return 2
    selector = argv[2] if len(argv) == 3 else str(DEFAULT_CASES)
    if selector.isdigit():
        cases = build_cases(int(selector))
    else:
        everything = build_cases(DEFAULT_CASES) + probe_cases(random.Random(SEED + 1))
        if selector == "list":
            for case in everything:
                print(f"{case.name}\t{case.family}\t{case.target or 'inbox.md'}")
            return 0
        try:
            pattern = re.compile(selector)
        except re.error as error:
            print(f"CASES must be a number, `list` or a regular expression, not {selector!r} "
                  f"({error})", file=sys.stderr)
            return 2
        cases = [c for c in everything if pattern.search(c.name)]
        if not cases:
            print(f"no case name matches {selector!r} (try `list`)", file=sys.stderr)
            return 2

    ready = peer_setup.start(argv[1], PEER)
    if isinstance(ready, int):
        return ready
    peer = ready.peer_file.parents[1]  # the checkout, which holds bin/memory-custodian
    sides = Sides(ready.memkit, peer)
    print(f"peer: {peer}; clock: " + (f"faketime '{PEER_NOW}' (TZ=UTC)" if sides.faketime else
                                      "faketime not installed: the peer runs on the real clock, "
                                      "dates compared loosely"))
    template = make_template(sides)
    jobs, keep, verbose = peer_setup.run_options()
    started = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda c: run_case(c, sides, template, keep), cases))
    finally:
        shutil.rmtree(template, ignore_errors=True)

    families: dict[str, list[int]] = {}
    for case in results:
        tally = families.setdefault(case.family, [0, 0])
        tally[1 if case.differences else 0] += 1
        if case.differences:
            print(f"FAIL {case.name}: {case.summary}")
            for difference in case.differences:
                print(f"    - {difference}")
        elif keep or verbose:
            print(f"ok   {case.name}: {case.summary}")
    print("by family: " + ", ".join(f"{name} {ok}/{ok + bad}" for name, (ok, bad) in families.items())
          + f"; {time.monotonic() - started:.1f} s, {jobs} at once")
    failed = sum(1 for case in results if case.differences)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
