#!/usr/bin/env python3
"""Differential test: `memkit memorybox status/hygiene/compact` against Bravo's aging script
(`scripts/core/memory_aging.py` in CC90210/CEO-Agent), the partial peer of memorybox.md
(spec peers.md §2.5, memorybox.md §13).

Usage: memorybox_peer.py MEMKIT_BINARY [CASES]

  MEMKIT_BINARY  the memkit CLI, for example /tmp/build-diff/src/cli/memkit
  CASES          a number: how many generated cases to run (default 200), with the seeds
                 SEED .. SEED+CASES-1; or `@S`: the one case with seed S (to reproduce a failure)

The peer is the single file $MEMKIT_PEERS_DIR/CC90210+CEO-Agent/scripts/core/memory_aging.py.
When MEMKIT_PEERS_DIR is unset or empty, the file is missing, or faketime is not installed (the
peer reads date.today() when it is imported, so its clock must be pinned), the script prints a
message and exits 77 (skipped).

Each case runs in a fresh temporary root holding CLAUDE.md (the peer finds its root by walking
up to it), a copy of the peer at scripts/core/memory_aging.py and the case's fixtures. The peer
runs there as `TZ=UTC faketime '2026-11-30 12:00:00' python3 scripts/core/memory_aging.py
health --json` and `... archive --dry-run --json`; memkit as `memkit memorybox status|hygiene
--root R --now 2026-11-30T12:00:00+00:00 --format json` and `memkit memorybox compact --root R
--file memory/SESSION_LOG.md --now ... --format json` (a dry run). Neither side may change the
tree.

Compared, and only what peers.md §2.5 lists as safe:
- line counts of memory/SESSION_LOG.md, memory/ACTIVE_TASKS.md and the top-level brain/*.md
  files combined: the peer prints a count only in a budget violation, and then it must equal
  memkit's (status rows, hygiene items 1, 2 and 8, the compact rule's value). memkit's counts
  are also held to the fixture's own count (a third reading, memorybox.md §2 "Line count").
- the over-budget verdicts at 200 (SESSION_LOG lines), 50 (ACTIVE_TASKS: memkit counts items,
  the peer lines; the fixtures hold one-line tasks only, so the two are equal) and 2500 (brain
  combined, hygiene item 8), mapping the peer's "> n" to memkit's "≥ n" (memorybox.md §13,
  "Thresholds"): when the peer reports a violation, memkit must be over with the same count;
  when memkit is over and the peer is not, the count must be exactly n; when neither is over
  there is nothing to compare. memkit's verdicts must also agree with each other (hygiene item,
  status bloat_due, compact rule) and with its own count.
- which `### YYYY-MM-DD` session entries are older than 14 days: when both act (the peer at
  > 200 lines, memkit at ≥ 200), the peer's per-month "Moving N session(s) from YYYY-MM" counts
  and its sessions-YYYY-MM.md names must equal memkit's compact `move` actions grouped by
  archive path, and its "archived K" total their number. memkit's moved entry IDs are also held
  to the fixture's own list of old sessions (memorybox.md §3 entry IDs). The fixtures keep at
  least 10 sessions within the last 14 days, so memkit's keep-10 rule (which the peer lacks,
  §13) never holds an old session back.

Never compared (peers.md §2.5): decay, confidence bands, MISTAKES/PATTERNS counts, the gates,
sync; nor the health score, duplicates, or what the peer does to ACTIVE_TASKS (§13: it removes
completed lines, memkit archives them).

Fixtures (fixed seed; "today" is 2026-11-30): LF only, ASCII except the em dash of session
headings, no BOM, sometimes an unterminated last line (never a blank one).
- memory/SESSION_LOG.md: a preamble with a title line, then 10-14 sessions dated 0-14 days ago
  (14 often) and 0-7 older ones (15 days often, some a year back), each `### YYYY-MM-DD — title`
  (sometimes ` - title`) and body lines (bullets, prose, fields, blank lines; never a line that
  starts with `#` after the preamble), in chronological, reverse or shuffled order; 190-215
  lines, 199, 200 and 201 often.
- memory/ACTIVE_TASKS.md: one-line tasks `- [ ] ...` and `- [x] ... (done YYYY-MM-DD)` only, no
  heading; 45-55, 49, 50 and 51 often.
- brain/*.md: 2-5 files, 2490-2510 lines combined, 2499, 2500 and 2501 often.

Environment: MEMKIT_DIFF_KEEP=1 keeps every case's root (a failed case's root is always kept);
MEMKIT_DIFF_JOBS=N runs N cases at once (default: the number of CPUs); MEMKIT_DIFF_VERBOSE=1
prints a line per case.

Exit: 0 when everything agrees, 1 on any difference, 2 on a usage error, 77 when skipped.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import peer_setup  # noqa: E402  (tests/support, shared with the other *_peer.py scripts)

PEER_SCRIPT = Path("scripts") / "core" / "memory_aging.py"
PEER = peer_setup.Peer(
    "CC90210+CEO-Agent", PEER_SCRIPT, "peers.md §2, §2.5", "aging script",
    "put CC90210/CEO-Agent's file there at 29f955b3c0d40bdc07b4155468a9216372fef67c "
    "(peers.md §1)",
    clock_why=("the aging script reads date.today() when it is imported, so its clock must "
               "be pinned"))
PEER_NOW = "2026-11-30 12:00:00"
MEMKIT_NOW = "2026-11-30T12:00:00+00:00"
TODAY = date(2026, 11, 30)
SEED = 20261130
DEFAULT_CASES = 200

SESSION_LOG = "memory/SESSION_LOG.md"
ACTIVE_TASKS = "memory/ACTIVE_TASKS.md"
SESSION_LIMIT = 200   # memorybox.md §7 / hygiene item 1
TASKS_LIMIT = 50      # §7 / hygiene item 2
BRAIN_LIMIT = 2500    # §2 tier 1 / hygiene item 8
AGE_DAYS = 14         # §7: "more than 14 days before today"
KEEP_NEWEST = 10      # §7: the 10 newest session entries always stay (memkit only)
TIER1 = ("brain/SOUL.md", "brain/USER.md", "brain/STATE.md")

WORDS = ["memory", "budget", "session", "deploy", "review", "client", "index", "cache", "notes",
         "fixed", "the", "a", "of", "and", "parser", "tests", "green", "queue", "retry", "docs",
         "pricing", "agent", "skill", "sync", "plan", "draft", "email", "report", "bug", "call"]
BRAIN_NAMES = ["SOUL.md", "USER.md", "STATE.md", "CAPABILITIES.md", "BRAIN_LOOP.md",
               "AGENTS.md", "INTERACTION_PROTOCOL.md"]


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------- fixtures


def text(rng: random.Random, lo: int = 2, hi: int = 8) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def near(rng: random.Random, n: int, lo: int, hi: int) -> int:
    """A count in lo..hi that lands on n-1, n or n+1 about half the time. The fixtures give n
    as a literal, not the *_LIMIT constants the comparisons use, so that a planted threshold
    change (to check that the test catches it) leaves the fixtures as they are."""
    if rng.random() < 0.5:
        return n + rng.choice((-1, 0, 1))
    return rng.randint(lo, hi)


def split(rng: random.Random, total: int, parts: int, minimum: int) -> list[int]:
    """`total` cut into `parts` random sizes, each at least `minimum`."""
    free = total - parts * minimum
    assert free >= 0, (total, parts, minimum)
    cuts = sorted(rng.randint(0, free) for _ in range(parts - 1))
    edges = [0, *cuts, free]
    return [minimum + edges[i + 1] - edges[i] for i in range(parts)]


def finish(rng: random.Random, lines: list[str], filler) -> str:
    """LF-terminated lines; sometimes the last line is left unterminated (it still counts as a
    line on both sides, and it is never blank, so the count stays len(lines))."""
    if rng.random() < 0.12 and lines:
        if not lines[-1].strip():
            lines[-1] = filler()
        return "\n".join(lines)
    return "\n".join(lines) + "\n"


def session_body_line(rng: random.Random) -> str:
    kind = rng.randrange(10)
    if kind <= 3:
        return f"- {text(rng)}"
    if kind == 4:
        return f"  - {text(rng)}"
    if kind == 5:
        return f"{rng.choice(['Outcome', 'Files', 'Next', 'Blockers'])}: {text(rng, 1, 4)}"
    if kind == 6:
        return ""
    return text(rng, 4, 12).capitalize() + "."


@dataclass
class Session:
    day: date
    title: str

    @property
    def heading_text(self) -> str:   # the H3 line's text, after "### "
        return f"{self.day.isoformat()}{self.title}"

    @property
    def entry_id(self) -> str:       # memorybox.md §3: session:casefold(strip(heading text))
        key = "session:" + self.heading_text.strip().casefold()
        return f"{SESSION_LOG}#{hashlib.sha256(key.encode('utf-8')).hexdigest()[:12]}"

    @property
    def old(self) -> bool:           # more than 14 days before today
        return (TODAY - self.day).days > AGE_DAYS

    @property
    def archive(self) -> str:
        return f"memory/ARCHIVES/sessions-{self.day.isoformat()[:7]}.md"


@dataclass
class Case:
    seed: int
    files: dict[str, str] = field(default_factory=dict)
    session_lines: int = 0
    sessions: list[Session] = field(default_factory=list)
    task_lines: int = 0
    brain_lines: int = 0
    brain_counts: dict[str, int] = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    root: Path | None = None


def session_log(rng: random.Random, case: Case) -> None:
    target = near(rng, 200, 190, 215)
    preamble = rng.choice([["# Session Log", ""], ["# Session Log"],
                           ["# SESSION_LOG", "", "Newest sessions first, one entry per session."],
                           ["# Session Log", "", "Sessions are appended here.", ""]])
    recent = []
    for _ in range(rng.randint(KEEP_NEWEST, KEEP_NEWEST + 4)):
        roll = rng.random()
        recent.append(AGE_DAYS if roll < 0.18 else 0 if roll < 0.26 else rng.randint(0, AGE_DAYS))
    old = []
    for _ in range(rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 7])):
        roll = rng.random()
        old.append(AGE_DAYS + 1 if roll < 0.3 else rng.randint(16, 45) if roll < 0.65
                   else rng.randint(46, 200) if roll < 0.9 else rng.randint(201, 420))
    sessions = [Session(TODAY - timedelta(days=d),
                        rng.choice([" — ", " — ", " — ", " - "]) + f"session {i}: {text(rng, 1, 4)}")
                for i, d in enumerate(recent + old)]
    order = rng.randrange(3)
    if order == 0:
        sessions.sort(key=lambda s: s.day)
    elif order == 1:
        sessions.sort(key=lambda s: s.day, reverse=True)
    else:
        rng.shuffle(sessions)
    bodies = split(rng, target - len(preamble) - len(sessions), len(sessions), 0)
    lines = list(preamble)
    for session, body in zip(sessions, bodies):
        lines.append(f"### {session.heading_text}")
        lines += [session_body_line(rng) for _ in range(body)]
    assert len(lines) == target
    case.files[SESSION_LOG] = finish(rng, lines, lambda: f"- {text(rng)}")
    case.session_lines = target
    case.sessions = sessions


def active_tasks(rng: random.Random, case: Case) -> None:
    count = near(rng, 50, 45, 55)
    lines = []
    for i in range(count):
        if rng.random() < 0.4:
            done = TODAY - timedelta(days=rng.randint(0, 40))
            lines.append(f"- [{rng.choice('xxX')}] task {i}: {text(rng)} (done {done.isoformat()})")
        else:
            lines.append(f"- [ ] task {i}: {text(rng)}")
    case.files[ACTIVE_TASKS] = finish(rng, lines, lambda: "- [ ] last task")
    case.task_lines = count


def brain_line(rng: random.Random, index: int) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return f"## Section {index}"
    if kind in (1, 2, 3):
        return f"- {text(rng)}"
    if kind == 4:
        return ""
    return text(rng, 4, 14).capitalize() + "."


def brain(rng: random.Random, case: Case) -> None:
    total = near(rng, 2500, 2490, 2510)
    names = rng.sample(BRAIN_NAMES, rng.randint(2, 5))
    for name, size in zip(names, split(rng, total, len(names), 1)):
        lines = [f"# {name[:-3]}"] + [brain_line(rng, i) for i in range(size - 1)]
        rel = f"brain/{name}"
        case.files[rel] = finish(rng, lines, lambda: text(rng))
        case.brain_counts[rel] = size
    case.brain_lines = total


def build_case(seed: int) -> Case:
    rng = random.Random(seed)
    case = Case(seed)
    session_log(rng, case)
    active_tasks(rng, case)
    brain(rng, case)
    return case


# ---------------------------------------------------------------------------- running


class Sides:
    def __init__(self, memkit: str, peer_script: Path, faketime: str) -> None:
        self.memkit = memkit
        self.peer_script = peer_script
        self.faketime = faketime
        self.env = dict(os.environ, TZ="UTC", PYTHONDONTWRITEBYTECODE="1", LC_ALL="C.UTF-8")

    def peer(self, root: Path, *args: str) -> dict:
        command = [self.faketime, PEER_NOW, sys.executable, str(PEER_SCRIPT), *args]
        result = subprocess.run(command, cwd=root, capture_output=True, text=True,
                                encoding="utf-8", env=self.env, timeout=120)
        if result.returncode != 0:
            raise Failure(f"peer {' '.join(args)}: exit {result.returncode}, "
                          f"stderr {result.stderr[-500:]!r}")
        try:
            return json.loads(result.stdout)
        except json.JSONDecodeError as exc:
            raise Failure(f"peer {' '.join(args)}: not JSON ({exc}): {result.stdout[:300]!r}")

    def memkit_json(self, root: Path, *args: str) -> dict:
        command = [self.memkit, "memorybox", *args, "--root", str(root), "--now", MEMKIT_NOW,
                   "--format", "json"]
        result = subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                                env=self.env, timeout=120)
        try:
            reply = json.loads(result.stdout)
        except json.JSONDecodeError as exc:
            raise Failure(f"memkit memorybox {' '.join(args)}: not JSON ({exc}): exit "
                          f"{result.returncode}, stdout {result.stdout[:300]!r}, "
                          f"stderr {result.stderr[:300]!r}")
        if reply.get("exit_class") in ("fatal", "blocker"):
            raise Failure(f"memkit memorybox {' '.join(args)}: {reply.get('exit_class')}: "
                          f"{reply.get('findings')}")
        return reply


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


MOVING = re.compile(r"^Moving (\d+) session\(s\) from (\d{4}-\d{2})$")
PRUNED = re.compile(r"^Kept (\d+) recent session\(s\), archived (\d+) old session\(s\)$")


@dataclass
class Verdict:
    """One budget compared at its limit n."""
    label: str
    n: int
    fixture: int                 # the fixture's own line count
    memkit_counts: dict[str, int]  # every count memkit reports for it, by where
    memkit_over: dict[str, bool]   # every verdict memkit gives for it, by where
    peer_lines: int | None       # the peer's count when it reports a violation, else None


def judge(case: Case, v: Verdict, tally: dict) -> None:
    """Line counts and the "> n" / "≥ n" mapping (memorybox.md §13 "Thresholds")."""
    for where, count in v.memkit_counts.items():
        if count != v.fixture:
            case.differences.append(f"{v.label}: memkit {where} counts {count}, the fixture has "
                                    f"{v.fixture} lines")
    verdicts = set(v.memkit_over.values())
    if len(verdicts) != 1:
        case.differences.append(f"{v.label}: memkit's own verdicts disagree: {v.memkit_over}")
        return
    memkit_over = verdicts.pop()
    memkit_count = next(iter(v.memkit_counts.values()))
    if memkit_over != (memkit_count >= v.n):
        case.differences.append(f"{v.label}: memkit says over={memkit_over} at {memkit_count} "
                                f"lines (≥ {v.n} is over)")
    peer_over = v.peer_lines is not None
    if peer_over:
        if not memkit_over:
            case.differences.append(f"{v.label}: the peer reports {v.peer_lines} > {v.n}, memkit "
                                    f"is not over at {memkit_count}")
        elif v.peer_lines != memkit_count:
            case.differences.append(f"{v.label}: both over, line counts peer {v.peer_lines}, "
                                    f"memkit {memkit_count}")
        else:
            tally["both_over"] += 1
    elif memkit_over:
        if memkit_count != v.n:
            case.differences.append(f"{v.label}: memkit is over at {memkit_count}, the peer is "
                                    f"not; only {v.n} itself may differ (> vs ≥)")
        else:
            tally["memkit_only_at_n"] += 1
    else:
        tally["neither"] += 1
    case.notes[v.label] = (f"{memkit_count}{' peer-over' if peer_over else ''}"
                           f"{' memkit-over' if memkit_over else ''}")


def compare_sessions(case: Case, peer_archive: dict, compact: dict, peer_acts: bool,
                     tally: dict) -> None:
    rules = [r for r in compact["data"]["rules"] if r["rule"] == "session_log"]
    memkit_acts = bool(rules) and rules[0]["breached"]
    actions = compact["data"]["actions"]
    moves = [a for a in actions if a["rule"] == "session_log" and a["kind"] == "move"]
    others = [a for a in actions if not (a["rule"] == "session_log" and a["kind"] == "move")]
    if others:
        case.differences.append(f"sessions: memkit compact --file {SESSION_LOG} gives other "
                                f"actions {others}")
    memkit_months: dict[str, int] = {}
    for move in moves:
        memkit_months[move["detail"]] = memkit_months.get(move["detail"], 0) + 1

    peer_months: dict[str, int] = {}
    peer_archived = None
    for action in peer_archive.get("actions", []):
        if action["type"] == "archive_session":
            m = MOVING.match(action["detail"])
            if not m or action["file"] != f"memory/ARCHIVES/sessions-{m.group(2)}.md":
                case.differences.append(f"sessions: unexpected peer action {action}")
                continue
            peer_months[action["file"]] = peer_months.get(action["file"], 0) + int(m.group(1))
        elif action["type"] == "prune_session_log":
            m = PRUNED.match(action["detail"])
            if not m:
                case.differences.append(f"sessions: unexpected peer action {action}")
                continue
            peer_archived = int(m.group(2))
            if int(m.group(1)) + peer_archived != len(case.sessions):
                case.differences.append(f"sessions: the peer kept+archived {action['detail']!r}, "
                                        f"the fixture has {len(case.sessions)} sessions")

    # The fixture's own reading (a third side): the sessions more than 14 days old.
    expected = [s for s in case.sessions if s.old]
    expected_months: dict[str, int] = {}
    for s in expected:
        expected_months[s.archive] = expected_months.get(s.archive, 0) + 1
    recent = len(case.sessions) - len(expected)
    assert recent >= KEEP_NEWEST, "fixture must keep keep-10 out of play"

    if memkit_acts:
        moved_ids = sorted(m["path"] for m in moves)
        expected_ids = sorted(s.entry_id for s in expected)
        if moved_ids != expected_ids:
            case.differences.append(f"sessions: memkit moves {moved_ids}, the fixture's sessions "
                                    f"more than {AGE_DAYS} days old are {expected_ids}")
        wrong_month = [(m["path"], m["detail"]) for m in moves
                       for s in expected if s.entry_id == m["path"] and s.archive != m["detail"]]
        if wrong_month:
            case.differences.append(f"sessions: memkit archives into the wrong month: {wrong_month}")
    elif moves:
        case.differences.append(f"sessions: memkit's rule is not breached but it moves {moves}")

    if peer_acts and memkit_acts:
        tally["both_act"] += 1
        tally["sessions_moved"] += sum(peer_months.values())
        tally["months"] += len(peer_months)
        if peer_months != memkit_months:
            case.differences.append(f"sessions: per archive month, peer {peer_months}, memkit "
                                    f"{memkit_months}")
        elif peer_archived is not None and peer_archived != len(moves):
            case.differences.append(f"sessions: the peer archived {peer_archived}, memkit moves "
                                    f"{len(moves)}")
        elif peer_archived is None and moves:
            case.differences.append(f"sessions: the peer archives nothing, memkit moves {len(moves)}")
        else:
            tally["archives_agree"] += 1
        if peer_months != expected_months:
            case.differences.append(f"sessions: per archive month, peer {peer_months}, the "
                                    f"fixture's old sessions {expected_months}")
    elif memkit_acts:
        tally["memkit_only_act"] += 1     # at exactly 200 lines: held to the fixture only
    elif peer_acts:
        case.differences.append(f"sessions: the peer acts (> {SESSION_LIMIT} lines), memkit's "
                                f"rule is not breached")
    else:
        tally["neither_act"] += 1
        if peer_months or peer_archived is not None:
            case.differences.append(f"sessions: the peer does not report a violation but "
                                    f"archives {peer_months}")
    case.notes["sessions"] = (f"{len(case.sessions)} ({len(expected)} old in "
                              f"{len(expected_months)} months), peer "
                              f"{'acts' if peer_acts else 'idle'}, memkit "
                              f"{'acts' if memkit_acts else 'idle'}")


def run_case(case: Case, sides: Sides, keep: bool) -> dict:
    tally = {k: 0 for k in ("both_over", "memkit_only_at_n", "neither", "both_act",
                            "memkit_only_act", "neither_act", "archives_agree", "sessions_moved",
                            "months")}
    tallies = {"session_log": dict(tally), "active_tasks": dict(tally), "brain": dict(tally),
               "sessions": dict(tally)}
    root = Path(tempfile.mkdtemp(prefix=f"memkit-memorybox-diff-{case.seed}-"))
    case.root = root
    try:
        (root / "CLAUDE.md").write_bytes(b"# Differential test root\n")
        (root / PEER_SCRIPT).parent.mkdir(parents=True)
        shutil.copyfile(sides.peer_script, root / PEER_SCRIPT)
        for rel, content in case.files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode("utf-8"))
        before = snapshot(root)

        health = sides.peer(root, "health", "--json")
        if health.get("date") != TODAY.isoformat():
            raise Failure(f"the peer's clock is {health.get('date')}, not {TODAY} "
                          "(faketime did not pin it)")
        archive = sides.peer(root, "archive", "--dry-run", "--json")
        if archive.get("dry_run") is not True:
            raise Failure(f"peer archive --dry-run: {archive}")
        violations = {v["file"]: v["lines"] for v in health.get("budget_violations", [])}

        status = sides.memkit_json(root, "status")["data"]
        hygiene = sides.memkit_json(root, "hygiene")["data"]
        compact = sides.memkit_json(root, "compact", "--file", SESSION_LOG)
        rows = {f["path"]: f for t in status["tiers"] for f in t["files"]}
        tier1 = next(t for t in status["tiers"] if t["tier"] == 1)
        items = {i["n"]: i for i in hygiene["items"]}
        rules = {r["rule"]: r for r in compact["data"]["rules"]}
        due = set(status["bloat_due"])

        if snapshot(root) != before:
            changed = sorted(set(snapshot(root).items()) ^ set(before.items()))
            raise Failure(f"a dry run changed the tree: {[p for p, _ in changed]}")

        for rel in (SESSION_LOG, ACTIVE_TASKS):
            if rel not in rows or not rows[rel]["exists"]:
                raise Failure(f"memkit status has no existing row for {rel}")

        judge(case, Verdict(
            "SESSION_LOG", SESSION_LIMIT, case.session_lines,
            {"status lines": rows[SESSION_LOG]["lines"], "hygiene item 1": items[1]["value"],
             "compact rule value": rules["session_log"]["value"]},
            {"hygiene item 1": items[1]["result"] == "FAIL", "bloat_due": "session_log" in due,
             "compact rule": rules["session_log"]["breached"]},
            violations.get(SESSION_LOG)), tallies["session_log"])
        judge(case, Verdict(
            "ACTIVE_TASKS", TASKS_LIMIT, case.task_lines,
            {"status lines": rows[ACTIVE_TASKS]["lines"], "status items": rows[ACTIVE_TASKS]["items"],
             "hygiene item 2": items[2]["value"]},
            {"hygiene item 2": items[2]["result"] == "FAIL", "bloat_due": "active_tasks" in due},
            violations.get(ACTIVE_TASKS)), tallies["active_tasks"])
        judge(case, Verdict(
            "brain combined", BRAIN_LIMIT, case.brain_lines,
            {"hygiene item 8": items[8]["value"]},
            {"hygiene item 8": items[8]["result"] == "FAIL"},
            violations.get("brain/ (combined)")), tallies["brain"])
        # memkit's tier-1 total counts SOUL/USER/STATE only (memorybox.md §8, "Item 8 and the
        # tier-1 budget"): held to the fixture, not to the peer.
        tier1_expected = sum(case.brain_counts.get(p, 0) for p in TIER1)
        if tier1["combined"]["lines"] != tier1_expected:
            case.differences.append(f"brain: memkit's tier-1 total is "
                                    f"{tier1['combined']['lines']}, the fixture's SOUL/USER/STATE "
                                    f"hold {tier1_expected} lines")
        unexpected = set(violations) - {SESSION_LOG, ACTIVE_TASKS, "brain/ (combined)"}
        if unexpected:
            case.differences.append(f"the peer reports violations for files with no fixture: "
                                    f"{sorted(unexpected)}")

        compare_sessions(case, archive, compact, SESSION_LOG in violations, tallies["sessions"])
    except Failure as exc:
        case.differences.append(str(exc))
    if case.differences or keep:
        print(f"[seed {case.seed}] kept: {root}", flush=True)
    else:
        shutil.rmtree(root, ignore_errors=True)
    return tallies


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: memorybox_peer.py MEMKIT_BINARY [CASES | @SEED]", file=sys.stderr)
        return 2
    seeds = peer_setup.seeds(argv[2] if len(argv) == 3 else None, DEFAULT_CASES, SEED)
    if not seeds:
        return 2

    ready = peer_setup.start(argv[1], PEER)
    if isinstance(ready, int):
        return ready
    sides = Sides(ready.memkit, ready.peer_file, ready.faketime)
    print(f"peer: {ready.peer_file}; clock: TZ=UTC faketime '{PEER_NOW}', "
          f"memkit --now {MEMKIT_NOW}")
    jobs, keep, verbose = peer_setup.run_options()
    cases = [build_case(seed) for seed in seeds]
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda c: run_case(c, sides, keep), cases))

    totals: dict[str, dict[str, int]] = {}
    for tallies in results:
        for name, tally in tallies.items():
            into = totals.setdefault(name, dict.fromkeys(tally, 0))
            for key, value in tally.items():
                into[key] += value
    failed = 0
    for case in cases:
        if case.differences:
            failed += 1
            print(f"FAIL seed {case.seed} ({case.root}): " + "; ".join(
                f"{k} {v}" for k, v in case.notes.items()))
            for difference in case.differences:
                print(f"    - {difference}")
        elif verbose:
            print(f"ok   seed {case.seed}: " + "; ".join(f"{k} {v}" for k, v in case.notes.items()))

    for label, name, n in (("SESSION_LOG lines", "session_log", SESSION_LIMIT),
                           ("ACTIVE_TASKS items/lines", "active_tasks", TASKS_LIMIT),
                           ("brain/ combined lines", "brain", BRAIN_LIMIT)):
        t = totals.get(name, {})
        print(f"{label} at {n}: both over (counts equal) {t.get('both_over', 0)}, memkit over at "
              f"exactly {n} only {t.get('memkit_only_at_n', 0)}, neither over "
              f"{t.get('neither', 0)}")
    t = totals.get("sessions", {})
    print(f"sessions older than {AGE_DAYS} days: both act {t.get('both_act', 0)} (per-month counts "
          f"agree in {t.get('archives_agree', 0)}; {t.get('sessions_moved', 0)} sessions in "
          f"{t.get('months', 0)} archive months), memkit alone acts at exactly {SESSION_LIMIT} "
          f"lines {t.get('memkit_only_act', 0)} (held to the fixture only), neither acts "
          f"{t.get('neither_act', 0)}")
    print(f"{time.monotonic() - started:.1f} s, {jobs} at once; cases {len(cases)}: "
          f"{len(cases) - failed} agree, {failed} differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
