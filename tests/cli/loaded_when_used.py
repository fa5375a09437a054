#!/usr/bin/env python3
"""usage: loaded_when_used.py LIBRARY[,LIBRARY...] FILE...

Each FILE (the memkit CLI, libmemkit) must start without the LIBRARY prefixes given (say
`libcrypto.`, `libpq.`, `libboost_`): memkit never links Boost, and loads the others when first used, libcrypto.so.3 when SHA-256 is first
asked for (src/digest/digest.cpp), libpq.so.5 when a PostgreSQL remote first connects
(src/sync/postgres/libpq.hpp). Fails when one of them is among the libraries `ldd` says FILE loads
at start (its NEEDED ones and theirs), or when `ldd` or `readelf -d` lists none at all (then the
check itself is broken). Standard library, binutils' readelf and glibc's ldd only."""
import subprocess
import sys


def needed(path):
    out = subprocess.run(["readelf", "-d", path], check=True, capture_output=True, text=True).stdout
    return [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines()
            if "(NEEDED)" in line]


def loaded(path):
    out = subprocess.run(["ldd", path], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if "=>" in line]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prefixes = [p for p in sys.argv[1].split(",") if p]
    failed = False
    for path in sys.argv[2:]:
        direct, libraries = needed(path), loaded(path)
        unwanted = [name for name in libraries if any(name.startswith(p) for p in prefixes)]
        if not direct or not libraries or unwanted:
            print(f"FAIL {path}: loads {unwanted or libraries} at start")
            failed = True
        else:
            print(f"ok   {path}: loads {libraries} at start, none of {prefixes}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
