"""MemoryBox gate (`memorybox gate` with a Python judge, mk_request_set_judge) and the
plan-confirmed moves: compact, promote and `update --resolve archive`, each a dry run and then an
apply with its Plan ID."""
import json
import re

try:
    from .support import TempDirTestCase
except ImportError:
    from support import TempDirTestCase

import memkit

NOW = "2026-11-30T10:00:00+01:00"
GATES = ["VALUE", "ALIGNMENT", "REDUNDANCY", "FRESHNESS", "PLACEMENT"]
ANSWERS = {"VALUE": "yes", "ALIGNMENT": "existing Tooling", "REDUNDANCY": "none",
           "FRESHNESS": "stable", "PLACEMENT": "2 memory/LONG_TERM.md"}
LONG_TERM = ("# LONG_TERM\n\n## Tooling\n\n- Use ripgrep for search.\n  Confidence: 0.90\n"
             "  Verified: 2026-10-01\n\n## People\n\n- Ana reviews the docs.\n")
CANDIDATE = "Always run the linter before committing."
ASK = {"text": CANDIDATE, "confidence": "0.85"}  # the candidate, as gate's arguments


def files_of(root):
    """The agent root's files and their bytes; .memkit/ (the lock an apply takes) left out."""
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted(root.rglob("*"))
            if path.is_file() and path.relative_to(root).parts[0] != ".memkit"}


