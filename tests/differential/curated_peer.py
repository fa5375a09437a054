#!/usr/bin/env python3
"""Differential test: `memkit curated` against the reference Gaia CLI (`gaia memory`) of
metraton/gaia, the peer of curated.md (spec peers.md §1, §2.4; curated.md §12).

Usage: curated_peer.py MEMKIT_BINARY [CASES | @SEED] [--seed S]
       curated_peer.py MEMKIT_BINARY --self-check [CASES] [--seed S]

  MEMKIT_BINARY  the memkit CLI, for example /tmp/build-diff/src/cli/memkit
  CASES          how many generated cases to run (default 40): case index i has the seed S+i;
                 or `@N`, the one case with seed N (to rerun a failure)
  --seed S       the first seed (default 20261130)
  --self-check   plants a disagreement on memkit's side of the first CASES cases (default 4)
                 that have a step the plant changes, once per plant (MEMKIT_DIFF_PLANT), and
                 passes only when every case a plant touched is reported as differing

The peer is $MEMKIT_PEERS_DIR/metraton+gaia/bin/gaia at
6da4471d3d9f17181c16ab8e3ae02e51b1ec7239 (stdlib Python >= 3.11 with sqlite3 and FTS5). When
MEMKIT_PEERS_DIR is unset or empty, the peer is missing, faketime is not installed (the peer
stamps rows with datetime.now() at one-second resolution, so its clock must be pinned), or the
memkit CLI has no `curated add` yet, the script prints a message and exits 77 (skipped).

Each case is a fresh temporary root: the peer runs with HOME=<root>/peer and
GAIA_DATA_DIR=<root>/peer/.gaia (its SQLite database), memkit with `--store <root>/memkit`; both
use workspace ws1. A case is a seeded random sequence of steps, each run on both sides at the
same second: the peer as `TZ=UTC faketime -f 'YYYY-MM-DD HH:MM:SS' python3 bin/gaia memory CMD
ARGS --workspace=ws1 --json`, memkit as `memkit curated CMD ARGS --store DIR --workspace ws1
--format json --now YYYY-MM-DDTHH:MM:SS+00:00`. The clock starts at 2026-11-30 09:00:00 and moves
on by 1-600 s between steps (now and then not at all, so that two writes share a second). The
peer's bytecode is cached in a folder of the run (PYTHONPYCACHEPREFIX), never in its checkout.

A case opens with 3-4 adds of distinct names (one case in eight first adds a dozen threads in a
dozen initiatives, so that the digest budget trims), then 5-11 random steps, and mostly ends on
the story of a linked row (sometimes after linking two rows, soft-deleting the source and
showing the destination's links):
- add: random type, class, status, initiative or project ref, description and body; invalid
  ones too: a slug that does not fit its type, a loose legacy slug, a status on a non-thread, a
  status without --class on insert, unknown type/class/status, an empty body, an initiative
  that normalises to nothing; repeats that change nothing;
- reclassify: valid and invalid, of live, soft-deleted and missing rows;
- link and unlink: valid, existing, the same pair with a second kind, self-links, to
  soft-deleted or missing rows, an unknown kind;
- delete: soft, twice, hard, missing;
- checkpoint: valid payloads (memkit gets English or Spanish keys, the peer Spanish), and
  malformed (bad JSON, missing or non-object parts) or invalid ones (unknown type, a slug that
  does not fit, a name twice, a loose legacy slug, an empty body);
- get-relevant: the digest, with and without --max-chars; --initiative with a key, the
  no-initiative bucket, an unknown key, a key that normalises to nothing;
- show, with and without --links; story (memkit: story and lineage), with and without
  --max-depth and --include-deleted.

How it compares. The script keeps one model of the workspace per side: the rows (type, class,
status, initiative, description, body, deleted, updated time, the injection and deliberate
counters) and the links. Both models apply the same rules; they differ only through the
known differences of curated.md §12 (and the §6 decisions §12's table leaves out). Every one
is listed in KNOWN_DIFFERENCES with its spec reference; the models take them through
Model.differs() and the comparisons through Run.known(), nowhere else, and the summary counts
how often each one decided an outcome. After each step:
- the peer must match its model: this holds the model to the reference behaviour. A mismatch
  is reported as "peer vs model" (the script's error, or a peer behaviour no row of §12 names);
- memkit must match its model, which is the peer's with the known differences applied; a
  mismatch is reported as "memkit", with the peer's value beside it.
What is compared (only what curated.md §12 "Safe to compare directly" and peers.md §2.4 allow):
- accept versus refuse of every step (exit 0 versus non-zero); memkit's refusals are also
  held to their finding code and exit class (§13: fatal and blocker 2, error 1);
- the rows after every step (`list` on both sides, with --include-deleted on memkit; without
  a memkit `list` its row files and access log are read instead): the same live rows, each with
  its type, class, status, description and updated_at (seconds), and the injection and
  deliberate counters with their last times: which counters each read moved;
- live-pending membership and order, in get-relevant's items: the digest's rows, buckets,
  pending_count, memory_status, descriptions (cut at 60 code points) and overflow count; in
  initiative mode every row (uncapped), its class, status, description and body, and an empty
  block for no rows;
- show's fields and counters (this read included) and, with --links, its links;
- checkpoint all-or-nothing: a malformed or invalid payload changes nothing on either side,
  a valid one upserts and links as the model says (per operation);
- reclassify's class and status rules; link, unlink and delete results;
- lineage: story's (and memkit lineage's) nodes with depth and role, edges with creation time,
  and final states (class, status, type, present).
Not compared: wording (blocks, messages), search, history records, the story timeline (its
rows in §12 differ in birth approximation, reclass events and statuses at birth), `stats`,
reply key names beyond the mappings of §12 "Result key names".

A difference stops its case. A failing case prints its seed, every step up to the failing one
and each difference; its root is kept. The summary line is "N of M cases agree".

Environment: MEMKIT_DIFF_KEEP=1 keeps every case's root; MEMKIT_DIFF_JOBS=N runs N cases at once
(default: the CPU count); MEMKIT_DIFF_VERBOSE=1 prints a line per case; MEMKIT_DIFF_PLANT=KIND
plants a disagreement on memkit's side, so that the run must fail: `clock` (the first write
that changes a row runs one second later), `description` (the first add with a description
gets " planted" appended), `read` (the first read that moves a counter runs twice).

Exit: 0 when every case agrees (or --self-check caught every plant), 1 on any difference, 2 on
a usage error, 77 when skipped.
"""

from __future__ import annotations

import concurrent.futures
import copy
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import peer_setup  # noqa: E402  (tests/support, shared with the other *_peer.py scripts)

PEER = peer_setup.Peer(
    "metraton+gaia", Path("bin") / "gaia", "peers.md §1, §2.4", "Gaia CLI",
    "check out metraton/gaia at 6da4471d3d9f17181c16ab8e3ae02e51b1ec7239 there (peers.md §1)",
    clock_why="the Gaia CLI stamps rows with datetime.now() at one-second resolution, so its "
              "clock must be pinned")
START = datetime(2026, 11, 30, 9, 0, 0, tzinfo=timezone.utc)
SEED = 20261130
DEFAULT_CASES = 40
SELF_CHECK_CASES = 4
PLANTS = ("clock", "description", "read")
WS = "ws1"
PEER_SIDE, MK_SIDE = "peer", "memkit"

TYPES = ("project", "user", "feedback", "atom", "decision", "negative")
PREFIXED = ("atom", "decision", "negative")
CLASSES = ("anchor", "thread", "log")
STATUSES = ("open", "carry_forward", "graduated", "closed")
KINDS = ("relates_to", "supersedes", "derived_from", "graduated_to")
SLUG = re.compile(r"[a-z0-9][a-z0-9_]{0,127}")
# §10: a neighbour's role, by link kind and by the side of the link the known node is on.
ROLE = {("supersedes", "out"): "superseded", ("supersedes", "in"): "successor",
        ("graduated_to", "out"): "graduation_target", ("graduated_to", "in"): "graduated_thread",
        ("derived_from", "out"): "source", ("derived_from", "in"): "derivative",
        ("relates_to", "out"): "related", ("relates_to", "in"): "related"}
DIGEST_TOP = 10            # §8: buckets shown at most
DIGEST_DESC = 60           # §8: code points of a digest description
DIGEST_BUDGET = 800        # §8: --max-chars default
NULL_BUCKET = {PEER_SIDE: "otros", MK_SIDE: "_none"}

ARG, CUR3, CUR5, CUR7 = "MK-ARG-001", "MK-CUR-003", "MK-CUR-005", "MK-CUR-007"
CUR10, CUR11, CUR20, CUR21 = "MK-CUR-010", "MK-CUR-011", "MK-CUR-020", "MK-CUR-021"
# §13 and compaction.md §17: the exit code of a refusal by each code (fatal or BLOCKER 2,
# ERROR 1). MK-CUR-020 is 2 for a shape error and 1 otherwise; the step says which.
EXIT_OF = {ARG: 2, CUR3: 2, CUR5: 2, CUR7: 2, CUR10: 1, CUR11: 1}

# ---------------------------------------------------------------------------- known differences

