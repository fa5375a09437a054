"""The MemoryBox Maven profile (spec memorybox.md §10): init's profile (mk_workspace_init with
MK_INIT_PROFILE_*), canon (mk_workspace_canon_add, mk_workspace_canon_verify) and client
lifecycles (mk_workspace_client_set, mk_workspace_apply_client_set)."""
import json
import os
import subprocess
from pathlib import Path

try:
    from .support import TempDirTestCase
except ImportError:
    from support import TempDirTestCase

import memkit

NOW = "2026-11-30T10:00:00+01:00"
CANON = "brain/MARKETING_CANON.md"
ACME = "brain/clients/acme.md"
ACME_ARCHIVED = "memory/ARCHIVES/clients/acme/acme.md"
LOCK_FILES = {".memkit/lock", ".memkit/.gitignore"}
ACME_PROFILE = "# Acme\n\nLifecycle: active\nContact: Ana\n"


def files_of(root):
    """Every file of the agent root and its bytes, the canon ledger and profile included; only
    the lock an apply takes (.memkit/lock and the .memkit/.gitignore made with it) is left out."""
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted(root.rglob("*"))
            if path.is_file() and str(path.relative_to(root)) not in LOCK_FILES}


def codes(result):
    return [(f["code"], f["severity"]) for f in json.loads(result.json)["findings"]]


def cli_path():
    """The memkit CLI beside the library under test (MEMKIT_CLI, or the build tree's
    src/cli/memkit next to capi/libmemkit.so), or None."""
    explicit = os.environ.get("MEMKIT_CLI")
    if explicit:
        return Path(explicit)
    guess = Path(memkit.library_path).resolve().parents[1] / "src" / "cli" / "memkit"
    return guess if guess.is_file() and os.access(guess, os.X_OK) else None


class MavenTestCase(TempDirTestCase):
    def maven(self, name="agent"):
        root = self.project(name=name)
        ws = memkit.Workspace.open(root, layout="memorybox")
        self.addCleanup(ws.close)
        with ws.init(NOW, profile="maven") as init:
            self.assertEqual(init.exit_code, 0, init.json)
        return root, ws


class InitProfileTests(MavenTestCase):
    def test_enums_are_the_header_values(self):
        self.assertEqual([(p.name, int(p)) for p in memkit.Profile],
                         [("DEFAULT", 2), ("MAVEN", 4)])
        self.assertEqual([(s.name, int(s)) for s in memkit.Lifecycle],
                         [("ACTIVE", 0), ("MAINTENANCE", 1), ("ARCHIVED", 2)])

    def test_init_with_the_maven_profile(self):
        root = self.project(name="agent")
        with memkit.Workspace.open(root, layout="memorybox") as ws:
            with ws.init(NOW, profile="maven") as init:
                self.assertEqual(init.exit_code, 0, init.json)
                created = json.loads(init.json)["data"]["created"]
                for name in (CANON, "brain/ATTRIBUTION_MODEL.md", "brain/BENCHMARK.md",
                             "brain/OKRs.md", "brain/RISK_REGISTER.md", "brain/SOUL.md"):
                    self.assertIn(name, created)
                    self.assertTrue((root / name).is_file(), name)
        self.assertEqual((root / ".memkit/profile").read_text().strip(), "maven")
        self.assertEqual((root / CANON).read_text(), "# MARKETING_CANON\n")

    def test_profile_forms(self):
        for profile, recorded, maven in ((memkit.Profile.MAVEN, "maven", True),
                                         ("Maven", "maven", True),
                                         ("default", "default", False),
                                         (memkit.Profile.DEFAULT, "default", False)):
            with self.subTest(profile=profile):
                root = self.project(name=f"agent-{profile!s}-{recorded}")
                with memkit.Workspace.open(root, layout="memorybox") as ws:
                    ws.init(NOW, profile=profile).close()
                self.assertEqual((root / ".memkit/profile").read_text().strip(), recorded)
                self.assertEqual((root / CANON).exists(), maven)
        root = self.project(name="no-profile")
        with memkit.Workspace.open(root, layout="memorybox") as ws:
            ws.init(NOW, profile=None).close()
            self.assertFalse((root / CANON).exists())
            with ws.canon_verify(NOW) as verify:  # no profile is the default one
                self.assertEqual(verify.exit_code, 2, verify.json)

    def test_profile_arguments(self):
        root = self.project(name="agent")
        with memkit.Workspace.open(root, layout="memorybox") as ws:
            with self.assertRaises(memkit.Error) as both:  # the library's refusal
                ws.init(NOW, profile=memkit.Profile.DEFAULT | memkit.Profile.MAVEN)
            self.assertEqual(both.exception.code, memkit.Status.E_ARG)
            self.assertNotIsInstance(both.exception, memkit.ArgumentError)
            with self.assertRaises(memkit.ArgumentError):
                ws.init(NOW, profile="marketing")
            with self.assertRaises(memkit.ArgumentError):  # MK_INIT_EXTENDED is not a profile
                ws.init(NOW, profile=1)
            with self.assertRaises(TypeError):
                ws.init(NOW, profile=4.0)
            with ws.init(NOW, extended=True, profile="maven") as extended:  # --extended is
                self.assertEqual(extended.exit_code, 2, extended.json)      # custodian only
            self.assertEqual(list(root.iterdir()), [])  # nothing refused wrote anything
        with memkit.Workspace.open(self.project(name="custodian")) as custodian:
            with custodian.init(NOW, profile="maven") as init:  # --profile is MemoryBox only
                self.assertEqual(init.exit_code, 2, init.json)
                self.assertEqual(codes(init), [("MK-ARG-001", "BLOCKER")])


