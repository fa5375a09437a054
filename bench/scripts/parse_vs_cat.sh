#!/usr/bin/env bash
# parse_vs_cat.sh [--json FILE] [FLAVOUR [MIB]]: memkit's parse throughput beside what `cat` reads
# from the page cache, on one synthetic memory file, on this machine (the issue's goal: parse >=
# 1 GB/s on one core). Prints the machine, each command and its GB/s (10^9 bytes per second), the median of
# RUNS runs.
#
#   FLAVOUR   ascii, mixed_utf8 (default) or crlf; see bench/synthetic_memory.hpp
#   MIB       the file size in MiB (default 100)
#
# Environment:
#   BUILD_DIR  a build configured with -DMEMKIT_BUILD_BENCH=ON (default: build/ in the repository)
#   RUNS       timed runs per command (default 5)
#   PIN_CPU    the CPU every command is pinned to with taskset (default: the last one; "none" to
#              leave scheduling alone)
#
# --json FILE also writes the figures (seconds, bytes per second) to FILE, for
# bench/scripts/benchmarks_md.py.
#
# The file is written by write_synthetic_memory, so it holds exactly the bytes the benchmarks
# time at that flavour and size. Commands are timed with hyperfine when it is installed, else with
# median_seconds.py (python3 time.perf_counter); both spawn the command without a shell.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${BUILD_DIR:-$repo/build}" && pwd)
json_out=
positional=()
while [[ $# -gt 0 ]]; do
  if [[ $1 == --json ]]; then
    [[ $# -ge 2 ]] || { echo "parse_vs_cat.sh: --json needs a FILE" >&2; exit 2; }
    json_out=$2
    shift 2
  else
    positional+=("$1")
    shift
  fi
done
flavour=${positional[0]:-mixed_utf8}
mib=${positional[1]:-100}
runs=${RUNS:-5}

writer=$build/bench/write_synthetic_memory
bench=$build/bench/markdown_bench
cli=$build/src/cli/memkit
for tool in "$writer" "$bench"; do
  if [[ ! -x $tool ]]; then
    echo "parse_vs_cat.sh: $tool is missing; configure $build with -DMEMKIT_BUILD_BENCH=ON" \
         "and build it" >&2
    exit 2
  fi
done

pin=()
pinned="not pinned"
if [[ ${PIN_CPU:-} != none ]] && command -v taskset > /dev/null; then
  cpu=${PIN_CPU:-$(($(nproc) - 1))}
  pin=(taskset -c "$cpu")
  pinned="pinned to CPU $cpu"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/memkit-parse-vs-cat.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
file=$work/corpus/synthetic_${flavour}_${mib}mib.md
"$writer" "$flavour" "$mib" "$file"
bytes=$(stat -c %s "$file")

# Read the file twice so that every timed read below comes from memory, never from the disk.
cat "$file" > /dev/null
cat "$file" > /dev/null

# median_seconds COMMAND [ARG...]: prints the median wall time of RUNS runs, stdout discarded.
median_seconds() {
  if command -v hyperfine > /dev/null; then
    hyperfine --shell=none --warmup 1 --runs "$runs" --export-json "$work/hyperfine.json" \
      -- "$(printf '%q ' "$@")" > /dev/null
    # hyperfine 1.x exports "median"; fall back to the raw "times" if a version drops it.
    python3 -c 'import json, statistics, sys
result = json.load(open(sys.argv[1]))["results"][0]
print(result["median"] if "median" in result else statistics.median(result["times"]))' \
      "$work/hyperfine.json"
  else
    python3 "$here/median_seconds.py" "$runs" "$@"
  fi
}

gbps() {  # gbps BYTES SECONDS
  python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]) / 1e9:.2f}")' "$@"
}

# The parse benchmark reads the file through MEMKIT_CORPORA_DIR, so it parses the same bytes cat
# reads; its figure is the median of RUNS repetitions as Google Benchmark measures them.
parse_gbps() {
  MEMKIT_CORPORA_DIR=$work/corpus "${pin[@]}" "$bench" \
    --benchmark_filter='^BM_parse_markdown_corpora$' --benchmark_repetitions="$runs" \
    --benchmark_format=json --benchmark_out="$work/parse.json" > /dev/null 2>&1
  python3 - "$work/parse.json" << 'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
# With RUNS=1 there are no aggregates: the one run is the median.
median = next((r for r in runs if r.get("aggregate_name") == "median"), runs[0])
if median.get("error_occurred"):
    sys.exit("parse benchmark failed: " + median.get("error_message", "?"))
print(median['bytes_per_second'])
PY
}

cpu_model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
timer=$(command -v hyperfine > /dev/null && echo hyperfine || echo "python3 time.perf_counter")

echo "FILE:    $bytes bytes, synthetic $flavour (write_synthetic_memory $flavour $mib)," \
     "page cache warm"
echo "machine: ${cpu_model:-unknown CPU}, nproc $(nproc), $(uname -sr), $pinned"
echo "build:   $build ($build_type, $("$compiler" --version | head -n 1))"
echo "timing:  median of $runs runs ($timer); GB/s = 10^9 bytes per second"
echo

row() { printf '%-54s %10s %7s\n' "$1" "$2" "$3"; }
row "command" "median s" "GB/s"

# What starting a process costs, for scale: every whole-command time below includes it.
true_s=$(median_seconds "${pin[@]}" true)
row "true (process start-up alone)" "$true_s" "-"
cat_s=$(median_seconds "${pin[@]}" cat "$file")
row "cat FILE > /dev/null" "$cat_s" "$(gbps "$bytes" "$cat_s")"
parse=$(parse_gbps)
row "markdown_bench BM_parse_markdown_corpora (parse only)" "-" "$(gbps "$parse" 1)"
cli_s=
if [[ -x $cli ]]; then
  cli_s=$(median_seconds "${pin[@]}" "$cli" markdown units "$file" --format json)
  row "memkit markdown units FILE --format json > /dev/null" "$cli_s" \
    "$(gbps "$bytes" "$cli_s")"
else
  echo "(no $cli: the CLI row is skipped)"
fi

if [[ -n $json_out ]]; then
  python3 - "$json_out" "$flavour" "$mib" "$bytes" "$runs" "$timer" "$pinned" "$true_s" \
    "$cat_s" "$parse" "$cli_s" << 'PY'
import json, sys
out, flavour, mib, size, runs, timer, pinned, true_s, cat_s, parse, cli_s = sys.argv[1:12]
size = int(size)
figures = {"flavour": flavour, "mib": int(mib), "bytes": size, "runs": int(runs),
           "timer": timer, "pinned": pinned, "true_s": float(true_s), "cat_s": float(cat_s),
           "cat_bytes_per_second": size / float(cat_s),
           "parse_bytes_per_second": float(parse),
           "cli_markdown_units_s": float(cli_s) if cli_s else None,
           "cli_bytes_per_second": size / float(cli_s) if cli_s else None}
with open(out, "w", encoding="utf-8") as f:
    f.write(json.dumps(figures, indent=1) + "\n")
PY
fi