# Every way the two sides may differ on what this script compares, with where the spec says so.
# The models apply them through Model.differs(), the comparisons through Run.known(), and
# nowhere else; the summary counts how often each one decided an outcome.
KNOWN_DIFFERENCES = {
    "noop-write": (
        "§5, §12 'No-op upsert'",
        "the peer stamps updated_at on every add, reclassify and checkpoint upsert, even one "
        "that changes nothing; memkit leaves a no-op alone (Updated kept, no history)"),
    "add-description": (
        "§6, §12 'add with description omitted'",
        "an upsert without a description clears it on the peer and keeps it on memkit (for "
        "checkpoint upserts too)"),
    "add-half-applied": (
        "§6, §12 'add --status without --class on insert'",
        "the peer's add upserts the row before it checks --class/--status and keeps the upsert "
        "when it then refuses (exit 1); memkit checks first and writes nothing (MK-CUR-007, "
        "MK-ARG-001)"),
    "add-status-null-insert": (
        "§6 (OUR DECISION: any --status without --class on insert, null included)",
        "`add --status null` without --class on insert: the peer inserts a log, memkit refuses "
        "(MK-CUR-007)"),
    "body-ending": (
        "§4 'Body ending', §12",
        "the peer keeps a body's trailing blank lines, memkit drops them (so a repeat that "
        "differs only there is a no-op on memkit)"),
    "self-link": (
        "§7, §12 'Links'", "the peer accepts a self-link; memkit refuses it (MK-CUR-010)"),
    "link-deleted": (
        "§7, §12 'Links'",
        "the peer accepts a link from or to a soft-deleted row; memkit refuses it (MK-CUR-010)"),
    "checkpoint-duplicate": (
        "§10, §12 'Checkpoint with a name twice'",
        "the peer applies a payload that names a row twice, in order; memkit rejects it "
        "(MK-CUR-020 with MK-CUR-021) and writes nothing"),
    "empty-initiative": (
        "§3, §12 '--initiative that normalises to nothing'",
        "the peer ignores such an --initiative on add and reads the null bucket with it in "
        "get-relevant; memkit refuses it (MK-ARG-001)"),
    "legacy-slug": (
        "§3, §12 'Legacy slugs'",
        "a project/user/feedback slug outside ^[a-z0-9][a-z0-9_]{0,127}$: the peer accepts it, "
        "memkit refuses it (MK-CUR-003)"),
    "deleted-reclassify": (
        "§6 'Soft-deleted rows and writes' (OUR DECISION; not in §12's table)",
        "reclassify of a soft-deleted row: the peer changes the hidden row, memkit refuses "
        "(MK-CUR-011)"),
    "delete-twice": (
        "§6 'curated delete' (not in §12's table)",
        "a soft delete of a soft-deleted row: the peer says not found (exit 1), memkit does "
        "nothing (exit 0)"),
    "show-in-links-deleted": (
        "§8 'Soft-deleted rows' (OUR DECISION: invisible to every read but show/list "
        "--include-deleted, story and lineage; not in §12's table)",
        "show --links: the peer lists an incoming link whose source row is soft-deleted; memkit "
        "leaves it out unless --include-deleted (the row's own outgoing Link: lines always show)"),
    "hard-delete": (
        "§6, §12 'Hard delete'",
        "a hard delete removes the row only on the peer, its links stay; memkit also removes "
        "every link from or to it"),
    "story-deleted-seed": (
        "§10, §12 'Story of a soft-deleted seed'",
        "the peer tells the story of a soft-deleted seed; memkit needs --include-deleted "
        "(MK-CUR-011 without it)"),
    "null-bucket": (
        "§8, §12 'Digest wording'",
        "the no-initiative bucket is `otros` on the peer and `_none` on memkit, in replies and "
        "as the --initiative value"),
    "digest-budget": (
        "§8, §12 'Digest wording'",
        "the peer's longer wording and fixed footer leave room for fewer buckets: its digest "
        "shows a prefix of memkit's buckets; memkit's count follows its own 800 budget"),
    "same-second": (
        "§8, peers.md §2.4",
        "rows updated in the same second: the peer orders them arbitrarily (and picks any of "
        "them to top a digest bucket), memkit by name"),
    "lineage-discovery": (
        "§10 'Walk order' (OUR DECISION)",
        "a node reached by several edges at one level takes the role of the first; memkit's "
        "order is by name, kind and endpoint, the peer's is SQLite's"),
    "exit-classes": (
        "§12 'Exit codes', §13",
        "only accept versus refuse is compared with the peer; memkit's refusals are held to "
        "their own finding code and exit class"),
    "reply-shapes": (
        "§12 'Result key names'",
        "replies are compared through the mappings of §12: action inserted|updated|noop|deleted "
        "versus result applied|unchanged, src_name/dst_name versus src/dst, mode tombstone "
        "versus soft, overflow_projects versus overflow_initiatives"),
}


# ---------------------------------------------------------------------------- small rules


def normalise(raw: str | None) -> str | None:
    """§3 initiative normalisation (ASCII input: both sides agree there)."""
    if raw is None:
        return None
    return re.sub(r"[^a-z0-9]+", "_", raw.strip().lower()).strip("_") or None


def derive_initiative(ref: str) -> str | None:
    """§3: the initiative a --project-ref names."""
    ref = ref.strip().rstrip("/")
    if ref.endswith("/.git"):
        ref = ref[:-5]
    elif ref.endswith(".git"):
        ref = ref[:-4]
    return normalise(ref.rsplit("/", 1)[-1])


def slug_problem(name: str, typ: str) -> str | None:
    """§3: "mismatch" (both sides refuse), "legacy" (only memkit refuses) or None."""
    if typ in PREFIXED:
        return None if re.fullmatch(rf"{typ}_[a-z0-9_]+", name) and len(name) <= 128 \
            else "mismatch"
    if re.match(r"(atom|decision|negative)_", name):
        return "mismatch"
    return None if SLUG.fullmatch(name) else "legacy"


def digest_desc(desc: str | None) -> str:
    """§8: collapse(description) cut to 60 code points, then right-stripped with an ellipsis."""
    text = " ".join((desc or "").split())
    return text[:DIGEST_DESC].rstrip() + "…" if len(text) > DIGEST_DESC else text


def reclass_outcome(cur_cls: str, cur_status: str | None, cls: str | None,
                    status: str | None) -> tuple[str, str | None] | str:
    """§5 on (class, status): the new pair, or the refusal's code. `status` "null" clears."""
    if status is not None and status != "null" and status not in STATUSES:
        return ARG
    new_cls = cls if cls is not None else cur_cls
    if status is not None:
        new_status = None if status == "null" else status
    elif cur_cls == "thread" and cls is not None and cls != "thread":
        new_status = None
    else:
        new_status = cur_status
    if new_status is not None and new_cls != "thread":
        return CUR7
    return new_cls, new_status


def iso(t: int | None) -> str | None:
    return None if t is None else \
        datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(value) -> float | None:
    """A timestamp of either side as epoch seconds: the peer's `...SSZ`, memkit's `...SS.mmmZ`.
    Anything else stays as it is (and then equals no model value)."""
    if value is None or not isinstance(value, str):
        return value
    for fmt in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S.%fZ"):
        try:
            return datetime.strptime(value, fmt).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            pass
    return value


def tie_prefix_ok(actual: list, groups: list[list]) -> bool:
    """Whether `actual` is a prefix of some order of `groups` (each group's members in any
    order): the peer's view of a sequence whose ties it does not break."""
    i = 0
    for group in groups:
        if i >= len(actual):
            return True
        take = actual[i:i + len(group)]
        if len(set(take)) != len(take) or not set(take) <= set(group):
            return False
        i += len(take)
    return i == len(actual)


# ---------------------------------------------------------------------------- the model


@dataclass
class Row:
    type: str
    body: str
    cls: str = "log"
    status: str | None = None
    initiative: str | None = None
    desc: str | None = None
    project_ref: str | None = None
    deleted: bool = False
    deleted_at: int | None = None
    upd: int = 0
    inj: int = 0
    inj_at: int | None = None
    dlb: int = 0
    dlb_at: int | None = None

    def content(self) -> tuple:
        return (self.type, self.body, self.cls, self.status, self.initiative, self.desc,
                self.project_ref, self.deleted)


@dataclass
class Expect:
    ok: bool
    codes: frozenset = frozenset()      # memkit: the finding codes that may refuse the step
    exit: int | None = None             # memkit: the refusal's exit code when not EXIT_OF's
    info: dict = field(default_factory=dict)


def refuse(codes, exit_code: int | None = None, **info) -> Expect:
    return Expect(False, frozenset(codes if not isinstance(codes, str) else {codes}), exit_code,
                  info)


