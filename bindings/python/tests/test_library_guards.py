"""Library guards found while writing the binding (libmemkit 0.1.0; kept for 0.2): text that is
not UTF-8 is refused before anything is written, the lock timeout is bounded as the CLI bounds
it, and a workspace keeps the project root it opened across a change of working directory.
"""
import os
import threading
import unittest

try:
    from .support import NOW, TempDirTestCase
except ImportError:
    from support import NOW, TempDirTestCase

import memkit


class LibraryGuardTests(TempDirTestCase):
    def test_add_refuses_invalid_utf8_instead_of_corrupting_the_file(self):
        """memkit.h: "text that is not UTF-8 gives a result with a fatal MK-ARG-001 finding and
        writes nothing". Once (0.1) the bytes of an invalid-UTF-8 message were written as they
        were, so inbox.md stopped being UTF-8 and every later command that read it was blocked
        with MK-UTF8-001."""
        root = self.project()
        inbox = root / "docs/memory/inbox.md"
        with memkit.Workspace.open(root) as ws:
            ws.init(NOW).close()
            try:
                with ws.add(NOW, b"bad \xff byte", type="inbox") as result:
                    refused = not result.applied
            except memkit.Error:
                refused = True
            inbox.read_bytes().decode("utf-8")  # raises once the file is corrupted
            self.assertTrue(refused)
            with ws.add(NOW, "a later note", type="inbox") as later:
                self.assertTrue(later.applied, later.json)

    def test_lock_timeout_above_the_cli_bound_is_refused_or_honoured(self):
        """The CLI bounds --lock-timeout to 0..86400 "so that the millisecond deadline cannot
        overflow"; mk_workspace_open only checks >= 0, and posix_file_system.cpp computes
        milliseconds(static_cast<long>(seconds * 1000)) (undefined for inf, overflowing
        steady_clock for 1e10). An apply under a held lock then gave up at once with
        MK-LOCK-001 "lock not acquired within the timeout" instead of waiting (0.1); 0.2
        refuses it as the CLI does."""
        import fcntl
        root = self.project("inbox_dedupe")
        try:
            ws = memkit.Workspace.open(root, lock_timeout=1e10)
        except memkit.Error as error:  # a fix that refuses it, like the CLI, is fine too
            self.assertEqual(error.code, memkit.Status.E_ARG)
            return
        with ws, ws.compact(NOW) as plan:
            (root / ".memkit").mkdir(exist_ok=True)  # a fresh project has no state folder yet
            lock = os.open(root / ".memkit/lock", os.O_RDWR | os.O_CREAT, 0o644)
            self.addCleanup(os.close, lock)
            fcntl.flock(lock, fcntl.LOCK_EX)
            release = threading.Timer(0.3, fcntl.flock, (lock, fcntl.LOCK_UN))
            release.start()
            self.addCleanup(release.cancel)
            with ws.compact(NOW, apply=True, confirm_plan=plan.plan_id) as applied:
                self.assertNotIn("MK-LOCK-001", applied.json)
                self.assertTrue(applied.applied)

    def test_workspace_keeps_the_project_root_it_opened(self):
        """memkit.h: mk_workspace_open "checks the project root"; the workspace is "opened once
        and used by the commands below". It keeps a relative root as a string, and every
        command resolves it again against the current directory: after a chdir the commands
        run on another folder (here a different project, which open never checked)."""
        first = self.project(name="a/proj")
        other = self.project(name="b/proj")
        cwd = os.getcwd()
        self.addCleanup(os.chdir, cwd)
        os.chdir(first.parent)
        with memkit.Workspace.open("proj") as ws:
            os.chdir(other.parent)
            ws.init(NOW).close()
        self.assertTrue((first / "docs/memory/inbox.md").exists())
        self.assertFalse((other / "docs/memory").exists())


if __name__ == "__main__":
    unittest.main()
