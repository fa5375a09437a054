#!/usr/bin/env python3
"""The Rust crate used as a dependent crate uses it, against an installed memkit.

  rust_consumer.py --prefix PREFIX --source REPO [--cargo CARGO] [--keep]

PREFIX is a `cmake --install` of memkit; REPO the source tree. In a temporary folder, a binary crate
depends on REPO/bindings/rust by path and runs the README's compaction dry run on a copy of
REPO/examples/project, built with `cargo build --offline` twice:
  - linked with libmemkit.so: build.rs finds it with `pkg-config memkit`, and the consumer's own
    build script writes an rpath from DEP_MEMKIT_LIBDIR (as bindings/rust/README.md tells);
  - with the crate's `static` feature: libmemkit.a, so the program needs no libmemkit.so.
Where pkg-config looks is the consumer's .cargo/config.toml ([env] PKG_CONFIG_PATH), as a project
would set it for a prefix off the system paths; neither cargo nor the programs get MEMKIT_LIB_DIR,
LD_LIBRARY_PATH or PKG_CONFIG_PATH from the environment. Then a crate whose build finds no memkit
must fail naming the package to install.

Exit 0 when all holds, 1 with a message naming what did not. Needs cargo (offline: the crate has no
dependencies), pkg-config and readelf. About 30 s.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from temporary_work import Failure, in_temporary_folder

NOW = "2026-11-30T10:00:00+00:00"
PLAN_ID = "5a05e9af4948c186"  # README.md's quick start: the compaction dry run at NOW

MAIN_RS = r'''
use memkit::{Clock, Workspace};

fn main() -> Result<(), memkit::Error> {
    let args: Vec<String> = std::env::args().collect();
    let now = Clock::parse(&args[2])?;
    let ws = Workspace::open(&args[1])?;
    let plan = ws.custodian_compact().run(&now)?;
    println!("{{\"version\":\"{}\",\"plan_id\":\"{}\",\"applied\":{}}}",
             memkit::version_string(), plan.plan_id().unwrap_or(""), plan.applied());
    Ok(())
}
'''

# DEP_MEMKIT_LIBDIR comes from the memkit crate's build script (links = "memkit").
BUILD_RS = r'''
fn main() {
    if std::env::var("DEP_MEMKIT_STATIC").as_deref() != Ok("1") {
        let dir = std::env::var("DEP_MEMKIT_LIBDIR").expect("DEP_MEMKIT_LIBDIR from memkit");
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
'''


def clean_env() -> dict:
    """A user's environment: none of the variables that would point at the library."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR", "CARGO_HOME",
                                            "RUSTUP_HOME") if key in os.environ}
    return env


def run(command, cwd=None, check=True) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, env=clean_env(), capture_output=True, text=True)
    if check and done.returncode != 0:
        raise Failure(f"{' '.join(map(str, command))} exited {done.returncode}:\n"
                      f"{done.stdout}{done.stderr}")
    return done


def write_crate(folder: Path, source: Path, pkg_config_path: str) -> None:
    (folder / "src").mkdir(parents=True)
    (folder / "Cargo.toml").write_text(f'''[package]
name = "memkit-consumer"
version = "0.1.0"
edition = "2021"

[dependencies]
memkit = {{ path = {json.dumps(str(source / "bindings" / "rust"))} }}

[features]
static = ["memkit/static"]
''')
    (folder / "src" / "main.rs").write_text(MAIN_RS)
    (folder / "build.rs").write_text(BUILD_RS)
    if pkg_config_path is not None:
        (folder / ".cargo").mkdir()
        (folder / ".cargo" / "config.toml").write_text(
            f"[env]\nPKG_CONFIG_PATH = {json.dumps(pkg_config_path)}\n")


def needed(program: Path) -> str:
    return run(["readelf", "-d", str(program)]).stdout


def check_build(args, crate: Path, project: Path, static: bool) -> None:
    target = crate / ("target-static" if static else "target")
    command = [args.cargo, "build", "--offline", "--quiet", "--target-dir", str(target)]
    if static:
        command += ["--features", "static"]
    run(command, cwd=crate)
    program = target / "debug" / "memkit-consumer"
    out = run([str(program), str(project), NOW]).stdout
    try:
        result = json.loads(out)
    except json.JSONDecodeError:
        raise Failure(f"the consumer printed {out!r}, not JSON")
    if result["plan_id"] != PLAN_ID or result["applied"]:
        raise Failure(f"the consumer's dry run gave {result}, not Plan ID {PLAN_ID} unapplied")
    dynamic = needed(program)
    loads = "[libmemkit.so" in dynamic
    if static and loads:
        raise Failure(f"{program}, built with the static feature, loads libmemkit.so")
    if not static and (not loads or str(args.prefix) not in dynamic):
        raise Failure(f"{program} does not load libmemkit.so through an rpath into {args.prefix}:"
                      f"\n{dynamic}")
    print(f"ok   {'static' if static else 'shared'}: {result}")


def check_missing(args, folder: Path) -> None:
    """No MEMKIT_LIB_DIR and a pkg-config that finds nothing: the error names the package."""
    write_crate(folder, args.source, "/nonexistent")
    done = run([args.cargo, "build", "--offline", "--quiet", "--target-dir",
                str(folder / "target")], cwd=folder, check=False)
    if done.returncode == 0:
        if subprocess.run(["pkg-config", "--exists", "memkit"]).returncode == 0:
            print("skip the missing-library check: pkg-config finds an installed memkit")
            return
        raise Failure("a build with no memkit to find succeeded")
    if "libmemkit-dev" not in done.stderr:
        raise Failure(f"a build with no memkit to find failed without naming libmemkit-dev:\n"
                      f"{done.stderr}")
    print("ok   missing library: the build names libmemkit-dev")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, required=True)
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--cargo", default=shutil.which("cargo") or "cargo")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    args.prefix = args.prefix.resolve()
    args.source = args.source.resolve()
    pcs = sorted(args.prefix.glob("*/pkgconfig/memkit.pc")) + \
        sorted(args.prefix.glob("*/*/pkgconfig/memkit.pc"))
    if not pcs:
        print(f"FAIL no memkit.pc under {args.prefix}", file=sys.stderr)
        return 1

    def consume(work: Path) -> int:
        project = work / "project"
        shutil.copytree(args.source / "examples" / "project", project)
        crate = work / "consumer"
        write_crate(crate, args.source, str(pcs[0].parent))
        check_build(args, crate, project, static=False)
        check_build(args, crate, project, static=True)
        check_missing(args, work / "missing")
        return 0

    return in_temporary_folder("rust_consumer", args.keep, consume)


if __name__ == "__main__":
    sys.exit(main())