class Model:
    """One side's view of workspace ws1. Both sides run the same rules; differs() is the one
    place where a known difference makes them part."""

    def __init__(self, side: str, tally: dict) -> None:
        self.side = side
        self.rows: dict[str, Row] = {}
        self.links: dict[tuple[str, str, str], int] = {}   # (src, dst, kind) -> created
        self.tally = tally

    def differs(self, diff: str) -> bool:
        """Whether this side takes the peer's branch of a known difference; counts it."""
        assert diff in KNOWN_DIFFERENCES, diff
        if self.side == PEER_SIDE:
            self.tally[diff] = self.tally.get(diff, 0) + 1
            return True
        return False

    def live(self, name: str) -> Row | None:
        row = self.rows.get(name)
        return row if row is not None and not row.deleted else None

    # -- writes ---------------------------------------------------------------------------

    def upsert(self, name: str, typ: str, body: str, desc: str | None, init: str | None,
               ref: str | None, cls_status: tuple | None, now: int) -> str:
        """§6 upsert: inserted, updated or unchanged (the peer never says unchanged)."""
        old = self.rows.get(name)
        new = copy.copy(old) if old else Row(typ, body, upd=now)
        new.type = typ
        # §4 body ending: memkit drops trailing blank lines, the peer keeps them.
        new.body = body if not body.endswith("\n") or self.differs("body-ending") \
            else body.rstrip("\n")
        if desc is not None or old is None or \
                (old.desc is not None and self.differs("add-description")):
            new.desc = desc
        if init is not None:
            new.initiative = init
        elif ref is not None and derive_initiative(ref) is not None:
            new.initiative = derive_initiative(ref)
        if ref is not None:
            new.project_ref = ref
        new.deleted, new.deleted_at = False, None
        if cls_status is not None:
            new.cls, new.status = cls_status
        changed = old is None or new.content() != old.content()
        if changed or self.differs("noop-write"):
            new.upd = now
        self.rows[name] = new
        return "inserted" if old is None else "updated" if changed or \
            self.side == PEER_SIDE else "unchanged"

    def add(self, a: dict, now: int) -> Expect:
        name, typ, body = a["name"], a["type"], a["body"]
        cls, status = a.get("class"), a.get("status")
        init_arg, ref = a.get("initiative"), a.get("project_ref")
        init = normalise(init_arg)
        codes = set()
        if typ not in TYPES or (cls is not None and cls not in CLASSES):
            codes.add(ARG)
        if not body.strip():
            codes.add(CUR5)
        slug = slug_problem(name, typ) if typ in TYPES else None
        if slug == "mismatch":
            codes.add(CUR3)
        if codes:
            return refuse(codes)       # the peer refuses these before it writes, too
        if slug == "legacy" and not self.differs("legacy-slug"):
            codes.add(CUR3)
        if init_arg is not None and init is None and not self.differs("empty-initiative"):
            codes.add(ARG)
        old = self.rows.get(name)
        outcome = None
        if cls is not None or status is not None:
            outcome = reclass_outcome(old.cls if old else "log", old.status if old else None,
                                      cls, status)
            if old is None and cls is None and \
                    not (status == "null" and self.differs("add-status-null-insert")):
                # §6: memkit refuses any --status without --class on insert; the peer's
                # reclassify of the new log refuses a real status (and an unknown one).
                if self.side == MK_SIDE:
                    codes |= {CUR7, ARG} if outcome == ARG else {CUR7}
        if self.side == MK_SIDE:
            if isinstance(outcome, str):
                codes.add(outcome)
            if codes:
                return refuse(codes)
        elif isinstance(outcome, str):
            # The peer upserts first and then refuses the class/status part (exit 1).
            self.differs("add-half-applied")
            self.upsert(name, typ, body, a.get("description"), init, ref, None, now)
            return refuse(outcome)
        action = self.upsert(name, typ, body, a.get("description"), init, ref,
                             outcome if isinstance(outcome, tuple) else None, now)
        return Expect(True, info={"action": action})

    def reclassify(self, a: dict, now: int) -> Expect:
        name, cls, status = a["name"], a.get("class"), a.get("status")
        codes = set()
        if cls is not None and cls not in CLASSES:
            codes.add(ARG)
        if status is not None and status != "null" and status not in STATUSES:
            codes.add(ARG)
        row = self.rows.get(name)
        if row is None or (row.deleted and not self.differs("deleted-reclassify")):
            codes.add(CUR11)
        if codes:
            return refuse(codes)
        outcome = reclass_outcome(row.cls, row.status, cls, status)
        if isinstance(outcome, str):
            return refuse(outcome)
        changed = outcome != (row.cls, row.status)
        row.cls, row.status = outcome
        if changed or self.differs("noop-write"):
            row.upd = now
        return Expect(True, info={"result": "applied" if changed else "unchanged"})

    def link(self, a: dict, now: int) -> Expect:
        src, dst, kind = a["src"], a["dst"], a["kind"]
        if kind not in KINDS:
            return refuse(ARG)
        key = (src, dst, kind)
        if a.get("delete"):
            created = self.links.pop(key, None)
            return Expect(True, info={"result": "unchanged" if created is None else "applied",
                                      "created": created})
        if src not in self.rows or dst not in self.rows:
            return refuse(CUR10)
        if src == dst and not self.differs("self-link"):
            return refuse(CUR10)
        if (self.rows[src].deleted or self.rows[dst].deleted) and \
                not self.differs("link-deleted"):
            return refuse(CUR10)
        if key in self.links:
            return Expect(True, info={"result": "unchanged", "created": self.links[key]})
        self.links[key] = now
        return Expect(True, info={"result": "applied", "created": now})

    def delete(self, a: dict, now: int) -> Expect:
        name, hard = a["name"], a.get("hard", False)
        row = self.rows.get(name)
        if row is None:
            return refuse(CUR11)
        if hard:
            del self.rows[name]
            if not self.differs("hard-delete"):
                for key in [k for k in self.links if name in k[:2]]:
                    del self.links[key]
            return Expect(True, info={"result": "applied", "deleted_at": None})
        if row.deleted:
            if self.differs("delete-twice"):
                return refuse(CUR11)
            return Expect(True, info={"result": "unchanged", "deleted_at": row.deleted_at})
        row.deleted, row.upd, row.deleted_at = True, now, now
        return Expect(True, info={"result": "applied", "deleted_at": now})

    def checkpoint(self, a: dict, now: int) -> Expect:
        """§10. a: {"variant", "record", "pending", "project_ref"}."""
        variant = a["variant"]
        if variant.startswith("shape:") or variant == "empty-body" and self.side == PEER_SIDE:
            return refuse(CUR20, 2, operations=[])       # the peer: bad_shape
        record, pending = a["record"], a["pending"]
        typ = record["type"]
        items = [record] + pending
        failed = None             # (operation index, code)
        seen: set[str] = set()
        for i, item in enumerate(items):
            if i == 0 and typ not in TYPES:
                failed = (0, ARG)
            elif slug_problem(item["name"], typ) == "mismatch":
                failed = (i, CUR3)
            elif slug_problem(item["name"], typ) == "legacy" and \
                    not self.differs("legacy-slug"):
                failed = (i, CUR3)
            elif item["name"] in seen and not self.differs("checkpoint-duplicate"):
                failed = (i, CUR21)
            elif not item["body"].strip():
                failed = (i, CUR5)
            if failed:
                break
            seen.add(item["name"])
        if failed:
            return refuse(CUR20, 1, failed=failed, operations=len(items) + len(pending))
        ref = a.get("project_ref")
        ops = [("upsert", record["name"],
                self.upsert(record["name"], typ, record["body"], record.get("description"), None,
                            ref, ("anchor", None), now))]
        for p in pending:
            ops.append(("upsert", p["name"],
                        self.upsert(p["name"], typ, p["body"], p.get("description"), None, ref,
                                    ("thread", "carry_forward"), now)))
        for p in pending:
            key = (p["name"], record["name"], "derived_from")
            if key in self.links:
                ops.append(("link", p["name"], "unchanged"))
            else:
                self.links[key] = now
                ops.append(("link", p["name"], "applied"))
        return Expect(True, info={"ops": ops})

    # -- reads ----------------------------------------------------------------------------

    def pending(self) -> list[str]:
        """§8 live pending, by Updated descending, then name."""
        retired = {dst for (_, dst, kind) in self.links if kind == "supersedes"}
        names = [n for n, r in self.rows.items()
                 if r.cls == "thread" and r.status in ("open", "carry_forward") and not r.deleted
                 and n not in retired]
        return sorted(names, key=lambda n: (-self.rows[n].upd, n))

    def groups(self, names: list[str]) -> list[list[str]]:
        """names (in live-pending order) cut into runs with the same Updated second."""
        out: list[list[str]] = []
        for n in names:
            if out and self.rows[out[-1][0]].upd == self.rows[n].upd:
                out[-1].append(n)
            else:
                out.append([n])
        return out

    def buckets(self) -> list[tuple[str | None, list[str]]]:
        """§8: the live pending rows by initiative, freshest bucket first, then by key."""
        by: dict[str | None, list[str]] = {}
        for n in self.pending():
            by.setdefault(self.rows[n].initiative, []).append(n)
        return sorted(by.items(), key=lambda kv: (-self.rows[kv[1][0]].upd,
                                                  kv[0] if kv[0] is not None else "_none"))

    def count(self, names, kind: str, now: int) -> None:
        for n in names:
            row = self.rows[n]
            if kind == "injection":
                row.inj, row.inj_at = row.inj + 1, now
            else:
                row.dlb, row.dlb_at = row.dlb + 1, now

    def walk(self, seed: str, max_depth: int) -> dict:
        """§10 lineage: nodes {name: depth}, memkit's role, the roles the peer may give (every
        edge of the first group, outgoing or incoming, that reaches the node at its level) and
        the edges in memkit's first-traversed order."""
        depth, role, allowed = {seed: 0}, {seed: "queried"}, {seed: {"queried"}}
        edges: list[tuple[str, str, str]] = []
        frontier = [seed]
        for hop in range(max_depth):
            if not frontier:
                break
            found: list[str] = []
            for direction in ("out", "in"):
                group_found: set[str] = set()
                for node in sorted(frontier):
                    if direction == "out":
                        mine = sorted((k for k in self.links if k[0] == node),
                                      key=lambda k: (k[2], k[1]))
                    else:
                        mine = sorted((k for k in self.links if k[1] == node),
                                      key=lambda k: (k[2], k[0]))
                    for key in mine:
                        if key not in edges:
                            edges.append(key)
                        other = key[1] if direction == "out" else key[0]
                        r = ROLE[(key[2], direction)]
                        if other not in depth:
                            depth[other], role[other], allowed[other] = hop + 1, r, {r}
                            found.append(other)
                            group_found.add(other)
                        elif other in group_found:
                            allowed[other].add(r)
            frontier = found
        return {"depth": depth, "role": role, "allowed": allowed, "edges": edges}


# ---------------------------------------------------------------------------- generation

NAMES = ["project_alpha", "project_beta", "project_x1", "feedback_ci", "feedback_docs",
         "user_prefs", "user_tz", "atom_cache", "atom_retry_rule", "decision_db",
         "decision_api_v2", "negative_mocks"]
LEGACY_LOOSE = ["Project-Alpha", "feedback.ci", "user prefs", "projectAlpha"]
INITIATIVES = ["Demo Init", "gaia", "Alpha-Beta v2", "ops", "x1", "Diagram Builder",
               "Gaia-System v2", "billing"]
EMPTY_INITIATIVES = ["  ", "!!", "__", "?"]
PROJECT_REFS = ["/srv/repos/gaia/.git", "github.com/me/Tool.git", "/work/ops/", "a/b/billing"]
WORDS = ["cache", "retry", "deploy", "parser", "budget", "index", "queue", "review", "tests",
         "green", "flaky", "build", "runner", "timeout", "docs", "schema", "api", "v2", "42",
         "Friday", "owner", "rollback", "café", "naïve", "migration", "lock"]


def phrase(rng: random.Random, lo: int, hi: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi))).capitalize()


def description(rng: random.Random) -> str:
    """One line, single spaces, sometimes over 60 code points (the digest cuts it)."""
    text = phrase(rng, 1, 4) if rng.random() < 0.5 else phrase(rng, 8, 14)
    return text if not text.startswith("-") else "x" + text


def body(rng: random.Random) -> str:
    """A body the peer stores without asking for a description (no heading, fence or three
    line breaks in a row: its `rich body` rule), sometimes with trailing blank lines."""
    r = rng.random()
    if r < 0.03:
        return rng.choice(["   ", "\n", " \n "])            # empty after strip: refused
    text = phrase(rng, 1, 8)
    if r < 0.25:
        text += "\n" + phrase(rng, 1, 6)
    elif r < 0.35:
        text += "\n\n" + phrase(rng, 1, 6)
    r = rng.random()
    return text + ("\n" if r < 0.1 else "\n\n" if r < 0.15 else "")


def natural_type(rng: random.Random, name: str) -> str:
    prefix = name.split("_")[0]
    if prefix in PREFIXED:
        return prefix
    return prefix if rng.random() < 0.85 else rng.choice(["project", "user", "feedback"])


@dataclass
class Step:
    kind: str         # add reclassify link delete checkpoint digest initiative show story
    when: datetime
    args: dict

    @property
    def t(self) -> int:
        return int(self.when.timestamp())


@dataclass
class Case:
    seed: int
    steps: list[Step]
    root: Path | None = None
    done: int = 0
    failed_step: int | None = None
    differences: list[str] = field(default_factory=list)
    tally: dict = field(default_factory=dict)
    known: dict = field(default_factory=dict)
    planted: bool = False


WRITES = ("add", "reclassify", "link", "delete", "checkpoint")
READS = ("digest", "initiative", "show", "story")
# The memkit commands each step kind needs (a missing one keeps the kind out of the cases).
NEEDS = {"add": ("add",), "reclassify": ("reclassify",), "link": ("link",),
         "delete": ("delete",), "checkpoint": ("checkpoint",), "digest": ("get-relevant",),
         "initiative": ("get-relevant",), "show": ("show",), "story": ("story", "lineage")}


def gen_add(rng: random.Random, pool: list[str], inits: list[str], last: dict,
            fresh: str | None = None) -> dict:
    """An add; `fresh` names a row of the opening, which always has its natural type."""
    r = rng.random()
    if fresh is not None:
        name, typ = fresh, natural_type(rng, fresh)
    elif r < 0.05:
        name, typ = rng.choice(LEGACY_LOOSE), rng.choice(["project", "user", "feedback"])
    elif r < 0.12:
        name = rng.choice(pool)
        typ = rng.choice([t for t in TYPES if slug_problem(name, t) == "mismatch"])
    elif (name := rng.choice(pool)) in last and rng.random() < 0.25:
        return dict(last[name])                  # a repeat: a no-op on memkit
    else:
        typ = natural_type(rng, name)
    if rng.random() < 0.03:
        typ = "bogus"
    a: dict[str, Any] = {"name": name, "type": typ, "body": body(rng)}
    if rng.random() < 0.65:
        a["description"] = description(rng)
    cls = rng.choices([None, "thread", "anchor", "log", "weird"], [25, 50, 10, 10, 3])[0]
    if cls is not None:
        a["class"] = cls
    if cls == "thread":
        status = rng.choices(["open", "carry_forward", "graduated", "closed", None, "done"],
                             [40, 30, 8, 8, 10, 3])[0]
    elif cls is None:
        status = rng.choices([None, "open", "closed", "null", "done"], [80, 10, 3, 5, 2])[0]
    else:
        status = rng.choices([None, "open", "null"], [85, 10, 5])[0]
    if status is not None:
        a["status"] = status
    r = rng.random()
    if r < 0.5:
        a["initiative"] = rng.choice(inits)
    elif r < 0.54:
        a["initiative"] = rng.choice(EMPTY_INITIATIVES)
    elif r < 0.6:
        a["project_ref"] = rng.choice(PROJECT_REFS)
    last[name] = dict(a)
    return a


