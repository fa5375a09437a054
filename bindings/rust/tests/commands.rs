//! The command table and the one request path: every command of the table has its generated
//! builder and runs; names, types, lists and judges the library refuses come back as MK_E_ARG
//! naming the argument; and an argument added to the table reaches the library through a
//! regenerated builder with no hand edit (the fixture-table test).
mod common;

use common::{envelope, parse_json, Json, TempDir};
use memkit::{sys, Arg, Clock, Error, Layout, Workspace, WorkspaceOptions};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn now() -> Clock {
    Clock::parse("2026-03-07T10:00:00+01:00").expect("the test clock parses")
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

/// The committed table, bindings/commands.json.
fn table() -> Json {
    parse_json(&read(&crate_dir().join("../commands.json"))).expect("commands.json parses")
}

/// The layouts a group's `workspace` may name.
const LAYOUTS: [(&str, Layout); 4] = [
    ("custodian", Layout::Custodian),
    ("memorybox", Layout::MemoryBox),
    ("tiers", Layout::Tiers),
    ("curated", Layout::Curated),
];

/// The layouts whose workspaces run a group, by the table's `workspace` key: one layout, every
/// layout ("any") or none ("none": markdown; "server": mcp, the CLI's alone).
fn layouts_of(group: &Json) -> Vec<Layout> {
    match group.get("workspace").and_then(Json::as_str) {
        Some("any") => LAYOUTS.iter().map(|(_, layout)| *layout).collect(),
        Some("none") | Some("server") | Some("cli") => Vec::new(),
        Some(name) => match LAYOUTS.iter().find(|(known, _)| *known == name) {
            Some((_, layout)) => vec![*layout],
            None => panic!("workspace {:?}: teach this test the new layout", name),
        },
        None => panic!("a group without a workspace: {:?}", group.get("name")),
    }
}

fn words(text: &str) -> Vec<String> {
    text.split([' ', '-'])
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Table text as the generator writes it into a doc comment (its `doc_text`: `\\`, `<`, `>`, `[`,
/// `]` and `*` escaped, so rustdoc shows them as written).
fn rustdoc_text(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped = "\\<>[]*".contains(c);
            escaped.then_some('\\').into_iter().chain([c])
        })
        .collect()
}

fn expect_arg_error<T: std::fmt::Debug>(result: Result<T, Error>) -> Error {
    let error = result.expect_err("MK_E_ARG");
    assert_eq!(error.code(), sys::MK_E_ARG, "{}", error);
    assert_eq!(error.name(), "MK_E_ARG");
    error
}

#[test]
fn the_committed_table_is_the_loaded_library_s() {
    assert_eq!(
        table(),
        parse_json(&memkit::commands_json().unwrap()).unwrap()
    );
}

#[test]
fn every_command_of_the_table_has_a_builder_and_runs_by_name() {
    let generated = read(&crate_dir().join("src/commands.rs"));
    let table = table();
    let mut commands = 0;
    for group in table.get("groups").and_then(Json::as_array).unwrap() {
        let name = group.get("name").and_then(Json::as_str).unwrap();
        let layouts = layouts_of(group);
        if layouts.is_empty() {
            // markdown: no workspace runs it, so no builder either
            assert!(!generated.contains(&format!("self.request(\"{}\", ", name)));
            continue;
        }
        let workspaces: Vec<(TempDir, Layout, Workspace)> = layouts
            .iter()
            .map(|layout| {
                let tmp = TempDir::new("every-command");
                let options = WorkspaceOptions::new().layout(*layout);
                let ws = Workspace::open_with(tmp.path(), &options)
                    .unwrap_or_else(|e| panic!("{} on {:?}: {}", name, layout, e));
                (tmp, *layout, ws)
            })
            .collect();
        for command in group.get("commands").and_then(Json::as_array).unwrap() {
            let verb = command.get("verb").and_then(Json::as_str).unwrap();
            let command_name = command.get("name").and_then(Json::as_str).unwrap();
            let all: Vec<String> = words(name).into_iter().chain(words(verb)).collect();
            let method = all.join("_");
            let builder: String = all
                .iter()
                .map(|w| w[..1].to_uppercase() + &w[1..])
                .collect();
            let constructor = format!(
                "pub fn {}(&self) -> {}<'_> {{\n        {}(self.request(\"{}\", \"{}\"))",
                method, builder, builder, name, verb
            );
            assert!(
                generated.contains(&constructor),
                "no {} in commands.rs",
                constructor
            );
            let body_start = generated
                .find(&format!("impl<'w> {}<'w> {{", builder))
                .unwrap_or_else(|| panic!("no impl of {}", builder));
            let body = &generated[body_start..];
            let body = &body[..body.find("\n}\n").unwrap()];
            assert!(
                body.contains(&format!("/// Runs `memkit {}` at `now`", command_name)),
                "{}: its name in the docs",
                builder
            );
            for argument in command.get("arguments").and_then(Json::as_array).unwrap() {
                let arg = argument.get("name").and_then(Json::as_str).unwrap();
                if argument.get("root").and_then(Json::as_bool) == Some(true) {
                    assert!(
                        !body.contains(&format!("`{}", arg)),
                        "{} {}: a root",
                        builder,
                        arg
                    );
                    continue;
                }
                let positional = argument.get("positional").and_then(Json::as_bool).unwrap();
                let sent = if positional {
                    arg.to_lowercase()
                } else {
                    arg[2..].to_string()
                };
                let doc = argument.get("doc").and_then(Json::as_str).unwrap();
                assert!(
                    body.contains(&format!("(\"{}\", ", sent)),
                    "{} {}",
                    builder,
                    arg
                );
                assert!(body.contains(&rustdoc_text(doc)), "{}", doc);
            }
            // Every command is reachable by name on each workspace that runs it; without its
            // arguments it runs and names itself, or (when the table calls something required)
            // still names itself.
            for (_, layout, ws) in &workspaces {
                let result = ws
                    .request(name, verb)
                    .run(&now())
                    .unwrap_or_else(|e| panic!("{} on {:?}: {}", command_name, layout, e));
                let ran = envelope(&result)
                    .get("command")
                    .and_then(Json::as_str)
                    .map(String::from);
                assert_eq!(ran.as_deref(), Some(command_name));
            }
            commands += 1;
        }
    }
    assert!(commands >= 60, "only {} commands", commands);
}

#[test]
fn an_unknown_argument_is_mk_e_arg_naming_it() {
    let tmp = TempDir::new("unknown-argument");
    let ws = Workspace::open(tmp.path()).unwrap();
    let error = expect_arg_error(ws.run(
        &now(),
        "custodian",
        "status",
        &[("colour", Arg::Text("red"))],
    ));
    assert_eq!(
        error.message(),
        "colour: not an argument of custodian status"
    );
    let error = expect_arg_error(ws.run(&now(), "custodian", "add", &[("tpye", Arg::Text("x"))]));
    assert!(
        error.message().contains("(did you mean 'type'?)"),
        "{}",
        error
    );
    let error = expect_arg_error(ws.request("custodian", "stauts").run(&now()));
    assert!(error.message().contains("stauts"), "{}", error);
    let error = expect_arg_error(
        ws.request("custodian", "status")
            .path("project-root", ".")
            .run(&now()),
    );
    assert_eq!(
        error.message(),
        "project-root: given by the workspace, not the request"
    );
    // Nothing ran: the memory folder was never made.
    assert!(!tmp.path().join("docs").exists());
}

#[test]
fn a_value_of_the_wrong_type_is_mk_e_arg_naming_the_argument() {
    let tmp = TempDir::new("wrong-type");
    let ws = Workspace::open(tmp.path()).unwrap();
    let cases = [
        (
            "type",
            Arg::Flag(true),
            "type: takes a string, not a boolean",
        ),
        ("type", Arg::Int(3), "type: takes a string, not an integer"),
        (
            "allow-long",
            Arg::Text("yes"),
            "--allow-long: takes a boolean, not text",
        ),
        (
            "type",
            Arg::List(&["a"]),
            "type: takes a string, not a list",
        ),
    ];
    for (name, value, message) in cases {
        let error = expect_arg_error(ws.run(&now(), "custodian", "add", &[(name, value)]));
        assert!(
            error
                .message()
                .ends_with(&message[message.find(':').unwrap()..]),
            "{:?}: {}",
            value,
            error
        );
    }
}

#[test]
fn a_list_argument_is_sent_as_a_json_array() {
    let tmp = TempDir::new("list");
    let ws =
        Workspace::open_with(tmp.path(), &WorkspaceOptions::new().layout(Layout::Tiers)).unwrap();
    let logged = ws
        .run(
            &now(),
            "tiers",
            "log-turn",
            &[
                ("content", Arg::Text("Looked it up")),
                ("tools", Arg::List(&["grep", "a, b"])),
            ],
        )
        .unwrap();
    assert_eq!(logged.exit_code(), 0, "{}", logged.json().unwrap());
    let log = read(&tmp.path().join("memory/sessions/2026-03-07.md"));
    assert!(log.contains("\n**Tools:** grep, a, b\n"), "{:?}", log);
    let error = expect_arg_error(
        ws.request("tiers", "log-turn")
            .list("tools", ["a\0b"])
            .run(&now()),
    );
    assert_eq!(error.message(), "tools: contains a NUL byte");
}

#[test]
fn a_judge_on_a_command_other_than_the_gate_is_refused() {
    let tmp = TempDir::new("judge-refused");
    let ws = Workspace::open(tmp.path()).unwrap();
    let mut asked = false;
    let error = expect_arg_error(
        ws.request("custodian", "status")
            .judge(|_gate, _question| {
                asked = true;
                None
            })
            .run(&now()),
    );
    assert_eq!(
        error.message(),
        "judge: custodian status asks no judge (the table's judged commands do)"
    );
    assert!(!asked);
}

#[test]
fn a_command_of_another_layout_is_refused() {
    let tmp = TempDir::new("other-layout");
    let ws = Workspace::open(tmp.path()).unwrap();
    let error = expect_arg_error(ws.memorybox_status().run(&now()));
    assert!(error.message().contains("another layout"), "{}", error);
    let error = expect_arg_error(ws.run(&now(), "markdown", "units", &[]));
    assert!(error.message().contains("another layout"), "{}", error);
    assert!(
        fs::read_dir(tmp.path()).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn a_nul_inside_a_value_is_mk_e_arg_naming_the_argument() {
    let tmp = TempDir::new("nul");
    let ws = Workspace::open(tmp.path()).unwrap();
    let error = expect_arg_error(ws.custodian_undo().plan_id("0123\0").run(&now()));
    assert_eq!(error.message(), "plan_id: contains a NUL byte");
    let error = expect_arg_error(
        ws.custodian_add()
            .message("x")
            .reason("because\0")
            .run(&now()),
    );
    assert_eq!(error.message(), "reason: contains a NUL byte");
    let error = expect_arg_error(ws.request("custodian", "ad\0d").run(&now()));
    assert_eq!(error.message(), "verb: contains a NUL byte");
}

/// Writes to `to` the committed table as the Python statements `edit` change its `table`.
fn write_edited_table(to: &Path, edit: &str) {
    let script = format!(
        "import json, sys\n\
         table = json.load(open(sys.argv[1], encoding='utf-8'))\n\
         {}\n\
         json.dump(table, open(sys.argv[2], 'w', encoding='utf-8'), indent=1)\n",
        edit
    );
    let status = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(crate_dir().join("../commands.json"))
        .arg(to)
        .status()
        .expect("python3 runs");
    assert!(status.success());
}

/// The fixture table: the real one with `--colour NAME` added to `custodian status`.
fn write_fixture_table(to: &Path) {
    write_edited_table(
        to,
        r#"
for group in table["groups"]:
    for command in group["commands"]:
        if command["name"] == "custodian status":
            command["arguments"].append({"choices": [], "default": "plain",
                "doc": "the colour of the report", "name": "--colour", "placeholder": "NAME",
                "positional": False, "required": False, "type": "string"})
"#,
    );
}

/// Runs the generator on `table`, writing `out`; its exit status and what it printed to stderr.
fn generate(table: &Path, out: &Path) -> (bool, String) {
    let generated = Command::new("python3")
        .arg(crate_dir().join("../generate_commands.py"))
        .arg("--table")
        .arg(table)
        .arg("--out")
        .arg(out)
        .output()
        .expect("python3 runs");
    (
        generated.status.success(),
        String::from_utf8_lossy(&generated.stderr).into_owned(),
    )
}

#[test]
fn a_groups_workspace_key_decides_which_builders_the_generator_makes() {
    let tmp = TempDir::new("workspace-key");
    let (table, out) = (
        tmp.path().join("commands.json"),
        tmp.path().join("commands.rs"),
    );
    // A group of every layout whose one command has no verb, and one that no workspace runs.
    write_edited_table(
        &table,
        r#"
command = {"arguments": [], "effect": "reads", "judged": False, "name": "inspect",
           "summary": "inspect the memory", "verb": ""}
table["groups"].append({"name": "inspect", "workspace": "any", "summary": "inspects",
                        "notes": "", "commands": [command]})
table["groups"].append({"name": "lint", "workspace": "none", "summary": "lints", "notes": "",
                        "commands": [dict(command, name="lint all", verb="all")]})
"#,
    );
    let (ok, stderr) = generate(&table, &out);
    assert!(ok, "{}", stderr);
    let generated = read(&out);
    for wanted in [
        "    /// `memkit inspect`: inspect the memory.\n",
        "    pub fn inspect(&self) -> Inspect<'_> {\n        \
         Inspect(self.request(\"inspect\", \"\"))\n    }\n",
        "/// Runs on a workspace of every layout.\n",
        "    /// Runs `memkit inspect` at `now`",
        "    pub fn search(&self) -> Search<'_> {\n",
        "/// Runs on a workspace opened with [`Layout::Tiers`](crate::Layout::Tiers).\n",
    ] {
        assert!(
            generated.contains(wanted),
            "no {:?} in the generated file",
            wanted
        );
    }
    assert!(
        !generated.contains("lint"),
        "a group of workspace \"none\" has no builder"
    );

    // A layout the generator does not know stops it, naming the group and the layout.
    write_edited_table(&table, r#"table["groups"][0]["workspace"] = "notebook""#);
    let (ok, stderr) = generate(&table, &out);
    assert!(!ok);
    assert!(
        stderr.contains("group custodian: workspace 'notebook' is no layout"),
        "{}",
        stderr
    );
}

/// Every file under `dir`, relative, with its bytes.
fn files(dir: &Path, under: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, under, out);
        } else {
            out.push((
                path.strip_prefix(under).unwrap().to_path_buf(),
                fs::read(&path).unwrap(),
            ));
        }
    }
    out.sort();
}

#[test]
fn an_argument_added_to_the_table_becomes_a_documented_setter_the_library_receives() {
    let tmp = TempDir::new("fixture-table");
    let fixture = tmp.path().join("commands.json");
    write_fixture_table(&fixture);
    // A copy of this crate, whose commands.rs the generator rewrites from the fixture.
    let copy = tmp.path().join("crate");
    common::copy_dir(&crate_dir().join("src"), &copy.join("src")).unwrap();
    for file in ["Cargo.toml", "Cargo.lock", "build.rs"] {
        fs::copy(crate_dir().join(file), copy.join(file)).unwrap();
    }
    let (ok, stderr) = generate(&fixture, &copy.join("src/commands.rs"));
    assert!(ok, "{}", stderr);

    // The builder gains the setter, documented from the table, and nothing else changes: the
    // committed commands.rs is the new one less the added lines, and the hand-written files
    // are as they were.
    let new = read(&copy.join("src/commands.rs"));
    let setter = "    /// `--colour NAME` (string): the colour of the report.\n    /// Default: `plain`.\n    \
                  pub fn colour(self, value: impl AsRef<str>) -> Self {\n        \
                  Self(self.0.string(\"colour\", value))\n    }\n";
    let status_impl = &new[new.find("impl<'w> CustodianStatus<'w> {").unwrap()..];
    assert!(
        status_impl[..status_impl.find("\n}\n").unwrap()].contains(setter),
        "{}",
        status_impl
    );
    let old = read(&crate_dir().join("src/commands.rs"));
    let added: Vec<&str> = {
        let mut old_lines = old.lines().peekable();
        new.lines()
            .filter(|line| {
                if old_lines.peek() == Some(line) {
                    old_lines.next();
                    false
                } else {
                    true
                }
            })
            .collect()
    };
    assert_eq!(added.len(), setter.lines().count() + 1, "{:#?}", added); // and a blank line
    let (mut before, mut after) = (Vec::new(), Vec::new());
    files(
        &crate_dir().join("src"),
        &crate_dir().join("src"),
        &mut before,
    );
    files(&copy.join("src"), &copy.join("src"), &mut after);
    before.retain(|(path, _)| path != Path::new("commands.rs"));
    after.retain(|(path, _)| path != Path::new("commands.rs"));
    assert_eq!(before, after, "the generator touched a hand-written file");

    // The copy builds, and the library receives `colour` as the table spells it: this library's
    // table has no such argument, so it answers with the argument's name.
    fs::create_dir(copy.join("tests")).unwrap();
    fs::write(
        copy.join("tests/colour.rs"),
        r#"#[test]
fn colour_reaches_the_library() {
    let root = std::env::temp_dir().join(format!("memkit-colour-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let ws = memkit::Workspace::open(&root).unwrap();
    let now = memkit::Clock::parse("2026-03-07T10:00:00+01:00").unwrap();
    let error = ws.custodian_status().colour("red").run(&now).unwrap_err();
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(error.name(), "MK_E_ARG");
    assert_eq!(error.message(), "colour: not an argument of custodian status");
}
"#,
    )
    .unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    // Its own target folder: the cargo running this test holds the lock of ours.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-table");
    let built = Command::new(cargo)
        .args(["test", "--offline", "--quiet", "--test", "colour"])
        .current_dir(&copy)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    assert!(
        built.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
}
