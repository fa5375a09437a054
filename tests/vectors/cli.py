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


def argv_of(step, plan_ids, layout="custodian"):
    def ref(value):
        return plan_ids[int(value[1:]) - 1] if isinstance(value, str) and value.startswith("$") else value

    op = step["op"]
    if op == "units":
        return ["markdown", "units", step["file"]]
    if layout == "curated":
        if op != "curated":
            raise SystemExit(f"op {op!r} has no curated command")
        return curated_args(step, ref)
    if layout == "tiers":
        if op == "recover":
            args = ["tiers", "recover"] + (["--apply"] if step.get("apply") else [])
            return args + (["--rollback"] if step.get("rollback") else [])
        if op != "tiers":
            raise SystemExit(f"op {op!r} has no tiers command")
        return tiers_args(step, ref)
    if layout == "memorybox":
        if op == "sync":
            return sync_args(step, ref)
        if op in ("plan_memorybox_compact", "apply_memorybox_compact"):
            args = ["memorybox", "compact"] + (["--file", step["file"]] if step.get("file") else [])
            args += ["--force"] if step.get("force") else []
            return args + (["--apply", "--confirm-plan", ref(step["confirm"])]
                           if op.startswith("apply_") else [])
        if op in ("plan_promote", "apply_promote", "plan_archive_entry", "apply_archive_entry"):
            promote = op.endswith("promote")
            args = ["memorybox", "promote" if promote else "update", "--entry", step["entry"]]
            args += [] if promote else ["--resolve", "archive"]
            return args + (["--apply", "--confirm-plan", ref(step["confirm"])]
                           if op.startswith("apply_") else [])
        if op == "gate":
            return ["memorybox", "gate"] + gate_flags(step)
        if op not in ("init", "status", "decay", "load", "update", "hygiene"):
            raise SystemExit(f"op {op!r} has no memorybox command yet")
        if op == "update":
            args = ["memorybox", "update", "--entry", step["entry"]]
            event = step["event"]
            if event == "resolve_keep":
                args += ["--resolve", "keep"]
                if step.get("confidence") is not None:
                    args += ["--confidence", "%d.%02d" % divmod(step["confidence"], 100)]
            else:
                args += ["--" + event]
            return args + (["--note", step["note"]] if step.get("note") is not None else [])
        args = ["memorybox", op] + (["--file", step["file"]] if step.get("file") else [])
        args += ["--tier", str(step["tier"])] if step.get("tier") else []
        return args + (["--include-archive"] if step.get("include_archive") else [])
    args = ["custodian"]
    if op == "init":
        args += ["init"] + (["--extended"] if step.get("extended") else [])
    elif op in ("status", "check"):
        args += [op]
    elif op in ("plan_compaction", "apply_compaction"):
        args += ["compact"]
        if step.get("target") is not None:
            args += ["--target", step["target"]]
        if step.get("archive_oldest"):
            args += ["--archive-oldest"]
    elif op == "add":
        args += ["add", step["message"], "--type", step["type"]]
        for key in ("reason", "name", "area"):
            if step.get(key) is not None:
                args += ["--" + key, step[key]]
        if step.get("allow_long"):
            args += ["--allow-long"]
    elif op in ("plan_forget", "apply_forget"):
        args += ["forget", step["topic"], "--mode", step.get("mode", "soft")]
        if step.get("allow_broad_match"):
            args += ["--allow-broad-match"]
    elif op in ("plan_undo", "apply_undo"):
        args += ["undo", ref(step["plan_id"])]
    elif op == "recover":
        args += ["recover"] + (["--apply"] if step.get("apply") else [])
        args += ["--rollback"] if step.get("rollback") else []
    else:
        raise SystemExit(f"unknown op {op!r}")
    if op.startswith("apply_"):
        args += ["--apply", "--confirm-plan", ref(step["confirm"])]
    return args


# The tiers commands that write: applied iff they succeed (session-init only when it logs).
TIERS_WRITERS = ("log-turn", "persist-turn", "write-theme", "write-global", "write-data")