def gen_checkpoint(rng: random.Random, pool: list[str]) -> dict:
    variant = rng.choices(["valid", "shape", "duplicate", "slug", "type", "legacy",
                           "empty-body"], [62, 14, 7, 6, 3, 3, 5])[0]
    rec_name = rng.choice(pool + ["project_rec1", "decision_rec2"])
    typ = natural_type(rng, rec_name)
    fits = [n for n in pool if slug_problem(n, typ) is None and n != rec_name]
    fits += [f"{typ}_thr{k}" for k in (1, 2, 3)]
    pending = [{"name": n} for n in rng.sample(fits, rng.choice([0, 1, 1, 2, 2, 3]))]
    record = {"name": rec_name, "type": typ}
    for item in [record] + pending:
        item["body"] = phrase(rng, 1, 6) + rng.choice(["", "", "\n", "\n\n"])
        if rng.random() < 0.6:
            item["description"] = description(rng)
    if variant == "duplicate":
        pending.append({"name": rng.choice([rec_name] + [p["name"] for p in pending]),
                        "body": phrase(rng, 1, 3)})
    elif variant == "slug":
        bad = rng.choice([n for n in NAMES if slug_problem(n, typ) == "mismatch"])
        pending.insert(rng.randrange(len(pending) + 1), {"name": bad, "body": "b"})
    elif variant == "type":
        record["type"] = "bogus"
    elif variant == "legacy":
        if typ in PREFIXED:
            variant = "valid"
        else:
            pending.append({"name": rng.choice(LEGACY_LOOSE), "body": "b"})
    elif variant == "empty-body":
        rng.choice([record] + pending)["body"] = rng.choice(["", "   "])
    elif variant == "shape":
        variant = "shape:" + rng.choice(["not-json", "no-record", "record-not-object",
                                         "missing-body", "missing-name", "missing-type",
                                         "pending-not-list", "pending-item-not-object"])
    a = {"variant": variant, "record": record, "pending": pending,
         "english": rng.random() < 0.5}
    if rng.random() < 0.3:
        a["project_ref"] = rng.choice(PROJECT_REFS)
    return a


def build_case(seed: int, available: set[str]) -> Case:
    rng = random.Random(seed)
    pool = rng.sample(NAMES, rng.randint(3, 6))
    inits = rng.sample(INITIATIVES, 3)
    kinds = [k for k in ("reclassify", "link", "delete", "checkpoint", "digest", "initiative",
                         "show", "story") if any(c in available for c in NEEDS[k])]
    weights = {"reclassify": 14, "link": 20, "delete": 10, "checkpoint": 9, "digest": 9,
               "initiative": 7, "show": 9, "story": 9}
    steps: list[Step] = []
    when = START
    last: dict[str, dict] = {}
    hard_deleted: set[str] = set()
    soft_deleted: list[str] = []     # names a soft delete was aimed at: later steps aim at them
    linked: list[str] = []           # link endpoints: the lineage reads aim at them

    def target() -> str:
        """A name later steps act on: now and then a soft-deleted one, mostly one an add
        named (so that most links find both rows)."""
        if soft_deleted and rng.random() < 0.3:
            return rng.choice(soft_deleted)
        added = [s.args["name"] for s in steps if s.kind == "add" and s.args["name"] in pool]
        return rng.choice(added if added and rng.random() < 0.85 else pool)

    def tick() -> datetime:
        nonlocal when
        when += timedelta(seconds=0 if rng.random() < 0.05 else rng.randint(1, 600))
        return when

    if "digest" in kinds and rng.random() < 0.12:
        # Wide: a dozen threads in a dozen initiatives with long descriptions, so that the
        # digest's budget (and the 10-bucket cap) trims on both sides.
        for i in range(rng.randint(11, 13)):
            steps.append(Step("add", tick(), {
                "name": f"project_w{i}", "type": "project", "body": phrase(rng, 1, 4),
                "description": phrase(rng, 10, 14), "class": "thread",
                "status": rng.choice(["open", "carry_forward"]),
                "initiative": f"{rng.choice(INITIATIVES)} {i}"}))
        steps.append(Step("digest", tick(), {"max_chars": rng.choice([None, None, 500, 1200])}))
    # The opening adds most of the pool, so that later steps mostly find their rows.
    for name in rng.sample(pool, min(len(pool), rng.randint(3, 4))):
        steps.append(Step("add", tick(), gen_add(rng, pool, inits, last, fresh=name)))
    for _ in range(rng.randint(5, 11)):
        kind = rng.choices(["add"] + kinds, [26] + [weights[k] for k in kinds])[0]
        if kind == "add":
            a = gen_add(rng, pool, inits, last)
        elif kind == "reclassify":
            a = {"name": target() if rng.random() < 0.92 else "project_missing"}
            r = rng.random()
            if r < 0.45:
                a["status"] = rng.choice(STATUSES + ("null",)) if rng.random() < 0.9 else "done"
            elif r < 0.75:
                a["class"] = rng.choice(CLASSES) if rng.random() < 0.95 else "weird"
            else:
                a["class"] = rng.choice(CLASSES)
                a["status"] = rng.choice(STATUSES + ("null",))
        elif kind == "link":
            src = target()
            r = rng.random()
            dst = src if r < 0.1 else "project_missing" if r < 0.16 else target()
            a = {"src": src, "dst": dst, "kind": rng.choice(KINDS) if rng.random() < 0.95
                 else "blocks"}
            linked.extend((src, dst))
            if rng.random() < 0.15:
                a["delete"] = True
                a["verb"] = rng.choice(["unlink", "link"]) if "unlink" in available \
                    else "link"
            elif rng.random() < 0.35 and src != dst and a["kind"] in KINDS:
                # The same pair again with another kind, or the other way round: a node that
                # two edges reach at one lineage level (§10 walk order).
                steps.append(Step(kind, tick(), a))
                a = dict(a, kind=rng.choice([k for k in KINDS if k != a["kind"]]))
                if rng.random() < 0.25:
                    a["src"], a["dst"] = dst, src
        elif kind == "delete":
            a = {"name": target() if rng.random() < 0.93 else "project_missing"}
            if linked and rng.random() < 0.35:
                a["name"] = rng.choice(linked)   # a link endpoint: its links outlive it
            if rng.random() < 0.15:
                a["hard"] = True
                hard_deleted.add(a["name"])
            else:
                soft_deleted.append(a["name"])
        elif kind == "checkpoint":
            a = gen_checkpoint(rng, pool)
        elif kind == "digest":
            a = {"max_chars": rng.choice([None, None, None, 300, 800, 2000])}
        elif kind == "initiative":
            r = rng.random()
            a = {"initiative": rng.choice(inits) if r < 0.65 else None if r < 0.85
                 else "zzz_unknown" if r < 0.93 else rng.choice(EMPTY_INITIATIVES)}
        elif kind == "show":
            a = {"name": target() if rng.random() < 0.95 else "project_missing",
                 "links": rng.random() < 0.5}
            if linked and rng.random() < 0.5:
                a["name"] = rng.choice(linked)
        else:
            seeds = [n for n in pool + soft_deleted + linked * 2 if n not in hard_deleted] + \
                ["project_missing"]
            a = {"seed": rng.choice(seeds), "include_deleted": rng.random() < 0.5,
                 "max_depth": rng.choice([None, None, None, 1, 2, 3])}
        steps.append(Step(kind, tick(), a))
    added = sorted({s.args["name"] for s in steps if s.kind == "add" and s.args["name"] in pool})
    if {"link", "delete", "show"} <= set(kinds) and len(added) >= 2 and rng.random() < 0.2:
        # A link that outlives its soft-deleted source: the shown row still has it coming in
        # (§7 keeps it, and it still retires a `supersedes` dst in live pending).
        src, dst = rng.sample(added, 2)
        steps.append(Step("link", tick(), {"src": src, "dst": dst, "kind": rng.choice(KINDS)}))
        steps.append(Step("delete", tick(), {"name": src}))
        steps.append(Step("show", tick(), {"name": dst, "links": True}))
        linked.extend((src, dst))
        soft_deleted.append(src)
    if "story" in kinds and linked and rng.random() < 0.75:
        # Most cases end on the lineage of a linked row, once the links are there.
        seeds = [n for n in linked if n not in hard_deleted and n != "project_missing"]
        if seeds:
            steps.append(Step("story", tick(), {"seed": rng.choice(seeds),
                                                "include_deleted": rng.random() < 0.7,
                                                "max_depth": rng.choice([None, None, 2])}))
    return Case(seed, steps)


# ---------------------------------------------------------------------------- arguments


def peer_args(step: Step, root: Path) -> list[str]:
    a, k = step.args, step.kind
    if k == "add":
        out = ["add", f"--name={a['name']}", f"--type={a['type']}", f"--body={a['body']}"]
        for key, flag in (("description", "--description"), ("class", "--class"),
                          ("status", "--status"), ("initiative", "--initiative"),
                          ("project_ref", "--project-ref")):
            if key in a:
                out.append(f"{flag}={a[key]}")
        return out
    if k == "reclassify":
        return ["reclassify", a["name"]] + [f"--{key}={a[key]}" for key in ("class", "status")
                                            if key in a]
    if k == "link":
        return ["link", a["src"], a["dst"], f"--kind={a['kind']}"] + \
            (["--delete"] if a.get("delete") else [])
    if k == "delete":
        return ["delete", a["name"], "--yes"] + (["--hard"] if a.get("hard") else [])
    if k == "checkpoint":
        out = ["checkpoint", f"--file={root / 'payload-peer.json'}"]
        return out + ([f"--project-ref={a['project_ref']}"] if "project_ref" in a else [])
    if k == "digest":
        return ["get-relevant"] + ([f"--max-chars={a['max_chars']}"] if a["max_chars"] else [])
    if k == "initiative":
        key = a["initiative"] if a["initiative"] is not None else NULL_BUCKET[PEER_SIDE]
        return ["get-relevant", f"--initiative={key}"]
    if k == "show":
        return ["show", a["name"]] + (["--links"] if a["links"] else [])
    if k == "story":
        return ["story", a["seed"]] + ([f"--max-depth={a['max_depth']}"] if a["max_depth"]
                                       else [])
    raise AssertionError(k)


