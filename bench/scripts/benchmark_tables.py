"""What docs/benchmarks.md shows of each source (bench/scripts/benchmarks_md.py): views (each
source's raw results as the template reads them, with the figures derived from them) and tables
(the hooks {{table:NAME}}). Standard library only."""
import re

from benchmark_template import RenderError, format_value, md_table

TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
DROPPED_NAME_PARTS = re.compile(r"^(iterations:\d+|real_time|repeats:\d+|min_time:.*)$")


def benchmark_key(run_name):
    return "/".join(p for p in run_name.split("/") if not DROPPED_NAME_PARTS.match(p))


def gbench_part_view(part):
    """Benchmark name (without /iterations:1, /real_time) -> its median record (or its only
    one), with `seconds` and `cpu_seconds` added; NAME/key:max names the largest size of a
    family, its `arg` that size."""
    view = {"command": part["command"], "peak_rss_kib": part["peak_rss_kib"],
            "context": part["output"].get("context", {}),
            "env": {k: int(v) if v.isdigit() else v for k, v in part.get("env", {}).items()}}
    chosen = {}
    for record in part["output"]["benchmarks"]:
        key = benchmark_key(record.get("run_name", record["name"]))
        rank = {"median": 0, None: 1, "mean": 2}.get(record.get("aggregate_name"), 9)
        if rank == 9:
            continue
        if key not in chosen or rank < chosen[key][0]:
            chosen[key] = (rank, record)
    families = {}
    for key, (_, record) in chosen.items():
        record = dict(record)
        scale = TIME_UNITS[record.get("time_unit", "ns")]
        record["seconds"] = record["real_time"] * scale
        record["cpu_seconds"] = record["cpu_time"] * scale
        # Google Benchmark's rates are per second of the benchmark thread's CPU time, but of
        # wall time for a benchmark that asks for it (UseRealTime: "/real_time" in its name).
        record["rate_clock"] = "real" if "/real_time" in record.get("run_name", "") else "cpu"
        if "bytes_per_second" in record:  # what one iteration processed
            record["bytes"] = record["bytes_per_second"] * record[
                "seconds" if record["rate_clock"] == "real" else "cpu_seconds"]
        view[key] = record
        parts = key.split("/")
        for i, p in enumerate(parts):
            match = re.match(r"^([A-Za-z_]+):(\d+)$", p)
            if match:
                family = "/".join(parts[:i] + [match.group(1) + ":max"] + parts[i + 1:])
                families.setdefault(family, []).append((int(match.group(2)), key))
                break
    for family, members in families.items():
        arg, key = max(members)
        view[family] = dict(view[key], arg=arg)
    return view


def gbench_view(results):
    return {name: gbench_part_view(part) for name, part in results["parts"].items()}


def by_key(items, key):
    return {str(item[key]): item for item in items}


def view_bench_compaction(r):
    view = dict(r)
    sizes = []
    for size in r["sizes"]:
        size = dict(size)
        size["phases"] = by_key(size["phases"], "phase")
        size["processes"] = by_key(size["processes"], "step")
        size["rss_over_bytes"] = size["peak_rss_kib"] * 1024 / size["bytes"]
        sizes.append(size)
    view["sizes"] = by_key(sizes, "size")
    view["largest"] = sizes[-1]
    view["largest_mib"] = sizes[-1]["size"] / 2**20
    return view


def view_bench_recall(r):
    sizes = []
    for size in r["sizes"]:
        size = dict(size)
        size["updates"] = by_key(size["updates"], "change")
        size["shapes"] = by_key(size["queries"].get("shapes", []), "shape")
        sizes.append(size)
    return {"sizes": by_key(sizes, "synthetic_entries"), "largest": sizes[-1],
            "smallest": sizes[0]}


