"""memkit's PEP 517 build backend, standard library only, so that `pip install --no-index
bindings/python` needs no registry (pyproject.toml: `requires = []`, `backend-path`).

A wheel (PEP 427, PEP 491) is written by hand with zipfile: the `memkit` package, and, when a
library is found, libmemkit's real file copied under its soname as
memkit/_lib/libmemkit.so.0.<minor>, which the loader (memkit/_capi.py) tries right after
MEMKIT_LIBRARY. Which library it bundles, from pip's `-C` / `--config-settings` (absolute paths:
pip runs the backend in this folder):

  library=PATH   that file (a symbolic link is followed: the real file is copied)
  prefix=DIR     an install prefix: DIR/lib[/<multiarch>|64]/libmemkit.so.0.<minor>
  bundle=auto    (the default) else `pkg-config --variable=libdir memkit` (PKG_CONFIG_PATH
                 counts), else the checkout's build/capi/ when building from the repository
  bundle=yes     as auto, but no library found is an error
  bundle=no      bundle nothing

A wheel with the library is a platform wheel, py3-none-<platform> (ctypes: no CPython ABI); one
without is py3-none-any and loads the soname through the system loader. The library's own
dependencies are not bundled: each must resolve, through `ldd`, to the system's library folders
(libc, libstdc++, libgcc_s, libm, and Debian's libfmt.so.9 today), and the
non-toolchain ones are listed as Requires-External. Such a wheel is for Debian 12 and its kin, not
manylinux. A dependency found anywhere else (/usr/local, LD_LIBRARY_PATH) is an error rather than a
wheel that loads only on this machine. What it decides is printed to stderr (`pip -v` shows it).
"""
from __future__ import annotations

import base64
import csv
import ctypes
import gzip
import hashlib
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]  # bindings/python, or an unpacked sdist
PACKAGE = "memkit"
SETTINGS = {"library", "prefix", "bundle"}
# Dependencies every Linux C++ program has; any other is named in Requires-External.
TOOLCHAIN = re.compile(r"^(linux-vdso|linux-gate|ld-linux[-\w.]*|libc|libm|libstdc\+\+|libgcc_s|"
                       r"libpthread|libdl|librt)\.so")
SYSTEM_DIRS = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/")


class BuildError(Exception):
    pass


def say(message: str) -> None:
    print(f"memkit build: {message}", file=sys.stderr, flush=True)


# ---- what is being built ----------------------------------------------------------------------

