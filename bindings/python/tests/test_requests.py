"""The request path: Workspace.run and the command methods made from the command table.

The binding knows no command or argument of its own: names and types are the library's to judge
(MK_E_ARG naming the argument and the closest one), and the methods, their names and their
documentation come from the table. The fixture-table test shows that an argument or a command
added to the table reaches the library with no edit to the binding.
"""
import copy
import inspect
import json
import shutil

try:
    from .support import NOW, REPO, TempDirTestCase
except ImportError:
    from support import NOW, REPO, TempDirTestCase

import memkit

LAYOUTS = ("custodian", "memorybox", "tiers", "curated")


def method_name(group, verb):
    """A verb with "_" for spaces and dashes; a command without a verb is its group's name."""
    return (verb or group).replace(" ", "_").replace("-", "_")


def group_of(table, name):
    return next(g for g in table["groups"] if g["name"] == name)


def methods_of(table, layout):
    """What a workspace of `layout` has, by the table's `workspace` key: method name -> (group,
    command); its own group's first, so they keep a name an "any" group also has."""
    methods = {}
    for runs_on in (layout, "any"):
        for group in table["groups"]:
            if group["workspace"] == runs_on:
                for command in group["commands"]:
                    methods.setdefault(method_name(group["name"], command["verb"]),
                                       (group["name"], command))
    return methods


class MethodTests(TempDirTestCase):
    def test_every_group_names_the_workspace_that_runs_it(self):
        table = memkit.commands()
        for group in table["groups"]:
            self.assertIn(group["workspace"], LAYOUTS + ("any", "none", "server", "cli"), group["name"])
        for layout in LAYOUTS:
            self.assertEqual(group_of(table, layout)["workspace"], layout)
        self.assertEqual(group_of(table, "search")["workspace"], "any")
        self.assertEqual(group_of(table, "markdown")["workspace"], "none")

    def test_every_command_of_the_table_runs_through_its_method(self):
        table = memkit.commands()
        for layout in LAYOUTS:
            root = self.project(name=layout)
            with memkit.Workspace.open(root, layout=layout) as ws:
                methods = methods_of(table, layout)
                self.assertGreater(len(group_of(table, layout)["commands"]), 0)
                self.assertIn("search", methods)  # a group of every layout
                self.assertNotIn("units", methods)  # markdown: no workspace runs it
                for name, (group, command) in methods.items():
                    with self.subTest(layout=layout, command=command["name"]):
                        self.assertIn(name, dir(ws))
                        method = getattr(ws, name)
                        self.assertEqual(method.__name__, name)
                        self.assertTrue(method.__doc__.startswith(
                            f"`memkit {command['name']}`: {command['summary']}"))
                        # Without arguments: a Result (a missing required one is a finding).
                        with method(NOW) as result:
                            self.assertEqual(json.loads(result.json)["command"], command["name"])
                            self.assertIn(result.exit_code, (0, 1, 2))

    def test_a_layouts_own_command_keeps_a_name_an_any_group_also_has(self):
        # curated has a verb `search`: its workspace's search stays `curated search`, and the
        # search group's command is reached through run().
        store = self.temp / "store"
        with memkit.Workspace.open(store, layout="curated") as ws:
            self.assertTrue(ws.search.__doc__.startswith("`memkit curated search`"))
            with ws.search(NOW, workspace="ws1", query="x") as own:
                self.assertEqual(json.loads(own.json)["command"], "curated search")
            store.mkdir()
            with ws.run(NOW, "search", "", "ledger") as every:
                self.assertEqual(json.loads(every.json)["command"], "search")
                self.assertEqual(every.exit_code, 0, every.json)

    def test_dir_lists_the_layouts_commands_and_those_of_every_layout(self):
        root = self.project()
        with memkit.Workspace.open(root) as ws:
            names = set(dir(ws))
            self.assertLessEqual({"add", "check", "compact", "forget", "init", "recover", "status",
                                  "undo", "search", "run", "close"}, names)
            self.assertNotIn("units", names)  # markdown runs on no workspace
            self.assertFalse({"sync_push", "session_init", "get_relevant"} & names)
            self.assertFalse(hasattr(ws, "sync_push"))
            with self.assertRaises(AttributeError) as caught:
                ws.stauts
            self.assertIn("stauts", str(caught.exception))
            with self.assertRaises(AttributeError):
                ws._commands_of_nothing
        with memkit.Workspace.open(root, layout="memorybox") as box:
            self.assertLessEqual({"sync_push", "sync_pull", "canon_add", "client_set", "gate"},
                                 set(dir(box)))
            self.assertNotIn("undo", dir(box))
            self.assertIn("search", dir(box))

    def test_documentation_and_signature_come_from_the_table(self):
        with memkit.Workspace.open(self.project()) as ws:
            doc = ws.forget.__doc__
            self.assertIn("`memkit custodian forget`: remove the entries", doc)
            self.assertIn("(plans)", doc)
            self.assertIn("Positionals, in order (or by keyword): topic.", doc)
            self.assertIn("topic (string, positional, required): what to forget", doc)
            self.assertIn("mode (string, default soft, one of soft|hard|purge): soft leaves a "
                          "tombstone", doc)
            self.assertIn("confirm_plan (string): the Plan ID of the reviewed dry run", doc)
            self.assertNotIn("project_root", doc)  # the workspace gives the roots
            self.assertNotIn("memory_dir", doc)
            self.assertNotIn("judge", doc)
            self.assertEqual(str(inspect.signature(ws.forget)),
                             "(now, /, topic, *, mode=None, allow_broad_match=None, apply=None, "
                             "confirm_plan=None) -> memkit.Result")
        with memkit.Workspace.open(self.project(name="agent"), layout="memorybox") as box:
            self.assertIn("judge (callable): (gate_name, question)", box.gate.__doc__)
            self.assertIn("judge", inspect.signature(box.gate).parameters)
            self.assertIn("confidence (number, required): 0 to 1", box.gate.__doc__)
        with memkit.Workspace.open(self.temp / "store", layout="curated") as store:
            params = inspect.signature(store.add).parameters
            self.assertIn("class_", params)  # --class, a Python keyword
            self.assertIn("workspace", params)  # curated's --workspace is an argument...
            self.assertNotIn("store", params)  # ...its --store the root


