"""Where the library comes from: MEMKIT_LIBRARY, then the copy bundled in the package
(memkit/_lib/libmemkit.so.0.<minor>), then that versioned soname through the system loader, never
the unversioned libmemkit.so; and what the error says when none loads.

Most cases call _capi._load() with its test parameters (env, package_dir, dlopen, expected); the
last ones start a fresh interpreter so that the real system loader searches LD_LIBRARY_PATH.
"""
import ctypes
import os
import subprocess
import sys
import unittest
from pathlib import Path

try:
    from .support import BINDING, TempDirTestCase
except ImportError:
    from support import BINDING, TempDirTestCase

import memkit
from memkit import _capi

SONAME = "libmemkit.so.0.2"


class RecordingLoader:
    """A dlopen that records each name it is asked for: a path loads as it is, a bare name only
    when it is one of the known ones (a stand-in for the system loader's search path)."""

    def __init__(self, known):
        self.known = known
        self.asked = []

    def __call__(self, name):
        self.asked.append(name)
        if "/" in name:
            return ctypes.CDLL(name)
        if name not in self.known:
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        return ctypes.CDLL(self.known[name])


class LoadOrderTests(TempDirTestCase):
    def setUp(self):
        super().setUp()
        self.real = str(Path(memkit.library_path).resolve())
        self.package = self.temp / "memkit"
        (self.package / "_lib").mkdir(parents=True)
        self.bundled = self.package / "_lib" / SONAME
        self.system = RecordingLoader({SONAME: self.real})

    def load(self, env=None, expected=None):
        return _capi._load(env={} if env is None else env, package_dir=self.package,
                           dlopen=self.system, expected=expected)

    def test_the_soname_is_versioned(self):
        self.assertEqual(_capi._soname(200), SONAME)
        self.assertEqual(_capi._soname(_capi.MK_VERSION_NUMBER), SONAME)
        self.assertEqual(_capi._soname(10203), "libmemkit.so.1")  # from 1.0: the major only

    def test_MEMKIT_LIBRARY_comes_first_and_must_load(self):
        self.bundled.symlink_to(self.real)
        _, where = self.load(env={"MEMKIT_LIBRARY": self.real})
        self.assertEqual(where, self.real)
        missing = str(self.temp / "missing.so")
        with self.assertRaises(memkit.LoadError) as caught:
            self.load(env={"MEMKIT_LIBRARY": missing})
        self.assertIn(f"cannot load {missing} (from MEMKIT_LIBRARY)", str(caught.exception))
        self.assertEqual(self.system.asked, [self.real, missing])  # no fallback to the others

    def test_then_the_bundled_copy(self):
        self.bundled.symlink_to(self.real)
        _, where = self.load()
        self.assertEqual(where, str(self.bundled))
        self.assertEqual(self.system.asked, [str(self.bundled)])

    def test_a_bundled_copy_that_does_not_load_is_an_error_not_a_fallback(self):
        self.bundled.write_bytes(b"not an ELF file")
        with self.assertRaises(memkit.LoadError) as caught:
            self.load()
        self.assertIn(f"cannot load {self.bundled} (bundled with the package)",
                      str(caught.exception))
        self.assertNotIn(SONAME, self.system.asked)

    def test_a_bundled_copy_of_another_version_is_refused_naming_both(self):
        self.bundled.symlink_to(self.real)
        with self.assertRaises(memkit.LoadError) as caught:
            self.load(expected=201)  # the binding of a 0.2.1; its soname is the same
        text = str(caught.exception)
        self.assertIn(f"{self.bundled} is libmemkit 0.2.0 (mk_version_number() == 200)", text)
        self.assertIn("written for 0.2.1 (201)", text)

    def test_then_the_versioned_soname_through_the_system_loader(self):
        _, where = self.load()
        self.assertEqual(where, SONAME)
        self.assertEqual(self.system.asked, [SONAME])

    def test_nowhere_says_what_was_tried_and_what_to_install(self):
        self.system.known = {}
        with self.assertRaises(memkit.LoadError) as caught:
            self.load()
        text = str(caught.exception)
        self.assertIsInstance(caught.exception, ImportError)
        self.assertEqual(self.system.asked, [SONAME])  # never libmemkit.so
        self.assertIn("libmemkit not found: MEMKIT_LIBRARY is not set", text)
        self.assertIn(f"{self.bundled} does not exist", text)
        self.assertIn(f"the system loader cannot load {SONAME}", text)
        self.assertIn("install the Debian package memkit (apt-get install ./memkit_0.2.0_", text)
        self.assertIn("or build memkit from source (cmake --install), or set MEMKIT_LIBRARY", text)


class SystemLoaderTests(TempDirTestCase):
    """The real dlopen, in a child interpreter whose LD_LIBRARY_PATH names one folder."""

    def import_memkit(self, library_dir):
        env = {key: value for key, value in os.environ.items()
               if key not in ("MEMKIT_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH")}
        env["LD_LIBRARY_PATH"] = str(library_dir)
        env["PYTHONPATH"] = str(BINDING)  # the source tree: it bundles no library
        return subprocess.run([sys.executable, "-c", "import memkit; print(memkit.library_path)"],
                              env=env, capture_output=True, text=True, timeout=60)

    def setUp(self):
        super().setUp()
        self.real = Path(memkit.library_path).resolve()
        if (BINDING / "memkit" / "_lib").exists():
            self.skipTest("bindings/python/memkit/_lib exists: its copy would be loaded first")

    def test_the_soname_is_found_on_the_loader_path(self):
        (self.temp / SONAME).symlink_to(self.real)
        run = self.import_memkit(self.temp)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.strip(), SONAME)

    def test_the_unversioned_development_name_is_not_used(self):
        (self.temp / "libmemkit.so").symlink_to(self.real)
        run = self.import_memkit(self.temp)
        if run.returncode == 0:
            self.skipTest(f"the system itself has {SONAME} ({run.stdout.strip()})")
        self.assertIn(f"the system loader cannot load {SONAME}", run.stderr)
        self.assertIn("apt-get install ./memkit_0.2.0_", run.stderr)


if __name__ == "__main__":
    unittest.main()