def view_compact_peer(r):
    view = dict(r)
    sizes = []
    for size in r["sizes"]:
        size = dict(size)
        c = size["commands"]
        if "peer_dry" in c:
            size["speedup_dry"] = c["peer_dry"]["median_s"] / c["memkit_dry_text"]["median_s"]
            size["speedup_apply"] = c["peer_apply"]["median_s"] / c["memkit_apply"]["median_s"]
        for key, command in c.items():
            command["rss_over_inbox"] = command["peak_rss_kib"] * 1024 / size["bytes"]
        sizes.append(size)
    view["sizes"] = by_key(sizes, "mib")
    view["largest"] = sizes[-1]
    if all("speedup_dry" in s for s in sizes):
        view["speedup_dry_min"] = min(s["speedup_dry"] for s in sizes)
        view["speedup_dry_max"] = max(s["speedup_dry"] for s in sizes)
        view["speedup_apply_min"] = min(s["speedup_apply"] for s in sizes)
        view["speedup_apply_max"] = max(s["speedup_apply"] for s in sizes)
    return view


def view_markdown(r):
    view = gbench_view(r)
    for flavour in ("ascii", "mixed_utf8", "crlf"):
        key = f"BM_parse_markdown/{flavour}/MiB:max"
        pinned = view["pinned"][key]["bytes_per_second"]
        for part in ("adaptive", "hugetlb"):
            view[part][key]["over_pinned"] = view[part][key]["bytes_per_second"] / pinned
    return view


def view_sizes(key):
    def view(r):
        v = dict(r)
        v["sizes"] = by_key(r["sizes"], key)
        v["largest"] = r["sizes"][-1]
        v["smallest"] = r["sizes"][0]
        return v
    return view


def view_curated_commands(r):
    v = view_sizes("rows")(r)
    empty = sorted((b for b in r["batch"] if b["into_rows"] == 0), key=lambda b: b["adds"])
    full = sorted((b for b in r["batch"] if b["into_rows"] > 0), key=lambda b: b["adds"])
    v["batch"] = {"smallest_into_empty": empty[0], "largest_into_empty": empty[-1],
                  "largest_into_store": full[-1]}
    return v


def view_tiers_commands(r):
    v = dict(r)
    v["big_log"] = dict(r["big_log"])
    v["big_log"]["over_first_100"] = (r["big_log"]["median_s"] /
                                      r["persist_turns"]["first_100_median_s"])
    return v


def view_checkpoint(r):
    v = view_sizes("pending")(r)
    first, last = r["sizes"][0], r["sizes"][-1]
    v["growth"] = last["new_s"] / first["new_s"]
    v["size_growth"] = last["pending"] / first["pending"]
    return v


def view_startup(r):
    v = dict(r)
    v["difference_s"] = r["memkit_version"]["elapsed_s"] - r["true"]["elapsed_s"]
    for program in ("memkit_version", "true"):  # at the first-touch cost measured beside them
        v[program]["faults_at_first_touch_s"] = (r[program]["page_faults"] *
                                                 r["first_touch_us_per_page"] * 1e-6)
    return v


def view_parse_faults(r):
    v = dict(r)
    for policy in ("pinned", "adaptive", "hugetlb"):
        v[policy]["fresh_bytes"] = r[policy]["faults_per_parse"] * 4096
    return v


def view_bindings(r):
    v = dict(r)
    rows = {}
    for row in r["rows"]:
        rows[f"{row['workload']}_{row['door'].lower()}"] = row
    v["rows_by"] = rows
    status = [row for row in r["rows"] if row["workload"] == "status"]
    v["status_worst_over_c_us"] = max(row["binding_us"] - row["c_us"] for row in status)
    return v


def view_parse_vs_cat(r):
    v = dict(r)
    v["cat_over_parse"] = r["cat_bytes_per_second"] / r["parse_bytes_per_second"]
    return v


def view_sync_commands(r):
    v = dict(r)
    k = r["changes"]
    v["hand_minus_own_s"] = (r["results"][f"push-{k}"]["median_s"] -
                             r["results"][f"push-{k} own-timed"]["median_s"])
    return v


