#!/usr/bin/env bash
# compact_vs_peer.sh [--json FILE] [SIZE_MIB...]: whole-command times and peak memory of inbox
# compaction, `memkit custodian compact` beside the MemoryCustodian v0.9.1 peer's `compact`, on
# generated inboxes of 1, 10 and 100 MiB (default) on this machine.
#
# For each size the same generated tree is copied to each side. Timed, each the median of RUNS
# runs (stdout discarded, no shell in between, page cache warm):
#   - memkit dry run, text output:  memkit custodian compact --project-root P --now T
#   - memkit dry run, JSON output:  ... --format json
#   - peer dry run:                 peer/bin/memory-custodian compact --project-root P
#   - memkit apply on a fresh copy: ... --apply --confirm-plan ID --now T (ID from an untimed dry run)
#   - peer apply on a fresh copy:   peer/bin/memory-custodian compact --project-root P --apply
# Every run goes through /usr/bin/time -v, whose "Maximum resident set size" is the peak RSS
# printed (the largest of the runs); wall time is python3 time.perf_counter around it.
#
# The inbox (a deterministic python3 generator, below): dated `## ` sections of one-line bullet
# units, about 10% with indented continuation lines or nested bullets, about 5% exact duplicates
# of an earlier unit (other case, other marker, trailing spaces), about 0.5% exact matches of a
# tombstone in do-not-use.md (H2 `## Tombstone: X` titles and bullets). LF only, shapes both
# programs read alike (compaction.md §19). No changelog.md, so both write inbox.md only.
#
# With INBOX=changelogs the inbox is made of real text instead (issue 31): the bullet items of
# every changelog under CORPORA (default ../shared/corpora beside the repository; keepachangelog's,
# the AWS SDK's and others, licences in its SOURCES.md), each with its continuation lines, in
# rounds until the size is reached, each round's first lines marked " (rN)" so that a round does
# not repeat the last; about 5% of the items are then exact duplicates of an earlier one.
#
# Environment:
#   INBOX      generated (default) or changelogs
#   CORPORA    where INBOX=changelogs finds the changelogs
#   BUILD_DIR  the memkit build (default: build/ in the repository); its src/cli/memkit is used
#   PEER       the peer checkout (default: $MEMKIT_PEERS_DIR/waittim+MemoryCustodian)
#   RUNS       timed runs per command (default 3)
#   SKIP_PEER  set to 1 to time memkit alone (the peer's 100 MiB runs take minutes)
#
# --json FILE also writes every row (seconds, KiB) and the machine to FILE, for
# bench/scripts/benchmarks_md.py.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${BUILD_DIR:-$repo/build}" && pwd)
memkit=$build/src/cli/memkit
runs=${RUNS:-3}
json_out=
sizes=()
while [[ $# -gt 0 ]]; do
  if [[ $1 == --json ]]; then
    [[ $# -ge 2 ]] || { echo "compact_vs_peer.sh: --json needs a FILE" >&2; exit 2; }
    json_out=$2
    shift 2
  else
    sizes+=("$1")
    shift
  fi
done
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1 10 100)
now=2026-03-07T14:05:09+00:00

if [[ ! -x $memkit ]]; then
  echo "compact_vs_peer.sh: $memkit is missing; build the memkit_cli target in $build" >&2
  exit 2
fi
peer=${PEER:-}
if [[ -z $peer && -n ${MEMKIT_PEERS_DIR:-} ]]; then
  peer=$MEMKIT_PEERS_DIR/waittim+MemoryCustodian
fi
if [[ ${SKIP_PEER:-0} != 1 ]]; then
  if [[ -z $peer || ! -x $peer/bin/memory-custodian ]]; then
    echo "compact_vs_peer.sh: no peer: set PEER, or MEMKIT_PEERS_DIR to the folder holding" \
         "waittim+MemoryCustodian/ (spec peers.md §2), or SKIP_PEER=1" >&2
    exit 2
  fi
  peer=$(cd "$peer" && pwd)
fi
if [[ ! -x /usr/bin/time ]]; then
  echo "compact_vs_peer.sh: /usr/bin/time is missing (apt-get install time)" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/memkit-compact-vs-peer.XXXXXX")
trap 'rm -rf "$work"' EXIT
figures=$work/figures.tsv  # size, key, value... lines for --json
: > "$figures"
# The peer's bytecode is cached here, never in its checkout; one untimed call compiles it.
export PYTHONPYCACHEPREFIX=$work/pycache
if [[ ${SKIP_PEER:-0} != 1 ]]; then
  "$peer/bin/memory-custodian" --version > /dev/null
fi

inbox_kind=${INBOX:-generated}
corpora=${CORPORA:-$repo/../shared/corpora}
if [[ $inbox_kind == changelogs && ! -d $corpora ]]; then
  echo "compact_vs_peer.sh: INBOX=changelogs needs the corpora: $corpora is missing (CORPORA)" >&2
  exit 2
fi

# gen_tree DIR MIB: a project root with docs/memory/{manifest,do-not-use,inbox}.md.
gen_tree() {
  python3 - "$1" "$2" "$inbox_kind" "$corpora" << 'PY'
import glob, os, random, re, sys
from pathlib import Path

root, mib, kind, corpora = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
memory = root / "docs" / "memory"
memory.mkdir(parents=True)
# The peer's protocol section (0.5): memkit reads it too.
(memory / "manifest.md").write_text(
    "# Memory Manifest\n\n## MemoryCustodian Protocol\n- protocol_version: 0.5\n\n"
    "## Always load\n- brief.md\n", encoding="utf-8")
rng = random.Random(20260307 + mib)
words = ["memory", "agent", "context", "budget", "tabs", "config", "deploy", "cache", "index",
         "review", "Kafka", "build", "café", "Straße", "記住", "x_y-z", "v0.9.1", "schema"]
tomb_titles = [f"{rng.choice(words)} {rng.choice(words)} legacy {i}" for i in range(40)]
tomb_bullets = [f"{rng.choice(words)} {rng.choice(words)} rejected {i}" for i in range(40)]
dnu = ["# Do Not Use / Tombstones", "", "Tombstones are newest first.", ""]
for title in tomb_titles:
    dnu += [f"## Tombstone: {title}", "Do not reintroduce. Reason: measured.", ""]
dnu += ["## Rejected paths"] + [f"- {b}" for b in tomb_bullets]
(memory / "do-not-use.md").write_text("\n".join(dnu) + "\n", encoding="utf-8")

def variant(lines):
    first = lines[0][2:]
    first = rng.choice([first.upper(), first.lower(), first.title(), first])
    return [rng.choice("-*+") + " " + first + rng.choice(["", "  ", "\t"])] + lines[1:]

def changelog_items():
    """Every bullet item of the changelogs under `corpora`, with its continuation lines."""
    items = []
    for path in sorted(glob.glob(os.path.join(corpora, "**", "*.md"), recursive=True)):
        if "changelog" not in path.lower():
            continue
        item = None
        for line in open(path, encoding="utf-8", errors="replace").read().split("\n"):
            if re.match(r"^[-*+] \S", line):
                if item:
                    items.append(item)
                item = ["- " + line[2:].rstrip()]
            elif item is not None and line[:1] in (" ", "\t") and line.strip():
                item.append(line.rstrip())
            elif item is not None:
                items.append(item)
                item = None
        if item:
            items.append(item)
    return items

limit = mib * 1024 * 1024
out = ["# Memory Inbox", "", "Entries are newest first.", ""]
if kind == "changelogs":
    items, size, seen, rounds = changelog_items(), 0, [], 0
    while size < limit:
        for item in items:
            if size >= limit:
                break
            block = item if rounds == 0 else [item[0] + f" (r{rounds})"] + item[1:]
            if seen and rng.random() < 0.05:
                block = variant(rng.choice(seen))  # an exact duplicate of an earlier item
            else:
                seen.append(block)
            out += block
            size += sum(len(l.encode()) + 1 for l in block)
        rounds += 1
    (memory / "inbox.md").write_text("\n".join(out) + "\n", encoding="utf-8")
    sys.exit(0)
size = sum(len(l.encode()) + 1 for l in out)
units, day, n = [], 0, 0
while size < limit:
    block = []
    if rng.random() < 0.02:
        block = ["", f"## 2026-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}"]
        day += 1
    r = rng.random()
    if r < 0.05 and units:
        block += variant(rng.choice(units))                 # exact duplicate
    elif r < 0.0525:
        block += [f"- {rng.choice(tomb_titles).upper()}"]   # H2 tombstone match
    elif r < 0.055:
        block += [f"* {rng.choice(tomb_bullets)}  "]        # bullet tombstone match
    else:
        unit = ["- " + " ".join(rng.choice(words) for _ in range(rng.randint(4, 13))) + f" {n}"]
        n += 1
        k = rng.random()
        if k < 0.05:
            unit += [f"  - nested {rng.choice(words)} {rng.choice(words)}"]
        elif k < 0.10:
            unit += [f"  continuation {rng.choice(words)}", f"    - deeper {rng.choice(words)}"]
        units.append(unit)
        block += unit
    out += block
    size += sum(len(l.encode()) + 1 for l in block)
# End on a non-blank line without trailing whitespace (the peer re-renders otherwise, §19 row 14).
out[-1] = out[-1].rstrip()
(memory / "inbox.md").write_text("\n".join(out) + "\n", encoding="utf-8")
PY
}

# measure NAME FRESH_FROM DIR -- COMMAND...: RUNS runs; prints "median_seconds max_rss_kib".
# With FRESH_FROM (a tree), DIR is replaced by a fresh copy of it before every run (untimed).
measure() {
  python3 - "$runs" "$@" << 'PY'
import re, shutil, statistics, subprocess, sys, time
runs, fresh, target = int(sys.argv[1]), sys.argv[2], sys.argv[3]
command = sys.argv[sys.argv.index("--") + 1:]
times, peaks = [], []
for _ in range(runs):
    if fresh != "-":
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(fresh, target)
        subprocess.run(["cat", f"{target}/docs/memory/inbox.md"], stdout=subprocess.DEVNULL)
    log = target + ".time"
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", "-o", log, *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    times.append(time.perf_counter() - start)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr.decode()[-2000:]}")
    peaks.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                               open(log).read()).group(1)))
