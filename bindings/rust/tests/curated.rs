//! Curated memory (spec curated.md) through the binding: a store opened with `Layout::Curated`,
//! `memkit curated` commands by `Workspace::curated_run`, and the refusals that write nothing.
mod common;

use common::{data_of, envelope, finding_codes, Json, TempDir};
use memkit::{
    sys, AddOptions, Clock, CommandResult, CuratedCommand, CuratedOptions, Layout, TiersCommand,
    TiersOptions, Workspace, WorkspaceOptions,
};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

fn at(rfc3339: &str) -> Clock {
    Clock::parse(rfc3339).expect("the test clock parses")
}

fn curated_options() -> WorkspaceOptions {
    WorkspaceOptions::new().layout(Layout::Curated)
}

/// The row file after the first add (§4): the field order, the thread's status, no optional
/// field.
const PROJECT_ROWS: &str = "# Curated memory: project\n\n## project_a\nType: project\n\
Class: thread\nStatus: open\nAudience: any\nCreated: 2026-11-30T09:00:00.000Z\n\
Updated: 2026-11-30T09:00:00.000Z\n\nFix the flaky build\n";

fn add_a() -> CuratedOptions {
    CuratedOptions::new()
        .workspace("ws1")
        .name("project_a")
        .type_("project")
        .body("Fix the flaky build")
        .row_class("thread")
        .status("open")
}

fn run(
    ws: &mut Workspace,
    now: &Clock,
    command: CuratedCommand,
    options: CuratedOptions,
) -> CommandResult {
    ws.curated_run(now, command, &options)
        .unwrap_or_else(|e| panic!("curated {}: {}", command, e))
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
    let mut ws = Workspace::open_with(&store, &curated_options()).unwrap();
    let now = at("2026-11-30T09:00:00Z");
    let later = at("2026-11-30T10:00:00Z");

    let dry = run(&mut ws, &now, CuratedCommand::Add, add_a().dry_run(true));
    assert_eq!((dry.exit_code(), dry.applied()), (0, false));
    let entry = data_of(&dry)
        .get("entry")
        .and_then(Json::as_str)
        .map(String::from);
    assert!(entry.unwrap().starts_with("## project_a\nType: project\n"));
    assert!(files(&store).is_empty(), "a dry run writes nothing");

    let added = run(&mut ws, &now, CuratedCommand::Add, add_a());
    assert_eq!(
        (added.exit_code(), added.applied()),
        (0, true),
        "{}",
        added.json().unwrap()
    );
    assert_eq!(added.plan_id(), None);
    let data = data_of(&added);
    assert_eq!(data.get("action").and_then(Json::as_str), Some("inserted"));
    assert_eq!(
        envelope(&added).get("command").and_then(Json::as_str),
        Some("curated add")
    );
    assert_eq!(
        fs::read_to_string(store.join("rows/ws1/project.md")).unwrap(),
        PROJECT_ROWS
    );

    let named = CuratedOptions::new().workspace("ws1").name("project_a");
    let shown = run(
        &mut ws,
        &later,
        CuratedCommand::Show,
        named.clone().links(true),
    );
    assert_eq!((shown.exit_code(), shown.applied()), (0, false));
    let view = data_of(&shown);
    assert_eq!(
        view.get("body").and_then(Json::as_str),
        Some("Fix the flaky build")
    );
    assert_eq!(view.get("status").and_then(Json::as_str), Some("open"));
    assert_eq!(view.get("deliberate_count").and_then(Json::as_u64), Some(1));
    let before = files(&store);

    // §14: reclassify --status open on what would be an anchor is MK-CUR-007, fatal.
    let refused = run(
        &mut ws,
        &later,
        CuratedCommand::Reclassify,
        named.row_class("anchor").status("open"),
    );
    assert_eq!(refused.exit_code(), 2, "{}", refused.json().unwrap());
    assert_eq!(finding_codes(&refused), ["MK-CUR-007"]);
    assert!(!refused.applied());
    assert_eq!(files(&store), before, "nothing written");
}

#[test]
fn missing_workspace_unknown_options_and_bad_requests() {
    let tmp = TempDir::new("curated-refusals");
    let store = tmp.path().join("store");
    let mut ws = Workspace::open_with(&store, &curated_options()).unwrap();
    let now = at("2026-11-30T09:00:00Z");
    // The library reads no MEMKIT_WORKSPACE: no workspace is the CLI's missing_scope.
    let result = run(&mut ws, &now, CuratedCommand::Stats, CuratedOptions::new());
    assert_eq!(finding_codes(&result), ["MK-CUR-001"]);
    assert_eq!(result.exit_code(), 2);
    let result = run(&mut ws, &now, CuratedCommand::Add, add_a().limit(3));
    assert_eq!(finding_codes(&result), ["MK-ARG-001"]);
    assert!(result.json().unwrap().contains("--limit"));
    // "-" is the CLI's standard input, which a library call has not.
    let from_stdin = CuratedOptions::new()
        .workspace("ws1")
        .name("project_b")
        .type_("project")
        .body_file("-");
    let result = run(&mut ws, &now, CuratedCommand::Add, from_stdin);
    assert_eq!(finding_codes(&result), ["MK-ARG-001"]);
    assert!(files(&store).is_empty());
    let error = ws
        .curated_run(
            &now,
            CuratedCommand::List,
            &CuratedOptions::new().limit(i64::MIN),
        )
        .err()
        .unwrap();
    assert_eq!(error.code(), sys::MK_E_ARG);
    // recover is a curated command here (it needs the workspace); nothing is unfinished.
    let result = run(
        &mut ws,
        &now,
        CuratedCommand::Recover,
        CuratedOptions::new().workspace("ws1"),
    );
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert_eq!(
        data_of(&result)
            .get("recovery_status")
            .and_then(Json::as_str),
        Some("clean")
    );
}

#[test]
fn other_layouts_commands_are_fatal_findings_both_ways() {
    let tmp = TempDir::new("curated-layouts");
    let store = tmp.path().join("store");
    let mut ws = Workspace::open_with(&store, &curated_options()).unwrap();
    let now = at("2026-11-30T09:00:00Z");
    let results = [
        ws.status(&now).unwrap(),
        ws.add(&now, "a note", &AddOptions::new("project")).unwrap(),
        ws.recover(&now, false, false).unwrap(),
        ws.tiers_run(&now, TiersCommand::Init, &TiersOptions::new())
            .unwrap(),
    ];
    for result in &results {
        assert_eq!(result.exit_code(), 2, "{}", result.json().unwrap());
        assert_eq!(finding_codes(result), ["MK-ARG-001"]);
        assert!(!result.applied());
    }
    assert!(files(&store).is_empty());

    let tiers_root = tmp.path().join("tiers");
    fs::create_dir(&tiers_root).unwrap();
    let mut tiers =
        Workspace::open_with(&tiers_root, &WorkspaceOptions::new().layout(Layout::Tiers)).unwrap();
    let result = run(&mut tiers, &now, CuratedCommand::Add, add_a());
    assert_eq!(result.exit_code(), 2);
    assert_eq!(finding_codes(&result), ["MK-ARG-001"]);
    assert!(result.json().unwrap().contains("MK_LAYOUT_CURATED"));
    assert!(files(&tiers_root).is_empty());
}
