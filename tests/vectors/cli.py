#!/usr/bin/env python3
"""The shared test vectors (tests/vectors/README.md) run through the `memkit` CLI.

Usage: cli.py MEMKIT [--update] [CASE...]

Without --update, checks that the CLI still gives every committed expectation (exit 1 with a
diff otherwise). With --update, rewrites the expectations from the CLI's output: review the diff
before committing it. CASE names limit the run to those case folders. Typed expectations
(plan_id, applied, inbox_counts, budget_rows) are read from the envelope, so they agree with the
JSON by construction; a tiers writer's `applied` (which its envelope does not hold) is its exit
code being 0, the rule of mk_result_applied, and a curated step's is read from what its data says
it wrote (curated_typed).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def command_table(memkit):
    """The command table as the CLI prints it: {(group, verb): command}."""
    table = json.loads(subprocess.run([memkit, "commands", "--format", "json"], check=True,
                                      capture_output=True).stdout)
    return {(g["name"], c["verb"]): c for g in table["groups"] for c in g["commands"]}


def argv_of(step, plan_ids, table):
    """A step's request as the CLI's words: `run` names the command, each of `args` is a
    positional (by its lower-case name, in the table's order) or `--name` (with its value, or
    alone for true); a list is its JSON; "$N" is step N's Plan ID. A gate's `answers` become the
    flags that answer each gate (a judge's answers in the library)."""
    if step.get("op") == "units":
        return ["markdown", "units", step["file"]]
    group, _, verb = step["run"].partition(" ")
    command = table[(group, verb)]
    args = dict(step.get("args", {}))
    for key, value in args.items():
        if isinstance(value, str) and value.startswith("$"):
            args[key] = plan_ids[int(value[1:]) - 1]
    words = [group] + (verb.split(" ") if verb else [])
    for a in command["arguments"]:
        if a["positional"] and a["name"].lower() in args:
            words.append(args.pop(a["name"].lower()))
    for key, value in args.items():
        if value is True:
            words.append("--" + key)
        elif isinstance(value, list):
            words += ["--" + key, json.dumps(value, ensure_ascii=False, separators=(",", ":"))]
        elif isinstance(value, (str, int)) and value is not False:
            words += ["--" + key, str(value)]
        elif value is not False:
            raise SystemExit(f"{step['run']}: argument {key!r} has value {value!r}")
    return words + (gate_flags(step.get("answers") or {}) if step["run"] == "memorybox gate"
                    else [])


# The tiers commands that write: applied iff they succeed (session-init only when it logs).
TIERS_WRITERS = ("log-turn", "persist-turn", "write-theme", "write-global", "write-data")


def gate_flags(answers):
    """The answers of a gate step (mk_gate's forms) as the flags that answer each gate. A gate
    missing from `answers` gets no flag: the host abstains there."""
    args = []
    unknown = set(answers) - {"VALUE", "ALIGNMENT", "REDUNDANCY", "FRESHNESS", "PLACEMENT"}
    if unknown:
        raise SystemExit(f"gate: unknown gate(s) {sorted(unknown)} in answers")
    if "VALUE" in answers:
        args += ["--value", answers["VALUE"]]
    if "ALIGNMENT" in answers:
        word, _, category = answers["ALIGNMENT"].partition(" ")
        args += {"existing": ["--category", category], "new": ["--new-category", category],
                 "none": ["--no-category"]}[word]
    if "REDUNDANCY" in answers:
        said = answers["REDUNDANCY"]
        args += ["--not-redundant"] if said == "none" else ["--redundant-with", said]
    if "FRESHNESS" in answers:
        word, _, date = answers["FRESHNESS"].partition(" ")
        args += {"stable": ["--stable"], "time_sensitive": ["--decay-trigger", date]}[word]
    if "PLACEMENT" in answers:
        tier, _, file = answers["PLACEMENT"].partition(" ")
        args += ["--tier", tier, "--file", file]
    return args


def typed(step, envelope, exit_code):
    group, _, verb = step["run"].partition(" ")
    data = envelope["data"]
    plan = data.get("plan") if isinstance(data, dict) else None
    expect = {"plan_id": plan["plan_id"] if isinstance(plan, dict) else None,
              "applied": bool(data.get("applied")) if isinstance(data, dict) else False}
    if verb in ("add", "update") and group != "curated":  # direct writes: applied when they wrote
        expect["applied"] = bool(data.get("written")) if isinstance(data, dict) else False
    if group == "curated":  # mk_result_applied: the reply's own flag, which the envelope lacks
        return curated_typed(verb, envelope, exit_code)
    if group == "tiers" and verb not in ("archive-themes", "recover"):  # they apply directly
        writes = verb in TIERS_WRITERS or (
            verb == "session-init" and not step.get("args", {}).get("no-log"))
        expect["applied"] = writes and exit_code == 0
    if step["run"] == "custodian compact" and data.get("mode") == "inbox":
        expect["inbox_counts"] = {k: data[k] for k in
                                  ("inbox_items", "empty_items", "duplicates", "tombstone_matches")}
        expect["inbox_counts"]["candidates"] = len(data["candidates"])
    if step["run"] == "custodian status" and "files" in data:
        states = {"OK": 0, "NEAR LIMIT": 1, "OVER BUDGET": 2, "MISSING": 3, "NOT ENABLED": 4}
        expect["budget_rows"] = [{"path": f["path"], "tokens": f["tokens"] or 0,
                                  "limit": f["limit"] or 0, "state": states[f["state"]]}
                                 for f in data["files"]]
    return expect


def curated_typed(command, envelope, exit_code):
    """The typed expectations of a curated step. The envelope holds no `applied`
    (mk_result_applied), so it is read from what the command says it wrote: a row write's
    non-empty `files` outside a dry run, a batch operation's `result` "applied", the `applied` of
    floors prune and telemetry compact, and for a floor append (event add, episode add) its
    success. Reads write no row: false."""
    data = envelope["data"] if isinstance(envelope["data"], dict) else {}
    plan = data.get("plan")
    if command in ("event add", "episode add"):
        applied = exit_code == 0
    elif command == "batch":
        applied = any(r.get("result") == "applied" for r in data.get("results") or [])
    elif command in ("floors prune", "telemetry compact"):
        applied = bool(data.get("applied"))
    else:
        applied = bool(data.get("files")) and not data.get("dry_run")
    return {"plan_id": plan["plan_id"] if isinstance(plan, dict) else None, "applied": applied}


def run_case(memkit, case_dir, update, table):
    case = json.loads((case_dir / "case.json").read_text())
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        shutil.copytree(case_dir / "files", root)
        plan_ids = []
        for n, step in enumerate(case["steps"], 1):
            argv = [memkit] + argv_of(step, plan_ids, table) + ["--format", "json", "--now",
                                                                case["clock"]]
            if step.get("op") != "units":  # the command's root argument names the root
                command = table[tuple(step["run"].partition(" ")[::2])]
                argv += [next(a["name"] for a in command["arguments"]
                              if a.get("root") and a["name"] != "--memory-dir"), str(root)]
            # The library reads no MEMKIT_STORE, MEMKIT_WORKSPACE, MEMKIT_ACTOR or
            # MEMKIT_SYNC_CONNINFO: neither may the CLI here.
            env = {k: v for k, v in os.environ.items() if k not in (
                "MEMKIT_STORE", "MEMKIT_WORKSPACE", "MEMKIT_ACTOR", "MEMKIT_SYNC_CONNINFO")}
            done = subprocess.run(argv, cwd=root, capture_output=True, env=env)
            text = done.stdout.decode("utf-8")
            assert text.endswith("\n"), f"{case_dir.name} step {n}: no JSON output: {done.stderr!r}"
            envelope = json.loads(text)
            plan_id = (envelope["data"].get("plan") or {}).get("plan_id") if isinstance(
                envelope["data"], dict) else None
            plan_ids.append(plan_id)
            got = {"exit_code": done.returncode, "json": f"{n}.json"}
            if step.get("op") != "units":
                got = {"exit_code": done.returncode, **typed(step, envelope, done.returncode),
                       "json": f"{n}.json"}
            body = text[:-1]
            if step.get("op") == "units":
                body = json.dumps(envelope["data"], ensure_ascii=False, sort_keys=True,
                                  separators=(",", ":"))
                got = {"exit_code": done.returncode, "json": f"{n}.json"}
            if update:
                step["expect"] = got
                (case_dir / f"{n}.json").write_text(body, encoding="utf-8")
                continue
            if step.get("expect") != got:
                problems.append(f"{case_dir.name} step {n}: expected {step.get('expect')}, got {got}")
            expected_body = (case_dir / f"{n}.json").read_text(encoding="utf-8")
            if expected_body != body:
                problems.append(f"{case_dir.name} step {n}: JSON differs:\n  expected {expected_body}\n"
                                f"  got      {body}")
    if update:
        (case_dir / "case.json").write_text(json.dumps(case, indent=2, ensure_ascii=False) + "\n")
    return problems


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    memkit, update = sys.argv[1], "--update" in sys.argv[2:]
    names = [a for a in sys.argv[2:] if a != "--update"]
    problems = []
    cases = sorted(p for p in HERE.iterdir() if (p / "case.json").is_file()
                   and (not names or p.name in names))
    table = command_table(memkit)
    for case_dir in cases:
        problems += run_case(memkit, case_dir, update, table)
    for p in problems:
        print(p)
    print(f"{len(cases)} case(s), {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