class CanonTests(MavenTestCase):
    def test_add_to_the_append_only_canon_then_verify_clean(self):
        root, ws = self.maven()
        with ws.canon_add(NOW, CANON, "Our tone is plain.") as added:
            self.assertEqual(added.exit_code, 0, added.json)
            shown = json.loads(added.json)
            self.assertEqual(shown["command"], "memorybox canon add")
            data = shown["data"]
            self.assertEqual(data["written"], [CANON, ".memkit/canon-ledger.jsonl"])
            self.assertEqual(data["violations"], [])
            (record,) = data["ledger"]
            self.assertEqual((record["path"], record["length"]), (CANON, 40))
            self.assertRegex(record["sha256"], r"^[0-9a-f]{64}$")
            self.assertTrue(added.applied)
            self.assertIsNone(added.plan_id)  # additive: no plan
        self.assertEqual((root / CANON).read_text(), "# MARKETING_CANON\n\n- Our tone is plain.\n")
        ledger = (root / ".memkit/canon-ledger.jsonl").read_text().splitlines()
        self.assertEqual([json.loads(line)["path"] for line in ledger], [CANON])

        with ws.canon_add(NOW, CANON, b"Second entry, as bytes.") as again:  # append-only
            self.assertEqual(again.exit_code, 0, again.json)
        self.assertEqual((root / CANON).read_text(), "# MARKETING_CANON\n\n- Our tone is plain.\n"
                         "- Second entry, as bytes.\n")
        before = files_of(root)
        with ws.canon_verify(NOW) as verify:
            self.assertEqual(verify.exit_code, 0, verify.json)
            data = json.loads(verify.json)["data"]
            self.assertEqual((data["violations"], data["written"]), ([], []))
            self.assertEqual([r["path"] for r in data["ledger"]], [CANON])
            self.assertFalse(verify.applied)
        self.assertEqual(files_of(root), before)  # verify writes nothing

    def test_editing_recorded_canon_by_hand(self):
        root, ws = self.maven()
        ws.canon_add(NOW, CANON, "Our tone is plain.").close()
        text = (root / CANON).read_text()
        (root / CANON).write_text(text.replace("plain", "loud!"))  # same length, other bytes
        before = files_of(root)
        with ws.canon_verify(NOW) as verify:
            self.assertEqual(verify.exit_code, 1, verify.json)
            self.assertEqual(codes(verify), [("MK-BOX-030", "ERROR")])
            (violation,) = json.loads(verify.json)["data"]["violations"]
            self.assertEqual(violation["path"], CANON)
        with ws.canon_add(NOW, CANON, "One more.") as refused:
            self.assertEqual(refused.exit_code, 1, refused.json)
            self.assertEqual(codes(refused), [("MK-BOX-030", "ERROR")])
            self.assertFalse(refused.applied)
            self.assertEqual(json.loads(refused.json)["data"]["written"], [])
        self.assertEqual(files_of(root), before)  # nothing written, the ledger included

        (root / CANON).write_text(text)  # restoring the recorded bytes clears it
        with ws.canon_verify(NOW) as verify:
            self.assertEqual(verify.exit_code, 0, verify.json)

    def test_write_once_canon_file(self):
        root, ws = self.maven()
        with ws.canon_add(NOW, Path("brain/canon/x.md"), "Write once.") as created:
            self.assertEqual(created.exit_code, 0, created.json)
            self.assertEqual(json.loads(created.json)["data"]["written"],
                             ["brain/canon/x.md", ".memkit/canon-ledger.jsonl"])
        self.assertEqual((root / "brain/canon/x.md").read_text(), "Write once.\n")
        before = files_of(root)
        with ws.canon_add(NOW, "brain/canon/x.md", "Again.") as refused:
            self.assertEqual(refused.exit_code, 2, refused.json)
            self.assertEqual(codes(refused), [("MK-ARG-001", "BLOCKER")])
            self.assertFalse(refused.applied)
        self.assertEqual(files_of(root), before)
        with ws.canon_verify(NOW) as verify:
            self.assertEqual(verify.exit_code, 0, verify.json)
            self.assertEqual(sorted(r["path"] for r in json.loads(verify.json)["data"]["ledger"]),
                             ["brain/canon/x.md"])

        with (root / "brain/canon/x.md").open("a") as canon:  # write-once: nothing more either
            canon.write("- appended\n")
        with ws.canon_verify(NOW) as verify:
            self.assertEqual(verify.exit_code, 1, verify.json)
            self.assertEqual(codes(verify), [("MK-BOX-030", "ERROR")])

    def test_canon_arguments_and_other_roots(self):
        root, ws = self.maven()
        before = files_of(root)
        for file in ("memory/LONG_TERM.md", "brain/SOUL.md", "brain/canon/../x.md"):
            with self.subTest(file=file), ws.canon_add(NOW, file, "x") as other:
                self.assertEqual(other.exit_code, 2, other.json)
                self.assertEqual(codes(other), [("MK-ARG-001", "BLOCKER")])
        self.assertEqual(files_of(root), before)
        with self.assertRaises(memkit.ArgumentError):
            ws.canon_add(NOW, "brain/canon/\0x.md", "x")
        with self.assertRaises(TypeError):
            ws.canon_add(NOW, CANON, 3)
        with self.assertRaises(TypeError):
            ws.canon_add(NOW, 3, "x")

        plain = self.project(name="default")
        with memkit.Workspace.open(plain, layout="memorybox") as other:
            other.init(NOW, profile="default").close()
            for name, command in (("canon_add", lambda: other.canon_add(NOW, CANON, "x")),
                                  ("canon_verify", lambda: other.canon_verify(NOW))):
                with self.subTest(profile="default", command=name), command() as result:
                    self.assertEqual(result.exit_code, 2, result.json)
                    self.assertEqual(codes(result), [("MK-ARG-001", "BLOCKER")])
        with memkit.Workspace.open(self.project(name="custodian")) as custodian:
            for name, command in (("canon_add", lambda: custodian.canon_add(NOW, CANON, "x")),
                                  ("canon_verify", lambda: custodian.canon_verify(NOW))):
                with self.subTest(layout="custodian", command=name), command() as result:
                    self.assertEqual(result.exit_code, 2, result.json)
                    self.assertEqual(codes(result), [("MK-ARG-001", "BLOCKER")])


