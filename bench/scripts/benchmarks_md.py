#!/usr/bin/env python3
"""benchmarks_md.py: docs/benchmarks.md, regenerated from measurements.

usage: bench/scripts/benchmarks_md.py [--build-dir DIR] [--only SOURCE[,SOURCE]] [--quick]
       bench/scripts/benchmarks_md.py --render [--check]
       bench/scripts/benchmarks_md.py --list

Without options it configures and builds a bench build in build-bench/ (Release,
-DMEMKIT_BUILD_BENCH=ON, tests off), runs every source below (the Google Benchmark programs of
bench/ with --benchmark_format=json, `memkit bench compaction` and `memkit bench recall` with
--format json, and the scripts of bench/scripts/ with --json), writes every raw result, the
machine and the exact commands to bench/results.json, and renders bench/benchmarks.md.in into
docs/benchmarks.md. Progress goes to stderr. A full run takes about 20 minutes on two cores.

  --build-dir DIR  use this existing bench build (configured with -DMEMKIT_BUILD_BENCH=ON);
                   nothing is configured or built
  --only S[,S]     measure these sources only; every other keeps its results from
                   bench/results.json
  --quick          tiny sizes and one repetition, to try the script: results and page go to
                   <build dir>/benchmarks-quick/, never to the committed files
  --render         measure nothing: render the page from bench/results.json alone
  --check          with --render: write nothing; exit 1 with a diff when docs/benchmarks.md is not
                   exactly the rendering (tests/docs/benchmarks_md.py runs this in CI)
  --list           the sources, what each needs and measures

Optional sources (the peer comparison, which needs MEMKIT_PEERS_DIR with the MemoryCustodian
checkout; PostgreSQL, which needs its server programs or MEMKIT_SYNC_CONNINFO; the shared corpora,
MEMKIT_CORPORA_DIR or ../shared/corpora; `memkit bench recall`) keep their previous results when
their prerequisite is missing, and the run says so. The test loop (`test_loop`: scripts/check and
scripts/check-sanitized on a fresh clone, half an hour) runs only when --only names it.

The script's parts: benchmark_sources.py (the machine; each source: what it needs, how it runs),
benchmark_tables.py (what the page reads of each source's results, and its tables),
benchmark_template.py (the template language). The template (bench/benchmarks.md.in) has four
kinds of placeholder, kept small and strict:
  {{SOURCE.key.key|FORMAT}}  a value of a source's results, through its view in
                             benchmark_tables.py (a key holding dots goes in brackets:
                             {{sync_dir.results[push, nothing changed].median_s|ms}})
  {{machine.key}}            the machine of the last run; {{run.dates}}, {{run.minutes}}: when
                             the sources were measured, and for how long
  {{table:NAME}}             a table (or a list) made by TABLES[NAME] of benchmark_tables.py
  {{commands:S[,S]}}         a code block of the exact commands that produced those sources
A missing key, a value of the wrong type or an unknown format, hook or source fails the render.
FORMAT is UNIT or FROM>UNIT (the value's unit, when it is not the base one) with an optional
:DIGITS, else three significant digits (and whole numbers from 1,000 up, with separators):
  s ms µs ns (from seconds), or time (whichever of s, ms, µs shows it best)
  GB/s MB/s (from bytes per second)   GiB MiB KiB MB B (from bytes)
  int (a whole number with separators)   num (a number)   ratio (a number)   pct (a percentage,
  shown with " %")   text (a string)
e.g. {{bench_compaction.largest.phases.plan.wall_us.median|us>ms}} gives "205 ms".
"""
import argparse
import difflib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark_sources import (MACHINE_IDENTITY, REPO, SOURCE_NAMES, SOURCES, STARTED,  # noqa: E402
                               Context, Failure, build_bench, machine_description, now_rfc3339,
                               progress, rel_to_repo)
from benchmark_tables import GBENCH_SOURCES, TABLES, VIEWS, gbench_view  # noqa: E402
from benchmark_template import RenderError, Values, render  # noqa: E402

RESULTS = REPO / "bench" / "results.json"
TEMPLATE = REPO / "bench" / "benchmarks.md.in"
DOC = REPO / "docs" / "benchmarks.md"
SCHEMA = "memkit-benchmarks/1"


def measure(options, build, previous, results_path):
    """Runs the sources asked for; returns the new results document, written to results_path
    after each source (an interrupted run keeps what it measured)."""
    results = previous if previous else {"schema": SCHEMA, "sources": {}}
    results["schema"] = SCHEMA
    if options.only:
        wanted = options.only
    else:
        wanted = [s.name for s in SOURCES if not s.on_request]
    build_commands = None
    if options.build_dir is None:
        build_commands = build_bench(build)
    machine = machine_description(build)
    machine["date"] = now_rfc3339()
    if build_commands:
        machine["build_commands"] = build_commands
    else:
        machine["build_commands"] = [f"(an existing build: {rel_to_repo(build)})"]
    results["machine"] = machine
    kept, failed = [], []
    with tempfile.TemporaryDirectory(prefix="memkit-benchmarks-md.") as scratch:
        ctx = Context(build, options.quick, Path(scratch))
        try:
            for source in (s for s in SOURCES if s.name in wanted):
                reason = source.needs(ctx)
                if reason:
                    had = source.name in results["sources"]
                    note = "keeps its previous results" if had else "has no results"
                    progress(f"{source.name}: skipped, {reason}; it {note}")
                    (kept if source.optional else failed).append(
                        (source.name, f"{reason}; it {note}"))
                    continue
                progress(f"{source.name}: {source.about}")
                ctx.commands = []
                load = os.getloadavg()
                began = time.monotonic()
                try:
                    figures = source.run(ctx)
                except Failure as failure:
                    progress(f"{source.name}: FAILED: {failure}")
                    if source.optional:
                        kept.append((source.name, f"it failed: {str(failure).splitlines()[0]}"))
                    else:
                        failed.append((source.name, str(failure).splitlines()[0]))
                    continue
                took = time.monotonic() - began
                results["sources"][source.name] = {
                    "measured": now_rfc3339(),
                    "machine": {k: machine[k] for k in MACHINE_IDENTITY},
                    "quick": options.quick,
                    "load_average_before": [round(x, 2) for x in load],
                    "seconds": round(took, 1),
                    "commands": ctx.commands,
                    "results": figures,
                }
                write_json(results_path, results)
                progress(f"{source.name}: {took:.0f} s")
        finally:
            ctx.stop_postgres()
    for name, reason in kept:
        progress(f"kept: {name} ({reason}); its section shows its previous results")
    for name, reason in failed:
        progress(f"NOT MEASURED: {name}: {reason}")
    return results, failed