print(f"{statistics.median(times):.3f} {max(peaks)}")
PY
}

plan_id() {  # plan_id ROOT: the Plan ID of memkit's dry run (untimed)
  "$memkit" custodian compact --project-root "$1" --now "$now" | sed -n 's/^Plan ID: //p'
}

cpu_model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2> /dev/null || true)
echo "machine: ${cpu_model:-unknown CPU}, nproc $(nproc), $(uname -sr)," \
     "$(awk '/MemTotal/ {printf "%.1f GiB RAM", $2 / 1048576}' /proc/meminfo)"
echo "memkit:  $memkit (${build_type:-unknown build type})"
if [[ ${SKIP_PEER:-0} != 1 ]]; then
  echo "peer:    $peer (MemoryCustodian v0.9.1, $(python3 --version))"
fi
echo "inbox:   $inbox_kind"
echo "timing:  median of $runs runs (python3 time.perf_counter around /usr/bin/time -v);" \
     "peak RSS = largest \"Maximum resident set size\" of those runs; stdout to /dev/null"
echo

row() { printf '%-8s %-34s %10s %12s %9s\n' "$@"; }
row "inbox" "command" "median s" "peak RSS MiB" "speed-up"
for mib in "${sizes[@]}"; do
  base=$work/base-$mib
  gen_tree "$base" "$mib"
  bytes=$(stat -c %s "$base/docs/memory/inbox.md")
  cp -a "$base" "$work/mk-$mib"
  cat "$base/docs/memory/inbox.md" > /dev/null
  label="${mib} MiB"
  mib_of() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

  read -r mk_text mk_text_rss < <(measure - "$work/mk-$mib" -- \
    "$memkit" custodian compact --project-root "$work/mk-$mib" --now "$now")
  read -r mk_json mk_json_rss < <(measure - "$work/mk-$mib" -- \
    "$memkit" custodian compact --project-root "$work/mk-$mib" --format json --now "$now")
  id=$(plan_id "$work/mk-$mib")
  read -r mk_apply mk_apply_rss < <(measure "$base" "$work/mk-apply-$mib" -- \
    "$memkit" custodian compact --project-root "$work/mk-apply-$mib" --apply \
    --confirm-plan "$id" --now "$now")
  if [[ ${SKIP_PEER:-0} != 1 ]]; then
    cp -a "$base" "$work/peer-$mib"
    read -r pe_dry pe_dry_rss < <(measure - "$work/peer-$mib" -- \
      "$peer/bin/memory-custodian" compact --project-root "$work/peer-$mib")
    read -r pe_apply pe_apply_rss < <(measure "$base" "$work/peer-apply-$mib" -- \
      "$peer/bin/memory-custodian" compact --project-root "$work/peer-apply-$mib" --apply)
  fi
  speedup() { [[ -n ${2:-} ]] && awk -v p="$2" -v m="$1" 'BEGIN { printf "%.1fx", p / m }' || echo "-"; }
  counts=$("$memkit" custodian compact --project-root "$work/mk-$mib" --now "$now" |
    grep -E '^(Inbox items|Exact)' | tr '\n' ';' | sed 's/;$//')
  echo "# $label: inbox.md $bytes bytes; $counts"
  {
    printf '%s\tinbox\t%s\t%s\n' "$mib" "$bytes" "$counts"
    printf '%s\tmemkit_dry_text\t%s\t%s\n' "$mib" "$mk_text" "$mk_text_rss"
    printf '%s\tmemkit_dry_json\t%s\t%s\n' "$mib" "$mk_json" "$mk_json_rss"
    printf '%s\tmemkit_apply\t%s\t%s\n' "$mib" "$mk_apply" "$mk_apply_rss"
    if [[ ${SKIP_PEER:-0} != 1 ]]; then
      printf '%s\tpeer_dry\t%s\t%s\n' "$mib" "$pe_dry" "$pe_dry_rss"
      printf '%s\tpeer_apply\t%s\t%s\n' "$mib" "$pe_apply" "$pe_apply_rss"
    fi
  } >> "$figures"
  row "$label" "memkit dry run (text)" "$mk_text" "$(mib_of "$mk_text_rss")" \
    "$(speedup "$mk_text" "${pe_dry:-}")"
  row "$label" "memkit dry run (--format json)" "$mk_json" "$(mib_of "$mk_json_rss")" \
    "$(speedup "$mk_json" "${pe_dry:-}")"
  if [[ ${SKIP_PEER:-0} != 1 ]]; then
    row "$label" "peer dry run" "$pe_dry" "$(mib_of "$pe_dry_rss")" "1.0x"
  fi
  row "$label" "memkit --apply --confirm-plan" "$mk_apply" "$(mib_of "$mk_apply_rss")" \
    "$(speedup "$mk_apply" "${pe_apply:-}")"
  if [[ ${SKIP_PEER:-0} != 1 ]]; then
    row "$label" "peer --apply" "$pe_apply" "$(mib_of "$pe_apply_rss")" "1.0x"
  fi
  ratio() { awk -v k="$1" -v b="$bytes" 'BEGIN { printf "%.2f", k * 1024 / b }'; }
  echo "# peak RSS / inbox size: dry run (text) $(ratio "$mk_text_rss"), (json)" \
       "$(ratio "$mk_json_rss"), apply $(ratio "$mk_apply_rss")"
  rm -rf "$base" "$work"/*-"$mib" "$work"/*-"$mib".time
done
echo
echo "speed-up = peer median / memkit median for the same mode (dry run or apply)."

if [[ -n $json_out ]]; then
  peer_version=
  if [[ ${SKIP_PEER:-0} != 1 ]]; then
    peer_version=$("$peer/bin/memory-custodian" --version 2>&1 | head -n 1)
  fi
  python3 - "$figures" "$json_out" "$inbox_kind" "$runs" "$peer_version" "$build_type" \
    "${cpu_model:-unknown CPU}" << 'PY'
import json, re, sys
figures, out, inbox, runs, peer_version, build_type, cpu = sys.argv[1:8]
sizes = {}
for line in open(figures, encoding="utf-8"):
    mib, key, *values = line.rstrip("\n").split("\t")
    size = sizes.setdefault(mib, {"mib": int(mib), "commands": {}})
    if key == "inbox":
        size["bytes"] = int(values[0])
        counts = dict(part.split(": ", 1) for part in values[1].split(";") if ": " in part)
        size["items"] = int(counts.get("Inbox items", 0))
        size["duplicates"] = int(counts.get("Exact duplicates removable", 0))
        size["tombstone_matches"] = int(counts.get("Exact tombstone matches removable", 0))
    else:
        size["commands"][key] = {"median_s": float(values[0]), "peak_rss_kib": int(values[1])}
with open(out, "w", encoding="utf-8") as f:
    json.dump({"inbox": inbox, "runs": int(runs), "peer": peer_version or None,
               "build_type": build_type, "cpu": cpu, "sizes": list(sizes.values())}, f, indent=1)
    f.write("\n")
PY
fi
