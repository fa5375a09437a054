"""The sources of docs/benchmarks.md (bench/scripts/benchmarks_md.py): the machine, and how
each source is measured (a Google Benchmark program, a memkit command or a script of
bench/scripts/), what it needs, and the exact commands it ran. Standard library only."""
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "bench" / "scripts"
STARTED = time.monotonic()

sys.path.insert(0, str(SCRIPTS))
from command_timing import first_touch_us as touch_cost  # noqa: E402


class Failure(Exception):
    """A source or the render failed: the message says which and why."""


def progress(message):
    elapsed = int(time.monotonic() - STARTED)
    print(f"[benchmarks_md {elapsed // 60:02d}:{elapsed % 60:02d}] {message}", file=sys.stderr,
          flush=True)


# ---- the machine ---------------------------------------------------------------------------------

def read_text(path):
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def cmake_cache(build):
    values = {}
    for line in read_text(build / "CMakeCache.txt").splitlines():
        match = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line)
        if match:
            values[match.group(1)] = match.group(2)
    return values


def first_touch_us():
    """Microseconds to fault in one fresh 4 KiB page here (the best of three tries): on a
    virtual machine it can be ten times a bare machine's, and it moves with the host's load."""
    return min(touch_cost() for _ in range(3))


def machine_description(build):
    """What the figures depend on: processor, memory, kernel, compiler, build, allocator pages."""
    cpu = "unknown CPU"
    for line in read_text("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = 0
    for line in read_text("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            memory = int(line.split()[1]) * 1024
    thp = read_text("/sys/kernel/mm/transparent_hugepage/enabled")
    thp = thp.split("[", 1)[1].split("]", 1)[0] if "[" in thp else "unknown"
    cache = cmake_cache(build)
    compiler = cache.get("CMAKE_CXX_COMPILER", "c++")
    try:
        compiler = subprocess.run([compiler, "--version"], capture_output=True, text=True,
                                  check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        pass
    libc = " ".join(platform.libc_ver())
    u = platform.uname()
    os_name = "unknown"
    for line in read_text("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            os_name = line.split("=", 1)[1].strip('"')
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_bytes": memory,
        "os": os_name,
        "kernel": f"{u.system} {u.release} {u.machine}",
        "guest": ("a virtual machine" if " hypervisor" in read_text("/proc/cpuinfo")
                  else "no hypervisor flag"),
        "detect_virt": detect_virt(),
        "compiler": compiler,
        "libc": libc,
        "build_type": cache.get("CMAKE_BUILD_TYPE", "unknown"),
        "transparent_hugepages": thp,
        "first_touch_us_per_page": round(first_touch_us(), 2),
        "python": platform.python_version(),
    }


def detect_virt():
    """What systemd-detect-virt says of the hypervisor and of a container, when it runs."""
    found = []
    for flag in ("--vm", "--container"):
        try:
            done = subprocess.run(["systemd-detect-virt", flag], capture_output=True, text=True)
        except OSError:
            return "unknown"
        if done.stdout.strip() and done.stdout.strip() != "none":
            found.append(done.stdout.strip())
    return ", ".join(found) or "none"


# Two sources measured where these are equal were measured on the same machine.
MACHINE_IDENTITY = ("cpu", "cores", "memory_bytes", "kernel", "compiler", "build_type")

# ---- running the sources -------------------------------------------------------------------------

class Context:
    """One run: the build, the scratch folder, the commands each source ran."""

    def __init__(self, build, quick, scratch):
        self.build = build
        self.quick = quick
        self.scratch = scratch
        self.commands = []
        self.pg = None  # the throwaway PostgreSQL server's folder, started on first use
        self.pg_conninfo = None

    def rel(self, path):
        return rel_to_repo(path)

    @property
    def memkit(self):
        return self.build / "src" / "cli" / "memkit"

    def bench_program(self, name):
        return self.build / "bench" / name

    def shown(self, argv, env_extra):
        """The command as a reader would type it from the repository root."""
        words = []
        for key, value in (env_extra or {}).items():
            if self.pg is not None and value == self.pg_conninfo:
                words.append(f'{key}="$(cat PG_DIR/conninfo)"')  # the server of this run
                continue
            words.append(f"{key}={shlex.quote(self.shown_word(value))}")
        words += [shlex.quote(self.shown_word(str(a))) for a in argv]
        return " ".join(words)

    def shown_word(self, word):
        word = str(word)
        if word == sys.executable:
            return "python3"
        if word == str(REPO):
            return "."
        if self.pg is not None and word == str(self.pg):
            return "PG_DIR"
        if self.scratch and word.startswith(str(self.scratch)):
            return "OUT" + Path(word).suffix
        return word.replace(str(REPO) + "/", "")

    def run(self, argv, env_extra=None, env_drop=(), capture=True, peak_rss=False, cwd=REPO):
        """Runs argv (from the repository root, or cwd); returns (stdout, peak RSS KiB or None).
        A failure raises Failure with the end of its output."""
        env = dict(os.environ)
        for key in env_drop:
            env.pop(key, None)
        env.update(env_extra or {})
        shown = self.shown(argv, env_extra)
        if Path(cwd) != REPO:
            shown = f"(cd {self.shown_word(cwd)} && {shown})"
        self.commands.append(shown)
        progress(f"  $ {shown}")
        wrapped = [str(a) for a in argv]
        rss_file = None
        if peak_rss and Path("/usr/bin/time").exists():
            rss_file = self.scratch / f"rss-{len(self.commands)}.txt"
            wrapped = ["/usr/bin/time", "-f", "%M", "-o", str(rss_file)] + wrapped
        began = time.monotonic()
        done = subprocess.run(wrapped, env=env, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        took = time.monotonic() - began
        if done.returncode != 0:
            tail = (done.stdout.decode(errors="replace")[-1500:] +
                    done.stderr.decode(errors="replace")[-2500:])
            raise Failure(f"exit {done.returncode} after {took:.0f} s: {shown}\n{tail}")
        progress(f"    done in {took:.1f} s")
        rss = None
        if rss_file is not None:
            text = read_text(rss_file).strip().splitlines()
            rss = int(text[-1]) if text and text[-1].isdigit() else None
        return done.stdout.decode(errors="replace") if capture else None, rss

    def json_of(self, argv, env_extra=None, json_flag="--json", position=None):
        """Runs a script that writes its figures to --json FILE; returns them."""
        out = self.scratch / f"figures-{len(self.commands)}.json"
        argv = list(argv)
        extra = [json_flag, str(out)]
        if position is None:
            argv += extra
        else:
            argv[position:position] = extra
        self.run(argv, env_extra)
        try:
            return json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise Failure(f"{self.commands[-1]} wrote no figures: {error}")

    def pick(self, full, quick):
        return quick if self.quick else full

    def postgres(self):
        """A libpq connection string: MEMKIT_SYNC_CONNINFO, else a throwaway server of
        tests/postgres/pg_server.py, started once per run."""
        if os.environ.get("MEMKIT_SYNC_CONNINFO"):
            return os.environ["MEMKIT_SYNC_CONNINFO"]
        if self.pg is None:
            folder = self.scratch / "pg"
            self.pg = folder
            self.run([sys.executable, REPO / "tests" / "postgres" / "pg_server.py", "start",
                      folder], capture=False)
            self.pg_conninfo = (folder / "conninfo").read_text(encoding="utf-8").strip()
        return self.pg_conninfo

    def stop_postgres(self):
        if self.pg is not None:
            subprocess.run([sys.executable, str(REPO / "tests" / "postgres" / "pg_server.py"),
                            "stop", str(self.pg)], capture_output=True)
            self.pg = None


def pinned_cpu():
    """The CPU single-core benchmarks are pinned to: the last one (taskset), as parse_vs_cat.sh."""
    if not shutil.which("taskset"):
        return []
    return ["taskset", "-c", str((os.cpu_count() or 1) - 1)]


def gbench(ctx, program, pattern, repetitions=3, env=None, pin=False, min_time=None):
    """One Google Benchmark program run: its JSON output, its command and its peak RSS."""
    argv = pinned_cpu() if pin else []
    argv += [ctx.bench_program(program), f"--benchmark_filter={pattern}",
             "--benchmark_format=json"]
    repetitions = ctx.pick(repetitions, 1)
    if repetitions > 1:
        argv += [f"--benchmark_repetitions={repetitions}",
                 "--benchmark_report_aggregates_only=true"]
    min_time = ctx.pick(min_time, 0.01)
    if min_time is not None:
        argv.append(f"--benchmark_min_time={min_time}")  # plain seconds in benchmark 1.7
    # A set GLIBC_TUNABLES changes benchmark_main's allocator policy: only a source says so.
    out, rss = ctx.run(argv, env, env_drop=("GLIBC_TUNABLES",), peak_rss=True)
    try:
        output = json.loads(out)
    except ValueError as error:
        raise Failure(f"{program} printed no JSON ({error}): {ctx.commands[-1]}\n{out[-500:]}")
    for record in output.get("benchmarks", []):
        if record.get("error_occurred"):
            raise Failure(f"{program}: {record['name']}: {record.get('error_message')}")
    if not output.get("benchmarks"):
        raise Failure(f"{program}: no benchmark matched {pattern}")
    return {"command": ctx.commands[-1], "env": dict(env or {}), "peak_rss_kib": rss,
            "output": output}


def corpora_dir():
    given = os.environ.get("MEMKIT_CORPORA_DIR")
    if given:
        return Path(given) if Path(given).is_dir() else None
    default = REPO.parent / "shared" / "corpora"
    return default if default.is_dir() else None


def peer_dir():
    given = os.environ.get("MEMKIT_PEERS_DIR")
    if not given:
        return None
    peer = Path(given) / "waittim+MemoryCustodian"
    return peer if os.access(peer / "bin" / "memory-custodian", os.X_OK) else None


def postgres_available():
    if os.environ.get("MEMKIT_SYNC_CONNINFO"):
        return True
    bin_dir = Path(os.environ.get("MEMKIT_PG_BIN", "/usr/lib/postgresql/15/bin"))
    return (bin_dir / "initdb").exists() and (bin_dir / "pg_ctl").exists()


# Each source: what it needs (None when all is there, else the reason), whether its absence
# is expected (optional), and how it runs. Sizes: the full run's, then --quick's.

def need_programs(*names):
    def check(ctx):
        for name in names:
            if not os.access(ctx.bench_program(name), os.X_OK):
                return f"{ctx.rel(ctx.bench_program(name))} is not built"
        return None
    return check


def need_all(*checks):
    def check(ctx):
        for c in checks:
            reason = c(ctx)
            if reason:
                return reason
        return None
    return check


def need_memkit(ctx):
    return None if os.access(ctx.memkit, os.X_OK) else f"{ctx.rel(ctx.memkit)} is not built"


def need_tool(name, why):
    def check(ctx):
        return None if shutil.which(name) else (f"{name} is not installed ({why}; "
                                                "scripts/bootstrap --bench installs it)")
    return check


def need_corpora(ctx):
    return None if corpora_dir() else ("no corpora: set MEMKIT_CORPORA_DIR, or put them in "
                                       f"{REPO.parent / 'shared' / 'corpora'}")


def need_peer(ctx):
    return None if peer_dir() else ("no peer: set MEMKIT_PEERS_DIR to the folder holding "
                                    "waittim+MemoryCustodian/")


def need_postgres(ctx):
    return None if postgres_available() else ("no PostgreSQL: install its server (Debian's "
                                               "postgresql-15) or set MEMKIT_SYNC_CONNINFO")


def need_path(path, why):
    def check(ctx):
        return None if (REPO / path).exists() else f"{path} is missing ({why})"
    return check


SIZE_MIB = (100, 1)


def run_markdown(ctx):
    mib = ctx.pick(*SIZE_MIB)
    pattern = f"^BM_parse_markdown/(ascii|mixed_utf8|crlf)/MiB:{mib}$"
    # The allocator policies: benchmark_main's pinned glibc thresholds (what a one-shot process
    # pays), glibc's own adaptive thresholds, and those with malloc's transparent huge pages.
    return {"parts": {
        "pinned": gbench(ctx, "markdown_bench", pattern, pin=True),
        "adaptive": gbench(ctx, "markdown_bench", pattern, pin=True,
                           env={"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"}),
        "hugetlb": gbench(ctx, "markdown_bench", pattern, pin=True,
                          env={"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}),
    }}


def perf_faults(ctx, argv, env=None):
    """Runs argv (a Google Benchmark program) under perf stat: (page faults, its JSON)."""
    out_file = ctx.scratch / f"faults-{len(ctx.commands)}.csv"
    out, _ = ctx.run(["perf", "stat", "-x", ",", "-e", "page-faults", "-o", out_file, *argv],
                     env, env_drop=("GLIBC_TUNABLES",))
    for line in read_text(out_file).splitlines():
        fields = line.split(",")
        if len(fields) >= 3 and fields[2].startswith("page-faults") and fields[0].isdigit():
            return int(fields[0]), json.loads(out)
    raise Failure(f"perf stat counted no page faults:\n{read_text(out_file)}")


def run_parse_faults(ctx):
    """The page faults of one parse of 100 MiB under each allocator policy: the program run
    for a short and a long time, the difference in faults over the difference in parses."""
    mib = ctx.pick(*SIZE_MIB)
    program = pinned_cpu() + [ctx.bench_program("markdown_bench"),
                              f"--benchmark_filter=^BM_parse_markdown/ascii/MiB:{mib}$",
                              "--benchmark_format=json"]
    figures = {"first_touch_us_per_page": first_touch_us(), "mib": mib}
    for policy, env in (("pinned", None),
                        ("adaptive", {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"}),
                        ("hugetlb", {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"})):
        runs = []
        for min_time in ctx.pick((0.5, 3), (0.01, 0.1)):
            faults, output = perf_faults(ctx, program + [f"--benchmark_min_time={min_time}"],
                                         env)
            runs.append({"min_time": min_time, "page_faults": faults,
                         "iterations": output["benchmarks"][0]["iterations"]})
        short, long = runs
        if long["iterations"] <= short["iterations"]:
            raise Failure(f"{policy}: the longer run parsed no more often than the shorter")
        figures[policy] = {"runs": runs, "faults_per_parse":
                           (long["page_faults"] - short["page_faults"]) /
                           (long["iterations"] - short["iterations"])}
    return figures


def run_tokens(ctx):
    mib = ctx.pick(*SIZE_MIB)
    return {"parts": {"main": gbench(ctx, "tokens_bench",
                                     f"^BM_estimate_tokens/(ascii|mixed_utf8|crlf)/MiB:{mib}$",
                                     pin=True)}}


def run_text(ctx):
    mib = ctx.pick(*SIZE_MIB)
    return {"parts": {"main": gbench(ctx, "text_bench",
                                     f"^BM_find_invalid_utf8/(ascii|mixed_utf8|crlf)/MiB:{mib}$",
                                     pin=True)}}


def run_digest(ctx):
    return {"parts": {"main": gbench(ctx, "digest_bench", "^BM_sha256", pin=True)}}


def run_corpora(ctx):
    env = {"MEMKIT_CORPORA_DIR": ctx.rel(corpora_dir())}
    return {"parts": {
        "markdown": gbench(ctx, "markdown_bench", "^BM_parse_markdown_corpora$", env=env,
                           pin=True),
        "tokens": gbench(ctx, "tokens_bench", "^BM_estimate_tokens_corpora$", env=env, pin=True),
        "search": gbench(ctx, "search_bench",
                         "^BM_(memkit_build|fts5_build|agreement)_corpora(/|$)", repetitions=1,
                         env=env),
    }}


def run_parse_vs_cat(ctx):
    mib = ctx.pick(*SIZE_MIB)
    return ctx.json_of([SCRIPTS / "parse_vs_cat.sh", "ascii", str(mib)],
                       {"BUILD_DIR": ctx.rel(ctx.build), "RUNS": str(ctx.pick(5, 1))},
                       position=1)


def run_compact(ctx):
    pattern = f"^BM_plan_inbox_compaction/MiB:({ctx.pick('1|10|100', '1')})$"
    return {"parts": {
        "main": gbench(ctx, "compact_bench", pattern),
        "hugetlb": gbench(ctx, "compact_bench", pattern,
                          env={"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}),
    }}


def run_bench_compaction(ctx):
    out, _ = ctx.run([ctx.memkit, "bench", "compaction", "--project-root", "examples/project",
                      "--sizes", ctx.pick("1M,10M,100M", "1M"), "--runs", str(ctx.pick(3, 1)),
                      "--format", "json", "--quiet"])
    return reply_data(out, ctx)


def run_bench_recall(ctx):
    sizes = ctx.pick([100_000, 1_000_000], [2_000])
    runs = []
    for entries in sizes:
        out, _ = ctx.run([ctx.memkit, "bench", "recall", "--synthetic", str(entries), "--runs",
                          str(ctx.pick(3, 1)), "--queries", str(ctx.pick(1000, 50)), "--format",
                          "json", "--quiet"])
        data = reply_data(out, ctx)
        # Each query's own figures (about 80 bytes a query) stay out of results.json: the page
        # reads the percentiles, overall and by shape.
        data.get("queries", {}).pop("each", None)
        runs.append(data)
    return {"sizes": runs}


def reply_data(out, ctx):
    """The data of a memkit --format json reply."""
    try:
        return json.loads(out)["data"]
    except (ValueError, KeyError) as error:
        raise Failure(f"not a memkit JSON reply ({error!r}): {ctx.commands[-1]}\n{out[-500:]}")


def run_compact_peer(ctx):
    sizes = ctx.pick(["1", "10", "100"], ["1"])
    return ctx.json_of([SCRIPTS / "compact_vs_peer.sh", *sizes],
                       {"BUILD_DIR": ctx.rel(ctx.build), "RUNS": str(ctx.pick(3, 1)),
                        "MEMKIT_PEERS_DIR": str(Path(os.environ["MEMKIT_PEERS_DIR"]))},
                       position=1)


def run_compact_changelogs(ctx):
    return ctx.json_of([SCRIPTS / "compact_vs_peer.sh", ctx.pick("100", "1")],
                       {"BUILD_DIR": ctx.rel(ctx.build), "SKIP_PEER": "1",
                        "RUNS": str(ctx.pick(3, 1)), "INBOX": "changelogs",
                        "CORPORA": ctx.rel(corpora_dir())},
                       position=1)


def run_similarity(ctx):
    entries = str(ctx.pick(1_000_000, 20_000))
    # The build again with malloc's transparent huge pages: what its page faults cost.
    return {"parts": {
        "main": gbench(ctx, "similarity_bench", ".", repetitions=1,
                       env={"MEMKIT_BENCH_SIMILARITY_ENTRIES": entries}),
        "build_hugetlb": gbench(ctx, "similarity_bench", "^BM_build_index/", repetitions=1,
                                env={"MEMKIT_BENCH_SIMILARITY_ENTRIES": entries,
                                     "GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}),
    }}


def run_tiers_commands(ctx):
    return ctx.json_of([sys.executable, SCRIPTS / "tiers_commands.py", ctx.memkit,
                        "--turns", str(ctx.pick(200, 100)), "--runs", str(ctx.pick(20, 2)),
                        "--big-log-mib", str(ctx.pick(16, 1))])


def run_tiers(ctx):
    return {"parts": {"main": gbench(
        ctx, "tiers_bench",
        "^BM_(parse_csv|scan_csv_for_manifest)/MiB:" + ctx.pick("64", "1") +
        "$|^BM_csv_head/|^BM_recent_notes$", pin=True)}}


def run_curated_commands(ctx):
    return ctx.json_of([sys.executable, SCRIPTS / "curated_commands.py", ctx.memkit,
                        "--sizes", ctx.pick("100,2000,20000", "100,2000"),
                        "--runs", str(ctx.pick(10, 2)),
                        "--batch-adds", ctx.pick("500,2000", "50")])


def run_curated(ctx):
    sizes = ctx.pick("1000|10000|100000", "1000")
    return {"parts": {"main": gbench(
        ctx, "curated_bench",
        f"^BM_(parse_row_file|read_workspace|digest|search|plan_add)/(entries|rows):({sizes})"
        "(/|$)|^BM_(fold_telemetry|parse_history|story)(/|$)", pin=True)}}


def run_checkpoint(ctx):
    return ctx.json_of([sys.executable, SCRIPTS / "checkpoint_scaling.py", ctx.memkit,
                        "--sizes", ctx.pick("250,500,1000,2000", "250,500")])


def sync_args(ctx):
    return ["--entries", str(ctx.pick(100_000, 2_000)), "--repeat", str(ctx.pick(3, 1)),
            "--rounds", str(ctx.pick(5, 1))]


def run_sync_dir(ctx):
    return ctx.json_of([sys.executable, SCRIPTS / "sync_commands.py", ctx.memkit, "dir",
                        *sync_args(ctx)])


def run_sync_postgres(ctx):
    conninfo = ctx.postgres()
    return ctx.json_of([sys.executable, SCRIPTS / "sync_commands.py", ctx.memkit, "postgres",
                        *sync_args(ctx)], {"MEMKIT_SYNC_CONNINFO": conninfo})


def run_sync(ctx):
    entries = ctx.pick("100000", "10000")
    return {"parts": {"main": gbench(
        ctx, "sync_bench",
        f"^BM_(parse_sync_base|entry_layout|scan_local_unchanged|scan_local_unchanged_cached|"
        f"scan_local_unchanged_one_reader)/entries:{entries}(/|$)", repetitions=5)}}


def run_postgres(ctx):
    env = {"MEMKIT_BENCH_PG": ctx.postgres()}
    if ctx.quick:
        env["MEMKIT_BENCH_PG_RECORDS"] = "2000"
    return {"parts": {"main": gbench(ctx, "postgres_bench", ".", repetitions=1, env=env)}}


def run_search(ctx):
    entries = str(ctx.pick(1_000_000, 100_000))  # BM_memkit_rewrite reads 81,000 of them
    return {"parts": {
        "main": gbench(ctx, "search_bench",
                       "^BM_(memkit|fts5)_(build|query|count|open|update|rewrite)(/|$)",
                       env={"MEMKIT_BENCH_SEARCH_ENTRIES": entries}),
        "agreement": gbench(ctx, "search_bench", "^BM_agreement(/|$)", repetitions=1,
                            env={"MEMKIT_BENCH_SEARCH_ENTRIES": str(ctx.pick(100_000, 5_000))}),
    }}


def run_search_process(ctx):
    return ctx.json_of([sys.executable, SCRIPTS / "search_process.py", ctx.memkit,
                        "--entries", ctx.pick("100000,1000000", "2000"),
                        "--runs", str(ctx.pick(5, 1))])


def run_mcp(ctx):
    return ctx.json_of(["node", SCRIPTS / "mcp_round_trip.mjs", ctx.memkit,
                        "--runs", str(ctx.pick(200, 5))])


def run_bindings(ctx):
    return ctx.json_of([sys.executable, SCRIPTS / "binding_overhead.py", ctx.build,
                        "--calls", str(ctx.pick(2000, 20)), "--rounds", str(ctx.pick(3, 1)),
                        "--mib", str(ctx.pick(10, 1))])


def perf_stat(ctx, argv, repeat):
    """perf stat -r REPEAT: the means of elapsed time, task-clock and page faults."""
    out_file = ctx.scratch / f"perf-{len(ctx.commands)}.txt"
    ctx.run(["perf", "stat", "-r", str(repeat), "-o", out_file, "-e", "task-clock,page-faults",
             *argv], capture=False)
    text = read_text(out_file).replace(",", "")
    figures = {}
    for key, pattern in (("task_clock_s", r"([\d.]+)\s+msec\s+task-clock"),
                         ("page_faults", r"([\d.]+)\s+page-faults"),
                         ("elapsed_s", r"([\d.]+)\s+(?:\+-\s+[\d.]+\s+)?seconds time elapsed")):
        match = re.search(pattern, text)
        if not match:
            raise Failure(f"perf stat printed no {key}:\n{text}")
        figures[key] = float(match.group(1))
    figures["task_clock_s"] /= 1000
    return figures


def run_startup(ctx):
    repeat = ctx.pick(500, 20)
    return {"repeat": repeat, "first_touch_us_per_page": first_touch_us(),
            "memkit_version": perf_stat(ctx, [ctx.memkit, "--version"], repeat),
            "true": perf_stat(ctx, ["/bin/true"], repeat)}


def run_test_loop(ctx):
    """scripts/check and scripts/check-sanitized, each on a fresh clone of HEAD."""
    figures = {}
    for script in ("check", "check-sanitized"):
        clone = ctx.scratch / f"clone-{script}"
        ctx.run(["git", "clone", "--quiet", REPO, clone], capture=False)
        began = time.monotonic()
        out, _ = ctx.run([f"scripts/{script}"], cwd=clone)
        seconds = time.monotonic() - began
        total = re.findall(r"Total Test time \(real\) =\s*([0-9.]+) sec", out)
        counts = re.findall(r"tests passed, (\d+) tests failed out of (\d+)", out)
        figures[script.replace("-", "_")] = {
            "wall_s": seconds, "ctest_s": sum(float(t) for t in total),
            "tests": sum(int(c[1]) for c in counts)}
        shutil.rmtree(clone, ignore_errors=True)
    figures["compiler_sanitized"] = subprocess.run(["clang", "--version"], capture_output=True,
                                                   text=True).stdout.split("\n")[0]
    return figures


class Source:
    def __init__(self, name, run, needs, about, optional=False, on_request=False):
        self.name, self.run, self.needs, self.about = name, run, needs, about
        self.optional, self.on_request = optional, on_request


SOURCES = [
    Source("bench_compaction", run_bench_compaction, need_memkit,
           "memkit bench compaction --format json on the bundled example grown to 1M,10M,100M"),
    Source("bench_recall", run_bench_recall, need_memkit,
           "memkit bench recall --format json on generated stores", optional=True),
    Source("markdown", run_markdown, need_programs("markdown_bench"),
           "parse_markdown on 100 MiB, under three allocator policies"),
    Source("parse_faults", run_parse_faults,
           need_all(need_programs("markdown_bench"), need_tool("perf", "linux-perf")),
           "the page faults of one parse of 100 MiB under each allocator policy"),
    Source("tokens", run_tokens, need_programs("tokens_bench"), "estimate_tokens on 100 MiB"),
    Source("text", run_text, need_programs("text_bench"), "UTF-8 validation on 100 MiB"),
    Source("digest", run_digest, need_programs("digest_bench"), "SHA-256"),
    Source("corpora", run_corpora,
           need_all(need_corpora, need_programs("markdown_bench", "tokens_bench", "search_bench")),
           "parse, tokens and search on the shared corpora", optional=True),
    Source("parse_vs_cat", run_parse_vs_cat,
           need_all(need_programs("markdown_bench", "write_synthetic_memory"), need_memkit),
           "parse_vs_cat.sh: cat, parse and the CLI on one 100 MiB file"),
    Source("compact", run_compact, need_programs("compact_bench"),
           "planning inbox compaction, 1 to 100 MiB"),
    Source("compact_peer", run_compact_peer,
           need_all(need_memkit, need_peer, need_tool("/usr/bin/time", "peak RSS")),
           "compact_vs_peer.sh: memkit beside MemoryCustodian v0.9.1", optional=True),
    Source("compact_changelogs", run_compact_changelogs,
           need_all(need_memkit, need_corpora, need_tool("/usr/bin/time", "peak RSS")),
           "compact_vs_peer.sh INBOX=changelogs, memkit alone", optional=True),
    Source("similarity", run_similarity, need_programs("similarity_bench"),
           "the near-duplicate index over 1,000,000 entries"),
    Source("tiers_commands", run_tiers_commands, need_memkit, "tiers_commands.py"),
    Source("tiers", run_tiers, need_programs("tiers_bench"), "tiers_bench"),
    Source("curated_commands", run_curated_commands, need_memkit, "curated_commands.py"),
    Source("curated", run_curated, need_programs("curated_bench"), "curated_bench"),
    Source("checkpoint", run_checkpoint, need_all(need_memkit, need_path("examples/curated",
                                                                         "the example store")),
           "checkpoint_scaling.py"),
    Source("sync_dir", run_sync_dir, need_memkit, "sync_commands.py with a folder remote"),
    Source("sync_postgres", run_sync_postgres, need_all(need_memkit, need_postgres),
           "sync_commands.py with PostgreSQL", optional=True),
    Source("sync", run_sync, need_programs("sync_bench"), "sync_bench: the local scan"),
    Source("postgres", run_postgres, need_all(need_programs("postgres_bench"), need_postgres),
           "postgres_bench: the adapter alone", optional=True),
    Source("search", run_search, need_programs("search_bench"),
           "search_bench: memkit beside SQLite FTS5 on 1,000,000 entries"),
    Source("search_process", run_search_process, need_memkit, "search_process.py"),
    Source("mcp", run_mcp,
           need_all(need_memkit, need_tool("node", "Node 18 or later"),
                    need_path("tests/mcp/node_modules/@modelcontextprotocol/sdk",
                              "scripts/bootstrap installs it")),
           "mcp_round_trip.mjs"),
    Source("bindings", run_bindings,
           need_all(need_memkit, need_tool("cc", "the C program"), need_tool("node", "Node"),
                    need_path("bindings/node/node_modules/koffi", "scripts/bootstrap")),
           "binding_overhead.py"),
    Source("startup", run_startup, need_all(need_memkit, need_tool("perf", "linux-perf")),
           "perf stat of memkit --version and /bin/true"),
    Source("test_loop", run_test_loop, need_all(need_tool("git", "the clone")),
           "scripts/check and scripts/check-sanitized on a fresh clone (only with --only)",
           on_request=True),
]
SOURCE_NAMES = [s.name for s in SOURCES]


def build_bench(build):
    """Configures and builds the bench build; returns the commands."""
    folder = rel_to_repo(build)
    commands = [["cmake", "-S", ".", "-B", folder, "-DCMAKE_BUILD_TYPE=Release",
                 "-DMEMKIT_BUILD_BENCH=ON", "-DMEMKIT_BUILD_TESTS=OFF"],
                ["cmake", "--build", folder, "-j2"]]
    for argv in commands:
        progress("$ " + " ".join(argv))
        done = subprocess.run(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            sys.stderr.write(done.stdout.decode(errors="replace")[-5000:])
            raise Failure(f"the bench build failed: {' '.join(argv)}")
    return [" ".join(argv) for argv in commands]


def now_rfc3339():
    return datetime.datetime.now(datetime.timezone.utc).astimezone().isoformat(timespec="seconds")


def rel_to_repo(path):
    """The path as seen from the repository root: relative inside it or beside it."""
    path = Path(path).resolve()
    relative = os.path.relpath(path, REPO)
    return relative if relative.count("..") <= 1 else str(path)
