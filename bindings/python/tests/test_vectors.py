"""The shared test vectors (tests/vectors/README.md) run through the Python binding.

Every case folder beside tests/vectors/README.md becomes one test; each step is a subTest. The
expected JSON bytes were written by the CLI, so passing here means the binding, the C ABI and
the CLI agree byte for byte. Each step runs through the workspace's command method (ws.compact,
ws.sync_push, ...) with its arguments under their Python names, positionals given by position.
"""
import json
import keyword
import os
import shutil
import tempfile
import unittest
from pathlib import Path

try:
    from .support import VECTORS  # bindings/python/../../tests/vectors
except ImportError:
    from support import VECTORS

import memkit

# The JSON names of the unit kinds, to check the typed units against the document JSON (B5).
UNIT_KIND_JSON = {
    memkit.UnitKind.FRONT_MATTER: "front_matter",
    memkit.UnitKind.BULLET: "bullet_unit",
    memkit.UnitKind.FENCE: "fence",
    memkit.UnitKind.COMMENT: "comment",
    memkit.UnitKind.HEADING: "heading",
    memkit.UnitKind.BLANK: "blank",
    memkit.UnitKind.TEXT: "text",
}


def case_dirs():
    return sorted(path.parent for path in VECTORS.glob("*/case.json"))


def python_name(name):
    """A vector's argument name ("confirm-plan", "class") as a Python keyword."""
    name = name.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def run_step(ws, now, step, ref):
    """One request step through the idiomatic layer, as tests/vectors/cli.py runs it through the
    CLI: the command method of its verb, positionals in the table's order, then keywords."""
    group, _, verb = step["run"].partition(" ")  # "search": a command without a verb
    entry = next(g for g in memkit.commands()["groups"] if g["name"] == group)
    assert entry["workspace"] in (ws.layout.name.lower(), "any"), \
        f"{step['run']} on a {ws.layout.name} workspace"
    method = getattr(ws, (verb or group).replace(" ", "_").replace("-", "_"))
    args = {python_name(k): ref(v) for k, v in (step.get("args") or {}).items()}
    command = next(c for c in entry["commands"] if c["verb"] == verb)
    positionals = [args.pop(a["name"].lower()) for a in command["arguments"]
                   if a["positional"] and a["name"].lower() in args]
    if step["run"] != "memorybox gate":
        return method(now, *positionals, **args)
    # answers: gate name -> the host's answer; a gate it lacks is abstained from.
    answers = step.get("answers") or {}
    asked = []

    def judge(gate_name, question):
        asked.append((gate_name, question["gate"]))
        return answers.get(gate_name)

    result = method(now, *positionals, judge=judge, **args)
    if result.judge_error is not None:
        result.close()
        raise AssertionError(f"the judge raised: {result.judge_error!r}")
    for gate_name, named in asked:
        if gate_name != named:
            result.close()
            raise AssertionError(f"the question for {gate_name} names gate {named}")
    return result


class VectorTests(unittest.TestCase):
    def test_vectors_folder_has_cases(self):
        self.assertTrue((VECTORS / "README.md").is_file(), f"no test vectors at {VECTORS}")
        self.assertGreater(len(case_dirs()), 0, f"no */case.json under {VECTORS}")

    def run_case(self, case_dir: Path):
        case = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
        self.assertGreater(len(case["steps"]), 0)
        now = memkit.parse_clock(case["clock"])
        layout = memkit.Layout[case.get("layout", "custodian").upper()]
        plan_ids = []

        def ref(value):
            if isinstance(value, str) and value.startswith("$"):
                index = int(value[1:])
                self.assertTrue(1 <= index <= len(plan_ids), f"{value} names no earlier step")
                resolved = plan_ids[index - 1]
                self.assertIsNotNone(resolved, f"{value}: that step made no plan")
                return resolved
            return value

        with tempfile.TemporaryDirectory(prefix="memkit-py-vector-") as temp:
            root = Path(temp) / "project"
            shutil.copytree(case_dir / "files", root, symlinks=True)
            with memkit.Workspace.open(root, layout=layout) as ws:
                self.assertIs(ws.layout, layout)
                for number, step in enumerate(case["steps"], start=1):
                    with self.subTest(case=case_dir.name, step=number,
                                      run=step.get("run", step.get("op"))):
                        expect = step["expect"]
                        expected_json = (case_dir / expect["json"]).read_bytes()
                        if step.get("op") == "units":
                            plan_ids.append(None)
                            data = (root / step["file"]).read_bytes()
                            with memkit.Document.parse(data) as doc:
                                self.assertEqual(doc.json_bytes, expected_json)
                                self.check_units_agree(doc)
                            continue
                        # cli.py runs each step in the case's folder: a relative path the
                        # library resolves against the working directory (curated --file)
                        # must find the same file.
                        cwd = os.getcwd()
                        os.chdir(root)
                        try:
                            result = run_step(ws, now, step, ref)
                        finally:
                            os.chdir(cwd)
                        with result:
                            plan_ids.append(result.plan_id)
                            self.check_result(result, expect, expected_json, ref)
                            if layout is not memkit.Layout.CUSTODIAN:  # no budget rows
                                self.assertEqual(result.budget_row_count, 0)

    def check_result(self, result, expect, expected_json, ref):
        self.assertEqual(result.json_bytes, expected_json)
        pieces = []
        result.write_json(pieces.append)
        self.assertEqual(b"".join(pieces), expected_json)
        self.assertEqual(result.exit_code, expect["exit_code"])
        if "plan_id" in expect:
            self.assertEqual(result.plan_id, ref(expect["plan_id"]))
        if "applied" in expect:
            self.assertIs(result.applied, expect["applied"])
        if "inbox_counts" in expect:
            counts = result.inbox_counts
            self.assertIsNotNone(counts)
            self.assertEqual(vars(counts), expect["inbox_counts"])
        if "budget_rows" in expect:
            rows = [{"path": row.path, "tokens": row.tokens, "limit": row.limit,
                     "state": int(row.state)} for row in result.budget_rows]
            self.assertEqual(rows, expect["budget_rows"])
        if result.plan_id is None:
            self.assertEqual(result.plan_operation_count, 0)

    def check_units_agree(self, doc):
        """The typed units (mk_document_unit) and the JSON units (mk_document_json) agree."""
        units = json.loads(doc.json_bytes)["units"] or []
        typed = doc.units
        self.assertEqual(len(typed), len(units))
        for unit, shown in zip(typed, units):
            self.assertEqual(UNIT_KIND_JSON[unit.kind], shown["kind"])
            self.assertEqual((unit.first_line, unit.last_line),
                             (shown["first_line"], shown["last_line"]))


def _add_case_tests():
    for case_dir in case_dirs():
        def test(self, case_dir=case_dir):
            self.run_case(case_dir)
        name = "test_case_" + "".join(c if c.isalnum() else "_" for c in case_dir.name)
        test.__name__ = name
        test.__doc__ = f"tests/vectors/{case_dir.name}"
        setattr(VectorTests, name, test)


_add_case_tests()

if __name__ == "__main__":
    unittest.main()
