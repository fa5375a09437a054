#!/usr/bin/env python3
"""Differential test: memkit's `custodian init/status/check` and `markdown units` against the
MemoryCustodian v0.9.1 peer (spec peers.md §2.1, compaction.md §19).

Usage: custodian_peer.py MEMKIT_CLI

The peer is read from $MEMKIT_PEERS_DIR/waittim+MemoryCustodian and run through its
bin/memory-custodian wrapper. When MEMKIT_PEERS_DIR is unset or empty, or the peer folder is
missing, the test exits 77 (skipped) with a message.

Compared, as peers.md §2.1 lists them as safe (compaction is not implemented in memkit yet):
- tokens() per file: the peer's `status` line `name: STATE, N tokens[/B max]` against memkit's
  `status --format json` row, and both against this script's own reading of compaction.md §4;
- the budget numbers and OVER BUDGET: the peer's `status` state and its `check` "over budget
  (t/b tokens)" issues (which also cover module files) against memkit's status states and its
  MK-BUDGET-001 check findings. NEAR LIMIT is not compared (§19 row 15): memkit's NEAR LIMIT is
  read as "not over budget";
- inbox item counts (peer `status` "K items") against memkit's status `items` and the number of
  `bullet_unit` ranges `memkit markdown units` gives for inbox.md;
- H2 entry counts of decisions.md and do-not-use.md (plain `## ` headings outside fences, §19
  row 10).

Fixtures are generated in a fresh temporary directory per case: the peer's own `init --extended`
layout, memkit's own `init --extended` layout, and files with ASCII, accented, CJK, punctuation,
emoji, snake_case, number and mixed-whitespace text at sizes around each budget (b-1, b, b+1, and
80 %). They avoid a BOM and every §19 row 4-10 shape: LF only, no CR, no \\v \\f \\x1c-\\x1e U+0085
U+2028 U+2029, no leading non-ASCII space, no HTML comments or front matter, no thematic breaks,
only well-formed column-0 fences of length 3, and plain `## ` headings outside fences.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
PEER_FOLDER = "waittim+MemoryCustodian"
PEER_NOW = "2026-03-07 14:05:09"
MEMKIT_NOW = "2026-03-07T14:05:09+00:00"
SEED = 20260307

# compaction.md §5, for sizing fixtures only: the verdicts come from the two programs.
CORE_BUDGETS = {
    "brief.md": 500,
    "decisions.md": 800,
    "constraints.md": 400,
    "do-not-use.md": 400,
    "preferences.md": 300,
    "changelog.md": 800,
}
MODULE_BUDGETS = {"rules/alpha.md": 400, "profiles/beta.md": 500, "areas/gamma.md": 600}

# compaction.md §2.2: W.
W = frozenset(
    [chr(c) for c in range(0x09, 0x0E)]
    + [chr(c) for c in range(0x1C, 0x20)]
    + ["\u0020", "\u0085", "\u00a0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
)


def is_word(ch: str) -> bool:
    return ch == "_" or ("0" <= ch <= "9") or ("A" <= ch <= "Z") or ("a" <= ch <= "z")


def spec_tokens(text: str) -> int:
    """compaction.md §4, read independently: a run of ASCII [A-Za-z0-9_] is 1, any other
    code point outside W is 1, W is 0."""
    count = 0
    in_run = False
    for ch in text:
        if is_word(ch):
            if not in_run:
                count += 1
            in_run = True
        else:
            in_run = False
            if ch not in W:
                count += 1
    return count


# Text styles. Separators are safe mid-line whitespace (all in W and Python's \s); none starts a
# line. U+200B and U+180E are not whitespace for either side and count 1.
STYLES = {
    "ascii": ["memory", "Budget", "tokens", "x", "ABC", "the", "of", "Use", "tabs", "spaces"],
    "accented": ["café", "naïve", "Straße", "résumé", "Ångström", "façade", "coöperate",
                 "jalapeño", "São", "Zürich", "e\u0301te\u0301", "ĳssel", "Ωmega", "ﬁne"],
    "cjk": ["記住", "日本語", "中文字符", "한국어", "テスト", "漢字かな交じり文", "ｶﾀｶﾅ", "全角ＡＢＣ"],
    "punctuation": [",", ".", "!?", "(x)", "—", "…", "«»", "“quoted”", "->", "::", "#", "@",
                    "%", "[link](url)", "`code`", "'", "\"", ";", "§", "©", "|a|b|", "{}"],
    "emoji": ["🙂", "🚀", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "❤\ufe0f", "✅", "🎉🎉", "a🙂b"],
    "snake_case": ["snake_case", "__init__", "MAX_VALUE", "a_b_c", "_private", "x_y-z",
                   "snake_case2", "CamelCase_mix", "___"],
    "numbers": ["3.14", "1,000", "2026-03-07", "0x1F", "42", "1e-9", "-7", "v0.9.1", "100%",
                "½", "²", "٣٤", "१२३", "Ⅻ"],
    "mixed": ["Use", "tabs,", "not", "spaces.", "café", "ß", "記住", "x_y-z", "🙂",
              "zero\u200bwidth", "mongol\u180esep", "a\ufeffb"],
}
SEPARATORS = [" ", " ", " ", "  ", "\t", "\u00a0", "\u1680", "\u2003", "\u2009", "\u202f",
              "\u205f", "\u3000"]
# One-token fillers per style, to land on an exact count.
FILLERS = {"ascii": "x", "accented": "é", "cjk": "記", "punctuation": "!", "emoji": "🚀",
           "snake_case": "a_b", "numbers": "7", "mixed": "ß"}


class Failure(Exception):
    pass


class Tally:
    def __init__(self) -> None:
        self.cases = 0
        self.files = 0
        self.token_agree = 0
        self.over_agree = 0
        self.over_true = 0
        self.check_agree = 0
        self.items_agree = 0
        self.entries_agree = 0
        self.init_preserved = 0
        self.failures: list[str] = []

    def fail(self, case: str, message: str) -> None:
        self.failures.append(f"[{case}] {message}")


# ---------------------------------------------------------------------------- fixtures


def phrase(rng: random.Random, style: str, words: int) -> str:
    atoms = STYLES[style]
    out = rng.choice(atoms)
    for _ in range(words - 1):
        out += rng.choice(SEPARATORS) + rng.choice(atoms)
    return out


def body_line(rng: random.Random, style: str, shape: str, index: int) -> str:
    text = phrase(rng, style, rng.randint(2, 9))
    if shape == "bullets":
        return f"{rng.choice('-*+')} {text}"
    if shape == "entries":
        return f"## {index:02d} {text}" if index % 4 == 0 else text
    if shape == "changelog":
        return f"## 2026-03-{(index % 28) + 1:02d}" if index % 5 == 0 else f"- {text}"
    return text  # prose


def sized_text(rng: random.Random, style: str, shape: str, title: str, target: int) -> str:
    """A file of exactly `target` tokens by spec_tokens (lines add up: LF is in W)."""
    lines = [f"# {title}", ""]
    total = spec_tokens("\n".join(lines))
    if total > target:
        raise ValueError(f"target {target} is below the title's {total} tokens")
    index = 0
    while True:
        line = body_line(rng, style, shape, index)
        cost = spec_tokens(line)
        if total + cost > target:
            break
        lines.append(line)
        total += cost
        index += 1
    remaining = target - total
    if remaining > 0:
        filler = FILLERS[style]
        lines.append(" ".join([filler] * remaining))
        total += remaining
    text = "\n".join(lines) + "\n"
    assert spec_tokens(text) == target, (style, shape, target, spec_tokens(text))
    return text


def inbox_text(rng: random.Random, style: str, blocks: int) -> str:
    """An inbox with varied unit shapes that both sides read alike (no §19 row 4-10 shapes)."""
    out = ["# Memory Inbox", ""]
    for i in range(blocks):
        text = phrase(rng, style, rng.randint(1, 6))
        kind = rng.randrange(12)
        marker = rng.choice("-*+")
        if kind <= 3:
            out.append(f"{marker} {text}")
        elif kind == 4:
            out += [f"{marker} {text}", f"  {phrase(rng, style, 3)}", "\tcontinued with a tab"]
        elif kind == 5:
            out += [f"{marker} {text}", f"  - child {phrase(rng, style, 2)}",
                    f"    - grandchild {phrase(rng, style, 2)}"]
        elif kind == 6:  # a loose item: interior blank line, indented continuation
            out += [f"{marker} {text}", "", f"  {phrase(rng, style, 4)}", ""]
        elif kind == 7:  # column-0 prose closes the unit
            out += [f"{marker} {text}", f"Paragraph {phrase(rng, style, 3)}", ""]
        elif kind == 8:  # a well-formed column-0 fence of length 3 hides bullet-looking lines
            fence = rng.choice(["```", "~~~"])
            info = "python" if fence == "```" else ""
            out += ["", fence + info, "- not an item", "* nor this", f"{phrase(rng, style, 2)}",
                    fence, ""]
        elif kind == 9:  # an indented fence inside a unit, with indented content only
            out += [f"{marker} {text}", "  ```", "  - still inside the unit", "  ```"]
        elif kind == 10:  # headings, ordered items and marker-without-space lines are not units
            out += ["", f"## Note {i}", f"1. ordered {phrase(rng, style, 2)}",
                    f"-{phrase(rng, style, 1)}", ""]
        else:  # an exact duplicate (still an item)
            out += [f"- {text}", f"* {text}"]
    return "\n".join(out) + "\n"


def write(memory: Path, rel: str, text: str) -> None:
    path = memory / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


# ---------------------------------------------------------------------------- running


class Runner:
    def __init__(self, memkit: str, peer: Path) -> None:
        self.memkit = memkit
        self.peer_wrapper = peer / "bin" / "memory-custodian"
        self.env = dict(os.environ, TZ="UTC", PYTHONDONTWRITEBYTECODE="1", LC_ALL="C.UTF-8")
        self.faketime = shutil.which("faketime")

    def peer(self, *args: str) -> subprocess.CompletedProcess:
        command = [str(self.peer_wrapper), *args]
        if self.faketime:
            command = [self.faketime, PEER_NOW, *command]
        return subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                              env=self.env, timeout=120)

    def memkit_json(self, *args: str) -> dict:
        result = subprocess.run([self.memkit, *args, "--format", "json"], capture_output=True,
                                text=True, encoding="utf-8", env=self.env, timeout=120)
        try:
            reply = json.loads(result.stdout)
        except json.JSONDecodeError as exc:
            raise Failure(f"memkit {' '.join(args)}: not JSON ({exc}): exit {result.returncode}, "
                          f"stdout {result.stdout[:300]!r}, stderr {result.stderr[:300]!r}")
        if reply.get("exit_class") == "fatal":
            raise Failure(f"memkit {' '.join(args)}: fatal: {reply.get('findings')}")
        return reply


STATUS_LINE = re.compile(
    r"^(?P<name>[A-Za-z0-9_./-]+\.md): (?P<state>[A-Z][A-Z ]*[A-Z]), (?P<tokens>\d+) tokens"
    r"(?:/(?P<budget>\d+) max)?(?P<rest>.*)$")
CHECK_OVER = re.compile(r"^- (?P<path>\S+): over budget \((?P<tokens>\d+)/(?P<budget>\d+) tokens\)")


def parse_peer_status(stdout: str) -> dict[str, dict]:
    rows = {}
    for line in stdout.splitlines():
        m = STATUS_LINE.match(line)
        if not m:
            continue
        rest = m.group("rest")
        items = re.search(r", (\d+) items", rest)
        entries = re.search(r", (\d+) entries", rest)
        rows[m.group("name")] = {
            "state": m.group("state"),
            "tokens": int(m.group("tokens")),
            "budget": int(m.group("budget")) if m.group("budget") else None,
            "items": int(items.group(1)) if items else None,
            "entries": int(entries.group(1)) if entries else None,
        }
    return rows


def parse_peer_check(stdout: str) -> dict[str, tuple[int, int]]:
    over = {}
    for line in stdout.splitlines():
        m = CHECK_OVER.match(line)
        if m:
            over[m.group("path")] = (int(m.group("tokens")), int(m.group("budget")))
    return over


def compare(case: str, project: Path, runner: Runner, tally: Tally) -> None:
    """Runs status/check on both sides over the same tree and compares what is safe."""
    memory = project / "docs" / "memory"
    peer_status = runner.peer("status", "--project-root", str(project))
    peer_rows = parse_peer_status(peer_status.stdout)
    if not peer_rows:
        raise Failure(f"peer status printed no file rows: exit {peer_status.returncode}, "
                      f"stdout {peer_status.stdout[:500]!r}, stderr {peer_status.stderr[:500]!r}")
    peer_check = runner.peer("check", "--project-root", str(project))
    if "MemoryCustodian check:" not in peer_check.stdout:
        raise Failure(f"peer check: unexpected output {peer_check.stdout[:500]!r} "
                      f"{peer_check.stderr[:500]!r}")
    peer_over = parse_peer_check(peer_check.stdout)

    status = runner.memkit_json("custodian", "status", "--project-root", str(project))
    rows = {row["path"]: row for row in status["data"]["files"]}
    check = runner.memkit_json("custodian", "check", "--project-root", str(project))
    memkit_check_over = {f["path"] for f in check["findings"] if f["code"] == "MK-BUDGET-001"}

    # tokens, budgets and OVER BUDGET, file by file, for every file the peer's status reports.
    for name, peer in sorted(peer_rows.items()):
        tally.files += 1
        row = rows.get(name)
        if row is None or not row["exists"]:
            tally.fail(case, f"{name}: peer reports it, memkit status has no existing row")
            continue
        ours = spec_tokens((memory / name).read_bytes().decode("utf-8"))
        if not (peer["tokens"] == row["tokens"] == ours):
            tally.fail(case, f"{name}: tokens peer {peer['tokens']}, memkit {row['tokens']}, "
                             f"§4 as read by this script {ours}")
        else:
            tally.token_agree += 1
        if peer["budget"] != row["limit"]:
            tally.fail(case, f"{name}: budget peer {peer['budget']}, memkit {row['limit']}")
        # The peer's NEEDS CURATION (brief.md) takes precedence over its OVER BUDGET; its own
        # numbers then decide. LONG ENTRIES ranks below OVER BUDGET, so it never hides it.
        if peer["state"] == "NEEDS CURATION":
            peer_is_over = peer["budget"] is not None and peer["tokens"] > peer["budget"]
        else:
            peer_is_over = peer["state"] == "OVER BUDGET"
        memkit_is_over = row["state"] == "OVER BUDGET"
        if peer_is_over != memkit_is_over:
            tally.fail(case, f"{name}: peer {peer['state']} ({peer['tokens']}/{peer['budget']}), "
                             f"memkit {row['state']} ({row['tokens']}/{row['limit']})")
        else:
            tally.over_agree += 1
            tally.over_true += 1 if memkit_is_over else 0
        if peer["items"] is not None:
            units = runner.memkit_json("markdown", "units", str(memory / name))
            bullet_units = sum(1 for u in units["data"]["units"] or [] if u["kind"] == "bullet_unit")
            if not (peer["items"] == row.get("items") == bullet_units):
                tally.fail(case, f"{name}: items peer {peer['items']}, memkit status "
                                 f"{row.get('items')}, memkit markdown units {bullet_units}")
            else:
                tally.items_agree += 1
        if peer["entries"] is not None:
            if peer["entries"] != row.get("entries"):
                tally.fail(case, f"{name}: H2 entries peer {peer['entries']}, memkit "
                                 f"{row.get('entries')}")
            else:
                tally.entries_agree += 1

    # OVER BUDGET through `check`, which on both sides also covers module files.
    memkit_status_over = {p for p, r in rows.items() if r["state"] == "OVER BUDGET"}
    if not (set(peer_over) == memkit_check_over == memkit_status_over):
        tally.fail(case, f"over-budget files: peer check {sorted(peer_over)}, memkit check "
                         f"{sorted(memkit_check_over)}, memkit status {sorted(memkit_status_over)}")
    else:
        tally.check_agree += 1
    for path, (tokens, budget) in sorted(peer_over.items()):
        row = rows.get(path)
        if row is not None and (row["tokens"], row["limit"]) != (tokens, budget):
            tally.fail(case, f"{path}: peer check {tokens}/{budget}, memkit "
                             f"{row['tokens']}/{row['limit']}")
    print(f"[{case}] {len(peer_rows)} files, over budget {sorted(peer_over) or 'none'}, "
          + ", ".join(f"{n} {r['items']} items" for n, r in peer_rows.items() if r["items"] is not None))
    # Module files under budget: the peer prints no tokens for them, so memkit is held to §4.
    for path in MODULE_BUDGETS:
        row = rows.get(path)
        if (memory / path).exists() and row is not None:
            ours = spec_tokens((memory / path).read_bytes().decode("utf-8"))
            if row["tokens"] != ours:
                tally.fail(case, f"{path}: memkit tokens {row['tokens']}, §4 {ours}")


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


# ---------------------------------------------------------------------------- cases


def case_peer_init(project: Path, runner: Runner, tally: Tally, rng: random.Random) -> None:
    """The peer's own layout, untouched; then memkit init must not change any of its files."""
    compare("peer-init", project, runner, tally)
    memory = project / "docs" / "memory"
    before = snapshot(memory)
    runner.memkit_json("custodian", "init", "--extended", "--project-root", str(project),
                       "--now", MEMKIT_NOW)
    after = snapshot(memory)
    changed = [p for p, data in before.items() if after.get(p) != data]
    if changed:
        tally.fail("peer-init", f"memkit init --extended changed existing peer files {changed} "
                                "(compaction.md §16: never overwrites)")
    else:
        tally.init_preserved += len(before)
    compare("peer-init+memkit-init", project, runner, tally)


