//! Curated memory (spec curated.md) through the generated builders on a store opened with
//! `Layout::Curated`: positionals, two-word verbs, and the refusals that write nothing.
mod common;

use common::{data_of, envelope, finding_codes, Json, TempDir};
use memkit::{sys, Clock, CommandResult, Layout, Workspace, WorkspaceOptions};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

fn at(rfc3339: &str) -> Clock {
    Clock::parse(rfc3339).expect("the test clock parses")
}

fn curated_options() -> WorkspaceOptions {
    WorkspaceOptions::new().layout(Layout::Curated)
}

fn ok(result: memkit::Result<CommandResult>) -> CommandResult {
    result.unwrap_or_else(|e| panic!("an error, not a result: {}", e))
}

/// The row file after the first add (§4): the field order, the thread's status, no optional
/// field.
const PROJECT_ROWS: &str = "# Curated memory: project\n\n## project_a\nType: project\n\
Class: thread\nStatus: open\nAudience: any\nCreated: 2026-11-30T09:00:00.000Z\n\
Updated: 2026-11-30T09:00:00.000Z\n\nFix the flaky build\n";

fn add_a(ws: &Workspace) -> memkit::commands::CuratedAdd<'_> {
    ws.curated_add()
        .workspace("ws1")
        .name("project_a")
        .type_("project")
        .body("Fix the flaky build")
        .class("thread")
        .status("open")
}

/// Every file under `root` but `.memkit/` (relative path -> bytes): what the commands wrote.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, found: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if relative == ".memkit" {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, found);
            } else {
                found.insert(relative, fs::read(&path).unwrap());
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(root, root, &mut found);
    found
}

#[test]
fn a_missing_store_opens_and_memory_dir_or_a_file_is_refused() {
    let tmp = TempDir::new("curated-open");
    let store = tmp.path().join("store");
    let ws = Workspace::open_with(&store, &curated_options()).expect("a missing store opens");
    drop(ws);
    assert!(!store.exists(), "opening makes nothing");
    let error = Workspace::open_with(&store, &curated_options().memory_dir("docs/memory"))
        .expect_err("memory_dir is the custodian's");
    assert_eq!(error.code(), sys::MK_E_ARG);
    let file = tmp.path().join("a-file");
    fs::write(&file, "not a store\n").unwrap();
    let error = Workspace::open_with(&file, &curated_options()).expect_err("a file is no store");
    assert_eq!(error.code(), sys::MK_E_ARG);
}

#[test]
fn add_then_show_then_a_refused_reclassify_writes_nothing() {
    let tmp = TempDir::new("curated-add");
    let store = tmp.path().join("store");
    let ws = Workspace::open_with(&store, &curated_options()).unwrap();
    let now = at("2026-11-30T09:00:00Z");
    let later = at("2026-11-30T10:00:00Z");

    let dry = ok(add_a(&ws).dry_run(true).run(&now));
    assert_eq!((dry.exit_code(), dry.applied()), (0, false));
    let entry = data_of(&dry)
        .get("entry")
        .and_then(Json::as_str)
        .map(String::from);
    assert!(entry.unwrap().starts_with("## project_a\nType: project\n"));
    assert!(files(&store).is_empty(), "a dry run writes nothing");

    let added = ok(add_a(&ws).run(&now));
    assert_eq!(
        (added.exit_code(), added.applied()),
        (0, true),
        "{}",
        added.json().unwrap()
    );
    assert_eq!(added.plan_id(), None);
    assert_eq!(
        data_of(&added).get("action").and_then(Json::as_str),
        Some("inserted")
    );
    assert_eq!(
        envelope(&added).get("command").and_then(Json::as_str),
        Some("curated add")
    );
    assert_eq!(
        fs::read_to_string(store.join("rows/ws1/project.md")).unwrap(),
        PROJECT_ROWS
    );

    // NAME is a positional of show and reclassify.
    let shown = ok(ws
        .curated_show()
        .workspace("ws1")
        .name("project_a")
        .links(true)
        .run(&later));
    assert_eq!((shown.exit_code(), shown.applied()), (0, false));
    let view = data_of(&shown);
    assert_eq!(
        view.get("body").and_then(Json::as_str),
        Some("Fix the flaky build")
    );
    assert_eq!(view.get("deliberate_count").and_then(Json::as_u64), Some(1));
    let before = files(&store);

    // §14: reclassify --status open on what would be an anchor is MK-CUR-007, fatal.
    let refused = ok(ws
        .curated_reclassify()
        .workspace("ws1")
        .name("project_a")
        .class("anchor")
        .status("open")
        .run(&later));
    assert_eq!(refused.exit_code(), 2, "{}", refused.json().unwrap());
    assert_eq!(finding_codes(&refused), ["MK-CUR-007"]);
    assert!(!refused.applied());
    assert_eq!(files(&store), before, "nothing written");
}

