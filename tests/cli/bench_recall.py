#!/usr/bin/env python3
"""`memkit bench recall` (issue 32) on copies of the bundled examples, with TMPDIR a fresh folder:

  * --format json conforms to docs/schemas/bench-recall.schema.json (its machine to
    bench-compaction.schema.json's); on each example root: the sizes (files and units as `memkit search` counts them
    on another copy, memory and index bytes), the build's wall min <= median <= max, the two
    updates ("grew", "changed") of one file, with packs kept after the growth of a file of a root
    of several files, and the query latencies in order (p50 <= p90 <= p99 <= max);
  * the queries one by one (`queries.each`: text, shape, latency, matches as `memkit search`
    totals them) and the percentiles of each shape (`queries.shapes`), in the text too;
  * text: a row per step and the percentiles;
  * --report FILE: one self-contained HTML page written there (on the project and on
    --synthetic 2000), and "report: FILE" in the text; a report path in a folder that does not
    exist, a folder or a symbolic link is refused first (exit 2), with nothing written and no
    scratch folder left;
  * --synthetic 2000: 2,000 entries and the brief's in 4 files;
  * the root is byte for byte as it was and has no .memkit/, and no scratch folder is left;
  * refusals (exit 2, the argument named, nothing left in TMPDIR): a root without memory,
    --synthetic 0, a store too large for the disk, --queries 0, --runs 0, --root with
    --synthetic, a root that is no folder.

usage: bench_recall.py MEMKIT
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_environment import environment  # noqa: E402
from json_schema import errors as schema_errors  # noqa: E402

SCHEMAS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "docs", "schemas"))


def schema(name):
    with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
        return json.load(f)

EXAMPLES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                         "examples"))
NOW = "2026-03-07T10:00:00+00:00"


def tree_digest(root):
    out = []
    for folder, dirs, files in sorted(os.walk(root)):
        for name in sorted(dirs):
            out.append((os.path.relpath(os.path.join(folder, name), root), "dir"))
        for name in sorted(files):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out.append((os.path.relpath(path, root), hashlib.sha256(f.read()).hexdigest()))
    return out


SHAPES = ["one word", "all of", "any of"]


def main():
    memkit = os.path.abspath(sys.argv[1])
    failures = []

    def check(label, condition, text=""):
        if not condition:
            failures.append(label + ("\n" + text[:3000] if text else ""))

    def check_each(label, q, out):
        """Every query of the timed pass, and the percentiles of each shape made from them."""
        each = q["each"]
        check(label + "each: one per query", len(each) == q["count"], out[:3000])
        check(label + "each: the slowest is the max",
              max((e["ns"] for e in each), default=0) == q["latency_ns"]["max"], out[:3000])
        check(label + "each: a shape from its words",
              all(e["shape"] == ("any of" if " OR " in e["query"] else
                                 "all of" if " " in e["query"] else "one word") for e in each),
              out[:3000])
        names = [s["shape"] for s in q["shapes"]]
        check(label + "shapes: those drawn, in order",
              names == [n for n in SHAPES if any(e["shape"] == n for e in each)], repr(names))
        for shape in q["shapes"]:
            ns = sorted(e["ns"] for e in each if e["shape"] == shape["shape"])
            lat = shape["latency_ns"]
            nearest = lambda p: ns[max(1, -(-p * len(ns) // 100)) - 1]  # noqa: E731
            check(label + shape["shape"] + ": its queries and percentiles",
                  shape["queries"] == len(ns) and lat["p50"] == nearest(50)
                  and lat["p90"] == nearest(90) and lat["p99"] == nearest(99)
                  and lat["max"] == ns[-1], repr(shape))

    with tempfile.TemporaryDirectory(prefix="memkit-bench-recall-test-") as work:
        scratch = os.path.join(work, "tmp")
        os.mkdir(scratch)
        env = dict(environment(), TMPDIR=scratch)

        def bench(*args, timeout=300):
            done = subprocess.run([memkit, "bench", "recall", "--now", NOW] + list(args), env=env,
                                  capture_output=True, text=True, timeout=timeout)
            return done.returncode, done.stdout, done.stderr

        for example in ["project", "memorybox", "tiers"]:
            root = os.path.join(work, example)
            shutil.copytree(os.path.join(EXAMPLES, example), root)
            before = tree_digest(root)
            # What `search` counts, on a copy of its own (a search keeps its index in the root).
            other = os.path.join(work, example + "-search")
            shutil.copytree(os.path.join(EXAMPLES, example), other)
            searched = json.loads(subprocess.run(
                [memkit, "search", "a", "--root", other, "--format", "json", "--now", NOW],
                env=env, capture_output=True, text=True).stdout)["data"]

            code, out, err = bench("--root", root, "--runs", "1", "--queries", "50", "--format",
                                   "json")
            check("%s: exit 0" % example, code == 0, out + err)
            if code != 0:
                continue
            data = json.loads(out)["data"]
            problems = schema_errors(data, schema("bench-recall.schema.json"),
                                     [schema("bench-compaction.schema.json")])
            check("json: conforms to the schema", problems == [], "\n".join(problems))
            label = example + ": "
            check(label + "command and runs", data["command"] == "recall" and data["runs"] == 1
                  and data["synthetic_entries"] is None and data["input"] == root, out)
            check(label + "files and units as search counts them",
                  data["files"] == searched["files"] and data["units"] == searched["units"]
                  and data["units"] > 0, out + json.dumps(searched))
            check(label + "sizes", data["memory_bytes"] > 0 and data["index_bytes"] > 0
                  and data["packs"] >= 1 and data["peak_rss_kib"] > 0, out)
            wall = data["build"]["wall_us"]
            check(label + "build: min <= median <= max",
                  0 <= wall["min"] <= wall["median"] <= wall["max"], out)
            check(label + "build: counts", data["build"]["cpu_us"] >= 0
                  and data["build"]["page_faults"] >= 0 and data["build"]["bytes_per_second"] >= 0,
                  out)
            check(label + "two updates of one file",
                  [u["change"] for u in data["updates"]] == ["grew", "changed"]
                  and len({u["file"] for u in data["updates"]}) == 1, out)
            for u in data["updates"]:
                check(label + u["change"] + ": timing", 0 <= u["wall_us"]["min"]
                      <= u["wall_us"]["median"] <= u["wall_us"]["max"], out)
                check(label + u["change"] + ": a pack built and the file read",
                      u["packs_built"] >= 1 and u["files_read"] >= 1, out)
            if data["files"] > 1:
                check(label + "grew: the other files' pack kept",
                      data["updates"][0]["packs_kept"] > 0, out)
            q = data["queries"]
            lat = q["latency_ns"]
            check(label + "queries: the count and the limit", q["count"] == 50 and q["limit"] == 10,
                  out)
            check(label + "queries: p50 <= p90 <= p99 <= max",
                  0 <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], out)
            check(label + "queries: per second", q["queries_per_second"] > 0, out)
            check_each(label, q, out)
            # A query's matches are the total `memkit search` gives for it.
            for each in q["each"][:12]:
                total = json.loads(subprocess.run(
                    [memkit, "search", each["query"], "--root", other, "--format", "json",
                     "--now", NOW], env=env, capture_output=True, text=True).stdout)["data"]["total"]
                check(label + "matches of %r as search counts them" % each["query"],
                      each["matches"] == total, "%r: %d, search %d" % (each, each["matches"], total))
            cold = q["cold"]
            check(label + "cold: min <= median <= max", cold["queries"] == 50
                  and 0 <= cold["wall_us"]["min"] <= cold["wall_us"]["median"]
                  <= cold["wall_us"]["max"], out)
            check(label + "the root is untouched", tree_digest(root) == before)
            check(label + "no index in the root", not os.path.exists(os.path.join(root, ".memkit")))
            check(label + "the scratch folder is gone", os.listdir(scratch) == [],
                  repr(os.listdir(scratch)))

        root = os.path.join(work, "project")
        code, text, err = bench("--root", root, "--runs", "1", "--queries", "20")
        check("text: exit 0", code == 0, text + err)
        for step in ["build \\(no index\\)", "update: \\S+ grew", "update: \\S+ changed",
                     "open \\+ query"]:
            check("text: a row for " + step, re.search(r"^%s" % step, text, re.M), text)
        check("text: the percentiles", re.search(r"p50 [0-9.]+ us, p90 [0-9.]+ us, p99 [0-9.]+ "
                                                 r"us, max [0-9.]+ us", text), text)
        check("text: a row per shape", all(re.search(r"^%s +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +"
                                                     r"[0-9.]+$" % s, text, re.M)
                                           for s in SHAPES), text)
        check("text: no report line without --report", "report:" not in text, text)

        # --report: the page, where asked, on the project and on a generated store.
        pages = os.path.join(work, "pages")
        os.mkdir(pages)
        for label, args in [("project", ["--root", root]), ("synthetic", ["--synthetic", "2000"])]:
            page_path = os.path.join(pages, label + ".html")
            code, text, err = bench(*args, "--runs", "1", "--queries", "30", "--report", page_path)
            check("report %s: exit 0" % label, code == 0, text + err)
            check("report %s: named in the text" % label,
                  re.search(r"^report: %s$" % re.escape(page_path), text, re.M), text)
            if not check("report %s: written" % label, os.path.isfile(page_path)):
                continue
            with open(page_path, encoding="utf-8") as f:
                page = f.read()
            check("report %s: one self-contained page with its plot" % label,
                  page.startswith("<!doctype html>") and page.count("<svg") == 1
                  and all('data-series="%s"' % s in page for s in SHAPES)
                  and not re.search(r"<script|<link|<img|@import|url\(", page, re.I)
                  and set(re.findall(r"https?://[^\s\"'<>)]*", page))
                  <= {"http://www.w3.org/2000/svg"}, page[:2000])
            check("report %s: the command and the input" % label,
                  "memkit bench recall" in page and "--report" in page
                  and ("generated store of 2000" in page if label == "synthetic" else root in page))
        check("report: nothing else written", sorted(os.listdir(pages)) == ["project.html",
                                                                           "synthetic.html"],
              repr(os.listdir(pages)))
        check("report: the scratch folder is gone", os.listdir(scratch) == [],
              repr(os.listdir(scratch)))

        # Refused before any work: nothing written, no scratch folder.
        target = os.path.join(work, "target.html")
        with open(target, "w", encoding="utf-8") as f:
            f.write("not a report\n")
        link = os.path.join(pages, "link.html")
        os.symlink(target, link)
        folder = os.path.join(pages, "folder.html")
        os.mkdir(folder)
        for label, path in [("a missing folder", os.path.join(work, "no-such", "r.html")),
                            ("a folder", folder), ("a symbolic link", link)]:
            code, out, err = bench("--root", root, "--runs", "1", "--queries", "5", "--report",
                                   path, "--format", "json")
            check("report into %s: refused, exit 2, naming --report" % label,
                  code == 2 and "--report" in out, out + err)
            check("report into %s: no scratch folder left" % label, os.listdir(scratch) == [],
                  repr(os.listdir(scratch)))
        with open(target, encoding="utf-8") as f:
            check("report: not through the link", f.read() == "not a report\n")
        check("report: the refusals wrote nothing",
              sorted(os.listdir(pages)) == ["folder.html", "link.html", "project.html",
                                            "synthetic.html"] and os.listdir(folder) == []
              and not os.path.exists(os.path.join(work, "no-such")), repr(os.listdir(pages)))

        # A report that passes the check but cannot be written at the end (its folder made
        # immutable, which even root cannot write into): a finding naming it, a non-zero exit, and
        # the text does not claim it was written. Where chattr is not available, not checked.
        locked = os.path.join(work, "locked")
        os.mkdir(locked)
        if subprocess.run(["chattr", "+i", locked], capture_output=True).returncode == 0:
            try:
                page_path = os.path.join(locked, "r.html")
                code, out, err = bench("--root", root, "--runs", "1", "--queries", "5",
                                       "--report", page_path)
                check("report that cannot be written: exit non-zero, naming the file",
                      code != 0 and page_path in out + err, out + err)
                check("report that cannot be written: not claimed",
                      not re.search(r"^report: ", out, re.M), out)
                check("report that cannot be written: no scratch folder left",
                      os.listdir(scratch) == [], repr(os.listdir(scratch)))
            finally:
                subprocess.run(["chattr", "-i", locked], capture_output=True)

        code, out, err = bench("--synthetic", "2000", "--runs", "1", "--queries", "50",
                               "--format", "json")
        check("synthetic: exit 0", code == 0, out + err)
        if code == 0:
            data = json.loads(out)["data"]
            problems = schema_errors(data, schema("bench-recall.schema.json"),
                                     [schema("bench-compaction.schema.json")])
            check("json: conforms to the schema", problems == [], "\n".join(problems))
            # brief.md's bullet, manifest.md (its route, no unit), then two files of notes
            check("synthetic: entries, files, units",
                  data["synthetic_entries"] == 2000 and data["files"] == 4
                  and data["units"] == 2001, out)
            check("synthetic: a pack kept when a file grew",
                  data["updates"][0]["packs_kept"] > 0, out)
            lat = data["queries"]["latency_ns"]
            check("synthetic: p50 <= p90 <= p99 <= max",
                  lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], out)
            check_each("synthetic: ", data["queries"], out)
            check("synthetic: every shape drawn",
                  [s["shape"] for s in data["queries"]["shapes"]] == SHAPES, out[:3000])
        check("synthetic: the scratch folder is gone", os.listdir(scratch) == [],
              repr(os.listdir(scratch)))

        empty = os.path.join(work, "empty")
        os.mkdir(empty)
        os.mkdir(os.path.join(empty, "docs"))
        for args, named, what in [
                (["--root", empty], "--root", "no memory"),
                (["--synthetic", "0"], "--synthetic", "at least 1"),
                (["--synthetic", "1000000000000"], "--synthetic", "free"),
                (["--synthetic", "many"], "--synthetic", "integer"),
                (["--queries", "0", "--root", root], "--queries", "1 to"),
                (["--runs", "0", "--root", root], "--runs", "1 to"),
                (["--root", root, "--synthetic", "10"], "--synthetic", "not both"),
                (["--root", os.path.join(work, "nowhere")], "--root", "no such directory")]:
            code, out, err = bench(*(args + ["--format", "json"]), timeout=60)
            check("refused %s: exit 2, naming %s" % (args, named),
                  code == 2 and named in out and what in out, out + err)
        check("refusals leave nothing in TMPDIR", os.listdir(scratch) == [],
              repr(os.listdir(scratch)))
        check("refusals write nothing in the root", os.listdir(empty) == ["docs"],
              repr(os.listdir(empty)))

    for f in failures:
        print("FAIL " + f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
