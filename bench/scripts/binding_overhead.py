#!/usr/bin/env python3
"""Binding overhead (issue 27): the same command called in a loop through the C ABI and through
each binding, in one process each, on the same workspace and clock.

Usage: binding_overhead.py BUILD_DIR [--calls N] [--mib M] [--rounds R] [--json FILE]

Two workloads: `custodian status` on a copy of examples/project (small: the overhead per call,
goal < 50 µs) and a `custodian compact` dry run on an inbox of M MiB (goal: overhead < 2 % of the
call). The C figure comes from bench/scripts/capi_calls.c, compiled here against BUILD_DIR's
libmemkit; Python and Node run their binding from this tree; Rust runs its `call_overhead`
example (`cargo run --release --offline`). Each figure is the median of R rounds of mean
microseconds per call. --json FILE also writes the rows to FILE, for bench/scripts/benchmarks_md.py.
Standard library only; needs cc, node and cargo on PATH.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from command_timing import machine_lines

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-30T10:00:00+00:00"

# Each door prints two figures: its raw layer's loop (the generated mk_* calls alone, in the same
# process) and its idiomatic layer's. The first minus the C program's is what running inside the
# host process costs the C code; the second minus the first is the binding's own code.
PYTHON = """
import ctypes, statistics, sys, time, memkit
from memkit import _capi as C
root, verb, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
now = memkit.Clock.parse("%s")

def raw_loop(ws, n):
    clock, handle, word = now._to_c(), ws._use_unlocked(), verb.encode()
    for _ in range(n):
        req, out = ctypes.POINTER(C.mk_request)(), ctypes.POINTER(C.mk_result)()
        C.mk_request_create(ctypes.byref(req), b"custodian", word)
        C.mk_workspace_run(ctypes.byref(out), handle, ctypes.byref(clock), req)
        C.mk_result_plan_id(out)
        C.mk_result_destroy(out)
        C.mk_request_destroy(req)

def binding_loop(ws, n):
    for _ in range(n):
        with ws.run(now, "custodian", verb) as result:
            result.plan_id

def per_call(loop, ws, n):
    start = time.perf_counter()
    loop(ws, n)
    return (time.perf_counter() - start) / n * 1e6

with memkit.Workspace.open(root) as ws:
    per_call(raw_loop, ws, 1), per_call(binding_loop, ws, 1)  # warm both paths first
    rounds = [(per_call(raw_loop, ws, count), per_call(binding_loop, ws, count)) for _ in range(3)]
    print("%%.1f %%.1f" %% tuple(statistics.median(c) for c in zip(*rounds)))
