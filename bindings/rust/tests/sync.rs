//! MemoryBox sync (spec memorybox.md §9) through the binding: `Workspace::memorybox_sync`, one
//! root pushing to a folder remote and another pulling from it, the connection string kept out
//! of results, and the refusals.
mod common;

use common::{data_of, finding_codes, Json, TempDir};
use memkit::{
    sys, Clock, CommandResult, Layout, SyncCommand, SyncOptions, Workspace, WorkspaceOptions,
};
use std::fs;
use std::path::Path;

const WORKSPACE: &str = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b";
const LONG_TERM: &str = concat!(
    "# LONG_TERM\n\n## Facts\n\n",
    "- The API base URL is https://api.example.com\n",
    "  Confidence: 0.90\n  Verified: 2026-11-20\n  Updated: 2026-11-20T10:00:00.000Z\n",
    "- Deploys happen on Tuesdays\n",
    "  Confidence: 0.80\n  Verified: 2026-11-25\n  Updated: 2026-11-25T10:00:00.000Z\n",
);

fn at(rfc3339: &str) -> Clock {
    Clock::parse(rfc3339).expect("the test clock parses")
}

fn open_root(path: &Path, now: &Clock) -> Workspace {
    fs::create_dir_all(path).unwrap();
    let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    let mut ws = Workspace::open_with(path, &options).expect("opens");
    ws.init(now, false).expect("init runs");
    ws
}

fn run(
    ws: &mut Workspace,
    now: &Clock,
    command: SyncCommand,
    options: &SyncOptions,
) -> CommandResult {
    ws.memorybox_sync(now, command, options)
        .unwrap_or_else(|e| panic!("sync {}: {}", command, e))
}

