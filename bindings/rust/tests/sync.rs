//! MemoryBox sync (spec memorybox.md §9) through the generated builders (`memorybox sync pull`
//! and the other two-word verbs): one root pushing to a folder remote and another pulling from
//! it, the connection string read from a file and kept out of results, and the refusals.
mod common;

use common::{data_of, finding_codes, Json, TempDir};
use memkit::{sys, Clock, CommandResult, Layout, Workspace, WorkspaceOptions};
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
    let ws = Workspace::open_with(path, &options).expect("opens");
    ws.memorybox_init().run(now).expect("init runs");
    ws
}

fn ok(result: memkit::Result<CommandResult>) -> CommandResult {
    result.unwrap_or_else(|e| panic!("an error, not a result: {}", e))
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
    let a = open_root(&a_path, &now);
    fs::write(a_path.join("memory/LONG_TERM.md"), LONG_TERM).unwrap();

    let status = ok(a.memorybox_sync_status().run(&now));
    assert_eq!(status.exit_code(), 0);
    assert!(data_of(&status).get("workspace_id").unwrap().is_null());
    assert_eq!(
        data_of(&status).get("pending_push").and_then(Json::as_u64),
        Some(2)
    );

    let pushed = ok(a
        .memorybox_sync_push()
        .remote(&remote_spec)
        .workspace_id(WORKSPACE)
        .run(&now));
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

    let status = ok(a.memorybox_sync_status().remote(&remote_spec).run(&later));
    let data = data_of(&status);
    assert_eq!(data.get("pending_push").and_then(Json::as_u64), Some(0));
    assert_eq!(data.get("pending_pull").and_then(Json::as_u64), Some(0));

    // B's first pull only adds entries: written at once, nothing to confirm.
    let b_path = tmp.path().join("b");
    let b = open_root(&b_path, &now);
    let pulled = ok(b
        .memorybox_sync_pull()
        .remote(&remote_spec)
        .workspace_id(WORKSPACE)
        .run(&later));
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
    let again = ok(b.memorybox_sync_pull().remote(&remote_spec).run(&later));
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
fn the_connection_string_comes_from_a_file_and_never_reaches_a_result() {
    let tmp = TempDir::new("sync-conninfo");
    let now = at("2026-11-30T09:00:00Z");
    let ws = open_root(&tmp.path().join("a"), &now);
    let conninfo = tmp.path().join("conninfo");
    fs::write(
        &conninfo,
        "host=/nonexistent/memkit-rs-sync port=1 password=sekrit-conninfo\n",
    )
    .unwrap();
    let result = ok(ws
        .memorybox_sync_push()
        .remote("postgres")
        .conninfo_file(&conninfo)
        .workspace_id(WORKSPACE)
        .run(&now));
    assert_eq!(result.exit_code(), 2, "{}", result.json().unwrap());
    let codes = finding_codes(&result);
    assert!(
        codes.iter().any(|c| c == "MK-BOX-023" || c == "MK-ARG-001"),
        "{:?}",
        codes
    );
    assert!(!result.json().unwrap().contains("sekrit"));
}

#[test]
fn refusals_are_results_or_errors_before_the_run() {
    let tmp = TempDir::new("sync-refusals");
    let now = at("2026-11-30T09:00:00Z");
    let ws = open_root(&tmp.path().join("a"), &now);
    let result = ok(ws
        .memorybox_sync_resolve()
        .id("0190a1b2-0000-7000-8000-000000000000")
        .take("remote")
        .run(&now));
    assert_eq!(result.exit_code(), 2);
    assert_eq!(finding_codes(&result), ["MK-ARG-001"]);
    assert!(result.json().unwrap().contains("no open sync conflict"));
    // What the command checks itself is a finding; an argument it does not take, an error.
    let result = ok(ws.memorybox_sync_pull().run(&now));
    assert!(result.json().unwrap().contains("--remote: required"));
    let error = ws
        .request("memorybox", "sync status")
        .string("id", "x")
        .run(&now)
        .unwrap_err();
    assert_eq!(error.code(), sys::MK_E_ARG);
    assert!(
        error
            .message()
            .starts_with("id: not an argument of memorybox sync status"),
        "{}",
        error
    );
    let error = ws
        .memorybox_sync_pull()
        .remote("dir:\0")
        .run(&now)
        .unwrap_err();
    assert_eq!(error.code(), sys::MK_E_ARG);
    assert_eq!(error.message(), "remote: contains a NUL byte");

    let custodian_root = tmp.path().join("custodian");
    fs::create_dir(&custodian_root).unwrap();
    let custodian = Workspace::open(&custodian_root).unwrap();
    let error = custodian.memorybox_sync_status().run(&now).unwrap_err();
    assert_eq!(error.code(), sys::MK_E_ARG);
    assert!(error.message().contains("another layout"), "{}", error);
}
