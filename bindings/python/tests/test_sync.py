"""MemoryBox sync (spec memorybox.md §9) through the binding: mk_memorybox_sync as
Workspace.sync, one root pushing to a folder remote and another pulling from it, status, the
connection string kept out of results, and the arguments it refuses.
"""
import json
import unittest

try:
    from .support import TempDirTestCase
except ImportError:
    from support import TempDirTestCase

import memkit
from memkit import _capi

NOW = "2026-11-30T09:00:00Z"
LATER = "2026-11-30T10:00:00Z"
WORKSPACE = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"
LONG_TERM = ("# LONG_TERM\n\n## Facts\n\n"
             "- The API base URL is https://api.example.com\n"
             "  Confidence: 0.90\n  Verified: 2026-11-20\n  Updated: 2026-11-20T10:00:00.000Z\n"
             "- Deploys happen on Tuesdays\n"
             "  Confidence: 0.80\n  Verified: 2026-11-25\n  Updated: 2026-11-25T10:00:00.000Z\n")


def data(result):
    return json.loads(result.json)["data"]


def codes(result):
    return [f["code"] for f in json.loads(result.json)["findings"]]


class SyncTests(TempDirTestCase):
    def root(self, name):
        path = self.project(name=name)
        ws = memkit.Workspace.open(path, layout="memorybox")
        self.addCleanup(ws.close)
        ws.init(NOW).close()
        return path, ws

    def test_push_then_pull_between_two_roots(self):
        remote = self.temp / "remote"
        remote.mkdir()
        a_path, a = self.root("a")
        (a_path / "memory" / "LONG_TERM.md").write_text(LONG_TERM, encoding="utf-8")
        b_path, b = self.root("b")

        with a.sync(NOW, memkit.SyncCommand.STATUS) as status:
            self.assertEqual(status.exit_code, 0)
            self.assertIsNone(data(status)["workspace_id"])
            self.assertEqual(data(status)["pending_push"], 2)

        with a.sync(NOW, "push", remote=f"dir:{remote}", workspace_id=WORKSPACE) as pushed:
            self.assertEqual(pushed.exit_code, 0, pushed.json)
            got = data(pushed)
            self.assertEqual(got["sent"], 2)
            self.assertEqual(len(got["assigned"]), 2)
            self.assertTrue(got["last_push_ok"])
            self.assertEqual(got["workspace_id"], WORKSPACE)
            self.assertIsNone(pushed.plan_id)
            self.assertFalse(pushed.applied)
            assigned = got["assigned"]
        text = (a_path / "memory" / "LONG_TERM.md").read_text(encoding="utf-8")
        for record_id in assigned:
            self.assertIn(f"  Id: {record_id}\n", text)
        self.assertTrue((remote / "memories.jsonl").is_file())

        with a.sync(LATER, "status", remote=f"dir:{remote}") as status:
            got = data(status)
            self.assertEqual((got["workspace_id"], got["pending_push"], got["pending_pull"]),
                             (WORKSPACE, 0, 0))

        # B's first pull only adds entries: written at once, with a plan but nothing to confirm.
        with b.sync(LATER, memkit.SyncCommand.PULL, remote=f"dir:{remote}",
                    workspace_id=WORKSPACE) as pulled:
            self.assertEqual(pulled.exit_code, 0, pulled.json)
            got = data(pulled)
            self.assertEqual(got["pulled"], 2)
            self.assertFalse(got["needs_confirmation"])
            self.assertEqual(sorted(i["action"] for i in got["items"]), ["added", "added"])
            self.assertTrue(pulled.applied)
            self.assertEqual(pulled.plan_id, got["plan"]["plan_id"])
        pulled_text = (b_path / "memory" / "LONG_TERM.md").read_text(encoding="utf-8")
        self.assertIn("Deploys happen on Tuesdays", pulled_text)
        for record_id in assigned:
            self.assertIn(f"Id: {record_id}", pulled_text)

        # Pulling again brings nothing new (the remote's cursor moved on) and writes nothing; B
        # now knows the workspace without being told.
        with b.sync(LATER, "pull", remote=f"dir:{remote}") as again:
            self.assertEqual((data(again)["pulled"], data(again)["items"]), (0, []))
            self.assertEqual(data(again)["workspace_id"], WORKSPACE)
            self.assertFalse(again.applied)
            self.assertIsNone(again.plan_id)

    def test_connection_string_never_reaches_a_result(self):
        _, ws = self.root("a")
        secret = "host=/nonexistent/memkit-py-sync port=1 password=sekrit-conninfo"
        with ws.sync(NOW, "push", remote="postgres", conninfo=secret,
                     workspace_id=WORKSPACE) as result:
            self.assertEqual(result.exit_code, 2)
            self.assertTrue({"MK-BOX-023", "MK-ARG-001"} & set(codes(result)), result.json)
            self.assertNotIn("sekrit", result.json)

    def test_refusals(self):
        _, ws = self.root("a")
        with ws.sync(NOW, "resolve", id="0190a1b2-0000-7000-8000-000000000000",
                     take="remote") as result:
            self.assertEqual((result.exit_code, codes(result)), (2, ["MK-ARG-001"]))
            self.assertIn("no open sync conflict", result.json)
        with ws.sync(NOW, "status", take="local") as result:
            self.assertIn("unknown option --take for memorybox sync status", result.json)
        with ws.sync(NOW, "pull") as result:
            self.assertIn("--remote: required", result.json)
        with self.assertRaises(memkit.ArgumentError):
            ws.sync(NOW, "fetch")
        with self.assertRaises(memkit.Error) as raised:
            ws.sync(NOW, 7)
        self.assertEqual(raised.exception.code, _capi.MK_E_ARG)
        with self.assertRaises(TypeError):
            ws.sync(NOW, "pull", apply=1)
        custodian = memkit.Workspace.open(self.project(name="custodian"))
        with custodian, custodian.sync(NOW, "status") as result:
            self.assertEqual(result.exit_code, 2)
            self.assertIn("MK_LAYOUT_MEMORYBOX", result.json)


if __name__ == "__main__":
    unittest.main()
