#!/usr/bin/env python3
"""The README's quick-start output is what `memkit` prints today: every fenced block in README.md
that starts with `$ memkit ...` is run from the repository root and compared byte for byte.

usage: check_readme_demo.py SOURCE_DIR MEMKIT_BINARY
"""
import os
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"```\n\$ memkit (.*?)\n(.*?)```", re.S)


def main():
    root, binary = sys.argv[1], sys.argv[2]
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    blocks = BLOCK.findall(readme)
    failures = 0
    env = dict(os.environ, NO_COLOR="1")
    env.pop("MEMKIT_NOW", None)
    for command, expected in blocks:
        done = subprocess.run([binary] + shlex.split(command), cwd=root, capture_output=True,
                              env=env)
        if done.stdout.decode("utf-8") != expected:
            failures += 1
            print("README block differs: memkit %s\n--- README\n%s--- memkit\n%s" % (
                command, expected, done.stdout.decode("utf-8", "replace")))
    print("%d passed, %d failed" % (len(blocks) - failures, failures))
    return 1 if failures or not blocks else 0


if __name__ == "__main__":
    sys.exit(main())
