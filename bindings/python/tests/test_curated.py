"""Curated memory (spec curated.md) through the binding: Layout.CURATED on a store folder,
mk_curated_run as Workspace.curated, its options and the refusals that write nothing.

Where the CLI is at hand (MEMKIT_CLI, or the build tree's src/cli/memkit beside the library) the
JSON is checked against it too.
"""
import ctypes
import json
import os
import subprocess
import unittest
from pathlib import Path

try:
    from .support import TempDirTestCase
except ImportError:
    from support import TempDirTestCase

import memkit
from memkit import _capi

NOW = "2026-11-30T09:00:00Z"
LATER = "2026-11-30T10:00:00Z"
# The row file after the first add (§4): the field order, the thread's status, no optional field.
PROJECT_ROWS = (b"# Curated memory: project\n\n## project_a\nType: project\nClass: thread\n"
                b"Status: open\nAudience: any\nCreated: 2026-11-30T09:00:00.000Z\n"
                b"Updated: 2026-11-30T09:00:00.000Z\n\nFix the flaky build\n")
ADD_A = dict(workspace="ws1", name="project_a", type="project", body="Fix the flaky build",
             row_class="thread", status="open")


def cli():
    """The memkit CLI beside the library under test (MEMKIT_CLI, or the build tree's
    src/cli/memkit next to capi/libmemkit.so), or None."""
    explicit = os.environ.get("MEMKIT_CLI")
    if explicit:
        return Path(explicit)
    guess = Path(memkit.library_path).resolve().parents[1] / "src" / "cli" / "memkit"
    return guess if guess.is_file() and os.access(guess, os.X_OK) else None


