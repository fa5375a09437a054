#!/usr/bin/env python3
"""The Debian packages made by `cpack -G DEB`, checked, installed and removed in a throwaway root.

  deb_check.py --build BUILD --version VERSION [--cpack CPACK] [--keep]

In a temporary folder: `cpack -G DEB` of the configured and built BUILD folder must make
memkit_<VERSION>-1_<arch>.deb and libmemkit-dev_<VERSION>-1_<arch>.deb. Their control fields are
checked (memkit's Depends computed from the binaries: libc6, libstdc++6, libfmt9 and nothing the
library only loads when asked, such as libpq or libcrypto; libmemkit-dev's on memkit of the same
version; libmemkit.so's shlibs line), and so is each file each package must hold. Then both are
installed with dpkg into an empty root (`dpkg --root`, maintainer scripts run outside it with
ldconfig stubbed, dependencies left to the host), the CLI of the root runs `--version` and
`completion bash`, memkit.pc there is read by pkg-config, and both packages are removed, leaving
none of their files.

Exit 0 when all holds, 1 naming what did not, 77 (ctest's skip) without dpkg, dpkg-deb,
dpkg-shlibdeps or pkg-config. About 10 s.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from temporary_work import Failure, in_temporary_folder

SKIP = 77
RUNTIME_FILES = [
    "usr/bin/memkit",
    "usr/share/bash-completion/completions/memkit",
    "usr/share/zsh/vendor-completions/_memkit",
    "usr/share/fish/vendor_completions.d/memkit.fish",
    "usr/share/man/man1/memkit.1",
    "usr/share/man/man1/memkit-custodian.1",
    "usr/share/man/man1/memkit-memorybox.1",
    "usr/share/doc/memkit/LICENSE",
]
DEV_FILES = [
    "usr/include/memkit.h",
    "usr/include/memkit/memkit.hpp",
    "{libdir}/cmake/memkit/memkitConfig.cmake",
    "{libdir}/cmake/memkit/memkit-c-targets.cmake",
    "{libdir}/cmake/memkit/memkit-cpp-targets.cmake",
    "{libdir}/pkgconfig/memkit.pc",
    "{libdir}/pkgconfig/memkit-cpp.pc",
    "{libdir}/libmemkit.a",
    "{libdir}/libmemkit_core.a",
    "{libdir}/libmemkit.so",
]
NEVER_DEPENDED_ON = ("libpq", "libssl", "libcrypto", "libxxhash", "libboost", "libstemmer")


def run(command, **kwargs) -> str:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise Failure(f"{' '.join(map(str, command))} exited {done.returncode}:\n"
                      f"{done.stdout}{done.stderr}")
    return done.stdout


def field(deb: Path, name: str) -> str:
    return run(["dpkg-deb", "-f", str(deb), name]).strip()


def contents(deb: Path) -> set:
    names = run(["dpkg-deb", "-c", str(deb)]).splitlines()
    # "-rw-r--r-- root/root 123 2026-12-04 12:00 ./usr/bin/memkit" (links: "... -> target")
    return {line.split()[5].removeprefix("./") for line in names if len(line.split()) >= 6}


def check_packages(debs: dict, version: str, soversion: str) -> str:
    """Checks both packages' fields and files; returns the folder holding the libraries."""
    runtime, dev = debs["memkit"], debs["libmemkit-dev"]
    depends = field(runtime, "Depends")
    for needed in ("libc6", "libstdc++6", "libfmt9"):
        if needed not in depends:
            raise Failure(f"memkit's Depends lacks {needed}: {depends}")
    for never in NEVER_DEPENDED_ON:
        if never in depends:
            raise Failure(f"memkit depends on {never}, which it must not need to start: {depends}")
    dev_depends = field(dev, "Depends")
    if f"memkit (= {version}-1)" not in dev_depends or "libfmt-dev" not in dev_depends:
        raise Failure(f"libmemkit-dev's Depends is {dev_depends}, not memkit (= {version}-1) "
                      "and libfmt-dev")
    control = Path(tempfile.mkdtemp(prefix="memkit-deb-control-"))
    try:
        run(["dpkg-deb", "-e", str(runtime), str(control)])
        shlibs = (control / "shlibs").read_text() if (control / "shlibs").exists() else ""
    finally:
        shutil.rmtree(control)
    if f"libmemkit {soversion} memkit (= {version}" not in shlibs:
        raise Failure(f"memkit's shlibs is {shlibs!r}, not libmemkit {soversion} "
                      f"memkit (= {version}...)")
    held = {"memkit": contents(runtime), "libmemkit-dev": contents(dev)}
    # usr/lib, or Debian's multiarch usr/lib/<triplet> when configured with the prefix /usr.
    libraries = [name for name in held["memkit"] if name.endswith(f"/libmemkit.so.{soversion}")]
    if len(libraries) != 1 or not libraries[0].startswith("usr/lib"):
        raise Failure(f"memkit holds {libraries}, not one usr/lib/.../libmemkit.so.{soversion}")
    libdir = libraries[0].rsplit("/", 1)[0]
    wanted = {"memkit": RUNTIME_FILES,
              "libmemkit-dev": [name.format(libdir=libdir) for name in DEV_FILES]}
    for package, names in wanted.items():
        missing = [name for name in names if name not in held[package]]
        if missing:
            raise Failure(f"{package} lacks {missing}")
    if any(name.startswith("usr/include") for name in held["memkit"]):
        raise Failure("memkit holds headers, which belong to libmemkit-dev")
    print(f"ok   control: memkit Depends: {depends}; libmemkit-dev Depends: {dev_depends}")
    return libdir