def tiers_args(step, ref):
    """A tiers step as `tiers COMMAND` and its options: each key of `args` (an mk_tiers_options
    field) is `--` + the key with `-` for `_`, but for the keys whose CLI spelling differs."""
    command = step["command"]
    args = ["tiers", command]
    for key, value in step.get("args", {}).items():
        if key == "template_name" and command == "template":
            args.append(value)  # `tiers template NAME`: positional
            continue
        if key == "confirm_plan_id":
            args += ["--apply", "--confirm-plan", ref(value)]
            continue
        name = {"tools_json": "--tools", "template_name": "--template"}.get(
            key, "--" + key.replace("_", "-"))
        if value is True:
            args.append(name)
        elif isinstance(value, (str, int)) and not isinstance(value, bool):
            args += [name, str(value)]
        else:
            raise SystemExit(f"tiers: argument {key!r} has value {value!r}: a string, an integer "
                             f"or true")
    return args


# mk_curated_options' positional fields, in the order they follow the command's words.
CURATED_POSITIONALS = ("name", "dst", "query", "id")
# The keys whose CLI spelling is not `--` + the key with `-` for `_`.
CURATED_SPELLINGS = {"row_class": "--class", "delete_link": "--delete"}


def curated_args(step, ref):
    """A curated step as `curated WORDS [POSITIONALS] OPTIONS`: `command` is the CLI's words
    ("add", "event add"); each key of `args` (an mk_curated_options field) is `--` + the key with
    `-` for `_`, but for name, dst, query and id, which are positionals in that order (name is
    --name for add and edit), and the keys of CURATED_SPELLINGS and confirm_plan_id."""
    command = step["command"]
    args = ["curated"] + command.split(" ")
    given = step.get("args", {})
    for key in CURATED_POSITIONALS:
        if key in given and not (key == "name" and command in ("add", "edit")):
            args.append(given[key])
    for key, value in given.items():
        if key in CURATED_POSITIONALS and not (key == "name" and command in ("add", "edit")):
            continue
        if key == "confirm_plan_id":
            args += ["--apply", "--confirm-plan", ref(value)]
            continue
        name = CURATED_SPELLINGS.get(key, "--" + key.replace("_", "-"))
        if value is True:
            args.append(name)
        elif isinstance(value, (str, int)) and not isinstance(value, bool):
            args += [name, str(value)]
        else:
            raise SystemExit(f"curated: argument {key!r} has value {value!r}: a string, an "
                             f"integer or true")
    return args


# The mk_sync_options fields that are no CLI option: conninfo is MEMKIT_SYNC_CONNINFO (sync_env).
SYNC_ENVIRONMENT = ("conninfo",)


def sync_args(step, ref):
    """A sync step as `memorybox sync VERB` and its options: each key of `args` (an
    mk_sync_options field) is `--` + the key with `-` for `_`, but confirm_plan (--apply
    --confirm-plan ID), apply (--apply, once) and conninfo (the environment, sync_env)."""
    given = step.get("args", {})
    args = ["memorybox", "sync", step["command"]]
    for key, value in given.items():
        if key in SYNC_ENVIRONMENT:
            continue
        if key == "confirm_plan":
            args += ["--apply", "--confirm-plan", ref(value)]
        elif key == "apply":
            if value is not True:
                raise SystemExit(f"sync: apply has value {value!r}: true or absent")
            if "confirm_plan" not in given:
                args.append("--apply")
        elif isinstance(value, str):
            args += ["--" + key.replace("_", "-"), value]
        else:
            raise SystemExit(f"sync: argument {key!r} has value {value!r}: a string")
    return args


def sync_env(step, env):
    """The CLI's environment for a step: a sync step's conninfo is MEMKIT_SYNC_CONNINFO, which
    is otherwise removed (the library reads no environment variable)."""
    env = {k: v for k, v in env.items() if k != "MEMKIT_SYNC_CONNINFO"}
    conninfo = step.get("args", {}).get("conninfo") if step["op"] == "sync" else None
    if conninfo is not None:
        env["MEMKIT_SYNC_CONNINFO"] = conninfo
    return env


def gate_flags(step):
    """A gate step as flags: the candidate's, then each answer of `answers` (mk_gate's forms) as
    its gate's flags. A gate missing from `answers` gets no flag: the host abstains there."""
    args = ["--text", step["text"], "--confidence", step["confidence"]]
    for key in ("title", "source", "client"):
        if step.get(key) is not None:
            args += ["--" + key, step[key]]
    answers = step.get("answers") or {}
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
    return args + (["--apply"] if step.get("apply") else [])