def memkit_args(step: Step, root: Path, command: str | None = None) -> list[str]:
    a, k = step.args, step.kind
    if k == "add":
        out = ["add", "--name", a["name"], "--type", a["type"], "--body", a["body"]]
        for key, flag in (("description", "--description"), ("class", "--class"),
                          ("status", "--status"), ("initiative", "--initiative"),
                          ("project_ref", "--project-ref")):
            if key in a:
                out += [flag, a[key]]
        return out
    if k == "reclassify":
        out = ["reclassify", a["name"]]
        for key in ("class", "status"):
            if key in a:
                out += [f"--{key}", a[key]]
        return out
    if k == "link":
        if a.get("delete") and a.get("verb") == "unlink":
            return ["unlink", a["src"], a["dst"], "--kind", a["kind"]]
        return ["link", a["src"], a["dst"], "--kind", a["kind"]] + \
            (["--delete"] if a.get("delete") else [])
    if k == "delete":
        return ["delete", a["name"], "--yes"] + (["--hard"] if a.get("hard") else [])
    if k == "checkpoint":
        out = ["checkpoint", "--file", str(root / "payload-memkit.json")]
        return out + (["--project-ref", a["project_ref"]] if "project_ref" in a else [])
    if k == "digest":
        return ["get-relevant"] + (["--max-chars", str(a["max_chars"])] if a["max_chars"]
                                   else [])
    if k == "initiative":
        key = a["initiative"] if a["initiative"] is not None else NULL_BUCKET[MK_SIDE]
        return ["get-relevant", "--initiative", key]
    if k == "show":
        return ["show", a["name"]] + (["--links"] if a["links"] else [])
    if k == "story":
        return [command or "story", a["seed"]] + \
            (["--max-depth", str(a["max_depth"])] if a["max_depth"] else []) + \
            (["--include-deleted"] if a["include_deleted"] else [])
    raise AssertionError(k)


def payload_text(a: dict, english: bool) -> str:
    """The checkpoint payload in the side's key names (the peer knows only resumen and
    pendientes; memkit takes both, §10), malformed as the variant says."""
    rec_key, pend_key = ("record", "pending") if english else ("resumen", "pendientes")
    record = dict(a["record"])
    pending = [dict(p) for p in a["pending"]]
    variant = a["variant"]
    if variant == "shape:not-json":
        return '{"' + rec_key + '": {'
    if variant == "shape:missing-body":
        del record["body"]
    elif variant == "shape:missing-type":
        del record["type"]
    elif variant == "shape:missing-name":
        if pending:
            del pending[-1]["name"]
        else:
            del record["name"]
    payload: dict[str, Any] = {rec_key: record, pend_key: pending}
    if variant == "shape:no-record":
        del payload[rec_key]
    elif variant == "shape:record-not-object":
        payload[rec_key] = record["name"]
    elif variant == "shape:pending-not-list":
        payload[pend_key] = {"name": record["name"]}
    elif variant == "shape:pending-item-not-object":
        payload[pend_key] = pending + ["project_thr9"]
    return json.dumps(payload, ensure_ascii=False)


def describe_step(step: Step) -> str:
    args = memkit_args(step, Path("ROOT"))
    if step.kind == "checkpoint":
        args.append(f"# {step.args['variant']}: " + payload_text(step.args, True))
    return f"{step.when:%H:%M:%S} {shlex.join(args)}"


# ---------------------------------------------------------------------------- running


@dataclass
class Reply:
    rc: int
    data: Any           # the peer's JSON, memkit's envelope `data`
    codes: list[str]    # memkit's finding codes
    text: str
    ok: bool


class Sides:
    def __init__(self, memkit: str, gaia: Path, faketime: str, pycache: Path) -> None:
        self.memkit_bin = memkit
        self.gaia = gaia
        self.faketime = faketime
        # The peer's own variables (its workspace, dispatch agent, database) and memkit's
        # defaults stay out: each side gets its store and workspace on the command line.
        base = {k: v for k, v in os.environ.items()
                if not k.startswith(("GAIA_", "MEMKIT_NOW", "MEMKIT_STORE", "MEMKIT_WORKSPACE",
                                     "MEMKIT_ACTOR", "PYTHONDONTWRITEBYTECODE"))}
        self.env = dict(base, TZ="UTC", LC_ALL="C.UTF-8")
        # Compiling the peer's sources on every call would take half of its run time; the
        # bytecode goes to a folder of this run, never into the peer checkout.
        self.peer_env = dict(self.env, PYTHONPYCACHEPREFIX=str(pycache))

    def _run(self, command: list[str], cwd: Path, env: dict) -> tuple[int, str, str]:
        try:
            done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                                  encoding="utf-8", env=env, timeout=120,
                                  stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise Failure(f"{command[0]}: {exc}") from exc
        return done.returncode, done.stdout, done.stderr

    def peer(self, root: Path, args: list[str], when: datetime) -> Reply:
        home = root / "peer"
        env = dict(self.peer_env, HOME=str(home), GAIA_DATA_DIR=str(home / ".gaia"))
        for _ in range(3):
            # -f: the absolute time stops the peer's clock at that second.
            rc, out, err = self._run([self.faketime, "-f", f"{when:%Y-%m-%d %H:%M:%S}",
                                      sys.executable, str(self.gaia), "memory", *args,
                                      f"--workspace={WS}", "--json"], root, env)
            # Two faketime wrappers started at once now and then collide on their semaphore
            # and stop before running anything; the call is then simply made again.
            if not (rc != 0 and "faketime: sem_open" in err):
                break
        try:
            data = json.loads(out)
        except json.JSONDecodeError:
            data = None
        ok = rc == 0 and data is not None and not (isinstance(data, dict) and "error" in data)
        return Reply(rc, data, [], (out.strip() or err.strip())[-500:], ok)

    def memkit(self, root: Path, args: list[str], when: datetime) -> Reply:
        rc, out, err = self._run([self.memkit_bin, "curated", *args, "--store",
                                  str(root / "memkit"), "--workspace", WS, "--format", "json",
                                  "--now", f"{when:%Y-%m-%dT%H:%M:%S}+00:00"], root, self.env)
        try:
            env = json.loads(out)
        except json.JSONDecodeError:
            env = None
        data = env.get("data") if isinstance(env, dict) else None
        codes = [f.get("code") for f in env.get("findings", [])] if isinstance(env, dict) else []
        ok = rc == 0 and isinstance(data, dict)
        return Reply(rc, data, codes, (out.strip() or err.strip())[-700:], ok)


class Failure(Exception):
    pass


def probe_memkit(memkit: str) -> set[str]:
    """The `memkit curated` commands the CLI implements: a bare call of a missing one answers
    "not yet implemented" or "unknown command"."""
    available = set()
    with tempfile.TemporaryDirectory(prefix="memkit-curated-probe-") as tmp:
        for command in ("add", "reclassify", "link", "unlink", "delete", "checkpoint",
                        "get-relevant", "show", "story", "lineage", "list"):
            done = subprocess.run([memkit, "curated", command, "--store", tmp, "--workspace",
                                   WS, "--format", "json"], capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=60)
            try:
                messages = " ".join(f.get("message", "") for f in
                                    json.loads(done.stdout).get("findings", []))
            except (json.JSONDecodeError, AttributeError):
                messages = "unknown command"
            if "not yet implemented" not in messages and "unknown command" not in messages:
                available.add(command)
    return available