class ArgumentTests(TempDirTestCase):
    def test_positionals_by_position_or_by_keyword(self):
        with memkit.Workspace.open(self.project("inbox_dedupe")) as ws:
            with ws.forget(NOW, "redis") as by_position, \
                    ws.forget(NOW, topic="redis") as by_keyword, \
                    ws.run(NOW, "custodian", "forget", "redis") as by_run:
                self.assertEqual(by_position.exit_code, 0, by_position.json)
                self.assertEqual(by_position.json_bytes, by_keyword.json_bytes)
                self.assertEqual(by_position.json_bytes, by_run.json_bytes)
                self.assertIsNotNone(by_position.plan_id)
            with self.assertRaises(TypeError):
                ws.forget(NOW, "redis", topic="redis")  # both ways
            with self.assertRaises(TypeError):
                ws.forget(NOW, "redis", "valkey")  # one positional
            with self.assertRaises(TypeError):
                ws.status(NOW, "extra")

    def test_unknown_argument_names_it_and_the_closest(self):
        with memkit.Workspace.open(self.project()) as ws:
            with self.assertRaises(memkit.Error) as caught:
                ws.add(NOW, "x", tpye="constraint")
            error = caught.exception
            self.assertEqual((error.code, error.name), (memkit.Status.E_ARG, "MK_E_ARG"))
            self.assertNotIsInstance(error, memkit.ArgumentError)  # the library's refusal
            self.assertEqual(error.message,
                             "tpye: not an argument of custodian add (did you mean 'type'?)")
            with self.assertRaises(memkit.Error) as caught:
                ws.run(NOW, "custodian", "stauts")
            self.assertIn("did you mean 'status'?", caught.exception.message)
            with self.assertRaises(memkit.Error) as caught:
                ws.run(NOW, "custodain", "status")
            self.assertIn("did you mean 'custodian'?", caught.exception.message)
            with self.assertRaises(memkit.Error) as caught:  # roots come from the workspace
                ws.add(NOW, "x", type="inbox", project_root=".")
            self.assertIn("project_root: given by the workspace", caught.exception.message)

    def test_wrong_types_are_the_librarys_MK_E_ARG(self):
        root = self.project()
        with memkit.Workspace.open(root) as ws:
            ws.init(NOW).close()
            before = (root / "docs/memory/inbox.md").read_bytes()
            for kwargs, said in (({"type": 3}, "--type: takes a string, not an integer"),
                                 ({"type": ["inbox"]}, "--type: takes a string, not a list"),
                                 ({"type": "inbox", "allow_long": 1},
                                  "--allow-long: takes a boolean, not an integer"),
                                 ({"type": "inbox", "allow_long": "yes"},
                                  "--allow-long: takes a boolean, not text")):
                with self.subTest(kwargs=kwargs), self.assertRaises(memkit.Error) as caught:
                    ws.add(NOW, "a note", **kwargs)
                self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
                self.assertEqual(caught.exception.message, said)
            self.assertEqual((root / "docs/memory/inbox.md").read_bytes(), before)

    def test_what_the_binding_refuses_before_c(self):
        with memkit.Workspace.open(self.project()) as ws:
            with self.assertRaises(TypeError):
                ws.add(NOW, "x", type={"a": 1})  # no C type for a dict
            with self.assertRaises(TypeError):
                ws.add(NOW, "x", type=["inbox", 1])  # a list of str only
            with self.assertRaises(memkit.ArgumentError):
                ws.add(NOW, "a\0b", type="inbox")  # a C string ends at NUL
            with self.assertRaises(memkit.ArgumentError):
                ws.compact(NOW, confirm_plan=["a\0"])
            with self.assertRaises(memkit.ArgumentError):
                ws.add(NOW, "x", type="inbox", limit=1 << 63)  # no int64_t
            with self.assertRaises(TypeError):
                ws.status(1772874000000)  # now

    def test_none_leaves_an_argument_out(self):
        with memkit.Workspace.open(self.project("inbox_dedupe")) as ws:
            with ws.compact(NOW) as bare, \
                    ws.compact(NOW, target=None, apply=None, confirm_plan=None) as nones, \
                    ws.compact(NOW, archive_oldest=False) as unset:  # False: the flag unset
                self.assertEqual(bare.json_bytes, nones.json_bytes)
                self.assertEqual(bare.json_bytes, unset.json_bytes)

    def test_a_list_argument_is_a_json_list(self):
        outcomes = []
        for name, tools in (("list", ["search", "read"]), ("tuple", ("search", "read")),
                            ("text", '[ "search" , "read" ]')):
            root = self.project(name=name)
            with memkit.Workspace.open(root, layout="tiers") as ws:
                with ws.log_turn("2026-03-07T14:05:09+00:00", content="A turn.",
                                 tools=tools) as result:
                    self.assertEqual(result.exit_code, 0, result.json)
                    outcomes.append((result.json_bytes,
                                     (root / "memory/sessions/2026-03-07.md").read_bytes()))
        self.assertEqual(outcomes[0], outcomes[1])
        self.assertEqual(outcomes[0], outcomes[2])
        self.assertIn(b"**Tools:** search, read\n", outcomes[0][1])

    def test_a_keyword_argument_a_float_and_a_path(self):
        store = self.temp / "store"
        with memkit.Workspace.open(store, layout="curated") as ws:
            row = dict(workspace="ws1", name="a", type="project", body="b", status="open")
            with ws.add(NOW, dry_run=True, class_="thread", **row) as trailing, \
                    ws.add(NOW, dry_run=True, **{"class": "thread"}, **row) as plain:
                self.assertEqual(trailing.exit_code, 0, trailing.json)
                self.assertEqual(trailing.json_bytes, plain.json_bytes)
            with ws.conflicts(NOW, workspace="ws1", threshold=0.25) as number, \
                    ws.conflicts(NOW, workspace="ws1", threshold="0.25") as text:
                self.assertEqual(number.json_bytes, text.json_bytes)
        with memkit.Workspace.open(self.project(name="tiers"), layout="tiers") as ws:
            csv = self.temp / "in.csv"
            csv.write_bytes(b"k,v\n1,2\n")
            with ws.write_data(NOW, name="d", source_file=csv) as result:  # os.PathLike
                self.assertEqual(result.exit_code, 0, result.json)
                self.assertEqual(result.applied, True)

    def test_judge_on_a_command_other_than_gate_is_refused(self):
        asked = []
        with memkit.Workspace.open(self.project()) as ws:
            with self.assertRaises(memkit.Error) as caught:
                ws.status(NOW, judge=lambda gate, question: asked.append(gate))
            self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
            self.assertIn("judge: custodian status asks no judge",
                          caught.exception.message)
            with self.assertRaises(TypeError):
                ws.status(NOW, judge="yes")
        self.assertEqual(asked, [])


