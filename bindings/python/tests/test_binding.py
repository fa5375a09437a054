"""The idiomatic layer: loading, errors, clocks, workspaces, results, documents and lifetimes.

The request path itself (run, the command methods, the table) is tests/test_requests.py."""
import datetime
import gc
import io
import json
import os
import unittest
from pathlib import Path

try:
    from .support import INBOX_DEDUPE_PLAN_ID, NOW, TempDirTestCase
except ImportError:
    from support import INBOX_DEDUPE_PLAN_ID, NOW, TempDirTestCase

import memkit
from memkit import _capi


class VersionTests(TempDirTestCase):
    def test_loaded_library_is_the_version_the_binding_was_written_for(self):
        self.assertEqual(memkit.version_number(), 200)
        self.assertEqual(memkit.version(), "0.2.0")
        self.assertEqual(memkit.BINDING_VERSION_NUMBER, memkit.version_number())
        self.assertEqual(memkit.BINDING_VERSION, memkit.version())

    def test_the_command_table_describes_every_command(self):
        table = memkit.commands()
        self.assertEqual(table["table_version"], 1)
        self.assertEqual([g["name"] for g in table["groups"]],
                         ["custodian", "memorybox", "tiers", "curated", "search", "context",
                          "markdown", "agent", "mcp", "bench"])
        log = next(c for g in table["groups"] for c in g["commands"] if c["name"] == "memorybox log")
        text = next(a for a in log["arguments"] if a["name"] == "--text")
        self.assertEqual((text["type"], text["required"]), ("string", True))
        self.assertEqual(log["effect"], "writes")

    def test_library_comes_from_MEMKIT_LIBRARY_when_set(self):
        wanted = os.environ.get("MEMKIT_LIBRARY")
        if wanted:
            self.assertEqual(memkit.library_path, wanted)
        else:
            self.assertTrue(Path(memkit.library_path).name.startswith("libmemkit"))

    def test_load_refuses_a_library_of_another_version(self):
        with self.assertRaises(memkit.LoadError) as caught:
            _capi._load(env={"MEMKIT_LIBRARY": memkit.library_path}, expected=201)
        text = str(caught.exception)
        self.assertIn("0.2.0", text)  # what was found
        self.assertIn("0.2.1", text)  # what the binding wants
        self.assertIn(memkit.library_path, text)
        self.assertIsInstance(caught.exception, ImportError)


class StatusTests(unittest.TestCase):
    def test_status_names(self):
        self.assertEqual(memkit.status_name(-1), "MK_E_ARG")
        self.assertEqual(memkit.status_name(memkit.Status.E_CALLBACK), "MK_E_CALLBACK")
        self.assertEqual(memkit.status_name(-4), "MK_E_UNKNOWN")
        for status in memkit.Status:
            self.assertEqual(memkit.status_name(status), "MK_" + status.name)

    def test_error_carries_code_name_and_message(self):
        error = memkit.Error(-30, "MK_E_LAYOUT", "--memory-dir: x: must lie strictly inside docs/")
        self.assertEqual((error.code, error.name), (-30, "MK_E_LAYOUT"))
        self.assertIs(error.status, memkit.Status.E_LAYOUT)
        self.assertEqual(str(error), "MK_E_LAYOUT (-30): --memory-dir: x: must lie strictly inside docs/")
        self.assertIsNone(memkit.Error(-4, "MK_E_UNKNOWN", "").status)