class GateTests(TempDirTestCase):
    def agent(self):
        root = self.project(name="agent")
        ws = memkit.Workspace.open(root, layout="memorybox")
        self.addCleanup(ws.close)
        ws.init(NOW).close()
        (root / "memory/LONG_TERM.md").write_text(LONG_TERM)
        return root, ws

    def assert_gate(self, result, exit_code, outcome, stopped_at):
        self.assertEqual(result.exit_code, exit_code, result.json)
        shown = json.loads(result.json)
        self.assertEqual(shown["command"], "memorybox gate")
        self.assertEqual((shown["data"]["outcome"], shown["data"]["stopped_at"]),
                         (outcome, stopped_at), result.json)
        self.assertIsNone(result.plan_id)  # additive: no plan
        return shown

    def test_gate_enum_is_the_header_order(self):
        self.assertEqual([gate.name for gate in memkit.Gate], GATES)
        self.assertEqual([int(gate) for gate in memkit.Gate], [0, 1, 2, 3, 4])

    def test_without_a_judge_it_stops_at_value(self):
        root, ws = self.agent()
        before = files_of(root)
        for apply in (False, True):
            with self.subTest(apply=apply), ws.gate(NOW, **ASK, apply=apply) as result:
                shown = self.assert_gate(result, 0, "NEEDS_JUDGEMENT", "VALUE")
                self.assertEqual([(g["gate"], g["result"]) for g in shown["data"]["gates"]],
                                 [("VALUE", "needs_judgement")]
                                 + [(name, "skipped") for name in GATES[1:]])
                self.assertEqual([f["code"] for f in shown["findings"]], ["MK-BOX-003"])
                self.assertFalse(result.applied)
                self.assertIsNone(result.judge_error)
        self.assertEqual(files_of(root), before)

    def test_a_judge_answering_all_five_dry_run_then_apply(self):
        root, ws = self.agent()
        before = files_of(root)
        asked = []

        def judge(gate, question):
            asked.append(gate)
            answer = ANSWERS[gate]
            return answer.encode() if gate == "VALUE" else answer  # str and bytes both answer

        with ws.gate(NOW, **ASK, title="Lint first", source="review",
                     judge=judge) as dry:
            shown = self.assert_gate(dry, 0, "WRITE", None)
            data = shown["data"]
            self.assertEqual(asked, GATES)
            self.assertEqual([g["result"] for g in data["gates"]], ["pass"] * 5)
            self.assertEqual((data["file"], data["tier"], data["category"]),
                             ("memory/LONG_TERM.md", 2, "Tooling"))
            self.assertRegex(data["entry_id"], r"^memory/LONG_TERM\.md#[0-9a-f]{12}$")
            self.assertFalse(dry.applied)
            self.assertEqual(data["written"], [])
            entry_text = data["entry_text"]
            self.assertTrue(entry_text.startswith(f"- {CANDIDATE}\n  Confidence: 0.85\n"),
                            entry_text)
            self.assertIn("Source: review", entry_text)
        self.assertEqual(files_of(root), before)  # a dry run writes nothing

        asked.clear()
        with ws.gate(NOW, **ASK, title="Lint first", source="review", judge=judge,
                     apply=True) as done:
            data = self.assert_gate(done, 0, "WRITE", None)["data"]
            self.assertEqual(asked, GATES)
            self.assertTrue(done.applied)
            self.assertTrue(data["applied"])
            self.assertEqual(data["written"], ["memory/LONG_TERM.md"])
            self.assertEqual(data["entry_text"], entry_text)
        text = (root / "memory/LONG_TERM.md").read_text()
        tooling = text.index("## Tooling\n")
        people = text.index("## People\n")
        self.assertLess(tooling, text.index(entry_text), text)  # under its H2 category...
        self.assertLess(text.index(entry_text) + len(entry_text), people)  # ...not the next one
        self.assertIn("- Use ripgrep for search.", text)  # nothing else changed
        self.assertTrue(text.endswith("## People\n\n- Ana reviews the docs.\n"), text)
        with ws.decay(NOW, file="memory/LONG_TERM.md") as decay:  # the new entry is scored
            ids = [e["entry_id"] for e in json.loads(decay.json)["data"]["entries"]]
        self.assertIn(data["entry_id"], ids)

    def test_the_question_the_judge_sees(self):
        root, ws = self.agent()
        with ws.decay(NOW, file="memory/LONG_TERM.md") as decay:
            ripgrep_id = json.loads(decay.json)["data"]["entries"][0]["entry_id"]
        questions = {}

        def judge(gate, question):
            questions[gate] = question
            return ANSWERS[gate]

        ws.gate(NOW, **ASK, title="Lint first", source="review", client="acme",
                judge=judge).close()
        self.assertEqual(list(questions), GATES)
        for gate, question in questions.items():
            with self.subTest(gate=gate):
                self.assertEqual(question["gate"], gate)
                self.assertEqual(question["candidate"],
                                 {"client": "acme", "confidence": 85, "source": "review",
                                  "text": CANDIDATE, "title": "Lint first"})
                self.assertEqual(question["near_duplicates"], [])
        alignment = questions["ALIGNMENT"]
        self.assertIn("Tooling", alignment["categories"])
        self.assertIn("People", alignment["categories"])
        self.assertIsNone(alignment["category"])
        redundancy = questions["REDUNDANCY"]
        self.assertEqual(redundancy["category"], "Tooling")
        self.assertEqual(redundancy["category_entries"], [ripgrep_id])

    def test_a_judge_that_abstains_at_freshness(self):
        root, ws = self.agent()
        before = files_of(root)
        asked = []

        def judge(gate, question):
            asked.append(gate)
            return None if gate == "FRESHNESS" else ANSWERS[gate]

        with ws.gate(NOW, **ASK, judge=judge, apply=True) as result:
            shown = self.assert_gate(result, 0, "NEEDS_JUDGEMENT", "FRESHNESS")
            self.assertEqual(asked, GATES[:4])
            self.assertEqual([g["result"] for g in shown["data"]["gates"]],
                             ["pass", "pass", "pass", "needs_judgement", "skipped"])
            self.assertFalse(result.applied)
            self.assertIsNone(result.judge_error)
        self.assertEqual(files_of(root), before)

    def assert_judgement_failed(self, result, gate):
        self.assertEqual(result.exit_code, 2, result.json)
        findings = json.loads(result.json)["findings"]
        self.assertEqual([(f["code"], f["fatal"]) for f in findings], [("MK-BOX-005", True)])
        self.assertTrue(findings[0]["message"].startswith(gate + ":"), findings[0])
        self.assertFalse(result.applied)
        return findings[0]["message"]

    def test_a_judge_that_raises(self):
        root, ws = self.agent()
        before = files_of(root)

        def judge(gate, question):
            if gate == "ALIGNMENT":
                raise RuntimeError("the judge is down")
            return ANSWERS[gate]

        with ws.gate(NOW, **ASK, judge=judge, apply=True) as result:
            message = self.assert_judgement_failed(result, "ALIGNMENT")
            self.assertIn(str(memkit.Status.E_CALLBACK.value), message)  # "returned -50"
            self.assertIsInstance(result.judge_error, RuntimeError)
            self.assertEqual(str(result.judge_error), "the judge is down")
        self.assertEqual(files_of(root), before)

    def test_answers_that_are_not_answers(self):
        root, ws = self.agent()
        before = files_of(root)
        with ws.gate(NOW, **ASK, judge=lambda gate, question: "maybe",
                     apply=True) as unparseable:  # memkit refuses the answer itself
            message = self.assert_judgement_failed(unparseable, "VALUE")
            self.assertIn("maybe", message)
            self.assertIsNone(unparseable.judge_error)
        with ws.gate(NOW, **ASK, judge=lambda gate, question: 1) as wrong_type:
            self.assert_judgement_failed(wrong_type, "VALUE")
            self.assertIsInstance(wrong_type.judge_error, TypeError)
        # mk_judge_fn: the judge must not call back into the library with the workspace.
        with ws.gate(NOW, **ASK, judge=lambda gate, question: ws.status(NOW)) as reentry:
            self.assert_judgement_failed(reentry, "VALUE")
            self.assertIsInstance(reentry.judge_error, memkit.ArgumentError)

        def interrupt(gate, question):
            raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            ws.gate(NOW, **ASK, judge=interrupt, apply=True)
        self.assertEqual(files_of(root), before)
        with ws.status(NOW) as status:  # the workspace is still usable afterwards
            self.assertEqual(status.exit_code, 0, status.json)

    def test_time_sensitive_answer_reaches_the_entry(self):
        root, ws = self.agent()
        answers = dict(ANSWERS, FRESHNESS="time_sensitive 2027-01-31")
        with ws.gate(NOW, text="The staging host is db-7 until January.", confidence="0.7",
                     judge=lambda gate, question: answers[gate], apply=True) as result:
            data = self.assert_gate(result, 0, "WRITE", None)["data"]
            self.assertTrue(result.applied)
        self.assertIn(data["entry_text"], (root / "memory/LONG_TERM.md").read_text())
        self.assertIn("2027-01-31", data["entry_text"])

    def test_gate_arguments(self):
        root, ws = self.agent()
        before = files_of(root)
        # confidence is a number: a float goes as its decimal text, the CLI's form.
        with ws.gate(NOW, text=CANDIDATE, confidence=0.85) as number, \
                ws.gate(NOW, **ASK) as text:
            self.assertEqual(number.json_bytes, text.json_bytes)
        with self.assertRaises(TypeError):
            ws.gate(NOW, **ASK, judge="yes")
        with self.assertRaises(memkit.Error) as caught:  # the library judges the types
            ws.gate(NOW, text=42, confidence="0.85")
        self.assertEqual(caught.exception.message, "--text: takes a string, not an integer")
        with self.assertRaises(memkit.ArgumentError):
            ws.gate(NOW, **ASK, title="a\0b")
        with self.assertRaises(TypeError):
            ws.gate(NOW, CANDIDATE)  # gate has no positional: text is a keyword
        self.assertEqual(files_of(root), before)

        asked = []
        custodian = memkit.Workspace.open(self.project("inbox_dedupe", name="custodian"))
        with custodian, self.assertRaises(memkit.Error) as caught:
            custodian.run(NOW, "memorybox", "gate", text=CANDIDATE, confidence="0.85",
                          judge=lambda g, q: asked.append(g))
        self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
        self.assertIn("another layout", caught.exception.message)
        self.assertEqual(asked, [])