class SearchTests(TempDirTestCase):
    """`memkit search` (the search group, workspace "any") on workspaces of two layouts, each a
    copy of an example under examples/: the same method, searching the workspace's root."""

    def example(self, name):
        return shutil.copytree(REPO / "examples" / name, self.temp / name, symlinks=True)

    def test_search_runs_on_a_workspace_of_every_layout(self):
        for layout, example, word in (("custodian", "project", "postgresql"),
                                      ("memorybox", "memorybox", "invoices")):
            with self.subTest(layout=layout), \
                    memkit.Workspace.open(self.example(example), layout=layout) as ws:
                self.assertIn("search", dir(ws))
                self.assertTrue(ws.search.__doc__.startswith("`memkit search`: "))
                self.assertEqual(str(inspect.signature(ws.search)),
                                 "(now, /, query, *, limit=None, stem=None) -> memkit.Result")
                with ws.search(NOW, word) as result, \
                        ws.search(NOW, query=word, limit=1) as one, \
                        ws.run(NOW, "search", "", word) as by_run:
                    self.assertEqual(result.exit_code, 0, result.json)
                    shown = json.loads(result.json)
                    self.assertEqual(shown["command"], "search")
                    data = shown["data"]
                    self.assertIsInstance(data["hits"], list)
                    self.assertGreaterEqual(data["total"], 1)
                    self.assertEqual(data["query"], word)
                    self.assertEqual({hit["layout"] for hit in data["hits"]}, {layout})
                    self.assertLessEqual({"layout", "file", "first_line", "last_line", "id",
                                          "kind", "score", "facets", "snippet"},
                                         set(data["hits"][0]))
                    self.assertEqual(len(json.loads(one.json)["data"]["hits"]), 1)
                    self.assertEqual(by_run.json_bytes, result.json_bytes)
                    self.assertIsNone(result.plan_id)
                    self.assertFalse(result.applied)

    def test_a_query_error_is_a_finding_in_the_result(self):
        with memkit.Workspace.open(self.example("project")) as ws:
            with ws.search(NOW, '"unbalanced') as result:
                self.assertEqual(result.exit_code, 2, result.json)
                shown = json.loads(result.json)
                self.assertEqual(shown["status"], "FAIL")
                self.assertEqual([f["code"] for f in shown["findings"]], ["MK-ARG-001"])
                self.assertIn("query:", shown["findings"][0]["message"])
            with ws.search(NOW) as missing:  # the required QUERY, as the library checks it
                self.assertEqual(missing.exit_code, 2, missing.json)

    def test_a_layouts_own_search_keeps_the_name(self):
        with memkit.Workspace.open(self.example("tiers"), layout="tiers") as ws, \
                ws.search(NOW, "ledger") as own, ws.run(NOW, "search", "", "ledger") as every:
            self.assertEqual(json.loads(own.json)["command"], "tiers search")
            self.assertEqual(json.loads(every.json)["command"], "search")
            self.assertEqual(json.loads(own.json)["data"]["hits"],
                             json.loads(every.json)["data"]["hits"])

    def test_the_root_is_the_workspaces(self):
        root = self.example("project")
        with memkit.Workspace.open(root) as ws:
            self.assertNotIn("root", inspect.signature(ws.search).parameters)
            self.assertNotIn("root (", ws.search.__doc__)
            for arguments in ({"root": str(self.temp)}, {"root": self.temp}):
                with self.subTest(root=arguments["root"]), \
                        self.assertRaises(memkit.Error) as caught:
                    ws.search(NOW, "postgresql", **arguments)
                error = caught.exception
                self.assertEqual((error.code, error.name), (memkit.Status.E_ARG, "MK_E_ARG"))
                self.assertNotIsInstance(error, memkit.ArgumentError)  # the library's refusal
                self.assertEqual(error.message, "root: given by the workspace, not the request")