def typed(step, envelope, exit_code):
    op = step["op"]
    data = envelope["data"]
    plan = data.get("plan") if isinstance(data, dict) else None
    expect = {"plan_id": plan["plan_id"] if isinstance(plan, dict) else None,
              "applied": bool(data.get("applied")) if isinstance(data, dict) else False}
    if op in ("add", "update"):  # direct writes: applied when they wrote
        expect["applied"] = bool(data.get("written")) if isinstance(data, dict) else False
    if op == "curated":  # mk_result_applied: the reply's own flag, which the envelope lacks
        return curated_typed(step, envelope, exit_code)
    if op == "tiers" and step["command"] != "archive-themes":  # the others apply directly
        writes = step["command"] in TIERS_WRITERS or (
            step["command"] == "session-init" and not step.get("args", {}).get("no_log"))
        expect["applied"] = writes and exit_code == 0
    if op in ("plan_compaction", "apply_compaction") and data.get("mode") == "inbox":
        expect["inbox_counts"] = {k: data[k] for k in
                                  ("inbox_items", "empty_items", "duplicates", "tombstone_matches")}
        expect["inbox_counts"]["candidates"] = len(data["candidates"])
    if op == "status" and "files" in data:
        states = {"OK": 0, "NEAR LIMIT": 1, "OVER BUDGET": 2, "MISSING": 3, "NOT ENABLED": 4}
        expect["budget_rows"] = [{"path": f["path"], "tokens": f["tokens"] or 0,
                                  "limit": f["limit"] or 0, "state": states[f["state"]]}
                                 for f in data["files"]]
    return expect


def curated_typed(step, envelope, exit_code):
    """The typed expectations of a curated step. The envelope holds no `applied`
    (mk_result_applied), so it is read from what the command says it wrote: a row write's
    non-empty `files` outside a dry run, a batch operation's `result` "applied", the `applied` of
    floors prune and telemetry compact, and for a floor append (event add, episode add) its
    success. Reads write no row: false."""
    data = envelope["data"] if isinstance(envelope["data"], dict) else {}
    plan = data.get("plan")
    command = step["command"]
    if command in ("event add", "episode add"):
        applied = exit_code == 0
    elif command == "batch":
        applied = any(r.get("result") == "applied" for r in data.get("results") or [])
    elif command in ("floors prune", "telemetry compact"):
        applied = bool(data.get("applied"))
    else:
        applied = bool(data.get("files")) and not data.get("dry_run")
    return {"plan_id": plan["plan_id"] if isinstance(plan, dict) else None, "applied": applied}


def run_case(memkit, case_dir, update):
    case = json.loads((case_dir / "case.json").read_text())
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        shutil.copytree(case_dir / "files", root)
        plan_ids = []
        for n, step in enumerate(case["steps"], 1):
            layout = case.get("layout", "custodian")
            argv = [memkit] + argv_of(step, plan_ids, layout) + ["--format", "json", "--now",
                                                                 case["clock"]]
            root_flag = {"memorybox": "--root", "tiers": "--workspace",
                         "curated": "--store"}.get(layout, "--project-root")
            if step["op"] != "units":
                argv += [root_flag, str(root)]
            # The library reads no MEMKIT_STORE, MEMKIT_WORKSPACE, MEMKIT_ACTOR or
            # MEMKIT_SYNC_CONNINFO: neither may the CLI here (a sync step's conninfo aside).
            env = sync_env(step, {k: v for k, v in os.environ.items()
                                  if k not in ("MEMKIT_STORE", "MEMKIT_WORKSPACE", "MEMKIT_ACTOR")})
            done = subprocess.run(argv, cwd=root, capture_output=True, env=env)
            text = done.stdout.decode("utf-8")
            assert text.endswith("\n"), f"{case_dir.name} step {n}: no JSON output: {done.stderr!r}"
            envelope = json.loads(text)
            plan_id = (envelope["data"].get("plan") or {}).get("plan_id") if isinstance(
                envelope["data"], dict) else None
            plan_ids.append(plan_id)
            got = {"exit_code": done.returncode, **typed(step, envelope, done.returncode),
                   "json": f"{n}.json"}
            body = text[:-1]
            if step["op"] == "units":
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
    for case_dir in cases:
        problems += run_case(memkit, case_dir, update)
    for p in problems:
        print(p)
    print(f"{len(cases)} case(s), {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
