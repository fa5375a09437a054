"""Three-tier session memory (spec tiers3.md) through the binding: Layout.TIERS, mk_tiers_run as
Workspace.tiers and the tiers_* methods, and `tiers recover` as Workspace.recover.

The bytes on disk are the spec's own vectors (§15); where the CLI is at hand (MEMKIT_CLI, or the
build tree's src/cli/memkit beside the library) the JSON is checked against it too.
"""
import ctypes
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

try:
    from .support import REPO, TempDirTestCase
except ImportError:
    from support import REPO, TempDirTestCase

import memkit
from memkit import _capi

# 2026-03-07 14:05:09 local time, as in spec §15 (the offset given is the local zone).
NOW = "2026-03-07T14:05:09+00:00"
LATER = "2026-03-07T14:30:00+00:00"
L1 = "memory/sessions/2026-03-07.md"
L2 = "memory/decision/2026-03-07_14.md"
# Spec §15's CSV: a quoted comma, a quoted line break, an empty line, doubled quotes.
CSV = 'name,note\n"Smith, J","line1\nline2"\n\nx,"say ""hi"""'


def cli():
    """The memkit CLI beside the library under test (MEMKIT_CLI, or the build tree's
    src/cli/memkit next to capi/libmemkit.so), or None."""
    explicit = os.environ.get("MEMKIT_CLI")
    if explicit:
        return Path(explicit)
    guess = Path(memkit.library_path).resolve().parents[1] / "src" / "cli" / "memkit"
    return guess if guess.is_file() and os.access(guess, os.X_OK) else None