def view_search_process(r):
    v = view_sizes("entries")(r)
    for size in [v["largest"], v["smallest"], *v["sizes"].values()]:
        size["change_cost_s"] = size["after_change_s"] - size["search_mid_s"]
    return v


VIEWS = {
    "bench_compaction": view_bench_compaction,
    "bench_recall": view_bench_recall,
    "markdown": view_markdown,
    "compact_peer": view_compact_peer,
    "compact_changelogs": view_compact_peer,
    "tiers_commands": view_tiers_commands,
    "curated_commands": view_curated_commands,
    "checkpoint": view_checkpoint,
    "search_process": view_search_process,
    "sync_dir": view_sync_commands,
    "sync_postgres": view_sync_commands,
    "startup": view_startup,
    "parse_faults": view_parse_faults,
    "bindings": view_bindings,
    "parse_vs_cat": view_parse_vs_cat,
}
GBENCH_SOURCES = {"tokens", "text", "digest", "corpora", "compact", "similarity", "tiers",
                  "curated", "sync", "postgres", "search"}


# ---- tables: each takes the values and returns Markdown ------------------------------------------

FLAVOURS = [("ascii", "ASCII"), ("crlf", "CRLF"),
            ("mixed_utf8", "mixed UTF-8 (1 word in 10 accented or CJK)")]


def table_parse(v):
    rows = []
    for flavour, label in FLAVOURS:
        key = f"BM_parse_markdown/{flavour}/MiB:max"
        rows.append([label,
                     v.show(f"markdown.pinned.{key}.bytes_per_second", "GB/s"),
                     v.show(f"markdown.adaptive.{key}.bytes_per_second", "GB/s"),
                     v.show(f"markdown.hugetlb.{key}.bytes_per_second", "GB/s"),
                     v.show(f"tokens.main.BM_estimate_tokens/{flavour}/MiB:max.bytes_per_second",
                            "GB/s"),
                     v.show(f"text.main.BM_find_invalid_utf8/{flavour}/MiB:max.bytes_per_second",
                            "GB/s")])
    files = v.get("corpora.markdown.BM_parse_markdown_corpora.files")
    size = v.get("corpora.markdown.BM_parse_markdown_corpora.bytes")
    rows.append([f"the shared corpora, concatenated ({format_value(size, 'MB', 'corpora')}, "
                 f"{format_value(files, 'int', 'corpora')} files)",
                 v.show("corpora.markdown.BM_parse_markdown_corpora.bytes_per_second", "GB/s"),
                 "", "",
                 v.show("corpora.tokens.BM_estimate_tokens_corpora.bytes_per_second", "GB/s"),
                 ""])
    mib = v.get("markdown.pinned.BM_parse_markdown/ascii/MiB:max.arg")
    return md_table([f"input ({mib} MiB unless noted)", "`parse_markdown`, pinned thresholds",
                     "glibc's adaptive thresholds", "with huge pages (`hugetlb=1`)",
                     "`estimate_tokens`", "UTF-8 validation"], rows)


def table_bench_compaction(v):
    rows = []
    for size in v.get("bench_compaction.sizes").values():
        p = size["phases"]
        where = f"bench_compaction size {size['size']}"
        cells = [format_value(size["bytes"], "MiB", where),
                 format_value(size["items"], "int", where)]
        for phase in ("read", "plan", "hash", "report", "apply"):
            cells.append(format_value(p[phase]["wall_us"]["median"], "us>ms", where))
        cells.append(format_value(p["plan"]["cpu_us"], "us>ms", where))
        dry = size["processes"].get("dry run")
        apply = size["processes"].get("apply")
        cells.append(format_value(dry["wall_us"]["median"], "us>ms", where) if dry else "")
        cells.append(format_value(apply["wall_us"]["median"], "us>ms", where) if apply else "")
        cells.append(format_value(size["peak_rss_kib"], "KiB>MiB", where))
        rows.append(cells)
    return md_table(["inbox", "items", "read", "plan", "hash", "report", "apply",
                     "plan, CPU", "`custodian compact` process", "its `--apply`",
                     "peak RSS"], rows)