class ClockTests(TempDirTestCase):
    def test_parse_with_offset(self):
        clock = memkit.parse_clock("2026-03-07T10:00:00+01:00")
        self.assertEqual(clock, memkit.Clock(1772874000000, 60))
        self.assertEqual(memkit.parse_clock("2026-03-07T09:00:00Z"), memkit.Clock(1772874000000, 0))
        self.assertEqual(memkit.parse_clock("2026-03-07T10:00:00.123-05:30").utc_offset_minutes,
                         -330)
        self.assertFalse(clock.system)

    def test_parse_without_offset_is_MK_E_ARG(self):
        with self.assertRaises(memkit.Error) as caught:
            memkit.parse_clock("2026-03-07T10:00:00")
        error = caught.exception
        self.assertEqual(error.code, -1)
        self.assertEqual(error.name, "MK_E_ARG")
        self.assertIn("offset", error.message)
        self.assertIn("offset", str(error))

    def test_parse_garbage_and_nul(self):
        with self.assertRaises(memkit.Error) as caught:
            memkit.parse_clock("yesterday")
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        self.assertIn("yesterday", caught.exception.message)
        with self.assertRaises(memkit.Error) as caught:
            memkit.parse_clock("2026-03-07T10:00:00Z\0junk")
        self.assertEqual(caught.exception.code, -1)
        self.assertIn("NUL", caught.exception.message)

    def test_aware_datetime_is_the_same_clock(self):
        moment = datetime.datetime(2026, 3, 7, 10, 0, tzinfo=datetime.timezone(
            datetime.timedelta(hours=1)))
        self.assertEqual(memkit.Clock.from_datetime(moment), memkit.parse_clock(NOW))
        with self.assertRaises(memkit.Error):
            memkit.Clock.from_datetime(datetime.datetime(2026, 3, 7, 10, 0))
        with self.assertRaises(memkit.Error):
            memkit.Clock(unix_ms=1 << 63)

    def test_every_clock_form_gives_the_cli_plan_id(self):
        with memkit.Workspace.open(self.project("inbox_dedupe")) as ws:
            moment = datetime.datetime(2026, 3, 7, 9, 0, tzinfo=datetime.timezone.utc).astimezone(
                datetime.timezone(datetime.timedelta(hours=1)))
            for now in (NOW, memkit.parse_clock(NOW), moment):
                with ws.compact(now) as plan:
                    self.assertEqual(plan.plan_id, INBOX_DEDUPE_PLAN_ID)

    def test_bad_clock_reaches_commands_as_MK_E_ARG(self):
        with memkit.Workspace.open(self.project()) as ws:
            with self.assertRaises(memkit.Error) as caught:
                ws.status("2026-03-07T10:00:00")
            self.assertEqual(caught.exception.name, "MK_E_ARG")
            with self.assertRaises(memkit.Error) as caught:  # the library checks the offset
                ws.status(memkit.Clock(0, 24 * 60))
            self.assertEqual(caught.exception.code, -1)
            with self.assertRaises(TypeError):
                ws.status(1772874000000)

    def test_system_clock(self):
        with memkit.Workspace.open(self.project()) as ws, ws.status(memkit.SYSTEM_CLOCK) as status:
            self.assertEqual(json.loads(status.json)["command"], "custodian status")
            self.assertEqual(status.budget_row_count, 8)


class WorkspaceOpenTests(TempDirTestCase):
    def assertOpenFails(self, code, root, **kwargs):
        with self.assertRaises(memkit.Error) as caught:
            memkit.Workspace.open(root, **kwargs)
        error = caught.exception
        self.assertEqual(error.code, code, str(error))
        self.assertEqual(error.name, memkit.status_name(code))
        self.assertTrue(error.message, "the message is read right after the failing call")
        return error

    def test_project_root_that_is_a_file(self):
        root = self.temp / "a-file"
        root.write_text("not a folder\n")
        error = self.assertOpenFails(memkit.Status.E_ARG, root)
        self.assertIn(str(root), error.message)

    def test_project_root_that_does_not_exist(self):
        self.assertOpenFails(memkit.Status.E_ARG, self.temp / "missing")
        self.assertOpenFails(memkit.Status.E_ARG, "")

    def test_memory_dir_outside_docs(self):
        root = self.project()
        for memory_dir in ("notes", "docs", "../outside", "docs/../notes", "/abs/docs/memory"):
            with self.subTest(memory_dir=memory_dir):
                error = self.assertOpenFails(memkit.Status.E_LAYOUT, root, memory_dir=memory_dir)
                self.assertIn(memory_dir, error.message)

    def test_memory_dir_behind_a_symlink(self):
        root = self.project()
        (self.temp / "elsewhere" / "memory").mkdir(parents=True)
        (root / "docs").symlink_to(self.temp / "elsewhere")
        self.assertOpenFails(memkit.Status.E_UNSAFE_PATH, root, memory_dir="docs/memory")

    def test_negative_lock_timeout(self):
        error = self.assertOpenFails(memkit.Status.E_ARG, self.project(), lock_timeout=-1)
        self.assertIn("lock_timeout", error.message)

    def test_nul_in_a_path_is_refused_before_c(self):
        with self.assertRaises(memkit.Error) as caught:
            memkit.Workspace.open(str(self.project()) + "\0/x")
        self.assertEqual(caught.exception.code, -1)
        self.assertIsInstance(caught.exception, ValueError)

    def test_custom_memory_dir(self):
        root = self.project()
        with memkit.Workspace.open(root, memory_dir="docs/agent-memory", lock_timeout=0.5) as ws:
            self.assertEqual((ws.memory_dir, ws.lock_timeout), ("docs/agent-memory", 0.5))
            with ws.init(NOW) as result:
                self.assertEqual(result.exit_code, 0)
        self.assertTrue((root / "docs" / "agent-memory" / "inbox.md").is_file())
        self.assertFalse((root / "docs" / "memory").exists())


