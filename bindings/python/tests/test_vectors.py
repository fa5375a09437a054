"""The shared test vectors (tests/vectors/README.md) run through the Python binding.

Every case folder beside tests/vectors/README.md becomes one test; each step is a subTest. The
expected JSON bytes were written by the CLI, so passing here means the binding, the C ABI and
the CLI agree byte for byte.
"""
import inspect
import json
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


# The case-level "layout" field (absent: custodian) and the layout each name opens.
LAYOUTS = {"custodian": memkit.Layout.CUSTODIAN, "memorybox": memkit.Layout.MEMORYBOX,
           "tiers": memkit.Layout.TIERS, "curated": memkit.Layout.CURATED}


def case_dirs():
    return sorted(path.parent for path in VECTORS.glob("*/case.json"))


def run_command(ws, now, step, ref):
    """Runs one step through the idiomatic layer, as tests/vectors/cli.py runs it through the CLI."""
    op = step["op"]
    if op == "init":
        return ws.init(now, extended=bool(step.get("extended")))
    if op == "status":
        return ws.status(now)
    if op == "check":
        return ws.check(now)
    if op == "plan_compaction":
        return ws.plan_compaction(now, target=step.get("target"),
                                  archive_oldest=bool(step.get("archive_oldest")))
    if op == "apply_compaction":
        return ws.apply_compaction(now, ref(step["confirm"]), target=step.get("target"),
                                   archive_oldest=bool(step.get("archive_oldest")))
    if op == "add":
        return ws.add(now, step["message"], step["type"], reason=step.get("reason"),
                      name=step.get("name"), area=step.get("area"),
                      allow_long=bool(step.get("allow_long")))
    if op == "plan_forget":
        return ws.plan_forget(now, step["topic"], mode=step.get("mode", "soft"),
                              allow_broad_match=bool(step.get("allow_broad_match")))
    if op == "apply_forget":
        return ws.apply_forget(now, step["topic"], ref(step["confirm"]),
                               mode=step.get("mode", "soft"),
                               allow_broad_match=bool(step.get("allow_broad_match")))
    if op == "plan_undo":
        return ws.plan_undo(now, ref(step["plan_id"]))
    if op == "apply_undo":
        return ws.apply_undo(now, ref(step["plan_id"]), ref(step["confirm"]))
    if op == "recover":
        return ws.recover(now, apply=bool(step.get("apply")), rollback=bool(step.get("rollback")))
    if op == "decay":
        return ws.decay(now, file=step.get("file"))
    if op == "hygiene":
        return ws.hygiene(now)
    if op == "load":
        return ws.load(now, tier=step.get("tier"), file=step.get("file"),
                       include_archive=bool(step.get("include_archive")))
    if op == "update":  # event: verify, confirm, contradict, resolve_keep; confidence: hundredths
        return ws.update(now, step["entry"], step["event"], note=step.get("note"),
                         confidence=step.get("confidence"))
    if op == "gate":  # answers: gate name -> the host's answer; a gate it lacks is abstained from
        answers = step.get("answers") or {}
        asked = []

        def judge(gate_name, question):
            asked.append((gate_name, question["gate"]))
            return answers.get(gate_name)

        result = ws.gate(now, step["text"], step["confidence"], title=step.get("title"),
                         source=step.get("source"), client=step.get("client"), judge=judge,
                         apply=bool(step.get("apply")))
        if result.judge_error is not None:
            result.close()
            raise AssertionError(f"the judge raised: {result.judge_error!r}")
        for gate_name, named in asked:
            if gate_name != named:
                result.close()
                raise AssertionError(f"the question for {gate_name} names gate {named}")
        return result
    if op == "plan_memorybox_compact":
        return ws.plan_memorybox_compact(now, file=step.get("file"), force=bool(step.get("force")))
    if op == "apply_memorybox_compact":
        return ws.apply_memorybox_compact(now, ref(step["confirm"]), file=step.get("file"),
                                          force=bool(step.get("force")))
    if op == "plan_promote":
        return ws.plan_promote(now, step["entry"])
    if op == "apply_promote":
        return ws.apply_promote(now, step["entry"], ref(step["confirm"]))
    if op == "plan_archive_entry":
        return ws.plan_archive_entry(now, step["entry"])
    if op == "apply_archive_entry":
        return ws.apply_archive_entry(now, step["entry"], ref(step["confirm"]))
    if op == "tiers":
        return run_tiers(ws, now, step["command"], step.get("args") or {}, ref)
    if op == "curated":  # args are mk_curated_options field names, which curated() takes as is
        args = dict(step.get("args") or {})
        if "confirm_plan_id" in args:
            args["confirm_plan_id"] = ref(args["confirm_plan_id"])
        return ws.curated(now, step["command"], **args)
    if op == "sync":  # args are mk_sync_options field names, which sync() takes as is
        args = dict(step.get("args") or {})
        if "confirm_plan" in args:
            args["confirm_plan"] = ref(args["confirm_plan"])
        return ws.sync(now, step["command"], **args)
    raise AssertionError(f"unknown op {op!r}: teach the binding's vector runner about it")


def tiers_call(ws, command, args):
    """The tiers_* method and keyword arguments that send a tiers step's `args` (mk_tiers_options
    field names) unchanged, or None when no method can: the step gives an option its command
    does not take, or leaves out one the method requires."""
    kwargs = dict(args)
    name = "tiers_" + command.replace("-", "_")
    renames = {"template_name": "name" if command == "template" else "template"}
    if command == "archive-themes" and "confirm_plan_id" in kwargs:
        name = "tiers_apply_archive_themes"
        renames["confirm_plan_id"] = "confirm"
    for field, keyword in renames.items():
        if field in kwargs:
            if keyword in kwargs:
                return None
            kwargs[keyword] = kwargs.pop(field)
    method = getattr(ws, name, None)
    if method is None:
        return None
    try:
        inspect.signature(method).bind(None, **kwargs)
    except TypeError:
        return None
    return method, kwargs


def run_tiers(ws, now, command, args, ref):
    """A tiers step through its tiers_* method (the Python names), or through Workspace.tiers
    (the field names) for a request no method can express; either way C gets the step's args."""
    args = dict(args)
    if "confirm_plan_id" in args:
        args["confirm_plan_id"] = ref(args["confirm_plan_id"])
    call = tiers_call(ws, command, args)
    if call is None:
        return ws.tiers(now, command, **args)
    method, kwargs = call
    return method(now, **kwargs)


class VectorTests(unittest.TestCase):
    def test_vectors_folder_has_cases(self):
        self.assertTrue((VECTORS / "README.md").is_file(), f"no test vectors at {VECTORS}")
        self.assertGreater(len(case_dirs()), 0, f"no */case.json under {VECTORS}")

    def run_case(self, case_dir: Path):
        case = json.loads((case_dir / "case.json").read_text(encoding="utf-8"))
        self.assertGreater(len(case["steps"]), 0)
        now = memkit.parse_clock(case["clock"])
        layout_name = case.get("layout", "custodian")
        self.assertIn(layout_name, LAYOUTS, "unknown layout: teach the binding's vector runner")
        layout = LAYOUTS[layout_name]
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
                    with self.subTest(case=case_dir.name, step=number, op=step["op"]):
                        expect = step["expect"]
                        expected_json = (case_dir / expect["json"]).read_bytes()
                        if step["op"] == "units":
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
                            result = run_command(ws, now, step, ref)
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