class ClientLifecycleTests(MavenTestCase):
    def maven_with_acme(self):
        root, ws = self.maven()
        (root / "brain/clients").mkdir()
        (root / ACME).write_text(ACME_PROFILE)
        (root / "memory/clients/acme").mkdir(parents=True)
        (root / "memory/clients/acme/notes.md").write_text("- Prefers email.\n")
        return root, ws

    def test_active_to_maintenance_is_a_field_update(self):
        root, ws = self.maven_with_acme()
        with ws.client_set(NOW, "acme", "maintenance") as done:
            self.assertEqual(done.exit_code, 0, done.json)
            shown = json.loads(done.json)
            self.assertEqual(shown["command"], "memorybox client set")
            self.assertEqual(shown["data"], {"applied": True, "client": "acme", "from": "active",
                                             "plan": None, "to": "maintenance",
                                             "written": [ACME]})
            self.assertTrue(done.applied)
            self.assertIsNone(done.plan_id)
        self.assertEqual((root / ACME).read_text(),
                         "# Acme\n\nLifecycle: maintenance\nContact: Ana\n")
        before = files_of(root)
        with ws.client_set(NOW, "acme", memkit.Lifecycle.MAINTENANCE) as same:  # to itself
            self.assertEqual(same.exit_code, 0, same.json)
            self.assertFalse(same.applied)
            self.assertEqual(json.loads(same.json)["data"]["written"], [])
        self.assertEqual(files_of(root), before)
        with ws.apply_client_set(NOW, "acme", "active", "0000000000000000") as no_plan:
            self.assertEqual(no_plan.exit_code, 2, no_plan.json)  # a field update has no plan
            self.assertEqual(codes(no_plan), [("MK-ARG-001", "BLOCKER")])
        self.assertEqual(files_of(root), before)
        with ws.client_set(NOW, "acme", 0) as back:  # maintenance -> active, an int
            self.assertEqual(back.exit_code, 0, back.json)
            self.assertTrue(back.applied)
        self.assertEqual((root / ACME).read_text(), ACME_PROFILE)

    def test_maintenance_to_archived_dry_run_then_apply(self):
        root, ws = self.maven_with_acme()
        ws.client_set(NOW, "acme", "maintenance").close()
        before = files_of(root)
        with ws.client_set(NOW, "acme", "archived") as plan:
            self.assertEqual(plan.exit_code, 0, plan.json)
            data = json.loads(plan.json)["data"]
            self.assertEqual((data["from"], data["to"], data["applied"], data["written"]),
                             ("maintenance", "archived", False, []))
            self.assertRegex(plan.plan_id, r"^[0-9a-f]{16}$")
            self.assertEqual(plan.plan_id, data["plan"]["plan_id"])
            self.assertEqual(sorted((op["operation"], op["path"])
                                    for op in data["plan"]["operations"]),
                             [("create", ACME_ARCHIVED),
                              ("create", "memory/ARCHIVES/clients/acme/notes.md"),
                              ("delete", ACME), ("delete", "memory/clients/acme/notes.md")])
            self.assertEqual(plan.plan_operation_count, 4)
            self.assertFalse(plan.applied)
            plan_id = plan.plan_id
        self.assertEqual(files_of(root), before)  # a dry run writes nothing

        with ws.apply_client_set(NOW, "acme", "archived", "0000000000000000") as stale:
            self.assertEqual(stale.exit_code, 2, stale.json)
            self.assertIn(("MK-PLAN-001", "BLOCKER"), codes(stale))
            self.assertFalse(stale.applied)
        self.assertEqual(files_of(root), before)

        with ws.apply_client_set(NOW, "acme", memkit.Lifecycle.ARCHIVED, plan_id) as done:
            self.assertEqual(done.exit_code, 0, done.json)
            self.assertTrue(done.applied)
            self.assertEqual(done.plan_id, plan_id)
            self.assertTrue(json.loads(done.json)["data"]["applied"])
        self.assertFalse((root / ACME).exists())
        self.assertFalse((root / "memory/clients/acme/notes.md").exists())
        self.assertIn("Contact: Ana\n", (root / ACME_ARCHIVED).read_text())
        self.assertEqual((root / "memory/ARCHIVES/clients/acme/notes.md").read_text(),
                         "- Prefers email.\n")

        with ws.client_set(NOW, "acme", "maintenance") as skip:  # archived -> maintenance
            self.assertEqual(skip.exit_code, 1, skip.json)
            self.assertEqual(codes(skip), [("MK-BOX-031", "ERROR")])
        with ws.client_set(NOW, "acme", "active") as plan:  # reactivation moves them back
            self.assertEqual(plan.exit_code, 0, plan.json)
            reactivate = plan.plan_id
        with ws.apply_client_set(NOW, "acme", "active", reactivate) as done:
            self.assertEqual(done.exit_code, 0, done.json)
            self.assertTrue(done.applied)
        self.assertEqual((root / ACME).read_text(), ACME_PROFILE)
        self.assertEqual((root / "memory/clients/acme/notes.md").read_text(),
                         "- Prefers email.\n")
        self.assertFalse((root / ACME_ARCHIVED).exists())

    def test_active_to_archived_is_refused(self):
        root, ws = self.maven_with_acme()
        before = files_of(root)
        with ws.client_set(NOW, "acme", "ARCHIVED") as refused:
            self.assertEqual(refused.exit_code, 1, refused.json)
            self.assertEqual(codes(refused), [("MK-BOX-031", "ERROR")])
            data = json.loads(refused.json)["data"]
            self.assertEqual((data["from"], data["to"], data["plan"], data["written"]),
                             ("active", "archived", None, []))
            self.assertIsNone(refused.plan_id)
            self.assertFalse(refused.applied)
        self.assertEqual(files_of(root), before)

    def test_client_arguments_and_other_roots(self):
        root, ws = self.maven_with_acme()
        before = files_of(root)
        for client in ("nobody", ".acme", "a/b"):
            with self.subTest(client=client), ws.client_set(NOW, client, "active") as bad:
                self.assertEqual(bad.exit_code, 2, bad.json)
                self.assertEqual(codes(bad), [("MK-ARG-001", "BLOCKER")])
        with self.assertRaises(memkit.ArgumentError):
            ws.client_set(NOW, "acme", "retired")
        with self.assertRaises(memkit.ArgumentError):
            ws.client_set(NOW, "ac\0me", "active")
        with self.assertRaises(memkit.ArgumentError):
            ws.apply_client_set(NOW, "acme", "archived", "0123\0")
        with self.assertRaises(memkit.Error) as unknown:  # an int is the library's to judge
            ws.client_set(NOW, "acme", 7)
        self.assertEqual(unknown.exception.code, memkit.Status.E_ARG)
        self.assertNotIsInstance(unknown.exception, memkit.ArgumentError)
        with self.assertRaises(TypeError):
            ws.client_set(NOW, "acme", 1.0)
        self.assertEqual(files_of(root), before)

        plain = self.project(name="default")
        with memkit.Workspace.open(plain, layout="memorybox") as other:
            other.init(NOW).close()
            with other.client_set(NOW, "acme", "maintenance") as result:
                self.assertEqual(result.exit_code, 2, result.json)
                self.assertEqual(codes(result), [("MK-ARG-001", "BLOCKER")])
        with memkit.Workspace.open(self.project(name="custodian")) as custodian:
            for name, command in (
                    ("client_set", lambda: custodian.client_set(NOW, "acme", "maintenance")),
                    ("apply_client_set", lambda: custodian.apply_client_set(
                        NOW, "acme", "archived", "0123456789abcdef"))):
                with self.subTest(command=name), command() as result:
                    self.assertEqual(result.exit_code, 2, result.json)
                    self.assertEqual(codes(result), [("MK-ARG-001", "BLOCKER")])