def table_bench_recall(v):
    rows = []
    for size in v.get("bench_recall.sizes").values():
        where = f"bench_recall {size['synthetic_entries']}"
        lat = size["queries"]["latency_ns"]  # docs/schemas/bench-recall.schema.json
        rows.append([format_value(size["synthetic_entries"], "int", where),
                     format_value(size["index_bytes"], "MiB", where),
                     format_value(size["build"]["wall_us"]["median"], "us>time", where),
                     format_value(size["updates"]["grew"]["wall_us"]["median"], "us>time", where),
                     format_value(size["updates"]["changed"]["wall_us"]["median"], "us>time",
                                  where),
                     format_value(lat["p50"], "ns>time", where),
                     format_value(lat["p90"], "ns>time", where),
                     format_value(lat["p99"], "ns>time", where),
                     format_value(size["peak_rss_kib"], "KiB>MiB", where)])
    return md_table(["entries", "index", "build", "update: a file grew", "a file changed",
                     "query p50", "p90", "p99", "peak RSS"], rows)


def table_compact_peer(v):
    rows = []
    for mib, size in v.get("compact_peer.sizes").items():
        c = size["commands"]
        where = f"compact_peer {mib} MiB"

        def cell(key):
            return (format_value(c[key]["median_s"], "s", where) + ", " +
                    format_value(c[key]["peak_rss_kib"], "KiB>MiB:0", where))
        rows.append([f"{mib} MiB", cell("memkit_dry_text"), cell("peer_dry"),
                     cell("memkit_apply"), cell("peer_apply"),
                     format_value(size["speedup_dry"], "ratio", where) + " / " +
                     format_value(size["speedup_apply"], "ratio", where)])
    return md_table(["inbox", "memkit dry run (text)", "reference dry run", "memkit `--apply`",
                     "reference `--apply`", "times faster (dry run / apply)"], rows)


def table_tiers_commands(v):
    t = "tiers_commands"
    turns = v.get(f"{t}.persist_turns.turns")
    reads = v.get(f"{t}.reads.commands")
    rows = [
        [f"`persist-turn` (L1 + L2, one journalled transaction of two appends), {turns} in a row "
         "into one workspace",
         f"median {v.show(f'{t}.persist_turns.median_s', 'ms')}, "
         f"p99 {v.show(f'{t}.persist_turns.p99_s', 'ms')} per turn; "
         f"{v.show(f'{t}.persist_turns.first_100_median_s', 'ms')} for the first 100, "
         f"{v.show(f'{t}.persist_turns.last_100_median_s', 'ms')} for the last 100"],
        [f"`persist-turn` on a day log of {v.show(f'{t}.big_log.log_bytes', 'MiB')}",
         f"median {v.show(f'{t}.big_log.median_s', 'ms')}"],
    ]
    labels = [
        ("session-init --max-tokens 4000 --no-log",
         "`session-init --max-tokens 4000 --no-log` over 365 daily logs, 50 themes x 200 notes "
         f"and a {v.show(f'{t}.reads.global_bytes', 'KiB:0')} global.md"),
        ("session-init --no-log", "`session-init --no-log` (no budget)"),
        ("list-themes", "`list-themes`"),
        ("read-logs", "`read-logs` (7 days)"),
        ("read-logs --days-back 365 --limit 365", "`read-logs --days-back 365 --limit 365`"),
        ("template decision", "`template decision` (process start-up, reads nothing)"),
    ]
    for key, label in labels:
        if key not in reads:
            raise RenderError(f"tiers_commands: reads.commands.{key} is missing")
        rows.append([label, format_value(reads[key]["median_s"], "ms", f"tiers_commands {key}")])
    return md_table(["command", "time"], rows)