def memkit_rows_from_files(store: Path) -> list[dict]:
    """memkit's rows as `list --include-deleted` items, read from its row files (§4) and access
    log (§9): the sweep when the CLI has no `list` yet."""
    rows = []
    for path in sorted((store / "rows" / WS).glob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        starts = [i for i in range(len(lines) - 1)
                  if re.fullmatch(r"## \S+", lines[i]) and lines[i + 1].startswith("Type: ")]
        for n, i in enumerate(starts):
            fields: dict[str, str] = {}
            j = i + 1
            while j < len(lines) and lines[j] != "":
                key, _, value = lines[j].partition(": ")
                if key != "Link":
                    fields[key] = value
                j += 1
            rows.append({"name": lines[i][3:], "type": fields.get("Type"),
                         "class": fields.get("Class", "log"), "status": fields.get("Status"),
                         "initiative": fields.get("Initiative"),
                         "description": fields.get("Description"),
                         "updated_at": fields.get("Updated"), "deleted": "Deleted" in fields})
    counts: dict[tuple[str, str], list] = {}
    access = store / "log" / WS / "access.jsonl"
    if access.exists():
        for line in access.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            c = counts.setdefault((rec["name"], rec["kind"]), [0, None])
            c[0] += 1
            c[1] = max(c[1] or "", rec["ts"])
    for row in rows:
        for kind, count, last in (("injection", "injection_count", "last_injected_at"),
                                  ("deliberate", "deliberate_count", "last_deliberate_at")):
            c = counts.get((row["name"], kind), [0, None])
            row[count], row[last] = c[0], c[1]
    return rows


class Run:
    """One case: both sides, their models, the differences found."""

    def __init__(self, case: Case, sides: Sides, available: set[str], plant: str | None):
        self.case = case
        self.sides = sides
        self.available = available
        self.plant = plant
        self.planted = False
        self.root = Path(tempfile.mkdtemp(prefix=f"memkit-curated-diff-{case.seed}-"))
        (self.root / "peer").mkdir()
        self.mp = Model(PEER_SIDE, case.known)
        self.mm = Model(MK_SIDE, {})
        self.diffs: list[str] = []

    # -- reporting --------------------------------------------------------------------------

    def peer_diff(self, what: str) -> None:
        self.diffs.append(f"peer vs model: {what}")

    def mk_diff(self, what: str) -> None:
        self.diffs.append(f"memkit: {what}")

    def known(self, diff: str) -> None:
        """Counts a known difference the comparison (not a model) allowed for."""
        assert diff in KNOWN_DIFFERENCES, diff
        self.case.known[diff] = self.case.known.get(diff, 0) + 1

    def expect(self, side: str, where: str, actual, expected, peer_actual="-") -> None:
        """One value of one side against its model; timestamps (a `where` ending in _at) as
        seconds, so that the peer's `...SSZ` and memkit's `...SS.000Z` both compare."""
        if where.endswith("_at"):
            actual = parse_ts(actual)
            expected = None if expected is None else float(expected)
            shown_a, shown_e = iso(actual) if isinstance(actual, float) else actual, \
                iso(expected) if expected is not None else None
        else:
            shown_a, shown_e = actual, expected
        if actual == expected:
            return
        if side == PEER_SIDE:
            self.peer_diff(f"{where}: the peer has {shown_a!r}, the model {shown_e!r}")
        else:
            extra = "" if peer_actual == "-" else f" (the peer: {peer_actual!r})"
            self.mk_diff(f"{where}: {shown_a!r}, expected {shown_e!r}{extra}")

    # -- one step ---------------------------------------------------------------------------

    def memkit_step(self, step: Step, em: Expect, args: list[str]) -> Reply:
        when = step.when
        twice = False
        if self.plant and not self.planted and em.ok:
            if self.plant == "clock" and step.kind in WRITES and em.info.get("changes"):
                when, self.planted = when + timedelta(seconds=1), True
            elif self.plant == "description" and step.kind == "add" and \
                    "description" in step.args:
                i = args.index("--description") + 1
                args = args[:i] + [args[i] + " planted"] + args[i + 1:]
                self.planted = True
            elif self.plant == "read" and step.kind in READS and em.info.get("counted"):
                twice = self.planted = True
        reply = self.sides.memkit(self.root, args, when)
        if twice:
            reply = self.sides.memkit(self.root, args, when)
        return reply

    def exits(self, p: Reply, ep: Expect, m: Reply, em: Expect) -> tuple[bool, dict | None]:
        """Accept versus refuse on both sides, and memkit's finding code and exit class.
        Gives whether the peer's reply is to be compared further (it accepted, as its model
        says) and memkit's `data` when that one is (likewise), else None."""
        if p.ok != ep.ok:
            self.peer_diff(f"the peer {'accepted' if p.ok else 'refused'} (exit {p.rc}: "
                           f"{p.text[:300]!r}); the model says it "
                           f"{'accepts' if ep.ok else 'refuses'}")
        if m.ok != em.ok:
            note = "" if ep.ok == em.ok else " (a known difference: the peer " + \
                ("accepts" if ep.ok else "refuses") + ")"
            self.mk_diff(f"memkit {'accepted' if m.ok else 'refused'} (exit {m.rc}: "
                         f"{m.text[:400]}), expected it to {'accept' if em.ok else 'refuse'}"
                         f"{' with ' + '/'.join(sorted(em.codes)) if not em.ok else ''}; the "
                         f"peer {'accepted' if p.ok else 'refused'}{note}")
        elif not em.ok:
            hits = [c for c in m.codes if c in em.codes]
            if not hits:
                self.mk_diff(f"memkit refused with {m.codes}, expected one of "
                             f"{sorted(em.codes)}: {m.text[:400]}")
            else:
                want = em.exit if em.exit is not None else EXIT_OF.get(hits[0])
                if want is not None and m.rc != want:
                    self.mk_diff(f"memkit refused with {hits[0]} and exit {m.rc}, expected exit "
                                 f"{want} (§13): {m.text[:300]}")
                if not p.ok and p.rc != m.rc:
                    self.known("exit-classes")
        return p.ok and ep.ok, m.data if m.ok and em.ok else None

    @staticmethod
    def peer_data(p: Reply) -> dict:
        """The peer's reply object, {} when it refused: memkit's values are shown beside it."""
        return p.data if p.ok and isinstance(p.data, dict) else {}

    def step(self, step: Step) -> None:
        k = step.kind
        if k == "checkpoint":
            (self.root / "payload-peer.json").write_text(payload_text(step.args, False),
                                                         encoding="utf-8")
            (self.root / "payload-memkit.json").write_text(
                payload_text(step.args, step.args["english"]), encoding="utf-8")
        p = self.sides.peer(self.root, peer_args(step, self.root), step.when)
        handler = getattr(self, "do_" + k)
        handler(step, p)
        self.case.tally[k] = self.case.tally.get(k, 0) + 1

    # -- writes -----------------------------------------------------------------------------

    def do_add(self, step: Step, p: Reply) -> None:
        ep = self.mp.add(step.args, step.t)
        em = self.mm.add(step.args, step.t)
        if em.ok:
            em.info["changes"] = em.info["action"] != "unchanged"
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        peer_ok, md = self.exits(p, ep, m, em)
        pd = self.peer_data(p)
        if peer_ok:
            self.expect(PEER_SIDE, "add action", pd.get("action"), ep.info["action"])
        if md is None:
            return
        row = self.mm.rows[step.args["name"]]
        self.expect(MK_SIDE, "add action", md.get("action"), em.info["action"],
                    pd.get("action", "-"))
        self.expect(MK_SIDE, "add result", md.get("result"),
                    "unchanged" if em.info["action"] == "unchanged" else "applied")
        for key, value in (("class", row.cls), ("memory_status", row.status),
                           ("type", row.type), ("initiative", row.initiative),
                           ("description", row.desc)):
            self.expect(MK_SIDE, f"add {key}", md.get(key), value, pd.get(key, "-"))
        self.expect(MK_SIDE, "add updated_at", md.get("updated_at"), row.upd,
                    pd.get("updated_at", "-"))

    def do_reclassify(self, step: Step, p: Reply) -> None:
        ep = self.mp.reclassify(step.args, step.t)
        em = self.mm.reclassify(step.args, step.t)
        if em.ok:
            em.info["changes"] = em.info["result"] == "applied"
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        peer_ok, md = self.exits(p, ep, m, em)
        pd = self.peer_data(p)
        if peer_ok:
            prow = self.mp.rows[step.args["name"]]
            self.expect(PEER_SIDE, "reclassify class", pd.get("class"), prow.cls)
            self.expect(PEER_SIDE, "reclassify memory_status", pd.get("memory_status"),
                        prow.status)
        if md is None:
            return
        row = self.mm.rows[step.args["name"]]
        self.expect(MK_SIDE, "reclassify result", md.get("result"), em.info["result"])
        self.expect(MK_SIDE, "reclassify class", md.get("class"), row.cls, pd.get("class", "-"))
        self.expect(MK_SIDE, "reclassify memory_status", md.get("memory_status"), row.status,
                    pd.get("memory_status", "-"))
        self.expect(MK_SIDE, "reclassify updated_at", md.get("updated_at"), row.upd,
                    pd.get("updated_at", "-"))

    def do_link(self, step: Step, p: Reply) -> None:
        ep = self.mp.link(step.args, step.t)
        em = self.mm.link(step.args, step.t)
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        peer_ok, md = self.exits(p, ep, m, em)
        pd = self.peer_data(p)
        deleting = bool(step.args.get("delete"))
        if peer_ok:
            peer_action = {"applied": "deleted" if deleting else "inserted",
                           "unchanged": "noop"}[ep.info["result"]]
            self.expect(PEER_SIDE, "link action", pd.get("action"), peer_action)
            if not deleting:
                self.expect(PEER_SIDE, "link created_at", pd.get("created_at"),
                            ep.info["created"])
        if md is None:
            return
        self.known("reply-shapes")
        self.expect(MK_SIDE, "link result", md.get("result"), em.info["result"],
                    pd.get("action", "-"))
        self.expect(MK_SIDE, "link op", md.get("op"), "unlink" if deleting else "link")
        self.expect(MK_SIDE, "link created_at", md.get("created_at"), em.info["created"],
                    pd.get("created_at", "-"))

    def do_delete(self, step: Step, p: Reply) -> None:
        ep = self.mp.delete(step.args, step.t)
        em = self.mm.delete(step.args, step.t)
        if em.ok:
            em.info["changes"] = em.info["result"] == "applied"
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        peer_ok, md = self.exits(p, ep, m, em)
        pd = self.peer_data(p)
        hard = bool(step.args.get("hard"))
        if peer_ok:
            self.expect(PEER_SIDE, "delete mode", pd.get("mode"), "hard" if hard else "tombstone")
        if md is None:
            return
        self.expect(MK_SIDE, "delete mode", md.get("mode"), "hard" if hard else "soft",
                    pd.get("mode", "-"))
        self.expect(MK_SIDE, "delete result", md.get("result"), em.info["result"])
        self.expect(MK_SIDE, "delete deleted_at", md.get("deleted_at"), em.info["deleted_at"])

    def do_checkpoint(self, step: Step, p: Reply) -> None:
        ep = self.mp.checkpoint(step.args, step.t)
        em = self.mm.checkpoint(step.args, step.t)
        if em.ok:
            em.info["changes"] = any(op[2] != "unchanged" for op in em.info["ops"])
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        peer_ok, md = self.exits(p, ep, m, em)
        if not em.ok and not m.ok and isinstance(m.data, dict):
            # §10: a rejected checkpoint names its failing operation; a shape error has none.
            ops = m.data.get("operations")
            if em.exit == 2:
                self.expect(MK_SIDE, "rejected checkpoint operations", ops, [])
            elif "failed" in em.info and isinstance(ops, list):
                index, code = em.info["failed"]
                got = [(i, op.get("result"), op.get("error")) for i, op in enumerate(ops)
                       if op.get("result") != "not_attempted"]
                self.expect(MK_SIDE, "rejected checkpoint: the failed operation", got,
                            [(index, "failed", code)])
                self.expect(MK_SIDE, "rejected checkpoint: operations", len(ops),
                            em.info["operations"])
        peer_ops = None
        if peer_ok:
            pd = self.peer_data(p)
            anchor = pd.get("anchor") or {}
            peer_ops = [("upsert", anchor.get("name"), anchor.get("action"))]
            peer_ops += [("upsert", t.get("name"), t.get("action"))
                         for t in pd.get("threads") or []]
            peer_ops += [("link", ln.get("src_name"),
                          {"inserted": "applied", "noop": "unchanged"}.get(ln.get("action")))
                         for ln in pd.get("links") or []]
            self.expect(PEER_SIDE, "checkpoint operations", peer_ops, ep.info["ops"])
        if md is None:
            return
        self.known("reply-shapes")
        self.expect(MK_SIDE, "checkpoint status", md.get("status"), "applied")
        got = []
        for op in md.get("operations") or []:
            if op.get("op") == "upsert":
                result = op.get("action") if op.get("result") == "applied" else op.get("result")
                got.append(("upsert", op.get("name"), result))
            else:
                got.append((op.get("op"), op.get("name"), op.get("result")))
        self.expect(MK_SIDE, "checkpoint operations", got, em.info["ops"],
                    peer_ops if peer_ops is not None else "-")

    # -- reads ------------------------------------------------------------------------------

    def do_digest(self, step: Step, p: Reply) -> None:
        """§8 digest mode; the peer's choice among same-second rows is taken from its reply."""
        budget = step.args["max_chars"] or DIGEST_BUDGET
        pb, mb = self.mp.buckets(), self.mm.buckets()
        # memkit: the first 10 buckets, fewer while the block is over the budget.
        shown = min(DIGEST_TOP, len(mb))
        while shown > 1 and len(self.memkit_digest_block(mb, shown)) > budget:
            shown -= 1
        expected = [{"name": names[0], "initiative": key if key is not None else "_none",
                     "pending_count": len(names), "type": self.mm.rows[names[0]].type,
                     "memory_status": self.mm.rows[names[0]].status,
                     "description": digest_desc(self.mm.rows[names[0]].desc),
                     "section": "digest"} for key, names in mb[:shown]]
        em = Expect(True, info={"counted": bool(expected)})
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        peer_ok, md = self.exits(p, Expect(True), m, em)
        if not peer_ok or md is None:
            return
        peer_items = p.data.get("items") or []
        # The peer: a prefix of the buckets, ties in any order, each topped by one of its
        # freshest rows.
        by_key = {(k if k is not None else NULL_BUCKET[PEER_SIDE]): names for k, names in pb}
        key_groups: list[list[str]] = []
        for k, names in pb:
            label = k if k is not None else NULL_BUCKET[PEER_SIDE]
            if key_groups and self.mp.rows[by_key[key_groups[-1][0]][0]].upd == \
                    self.mp.rows[names[0]].upd:
                key_groups[-1].append(label)
            else:
                key_groups.append([label])
        peer_keys = [i.get("initiative") for i in peer_items]
        if any(len(g) > 1 for g in key_groups) or \
                any(len(self.mp.groups(names)[0]) > 1 for _, names in pb):
            self.known("same-second")
        if any(k is None for k, _ in pb[:len(peer_items)]):
            self.known("null-bucket")
        if not tie_prefix_ok(peer_keys, key_groups) or (pb and not peer_items):
            self.peer_diff(f"digest buckets {peer_keys}, the model's {key_groups}")
            return
        counted = []
        for item in peer_items:
            names = by_key[item["initiative"]]
            top = self.mp.groups(names)[0]
            if item.get("name") not in top:
                self.peer_diff(f"digest: {item.get('name')!r} tops bucket "
                               f"{item['initiative']!r}, the model says one of {top}")
                return
            row = self.mp.rows[item["name"]]
            self.expect(PEER_SIDE, f"digest {item['name']}", (
                item.get("pending_count"), item.get("memory_status"), item.get("description")),
                (len(names), row.status, digest_desc(row.desc)))
            counted.append(item["name"])
        if pb:
            self.expect(PEER_SIDE, "digest overflow_projects", p.data.get("overflow_projects"),
                        len(pb) - len(peer_items))
        self.mp.count(counted, "injection", step.t)
        self.mm.count([e["name"] for e in expected], "injection", step.t)
        mk_items = m.data.get("items")
        if not isinstance(mk_items, list):
            self.mk_diff(f"digest items: {mk_items!r}")
            return
        got = [{k: i.get(k) for k in expected[0]} for i in mk_items] if expected else mk_items
        if got != expected:
            self.mk_diff(f"digest items {json.dumps(got, ensure_ascii=False)}, expected "
                         f"{json.dumps(expected, ensure_ascii=False)} (the peer: "
                         f"{json.dumps(peer_items, ensure_ascii=False)}; memkit's block "
                         f"{m.data.get('block')!r})")
        # §12 "Digest wording": with the same buckets, the peer's longer lines and footer never
        # leave it room for more of them than memkit.
        if [(k, n) for k, n in pb] == [(k, n) for k, n in mb] or \
                [(k, sorted(n)) for k, n in pb] == [(k, sorted(n)) for k, n in mb]:
            if len(mk_items) < len(peer_items):
                self.mk_diff(f"digest: memkit shows {len(mk_items)} buckets, the peer "
                             f"{len(peer_items)} of the same ones (§12: the peer's footer leaves "
                             "it less room, not more)")
            elif len(mk_items) > len(peer_items):
                self.known("digest-budget")
        self.expect(MK_SIDE, "digest overflow_initiatives", m.data.get("overflow_initiatives"),
                    len(mb) - shown, p.data.get("overflow_projects", "-"))
        if not expected:
            self.expect(MK_SIDE, "digest block", m.data.get("block"), "", p.data.get("block"))

    def memkit_digest_block(self, buckets, shown: int) -> str:
        """§8's block for memkit's first `shown` buckets: its length is what the budget reads."""
        lines = ["## Memory — live pending by initiative", ""]
        for key, names in buckets[:shown]:
            key = key if key is not None else NULL_BUCKET[MK_SIDE]
            desc = digest_desc(self.mm.rows[names[0]].desc)
            lines.append(f"- {names[0]} [{key}]: {desc}" if desc else f"- {names[0]} [{key}]")
            if len(names) > 1:
                lines.append(f"  +{len(names) - 1} more in {key}")
        if len(buckets) > shown:
            lines += ["", f"+{len(buckets) - shown} more initiatives"]
        return "\n".join(lines)

    def do_initiative(self, step: Step, p: Reply) -> None:
        raw = step.args["initiative"]
        em_refused = raw is not None and normalise(raw) is None and \
            not self.mm.differs("empty-initiative")
        if raw is not None and normalise(raw) is None:
            self.mp.differs("empty-initiative")
        key = normalise(raw)
        em = refuse(ARG) if em_refused else Expect(True)
        names_m = [n for n in self.mm.pending() if self.mm.rows[n].initiative == key]
        em.info["counted"] = bool(names_m) and em.ok
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        names_p = [n for n in self.mp.pending() if self.mp.rows[n].initiative == key]
        if key is None:
            self.known("null-bucket")
        self.mp.count(names_p, "deliberate", step.t)
        if em.ok:
            self.mm.count(names_m, "deliberate", step.t)
        peer_ok, md = self.exits(p, Expect(True), m, em)
        label_p = key if key is not None else NULL_BUCKET[PEER_SIDE]
        label_m = key if key is not None else NULL_BUCKET[MK_SIDE]
        pd = self.peer_data(p)
        peer_items = pd.get("items") or []
        if peer_ok:
            if any(len(g) > 1 for g in self.mp.groups(names_p)):
                self.known("same-second")
            if not tie_prefix_ok([i.get("name") for i in peer_items], self.mp.groups(names_p)) \
                    or len(peer_items) != len(names_p):
                self.peer_diff(f"initiative {label_p}: rows "
                               f"{[i.get('name') for i in peer_items]}, the model's "
                               f"{self.mp.groups(names_p)}")
                return
            for item in peer_items:
                row = self.mp.rows[item["name"]]
                self.expect(PEER_SIDE, f"initiative {label_p}: {item['name']}",
                            (item.get("initiative"), item.get("class"),
                             item.get("memory_status"), item.get("description"),
                             item.get("body")),
                            (label_p, row.cls, row.status, row.desc or "", row.body))
            self.expect(PEER_SIDE, f"initiative {label_p}: empty block", pd.get("block") == "",
                        not names_p)
        if md is None:
            return
        mk_items = md.get("items")
        if not isinstance(mk_items, list):
            self.mk_diff(f"initiative items: {mk_items!r}")
            return
        got = [(i.get("name"), i.get("initiative"), i.get("class"), i.get("memory_status"),
                i.get("description"), i.get("body"), i.get("section")) for i in mk_items]
        want = [(n, label_m, self.mm.rows[n].cls, self.mm.rows[n].status,
                 self.mm.rows[n].desc or "", self.mm.rows[n].body, "initiative")
                for n in names_m]
        if got != want:
            self.mk_diff(f"get-relevant --initiative {label_m}: items {got}, expected {want} "
                         f"(the peer: {[i.get('name') for i in peer_items]})")
        self.expect(MK_SIDE, f"initiative {label_m}: empty block", md.get("block") == "",
                    not names_m, pd.get("block") == "" if pd else "-")
        self.expect(MK_SIDE, f"initiative {label_m}: overflow", md.get("overflow"), 0)

    def do_show(self, step: Step, p: Reply) -> None:
        name = step.args["name"]
        ep = Expect(True) if self.mp.live(name) else refuse(CUR11)
        em = Expect(True) if self.mm.live(name) else refuse(CUR11)
        em.info["counted"] = em.ok
        m = self.memkit_step(step, em, memkit_args(step, self.root))
        if ep.ok:
            self.mp.count([name], "deliberate", step.t)
        if em.ok:
            self.mm.count([name], "deliberate", step.t)
        peer_ok, md = self.exits(p, ep, m, em)
        pd = self.peer_data(p)
        for side, data, model in ((PEER_SIDE, pd if peer_ok else None, self.mp),
                                  (MK_SIDE, md, self.mm)):
            if data is None:
                continue
            row = model.rows[name]
            for key, value in (("type", row.type), ("class", row.cls), ("status", row.status),
                               ("initiative", row.initiative), ("description", row.desc),
                               ("body", row.body), ("updated_at", row.upd),
                               ("injection_count", row.inj), ("last_injected_at", row.inj_at),
                               ("deliberate_count", row.dlb),
                               ("last_deliberate_at", row.dlb_at)):
                self.expect(side, f"show {name}.{key}", data.get(key), value,
                            pd.get(key, "-"))
            if step.args["links"]:
                links = data.get("links") or {}
                src, dst = ("src_name", "dst_name") if side == PEER_SIDE else ("src", "dst")
                out = sorted((e.get("kind"), e.get(dst), parse_ts(e.get("created_at")))
                             for e in links.get("out", []))
                into = sorted((e.get("kind"), e.get(src), parse_ts(e.get("created_at")))
                              for e in links.get("in", []))
                want_out = sorted((k, d, float(c)) for (s, d, k), c in model.links.items()
                                  if s == name)
                want_in = sorted((k, s, float(c)) for (s, d, k), c in model.links.items()
                                 if d == name and not (s in model.rows and model.rows[s].deleted and
                                                       not model.differs("show-in-links-deleted")))
                self.expect(side, f"show {name} --links out", out, want_out)
                self.expect(side, f"show {name} --links in", into, want_in)

    def do_story(self, step: Step, p: Reply) -> None:
        seed, depth = step.args["seed"], step.args["max_depth"] or 5
        ep = Expect(True) if seed in self.mp.rows else refuse(CUR11)
        row_m = self.mm.rows.get(seed)
        if row_m is None:
            em = refuse(CUR11)
        elif row_m.deleted and not step.args["include_deleted"]:
            self.mp.differs("story-deleted-seed")
            em = refuse(CUR11)
        else:
            em = Expect(True)
        em.info["counted"] = em.ok and not row_m.deleted
        peer_done = False
        for command in ("story", "lineage"):
            if command not in self.available:
                continue
            m = self.memkit_step(step, em, memkit_args(step, self.root, command)) \
                if command == "story" else \
                self.sides.memkit(self.root, memkit_args(step, self.root, command), step.when)
            if command == "story" or "story" not in self.available:
                if ep.ok and self.mp.live(seed):
                    self.mp.count([seed], "deliberate", step.t)
                if em.ok and self.mm.live(seed) and command == "story":
                    self.mm.count([seed], "deliberate", step.t)
            peer_ok, md = self.exits(p, ep, m, em)
            if peer_ok and not peer_done:
                self.peer_lineage(seed, depth, p.data)
                peer_done = True
            if md is not None:
                self.memkit_lineage(command, seed, depth, md, self.peer_data(p))

    def peer_lineage(self, seed: str, depth: int, pdata: dict) -> None:
        """The peer's story against its model: nodes and depths, roles (any of those its
        discovery order allows), edges, final states."""
        wp = self.mp.walk(seed, depth)
        pnodes = pdata.get("nodes") or []
        self.expect(PEER_SIDE, "story nodes", [(n.get("name"), n.get("depth")) for n in pnodes],
                    sorted(wp["depth"].items()))
        for n in pnodes:
            if n.get("name") in wp["allowed"] and n.get("role") not in wp["allowed"][n["name"]]:
                self.peer_diff(f"story: {n['name']} has role {n.get('role')!r}, the model "
                               f"allows {sorted(wp['allowed'][n['name']])}")
            elif len(wp["allowed"].get(n.get("name"), ())) > 1:
                self.mp.differs("lineage-discovery")
        pedges = sorted((e.get("src_name"), e.get("dst_name"), e.get("kind"),
                         parse_ts(e.get("created_at"))) for e in pdata.get("edges") or [])
        self.expect(PEER_SIDE, "story edges", pedges,
                    sorted(k + (float(self.mp.links[k]),) for k in wp["edges"]))
        pfinal = [(f.get("name"), f.get("class"), f.get("status"), f.get("type"),
                   f.get("present")) for f in pdata.get("final_states") or []]
        self.expect(PEER_SIDE, "story final_states", pfinal, self.final_states(self.mp, wp))

    def memkit_lineage(self, command: str, seed: str, depth: int, mdata: dict,
                       pdata: dict) -> None:
        """memkit's story or lineage against its model, in the exact order of §10; the peer's
        values (when it told the story) are shown beside a difference."""
        wm = self.mm.walk(seed, depth)
        pnodes: Any = "-"      # the peer's values, "-" when it refused (nothing to show)
        pedges: Any = "-"
        pfinal: Any = "-"
        if pdata:
            pnodes = [(n.get("name"), n.get("depth"), n.get("role"))
                      for n in pdata.get("nodes") or []]
            pedges = sorted((e.get("src_name"), e.get("dst_name"), e.get("kind"),
                             parse_ts(e.get("created_at"))) for e in pdata.get("edges") or [])
            pfinal = [(f.get("name"), f.get("class"), f.get("status"), f.get("type"),
                       f.get("present")) for f in pdata.get("final_states") or []]
        mnodes = [(n.get("name"), n.get("depth"), n.get("role")) for n in mdata.get("nodes") or []]
        want = [(n, d, wm["role"][n]) for n, d in sorted(wm["depth"].items())]
        self.expect(MK_SIDE, f"{command} nodes", mnodes, want, pnodes)
        medges = [(e.get("src"), e.get("dst"), e.get("kind"), parse_ts(e.get("created_at")))
                  for e in mdata.get("edges") or []]
        self.expect(MK_SIDE, f"{command} edges", medges,
                    [k + (float(self.mm.links[k]),) for k in wm["edges"]], pedges)
        if command == "story":
            mfinal = [(f.get("name"), f.get("class"), f.get("status"), f.get("type"),
                       f.get("present")) for f in mdata.get("final_states") or []]
            self.expect(MK_SIDE, "story final_states", mfinal, self.final_states(self.mm, wm),
                        pfinal)

    @staticmethod
    def final_states(model: Model, walk: dict) -> list[tuple]:
        out = []
        for name in sorted(walk["depth"]):
            row = model.rows.get(name)
            out.append((name, row.cls if row else None, row.status if row else None,
                        row.type if row else None, row is not None))
        return out

    # -- the rows after a step -----------------------------------------------------------------

    def sweep(self, step: Step) -> None:
        p = self.sides.peer(self.root, ["list"], step.when)
        if not p.ok or not isinstance(p.data, list):
            self.peer_diff(f"list failed: {p.text[:300]}")
            return
        peer_rows = {r.get("name"): r for r in p.data}
        want = {n: r for n, r in self.mp.rows.items() if not r.deleted}
        if set(peer_rows) != set(want):
            self.peer_diff(f"live rows {sorted(peer_rows)}, the model's {sorted(want)}")
            return
        fields = (("type", "type"), ("class", "cls"), ("status", "status"),
                  ("description", "desc"), ("updated_at", "upd"), ("injection_count", "inj"),
                  ("last_injected_at", "inj_at"), ("deliberate_count", "dlb"),
                  ("last_deliberate_at", "dlb_at"))
        for name, row in want.items():
            for key, attr in fields:
                self.expect(PEER_SIDE, f"list {name}.{key}", peer_rows[name].get(key),
                            getattr(row, attr))
        if "list" in self.available:
            m = self.sides.memkit(self.root, ["list", "--include-deleted"], step.when)
            if not m.ok or not isinstance(m.data.get("items"), list):
                self.mk_diff(f"list --include-deleted failed: {m.text[:300]}")
                return
            items = m.data["items"]
            where = "list"
        else:
            items = memkit_rows_from_files(self.root / "memkit")
            where = "row files"
        mk_rows = {r.get("name"): r for r in items}
        if set(mk_rows) != set(self.mm.rows):
            self.mk_diff(f"{where}: rows {sorted(mk_rows)}, expected {sorted(self.mm.rows)} "
                         f"(the peer's live rows: {sorted(peer_rows)})")
            return
        for name, row in self.mm.rows.items():
            prow = peer_rows.get(name, {})
            for key, attr in fields + (("initiative", "initiative"), ("deleted", "deleted")):
                self.expect(MK_SIDE, f"{where} {name}.{key}", mk_rows[name].get(key),
                            getattr(row, attr), prow.get(key, "-"))

    def go(self) -> None:
        steps = self.case.steps
        for index, step in enumerate(steps):
            self.step(step)
            # Runs of adds are swept once, after the last: each add's reply is still compared.
            if not self.diffs and not (step.kind == "add" and index + 1 < len(steps)
                                       and steps[index + 1].kind == "add"):
                self.sweep(step)
            if self.diffs:
                self.case.failed_step = index
                self.case.differences = self.diffs
                return
            self.case.done += 1


def run_case(case: Case, sides: Sides, available: set[str], keep: bool,
             plant: str | None) -> Case:
    run = Run(case, sides, available, plant)
    case.root = run.root
    try:
        run.go()
    except Failure as exc:
        case.differences.append(str(exc))
    case.planted = run.planted
    if not case.differences and not keep:
        shutil.rmtree(run.root, ignore_errors=True)
    return case


def run_all(seeds: list[int], sides: Sides, available: set[str], plant: str | None, keep: bool,
            jobs: int) -> list[Case]:
    cases = [build_case(seed, available) for seed in seeds]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda c: run_case(c, sides, available, keep, plant), cases))