class LifetimeTests(TempDirTestCase):
    def assertClosedError(self, action):
        with self.assertRaises(memkit.Error) as caught:
            action()
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        self.assertIn("closed", caught.exception.message)

    def test_workspace_close_is_idempotent(self):
        ws = memkit.Workspace.open(self.project())
        self.assertFalse(ws.closed)
        ws.close()
        ws.close()
        self.assertTrue(ws.closed)
        self.assertIn("closed", repr(ws))
        self.assertClosedError(lambda: ws.status(NOW))
        self.assertClosedError(lambda: ws.compact(NOW))
        self.assertClosedError(lambda: ws.run(NOW, "custodian", "status"))
        self.assertClosedError(lambda: ws.__enter__())

    def test_context_managers_close(self):
        with memkit.Workspace.open(self.project()) as ws:
            with ws.status(NOW) as result:
                self.assertEqual(result.exit_code, 1)
            self.assertTrue(result.closed)
            self.assertFalse(ws.closed)
        self.assertTrue(ws.closed)
        with memkit.Document.parse("- a\n") as doc:
            self.assertEqual(doc.unit_count, 1)
        self.assertTrue(doc.closed)

    def test_closed_result_and_document_refuse_use(self):
        with memkit.Workspace.open(self.project("inbox_dedupe")) as ws:
            result = ws.compact(NOW)
        result.close()
        result.close()
        for action in (lambda: result.exit_code, lambda: result.json, lambda: result.plan_id,
                       lambda: result.applied, lambda: result.inbox_counts,
                       lambda: result.budget_rows, lambda: result.write_json(print)):
            self.assertClosedError(action)
        doc = memkit.Document.parse("# a\n")
        doc.close()
        doc.close()
        for action in (lambda: doc.units, lambda: doc.unit(0), lambda: doc.json):
            self.assertClosedError(action)

    def test_results_outlive_their_workspace(self):
        ws = memkit.Workspace.open(self.project("inbox_dedupe"))
        plan = ws.compact(NOW)
        ws.close()
        self.assertEqual(plan.plan_id, INBOX_DEDUPE_PLAN_ID)
        self.assertIn(INBOX_DEDUPE_PLAN_ID, plan.json)
        plan.close()

    def test_threads_sharing_one_workspace_and_one_result(self):
        from concurrent.futures import ThreadPoolExecutor
        with memkit.Workspace.open(self.project("inbox_dedupe")) as ws:
            with ThreadPoolExecutor(8) as pool:  # the Workspace serialises its C calls
                ids = list(pool.map(lambda _: self.plan_id_of(ws), range(32)))
            self.assertEqual(ids, [INBOX_DEDUPE_PLAN_ID] * 32)
            with ws.status(NOW) as status, ThreadPoolExecutor(8) as pool:  # immutable: shared
                rows = list(pool.map(lambda _: status.budget_rows, range(32)))
            self.assertTrue(all(r == rows[0] and len(r) == 8 for r in rows))

    @staticmethod
    def plan_id_of(ws):
        with ws.compact(NOW) as plan:
            return plan.plan_id

    def test_destroyer_runs_once_for_close_and_for_gc(self):
        destroyed = []

        class SpyDocument(memkit.Document):
            @staticmethod
            def _destroy(pointer):
                destroyed.append(pointer)
                _capi.mk_document_destroy(pointer)

        doc = SpyDocument.parse("- a\n")
        doc.close()
        doc.close()
        self.assertEqual(len(destroyed), 1)
        doc = SpyDocument.parse("- b\n")
        del doc
        gc.collect()
        self.assertEqual(len(destroyed), 2, "the garbage collector is the fallback")