def files(root):
    """Every file under root (relative path -> bytes), .memkit/ aside: what a command wrote."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".memkit" not in p.relative_to(root).parts}


def findings(result):
    return [(f["code"], f["severity"], f["fatal"]) for f in json.loads(result.json)["findings"]]


def data(result):
    return json.loads(result.json)["data"]


class CuratedTestCase(TempDirTestCase):
    def store(self, name="store"):
        """A workspace on a store folder that does not exist yet (the first write makes it)."""
        root = self.temp / name
        ws = memkit.Workspace.open(root, layout="curated")
        self.addCleanup(ws.close)
        return root, ws


class RawLayerTests(unittest.TestCase):
    def test_commands_are_the_header_values_in_the_clis_words(self):
        self.assertEqual(_capi.MK_LAYOUT_CURATED, 3)
        self.assertIs(memkit.Layout(3), memkit.Layout.CURATED)
        self.assertEqual([(c.cli_name, int(c)) for c in memkit.CuratedCommand], [
            ("add", 0), ("append", 1), ("edit", 2), ("reclassify", 3), ("link", 4),
            ("unlink", 5), ("delete", 6), ("restore", 7), ("checkpoint", 8), ("batch", 9),
            ("get-relevant", 10), ("kernel", 11), ("show", 12), ("list", 13), ("search", 14),
            ("stats", 15), ("conflicts", 16), ("lineage", 17), ("story", 18),
            ("event add", 19), ("episode add", 20), ("episode show", 21), ("floors prune", 22),
            ("telemetry compact", 23), ("recover", 24)])
        for command in memkit.CuratedCommand:
            self.assertEqual(getattr(_capi, "MK_CURATED_" + command.name), int(command))

    def test_options_init_leaves_every_field_unset(self):
        opts = _capi.mk_curated_options()
        ctypes.memset(ctypes.byref(opts), 0x5A, ctypes.sizeof(opts))  # garbage first
        _capi.mk_curated_options_init(ctypes.byref(opts))
        self.assertEqual(opts.version, _capi.MK_CURATED_OPTIONS_VERSION)
        self.assertEqual(_capi.MK_CURATED_UNSET, -(1 << 63))
        for field, kind in _capi.mk_curated_options._fields_[1:]:
            with self.subTest(field=field):
                expected = {_capi.c_char_p: None, _capi.c_int64: _capi.MK_CURATED_UNSET,
                            _capi.c_int32: 0}[kind]
                self.assertEqual(getattr(opts, field), expected)

    def test_the_idiomatic_field_lists_cover_the_struct(self):
        kinds = (memkit._CURATED_TEXTS + memkit._CURATED_PATHS + memkit._CURATED_NUMBERS
                 + memkit._CURATED_FLAGS)
        self.assertEqual(sorted(kinds),
                         sorted(name for name, _ in _capi.mk_curated_options._fields_[1:]))


class LayoutTests(CuratedTestCase):
    def test_layout_names_and_a_missing_store(self):
        root = self.temp / "missing"
        for layout in ("curated", "CURATED", memkit.Layout.CURATED, 3):
            with self.subTest(layout=layout), memkit.Workspace.open(root, layout=layout) as ws:
                self.assertIs(ws.layout, memkit.Layout.CURATED)
                self.assertIn("curated", repr(ws))
        self.assertFalse(root.exists())  # opening makes nothing
        with self.assertRaises(memkit.Error) as caught:  # memory_dir is the custodian's
            memkit.Workspace.open(root, memory_dir="docs/memory", layout="curated")
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        plain = self.temp / "a-file"
        plain.write_text("not a store\n")
        with self.assertRaises(memkit.Error) as caught:  # the CLI's --store check
            memkit.Workspace.open(plain, layout="curated")
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)

    def test_other_layouts_commands_are_fatal_findings_both_ways(self):
        root, ws = self.store()
        for name, call in (("status", lambda: ws.status(NOW)),
                           ("add", lambda: ws.add(NOW, "a note", "project")),
                           ("recover", lambda: ws.recover(NOW)),
                           ("tiers", lambda: ws.tiers_init(NOW))):
            with self.subTest(command=name), call() as result:
                self.assertEqual(result.exit_code, 2, result.json)
                self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
                self.assertFalse(result.applied)
        self.assertEqual(files(root), {})
        for layout in ("custodian", "tiers"):
            other = self.project(name=layout)
            with self.subTest(layout=layout), memkit.Workspace.open(other, layout=layout) as w:
                with w.curated(NOW, "add", **ADD_A) as result:
                    self.assertEqual(result.exit_code, 2, result.json)
                    self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
                    self.assertIn("MK_LAYOUT_CURATED", result.json)
            self.assertEqual(files(other), {})


class CommandTests(CuratedTestCase):
    def test_add_then_show_then_a_refused_reclassify_writes_nothing(self):
        root, ws = self.store()
        with ws.curated(NOW, "add", dry_run=True, **ADD_A) as dry:
            self.assertEqual((dry.exit_code, dry.applied, dry.plan_id), (0, False, None))
            self.assertTrue(data(dry)["dry_run"])
            self.assertTrue(data(dry)["entry"].startswith("## project_a\nType: project\n"))
        self.assertEqual(files(root), {})
        with ws.curated(NOW, memkit.CuratedCommand.ADD, **ADD_A) as added:
            self.assertEqual((added.exit_code, added.applied), (0, True), added.json)
            self.assertEqual(json.loads(added.json)["command"], "curated add")
            self.assertEqual(data(added)["action"], "inserted")
            self.assertEqual(data(added)["files"],
                             ["log/ws1/history.jsonl", "rows/ws1/project.md"])
        self.assertEqual((root / "rows/ws1/project.md").read_bytes(), PROJECT_ROWS)

        with ws.curated(LATER, "show", workspace="ws1", name="project_a", history=True) as shown:
            self.assertEqual((shown.exit_code, shown.applied), (0, False), shown.json)
            view = data(shown)
            self.assertEqual((view["name"], view["class"], view["status"], view["body"]),
                             ("project_a", "thread", "open", "Fix the flaky build"))
            self.assertEqual(view["deliberate_count"], 1)  # this read, recorded first (§8)
            self.assertEqual([record["op"] for record in view["history"]], ["insert"])
        before = files(root)

        # §14: reclassify --status open on an anchor is MK-CUR-007, fatal; nothing is written.
        with ws.curated(LATER, "reclassify", workspace="ws1", name="project_a",
                        row_class="anchor", status="open") as refused:
            self.assertEqual(refused.exit_code, 2, refused.json)
            self.assertEqual(findings(refused), [("MK-CUR-007", "BLOCKER", True)])
            self.assertFalse(refused.applied)
        self.assertEqual(files(root), before)

    def test_missing_workspace_unknown_option_and_bad_requests(self):
        root, ws = self.store()
        with ws.curated(NOW, "stats") as result:  # the library reads no MEMKIT_WORKSPACE
            self.assertEqual(findings(result), [("MK-CUR-001", "BLOCKER", True)])
        with ws.curated(NOW, "add", limit=3, **ADD_A) as result:
            self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
            self.assertIn("--limit", result.json)
        with ws.curated(NOW, "add", body_file="-", **{k: v for k, v in ADD_A.items()
                                                      if k != "body"}) as result:
            self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])  # no stdin
        self.assertEqual(files(root), {})
        with self.assertRaises(TypeError):
            ws.curated(NOW, "add", nickname="x")
        with self.assertRaises(TypeError):
            ws.curated(NOW, "list", workspace="ws1", limit="3")
        with self.assertRaises(memkit.ArgumentError):
            ws.curated(NOW, "list", workspace="ws1", limit=_capi.MK_CURATED_UNSET)
        with self.assertRaises(memkit.ArgumentError):
            ws.curated(NOW, "forget", workspace="ws1")
        with self.assertRaises(memkit.Error) as caught:
            ws.curated(NOW, 99, workspace="ws1")
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)

    def test_two_word_commands_payload_json_and_recover(self):
        root, ws = self.store()
        for spelling in ("event add", "event_add", "EVENT-ADD"):
            with ws.curated(NOW, spelling, workspace="ws1", type="build",
                            payload={"ok": 1}) as result:
                self.assertEqual(json.loads(result.json)["command"], "curated event add", result.json)
                self.assertEqual(result.exit_code, 0, result.json)
        lines = (root / "floors/events/2026-11-30.jsonl").read_text().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertEqual(json.loads(lines[0])["payload"], {"ok": 1})
        with ws.curated(NOW, "recover", workspace="ws1") as result:
            self.assertEqual(result.exit_code, 0, result.json)
            self.assertEqual(data(result)["recovery_status"], "clean")

    def test_the_json_is_the_clis(self):
        memkit_cli = cli()
        if memkit_cli is None:
            self.skipTest("no memkit CLI beside the library (set MEMKIT_CLI)")
        root, ws = self.store("binding")
        twin = self.temp / "cli"
        steps = [
            (dict(command="add", **ADD_A),
             ["add", "--workspace", "ws1", "--name", "project_a", "--type", "project", "--body",
              "Fix the flaky build", "--class", "thread", "--status", "open"]),
            (dict(command="show", workspace="ws1", name="project_a", links=True),
             ["show", "project_a", "--workspace", "ws1", "--links"]),
            (dict(command="get-relevant", workspace="ws1", max_chars=100),
             ["get-relevant", "--workspace", "ws1", "--max-chars", "100"]),
            (dict(command="reclassify", workspace="ws1", name="project_a", row_class="anchor",
                  status="open"),
             ["reclassify", "project_a", "--workspace", "ws1", "--class", "anchor", "--status",
              "open"]),
            (dict(command="list", workspace="ws1", sort="name"),
             ["list", "--workspace", "ws1", "--sort", "name"]),
        ]
        # The CLI's MEMKIT_STORE, MEMKIT_WORKSPACE and MEMKIT_ACTOR, which the library never reads.
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMKIT_")}
        for options, argv in steps:
            with self.subTest(argv=argv):
                options = dict(options)
                command = options.pop("command")
                with ws.curated(NOW, command, **options) as result:
                    got = result.json_bytes
                done = subprocess.run([str(memkit_cli), "curated"] + argv +
                                      ["--store", str(twin), "--now", NOW, "--format", "json"],
                                      capture_output=True, env=env)
                self.assertEqual(got + b"\n", done.stdout)
        self.assertEqual(files(root), files(twin))


if __name__ == "__main__":
    unittest.main()