def read_project() -> dict:
    project = tomllib.loads((SOURCE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    capi = (SOURCE / PACKAGE / "_capi.py").read_text(encoding="utf-8")
    parts = [re.search(rf"^MK_VERSION_{part} = (\d+)$", capi, re.M)
             for part in ("MAJOR", "MINOR", "PATCH")]
    header = ".".join(m.group(1) for m in parts)
    if project["version"] != header:
        raise BuildError(f"pyproject.toml says version {project['version']}, but memkit/_capi.py "
                         f"was generated from memkit.h {header}")
    major, minor = int(parts[0].group(1)), int(parts[1].group(1))
    project["soname"] = f"libmemkit.so.0.{minor}" if major == 0 else f"libmemkit.so.{major}"
    project["number"] = major * 10000 + minor * 100 + int(parts[2].group(1))
    return project


def checkout() -> Path | None:
    """The repository when building from its bindings/python, else None (a copy, an sdist)."""
    repository = SOURCE.parent.parent
    return repository if (repository / "capi" / "memkit.h").is_file() else None


def license_file() -> Path | None:
    """LICENSE beside pyproject.toml (an sdist), else the repository's (a checkout)."""
    repository = checkout()
    for candidate in [SOURCE / "LICENSE"] + ([repository / "LICENSE"] if repository else []):
        if candidate.is_file():
            return candidate
    return None


def metadata(project: dict, requires_external: list[str]) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"License: {project['license']['text']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines += [f"Requires-External: {r}" for r in requires_external]
    lines += ["Description-Content-Type: text/markdown", "", ""]
    readme = (SOURCE / project["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + readme


# ---- which library -----------------------------------------------------------------------------

def setting(settings: dict | None, key: str) -> str | None:
    value = (settings or {}).get(key)
    return value[-1] if isinstance(value, list) else value


def check_settings(settings: dict | None) -> None:
    unknown = sorted(set(settings or {}) - SETTINGS)
    if unknown:
        raise BuildError(f"unknown -C setting {', '.join(unknown)} (memkit's backend takes "
                         "library=PATH, prefix=DIR, bundle=auto|yes|no)")
    if setting(settings, "bundle") not in (None, "auto", "yes", "no"):
        raise BuildError(f"-C bundle={setting(settings, 'bundle')}: expected auto, yes or no")


def in_prefix(prefix: Path, soname: str) -> list[Path]:
    multiarch = sysconfig.get_config_var("MULTIARCH")  # x86_64-linux-gnu on Debian
    dirs = [prefix / "lib"] + ([prefix / "lib" / multiarch] if multiarch else []) + \
        [prefix / "lib64"]
    return [d / soname for d in dirs]


def pkg_config_libdir() -> Path | None:
    tool = os.environ.get("PKG_CONFIG") or shutil.which("pkg-config")
    if not tool:
        return None
    run = subprocess.run([tool, "--variable=libdir", "memkit"], capture_output=True, text=True)
    libdir = run.stdout.strip()
    return Path(libdir) if run.returncode == 0 and libdir else None


def find_library(settings: dict | None, soname: str) -> tuple[Path | None, str]:
    """The library to bundle and how it was found, or None and the places that were tried."""
    bundle = setting(settings, "bundle") or "auto"
    if bundle == "no":
        return None, "-C bundle=no"
    explicit = setting(settings, "library")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise BuildError(f"-C library={explicit}: no such file (pip runs this backend in "
                             f"{SOURCE}: give an absolute path)")
        return path, f"-C library={explicit}"
    prefix = setting(settings, "prefix")
    if prefix:
        candidates = in_prefix(Path(prefix).expanduser(), soname)
        for candidate in candidates:
            if candidate.is_file():
                return candidate, f"-C prefix={prefix}"
        raise BuildError(f"-C prefix={prefix}: no {soname} in "
                         + ", ".join(str(c.parent) for c in candidates)
                         + f" (pip runs this backend in {SOURCE}: give an absolute path)")
    tried = []
    libdir = pkg_config_libdir()
    if libdir is not None:
        if (libdir / soname).is_file():
            return libdir / soname, f"pkg-config memkit (libdir {libdir})"
        tried.append(f"pkg-config's libdir {libdir} has no {soname}")
    else:
        tried.append("pkg-config does not know memkit (PKG_CONFIG_PATH)")
    repository = checkout()
    if repository is not None:
        built = repository / "build" / "capi" / soname
        if built.is_file():
            return built, f"the checkout's build ({built.parent})"
        tried.append(f"the checkout has no {built}")
    tried.append("neither -C library=PATH nor -C prefix=DIR was given")
    if bundle == "yes":
        raise BuildError(f"-C bundle=yes, but no {soname} was found: " + "; ".join(tried))
    return None, "; ".join(tried)


def dependencies(library: Path) -> list[tuple[str, str]]:
    """(soname, resolved path or 'not found') of each library `ldd` says it needs."""
    if not shutil.which("ldd"):
        say("ldd is not on PATH: the library's dependencies are not checked")
        return []
    run = subprocess.run(["ldd", str(library)], capture_output=True, text=True)
    if run.returncode != 0:
        raise BuildError(f"ldd {library} failed: {run.stderr.strip() or run.stdout.strip()}")
    found = []
    for line in run.stdout.splitlines():
        match = re.match(r"\s*(\S+)\s+=>\s+(not found|\S+)", line)
        if match:
            found.append((match.group(1), match.group(2)))
    return found


def inspect_library(library: Path, number: int) -> list[str]:
    """Checks the library is the binding's version and needs only system libraries; returns
    the sonames of the non-toolchain ones, for Requires-External."""
    try:
        found = ctypes.CDLL(str(library)).mk_version_number()
    except (OSError, AttributeError) as error:
        raise BuildError(f"{library} does not load as libmemkit: {error}") from error
    if found != number:
        raise BuildError(f"{library} is libmemkit {found} (mk_version_number()), but this binding "
                         f"is {number}: bundle a matching library")
    external, foreign = [], []
    for name, where in dependencies(library):
        if where == "not found" or not where.startswith(SYSTEM_DIRS):
            foreign.append(f"{name} ({where})")
        elif not TOOLCHAIN.match(name):
            external.append(name)
    if foreign:
        raise BuildError(
            f"{library} needs {', '.join(foreign)}, which is not a system library: a wheel would "
            "load only where that exists. Install it system-wide, or build without bundling "
            "(-C bundle=no)")
    return external


# ---- archives ----------------------------------------------------------------------------------

def epoch_seconds() -> int:
    """SOURCE_DATE_EPOCH when set (reproducible builds), else 1980-01-01, where zip dates start."""
    return max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)


def epoch() -> tuple:
    return time.gmtime(epoch_seconds())[:6]


class Wheel:
    """A wheel written entry by entry; RECORD (PEP 376: path, sha256 in urlsafe base64 without
    padding, size) is written last, listing itself without a hash."""

    def __init__(self, path: Path, dist_info: str):
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.dist_info = dist_info
        self.records = []

    def add(self, name: str, data: bytes, executable: bool = False) -> None:
        info = zipfile.ZipInfo(name, date_time=epoch())
        info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append((name, f"sha256={digest}", str(len(data))))

    def close(self) -> None:
        record = f"{self.dist_info}/RECORD"
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerows(self.records + [(record, "", "")])
        info = zipfile.ZipInfo(record, date_time=epoch())
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        self.zip.writestr(info, text.getvalue(), compress_type=zipfile.ZIP_DEFLATED)
        self.zip.close()


def package_files() -> list[Path]:
    """The package's Python files; never memkit/_lib, which only the chosen library fills."""
    return sorted(p for p in (SOURCE / PACKAGE).rglob("*.py")
                  if "__pycache__" not in p.parts and "_lib" not in p.parts)


def write_wheel(directory: str, project: dict, tag: str, contents, requires_external) -> str:
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"
    filename = f"{name}-{version}-{tag}.whl"
    wheel = Wheel(Path(directory) / filename, dist_info)
    for arcname, data, executable in contents:
        wheel.add(arcname, data, executable)
    wheel.add(f"{dist_info}/METADATA", metadata(project, requires_external).encode())
    purelib = "true" if tag.endswith("-any") else "false"
    wheel.add(f"{dist_info}/WHEEL",
              f"Wheel-Version: 1.0\nGenerator: memkit_build {version}\nRoot-Is-Purelib: "
              f"{purelib}\nTag: {tag}\n".encode())
    licence = license_file()
    if licence is not None:
        wheel.add(f"{dist_info}/LICENSE", licence.read_bytes())
    wheel.close()
    return filename


def platform_tag() -> str:
    return re.sub(r"[-.]", "_", sysconfig.get_platform())  # linux-x86_64 -> linux_x86_64


# ---- PEP 517 and PEP 660 hooks -------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    try:
        check_settings(config_settings)
        project = read_project()
        soname = project["soname"]
        library, how = find_library(config_settings, soname)
        contents = [(p.relative_to(SOURCE).as_posix(), p.read_bytes(), False)
                    for p in package_files()]
        if library is None:
            say(f"no library bundled ({how}): the wheel loads {soname} through the system "
                "loader (the Debian package memkit) or MEMKIT_LIBRARY")
            return write_wheel(wheel_directory, project, "py3-none-any", contents, [])
        real = library.resolve()
        external = inspect_library(real, project["number"])
        contents.append((f"{PACKAGE}/_lib/{soname}", real.read_bytes(), True))
        tag = f"py3-none-{platform_tag()}"
        say(f"bundling {real} (found through {how}) as {PACKAGE}/_lib/{soname}; wheel tag "
            f"{tag}; it needs these system libraries: {', '.join(external) or 'none'}")
        return write_wheel(wheel_directory, project, tag, contents, external)
    except BuildError as error:
        say(f"error: {error}")
        raise SystemExit(1) from None


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A .pth naming this folder: the package runs from the source, which bundles no library."""
    project = read_project()
    say(f"editable install of {SOURCE}: no library bundled; it loads MEMKIT_LIBRARY or "
        f"{project['soname']} through the system loader")
    contents = [(f"__editable__.{PACKAGE}.pth", f"{SOURCE}\n".encode(), False)]
    return write_wheel(wheel_directory, project, "py3-none-any", contents, [])


def build_sdist(sdist_directory, config_settings=None):
    project = read_project()
    base = f"{project['name']}-{project['version']}"
    files = [SOURCE / "pyproject.toml", SOURCE / project["readme"], Path(__file__).resolve()]
    files += package_files()
    entries = [(f"{base}/{p.relative_to(SOURCE).as_posix()}", p.read_bytes()) for p in files]
    licence = license_file()
    if licence is not None:
        entries.append((f"{base}/LICENSE", licence.read_bytes()))
    entries.append((f"{base}/PKG-INFO", metadata(project, []).encode()))
    filename = f"{base}.tar.gz"
    with open(Path(sdist_directory) / filename, "wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as zipped, \
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in sorted(entries):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, epoch_seconds()
            tar.addfile(info, io.BytesIO(data))
    return filename