class ResultTests(TempDirTestCase):
    def test_stale_plan_id_is_a_result_not_an_exception(self):
        root = self.project("inbox_dedupe")
        before = (root / "docs/memory/inbox.md").read_bytes()
        with memkit.Workspace.open(root) as ws:
            with ws.compact(NOW, apply=True, confirm_plan="0123456789abcdef") as result:
                self.assertEqual(result.exit_code, 2)
                self.assertFalse(result.applied)
                codes = [f["code"] for f in json.loads(result.json)["findings"]]
                self.assertIn("MK-PLAN-001", codes)
        self.assertEqual((root / "docs/memory/inbox.md").read_bytes(), before)

    def test_typed_accessors(self):
        with memkit.Workspace.open(self.project("inbox_dedupe")) as ws:
            with ws.compact(NOW) as plan:
                self.assertEqual(plan.plan_id, INBOX_DEDUPE_PLAN_ID)
                self.assertFalse(plan.applied)
                self.assertGreater(plan.plan_operation_count, 0)
                self.assertEqual(plan.inbox_counts, memkit.InboxCounts(6, 0, 2, 1, 3))
                self.assertEqual((plan.budget_row_count, plan.budget_rows), (0, []))
            with ws.status(NOW) as status:
                self.assertIsNone(status.inbox_counts)  # MK_E_NOT_FOUND is not an error here
                self.assertIsNone(status.plan_id)
                self.assertEqual(status.plan_operation_count, 0)
                rows = status.budget_rows
                self.assertEqual(len(rows), status.budget_row_count)
                self.assertEqual(rows[1], memkit.BudgetRow("brief.md", 71, 500,
                                                           memkit.BudgetState.OK))
                self.assertIs(rows[6].state, memkit.BudgetState.NOT_ENABLED)
                with self.assertRaises(memkit.Error) as caught:
                    status.budget_row(len(rows))
                self.assertEqual(caught.exception.code, -1)
                self.assertIn("index", caught.exception.message)
                with self.assertRaises(memkit.Error):
                    status.budget_row(-1)

    def write_big_inbox(self, ws, root):
        ws.init(NOW).close()
        inbox = root / "docs/memory/inbox.md"
        lines = "".join(f"- note {i} about topic {i * 7919 % 10007}\n" for i in range(3000))
        inbox.write_text(inbox.read_text() + "\n## 2026-03-01\n" + lines)

    def test_write_json_streams_the_same_bytes(self):
        root = self.project()
        with memkit.Workspace.open(root) as ws:
            with ws.check(NOW) as small:
                sink = io.BytesIO()
                small.write_json(sink.write)
                self.assertEqual(sink.getvalue(), small.json.encode("utf-8"))
            self.write_big_inbox(ws, root)
            with ws.compact(NOW) as big:
                pieces = []
                self.assertIsNone(big.write_json(pieces.append))
                self.assertGreater(len(pieces), 1, "a result above 64 KiB comes in pieces")
                self.assertEqual(b"".join(pieces), big.json_bytes)
                self.assertEqual(big.inbox_counts.inbox_items, 3000)

    def test_write_json_callback_that_raises(self):
        root = self.project()
        with memkit.Workspace.open(root) as ws:
            self.write_big_inbox(ws, root)
            with ws.compact(NOW) as result:
                pieces = []

                def fails_on_second_piece(piece):
                    pieces.append(piece)
                    if len(pieces) == 2:
                        raise OSError("disk full")

                with self.assertRaises(memkit.Error) as caught:
                    result.write_json(fails_on_second_piece)
                error = caught.exception
                self.assertEqual((error.code, error.name), (-50, "MK_E_CALLBACK"))
                self.assertIn("MK_E_CALLBACK", error.message)
                self.assertIsInstance(error.__cause__, OSError)
                self.assertEqual(len(pieces), 2, "the writer stops at the first failure")
                # The result is intact afterwards.
                self.assertEqual(json.loads(result.json)["command"], "custodian compact")

    def test_write_json_callback_interrupt_and_reentry(self):
        with memkit.Workspace.open(self.project()) as ws, ws.check(NOW) as result:
            def interrupt(piece):
                raise KeyboardInterrupt

            with self.assertRaises(KeyboardInterrupt):
                result.write_json(interrupt)
            # memkit.h: the callback must not call back into the library with the object written.
            with self.assertRaises(memkit.Error) as caught:
                result.write_json(lambda piece: result.exit_code)
            self.assertEqual(caught.exception.code, memkit.Status.E_CALLBACK)
            self.assertIsInstance(caught.exception.__cause__, memkit.Error)
            with self.assertRaises(TypeError):
                result.write_json(None)
            self.assertEqual(result.exit_code, 1)


