"""Runs the README's examples (the first on a copy of examples/project, the gate and tiers ones
in the same fresh folder after it), so that the README stays true."""
import os
import re
import shutil
import subprocess
import sys

try:
    from .support import BINDING, REPO, TempDirTestCase
except ImportError:
    from support import BINDING, REPO, TempDirTestCase

import memkit

README = BINDING / "README.md"


def block(heading):
    """The first ```python block after `heading` in the README."""
    text = README.read_text(encoding="utf-8")
    match = re.search(re.escape(heading) + r"\n.*?```python\n(.*?)```", text, re.DOTALL)
    if match is None:
        raise AssertionError(f"README.md has no python block under {heading!r}")
    return match.group(1)


class ReadmeTests(TempDirTestCase):
    def test_the_examples_print_what_their_comments_say(self):
        example = block("## Example")
        self.assertLessEqual(len(example.rstrip().splitlines()), 10, "ten lines at most")
        script = example + block("### The gate's judge") + block("### The tiers layout")
        shutil.copytree(REPO / "examples/project", self.temp / "examples/project")
        env = dict(os.environ, PYTHONPATH=str(BINDING), PYTHONDONTWRITEBYTECODE="1")
        done = subprocess.run([sys.executable, "-c", script], cwd=self.temp, env=env,
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        gate = next(c for g in memkit.commands()["groups"] if g["name"] == "memorybox"
                    for c in g["commands"] if c["verb"] == "gate")
        self.assertEqual(done.stdout.splitlines(), [
            "4 items, 1 duplicates, plan 5a05e9af4948c186",
            "WRITE True",
            f"`memkit memorybox gate`: {gate['summary']} ({gate['effect']}).",
            "0 True",
            "2",
            "'name,note\\n'"])
        # The first example applied its plan to the copy; the gate wrote its entry.
        inbox = "examples/project/docs/memory/inbox.md"
        self.assertNotEqual((self.temp / inbox).read_bytes(), (REPO / inbox).read_bytes())
        self.assertRegex((self.temp / "agent/memory/LONG_TERM.md").read_text(),
                         r"\n## Team\n\n- Bob reviews every schema change\n  Confidence: 0\.85\n")
        self.assertTrue((self.temp / "project/memory/decision").is_dir())
