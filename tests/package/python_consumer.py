#!/usr/bin/env python3
"""The Python binding installed as a user installs it, then used with nothing of the repository.

  python_consumer.py --prefix PREFIX --source REPO [--keep]

PREFIX is a `cmake --install` of memkit (PREFIX/lib/libmemkit.so.0.<minor>); REPO the source tree.
In a temporary folder: a copy of REPO/bindings/python, a fresh venv, and
`pip install --no-index -C prefix=PREFIX` from that copy (memkit's own build backend: no registry).
Then, in an environment without MEMKIT_LIBRARY, LD_LIBRARY_PATH or PYTHONPATH, a consumer imports
memkit, which must load the copy bundled in the package, and runs the README's compaction dry run on
a copy of REPO/examples/project. It also builds the same wheel with `pip wheel` and checks its name
and WHEEL tag (py3-none-<platform>) and that RECORD lists every file with its sha256 and size, and
the installed files against the installed RECORD.

Exit 0 when all holds, 1 with a message naming what did not, 77 (ctest's skip) when Python cannot
make a venv with pip (Debian: python3-venv). Standard library only; needs python3 (3.11+) with
venv, and ldd on PATH for the backend's dependency check. About 5 s.
"""
import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from temporary_work import Failure, in_temporary_folder

NOW = "2026-11-30T10:00:00+00:00"
PLAN_ID = "5a05e9af4948c186"  # README.md's quick start: the compaction dry run at NOW
SKIP = 77

CONSUMER = r'''
import json, sys
from pathlib import Path
import memkit
with memkit.Workspace.open(sys.argv[1]) as ws, ws.compact(sys.argv[2]) as plan:
    counts = plan.inbox_counts
    print(json.dumps({"file": memkit.__file__, "library": memkit.library_path,
                      "version": memkit.version(), "plan_id": plan.plan_id,
                      "exit_code": plan.exit_code, "applied": plan.applied,
                      "items": counts.inbox_items, "duplicates": counts.duplicates}))
'''


def clean_env(extra=None) -> dict:
    """The environment of a user who never heard of this repository's variables."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
    env.update({"PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    env.update(extra or {})
    return env


def run(args, what, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300,
                          env=clean_env(), **kwargs)
    if done.returncode != 0:
        raise Failure(f"{what} failed ({done.returncode}): {' '.join(map(str, args))}\n"
                      f"{done.stdout}{done.stderr}")
    return done


def digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def check_record(rows, read, where: str) -> None:
    """Each row (path, hash, size) but RECORD's own matches the bytes read(path) gives."""
    for path, hashed, size in rows:
        if path.endswith(".dist-info/RECORD"):
            continue
        if path.endswith(".pyc") and not hashed:  # pip compiles these after installing
            continue
        data = read(path)
        if (hashed, size) != (digest(data), str(len(data))):
            raise Failure(f"{where}: RECORD says {path} is {hashed},{size}; it is "
                          f"{digest(data)},{len(data)}")


def check_wheel(wheel: Path, soname: str) -> None:
    tag = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if not wheel.name.endswith(f"-{tag}.whl"):
        raise Failure(f"{wheel.name}: expected the platform tag {tag}")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/WHEEL"))
        fields = archive.read(f"{dist_info}/WHEEL").decode().splitlines()
        for wanted in (f"Tag: {tag}", "Root-Is-Purelib: false", "Wheel-Version: 1.0"):
            if wanted not in fields:
                raise Failure(f"{wheel.name}: WHEEL has no line '{wanted}': {fields}")
        rows = list(csv.reader(io.StringIO(archive.read(f"{dist_info}/RECORD").decode())))
        listed = {row[0] for row in rows}
        if listed != names:
            raise Failure(f"{wheel.name}: RECORD and the archive differ: "
                          f"{sorted(listed ^ names)}")
        check_record(rows, archive.read, wheel.name)
        library = archive.getinfo(f"memkit/_lib/{soname}")
        if (library.external_attr >> 16) & 0o777 != 0o755:
            raise Failure(f"{wheel.name}: memkit/_lib/{soname} is not mode 755")


def check_installed(site: Path) -> None:
    record = next(site.glob("memkit-*.dist-info/RECORD"))
    rows = list(csv.reader(io.StringIO(record.read_text())))
    check_record(rows, lambda path: (site / path).read_bytes(), str(record))


def header_version(source: Path) -> tuple[str, str]:
    """memkit.h's version and the soname it gives (libmemkit.so.0.<minor> before 1.0)."""
    header = (source / "capi/memkit.h").read_text()
    major, minor, patch = (re.search(rf"#define MK_VERSION_{p} (\d+)", header).group(1)
                           for p in ("MAJOR", "MINOR", "PATCH"))
    soname = f"libmemkit.so.0.{minor}" if major == "0" else f"libmemkit.so.{major}"
    return f"{major}.{minor}.{patch}", soname


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", type=Path, required=True)
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    prefix, source = args.prefix.resolve(), args.source.resolve()
    version, soname = header_version(source)
    installed = sorted(prefix.glob(f"lib*/**/{soname}"))
    if not installed:
        print(f"python_consumer: FAIL: no {soname} under {prefix}/lib", file=sys.stderr)
        return 1

    def consume(work: Path) -> int:
        package = work / "python"
        shutil.copytree(source / "bindings/python", package,
                        ignore=shutil.ignore_patterns("__pycache__", "_lib", "tests"))
        venv = work / "venv"
        made = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True,
                              text=True, env=clean_env())
        if made.returncode != 0:
            print(f"python_consumer: SKIP: cannot make a venv with pip: {made.stderr.strip()}")
            return SKIP
        python = venv / "bin/python"
        run([python, "-m", "pip", "install", "--no-index", "-C", f"prefix={prefix}", package],
            "pip install")
        run([python, "-m", "pip", "wheel", "--no-index", "--no-deps", "-w", work / "wheels",
             "-C", f"prefix={prefix}", package], "pip wheel")
        check_wheel(next((work / "wheels").glob("memkit-*.whl")), soname)
        site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"],
                        "sysconfig").stdout.strip())
        check_installed(site)

        project = work / "project"
        shutil.copytree(source / "examples/project", project)
        before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
        consumer = work / "consumer.py"
        consumer.write_text(CONSUMER)
        elsewhere = work / "cwd"  # no memkit folder beside the consumer's working directory
        elsewhere.mkdir()
        report = json.loads(run([python, "-I", consumer, project, NOW], "the consumer",
                                cwd=elsewhere).stdout)
        bundled = site / "memkit" / "_lib" / soname
        expected = {"file": str(site / "memkit" / "__init__.py"), "library": str(bundled),
                    "version": version, "plan_id": PLAN_ID, "exit_code": 0, "applied": False,
                    "items": 4, "duplicates": 1}
        if report != expected:
            raise Failure(f"the consumer reported {report}, expected {expected}")
        if bundled.read_bytes() != installed[0].resolve().read_bytes():
            raise Failure(f"{bundled} is not a copy of {installed[0].resolve()}")
        after = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
        if after != before:
            raise Failure("the dry run changed the project's files")
        print(f"python_consumer: OK: {bundled} loaded with nothing of the repository; "
              f"plan {PLAN_ID}; the wheel's tag and RECORD hold")
        return 0

    return in_temporary_folder("python_consumer", args.keep, consume)


if __name__ == "__main__":
    sys.exit(main())