class LayoutTests(TempDirTestCase):
    """Each layout opens its root and runs its own group of the command table (and the groups
    of every layout: tests/test_requests.py)."""

    def test_memorybox_init_creates_the_tiers_and_status_reads_them(self):
        root = self.project(name="agent")
        with memkit.Workspace.open(root, layout=memkit.Layout.MEMORYBOX) as ws:
            self.assertIs(ws.layout, memkit.Layout.MEMORYBOX)
            self.assertIsNone(ws.memory_dir)
            self.assertFalse((root / "brain").exists())
            with ws.init(NOW) as init:
                self.assertEqual(init.exit_code, 0, init.json)
                shown = json.loads(init.json)
                self.assertEqual(shown["command"], "memorybox init")
                self.assertIn("brain/SOUL.md", shown["data"]["created"])
                self.assertIsNone(init.plan_id)
            self.assertEqual((root / "brain/SOUL.md").read_text(), "# SOUL\n")
            self.assertFalse((root / "docs").exists())  # no custodian folder
            with ws.status(NOW) as status:
                self.assertEqual(status.exit_code, 0, status.json)
                shown = json.loads(status.json)
                self.assertEqual(shown["command"], "memorybox status")
                self.assertEqual([tier["tier"] for tier in shown["data"]["tiers"]], [1, 2, 3, 4, 5])
                self.assertEqual(status.budget_row_count, 0)  # line budgets: in the JSON only
                self.assertEqual(status.budget_rows, [])
                self.assertIsNone(status.inbox_counts)

    def test_layout_names_and_numbers(self):
        root = self.project(name="agent")
        for layouts, expected in ((("memorybox", "MemoryBox", memkit.Layout.MEMORYBOX, 1),
                                   memkit.Layout.MEMORYBOX),
                                  (("custodian", memkit.Layout.CUSTODIAN, 0),
                                   memkit.Layout.CUSTODIAN),
                                  (("tiers", memkit.Layout.TIERS, 2), memkit.Layout.TIERS),
                                  (("curated", memkit.Layout.CURATED, 3), memkit.Layout.CURATED)):
            for layout in layouts:
                with self.subTest(layout=layout), memkit.Workspace.open(root, layout=layout) as ws:
                    self.assertIs(ws.layout, expected)
                    self.assertIn(expected.name.lower(), repr(ws))
        with memkit.Workspace.open(root) as ws:  # the default
            self.assertIs(ws.layout, memkit.Layout.CUSTODIAN)
        with self.assertRaises(memkit.ArgumentError):
            memkit.Workspace.open(root, layout="box")
        with self.assertRaises(memkit.Error) as caught:  # refused by the library itself
            memkit.Workspace.open(root, layout=7)
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        self.assertNotIsInstance(caught.exception, memkit.ArgumentError)
        self.assertIn("layout", caught.exception.message)
        with self.assertRaises(TypeError):
            memkit.Workspace.open(root, layout=1.0)

    def test_memory_dir_with_another_layout_is_MK_E_ARG(self):
        root = self.project(name="agent")
        for layout in ("memorybox", "tiers", "curated"):
            with self.subTest(layout=layout), self.assertRaises(memkit.Error) as caught:
                memkit.Workspace.open(root, memory_dir="docs/memory", layout=layout)
            error = caught.exception
            self.assertEqual((error.code, error.name), (memkit.Status.E_ARG, "MK_E_ARG"))
            self.assertNotIsInstance(error, memkit.ArgumentError)  # the library's refusal
            self.assertIn("memory_dir", error.message)
        self.assertEqual(list(root.iterdir()), [])  # nothing written

    def test_a_workspace_runs_only_its_own_group(self):
        root = self.project(name="agent")
        with memkit.Workspace.open(root, layout="memorybox") as ws:
            ws.init(NOW).close()
            before = sorted(str(path.relative_to(root)) for path in root.rglob("*"))
            self.assertNotIn("check", dir(ws))  # custodian check: no method here
            with self.assertRaises(AttributeError):
                ws.check
            for group, verb in (("custodian", "check"), ("tiers", "init"),
                                ("curated", "stats")):
                with self.subTest(group=group), self.assertRaises(memkit.Error) as caught:
                    ws.run(NOW, group, verb)
                self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
                self.assertIn("another layout", caught.exception.message)
            with ws.recover(NOW) as listing:  # the agent root's own `memorybox recover`
                self.assertEqual(json.loads(listing.json)["command"], "memorybox recover")
            after = sorted(str(path.relative_to(root)) for path in root.rglob("*"))
        self.assertEqual(after, before)  # nothing written
        with memkit.Workspace.open(self.project("inbox_dedupe")) as custodian:
            with self.assertRaises(memkit.Error):
                custodian.run(NOW, "memorybox", "status")