""" % NOW

NODE = """
const memkit = require(process.argv[1]);
const C = require(process.argv[1] + '/lib/capi.js');
const [root, verb, count] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const clock = {}, handle = [null];
C.mk_clock_parse(clock, '%s');
C.mk_workspace_open(handle, root, null);
const now = memkit.parseClock('%s');
const ws = memkit.Workspace.open(root);
const rawLoop = (n) => {
  for (let i = 0; i < n; i++) {
    const req = [null], out = [null];
    C.mk_request_create(req, 'custodian', verb);
    C.mk_workspace_run(out, handle[0], clock, req[0]);
    C.mk_result_plan_id(out[0]);
    C.mk_result_destroy(out[0]);
    C.mk_request_destroy(req[0]);
  }
};
const bindingLoop = (n) => {
  for (let i = 0; i < n; i++) { const r = ws.run(now, 'custodian', verb); r.planId; r.close(); }
};
const perCall = (loop, n) => {
  const start = process.hrtime.bigint();
  loop(n);
  return Number(process.hrtime.bigint() - start) / 1e3 / n;
};
perCall(rawLoop, 1), perCall(bindingLoop, 1); // warm both paths first
const rounds = [0, 1, 2].map(() => [perCall(rawLoop, count), perCall(bindingLoop, count)]);
const median = (k) => rounds.map((r) => r[k]).sort((a, b) => a - b)[1];
console.log(median(0).toFixed(1) + ' ' + median(1).toFixed(1));
ws.close();
C.mk_workspace_destroy(handle[0]);
""" % (NOW, NOW)


def inbox_project(folder, mib):
    """A custodian project whose inbox holds about `mib` MiB of bullets, one in ten repeated."""
    memory = folder / "docs" / "memory"
    shutil.copytree(REPO / "examples" / "project", folder, dirs_exist_ok=True)
    lines, size, n = ["# Memory Inbox\n\n"], 0, 0
    while size < mib << 20:
        line = f"- note {n % 9 if n % 10 == 9 else n}: keep the staging URL in the runbook\n"
        lines.append(line)
        size += len(line)
        n += 1
    (memory / "inbox.md").write_text("".join(lines), encoding="utf-8")


def timed(argv, env, rounds):
    """The median over `rounds` runs of each figure the program prints (microseconds per call)."""
    runs = []
    for _ in range(rounds):
        done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=REPO)
        if done.returncode != 0:
            raise SystemExit(f"{argv[0]}: {done.stderr.strip()}")
        runs.append([float(f) for f in done.stdout.split()])
    return [statistics.median(column) for column in zip(*runs)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--mib", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    rows = []
    build = args.build_dir.resolve()
    library = (build / "capi" / "libmemkit.so").resolve()  # the build's own, not a stale one
    env = dict(os.environ, MEMKIT_LIBRARY=str(library), MEMKIT_LIB_DIR=str(build / "capi"),
               LD_LIBRARY_PATH=str(build / "capi"), PYTHONPATH=str(REPO / "bindings" / "python"),
               PYTHONDONTWRITEBYTECODE="1")
    machine = machine_lines(str(build / "src" / "cli" / "memkit"), NOW)[:-1]
    for line in machine:
        print(line)
    print(f"timing:  mean wall time per call inside one process, median of {args.rounds} rounds")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        capi = tmp / "capi_calls"
        subprocess.run(["cc", "-O2", "-std=c11", "-I", str(REPO / "capi"),
                        str(REPO / "bench" / "scripts" / "capi_calls.c"), "-o", str(capi),
                        "-L", str(build / "capi"), "-lmemkit",
                        "-Wl,-rpath," + str(build / "capi")], check=True)
        rust = subprocess.run(["cargo", "build", "--release", "--offline", "--quiet",
                               "--example", "call_overhead", "--manifest-path",
                               str(REPO / "bindings" / "rust" / "Cargo.toml")],
                              env=dict(env, CARGO_TARGET_DIR=str(tmp / "rust")))
        rust_example = tmp / "rust" / "release" / "examples" / "call_overhead"
        small, large = tmp / "small", tmp / "large"
        shutil.copytree(REPO / "examples" / "project", small)
        inbox_project(large, args.mib)
        print("\n| workload | calls | C program | door | raw layer | binding | binding's code |")
        print("|---|---|---|---|---|---|---|")
        for key, name, root, verb, calls in (("status", "custodian status, examples/project",
                                              small, "status", args.calls),
                                             ("compact", f"custodian compact, {args.mib} MiB inbox",
                                              large, "compact", max(3, args.calls // 200))):
            c = timed([str(capi), str(root), "custodian", "custodian", verb, str(calls)], env,
                      args.rounds)[0]
            doors = [("Python", [sys.executable, "-c", PYTHON, str(root), verb, str(calls)]),
                     ("Node", ["node", "-e", NODE, str(REPO / "bindings" / "node"), str(root),
                               verb, str(calls)])]
            if rust.returncode == 0:  # Rust has no raw loop of its own: its binding is the figure
                doors.append(("Rust", [str(rust_example), str(root), verb, str(calls)]))
            for door, argv in doors:
                figures = timed(argv, env, args.rounds)
                raw, binding = (c, figures[0]) if len(figures) == 1 else figures
                print(f"| {name} | {calls} | {c:.1f} µs | {door} | {raw:.1f} µs "
                      f"| {binding:.1f} µs "
                      f"| {binding - raw:+.1f} µs ({(binding - raw) / raw * 100:+.1f} %) |")
                rows.append({"workload": key, "label": name, "calls": calls, "door": door,
                             "c_us": c, "raw_us": raw, "binding_us": binding,
                             "raw_layer": len(figures) > 1})
    if args.json:
        versions = {"python": sys.version.split()[0],
                    "node": subprocess.run(["node", "--version"], capture_output=True,
                                           text=True).stdout.strip()}
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(json.dumps({"now": NOW, "machine": machine, "rounds": args.rounds,
                                "mib": args.mib, "versions": versions, "rows": rows},
                               indent=1, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    main()