CURATED_COMMANDS = [
    ("add", "`add` (an insert mid-file)", True),
    ("append", "`append`", True),
    ("reclassify", "`reclassify --status`", True),
    ("get-relevant", "`get-relevant` (digest)", True),
    ("get-relevant --initiative", "`get-relevant --initiative`", True),
    ("show", "`show`", True),
    ("search", "`search 'cache deploy'`", True),
    ("list", "`list --sort injection` (every row)", True),
    ("stats", "`stats`", True),
    ("story", "`story` of the most-linked row", True),
    ("--version", "`memkit --version` (process start-up)", False),
]


def table_curated_commands(v):
    sizes = list(v.get("curated_commands.sizes").values())
    rows = []
    for key, label, p99 in CURATED_COMMANDS:
        row = [label]
        for size in sizes:
            where = f"curated_commands N={size['rows']} {key}"
            if key not in size["commands"]:
                raise RenderError(f"{where}: missing")
            c = size["commands"][key]
            cell = format_value(c["median_s"], "s>ms", where).replace(" ms", "")
            if p99:
                cell += f" ({format_value(c['p99_s'], 's>ms', where).replace(' ms', '')})"
            row.append(cell)
        rows.append(row)
    return md_table(["command, ms: median (p99)"] +
                    [f"N = {format_value(s['rows'], 'int', 'curated')}" for s in sizes], rows)


def gbench_row(v, source, family, sizes, spec, extra=None):
    cells = []
    for arg in sizes:
        record = v.get(f"{source}.main.{family}:{arg}")
        cell = format_value(record["seconds"], spec, f"{source} {family}:{arg}")
        if extra:
            cell += ", " + format_value(record[extra[0]], extra[1], f"{source} {family}:{arg}")
        cells.append(cell)
    return cells


def gbench_sizes(v, source, family):
    view = v.view(source, "a table")["main"]
    sizes = sorted(int(k.rsplit(":", 1)[1]) for k in view
                   if k.startswith(family + ":") and not k.endswith(":max"))
    if not sizes:
        raise RenderError(f"{source}: no {family}:N benchmark")
    return sizes


def table_curated(v):
    sizes = gbench_sizes(v, "curated", "BM_parse_row_file/entries")
    rows = [
        ["`parse_row_file`, one file of N entries"] +
        gbench_row(v, "curated", "BM_parse_row_file/entries", sizes, "ms",
                   ("bytes_per_second", "MB/s")),
        ["`read_workspace`, N rows over six files, each name once, by name"] +
        gbench_row(v, "curated", "BM_read_workspace/rows", sizes, "ms"),
        ["`digest` (live pending, buckets, 800 code points)"] +
        gbench_row(v, "curated", "BM_digest/rows", sizes, "ms"),
        ["`search`, two terms over every live row"] +
        gbench_row(v, "curated", "BM_search/rows", sizes, "ms"),
        ["`plan_add`: parse, insert, history line, SHA-256 of both files"] +
        gbench_row(v, "curated", "BM_plan_add/rows", sizes, "ms"),
    ]
    return md_table(["benchmark"] + [format_value(n, "int", "curated") for n in sizes], rows)


SYNC_ROWS = [
    ("push-all", "first push (Ids assigned and written, then every record sent)"),
    ("pull-all", "first pull into an empty root (every entry added)"),
    ("push-{k}", "push after {k} edits by hand (stamped: the file rewritten)"),
    ("push-{k} own-timed", "push after {k} own-timed edits (no file written)"),
    ("pull-{k}", "pull of {k} edits (dry run + apply)"),
    ("push, nothing changed", "push that finds nothing to send"),
    ("status (local only)", "`sync status` (the root and the base read, nothing sent)"),
]


def table_sync(v):
    k = v.get("sync_dir.changes")
    entries = v.get("sync_dir.entries")
    rows = []
    for key, label in SYNC_ROWS:
        key, label = key.format(k=k), label.format(k=k)
        rows.append([label,
                     v.show(f"sync_postgres.results[{key}].median_s", "s>ms:0").replace(" ms", ""),
                     v.show(f"sync_dir.results[{key}].median_s", "s>ms:0").replace(" ms", "")])
    return md_table([f"N = {format_value(entries, 'int', 'sync')}, ms", "PostgreSQL",
                     "folder remote"], rows)