#[test]
fn two_positionals_and_a_two_word_verb_reach_their_command() {
    let tmp = TempDir::new("curated-link");
    let store = tmp.path().join("store");
    let ws = Workspace::open_with(&store, &curated_options()).unwrap();
    let now = at("2026-11-30T09:00:00Z");
    for name in ["feedback_a", "feedback_b"] {
        let added = ok(ws
            .curated_add()
            .workspace("ws1")
            .name(name)
            .type_("feedback")
            .body("noted")
            .run(&now));
        assert_eq!(added.exit_code(), 0, "{}", added.json().unwrap());
    }
    // SRC and DST are given in either order: the library places them.
    let linked = ok(ws
        .curated_link()
        .dst("feedback_a")
        .src("feedback_b")
        .kind("supersedes")
        .workspace("ws1")
        .run(&now));
    assert_eq!(linked.exit_code(), 0, "{}", linked.json().unwrap());
    assert!(linked.applied());
    let shown = ok(ws
        .curated_show()
        .workspace("ws1")
        .name("feedback_b")
        .links(true)
        .run(&now));
    assert!(
        shown.json().unwrap().contains("feedback_a"),
        "{}",
        shown.json().unwrap()
    );

    let event = ok(ws
        .curated_event_add()
        .workspace("ws1")
        .type_("deploy")
        .payload(r#"{"ok":true}"#)
        .run(&now));
    assert_eq!(event.exit_code(), 0, "{}", event.json().unwrap());
    assert!(event.applied());
    assert_eq!(
        envelope(&event).get("command").and_then(Json::as_str),
        Some("curated event add")
    );
}

#[test]
fn missing_workspace_and_bad_values_are_findings() {
    let tmp = TempDir::new("curated-refusals");
    let store = tmp.path().join("store");
    let ws = Workspace::open_with(&store, &curated_options()).unwrap();
    let now = at("2026-11-30T09:00:00Z");
    // The library reads no MEMKIT_WORKSPACE: no workspace is the CLI's missing_scope.
    let result = ok(ws.curated_stats().run(&now));
    assert_eq!(finding_codes(&result), ["MK-CUR-001"]);
    assert_eq!(result.exit_code(), 2);
    // "-" is the CLI's standard input, which a library call has not.
    let from_stdin = ok(ws
        .curated_add()
        .workspace("ws1")
        .name("project_b")
        .type_("project")
        .body_file("-")
        .run(&now));
    assert_eq!(finding_codes(&from_stdin), ["MK-ARG-001"]);
    assert!(files(&store).is_empty());
    // An option add does not take is refused by the request, before anything runs.
    let error = memkit::Request::from(add_a(&ws))
        .int("limit", 3)
        .run(&now)
        .unwrap_err();
    assert_eq!(error.code(), sys::MK_E_ARG);
    assert_eq!(error.message(), "limit: not an argument of curated add");
    assert!(files(&store).is_empty());
    // recover is a curated command here (it needs the workspace); nothing is unfinished.
    let result = ok(ws.curated_recover().workspace("ws1").run(&now));
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert_eq!(
        data_of(&result)
            .get("recovery_status")
            .and_then(Json::as_str),
        Some("clean")
    );
}
