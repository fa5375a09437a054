#!/usr/bin/env python3
"""docs/benchmarks.md is exactly what bench/scripts/benchmarks_md.py renders from
bench/benchmarks.md.in and bench/results.json (`--render --check`), so that no figure on the page
is edited by hand: a changed figure is measured again, a changed sentence goes in the template.
And the template language stays strict: a missing value, a number without a format or an unknown
format fails the render instead of printing something. Needs no bench build; exits 1 with a diff
or the reason.

usage: benchmarks_md.py REPOSITORY_ROOT
"""
import pathlib
import subprocess
import sys


def strictness_problems(root):
    sys.path.insert(0, str(root / "bench" / "scripts"))
    from benchmark_template import RenderError, Values, render  # noqa: E402

    results = {"machine": {"cores": 2}, "sources": {"s": {
        "measured": "2026-12-05T10:00:00+00:00", "machine": {}, "load_average_before": [0.5],
        "seconds": 1, "commands": ["true"], "results": {"t": 0.0123, "n": 1234567}}}}
    values = Values(results, {"s": dict})
    problems = []
    expected = {"{{s.t|ms}}": "12.3 ms", "{{s.n|int}}": "1,234,567", "{{s.t|us}}": "12,300 µs",
                "{{machine.cores|int}} cores": "2 cores"}
    for template, shown in expected.items():
        got = render(template, values, {}, ())
        if got != shown:
            problems.append(f"{template} rendered {got!r}, not {shown!r}")
    for template in ("{{s.missing|ms}}", "{{s.t}}", "{{s.t|furlong}}", "{{other.t|ms}}",
                     "{{table:none}}", "{{ s.t }}", "{{s.t|ms"):
        try:
            got = render(template, values, {}, ())
            problems.append(f"{template} rendered {got!r} instead of failing")
        except RenderError:
            pass
    return problems


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    problems = strictness_problems(root)
    for problem in problems:
        print(f"bench/scripts/benchmark_template.py: {problem}", file=sys.stderr)
    done = subprocess.run([sys.executable, str(root / "bench" / "scripts" / "benchmarks_md.py"),
                           "--render", "--check"], cwd=root)
    return 1 if problems or done.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