class FixtureTableTests(TempDirTestCase):
    """A table with an argument and a command the library does not have: the binding exposes
    both from the table alone and forwards them unchanged, so the library's own refusal (not
    the binding's) answers."""

    def fixture(self):
        table = memkit.commands()
        custodian = group_of(table, "custodian")
        status = next(c for c in custodian["commands"] if c["verb"] == "status")
        status["arguments"].append({
            "choices": ["red", "blue"], "default": "red", "doc": "the colour of the report",
            "name": "--colour", "placeholder": "COLOUR", "positional": False, "required": False,
            "type": "string"})
        custodian["commands"].append({
            "arguments": [{"choices": [], "default": None, "doc": "the shade to paint",
                           "name": "SHADE", "placeholder": "", "positional": True,
                           "required": True, "type": "string"}],
            "effect": "writes", "name": "custodian paint", "summary": "paint the memory",
            "verb": "paint"})
        custodian["commands"].append(dict(copy.deepcopy(status), verb="close",
                                          name="custodian close"))
        # Which workspaces run a group is the table's `workspace` key, not its name.
        table["groups"].append({
            "name": "audit", "workspace": "any", "summary": "audits", "notes": "",
            "commands": [{"arguments": [], "effect": "reads", "name": "audit",
                          "summary": "audit the memory", "verb": ""}]})
        table["groups"].append({
            "name": "journal", "workspace": "tiers", "summary": "journals", "notes": "",
            "commands": [{"arguments": [], "effect": "writes", "name": "journal write",
                          "summary": "write the journal", "verb": "write"}]})
        return table

    def test_a_new_argument_is_documented_and_forwarded_unchanged(self):
        table = self.fixture()
        with memkit.Workspace.open(self.project(), table=table) as ws:
            self.assertIn("colour (string, default red, one of red|blue): the colour of the "
                          "report", ws.status.__doc__)
            self.assertIn("colour", inspect.signature(ws.status).parameters)
            with self.assertRaises(memkit.Error) as caught:
                ws.status(NOW, colour="red")
            error = caught.exception
            self.assertEqual((error.code, error.name), (memkit.Status.E_ARG, "MK_E_ARG"))
            self.assertEqual(error.message, "colour: not an argument of custodian status")
            for name in ("now", "group", "verb"):  # run()'s own parameters are positional-only
                with self.subTest(name=name), self.assertRaises(memkit.Error) as caught:
                    ws.status(NOW, **{name: "x"})
                self.assertEqual(caught.exception.message,
                                 f"{name}: not an argument of custodian status")
            with ws.status(NOW) as status:  # the rest is unchanged
                self.assertEqual(status.exit_code, 1, status.json)

    def test_a_new_command_is_a_method_forwarded_unchanged(self):
        table = self.fixture()
        with memkit.Workspace.open(self.project(), table=table) as ws:
            self.assertIn("paint", dir(ws))
            self.assertTrue(ws.paint.__doc__.startswith(
                "`memkit custodian paint`: paint the memory (writes)."))
            self.assertIn("shade (string, positional, required): the shade to paint",
                          ws.paint.__doc__)
            with self.assertRaises(memkit.Error) as caught:
                ws.paint(NOW, "blue")
            self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
            self.assertIn("unknown command 'custodian paint'", caught.exception.message)
            # A verb that is an attribute of the class leaves the attribute as it is.
            self.assertEqual(ws.close.__func__, memkit.Workspace.close)
        self.assertTrue(ws.closed)
        with memkit.Workspace.open(self.project(name="plain")) as plain:  # the library's table
            self.assertNotIn("paint", dir(plain))
            self.assertNotIn("colour", plain.status.__doc__)
        self.assertNotIn("paint", json.dumps(memkit.commands()))  # a fresh copy each time

    def test_a_groups_workspace_key_decides_which_workspaces_have_its_methods(self):
        table = self.fixture()
        with memkit.Workspace.open(self.project(), table=table) as ws, \
                memkit.Workspace.open(self.project(name="tiers"), layout="tiers",
                                      table=table) as tiers:
            for each in (ws, tiers):  # "any": a method on every layout, its group's name
                self.assertIn("audit", dir(each))
                self.assertTrue(each.audit.__doc__.startswith(
                    "`memkit audit`: audit the memory (reads)."))
                with self.assertRaises(memkit.Error) as caught:  # the library does not know it
                    each.audit(NOW)
                self.assertEqual(caught.exception.code, memkit.Status.E_ARG)
                self.assertIn("audit", caught.exception.message)
            self.assertIn("write", dir(tiers))  # "tiers": the tiers workspace only
            self.assertTrue(tiers.write.__doc__.startswith("`memkit journal write`: "))
            self.assertNotIn("write", dir(ws))


if __name__ == "__main__":
    import unittest
    unittest.main()