fn strings(value: Option<&Json>) -> Vec<String> {
    value
        .and_then(Json::as_array)
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn push_then_pull_between_two_roots() {
    let tmp = TempDir::new("sync");
    let now = at("2026-11-30T09:00:00Z");
    let later = at("2026-11-30T10:00:00Z");
    let remote = tmp.path().join("remote");
    fs::create_dir(&remote).unwrap();
    let remote_spec = format!("dir:{}", remote.display());
    let a_path = tmp.path().join("a");
    let mut a = open_root(&a_path, &now);
    fs::write(a_path.join("memory/LONG_TERM.md"), LONG_TERM).unwrap();

    let status = run(&mut a, &now, SyncCommand::Status, &SyncOptions::new());
    assert_eq!(status.exit_code(), 0);
    assert!(data_of(&status).get("workspace_id").unwrap().is_null());
    assert_eq!(
        data_of(&status).get("pending_push").and_then(Json::as_u64),
        Some(2)
    );

    let push = SyncOptions::new()
        .remote(remote_spec.clone())
        .workspace_id(WORKSPACE);
    let pushed = run(&mut a, &now, SyncCommand::Push, &push);
    assert_eq!(pushed.exit_code(), 0, "{}", pushed.json().unwrap());
    let data = data_of(&pushed);
    assert_eq!(data.get("sent").and_then(Json::as_u64), Some(2));
    assert_eq!(data.get("last_push_ok").and_then(Json::as_bool), Some(true));
    assert_eq!(
        data.get("workspace_id").and_then(Json::as_str),
        Some(WORKSPACE)
    );
    assert_eq!(pushed.plan_id(), None);
    assert!(!pushed.applied());
    let assigned = strings(data.get("assigned"));
    assert_eq!(assigned.len(), 2);
    let text = fs::read_to_string(a_path.join("memory/LONG_TERM.md")).unwrap();
    for id in &assigned {
        assert!(text.contains(&format!("  Id: {}\n", id)), "{}", text);
    }
    assert!(remote.join("memories.jsonl").is_file());

    let with_remote = SyncOptions::new().remote(remote_spec.clone());
    let status = run(&mut a, &later, SyncCommand::Status, &with_remote);
    let data = data_of(&status);
    assert_eq!(data.get("pending_push").and_then(Json::as_u64), Some(0));
    assert_eq!(data.get("pending_pull").and_then(Json::as_u64), Some(0));

    // B's first pull only adds entries: written at once, nothing to confirm.
    let b_path = tmp.path().join("b");
    let mut b = open_root(&b_path, &now);
    let pull = with_remote.clone().workspace_id(WORKSPACE);
    let pulled = run(&mut b, &later, SyncCommand::Pull, &pull);
    assert_eq!(pulled.exit_code(), 0, "{}", pulled.json().unwrap());
    let data = data_of(&pulled);
    assert_eq!(data.get("pulled").and_then(Json::as_u64), Some(2));
    assert_eq!(
        data.get("needs_confirmation").and_then(Json::as_bool),
        Some(false)
    );
    assert!(pulled.applied());
    assert!(pulled.plan_id().is_some());
    let text = fs::read_to_string(b_path.join("memory/LONG_TERM.md")).unwrap();
    assert!(text.contains("Deploys happen on Tuesdays"), "{}", text);
    for id in &assigned {
        assert!(text.contains(&format!("Id: {}", id)), "{}", text);
    }

    // Pulling again brings nothing new (the remote's cursor moved on) and writes nothing; B now
    // knows its workspace.
    let again = run(&mut b, &later, SyncCommand::Pull, &with_remote);
    let data = data_of(&again);
    assert_eq!(data.get("pulled").and_then(Json::as_u64), Some(0));
    assert_eq!(
        data.get("workspace_id").and_then(Json::as_str),
        Some(WORKSPACE)
    );
    assert!(!again.applied());
    assert_eq!(again.plan_id(), None);
}

#[test]
fn the_connection_string_never_reaches_a_result() {
    let tmp = TempDir::new("sync-conninfo");
    let now = at("2026-11-30T09:00:00Z");
    let mut ws = open_root(&tmp.path().join("a"), &now);
    let options = SyncOptions::new()
        .remote("postgres")
        .conninfo("host=/nonexistent/memkit-rs-sync port=1 password=sekrit-conninfo")
        .workspace_id(WORKSPACE);
    assert!(!format!("{:?}", options).contains("sekrit"));
    let result = run(&mut ws, &now, SyncCommand::Push, &options);
    assert_eq!(result.exit_code(), 2);
    let codes = finding_codes(&result);
    assert!(
        codes.iter().any(|c| c == "MK-BOX-023" || c == "MK-ARG-001"),
        "{:?}",
        codes
    );
    assert!(!result.json().unwrap().contains("sekrit"));
}

#[test]
fn refusals_are_results_or_errors_before_the_call() {
    let tmp = TempDir::new("sync-refusals");
    let now = at("2026-11-30T09:00:00Z");
    let mut ws = open_root(&tmp.path().join("a"), &now);
    let resolve = SyncOptions::new()
        .id("0190a1b2-0000-7000-8000-000000000000")
        .take("remote");
    let result = run(&mut ws, &now, SyncCommand::Resolve, &resolve);
    assert_eq!(result.exit_code(), 2);
    assert_eq!(finding_codes(&result), ["MK-ARG-001"]);
    assert!(result.json().unwrap().contains("no open sync conflict"));
    let result = run(&mut ws, &now, SyncCommand::Status, &resolve);
    assert!(result
        .json()
        .unwrap()
        .contains("unknown option --id for memorybox sync status"));
    let result = run(&mut ws, &now, SyncCommand::Pull, &SyncOptions::new());
    assert!(result.json().unwrap().contains("--remote: required"));
    let error = ws
        .memorybox_sync(
            &now,
            SyncCommand::Pull,
            &SyncOptions::new().remote("dir:\0"),
        )
        .err()
        .expect("a NUL is refused");
    assert_eq!(error.code(), sys::MK_E_ARG);

    let custodian_root = tmp.path().join("custodian");
    fs::create_dir(&custodian_root).unwrap();
    let mut custodian = Workspace::open(&custodian_root).unwrap();
    let result = run(
        &mut custodian,
        &now,
        SyncCommand::Status,
        &SyncOptions::new(),
    );
    assert_eq!(result.exit_code(), 2);
    assert!(result.json().unwrap().contains("MK_LAYOUT_MEMORYBOX"));
}