class DocumentTests(unittest.TestCase):
    TEXT = "# Title\n\n- a\n  b\ntext\n```\ncode\n```\n<!-- c -->\n"

    def test_units_of_a_small_text(self):
        K = memkit.UnitKind
        with memkit.Document.parse(self.TEXT) as doc:
            self.assertEqual(doc.unit_count, 6)
            self.assertEqual(doc.units, [
                memkit.Unit(K.HEADING, 1, 1, 1, 0, 8),
                memkit.Unit(K.BLANK, 0, 2, 2, 8, 9),
                memkit.Unit(K.BULLET, 0, 3, 4, 9, 17),
                memkit.Unit(K.TEXT, 0, 5, 5, 17, 22),
                memkit.Unit(K.FENCE, 0, 6, 8, 22, 35),
                memkit.Unit(K.COMMENT, 0, 9, 9, 35, 46),
            ])
            data = self.TEXT.encode("utf-8")
            self.assertEqual(data[doc.unit(2).begin:doc.unit(2).end], b"- a\n  b\n")
            self.assertEqual(b"".join(data[u.begin:u.end] for u in doc), data)
            shown = json.loads(doc.json)["units"]
            self.assertEqual([u["kind"] for u in shown],
                             ["heading", "blank", "bullet_unit", "text", "fence", "comment"])
            with self.assertRaises(memkit.Error) as caught:
                doc.unit(6)
            self.assertEqual(caught.exception.code, -1)

    def test_str_and_bytes_agree_and_offsets_are_bytes(self):
        text = "- café\n- b\n"
        with memkit.Document.parse(text) as a, memkit.Document.parse(text.encode()) as b:
            self.assertEqual(a.json_bytes, b.json_bytes)
            self.assertEqual(a.unit(0).end, len("- café\n".encode()))  # 8 bytes, 7 characters

    def test_unparseable_and_empty(self):
        with memkit.Document.parse("```\nnever closed\n") as doc:
            self.assertEqual((doc.unit_count, doc.units), (0, []))
            self.assertEqual(json.loads(doc.json), {"sections": None, "units": None})
        with memkit.Document.parse(b"") as doc:
            self.assertEqual(doc.json, '{"sections":[],"units":[]}')


if __name__ == "__main__":
    unittest.main()