SEARCH_QUERIES = ["rare term", "mid", "common", "two ANDed", "three ORed"]


def table_search(v):
    rows = []
    for side, label in (("memkit", "memkit"), ("fts5", "SQLite FTS5")):
        row = [label, v.show(f"search.main.BM_{side}_build.seconds", "s")]
        for i in range(5):
            row.append(v.show(f"search.main.BM_{side}_query/{i}.seconds", "time"))
        rows.append(row)
    rows.append(["memkit, every match counted", ""] +
                [v.show(f"search.main.BM_memkit_count/{i}.seconds", "time") for i in range(5)])
    header = ["", "build"]
    for i, name in enumerate(SEARCH_QUERIES):
        matches = v.get(f"search.main.BM_memkit_query/{i}.matches")
        header.append(f"{name} ({format_value(matches, 'int', 'search')} matches)")
    return md_table(header, rows)


def table_search_process(v):
    rows = []
    for size in v.get("search_process.sizes").values():
        where = f"search_process {size['entries']}"
        rows.append([format_value(size["entries"], "int", where)] +
                    [format_value(size[k], "ms", where) for k in
                     ("first_search_s", "search_mid_s", "search_common_s", "after_change_s",
                      "context_query_s")])
    return md_table(["entries", "first search (builds the index)", "search, mid term",
                     "common term", "after one change", "`context --budget 2000 --query`"], rows)


def table_mcp(v):
    return md_table(["spawn to initialize answered", "ping", "tools/call search",
                     "tools/call custodian_add"],
                    [[v.show("mcp.spawn_to_initialize_s", "ms"), v.show("mcp.ping_s", "ms"),
                      v.show("mcp.search_s", "ms"), v.show("mcp.custodian_add_s", "ms")]])


def table_bindings(v):
    rows = []
    rows_in = v.get("bindings.rows")
    versions = v.get("bindings.versions")
    door_names = {"Python": f"Python {'.'.join(versions['python'].split('.')[:2])}",
                  "Node": f"Node {versions['node'].lstrip('v').split('.')[0]}", "Rust": "Rust"}
    last = None
    for row in rows_in:
        where = f"bindings {row['workload']} {row['door']}"
        small = row["workload"] == "status"
        first = row["workload"] != last
        last = row["workload"]
        label = (f"`custodian status`, examples/project ({format_value(row['calls'], 'int', where)}"
                 " calls)" if small else
                 f"`custodian compact` dry run, {v.get('bindings.mib')} MiB inbox "
                 f"({format_value(row['calls'], 'int', where)} calls)")
        unit = "us>µs" if small else "us>ms"
        diff = row["binding_us"] - row["c_us"]
        versus = (format_value(diff, "us>µs", where) if small else
                  format_value(diff / row["c_us"] * 100, "pct", where))
        if diff > 0:
            versus = "+" + versus
        rows.append([label if first else "",
                     format_value(row["c_us"], unit, where) if first else "",
                     door_names.get(row["door"], row["door"]),
                     format_value(row["raw_us"], unit, where) if row["raw_layer"] else "",
                     format_value(row["binding_us"], unit, where), versus])
    return md_table(["workload", "C program", "door", "raw layer", "binding",
                     "vs the C program"], rows)


def table_test_loop(v):
    rows = [["`scripts/check` (GCC, Release, warnings as errors)",
             v.show("test_loop.check.wall_s", "s:0"), v.show("test_loop.check.tests", "int"),
             v.show("test_loop.check.ctest_s", "s:0")],
            ["`scripts/check-sanitized` (clang, ASan + UBSan, without the `long`, package and "
             "binding tests; then the fuzz targets)",
             v.show("test_loop.check_sanitized.wall_s", "s:0"),
             v.show("test_loop.check_sanitized.tests", "int"),
             v.show("test_loop.check_sanitized.ctest_s", "s:0")]]
    return md_table(["command", "wall time", "tests (ctest)", "of which ctest"], rows)