def case_memkit_init(project: Path, runner: Runner, tally: Tally, rng: random.Random) -> None:
    shutil.rmtree(project / "docs")
    runner.memkit_json("custodian", "init", "--extended", "--project-root", str(project),
                       "--now", MEMKIT_NOW)
    compare("memkit-init", project, runner, tally)


def fill(project: Path, rng: random.Random, styles: list[str], target_of) -> None:
    memory = project / "docs" / "memory"
    shapes = {"brief.md": "prose", "decisions.md": "entries", "constraints.md": "bullets",
              "do-not-use.md": "entries", "preferences.md": "bullets", "changelog.md": "changelog",
              "rules/alpha.md": "bullets", "profiles/beta.md": "prose", "areas/gamma.md": "entries"}
    budgets = {**CORE_BUDGETS, **MODULE_BUDGETS}
    for i, (rel, budget) in enumerate(budgets.items()):
        style = styles[i % len(styles)]
        write(memory, rel, sized_text(rng, style, shapes[rel], rel.split("/")[-1][:-3].title(),
                                      target_of(budget)))
    write(memory, "inbox.md", inbox_text(rng, styles[0], rng.randint(5, 45)))


def make_boundary_case(offset: int):
    def case(project: Path, runner: Runner, tally: Tally, rng: random.Random) -> None:
        order = list(STYLES)
        rng.shuffle(order)
        fill(project, rng, order, lambda budget: budget + offset)
        compare(f"budget{offset:+d}", project, runner, tally)
    return case