def describe(case: Case, base: int) -> str:
    lines = [f"FAIL seed {case.seed} (case index {case.seed - base}), step {case.failed_step}, "
             f"root {case.root}:"]
    last = case.failed_step if case.failed_step is not None else -1
    for i, step in enumerate(case.steps[:last + 1]):
        lines.append(f"    {'>' if i == last else ' '} {i:2} {describe_step(step)}")
    lines += [f"    - {d}" for d in case.differences]
    return "\n".join(lines)


def plantable(plant: str, case: Case) -> bool:
    kinds = {s.kind for s in case.steps}
    if plant == "description":
        return any(s.kind == "add" and "description" in s.args for s in case.steps)
    if plant == "read":
        return bool(kinds & set(READS))
    return bool(kinds & set(WRITES))


def self_check(sides: Sides, available: set[str], count: int, base: int, jobs: int) -> int:
    ok = True
    for plant in PLANTS:
        seeds: list[int] = []
        seed = base
        while len(seeds) < count:
            if plantable(plant, build_case(seed, available)):
                seeds.append(seed)
            seed += 1
        cases = run_all(seeds, sides, available, plant, False, jobs)
        touched = [c for c in cases if c.planted]
        missed = [c for c in touched if not c.differences]
        stray = [c for c in cases if not c.planted and c.differences]
        print(f"plant {plant}: applied in {len(touched)} of {len(cases)} cases, caught in "
              f"{len(touched) - len(missed)}")
        for case in stray:
            print("  a case the plant did not touch differs:\n" + describe(case, base))
        if not touched or missed or stray:
            ok = False
            for case in missed:
                print(f"  MISSED: seed {case.seed}: the planted {plant} went unnoticed "
                      f"({case.root})")
        for case in cases:
            if case not in missed and case not in stray:
                shutil.rmtree(case.root, ignore_errors=True)
    print("self-check: " + ("every planted disagreement was caught" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv: list[str]) -> int:
    args = argv[1:]
    check = "--self-check" in args
    if check:
        args.remove("--self-check")
    base = SEED
    if "--seed" in args:
        i = args.index("--seed")
        if i + 1 >= len(args) or not args[i + 1].isdigit():
            print("--seed needs a number", file=sys.stderr)
            return 2
        base = int(args[i + 1])
        del args[i:i + 2]
    if len(args) not in (1, 2):
        print("usage: curated_peer.py MEMKIT_BINARY [CASES | @SEED] [--seed S]\n"
              "       curated_peer.py MEMKIT_BINARY --self-check [CASES] [--seed S]",
              file=sys.stderr)
        return 2
    seeds = peer_setup.seeds(args[1] if len(args) == 2 else None,
                             SELF_CHECK_CASES if check else DEFAULT_CASES, base,
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
    available = probe_memkit(ready.memkit)
    if "add" not in available:
        print(f"SKIP: {ready.memkit} has no `memkit curated add` yet (curated.md §6); nothing "
              "to compare")
        return peer_setup.SKIP
    pycache = Path(tempfile.mkdtemp(prefix="memkit-curated-pycache-"))
    try:
        return run_cases(ready, Sides(ready.memkit, ready.peer_file, ready.faketime, pycache),
                   available, seeds, base, check, plant)
    finally:
        shutil.rmtree(pycache, ignore_errors=True)


def run_cases(ready, sides: Sides, available: set[str], seeds: list[int], base: int, check: bool,
        plant: str | None) -> int:
    missing = sorted(({c for need in NEEDS.values() for c in need} | {"list", "unlink"})
                     - available)
    jobs, keep, verbose = peer_setup.run_options()
    print(f"peer: {ready.peer_file}; clock from TZ=UTC faketime -f / memkit --now, from "
          f"{START:%Y-%m-%d %H:%M:%S} UTC, moved between steps")
    if missing:
        print(f"memkit has no `curated {'`, `'.join(missing)}` yet: the steps that need them "
              "are left out of the cases"
              + (", and its rows are read from its files instead of `list`"
                 if "list" in missing else "")
              + " (a seed's case depends on which commands exist)")
    if check:
        return self_check(sides, available, len(seeds), base, jobs)
    if plant:
        print(f"MEMKIT_DIFF_PLANT={plant}: a disagreement is planted on memkit's side; this run "
              "must fail")
    started = time.monotonic()
    cases = run_all(seeds, sides, available, plant, keep, jobs)
    failed = [c for c in cases if c.differences]
    for case in failed[:20]:
        print(describe(case, base))
    if len(failed) > 20:
        print(f"... and {len(failed) - 20} more failing cases")
    if verbose or keep:
        for case in cases:
            if not case.differences:
                print(f"ok   seed {case.seed}: {len(case.steps)} steps"
                      + (f", kept {case.root}" if keep else ""))
    steps: dict[str, int] = {}
    known: dict[str, int] = {}
    for case in cases:
        for key, value in case.tally.items():
            steps[key] = steps.get(key, 0) + value
        for key, value in case.known.items():
            known[key] = known.get(key, 0) + value
    print("steps run by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(steps.items())))
    print("known differences applied (curated.md §12 and §6): "
          + (", ".join(f"{k} {v}" for k, v in sorted(known.items())) or "none"))
    print(f"{time.monotonic() - started:.1f} s, {jobs} at once; "
          f"{len(cases) - len(failed)} of {len(cases)} cases agree")
    if failed:
        first = failed[0]
        print(f"first diverging case: index {first.seed - base}, seed {first.seed}, step "
              f"{first.failed_step}; rerun it with: curated_peer.py {ready.memkit} "
              f"@{first.seed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