def table_similarity(v):
    rows = []
    for which in ("mixed", "common"):
        key = f"similarity.main.BM_query_latency/{which}/entries:max"
        rows.append([which,
                     v.show(f"similarity.main.BM_query/{which}/entries:max.seconds", "µs"),
                     v.show(f"{key}.median_us", "us>µs"), v.show(f"{key}.p90_us", "us>µs"),
                     v.show(f"{key}.p99_us", "us>µs"), v.show(f"{key}.max_us", "us>µs")])
    return md_table(["candidates", "mean (`BM_query`)", "median", "p90", "p99", "max"], rows)


def table_postgres(v):
    rows = []
    for key, label in (("BM_push_fresh_workspace", "push into a fresh workspace"),
                       ("BM_pull_everything", "pull of every record"),
                       ("BM_push_repeated", "the same push again (all acknowledged)"),
                       ("BM_push_100_changed", "push of 100 changed records"),
                       ("BM_pull_since_cursor", "pull since the cursor (those 100)")):
        rows.append([f"`{key}`: {label}", v.show(f"postgres.main.{key}.seconds", "ms")])
    return md_table(["benchmark", "time"], rows)


def listed(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def table_compact_plan(v):
    """Inline: "2.3 ms, 22 ms and 226 ms on 1, 10 and 100 MiB (with huge pages: ...)"."""
    sizes = gbench_sizes(v, "compact", "BM_plan_inbox_compaction/MiB")
    times = {part: [v.show(f"compact.{part}.BM_plan_inbox_compaction/MiB:{n}.seconds", "ms")
                    for n in sizes] for part in ("main", "hugetlb")}
    return (f"{listed(times['main'])} on {listed([str(n) for n in sizes])} MiB (with malloc's "
            f"huge pages, `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`: {listed(times['hugetlb'])})")


def table_parse_fault_cost(v):
    """Inline: the CPU time between the pinned and the huge-page parse of ASCII, per page fault
    between them (the two measured in the same run of the script, by two sources)."""
    key = "BM_parse_markdown/ascii/MiB:max"
    seconds = (v.get(f"markdown.pinned.{key}.cpu_seconds") -
               v.get(f"markdown.hugetlb.{key}.cpu_seconds"))
    faults = (v.get("parse_faults.pinned.faults_per_parse") -
              v.get("parse_faults.hugetlb.faults_per_parse"))
    if faults <= 0:
        raise RenderError("parse_faults: the pinned parse has no more faults than with huge pages")
    return format_value(seconds / faults, "µs", "parse_fault_cost")


def table_checkpoint(v):
    rows = []
    for size in v.get("checkpoint.sizes").values():
        where = f"checkpoint {size['pending']}"
        rows.append([format_value(size["pending"], "int", where),
                     format_value(size["new_s"], "ms", where),
                     format_value(size["carried_forward_s"], "ms", where)])
    return md_table(["pending threads", "first checkpoint (new threads)",
                     "next session's (carried forward)"], rows)


TABLES = {
    "compact_plan": table_compact_plan,
    "parse_fault_cost": table_parse_fault_cost,
    "checkpoint": table_checkpoint,
    "parse": table_parse,
    "bench_compaction": table_bench_compaction,
    "bench_recall": table_bench_recall,
    "compact_peer": table_compact_peer,
    "similarity": table_similarity,
    "tiers_commands": table_tiers_commands,
    "curated_commands": table_curated_commands,
    "curated": table_curated,
    "sync": table_sync,
    "postgres": table_postgres,
    "search": table_search,
    "search_process": table_search_process,
    "mcp": table_mcp,
    "bindings": table_bindings,
    "test_loop": table_test_loop,
}