def parse_options(argv):
    parser = argparse.ArgumentParser(
        prog="bench/scripts/benchmarks_md.py",
        description="docs/benchmarks.md regenerated from measurements (see the module's help)",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("--build-dir", type=Path, help="an existing bench build to use")
    parser.add_argument("--only", help="measure these sources only (comma-separated)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to try the script")
    parser.add_argument("--render", action="store_true", help="measure nothing; render only")
    parser.add_argument("--check", action="store_true",
                        help="with --render: compare docs/benchmarks.md with the rendering")
    parser.add_argument("--list", action="store_true", help="list the sources")
    parser.add_argument("--results", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--doc", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.check and not options.render:
        parser.error("--check goes with --render")
    if options.render and (options.only or options.quick or options.build_dir):
        parser.error("--render measures nothing: it takes no --only, --quick or --build-dir")
    if options.only:
        options.only = [s for s in options.only.split(",") if s]
        unknown = [s for s in options.only if s not in SOURCE_NAMES]
        if unknown:
            parser.error(f"unknown source {', '.join(unknown)}; --list shows them")
    return options


def list_sources():
    for s in SOURCES:
        flags = []
        if s.optional:
            flags.append("optional")
        if s.on_request:
            flags.append("only with --only")
        print(f"{s.name:20} {s.about}" + (f" [{', '.join(flags)}]" if flags else ""))


def load_results(path):
    if not path.exists():
        return None
    results = json.loads(path.read_text(encoding="utf-8"))
    if results.get("schema") != SCHEMA:
        raise Failure(f"{path}: schema {results.get('schema')!r}, expected {SCHEMA!r}")
    return results


def write_json(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                    encoding="utf-8")


def main(argv):
    options = parse_options(argv)
    if options.list:
        list_sources()
        return 0
    build = (options.build_dir or REPO / "build-bench").resolve()
    quick_dir = build / "benchmarks-quick"
    results_path = options.results or (quick_dir / "results.json" if options.quick else RESULTS)
    doc_path = options.doc or (quick_dir / "benchmarks.md" if options.quick else DOC)
    template = TEMPLATE.read_text(encoding="utf-8")
    try:
        if options.render:
            results = load_results(results_path)
            if results is None:
                raise Failure(f"{results_path} is missing: run the script without --render")
            failed = []
        else:
            previous = load_results(results_path)
            if previous is None and options.quick:
                previous = load_results(RESULTS)  # what the quick run does not measure
            results, failed = measure(options, build, previous, results_path)
            write_json(results_path, results)
            progress(f"wrote {rel_to_repo(results_path)}")
        try:
            views = {name: gbench_view if name in GBENCH_SOURCES else VIEWS.get(name, dict)
                     for name in SOURCE_NAMES}
            values = Values(results, views, [s.name for s in SOURCES if s.on_request])
            text = render(template, values, TABLES, MACHINE_IDENTITY)
        except RenderError as error:
            print(f"benchmarks_md.py: the page cannot be rendered:\n{error}", file=sys.stderr)
            return 1
    except Failure as failure:
        print(f"benchmarks_md.py: {failure}", file=sys.stderr)
        return 1
    if options.check:
        current = doc_path.read_text(encoding="utf-8") if doc_path.exists() else ""
        quick = [n for n, s in results["sources"].items() if s.get("quick")]
        if quick:
            print(f"benchmarks_md.py: {rel_to_repo(results_path)} holds --quick results "
                  f"({', '.join(quick)}): not figures to publish", file=sys.stderr)
            return 1
        if current != text:
            sys.stdout.writelines(difflib.unified_diff(
                current.splitlines(keepends=True), text.splitlines(keepends=True),
                f"{rel_to_repo(doc_path)} (as it is)",
                f"{rel_to_repo(doc_path)} (rendered from {rel_to_repo(results_path)})"))
            print(f"benchmarks_md.py: {rel_to_repo(doc_path)} differs from the rendering of "
                  f"{rel_to_repo(TEMPLATE)} with {rel_to_repo(results_path)}: edit the template "
                  "or measure again (bench/scripts/benchmarks_md.py), never the page",
                  file=sys.stderr)
            return 1
        return 0
    doc_path.parent.mkdir(parents=True, exist_ok=True)
    doc_path.write_text(text, encoding="utf-8")
    progress(f"wrote {rel_to_repo(doc_path)}")
    if not options.render:
        progress(f"done in {(time.monotonic() - STARTED) / 60:.1f} min")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