def case_near_limit(project: Path, runner: Runner, tally: Tally, rng: random.Random) -> None:
    # 80 % is NEAR LIMIT for memkit and OK for the peer (§19 row 15): neither is OVER BUDGET.
    fill(project, rng, list(STYLES), lambda budget: budget * 80 // 100)
    compare("near-limit", project, runner, tally)


def make_style_case(style: str):
    def case(project: Path, runner: Runner, tally: Tally, rng: random.Random) -> None:
        fill(project, rng, [style], lambda budget: rng.randint(budget // 3, budget * 3 // 2))
        compare(f"style-{style}", project, runner, tally)
    return case


CASES = [("peer-init", case_peer_init), ("memkit-init", case_memkit_init)]
CASES += [(f"budget{o:+d}", make_boundary_case(o)) for o in (-1, 0, 1)]
CASES += [("near-limit", case_near_limit)]
CASES += [(f"style-{s}", make_style_case(s)) for s in STYLES]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: custodian_peer.py MEMKIT_CLI", file=sys.stderr)
        return 2
    memkit = argv[1]
    peers_dir = os.environ.get("MEMKIT_PEERS_DIR", "")
    if not peers_dir:
        print("SKIP: MEMKIT_PEERS_DIR is unset or empty; set it to the folder holding "
              f"{PEER_FOLDER}/ (spec peers.md §2) to run this differential test")
        return SKIP
    peer = Path(peers_dir) / PEER_FOLDER
    if not (peer / "bin" / "memory-custodian").is_file():
        print(f"SKIP: no MemoryCustodian peer at MEMKIT_PEERS_DIR/{PEER_FOLDER} ({peer}); "
              "check it out there at v0.9.1 to run this differential test")
        return SKIP
    if not os.access(memkit, os.X_OK):
        print(f"FAIL: {memkit} is not an executable memkit CLI", file=sys.stderr)
        return 1

    runner = Runner(memkit, peer)
    print(f"peer: {peer}; faketime: {runner.faketime or 'not installed, peer runs unpinned'}")
    tally = Tally()
    rng = random.Random(SEED)
    for name, case in CASES:
        tally.cases += 1
        project = Path(tempfile.mkdtemp(prefix=f"memkit-diff-{name}-"))
        failures_before = len(tally.failures)
        try:
            init = runner.peer("init", "--project-root", str(project), "--extended")
            if init.returncode != 0:
                raise Failure(f"peer init failed: {init.returncode} {init.stdout!r} {init.stderr!r}")
            case(project, runner, tally, rng)
        except Failure as exc:
            tally.fail(name, str(exc))
        if len(tally.failures) == failures_before and not os.environ.get("MEMKIT_DIFF_KEEP"):
            shutil.rmtree(project, ignore_errors=True)
        else:
            print(f"[{name}] kept: {project}")

    print(f"cases {tally.cases}; files compared {tally.files}: tokens agree {tally.token_agree}, "
          f"OVER BUDGET verdicts agree {tally.over_agree} ({tally.over_true} over); check "
          f"over-budget sets agree in {tally.check_agree} runs; inbox items agree "
          f"{tally.items_agree}; H2 entries agree {tally.entries_agree}; peer files kept "
          f"byte-identical by memkit init {tally.init_preserved}")
    for failure in tally.failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
