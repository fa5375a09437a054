#!/usr/bin/env python3
"""Builds each fuzz target's seed corpus from the files memkit's tests already hold.

usage: seed_corpus.py OUT_DIR [--repo REPO] [--corpora DIR]

Writes OUT_DIR/<target>/<sha1 of the input> for every target of fuzz/CMakeLists.txt, from
  tests/            CLI case setups and expected files, vectors, unit test inputs: Markdown,
                    JSON, JSON Lines, CSV and sync files by name, and the --payload, --tools and
                    --columns-json values of the CLI cases' args;
  ../shared/corpora the shared corpora of real memory files (Markdown), when the folder exists
                    (skipped without it).
An input is shaped for its target: a selector byte first where the target reads one, parts
joined with the "\\0\\0" separator fuzz_support.hpp splits on. Stdlib only; the corpus is a build
product, never committed (fuzz/regressions/ holds the inputs that once crashed).
"""

import argparse
import hashlib
import os
import re
import sys

MAX_INPUT_BYTES = 256 * 1024  # larger files slow every replay and teach the fuzzer little
MAX_PER_TARGET = 3000
SEP = b"\0\0"
STAMP = re.compile(rb"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?")


def files_under(root):
    for here, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(here, name)
            if os.path.isfile(path) and not os.path.islink(path):
                yield path


def read(path):
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= MAX_INPUT_BYTES else None


class Corpus:
    def __init__(self, out):
        self.out = out
        self.counts = {}

    def add(self, target, data):
        if data is None or self.counts.get(target, 0) >= MAX_PER_TARGET:
            return
        folder = os.path.join(self.out, target)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, hashlib.sha1(data).hexdigest())
        if os.path.exists(path):
            return
        with open(path, "wb") as f:
            f.write(data)
        self.counts[target] = self.counts.get(target, 0) + 1


def memorybox_selector(path):
    """The path fuzz/memorybox_entries_fuzz.cpp reads the bytes as (its kPaths)."""
    name = os.path.basename(path)
    if "/daily/" in path:
        return 2
    if name in ("SOP_LIBRARY.md", "PATTERNS.md", "MISTAKES.md", "DECISIONS.md"):
        return 1
    if "/clients/" in path:
        return 3
    return 0


def curated_json_selectors(path):
    """Which readers of fuzz/curated_json_fuzz.cpp a JSON file can feed."""
    name = os.path.basename(path)
    if name == "config.json":
        return [4]
    if "batch" in path:
        return [3]
    if "checkpoint" in path:
        return [2]
    if "episode" in path:
        return [1]
    return [0, 1, 2, 3, 4]


def option_values(args_path, option):
    """The values of `option` in a CLI case's args (one argument a line)."""
    data = read(args_path)
    if data is None:
        return []
    lines = data.split(b"\n")
    return [lines[i + 1] for i, line in enumerate(lines[:-1]) if line == option.encode()]


# The files fuzz/recall_fuzz.cpp reads the bytes as (its kFiles), by what ends their path.
RECALL_FILES = ["/decisions.md", "/archive/", "/inbox.md", "/LONG_TERM.md", "/PATTERNS.md",
                "/daily/", "/SESSION_LOG.md", "/ARCHIVES/", "/sessions/", "_", "/global.md",
                "/manifest.json", "/rows/", "/episodes/"]


def seed_file(corpus, path, data):
    name = os.path.basename(path)
    for selector, part in enumerate(RECALL_FILES):
        if part in path and (part != "_" or name.endswith(".md")):
            corpus.add("recall", bytes([selector]) + data)
            break
    if name.endswith(".md"):
        corpus.add("markdown", data)
        corpus.add("search", b"the OR memory" + SEP + data)
        corpus.add("memorybox_entries", bytes([memorybox_selector(path)]) + data)
        if "/rows/" in path or data.startswith(b"# ") or b"\nType: " in data:
            corpus.add("curated_rows", data)
        if name in ("manifest.md", "decisions.md"):
            corpus.add("custodian_manifest", data)
        if name == "global.md":
            corpus.add("tiers_json", b"{}" + SEP + b"[]" + SEP + data)
    if name.endswith(".json"):
        corpus.add("json", data)
        for selector in curated_json_selectors(path):
            corpus.add("curated_json", bytes([selector]) + data)
        if name == "manifest.json":
            corpus.add("tiers_json", data + SEP + b'["a","b"]')
        if name == "sync.json":
            corpus.add("sync_state", SEP + data)
        if name in ("journal.json", "applied.json"):
            for mode in range(4):
                corpus.add("journal", bytes([mode]) + data + SEP + data)
        if name == "access-snapshot.json":
            corpus.add("curated_logs", SEP + data)
    if name.endswith(".jsonl"):
        corpus.add("curated_logs", data)
        corpus.add("sync_state", data.split(b"\n", 1)[0])
        for line in data.split(b"\n")[:4]:
            corpus.add("json", line)
        if name == "canon-ledger.jsonl":
            corpus.add("memorybox_entries", b"\0" + data)
    if name.endswith(".csv"):
        corpus.add("csv", data)
    if name == "base.tsv":
        corpus.add("sync_state", SEP + SEP + data)
    if name == "scan.cache":
        corpus.add("sync_state", SEP + SEP + SEP + data)
    if name == "args":
        for value in option_values(path, "--payload"):
            corpus.add("curated_json", b"\0" + value)
            corpus.add("json", value)
        for option in ("--tools", "--columns-json"):
            for value in option_values(path, option):
                corpus.add("tiers_json", SEP + value)
        for value in option_values(path, "--now"):
            corpus.add("clock", value)
    for stamp in set(STAMP.findall(data[:4096])):
        corpus.add("clock", stamp)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--repo", default=os.path.dirname(here))
    parser.add_argument("--corpora", default=None)
    options = parser.parse_args()
    corpora = options.corpora or os.path.join(options.repo, "..", "shared", "corpora")

    corpus = Corpus(options.out)
    sources = [os.path.join(options.repo, "tests")]
    if os.path.isdir(corpora):
        sources.append(corpora)
    else:
        print(f"seed_corpus: no {corpora}; seeding from tests/ only", file=sys.stderr)
    for source in sources:
        for path in files_under(source):
            data = read(path)
            if data is not None:
                seed_file(corpus, path.replace(os.sep, "/"), data)
    # A few shapes no test file holds, so that every target starts from something.
    for stamp in (b"2026-11-30T10:00:00+01:00", b"2026-11-30T09:00:00.123Z", b"2026-02-29"):
        corpus.add("clock", stamp)
    corpus.add("json", b'{"a":[1,{"b":null}],"c":"\\u00e9"}')
    corpus.add("csv", b'a,b\n"1,2",3\n')
    for query in (b'cache OR deploy', b'"release branch" NOT staging*', b'(a OR b) c tier:2',
                  b'since:2026-01-01 min-confidence:0.8 layout:tiers', b'Caf\xc3\xa9 cache_dir'):
        corpus.add("search", query + SEP + b"Clear the build cache\nDeploy from the release "
                   b"branch\nThe cache_dir setting moved\nCaf\xc3\xa9 staging deploys")
    for target in sorted(corpus.counts):
        print(f"seed_corpus: {target}: {corpus.counts[target]} inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
