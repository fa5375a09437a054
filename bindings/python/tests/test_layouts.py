"""Each layout's commands through the command methods, on small roots: what the library writes,
what it refuses without writing, and (where the CLI is beside the library, or MEMKIT_CLI names
it) that the binding's JSON is the CLI's byte for byte for the same arguments.

The gate and the MemoryBox moves are tests/test_memorybox_gate.py; the shared vectors
tests/test_vectors.py.
"""
import fcntl
import json
import os
import subprocess
from pathlib import Path

try:
    from .support import NOW, TempDirTestCase
except ImportError:
    from support import NOW, TempDirTestCase

import memkit

BOX_NOW = "2026-11-30T10:00:00+01:00"
WORKSPACE_ID = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"


def cli():
    """The memkit CLI beside the library under test (MEMKIT_CLI, or the build tree's
    src/cli/memkit next to capi/libmemkit.so), or None."""
    explicit = os.environ.get("MEMKIT_CLI")
    if explicit:
        return Path(explicit)
    guess = Path(memkit.library_path).resolve().parents[1] / "src" / "cli" / "memkit"
    return guess if guess.is_file() and os.access(guess, os.X_OK) else None


def files(root):
    """Every file under root (relative path -> bytes), the lock an apply takes aside."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and str(p.relative_to(root)) not in (".memkit/lock",
                                                                 ".memkit/.gitignore")}


def findings(result):
    return [(f["code"], f["severity"], f["fatal"]) for f in json.loads(result.json)["findings"]]


def data(result):
    return json.loads(result.json)["data"]


class LayoutTestCase(TempDirTestCase):
    def open(self, layout, name=None, init=False, now=BOX_NOW):
        root = self.temp / (name or layout) if layout == "curated" else self.project(
            name=name or layout)
        ws = memkit.Workspace.open(root, layout=layout)
        self.addCleanup(ws.close)
        if init:
            ws.init(now).close()
        return root, ws

    def assert_same_as_cli(self, layout, root_flag, steps, now):
        """Runs each (call, argv) on the binding's workspace and the CLI on a twin root; the
        envelopes and exit codes, then the files, must be the same."""
        memkit_cli = cli()
        if memkit_cli is None:
            self.skipTest("no memkit CLI beside the library (set MEMKIT_CLI)")
        twin = self.temp / "cli"
        if layout != "curated":
            twin.mkdir()
        # The library reads no MEMKIT_* variable: neither may the CLI here.
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMKIT_")}
        for number, (call, argv) in enumerate(steps, start=1):
            done = subprocess.run([str(memkit_cli), layout, *argv, root_flag, str(twin), "--now",
                                   now, "--format", "json"], capture_output=True, env=env)
            with self.subTest(step=number, argv=argv), call() as result:
                self.assertEqual((result.exit_code, result.json_bytes),
                                 (done.returncode, done.stdout.rstrip(b"\n")))
        return twin


class CustodianTests(LayoutTestCase):
    def test_add_then_forget_plan_then_apply(self):
        root, ws = self.open("custodian", init=True, now=NOW)
        with ws.add(NOW, "Use PostgreSQL 15 for the sync tests", type="decision",
                    reason="Debian 12 ships it") as added:
            self.assertEqual((added.exit_code, added.applied, added.plan_id), (0, True, None))
        self.assertIn("Use PostgreSQL 15", (root / "docs/memory/decisions.md").read_text())
        with ws.add(NOW, "ünïcode café, 記住", type="inbox") as added:
            self.assertTrue(added.applied)
        self.assertIn("ünïcode café, 記住", (root / "docs/memory/inbox.md").read_text("utf-8"))
        with ws.add(NOW, "Invoices are immutable", type="constraint", area="billing") as added:
            self.assertTrue(added.applied, added.json)
        self.assertIn("Invoices are immutable", (root / "docs/memory/areas/billing.md").read_text())
        with ws.forget(NOW, "PostgreSQL", mode="purge") as plan:
            self.assertEqual(plan.exit_code, 0, plan.json)
            self.assertNotIn("PostgreSQL", plan.json)  # purge never names the topic
            plan_id = plan.plan_id
        with ws.forget(NOW, "PostgreSQL", mode="purge", apply=True,
                       confirm_plan=plan_id) as applied:
            self.assertTrue(applied.applied, applied.json)
        self.assertNotIn("PostgreSQL", (root / "docs/memory/decisions.md").read_text())
        with ws.add(NOW, "x", type="bogus") as refused:  # an unknown --type is a finding
            self.assertEqual((refused.exit_code, refused.applied), (2, False))
        with ws.undo(NOW, "not-a-plan-id") as refused:
            self.assertEqual(refused.exit_code, 2)

    def test_broad_forget_needs_allow_broad_match(self):
        root = self.project("inbox_dedupe", name="dedupe")
        with memkit.Workspace.open(root) as ws:
            with ws.forget(NOW, "redis") as plan:
                plan_id = plan.plan_id
                self.assertIn("MK-FORGET-002", plan.json)  # the match is broad
            with ws.forget(NOW, "redis", apply=True, confirm_plan=plan_id) as refused:
                self.assertEqual((refused.exit_code, refused.applied), (1, False))
            with ws.forget(NOW, "redis", allow_broad_match=True, apply=True,
                           confirm_plan=plan_id) as applied:
                self.assertEqual((applied.exit_code, applied.applied), (0, True))
                self.assertEqual(applied.plan_id, plan_id)
        self.assertNotIn("Redis", (root / "docs/memory/inbox.md").read_text())

    def test_recover_flags_reach_the_library(self):
        root = self.project("inbox_dedupe", name="dedupe")
        with memkit.Workspace.open(root, lock_timeout=0) as ws:
            with ws.recover(NOW, rollback=True) as r:  # --rollback needs --apply
                self.assertEqual(r.exit_code, 2)
            (root / ".memkit").mkdir(exist_ok=True)
            lock = os.open(root / ".memkit/lock", os.O_RDWR | os.O_CREAT, 0o644)
            self.addCleanup(os.close, lock)
            fcntl.flock(lock, fcntl.LOCK_EX)  # another holder: only --apply takes the lock
            with ws.recover(NOW) as listing:
                self.assertEqual(listing.exit_code, 0)
            with ws.recover(NOW, apply=True, rollback=True) as r:
                self.assertEqual(r.exit_code, 2)
                self.assertIn("MK-LOCK-001", r.json)
            fcntl.flock(lock, fcntl.LOCK_UN)
            with ws.recover(NOW, apply=True, rollback=True) as r:
                self.assertEqual(r.exit_code, 0, r.json)


class MemoryBoxTests(LayoutTestCase):
    def test_decay_update_load_and_hygiene(self):
        root, ws = self.open("memorybox", init=True)
        long_term = root / "memory/LONG_TERM.md"
        long_term.write_text("- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n")
        for file in ("memory/LONG_TERM.md", Path("memory/LONG_TERM.md")):
            with self.subTest(file=file), ws.decay(BOX_NOW, file=file) as decay:
                (entry,) = data(decay)["entries"]
                self.assertEqual((entry["stored"], entry["effective"], entry["band"]),
                                 (90, 80, "high"))
        entry_id = entry["entry_id"]
        with ws.update(BOX_NOW, entry=entry_id, confirm=True) as confirmed:
            self.assertEqual((confirmed.exit_code, confirmed.applied), (0, True), confirmed.json)
            self.assertEqual((data(confirmed)["before"]["stored"],
                              data(confirmed)["after"]["stored"]), (90, 95))
        self.assertIn("Confidence: 0.95", long_term.read_text())
        with ws.update(BOX_NOW, entry=entry_id, contradict=True) as refused:  # needs --note
            self.assertEqual((refused.exit_code, refused.applied), (2, False), refused.json)
        with ws.update(BOX_NOW, entry=entry_id, contradict=True, note="it changed") as done:
            self.assertTrue(done.applied, done.json)
        with ws.update(BOX_NOW, entry=entry_id, resolve="keep", confidence=0.7) as done:
            self.assertTrue(done.applied, done.json)
        self.assertIn("Confidence: 0.70", long_term.read_text())
        self.assertNotIn("contradicted", long_term.read_text())

        before = files(root)
        with ws.load(BOX_NOW, tier=1) as loaded:
            shown = {f["path"]: f for f in data(loaded)["files"]}
            self.assertEqual(shown["brain/SOUL.md"]["content"], "# SOUL\n")
        with ws.load(BOX_NOW, tier=1, file="brain/SOUL.md") as both:  # exactly one
            self.assertEqual(both.exit_code, 2, both.json)
        with ws.load(BOX_NOW, tier=5) as archive:  # tier 5 needs include_archive
            self.assertEqual(archive.exit_code, 2, archive.json)
        with ws.load(BOX_NOW, tier=5, include_archive=True) as archive:
            self.assertEqual(archive.exit_code, 0, archive.json)
        (root / "brain/SOUL.md").write_text("# SOUL\n\nSee [[missing/PAGE]].\n")
        with ws.hygiene(BOX_NOW) as hygiene:
            self.assertEqual(hygiene.exit_code, 1, hygiene.json)
            self.assertEqual([o["target"] for o in data(hygiene)["orphans"]], ["missing/PAGE.md"])
        before["brain/SOUL.md"] = (root / "brain/SOUL.md").read_bytes()
        self.assertEqual(files(root), before)  # the reads wrote nothing

    def test_maven_canon_and_client_lifecycle(self):
        root, ws = self.open("memorybox")
        with ws.init(BOX_NOW, profile="maven") as init:
            self.assertIn("brain/MARKETING_CANON.md", data(init)["created"])
        canon = "brain/MARKETING_CANON.md"
        with ws.canon_add(BOX_NOW, file=canon, text="Our tone is plain.") as added:
            self.assertEqual((added.exit_code, added.applied), (0, True), added.json)
            self.assertEqual(data(added)["written"], [canon, ".memkit/canon-ledger.jsonl"])
        (root / canon).write_text((root / canon).read_text().replace("plain", "loud!"))
        before = files(root)
        with ws.canon_verify(BOX_NOW) as verify:
            self.assertEqual(findings(verify), [("MK-BOX-030", "ERROR", False)])
        with ws.canon_add(BOX_NOW, file=canon, text="One more.") as refused:
            self.assertEqual((refused.exit_code, refused.applied), (1, False))
        self.assertEqual(files(root), before)  # nothing written, the ledger included

        (root / "brain/clients").mkdir()
        (root / "brain/clients/acme.md").write_text("# Acme\n\nLifecycle: active\n")
        with ws.client_set(BOX_NOW, client="acme", to="archived") as skip:  # not from active
            self.assertEqual(findings(skip), [("MK-BOX-031", "ERROR", False)])
        with ws.client_set(BOX_NOW, client="acme", to="maintenance") as field:
            self.assertEqual((field.applied, field.plan_id), (True, None), field.json)
        with ws.client_set(BOX_NOW, client="acme", to="archived") as plan:
            self.assertFalse(plan.applied)
            plan_id = plan.plan_id
        with ws.client_set(BOX_NOW, client="acme", to="archived", apply=True,
                           confirm_plan=plan_id) as done:
            self.assertEqual((done.applied, done.plan_id), (True, plan_id), done.json)
        self.assertTrue((root / "memory/ARCHIVES/clients/acme/acme.md").is_file())
        self.assertFalse((root / "brain/clients/acme.md").exists())

    def test_maven_json_is_the_clis(self):
        root, ws = self.open("memorybox", name="binding")
        steps = [
            (lambda: ws.init(BOX_NOW, profile="maven"), ["init", "--profile", "maven"]),
            (lambda: ws.canon_add(BOX_NOW, file="brain/canon/voice.md", text="Short."),
             ["canon", "add", "--file", "brain/canon/voice.md", "--text", "Short."]),
            (lambda: ws.canon_verify(BOX_NOW), ["canon", "verify"]),
            (lambda: ws.log(BOX_NOW, text="Shipped 1.2", session="release"),
             ["log", "--text", "Shipped 1.2", "--session", "release"]),
            (lambda: ws.status(BOX_NOW), ["status"]),
        ]
        twin = self.assert_same_as_cli("memorybox", "--root", steps, BOX_NOW)
        self.assertEqual(files(root / "brain"), files(twin / "brain"))
        self.assertEqual(files(root / "memory"), files(twin / "memory"))

    def test_sync_push_then_pull_between_two_roots(self):
        remote = self.temp / "remote"
        remote.mkdir()
        a_path, a = self.open("memorybox", name="a", init=True)
        (a_path / "memory/LONG_TERM.md").write_text(
            "# LONG_TERM\n\n## Facts\n\n- Deploys happen on Tuesdays\n  Confidence: 0.80\n"
            "  Verified: 2026-11-25\n  Updated: 2026-11-25T10:00:00.000Z\n", encoding="utf-8")
        b_path, b = self.open("memorybox", name="b", init=True)
        with a.sync_status(BOX_NOW) as status:
            self.assertEqual((data(status)["workspace_id"], data(status)["pending_push"]),
                             (None, 1))
        with a.sync_push(BOX_NOW, remote=f"dir:{remote}", workspace_id=WORKSPACE_ID) as pushed:
            self.assertEqual(pushed.exit_code, 0, pushed.json)
            self.assertEqual((data(pushed)["sent"], data(pushed)["workspace_id"]),
                             (1, WORKSPACE_ID))
        with b.sync_pull(BOX_NOW, remote=f"dir:{remote}", workspace_id=WORKSPACE_ID) as pulled:
            self.assertEqual((pulled.exit_code, pulled.applied), (0, True), pulled.json)
            self.assertEqual(pulled.plan_id, data(pulled)["plan"]["plan_id"])
        self.assertIn("Deploys happen on Tuesdays",
                      (b_path / "memory/LONG_TERM.md").read_text(encoding="utf-8"))
        with b.sync_pull(BOX_NOW, remote=f"dir:{remote}") as again:  # nothing new
            self.assertEqual((data(again)["pulled"], again.applied), (0, False))

    def test_sync_refusals_and_the_connection_file(self):
        root, ws = self.open("memorybox", init=True)
        conninfo = self.temp / "conninfo"
        conninfo.write_text("host=/nonexistent/memkit-py-sync port=1 password=sekrit-conninfo")
        with ws.sync_push(BOX_NOW, remote="postgres", conninfo_file=conninfo,
                          workspace_id=WORKSPACE_ID) as result:
            self.assertEqual(result.exit_code, 2)
            self.assertTrue({"MK-BOX-023", "MK-ARG-001"} & {f[0] for f in findings(result)})
            self.assertNotIn("sekrit", result.json)
        with ws.sync_pull(BOX_NOW) as result:
            self.assertIn("--remote: required", result.json)
        with self.assertRaises(memkit.Error) as caught:  # no --take for status
            ws.sync_status(BOX_NOW, take="local")
        self.assertEqual(caught.exception.message, "take: not an argument of memorybox sync status")


TIERS_NOW = "2026-03-07T14:05:09+00:00"  # spec tiers3.md §15's local time
L1 = "memory/sessions/2026-03-07.md"
L2 = "memory/decision/2026-03-07_14.md"


class TiersTests(LayoutTestCase):
    def test_spec_15_persist_turn_bytes(self):
        root, ws = self.open("tiers")
        with ws.persist_turn(TIERS_NOW, raw_content="  Raw one  ", entry_type="assistant",
                             session_id="s1", tools=["search", "read"],
                             extracted_content="Use persist-turn.", theme="Decision",
                             template="decision", title="Default command") as result:
            self.assertEqual((result.exit_code, result.applied, result.plan_id), (0, True, None))
            self.assertEqual(data(result)["l2_path"], L2)
        self.assertEqual((root / L1).read_bytes(),
                         b"# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n"
                         b"**Session:** s1\n**Tools:** search, read\n\nRaw one\n\n---")
        self.assertEqual((root / L2).read_bytes(),
                         b"## Decision Record: Default command\n\nUse persist-turn.\n")

    def test_refusals_write_nothing(self):
        root, ws = self.open("tiers")
        with ws.persist_turn(TIERS_NOW, raw_content="Half",
                             extracted_content="No theme.") as result:
            self.assertEqual(findings(result), [("MK-TIERS-004", "BLOCKER", True)])
        self.assertEqual(list(root.iterdir()), [])  # not even the L1 entry
        ws.init(TIERS_NOW).close()
        before = files(root)
        for name, call, code in (
                ("theme auto", lambda: ws.write_theme(TIERS_NOW, theme="auto", content="x"),
                 "MK-TIERS-003"),
                ("tools not strings", lambda: ws.log_turn(TIERS_NOW, content="t", tools="[1]"),
                 "MK-TIERS-001"),
                ("append and replace", lambda: ws.write_global(TIERS_NOW, content="x",
                                                               append=True, replace=True),
                 "MK-ARG-001"),
                ("missing content", lambda: ws.log_turn(TIERS_NOW), "MK-ARG-001")):
            with self.subTest(refusal=name), call() as result:
                self.assertEqual((result.exit_code, result.applied), (2, False), result.json)
                self.assertEqual(findings(result)[0][0], code)
        self.assertEqual(files(root), before)

    def test_data_source_file_is_relative_to_the_working_directory(self):
        root, ws = self.open("tiers")
        (self.temp / "in.csv").write_bytes(b"k,v\r\n1,2\r\n")
        cwd = os.getcwd()
        self.addCleanup(os.chdir, cwd)
        os.chdir(self.temp)  # the workspace is self.temp/tiers: not where in.csv is
        with ws.write_data(TIERS_NOW, name="copied", source_file="in.csv",
                           columns_json=["k", "v"]) as result:
            self.assertEqual(result.exit_code, 0, result.json)
            self.assertEqual(data(result)["manifest_entry"]["declared_columns"], ["k", "v"])
        self.assertEqual((root / "memory/data/copied.csv").read_bytes(), b"k,v\r\n1,2\r\n")
        with ws.read_data(TIERS_NOW, name="copied", head=1) as head:
            self.assertEqual(data(head)["data"]["content"], "k,v\r\n")
        with ws.write_data(TIERS_NOW, name="copied", csv_content="b\n") as exists:
            self.assertEqual(findings(exists), [("MK-TIERS-011", "ERROR", False)])

    def test_archive_themes_dry_run_then_apply(self):
        root, ws = self.open("tiers")
        ws.write_theme("2025-11-01T09:00:00+00:00", theme="research", content="Old.").close()
        old = "memory/research/2025-11-01_09.md"
        before = files(root)
        with ws.archive_themes(TIERS_NOW) as plan:
            self.assertEqual((plan.exit_code, plan.applied, plan.plan_operation_count),
                             (0, False, 2), plan.json)
            plan_id = plan.plan_id
        self.assertEqual(files(root), before)
        with ws.archive_themes(TIERS_NOW, apply=True, confirm_plan="0123456789abcdef") as stale:
            self.assertEqual(findings(stale)[0][0], "MK-PLAN-001")
        with ws.archive_themes(TIERS_NOW, apply=True, confirm_plan=plan_id) as done:
            self.assertEqual((done.applied, done.plan_id), (True, plan_id), done.json)
        self.assertEqual((root / "memory/archive/research/2025-11-01_09.md").read_bytes(),
                         before[old])
        with ws.recover(TIERS_NOW) as listing:
            self.assertEqual(json.loads(listing.json)["command"], "tiers recover")

    def test_tiers_json_is_the_clis(self):
        root, ws = self.open("tiers", name="binding")
        steps = [
            (lambda: ws.init(TIERS_NOW), ["init"]),
            (lambda: ws.persist_turn(TIERS_NOW, raw_content="raw", extracted_content="Note.",
                                     theme="ops", template="task", title="Deploy", tools=["sh"],
                                     promote_global=True),
             ["persist-turn", "--raw-content", "raw", "--extracted-content", "Note.", "--theme",
              "ops", "--template", "task", "--title", "Deploy", "--tools", '["sh"]',
              "--promote-global"]),
            (lambda: ws.session_init(TIERS_NOW, session_id="s2", max_tokens=5),
             ["session-init", "--session-id", "s2", "--max-tokens", "5"]),
            (lambda: ws.read_theme(TIERS_NOW, theme="ops", hours_back=1, limit=5),
             ["read-theme", "--theme", "ops", "--hours-back", "1", "--limit", "5"]),
            (lambda: ws.write_data(TIERS_NOW, name="d", csv_content="", columns_json=[]),
             ["write-data", "--name", "d", "--csv-content", "", "--columns-json", "[]"]),
            (lambda: ws.read_logs(TIERS_NOW, days_back=-1), ["read-logs", "--days-back", "-1"]),
            (lambda: ws.template(TIERS_NOW, "error"), ["template", "error"]),
            (lambda: ws.log_turn(TIERS_NOW, content=b"bytes \xc3\xa9t\xc3\xa9"),
             ["log-turn", "--content", "bytes été"]),
        ]
        twin = self.assert_same_as_cli("tiers", "--workspace", steps, TIERS_NOW)
        self.assertEqual(files(root / "memory"), files(twin / "memory"))


CURATED_ROW = dict(workspace="ws1", name="project_a", type="project", body="Fix the flaky build",
                   class_="thread", status="open")


class CuratedTests(LayoutTestCase):
    def test_add_show_and_a_refused_reclassify(self):
        root, ws = self.open("curated")
        self.assertFalse(root.exists())  # opening makes nothing
        with ws.add(BOX_NOW, dry_run=True, **CURATED_ROW) as dry:
            self.assertEqual((dry.exit_code, dry.applied), (0, False), dry.json)
        self.assertFalse(root.exists())
        with ws.add(BOX_NOW, **CURATED_ROW) as added:
            self.assertEqual((added.exit_code, added.applied), (0, True), added.json)
            self.assertEqual(data(added)["files"], ["log/ws1/history.jsonl",
                                                    "rows/ws1/project.md"])
        with ws.show(BOX_NOW, "project_a", workspace="ws1", history=True) as shown:
            self.assertEqual((data(shown)["class"], data(shown)["deliberate_count"]),
                             ("thread", 1))
        before = files(root)
        with ws.reclassify(BOX_NOW, "project_a", workspace="ws1", class_="anchor",
                           status="open") as refused:
            self.assertEqual(findings(refused), [("MK-CUR-007", "BLOCKER", True)])
        self.assertEqual(files(root), before)
        with ws.stats(BOX_NOW) as missing:  # the library reads no MEMKIT_WORKSPACE
            self.assertEqual(findings(missing), [("MK-CUR-001", "BLOCKER", True)])

    def test_two_word_commands_and_a_json_payload(self):
        root, ws = self.open("curated")
        with ws.event_add(BOX_NOW, workspace="ws1", type="build", payload='{"ok":1}') as event:
            self.assertEqual(json.loads(event.json)["command"], "curated event add")
            self.assertEqual(event.exit_code, 0, event.json)
        (line,) = (root / "floors/events/2026-11-30.jsonl").read_text().splitlines()
        self.assertEqual(json.loads(line)["payload"], {"ok": 1})
        with ws.floors_prune(BOX_NOW, workspace="ws1") as plan:
            self.assertEqual(json.loads(plan.json)["command"], "curated floors prune")

    def test_curated_json_is_the_clis(self):
        root, ws = self.open("curated", name="binding")
        steps = [
            (lambda: ws.add(BOX_NOW, **CURATED_ROW),
             ["add", "--workspace", "ws1", "--name", "project_a", "--type", "project", "--body",
              "Fix the flaky build", "--class", "thread", "--status", "open"]),
            (lambda: ws.show(BOX_NOW, "project_a", workspace="ws1", links=True),
             ["show", "project_a", "--workspace", "ws1", "--links"]),
            (lambda: ws.get_relevant(BOX_NOW, workspace="ws1", max_chars=100),
             ["get-relevant", "--workspace", "ws1", "--max-chars", "100"]),
            (lambda: ws.list(BOX_NOW, workspace="ws1", sort="name"),
             ["list", "--workspace", "ws1", "--sort", "name"]),
            (lambda: ws.search(BOX_NOW, query="flaky", workspace="ws1"),
             ["search", "flaky", "--workspace", "ws1"]),
        ]
        twin = self.assert_same_as_cli("curated", "--store", steps, BOX_NOW)
        self.assertEqual(files(root), files(twin))


if __name__ == "__main__":
    import unittest
    unittest.main()
