#!/usr/bin/env python3
"""Runs CLI golden cases: the real `memkit` binary, stdout and exit code compared byte for byte.

A case is a folder tests/cli/cases/<name>/ holding:
  args             the arguments, one per line (required); @CWD@ stands for the absolute path of
                   the working directory, to prove that output never shows it
  pre_args         optional: one earlier invocation, run first in the same folder; its output is
                   not compared (for example `custodian init` before `custodian status`)
  setup/           optional: a tree copied (symbolic links kept) into a fresh temporary folder,
                   which is the working directory of every invocation
  expected_stdout  the exact stdout bytes (required)
  expected_exit    the exit code, as decimal text (required)
  expected_stderr  optional: the exact stderr bytes
  expected_tree    optional: every path under the working directory after the run, one per line,
                   sorted; directories end in "/"
  expected_files/  optional: files that must hold exactly these bytes after the run

The environment is fixed: MEMKIT_NOW is unset (cases pass --now where dates matter), NO_COLOR is
set, and the C locale and UTC make system messages and clocks repeatable.

usage: run_cases.py MEMKIT_BINARY CASE_DIR [CASE_DIR...] [--update]
  --update rewrites expected_stdout, expected_exit (and expected_stderr, expected_tree when they
  exist) from the actual run. Check every change against the spec before keeping it.
"""

import difflib
import os
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_SECONDS = 20


def read_args(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def case_environment():
    env = dict(os.environ)
    env.pop("MEMKIT_NOW", None)
    env["NO_COLOR"] = "1"
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    env["TZ"] = "UTC"
    return env


def list_tree(root):
    entries = []
    for here, dirs, files in os.walk(root):
        dirs.sort()
        rel_here = os.path.relpath(here, root)
        for d in dirs:
            rel = os.path.normpath(os.path.join(rel_here, d)).replace(os.sep, "/")
            full = os.path.join(here, d)
            entries.append(rel + ("@" if os.path.islink(full) else "/"))
        for name in files:
            rel = os.path.normpath(os.path.join(rel_here, name)).replace(os.sep, "/")
            full = os.path.join(here, name)
            entries.append(rel + ("@" if os.path.islink(full) else ""))
    return sorted(entries)


def show_bytes(data):
    return data.decode("utf-8", "backslashreplace").splitlines(keepends=True)


def diff(label, expected, actual):
    lines = difflib.unified_diff(show_bytes(expected), show_bytes(actual),
                                 "expected " + label, "actual " + label)
    text = "".join(lines)
    if not text.endswith("\n"):
        text += "\n"
    if expected.rstrip(b"\n") == actual.rstrip(b"\n"):
        text += "(the difference is in final newlines or invisible bytes: expected %r, got %r)\n" % (
            expected[-40:], actual[-40:])
    return text


def run(binary, args, cwd, env):
    args = [a.replace("@CWD@", cwd) for a in args]
    return subprocess.run([binary] + args, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_SECONDS,
                          check=False)


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def run_case(binary, case_dir, update):
    name = os.path.basename(os.path.normpath(case_dir))
    failures = []
    env = case_environment()
    work = tempfile.mkdtemp(prefix="memkit-cli-" + name + "-")
    try:
        setup = os.path.join(case_dir, "setup")
        if os.path.isdir(setup):
            shutil.copytree(setup, work, symlinks=True, dirs_exist_ok=True)
        pre = os.path.join(case_dir, "pre_args")
        if os.path.exists(pre):
            done = run(binary, read_args(pre), work, env)
            if done.returncode not in (0, 1):
                failures.append("pre_args exited %d: %s" % (done.returncode,
                                                            done.stderr.decode("utf-8", "replace")))
        result = run(binary, read_args(os.path.join(case_dir, "args")), work, env)

        expected_stdout_path = os.path.join(case_dir, "expected_stdout")
        expected_exit_path = os.path.join(case_dir, "expected_exit")
        expected_stderr_path = os.path.join(case_dir, "expected_stderr")
        expected_tree_path = os.path.join(case_dir, "expected_tree")
        tree = ("\n".join(list_tree(work)) + "\n").encode("utf-8")
        if update:
            write_bytes(expected_stdout_path, result.stdout)
            write_bytes(expected_exit_path, b"%d\n" % result.returncode)
            if os.path.exists(expected_stderr_path):
                write_bytes(expected_stderr_path, result.stderr)
            if os.path.exists(expected_tree_path):
                write_bytes(expected_tree_path, tree)
            print("updated %s (exit %d)" % (name, result.returncode))
            return True

        with open(expected_exit_path, "rb") as f:
            expected_exit = int(f.read().decode("ascii").strip())
        if result.returncode != expected_exit:
            failures.append("exit code: expected %d, got %d" % (expected_exit, result.returncode))
        with open(expected_stdout_path, "rb") as f:
            expected_stdout = f.read()
        if result.stdout != expected_stdout:
            failures.append("stdout differs:\n" + diff("stdout", expected_stdout, result.stdout))
        if os.path.exists(expected_stderr_path):
            with open(expected_stderr_path, "rb") as f:
                expected_stderr = f.read()
            if result.stderr != expected_stderr:
                failures.append("stderr differs:\n" + diff("stderr", expected_stderr,
                                                           result.stderr))
        if os.path.exists(expected_tree_path):
            with open(expected_tree_path, "rb") as f:
                expected_tree = f.read()
            if tree != expected_tree:
                failures.append("tree differs:\n" + diff("tree", expected_tree, tree))
        expected_files = os.path.join(case_dir, "expected_files")
        if os.path.isdir(expected_files):
            for here, _, files in os.walk(expected_files):
                for file_name in sorted(files):
                    want_path = os.path.join(here, file_name)
                    rel = os.path.relpath(want_path, expected_files)
                    got_path = os.path.join(work, rel)
                    with open(want_path, "rb") as f:
                        want = f.read()
                    if not os.path.isfile(got_path):
                        failures.append("%s: missing after the run" % rel)
                        continue
                    with open(got_path, "rb") as f:
                        got = f.read()
                    if got != want:
                        failures.append("%s differs:\n%s" % (rel, diff(rel, want, got)))
        if failures and result.stderr:
            failures.append("stderr was:\n" + result.stderr.decode("utf-8", "replace"))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    if failures:
        print("FAIL %s: memkit %s" % (name, " ".join(read_args(os.path.join(case_dir, "args")))))
        for failure in failures:
            print(failure)
        return False
    print("ok %s" % name)
    return True


def main(argv):
    update = "--update" in argv
    rest = [a for a in argv[1:] if a != "--update"]
    if len(rest) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(rest[0])
    ran = failed = 0
    for case_dir in rest[1:]:
        if not os.path.isfile(os.path.join(case_dir, "args")):
            continue  # a README or other file beside the cases, as a shell glob gives them
        ran += 1
        if not run_case(binary, case_dir, update):
            failed += 1
    print("%d cases, %d failed" % (ran, failed))
    return 0 if failed == 0 and ran > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