def install_and_remove(debs: dict, work: Path, version: str, libdir: str) -> None:
    root = work / "root"
    admin = root / "var" / "lib" / "dpkg"
    for folder in ("info", "updates", "triggers"):
        (admin / folder).mkdir(parents=True)
    (admin / "status").write_text("")
    (admin / "available").write_text("")
    # Maintainer scripts run outside the root (it has no shell); their ldconfig is a stub.
    stubs = work / "stubs"
    stubs.mkdir()
    for tool in ("ldconfig", "start-stop-daemon"):
        (stubs / tool).write_text("#!/bin/sh\nexit 0\n")
        (stubs / tool).chmod(0o755)
    env = dict(os.environ, PATH=f"{stubs}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    dpkg = ["dpkg", f"--root={root}", "--force-not-root", "--force-depends",
            "--force-script-chrootless", "--log=/dev/null"]
    run(dpkg + ["--install", str(debs["memkit"]), str(debs["libmemkit-dev"])], env=env)
    status = run(["dpkg-query", f"--admindir={admin}", "-W", "-f=${Package} ${Status}\\n"])
    for package in ("memkit", "libmemkit-dev"):
        if f"{package} install ok installed" not in status:
            raise Failure(f"after dpkg --install the root's status is {status!r}")
    cli = root / "usr" / "bin" / "memkit"
    clean = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    shown = run([str(cli), "--version"], env=clean)
    if version not in shown:
        raise Failure(f"the installed memkit --version printed {shown!r}, not {version}")
    if "complete" not in run([str(cli), "completion", "bash"], env=clean):
        raise Failure("the installed memkit completion bash printed no complete command")
    pc = dict(clean, PKG_CONFIG_PATH=str(root / libdir / "pkgconfig"))
    modversion = run(["pkg-config", "--modversion", "memkit"], env=pc).strip()
    if modversion != version:
        raise Failure(f"the installed memkit.pc says {modversion}, not {version}")
    print(f"ok   installed into {root}: {shown.strip()}")

    run(dpkg + ["--purge", "libmemkit-dev", "memkit"], env=env)
    left = [str(path.relative_to(root)) for path in root.rglob("*")
            if path.is_file() and not str(path.relative_to(root)).startswith("var/lib/dpkg")]
    if left:
        raise Failure(f"after dpkg --purge the root still holds {left}")
    print("ok   removed: the root holds none of their files")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--cpack", default=shutil.which("cpack") or "cpack")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    for tool in ("dpkg", "dpkg-deb", "dpkg-query", "dpkg-shlibdeps", "pkg-config"):
        if shutil.which(tool) is None:
            print(f"skip: no {tool} (Debian's dpkg-dev and pkg-config)")
            return SKIP
    major, minor = args.version.split(".")[:2]
    soversion = f"{major}.{minor}"

    def check(work: Path) -> int:
        run([args.cpack, "-G", "DEB", "-B", str(work / "debs")], cwd=args.build)
        arch = run(["dpkg", "--print-architecture"]).strip()
        debs = {name: work / "debs" / f"{name}_{args.version}-1_{arch}.deb"
                for name in ("memkit", "libmemkit-dev")}
        made = sorted(path.name for path in (work / "debs").glob("*.deb"))
        if sorted(path.name for path in debs.values()) != made:
            raise Failure(f"cpack made {made}, not {[d.name for d in debs.values()]}")
        libdir = check_packages(debs, args.version, soversion)
        install_and_remove(debs, work, args.version, libdir)
        return 0

    return in_temporary_folder("deb_check", args.keep, check)


if __name__ == "__main__":
    sys.exit(main())