def files(root):
    """Every file under root (relative path -> bytes): what a command wrote."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def findings(result):
    return [(f["code"], f["severity"], f["fatal"]) for f in json.loads(result.json)["findings"]]


def data(result):
    return json.loads(result.json)["data"]


class TiersTestCase(TempDirTestCase):
    def tiers(self, name="workspace"):
        root = self.project(name=name)
        ws = memkit.Workspace.open(root, layout="tiers")
        self.addCleanup(ws.close)
        return root, ws


class RawLayerTests(unittest.TestCase):
    def test_commands_are_the_header_values_in_the_clis_names(self):
        self.assertEqual(_capi.MK_LAYOUT_TIERS, 2)
        self.assertIs(memkit.Layout(2), memkit.Layout.TIERS)
        self.assertEqual([(c.cli_name, int(c)) for c in memkit.TiersCommand], [
            ("init", 0), ("session-init", 1), ("log-turn", 2), ("read-logs", 3),
            ("persist-turn", 4), ("write-theme", 5), ("read-theme", 6), ("read-global", 7),
            ("write-global", 8), ("list-themes", 9), ("write-data", 10), ("read-data", 11),
            ("list-data", 12), ("archive-themes", 13), ("template", 14)])
        for command in memkit.TiersCommand:
            self.assertEqual(getattr(_capi, "MK_TIERS_" + command.name), int(command))
            # One method per command (archive-themes has its apply besides).
            self.assertTrue(callable(getattr(memkit.Workspace, "tiers_" + command.name.lower())))

    def test_options_init_leaves_every_field_unset(self):
        opts = _capi.mk_tiers_options()
        ctypes.memset(ctypes.byref(opts), 0x5A, ctypes.sizeof(opts))  # garbage first
        _capi.mk_tiers_options_init(ctypes.byref(opts))
        self.assertEqual(opts.version, _capi.MK_TIERS_OPTIONS_VERSION)
        self.assertEqual(_capi.MK_TIERS_UNSET, -(1 << 63))
        for field, kind in _capi.mk_tiers_options._fields_[1:]:
            with self.subTest(field=field):
                expected = {_capi.c_char_p: None, _capi.c_int64: _capi.MK_TIERS_UNSET,
                            _capi.c_int32: 0}[kind]
                self.assertEqual(getattr(opts, field), expected)

    def test_options_layout_matches_a_c_compiler(self):
        compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if compiler is None:
            self.skipTest("no C compiler to read memkit.h's layouts")
        header = REPO / "capi" / "memkit.h"
        # The C struct's field names, in declaration order, read from the header itself.
        block = re.search(r"typedef struct mk_tiers_options \{(.*?)\} mk_tiers_options;",
                          header.read_text(encoding="utf-8"), re.DOTALL).group(1)
        block = re.sub(r"/\*.*?\*/", "", block, flags=re.DOTALL)
        declared = re.findall(r"(\w+);", block)
        fields = [name for name, _ in _capi.mk_tiers_options._fields_]
        self.assertEqual(fields, declared)
        body = ['printf("size %zu\\n", sizeof(mk_tiers_options));']
        body += [f'printf("{f} %zu\\n", offsetof(mk_tiers_options, {f}));' for f in fields]
        source = ("#include <stddef.h>\n#include <stdio.h>\n#include \"memkit.h\"\n"
                  "int main(void) {\n" + "\n".join(body) + "\nreturn 0;\n}\n")
        with tempfile.TemporaryDirectory() as temp:
            (Path(temp) / "layout.c").write_text(source)
            exe = Path(temp) / "layout"
            subprocess.run([compiler, "-std=c11", "-I", str(header.parent), "-o", str(exe),
                            str(Path(temp) / "layout.c")], check=True, capture_output=True)
            output = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
        seen = dict(line.rsplit(" ", 1) for line in output.splitlines())
        self.assertEqual(int(seen["size"]), ctypes.sizeof(_capi.mk_tiers_options))
        for field in fields:
            self.assertEqual(int(seen[field]), getattr(_capi.mk_tiers_options, field).offset,
                             field)


class LayoutTests(TiersTestCase):
    def test_layout_names_and_number(self):
        root = self.project(name="workspace")
        for layout in ("tiers", "TIERS", memkit.Layout.TIERS, 2):
            with self.subTest(layout=layout), memkit.Workspace.open(root, layout=layout) as ws:
                self.assertIs(ws.layout, memkit.Layout.TIERS)
                self.assertIn("tiers", repr(ws))
        with self.assertRaises(memkit.Error) as caught:  # memory_dir is the custodian's
            memkit.Workspace.open(root, memory_dir="docs/memory", layout="tiers")
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        self.assertNotIsInstance(caught.exception, memkit.ArgumentError)
        self.assertEqual(list(root.iterdir()), [])

    def test_other_layouts_commands_are_fatal_findings_both_ways(self):
        root, ws = self.tiers()
        # ws.init is left out: mk_workspace_init runs `tiers init` here, although memkit.h says
        # this layout takes only mk_tiers_run and mk_workspace_recover (reported).
        for name, call in (("status", lambda: ws.status(NOW)), ("check", lambda: ws.check(NOW)),
                           ("add", lambda: ws.add(NOW, "a note", "inbox")),
                           ("decay", lambda: ws.decay(NOW))):
            with self.subTest(command=name), call() as result:
                self.assertEqual(result.exit_code, 2, result.json)
                self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
        for layout in ("custodian", "memorybox"):
            other = self.project(name=layout)
            with self.subTest(layout=layout), memkit.Workspace.open(other, layout=layout) as w:
                with w.tiers_log_turn(NOW, "A turn.") as result:
                    self.assertEqual(result.exit_code, 2, result.json)
                    self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
                    self.assertFalse(result.applied)
            self.assertEqual(files(other), {})
        self.assertEqual(files(root), {})


class PersistTurnTests(TiersTestCase):
    def test_spec_15_persist_turn_bytes_then_a_second_turn(self):
        root, ws = self.tiers()
        with ws.tiers_persist_turn(NOW, "  Raw one  ", entry_type="assistant", session_id="s1",
                                   tools=["search", "read"],
                                   extracted_content="Use persist-turn.", theme="Decision",
                                   template="decision", title="Default command") as result:
            self.assertEqual((result.exit_code, result.applied, result.plan_id), (0, True, None))
            self.assertEqual(json.loads(result.json)["command"], "tiers persist-turn")
            self.assertEqual(data(result), {
                "global_path": "memory/global.md", "global_updated": False, "l1_path": L1,
                "l1_written": True, "l2_path": L2, "l2_written": True, "theme": "decision"})
        first_l1 = (b"# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n"
                    b"**Session:** s1\n**Tools:** search, read\n\nRaw one\n\n---")
        first_l2 = b"## Decision Record: Default command\n\nUse persist-turn.\n"
        self.assertEqual((root / L1).read_bytes(), first_l1)  # no final LF
        self.assertEqual((root / L2).read_bytes(), first_l2)
        self.assertFalse((root / "memory/global.md").exists())  # no keyword promotion

        with ws.tiers_persist_turn(LATER, "second", extracted_content="second note",
                                   theme="decision") as result:
            self.assertEqual(result.exit_code, 0, result.json)
        self.assertEqual((root / L1).read_bytes(),
                         first_l1 + b"\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---")
        self.assertEqual((root / L2).read_bytes(),
                         first_l2 + b"\n\n## 2026-03-07 14:30:00\n\nsecond note\n")

    def test_promote_global_appends_the_block_after_the_skeleton(self):
        root, ws = self.tiers()
        with ws.tiers_persist_turn(NOW, "raw", extracted_content="Keep answers short.",
                                   theme="preferences", promote_global=True) as result:
            self.assertEqual(result.exit_code, 0, result.json)
            self.assertTrue(data(result)["global_updated"])
        text = (root / "memory/global.md").read_bytes()
        self.assertTrue(text.startswith(b"# Global Memory\n\nRead Order: "), text)
        self.assertTrue(text.endswith(b"## 4. User Preferences\n\n\n## Persisted Turn Promotion"
                                      b" - 2026-03-07 14:05\n\nKeep answers short."), text)

    def test_extracted_content_without_theme_writes_nothing(self):
        root, ws = self.tiers()
        with ws.tiers_persist_turn(NOW, "Half a turn",
                                   extracted_content="No theme given.") as result:
            self.assertEqual(result.exit_code, 2, result.json)
            self.assertEqual(findings(result), [("MK-TIERS-004", "BLOCKER", True)])
            self.assertEqual(data(result), {})
            self.assertFalse(result.applied)
            self.assertIsNone(result.plan_id)
        self.assertFalse((root / "memory").exists())  # not even the L1 entry (defect 1)
        self.assertEqual(list(root.iterdir()), [])

    def test_a_refusal_after_init_leaves_every_file_as_it_was(self):
        root, ws = self.tiers()
        with ws.tiers_init(NOW) as init:
            self.assertEqual(init.exit_code, 0, init.json)
            self.assertIn("memory/global.md", data(init)["created"])
        before = files(root)
        refusals = {
            "theme auto": lambda: ws.tiers_write_theme(NOW, "auto", "Guess the theme."),
            "reserved theme": lambda: ws.tiers_persist_turn(NOW, "raw", extracted_content="e",
                                                            theme="sessions"),
            "tools not strings": lambda: ws.tiers_log_turn(NOW, "turn", tools=[1]),
            "blank content": lambda: ws.tiers_log_turn(NOW, " \t\n"),
            "append and replace": lambda: ws.tiers_write_global(NOW, "x", append=True,
                                                                replace=True),
        }
        codes = {}
        for name, call in refusals.items():
            with self.subTest(refusal=name), call() as result:
                self.assertEqual(result.exit_code, 2, result.json)
                self.assertFalse(result.applied)
                codes[name] = findings(result)[0][0]
        self.assertEqual(codes, {"theme auto": "MK-TIERS-003", "reserved theme": "MK-TIERS-002",
                                 "tools not strings": "MK-TIERS-001",
                                 "blank content": "MK-TIERS-001",
                                 "append and replace": "MK-ARG-001"})
        self.assertEqual(files(root), before)


class ToolsTests(TiersTestCase):
    def test_a_tools_list_and_its_json_text_write_the_same(self):
        outcomes = []
        for name, kwargs in (("list", {"tools": ["search", "read"]}),
                             ("tuple", {"tools": ("search", "read")}),
                             ("text", {"tools_json": '[ "search" , "read" ]'})):
            root, ws = self.tiers(name)
            with ws.tiers_log_turn(NOW, "A turn.", **kwargs) as result:
                self.assertEqual(result.exit_code, 0, result.json)
                outcomes.append((result.json_bytes, files(root)[L1]))
        self.assertEqual(outcomes[0], outcomes[1])
        self.assertEqual(outcomes[0], outcomes[2])
        self.assertIn(b"**Tools:** search, read\n", outcomes[0][1])

    def test_tools_in_two_forms_or_as_a_bare_string_are_refused_before_c(self):
        root, ws = self.tiers()
        with self.assertRaises(memkit.ArgumentError):
            ws.tiers_log_turn(NOW, "A turn.", tools=["a"], tools_json='["a"]')
        with self.assertRaises(TypeError):
            ws.tiers_log_turn(NOW, "A turn.", tools="search")  # a str is no list of tools
        with self.assertRaises(memkit.ArgumentError):
            ws.tiers_write_data(NOW, "d", csv_content="a\n", columns=["a"], columns_json='["a"]')
        self.assertEqual(files(root), {})

    def test_a_json_string_as_tools_text_reaches_c_and_is_refused_there(self):
        root, ws = self.tiers()
        with ws.tiers_log_turn(NOW, "A turn.", tools_json='"search"') as result:
            self.assertEqual(result.exit_code, 2, result.json)
            self.assertEqual(findings(result), [("MK-TIERS-001", "BLOCKER", True)])
        self.assertEqual(files(root), {})


class DataTests(TiersTestCase):
    def test_write_data_then_read_its_head(self):
        root, ws = self.tiers()
        with ws.tiers_write_data(NOW, "people", csv_content=CSV, columns=["name", "note"],
                                 description="Contacts") as result:
            self.assertEqual((result.exit_code, result.applied), (0, True), result.json)
            entry = data(result)["manifest_entry"]
        self.assertEqual(entry["detected_columns"], ["name", "note"])
        self.assertEqual(entry["declared_columns"], ["name", "note"])
        self.assertEqual((entry["row_count"], entry["column_count"]), (2, 2))
        self.assertEqual(entry["size_bytes"], len(CSV.encode()))
        self.assertEqual(entry["path"], "memory/data/people.csv")
        self.assertEqual((root / "memory/data/people.csv").read_bytes(), CSV.encode())
        self.assertEqual(json.loads((root / "memory/data/manifest.json").read_text()),
                         {"people.csv": entry})
        self.assertIn(b"Stored CSV memory data file people.csv", (root / L1).read_bytes())

        with ws.tiers_read_data(NOW, "people", head=1) as head:
            self.assertEqual(head.exit_code, 0, head.json)
            shown = data(head)["data"]
        self.assertEqual((shown["content"], shown["truncated"]), ("name,note\n", True))
        self.assertEqual(shown["metadata"], entry)
        with ws.tiers_read_data(NOW, "people", head=2) as head:  # the quoted line break is kept
            self.assertEqual(data(head)["data"]["content"],
                             'name,note\n"Smith, J","line1\nline2"\n')
        with ws.tiers_read_data(NOW, "people.csv") as whole:
            shown = data(whole)["data"]
        self.assertEqual((shown["content"], shown["truncated"]), (CSV, False))
        with ws.tiers_list_data(NOW) as listed:
            self.assertEqual([f["name"] for f in data(listed)["data_files"]], ["people.csv"])

    def test_an_existing_csv_needs_replace_and_a_missing_one_is_arg_001(self):
        root, ws = self.tiers()
        ws.tiers_write_data(NOW, "people", csv_content="a\n1\n").close()
        before = files(root)
        with ws.tiers_write_data(NOW, "people", csv_content="b\n2\n") as result:
            self.assertEqual(result.exit_code, 1, result.json)
            self.assertEqual(findings(result), [("MK-TIERS-011", "ERROR", False)])
            self.assertFalse(result.applied)
        self.assertEqual(files(root), before)
        with ws.tiers_write_data(NOW, "people", csv_content="b\n2\n", replace=True) as result:
            self.assertEqual(result.exit_code, 0, result.json)
        self.assertEqual((root / "memory/data/people.csv").read_bytes(), b"b\n2\n")
        with ws.tiers_read_data(NOW, "absent") as result:
            self.assertEqual(result.exit_code, 2, result.json)
            self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])

    def test_source_file_is_relative_to_the_working_directory(self):
        root, ws = self.tiers()
        (self.temp / "in.csv").write_bytes(b"k,v\r\n1,2\r\n")
        cwd = os.getcwd()
        self.addCleanup(os.chdir, cwd)
        os.chdir(self.temp)  # the workspace is self.temp/workspace: not where in.csv is
        with ws.tiers_write_data(NOW, "copied", source_file="in.csv") as result:
            self.assertEqual(result.exit_code, 0, result.json)
        with ws.tiers_write_data(NOW, "by-path", source_file=self.temp / "in.csv") as result:
            self.assertEqual(result.exit_code, 0, result.json)
        for name in ("copied.csv", "by-path.csv"):
            self.assertEqual((root / "memory/data" / name).read_bytes(), b"k,v\r\n1,2\r\n")
        with ws.tiers_write_data(NOW, "both", csv_content="", source_file="in.csv") as result:
            self.assertEqual(findings(result), [("MK-TIERS-010", "BLOCKER", True)])


class ArchiveThemesTests(TiersTestCase):
    OLD = "2025-11-01T09:00:00+00:00"  # 126 days before NOW: past the 90-day window

    def test_dry_run_then_apply_with_its_plan_id(self):
        root, ws = self.tiers()
        for now, content in ((self.OLD, "Old note."), ("2026-03-07T09:00:00+00:00", "New note.")):
            with ws.tiers_write_theme(now, "research", content) as written:
                self.assertEqual(written.exit_code, 0, written.json)
        old, new = "memory/research/2025-11-01_09.md", "memory/research/2026-03-07_09.md"
        archived = "memory/archive/research/2025-11-01_09.md"
        old_bytes = (root / old).read_bytes()
        before = files(root)

        with ws.tiers_session_init(NOW, no_log=True) as session:  # the host's "archive due"
            self.assertEqual(data(session)["l2_archive_due"], 1)
            self.assertFalse(session.applied)
        with ws.tiers_archive_themes(NOW) as plan:
            self.assertEqual(plan.exit_code, 0, plan.json)
            self.assertFalse(plan.applied)
            plan_id = plan.plan_id
            self.assertRegex(plan_id, r"^[0-9a-f]{16}$")
            self.assertEqual(plan.plan_operation_count, 2)  # create in archive/, delete
            self.assertEqual(data(plan)["candidates"], [
                {"path": old, "theme": "research", "timestamp": "2025-11-01T09:00:00"}])
        self.assertEqual(files(root), before)  # a dry run

        with ws.tiers_apply_archive_themes(NOW, "0123456789abcdef") as stale:
            self.assertEqual(stale.exit_code, 2, stale.json)
            self.assertEqual(findings(stale)[0][0], "MK-PLAN-001")
            self.assertFalse(stale.applied)
        self.assertEqual(files(root), before)

        with ws.tiers_apply_archive_themes(NOW, plan_id) as done:
            self.assertEqual(done.exit_code, 0, done.json)
            self.assertTrue(done.applied)
            self.assertEqual(done.plan_id, plan_id)
            self.assertEqual(sorted(data(done)["written"]), sorted([archived, old]))
        self.assertEqual((root / archived).read_bytes(), old_bytes)  # moved verbatim
        self.assertFalse((root / old).exists())
        self.assertEqual((root / new).read_bytes(), before[new])  # inside the window: stays
        with ws.tiers_archive_themes(NOW) as again:
            self.assertEqual(data(again)["candidates"], [])

    def test_days_reaches_the_plan(self):
        root, ws = self.tiers()
        ws.tiers_write_theme(self.OLD, "research", "Old note.").close()
        with ws.tiers_archive_themes(NOW, days=200) as plan:  # the note is 126 days old
            self.assertEqual(data(plan)["candidates"], [])
        with ws.tiers_archive_themes(NOW, days=100) as plan:
            self.assertEqual(len(data(plan)["candidates"]), 1)
            plan_id = plan.plan_id
        with ws.tiers_apply_archive_themes(NOW, plan_id) as wrong_days:  # another plan
            self.assertEqual(findings(wrong_days)[0][0], "MK-PLAN-001")
        with ws.tiers_apply_archive_themes(NOW, plan_id, days=100) as done:
            self.assertTrue(done.applied, done.json)


class RecoverTests(TiersTestCase):
    def test_recover_is_tiers_recover(self):
        root, ws = self.tiers()
        ws.tiers_init(NOW).close()
        with ws.recover(NOW) as listing:
            self.assertEqual(listing.exit_code, 0, listing.json)
            self.assertEqual(json.loads(listing.json)["command"], "tiers recover")
            self.assertEqual(data(listing)["transactions"], [])
        with ws.recover(NOW, apply=True) as applied:
            self.assertEqual(applied.exit_code, 0, applied.json)
            self.assertEqual(json.loads(applied.json)["command"], "tiers recover")


class GenericTiersTests(TiersTestCase):
    def test_command_forms(self):
        root, ws = self.tiers()
        shown = set()
        for command in (memkit.TiersCommand.TEMPLATE, "template", "TEMPLATE", 14):
            with self.subTest(command=command):
                with ws.tiers(NOW, command, template_name="error") as result:
                    self.assertEqual(result.exit_code, 0, result.json)
                    shown.add(result.json_bytes)
        self.assertEqual(len(shown), 1)
        self.assertIn(b"**Root Cause**:", shown.pop())
        with ws.tiers_template(NOW, "error") as result:
            self.assertTrue(data(result)["text"].startswith("**Symptom**:"))
        with self.assertRaises(memkit.ArgumentError):
            ws.tiers(NOW, "status")
        with self.assertRaises(memkit.Error) as caught:  # refused by the library itself
            ws.tiers(NOW, 15)
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        self.assertNotIsInstance(caught.exception, memkit.ArgumentError)
        with self.assertRaises(TypeError):
            ws.tiers(NOW, "init", templat_name="error")  # no such field

    def test_an_option_the_command_does_not_take_is_the_clis_unknown_option(self):
        root, ws = self.tiers()
        with ws.tiers(NOW, "persist-turn", raw_content="x", days=3) as result:
            self.assertEqual(result.exit_code, 2, result.json)
            self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
            self.assertIn("unknown option --days", result.json)
        with ws.tiers(NOW, "read-global", replace=False, theme=None) as result:  # not given
            self.assertEqual(result.exit_code, 0, result.json)
        self.assertEqual(files(root), {})

    def test_values_reach_c_unjudged_and_only_types_are_checked_here(self):
        root, ws = self.tiers()
        with ws.tiers_read_logs(NOW, days_back=-1) as result:  # the CLI's refusal, from C
            self.assertEqual(result.exit_code, 2, result.json)
            self.assertIn("'-1'", json.loads(result.json)["findings"][0]["message"])
        for kwargs, error in (({"head": True}, TypeError), ({"head": 1.0}, TypeError),
                              ({"head": -(1 << 63)}, memkit.ArgumentError),  # MK_TIERS_UNSET
                              ({"head": 1 << 63}, memkit.ArgumentError)):
            with self.subTest(kwargs=kwargs), self.assertRaises(error):
                ws.tiers_read_data(NOW, "people", **kwargs)
        with self.assertRaises(TypeError):
            ws.tiers_session_init(NOW, no_log=1)
        with self.assertRaises(memkit.ArgumentError):
            ws.tiers_log_turn(NOW, "a\0b")
        with ws.tiers_log_turn(NOW, b"bytes \xc3\xa9t\xc3\xa9") as result:
            self.assertEqual(result.exit_code, 0, result.json)
        self.assertIn("bytes été".encode(), (root / L1).read_bytes())

    def test_a_missing_required_argument_is_the_clis_finding(self):
        root, ws = self.tiers()
        with ws.tiers_log_turn(NOW, None) as result:
            self.assertEqual(findings(result), [("MK-ARG-001", "BLOCKER", True)])
            self.assertIn("--content is required", result.json)
        self.assertEqual(files(root), {})


class CliAgreementTests(TiersTestCase):
    def test_the_binding_and_the_cli_give_the_same_json(self):
        memkit_cli = cli()
        if memkit_cli is None:
            self.skipTest("no memkit CLI beside the library (set MEMKIT_CLI)")
        root, ws = self.tiers("binding")
        twin = self.project(name="cli")
        steps = [
            (lambda: ws.tiers_init(NOW), ["init"]),
            (lambda: ws.tiers_persist_turn(NOW, "raw", extracted_content="Note.", theme="ops",
                                           template="task", title="Deploy",
                                           tools=["sh"], promote_global=True),
             ["persist-turn", "--raw-content", "raw", "--extracted-content", "Note.", "--theme",
              "ops", "--template", "task", "--title", "Deploy", "--tools", '["sh"]',
              "--promote-global"]),
            (lambda: ws.tiers_write_global(NOW, "# Global\n\n## 1. Active Mission\nShip.",
                                           replace=True),
             ["write-global", "--content", "# Global\n\n## 1. Active Mission\nShip.",
              "--replace"]),
            (lambda: ws.tiers_session_init(LATER, session_id="s2", max_tokens=5),
             ["session-init", "--session-id", "s2", "--max-tokens", "5"]),
            (lambda: ws.tiers_read_theme(LATER, "ops", hours_back=1, limit=5),
             ["read-theme", "--theme", "ops", "--hours-back", "1", "--limit", "5"]),
            (lambda: ws.tiers_read_global(NOW), ["read-global"]),
            (lambda: ws.tiers_list_themes(NOW), ["list-themes"]),
            (lambda: ws.tiers_write_data(NOW, "d", csv_content="", columns_json="[]"),
             ["write-data", "--name", "d", "--csv-content", "", "--columns-json", "[]"]),
            (lambda: ws.tiers_read_logs(NOW, days_back=0, limit=1),
             ["read-logs", "--days-back", "0", "--limit", "1"]),
            (lambda: ws.tiers(NOW, "list-data", head=1), ["list-data", "--head", "1"]),
        ]
        for number, (call, args) in enumerate(steps, start=1):
            now = LATER if "--session-id" in args or "--hours-back" in args else NOW
            done = subprocess.run([str(memkit_cli), "tiers", *args, "--workspace", str(twin),
                                   "--now", now, "--format", "json"], capture_output=True)
            with self.subTest(step=number, command=args[0]), call() as result:
                self.assertEqual((result.exit_code, result.json_bytes),
                                 (done.returncode, done.stdout.rstrip(b"\n")))
        self.assertEqual(files(root / "memory"), files(twin / "memory"))


if __name__ == "__main__":
    unittest.main()
