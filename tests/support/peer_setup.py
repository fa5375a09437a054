"""The start-up steps the differential peer scripts (tests/differential/*_peer.py) share: the case
selector, the checks that skip a run when its peer or faketime is absent, the memkit CLI check and
the MEMKIT_DIFF_* options. Each step prints its own message, so the scripts say the same thing the
same way; a script keeps only what is its own (the peer's name and where to get it, why the clock
must be pinned).

A script describes its peer once, as a module constant, and starts with

    ready = peer_setup.start(memkit_arg, PEER)   # PEER = peer_setup.Peer(...)
    if isinstance(ready, int):
        return ready                              # SKIP (77) or 2, the message already printed

Standard library only; the scripts import it the way the unit differential tests import
differential_wire.py (tests/support put on sys.path)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import NamedTuple

SKIP = 77  # the exit code ctest reads as "skipped" (SKIP_RETURN_CODE in tests/corpus)


def seeds(selector: str | None, default_cases: int, base_seed: int,
          allow_at_seed: bool = True) -> list[int] | None:
    """The seeds a `CASES | @SEED` selector names: a positive number N gives base_seed ..
    base_seed+N-1 (so case index i has seed base_seed+i), `@S` the one seed S (to rerun a failed
    case), None default_cases cases. Anything else prints a usage message to stderr and gives
    None: the caller exits 2."""
    if selector is None:
        selector = str(default_cases)
    if selector.isdigit() and int(selector) > 0:
        return [base_seed + i for i in range(int(selector))]
    if allow_at_seed and selector.startswith("@") and selector[1:].isdigit():
        return [int(selector[1:])]
    wanted = "a positive number or @SEED" if allow_at_seed else "a positive number"
    print(f"CASES must be {wanted}, not {selector!r}", file=sys.stderr)
    return None


def peer_path(folder: str, relative_file: str | Path, spec_section: str, what: str,
              how_to_get_it: str) -> Path | None:
    """$MEMKIT_PEERS_DIR/folder/relative_file, the file that shows the peer is there (its script or
    wrapper). When MEMKIT_PEERS_DIR is unset or empty, or the file is missing, prints a SKIP line
    and gives None: the caller exits SKIP. spec_section names where the spec describes the peer
    (for example "peers.md §2, §2.5"), what the peer in the missing-file message ("aging
    script"), how_to_get_it the step that puts it there ("check out o/n at C there")."""
    shown = f"{folder}/{Path(relative_file).as_posix()}"
    peers_dir = os.environ.get("MEMKIT_PEERS_DIR", "")
    if not peers_dir:
        print(f"SKIP: MEMKIT_PEERS_DIR is unset or empty; set it to the folder holding {shown} "
              f"(spec {spec_section}) to run this differential test")
        return None
    path = Path(peers_dir) / folder / relative_file
    if not path.is_file():
        print(f"SKIP: no {what} at MEMKIT_PEERS_DIR/{shown} ({path}); {how_to_get_it} to run this "
              "differential test")
        return None
    return path


def faketime(why: str) -> str | None:
    """The faketime program, for a peer whose clock must be pinned. When it is not installed,
    prints a SKIP line saying why the peer needs it and gives None: the caller exits SKIP."""
    found = shutil.which("faketime")
    if not found:
        print(f"SKIP: faketime is not installed; {why} (apt-get install -y faketime)")
    return found


def memkit_cli(path: str) -> str | None:
    """path made absolute when it is an executable file; otherwise prints a FAIL line to stderr
    and gives None: the caller exits 2 (a usage error, not a difference)."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        print(f"FAIL: {path} is not an executable memkit CLI", file=sys.stderr)
        return None
    return os.path.abspath(path)


class Peer(NamedTuple):
    """What a script says about its peer, for peer_path() and faketime()."""
    folder: str              # the checkout under MEMKIT_PEERS_DIR, named owner+name
    relative_file: Path      # the file in it that shows the peer is there (script or wrapper)
    spec_section: str        # where the spec describes the peer, e.g. "peers.md §2, §2.5"
    what: str                # the peer in the missing-file message, e.g. "aging script"
    how_to_get_it: str       # the step that puts it there, e.g. "check out o/n at C there"
    clock_why: str | None    # why the peer's clock must be pinned; None when the script can run
                             # without faketime (compact_peer.py looks for it itself)


class Started(NamedTuple):
    memkit: str             # the CLI, absolute
    peer_file: Path         # $MEMKIT_PEERS_DIR/folder/relative_file
    faketime: str | None    # found when the peer needs it; None when Peer.clock_why is None


def start(memkit_arg: str, peer: Peer) -> Started | int:
    """The checks every peer script makes before its first case, in this order and each printing
    its own message: the peer (SKIP), faketime when the peer needs it (SKIP), the memkit CLI (2).
    Gives the exit code of the first that fails, else what they found."""
    peer_file = peer_path(peer.folder, peer.relative_file, peer.spec_section, peer.what,
                          peer.how_to_get_it)
    if peer_file is None:
        return SKIP
    found = None
    if peer.clock_why is not None:
        found = faketime(peer.clock_why)
        if found is None:
            return SKIP
    memkit = memkit_cli(memkit_arg)
    if memkit is None:
        return 2
    return Started(memkit, peer_file, found)


class RunOptions(NamedTuple):
    jobs: int      # MEMKIT_DIFF_JOBS: cases run at once (default: the number of CPUs)
    keep: bool     # MEMKIT_DIFF_KEEP: keep every case's directory (a failed one is always kept)
    verbose: bool  # MEMKIT_DIFF_VERBOSE: a line for every case, not only the failed ones


def run_options() -> RunOptions:
    """MEMKIT_DIFF_JOBS, MEMKIT_DIFF_KEEP and MEMKIT_DIFF_VERBOSE; an empty value is unset."""
    jobs = int(os.environ.get("MEMKIT_DIFF_JOBS", "0") or 0) or (os.cpu_count() or 2)
    return RunOptions(jobs, bool(os.environ.get("MEMKIT_DIFF_KEEP")),
                      bool(os.environ.get("MEMKIT_DIFF_VERBOSE")))