class CliAgreementTests(MavenTestCase):
    """The binding's JSON is the CLI's, byte for byte (when the CLI is beside the library)."""

    def test_same_json_as_the_cli(self):
        cli = cli_path()
        if cli is None:
            self.skipTest("no memkit CLI beside the library (set MEMKIT_CLI)")
        root, ws = self.maven()
        (root / "brain/clients").mkdir()
        (root / ACME).write_text("# Acme\n\nLifecycle: maintenance\n")
        ws.canon_add(NOW, CANON, "Our tone is plain.").close()

        def run(*args):
            done = subprocess.run([str(cli), "memorybox", *args, "--root", str(root), "--now",
                                   NOW, "--format", "json"], capture_output=True)
            return done.returncode, done.stdout.rstrip(b"\n")

        for name, call, args in (
                ("canon verify", lambda: ws.canon_verify(NOW), ["canon", "verify"]),
                ("client set", lambda: ws.client_set(NOW, "acme", "archived"),
                 ["client", "set", "--client", "acme", "--to", "archived"]),
                ("client set to itself", lambda: ws.client_set(NOW, "acme", "maintenance"),
                 ["client", "set", "--client", "acme", "--to", "maintenance"])):
            with self.subTest(command=name), call() as result:
                self.assertEqual(run(*args), (result.exit_code, result.json_bytes))
