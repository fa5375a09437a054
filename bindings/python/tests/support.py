"""Helpers shared by the binding's tests: temp project roots and the vectors' files."""
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

BINDING = Path(__file__).resolve().parents[1]  # bindings/python
REPO = BINDING.parents[1]
if str(BINDING) not in sys.path:  # also when run without -t bindings/python
    sys.path.insert(0, str(BINDING))
VECTORS = REPO / "tests" / "vectors"
NOW = "2026-03-07T10:00:00+01:00"
# The Plan ID tests/vectors/inbox_dedupe/case.json expects for a compaction of its files at NOW.
INBOX_DEDUPE_PLAN_ID = "d39b937e8c1c36cf"


class TempDirTestCase(unittest.TestCase):
    def setUp(self):
        temp = tempfile.TemporaryDirectory(prefix="memkit-py-test-")
        self.addCleanup(temp.cleanup)
        self.temp = Path(temp.name)

    def project(self, vector_case=None, name="project"):
        """A fresh project root: empty, or a copy of tests/vectors/<vector_case>/files."""
        root = self.temp / name
        if vector_case is None:
            root.mkdir(parents=True)
        else:
            shutil.copytree(VECTORS / vector_case / "files", root, symlinks=True)
        return root
