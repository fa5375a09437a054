#!/usr/bin/env python3
"""usage: no_libpq_needed.py FILE...

Each FILE (the memkit CLI, libmemkit) links the PostgreSQL adapter but must not need libpq to
start: the adapter loads libpq.so.5 when a remote first connects (src/sync/postgres/libpq.hpp).
Fails when `readelf -d` lists libpq among a file's NEEDED libraries, or lists none at all (then
the check itself is broken). Standard library and binutils' readelf only."""
import subprocess
import sys


def needed(path):
    out = subprocess.run(["readelf", "-d", path], check=True, capture_output=True, text=True).stdout
    return [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines()
            if "(NEEDED)" in line]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failed = False
    for path in sys.argv[1:]:
        libraries = needed(path)
        if not libraries or any(name.startswith("libpq.") for name in libraries):
            print(f"FAIL {path}: NEEDED {libraries}")
            failed = True
        else:
            print(f"ok   {path}: NEEDED {libraries}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