def active_tasks():
    """60 items: 40 open, 20 done. Older than 7 days on NOW: 8 in October, 6 in early November."""
    lines = ["# ACTIVE_TASKS", "", "## Now"]
    lines += [f"- [ ] open task {i}" for i in range(40)]
    lines += [f"- [x] october task {i} Done: 2026-10-{10 + i:02d}" for i in range(8)]
    lines += [f"- [x] november task {i} Done: 2026-11-{10 + i:02d}" for i in range(6)]
    lines += [f"- [x] recent task {i} Done: 2026-11-{24 + i:02d}" for i in range(6)]
    return "\n".join(lines) + "\n"


PATTERNS = ("# PATTERNS\n\n## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n"
            "Last-Used: 2026-11-28\n\n## Log everything\nLast-Used: 2026-08-01\n")


class MoveTests(TempDirTestCase):
    def agent(self):
        root = self.project(name="agent")
        ws = memkit.Workspace.open(root, layout="memorybox")
        self.addCleanup(ws.close)
        ws.init(NOW).close()
        (root / "memory/ACTIVE_TASKS.md").write_text(active_tasks())
        (root / "memory/PATTERNS.md").write_text(PATTERNS)
        return root, ws

    def test_compact_moves_old_completed_tasks_to_archives(self):
        root, ws = self.agent()
        before = files_of(root)
        for file in (None, "memory/ACTIVE_TASKS.md"):
            with self.subTest(file=file), ws.compact(NOW, file=file) as plan:
                self.assertEqual(plan.exit_code, 0, plan.json)
                shown = json.loads(plan.json)
                self.assertEqual(shown["command"], "memorybox compact")
                data = shown["data"]
                rule = [r for r in data["rules"] if r["rule"] == "active_tasks"]
                self.assertEqual(rule, [{"breached": True, "file": "memory/ACTIVE_TASKS.md",
                                         "rule": "active_tasks", "threshold": 50, "value": 60}])
                moves = [a for a in data["actions"] if a["rule"] == "active_tasks"]
                self.assertEqual(len(moves), 14)
                self.assertEqual({(a["kind"], a["detail"]) for a in moves},
                                 {("move", "memory/ARCHIVES/tasks-2026-10.md"),
                                  ("move", "memory/ARCHIVES/tasks-2026-11.md")})
                for action in moves:  # the moved entries' IDs
                    self.assertRegex(action["path"], r"^memory/ACTIVE_TASKS\.md#[0-9a-f]{12}$")
                self.assertRegex(plan.plan_id, r"^[0-9a-f]{16}$")
                self.assertEqual(plan.plan_id, data["plan"]["plan_id"])
                self.assertFalse(plan.applied)
                self.assertEqual(data["written"], [])
                self.assertGreaterEqual(plan.plan_operation_count, 3)
                plan_id = plan.plan_id
        self.assertEqual(files_of(root), before)  # dry runs write nothing

        # A stale Plan ID is a result, not an exception, and writes nothing.
        with ws.compact(NOW, file="memory/ACTIVE_TASKS.md", apply=True,
                        confirm_plan="0000000000000000") as stale:
            self.assertEqual(stale.exit_code, 2, stale.json)
            self.assertFalse(stale.applied)
            self.assertIn("MK-PLAN-001", [f["code"] for f in json.loads(stale.json)["findings"]])
        self.assertEqual(files_of(root), before)

        with ws.compact(NOW, file="memory/ACTIVE_TASKS.md", apply=True,
                        confirm_plan=plan_id) as done:
            self.assertEqual(done.exit_code, 0, done.json)
            self.assertTrue(done.applied)
            self.assertEqual(done.plan_id, plan_id)
            self.assertEqual(sorted(json.loads(done.json)["data"]["written"]),
                             ["memory/ACTIVE_TASKS.md", "memory/ARCHIVES/tasks-2026-10.md",
                              "memory/ARCHIVES/tasks-2026-11.md"])
        tasks = (root / "memory/ACTIVE_TASKS.md").read_text()
        october = (root / "memory/ARCHIVES/tasks-2026-10.md").read_text()
        november = (root / "memory/ARCHIVES/tasks-2026-11.md").read_text()
        for i in range(8):
            line = f"- [x] october task {i} Done: 2026-10-{10 + i:02d}\n"
            self.assertIn(line, october)  # moved verbatim
            self.assertNotIn(line, tasks)
        for i in range(6):
            line = f"- [x] november task {i} Done: 2026-11-{10 + i:02d}\n"
            self.assertIn(line, november)
            self.assertNotIn(line, tasks)
        self.assertEqual(len(re.findall(r"^- \[ \] open task", tasks, re.MULTILINE)), 40)
        self.assertEqual(len(re.findall(r"^- \[x\] recent task", tasks, re.MULTILINE)), 6)
        with ws.compact(NOW, file="memory/ACTIVE_TASKS.md") as again:
            self.assertEqual(again.exit_code, 0, again.json)
            self.assertEqual(json.loads(again.json)["data"]["actions"], [])
            self.assertIsNone(again.plan_id)  # nothing left to apply

    def test_compact_force_and_arguments(self):
        root, ws = self.agent()
        with ws.compact(NOW, file="memory/PATTERNS.md") as calm:
            self.assertEqual(json.loads(calm.json)["data"]["actions"], [])  # 2 of 30 patterns
        with ws.compact(NOW, file="memory/PATTERNS.md", force=True) as forced:
            self.assertEqual(forced.exit_code, 0, forced.json)
            self.assertNotEqual(json.loads(forced.json)["data"]["actions"], [])  # flag reached C
        with ws.compact(NOW, file="memory/LONG_TERM.md") as other:
            self.assertEqual(other.exit_code, 2, other.json)  # not one of the five rules' files
        with self.assertRaises(memkit.ArgumentError):
            ws.compact(NOW, file="memory/\0PATTERNS.md")
        with self.assertRaises(memkit.ArgumentError):
            ws.compact(NOW, apply=True, confirm_plan="0123\0")
        with self.assertRaises(memkit.Error):  # --file takes text
            ws.compact(NOW, file=3)

    def pattern_ids(self, ws):
        with ws.decay(NOW, file="memory/PATTERNS.md") as decay:
            data = json.loads(decay.json)["data"]
        (retry,) = [e["entry_id"] for e in data["entries"]]  # the scored one
        (log,) = data["unscored"]
        return retry, log

    def test_promote_plan_then_apply(self):
        root, ws = self.agent()
        retry, _ = self.pattern_ids(ws)
        self.assertRegex(retry, r"^memory/PATTERNS\.md#[0-9a-f]{12}$")
        before = files_of(root)
        with ws.promote(NOW, entry=retry) as plan:
            self.assertEqual(plan.exit_code, 0, plan.json)
            self.assertEqual(json.loads(plan.json)["command"], "memorybox promote")
            self.assertEqual(plan.plan_operation_count, 2)
            self.assertFalse(plan.applied)
            plan_id = plan.plan_id
        self.assertEqual(files_of(root), before)
        with ws.promote(NOW, entry=retry, apply=True, confirm_plan="0000000000000000") as stale:
            self.assertEqual(stale.exit_code, 2, stale.json)
            self.assertFalse(stale.applied)
        self.assertEqual(files_of(root), before)
        with ws.promote(NOW, entry=retry, apply=True, confirm_plan=plan_id) as done:
            self.assertEqual(done.exit_code, 0, done.json)
            self.assertTrue(done.applied)
            self.assertEqual(json.loads(done.json)["data"]["written"],
                             ["memory/PATTERNS.md", "memory/SOP_LIBRARY.md"])
        section = ("## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n"
                   "Last-Used: 2026-11-28\n")
        self.assertEqual((root / "memory/PATTERNS.md").read_text(),
                         "# PATTERNS\n\n## Log everything\nLast-Used: 2026-08-01\n")
        self.assertTrue((root / "memory/SOP_LIBRARY.md").read_text().endswith(section))

    def test_archive_entry_plan_then_apply(self):
        root, ws = self.agent()
        _, log = self.pattern_ids(ws)
        before = files_of(root)
        with ws.update(NOW, entry=log, resolve="archive") as plan:
            self.assertEqual(plan.exit_code, 0, plan.json)
            shown = json.loads(plan.json)
            self.assertEqual(shown["command"], "memorybox update")
            self.assertEqual(shown["data"]["entry_id"], log)
            self.assertEqual([op["path"] for op in shown["data"]["plan"]["operations"]],
                             ["memory/ARCHIVES/patterns-2026-11.md", "memory/PATTERNS.md"])
            plan_id = plan.plan_id
        self.assertEqual(files_of(root), before)
        with ws.update(NOW, entry=log, resolve="archive", apply=True,
                       confirm_plan=plan_id) as done:
            self.assertEqual(done.exit_code, 0, done.json)
            self.assertTrue(done.applied)
            self.assertEqual(done.plan_id, plan_id)
        self.assertNotIn("Log everything", (root / "memory/PATTERNS.md").read_text())
        self.assertIn("## Log everything\nLast-Used: 2026-08-01\n",
                      (root / "memory/ARCHIVES/patterns-2026-11.md").read_text())
        with ws.update(NOW, entry=log, resolve="archive", apply=True,
                       confirm_plan=plan_id) as gone:  # the entry is no longer there
            self.assertEqual(gone.exit_code, 2, gone.json)
            self.assertFalse(gone.applied)

    def test_moves_refuse_other_entries_and_layouts(self):
        root, ws = self.agent()
        with ws.promote(NOW, entry="memory/LONG_TERM.md#000000000000") as other:
            self.assertEqual(other.exit_code, 2, other.json)
            self.assertEqual([f["code"] for f in json.loads(other.json)["findings"]],
                             ["MK-ARG-001"])
        with self.assertRaises(memkit.ArgumentError):
            ws.update(NOW, entry="memory/PATTERNS.md#\0", resolve="archive")
        plan_id = "0123456789abcdef"
        with memkit.Workspace.open(self.project("inbox_dedupe", name="custodian")) as custodian:
            for verb, arguments in (("compact", {}),
                                    ("compact", {"apply": True, "confirm_plan": plan_id}),
                                    ("promote", {"entry": "memory/PATTERNS.md#0"}),
                                    ("update", {"entry": "memory/PATTERNS.md#0",
                                                "resolve": "archive"})):
                with self.subTest(verb=verb, **arguments), \
                        self.assertRaises(memkit.Error) as caught:
                    custodian.run(NOW, "memorybox", verb, **arguments)
                self.assertEqual(caught.exception.code, memkit.Status.E_ARG)


if __name__ == "__main__":
    import unittest
    unittest.main()
