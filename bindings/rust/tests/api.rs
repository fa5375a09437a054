//! The safe API beyond the shared vectors: versions, clocks, errors, streaming, documents,
//! ownership and threads.
mod common;

use common::{data_of, finding_codes, parse_json, Json, TempDir};
use memkit::{
    sys, AddOptions, BudgetState, Clock, CommandResult, CompactOptions, Document, Error,
    ForgetOptions, Gate, GateCandidate, InitOptions, Layout, Lifecycle, Profile, Unit, UnitKind,
    UpdateEvent, Workspace, WorkspaceOptions,
};
use std::fs;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::thread;

const NOW: &str = "2026-03-07T10:00:00+01:00";

fn now() -> Clock {
    Clock::parse(NOW).expect("the test clock parses")
}

fn expect_error<T: std::fmt::Debug>(result: Result<T, Error>, code: i32, name: &str) -> Error {
    let error = match result {
        Ok(value) => panic!("expected {} ({}), got Ok({:?})", name, code, value),
        Err(error) => error,
    };
    assert_eq!(error.code(), code, "{}", error);
    assert_eq!(error.name(), name, "{}", error);
    assert!(
        !error.message().is_empty(),
        "an error without a message: {:?}",
        error
    );
    error
}

/// A project whose memory folder `init` created.
fn initialised_project() -> (TempDir, Workspace) {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open(tmp.path()).expect("open a fresh project");
    let init = ws.init(&now(), false).expect("init");
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    (tmp, ws)
}

// Version

#[test]
fn the_library_is_version_0_1_0() {
    assert_eq!(memkit::version(), 100);
    assert_eq!(memkit::version(), sys::MK_VERSION_NUMBER);
    assert_eq!(memkit::version_string(), "0.1.0");
    assert_eq!(memkit::version_string(), sys::MK_VERSION_STRING);
    memkit::check_version().expect("the loaded library matches the binding");
}

#[test]
fn any_command_runs_by_name_with_the_json_of_its_typed_method() {
    let (dir, mut ws) = initialised_project();
    let added = ws
        .run_command(
            &now(),
            "custodian",
            "add",
            &[
                (
                    "message",
                    memkit::Arg::Text("Reports render without JavaScript"),
                ),
                ("type", memkit::Arg::Text("constraint")),
            ],
        )
        .expect("run");
    assert_eq!(added.exit_code(), 0, "{}", added.json().unwrap());
    let constraints = std::fs::read_to_string(dir.path().join("docs/memory/constraints.md"))
        .expect("constraints.md");
    assert!(constraints.contains("- Reports render without JavaScript\n"));
    let by_name = ws
        .run_command(&now(), "custodian", "status", &[])
        .expect("status");
    let typed = ws.status(&now()).expect("status");
    assert_eq!(by_name.json().unwrap(), typed.json().unwrap());
    let wrong = ws.run_command(
        &now(),
        "custodian",
        "add",
        &[("tpye", memkit::Arg::Text("x"))],
    );
    let error = expect_error(wrong, -1, "MK_E_ARG");
    assert!(
        error.message().contains("did you mean 'type'?"),
        "{}",
        error.message()
    );
    expect_error(
        ws.run_command(
            &now(),
            "custodian",
            "add",
            &[("type", memkit::Arg::Flag(true))],
        ),
        -1,
        "MK_E_ARG",
    );
}

#[test]
fn the_command_table_describes_every_command() {
    let table = memkit::commands_json().expect("the table");
    assert!(table.starts_with("{\"global_options\":["));
    assert!(table.contains("\"name\":\"memorybox log\""));
    assert!(table.contains("\"table_version\":1}"));
}

// Status names and messages

#[test]
fn status_names_come_from_the_library() {
    assert_eq!(memkit::status_name(sys::MK_OK), "MK_OK");
    assert_eq!(memkit::status_name(sys::MK_E_ARG), "MK_E_ARG");
    assert_eq!(memkit::status_name(sys::MK_E_LAYOUT), "MK_E_LAYOUT");
    assert_eq!(memkit::status_name(sys::MK_E_CALLBACK), "MK_E_CALLBACK");
    assert_eq!(memkit::status_name(12345), "MK_E_UNKNOWN");
}

#[test]
fn an_error_carries_the_message_the_library_kept_for_this_thread() {
    let error = expect_error(Clock::parse("not a time"), sys::MK_E_ARG, "MK_E_ARG");
    assert_eq!(memkit::last_error_message(), error.message());
    let shown = error.to_string();
    assert!(shown.starts_with("MK_E_ARG (-1): "), "{}", shown);
    assert!(shown.contains(error.message()), "{}", shown);

    // Each thread keeps its own message: a failure elsewhere does not replace this one.
    let other = thread::spawn(|| {
        let error = Clock::parse("2026-11-30T10:00:00").unwrap_err();
        (error.message().to_string(), memkit::last_error_message())
    })
    .join()
    .unwrap();
    assert_eq!(other.0, other.1);
    assert_ne!(other.0, error.message());
    assert_eq!(memkit::last_error_message(), error.message());
}

// Clock

#[test]
fn a_clock_parses_rfc3339_with_an_offset() {
    let clock = Clock::parse("2026-11-30T10:00:00+01:00").unwrap();
    assert_eq!(clock.unix_ms(), Some(1_796_029_200_000));
    assert_eq!(clock.utc_offset_minutes(), Some(60));
    assert!(!clock.is_system());
    assert_eq!(clock.as_raw().version, sys::MK_CLOCK_VERSION);
    assert_eq!(clock.as_raw().flags, 0);

    let utc: Clock = "2026-11-30T10:00:00Z".parse().unwrap();
    assert_eq!(utc.unix_ms(), Some(1_796_032_800_000));
    assert_eq!(utc.utc_offset_minutes(), Some(0));

    let west = Clock::parse("2026-11-30T10:00:00.250-05:30").unwrap();
    assert_eq!(
        west.unix_ms(),
        Some(1_796_029_200_000 + 6 * 3_600_000 + 30 * 60_000 + 250)
    );
    assert_eq!(west.utc_offset_minutes(), Some(-330));
    assert_eq!(Clock::from_unix_ms(1_796_029_200_000, 60), clock);
}

#[test]
fn a_clock_without_an_offset_is_mk_e_arg() {
    let error = expect_error(Clock::parse("2026-11-30T10:00:00"), -1, "MK_E_ARG");
    assert!(error.message().contains("offset"), "{}", error);
    expect_error(Clock::parse(""), -1, "MK_E_ARG");
    expect_error(Clock::parse("2026-02-30T10:00:00Z"), -1, "MK_E_ARG");
    let error = expect_error(Clock::parse("2026-11-30T10:00:00Z\0"), -1, "MK_E_ARG");
    assert!(error.message().contains("NUL"), "{}", error);
}

#[test]
fn the_system_clock_is_read_when_a_command_runs() {
    let clock = Clock::system();
    assert!(clock.is_system());
    assert_eq!(clock.unix_ms(), None);
    assert_eq!(clock.as_raw().flags, sys::MK_CLOCK_SYSTEM);
    let (_tmp, mut ws) = initialised_project();
    let status = ws.status(&clock).expect("status at the system clock");
    assert!(status
        .json()
        .unwrap()
        .starts_with("{\"command\":\"custodian status\""));
}

#[test]
fn a_command_given_an_impossible_offset_fails_without_a_result() {
    let (_tmp, mut ws) = initialised_project();
    let error = expect_error(ws.status(&Clock::from_unix_ms(0, 24 * 60)), -1, "MK_E_ARG");
    assert!(error.message().contains("offset"), "{}", error);
}

// Workspace::open

#[test]
fn open_rejects_a_project_root_that_is_a_regular_file() {
    let tmp = TempDir::new("api");
    let file = tmp.path().join("file.txt");
    fs::write(&file, "not a folder").unwrap();
    let error = expect_error(Workspace::open(&file), sys::MK_E_ARG, "MK_E_ARG");
    assert!(error.message().contains("file.txt"), "{}", error);
}

#[test]
fn open_rejects_a_missing_or_empty_project_root() {
    let tmp = TempDir::new("api");
    expect_error(
        Workspace::open(tmp.path().join("missing")),
        sys::MK_E_ARG,
        "MK_E_ARG",
    );
    expect_error(Workspace::open(""), sys::MK_E_ARG, "MK_E_ARG");
    let error = expect_error(Workspace::open("a\0b"), sys::MK_E_ARG, "MK_E_ARG");
    assert!(error.message().contains("project_root"), "{}", error);
}

#[test]
fn open_rejects_a_memory_dir_outside_docs() {
    let tmp = TempDir::new("api");
    for dir in ["memory", "docs", "docs/../memory", "/tmp/docs/memory"] {
        let options = WorkspaceOptions::new().memory_dir(dir);
        let error = expect_error(
            Workspace::open_with(tmp.path(), &options),
            sys::MK_E_LAYOUT,
            "MK_E_LAYOUT",
        );
        assert!(error.message().contains(dir), "{}: {}", dir, error);
    }
}

#[cfg(unix)]
#[test]
fn open_rejects_a_memory_dir_reached_through_a_symbolic_link() {
    let tmp = TempDir::new("api");
    fs::create_dir_all(tmp.path().join("elsewhere")).unwrap();
    fs::create_dir_all(tmp.path().join("docs")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("elsewhere"), tmp.path().join("docs/memory"))
        .unwrap();
    expect_error(
        Workspace::open(tmp.path()),
        sys::MK_E_UNSAFE_PATH,
        "MK_E_UNSAFE_PATH",
    );
}

#[test]
fn open_rejects_a_negative_lock_timeout() {
    let tmp = TempDir::new("api");
    let options = WorkspaceOptions::new().lock_timeout_seconds(-1.0);
    let error = expect_error(Workspace::open_with(tmp.path(), &options), -1, "MK_E_ARG");
    assert!(
        error.message().contains("lock_timeout_seconds"),
        "{}",
        error
    );
}

#[test]
fn options_reach_the_library() {
    let tmp = TempDir::new("api");
    let options = WorkspaceOptions::new()
        .memory_dir("docs/agent-memory")
        .lock_timeout_seconds(0.5);
    let mut ws = Workspace::open_with(tmp.path(), &options).unwrap();
    let init = ws.init(&now(), true).unwrap();
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    assert!(init
        .json()
        .unwrap()
        .contains("\"memory_dir\":\"docs/agent-memory\""));
    assert!(tmp.path().join("docs/agent-memory/inbox.md").is_file());
    assert!(
        tmp.path()
            .join("docs/agent-memory/rules/README.md")
            .is_file(),
        "--extended"
    );
    assert!(!tmp.path().join("docs/memory").exists());
}

// The MemoryBox layout

fn memorybox_options() -> WorkspaceOptions {
    WorkspaceOptions::new().layout(Layout::MemoryBox)
}

#[test]
fn a_memorybox_workspace_inits_the_tiers_and_reports_them_in_the_json() {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    assert!(!tmp.path().join("brain").exists(), "open writes nothing");

    let init = ws.init(&now(), false).unwrap();
    let init_json = init.json().unwrap();
    assert_eq!(init.exit_code(), 0, "{}", init_json);
    assert!(
        init_json.starts_with("{\"command\":\"memorybox init\""),
        "{}",
        init_json
    );
    assert!(init_json.contains("\"brain/SOUL.md\""), "{}", init_json);
    assert!(tmp.path().join("brain/SOUL.md").is_file());
    assert!(tmp.path().join("memory/daily").is_dir());
    assert!(
        !tmp.path().join("docs").exists(),
        "no custodian files in an agent root"
    );

    let status = ws.status(&now()).unwrap();
    let json = status.json().unwrap();
    assert_eq!(status.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox status\""),
        "{}",
        json
    );
    assert!(json.contains("\"tiers\":["), "{}", json);
    assert!(json.contains("\"path\":\"brain/SOUL.md\""), "{}", json);
    // Line budgets are only in the JSON: no custodian rows (memkit.h mk_result_budget_row_count).
    assert_eq!(status.budget_row_count(), 0);
    assert!(status.budget_rows().unwrap().is_empty());
    expect_error(status.budget_row(0), -1, "MK_E_ARG");
    assert_eq!(status.plan_id(), None);
    assert_eq!(status.inbox_counts().unwrap(), None);
}

#[test]
fn a_memorybox_workspace_takes_no_memory_dir() {
    let tmp = TempDir::new("api");
    let options = memorybox_options().memory_dir("docs/memory");
    let error = expect_error(Workspace::open_with(tmp.path(), &options), -1, "MK_E_ARG");
    assert!(error.message().contains("memory_dir"), "{}", error);
    // The same memory_dir is fine for the custodian layout, so the layout is what refuses it.
    let custodian = WorkspaceOptions::new()
        .layout(Layout::Custodian)
        .memory_dir("docs/memory");
    Workspace::open_with(tmp.path(), &custodian).expect("a custodian memory_dir");
}

#[test]
fn a_custodian_command_on_a_memorybox_workspace_is_exit_code_2() {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    let plan = ws.plan_compaction(&now(), &CompactOptions::new()).unwrap();
    let json = plan.json().unwrap();
    assert_eq!(plan.exit_code(), 2, "{}", json);
    assert!(json.contains("\"code\":\"MK-ARG-001\""), "{}", json);
    assert!(json.contains("\"fatal\":true"), "{}", json);
    assert_eq!(plan.plan_id(), None);
    assert!(!plan.applied());
    assert_eq!(plan.inbox_counts().unwrap(), None);
    assert_eq!(
        fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "nothing was written"
    );
}

#[test]
fn decay_reports_a_memorybox_entry_and_refuses_a_custodian_workspace() {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    ws.init(&now(), false).unwrap();
    let long_term = tmp.path().join("memory/LONG_TERM.md");
    fs::write(
        &long_term,
        "- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n",
    )
    .unwrap();
    let later = Clock::parse("2026-11-30T10:00:00+01:00").unwrap();

    for file in [None, Some("memory/LONG_TERM.md")] {
        let decay = ws.decay(&later, file).unwrap();
        let json = decay.json().unwrap();
        assert_eq!(decay.exit_code(), 0, "{:?}: {}", file, json);
        assert!(
            json.starts_with("{\"command\":\"memorybox decay\""),
            "{}",
            json
        );
        assert!(json.contains("\"effective\":80"), "{:?}: {}", file, json);
        assert!(json.contains("\"band\":\"high\""), "{:?}: {}", file, json);
        assert_eq!(decay.plan_id(), None);
        assert!(!decay.applied());
    }
    assert_eq!(
        fs::read(&long_term).unwrap(),
        b"- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n",
        "decay writes nothing"
    );
    expect_error(ws.decay(&later, Some("memory/\0x.md")), -1, "MK_E_ARG");

    let (custodian_tmp, mut custodian) = initialised_project();
    let refused = custodian.decay(&later, None).unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(json.contains("\"code\":\"MK-ARG-001\""), "{}", json);
    assert!(json.contains("\"fatal\":true"), "{}", json);
    assert!(!custodian_tmp.path().join("memory").exists());
}

#[test]
fn hygiene_reports_an_orphaned_link_with_exit_code_1() {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    ws.init(&now(), false).unwrap();
    let soul = tmp.path().join("brain/SOUL.md");
    let mut text = fs::read_to_string(&soul).unwrap();
    text.push_str("\nSee [[missing/PAGE]].\n");
    fs::write(&soul, &text).unwrap();

    let hygiene = ws.hygiene(&now()).unwrap();
    let json = hygiene.json().unwrap();
    assert_eq!(hygiene.exit_code(), 1, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox hygiene\""),
        "{}",
        json
    );
    assert!(json.contains("\"items\":["), "{}", json);
    assert!(json.contains("\"target\":\"missing/PAGE.md\""), "{}", json);
    assert_eq!(hygiene.plan_id(), None);
    assert!(!hygiene.applied());
    assert_eq!(
        fs::read_to_string(&soul).unwrap(),
        text,
        "hygiene writes nothing"
    );

    let (custodian_tmp, mut custodian) = initialised_project();
    let refused = custodian.hygiene(&now()).unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(json.contains("\"code\":\"MK-ARG-001\""), "{}", json);
    assert!(!custodian_tmp.path().join("brain").exists());
}

#[test]
fn load_reads_a_memorybox_tier_and_keeps_the_archive_behind_a_flag() {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    ws.init(&now(), false).unwrap();
    fs::write(tmp.path().join("memory/ARCHIVES/old.md"), "# OLD\n").unwrap();

    let tier_1 = ws.load_tier(&now(), 1, false).unwrap();
    let json = tier_1.json().unwrap();
    assert_eq!(tier_1.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox load\""),
        "{}",
        json
    );
    assert!(
        json.contains(
            "{\"content\":\"# SOUL\\n\",\"lines\":1,\"path\":\"brain/SOUL.md\",\"tier\":1}"
        ),
        "{}",
        json
    );
    assert_eq!(tier_1.plan_id(), None);
    assert!(!tier_1.applied());

    let refused = ws.load_tier(&now(), 5, false).unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(json.contains("\"code\":\"MK-ARG-001\""), "{}", json);
    assert!(json.contains("--include-archive"), "{}", json);

    for archive in [
        ws.load_tier(&now(), 5, true).unwrap(),
        ws.load_file(&now(), "memory/ARCHIVES/old.md").unwrap(),
    ] {
        let json = archive.json().unwrap();
        assert_eq!(archive.exit_code(), 0, "{}", json);
        assert!(
            json.contains("\"path\":\"memory/ARCHIVES/old.md\",\"tier\":5"),
            "{}",
            json
        );
    }

    let soul = ws.load_file(&now(), "brain/SOUL.md").unwrap();
    let json = soul.json().unwrap();
    assert_eq!(soul.exit_code(), 0, "{}", json);
    assert!(
        json.contains("\"files\":[{\"content\":\"# SOUL\\n\""),
        "{}",
        json
    );

    // Tier 0 is C's "no tier": with no file, neither is given.
    expect_error(ws.load_tier(&now(), 0, false), -1, "MK_E_ARG");
    expect_error(ws.load_file(&now(), "brain/\0SOUL.md"), -1, "MK_E_ARG");
    assert_eq!(ws.load_tier(&now(), 6, false).unwrap().exit_code(), 2);
    assert_eq!(ws.load_file(&now(), "notes.md").unwrap().exit_code(), 2);

    let (_custodian_tmp, mut custodian) = initialised_project();
    let refused = custodian.load_tier(&now(), 1, false).unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(json.contains("\"code\":\"MK-ARG-001\""), "{}", json);
}

/// The first `"entry_id":"..."` value in a result's JSON.
fn first_entry_id(json: &str) -> String {
    let key = "\"entry_id\":\"";
    let start = json
        .find(key)
        .unwrap_or_else(|| panic!("no entry_id in {}", json))
        + key.len();
    let end = start + json[start..].find('"').expect("the entry_id string ends");
    json[start..end].to_string()
}

#[test]
fn update_writes_an_entry_s_field_lines_directly() {
    let tmp = TempDir::new("api");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    ws.init(&now(), false).unwrap();
    let long_term = tmp.path().join("memory/LONG_TERM.md");
    fs::write(
        &long_term,
        "- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n",
    )
    .unwrap();
    let later = Clock::parse("2026-11-30T10:00:00+01:00").unwrap();
    let entry_id = first_entry_id(&ws.decay(&later, None).unwrap().json().unwrap());
    assert!(entry_id.starts_with("memory/LONG_TERM.md#"), "{}", entry_id);

    let confirmed = ws.update(&later, &entry_id, &UpdateEvent::Confirm).unwrap();
    let json = confirmed.json().unwrap();
    assert_eq!(confirmed.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox update\""),
        "{}",
        json
    );
    assert!(confirmed.applied(), "{}", json);
    assert_eq!(confirmed.plan_id(), None, "an update applies directly");
    let text = fs::read_to_string(&long_term).unwrap();
    assert!(text.contains("Confidence: 0.95"), "{}", text);
    assert!(text.contains("Verified: 2026-11-30"), "{}", text);

    // An empty note is the CLI's to refuse: a result, not an error, and nothing written.
    let empty_note = UpdateEvent::Contradict {
        note: String::new(),
    };
    let refused = ws.update(&later, &entry_id, &empty_note).unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(!refused.applied(), "{}", json);
    assert_eq!(fs::read_to_string(&long_term).unwrap(), text);

    let contradicted = UpdateEvent::Contradict {
        note: "it is 16 now".to_string(),
    };
    let done = ws.update(&later, &entry_id, &contradicted).unwrap();
    assert_eq!(done.exit_code(), 0, "{}", done.json().unwrap());
    assert!(done.applied());
    let text = fs::read_to_string(&long_term).unwrap();
    assert!(
        text.contains("Review: contradicted 2026-11-30: it is 16 now"),
        "{}",
        text
    );
    let keep = UpdateEvent::ResolveKeep {
        confidence: Some(70),
    };
    let resolved = ws.update(&later, &entry_id, &keep).unwrap();
    assert_eq!(resolved.exit_code(), 0, "{}", resolved.json().unwrap());
    let text = fs::read_to_string(&long_term).unwrap();
    assert!(text.contains("Confidence: 0.70"), "{}", text);
    assert!(!text.contains("Review:"), "{}", text);
    let verified = ws.update(&later, &entry_id, &UpdateEvent::Verify).unwrap();
    assert_eq!(verified.exit_code(), 0, "{}", verified.json().unwrap());

    // Refused before anything runs: a NUL, or a confidence beyond 1.00 (even beyond i32).
    for confidence in [101, i32::MAX as u32 + 1, u32::MAX] {
        let keep = UpdateEvent::ResolveKeep {
            confidence: Some(confidence),
        };
        expect_error(ws.update(&later, &entry_id, &keep), -1, "MK_E_ARG");
    }
    let nul_note = UpdateEvent::Contradict {
        note: "a\0b".to_string(),
    };
    expect_error(ws.update(&later, &entry_id, &nul_note), -1, "MK_E_ARG");
    expect_error(
        ws.update(&later, "memory/\0LONG_TERM.md", &UpdateEvent::Verify),
        -1,
        "MK_E_ARG",
    );
    assert_eq!(fs::read_to_string(&long_term).unwrap(), text);
    let unknown = ws
        .update(
            &later,
            "memory/LONG_TERM.md#000000000000",
            &UpdateEvent::Verify,
        )
        .unwrap();
    assert_eq!(unknown.exit_code(), 2, "{}", unknown.json().unwrap());

    let (_custodian_tmp, mut custodian) = initialised_project();
    let refused = custodian
        .update(&later, &entry_id, &UpdateEvent::Verify)
        .unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(json.contains("\"code\":\"MK-ARG-001\""), "{}", json);
}

// The MemoryBox gate (memorybox gate)

const GATE_NOW: &str = "2026-11-30T10:00:00+01:00";

fn gate_now() -> Clock {
    Clock::parse(GATE_NOW).expect("the gate clock parses")
}

const LONG_TERM: &str =
    "# LONG_TERM\n\n## Tooling\n\n- Use ripgrep for search\n  Confidence: 0.90\n  \
                         Verified: 2026-10-01\n\n## People\n\n- Ana owns the release train\n  \
                         Confidence: 0.80\n  Verified: 2026-11-01\n";

/// A MemoryBox root whose memory/LONG_TERM.md has two H2 categories, Tooling and People.
fn gate_root() -> (TempDir, Workspace) {
    let tmp = TempDir::new("gate");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    let init = ws.init(&gate_now(), false).unwrap();
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    fs::write(tmp.path().join("memory/LONG_TERM.md"), LONG_TERM).unwrap();
    (tmp, ws)
}

fn staging_candidate() -> GateCandidate {
    GateCandidate::new("Deploys go through the staging cluster first", "0.85")
        .title("Staging first")
        .source("the release checklist")
}

/// The answers of a judge that lets the candidate through every gate into Tooling.
fn write_answer(gate: Gate) -> Option<String> {
    Some(
        match gate {
            Gate::Value => "yes",
            Gate::Alignment => "existing Tooling",
            Gate::Redundancy => "none",
            Gate::Freshness => "stable",
            Gate::Placement => "2 memory/LONG_TERM.md",
            Gate::Other(other) => panic!("an unknown gate {}", other),
        }
        .to_string(),
    )
}

fn str_member<'a>(data: &'a Json, key: &str) -> Option<&'a str> {
    data.get(key).and_then(Json::as_str)
}

#[test]
fn gate_names_and_values_match_the_header() {
    let gates = [
        (Gate::Value, sys::MK_GATE_VALUE, "VALUE"),
        (Gate::Alignment, sys::MK_GATE_ALIGNMENT, "ALIGNMENT"),
        (Gate::Redundancy, sys::MK_GATE_REDUNDANCY, "REDUNDANCY"),
        (Gate::Freshness, sys::MK_GATE_FRESHNESS, "FRESHNESS"),
        (Gate::Placement, sys::MK_GATE_PLACEMENT, "PLACEMENT"),
    ];
    for (gate, raw, name) in gates {
        assert_eq!(gate.as_raw(), raw);
        assert_eq!(Gate::from_raw(raw), gate);
        assert_eq!(gate.name(), name);
        assert_eq!(gate.to_string(), name);
    }
    assert_eq!(Gate::from_raw(9), Gate::Other(9));
    assert_eq!(Gate::Other(9).as_raw(), 9);
}

#[test]
fn gate_without_a_judge_stops_at_value_with_needs_judgement() {
    let (tmp, mut ws) = gate_root();
    for apply in [false, true] {
        let result = ws
            .gate(&gate_now(), &staging_candidate(), None, apply)
            .unwrap();
        let json = result.json().unwrap();
        assert_eq!(result.exit_code(), 0, "{}", json);
        assert!(
            json.starts_with("{\"command\":\"memorybox gate\""),
            "{}",
            json
        );
        let data = data_of(&result);
        assert_eq!(
            str_member(&data, "outcome"),
            Some("NEEDS_JUDGEMENT"),
            "{}",
            json
        );
        assert_eq!(str_member(&data, "stopped_at"), Some("VALUE"), "{}", json);
        assert!(!result.applied());
        assert_eq!(result.plan_id(), None);
        assert_eq!(finding_codes(&result), ["MK-BOX-003"], "{}", json);
    }
    assert_eq!(
        fs::read_to_string(tmp.path().join("memory/LONG_TERM.md")).unwrap(),
        LONG_TERM,
        "nothing was written"
    );
}

#[test]
fn gate_with_a_judge_answering_all_five_writes_under_the_category_only_with_apply() {
    let (tmp, mut ws) = gate_root();
    let long_term = tmp.path().join("memory/LONG_TERM.md");
    let mut asked = Vec::new();
    let mut judge = |gate: Gate, _question: &str| {
        asked.push(gate);
        write_answer(gate)
    };

    let dry = ws
        .gate(&gate_now(), &staging_candidate(), Some(&mut judge), false)
        .unwrap();
    let json = dry.json().unwrap();
    assert_eq!(dry.exit_code(), 0, "{}", json);
    let data = data_of(&dry);
    assert_eq!(str_member(&data, "outcome"), Some("WRITE"), "{}", json);
    assert!(data.get("stopped_at").unwrap().is_null(), "{}", json);
    assert_eq!(str_member(&data, "category"), Some("Tooling"), "{}", json);
    assert_eq!(
        str_member(&data, "file"),
        Some("memory/LONG_TERM.md"),
        "{}",
        json
    );
    assert_eq!(data.get("tier").and_then(Json::as_u64), Some(2), "{}", json);
    let entry_text = str_member(&data, "entry_text").unwrap().to_string();
    assert!(
        entry_text.starts_with(
            "- Deploys go through the staging cluster first\n  Confidence: 0.85\n  \
             Verified: 2026-11-30\n"
        ),
        "{}",
        entry_text
    );
    assert!(entry_text.contains("  Stable: yes\n"), "{}", entry_text);
    let entry_id = str_member(&data, "entry_id").unwrap().to_string();
    assert!(entry_id.starts_with("memory/LONG_TERM.md#"), "{}", entry_id);
    for gate in data.get("gates").and_then(Json::as_array).unwrap() {
        assert_eq!(str_member(gate, "result"), Some("pass"), "{}", json);
    }
    assert!(!dry.applied(), "a dry run");
    assert_eq!(data.get("written"), Some(&Json::Array(vec![])));
    assert_eq!(
        fs::read_to_string(&long_term).unwrap(),
        LONG_TERM,
        "a dry run writes nothing"
    );

    let applied = ws
        .gate(&gate_now(), &staging_candidate(), Some(&mut judge), true)
        .unwrap();
    let json = applied.json().unwrap();
    assert_eq!(applied.exit_code(), 0, "{}", json);
    assert!(applied.applied(), "{}", json);
    assert_eq!(applied.plan_id(), None, "an additive write has no plan");
    let data = data_of(&applied);
    assert_eq!(str_member(&data, "outcome"), Some("WRITE"), "{}", json);
    assert_eq!(str_member(&data, "entry_id"), Some(entry_id.as_str()));
    assert_eq!(
        data.get("written"),
        Some(&Json::Array(vec![Json::String(
            "memory/LONG_TERM.md".into()
        )]))
    );
    let order = [
        Gate::Value,
        Gate::Alignment,
        Gate::Redundancy,
        Gate::Freshness,
        Gate::Placement,
    ];
    assert_eq!(
        asked,
        [order, order].concat(),
        "each run asks the five gates in order"
    );

    // The entry sits under its H2 category: after Tooling's entry, before ## People.
    let text = fs::read_to_string(&long_term).unwrap();
    let entry = text.find(&entry_text).unwrap_or_else(|| panic!("{}", text));
    let tooling = text.find("## Tooling\n").unwrap();
    let ripgrep = text.find("- Use ripgrep for search").unwrap();
    let people = text.find("## People\n").unwrap();
    assert!(
        tooling < ripgrep && ripgrep < entry && entry < people,
        "{}",
        text
    );
    assert!(text.contains("- Ana owns the release train"), "{}", text);

    // decay now sees the written entry under the ID the gate reported.
    let decay = ws.decay(&gate_now(), Some("memory/LONG_TERM.md")).unwrap();
    assert!(
        decay.json().unwrap().contains(&entry_id),
        "{}",
        decay.json().unwrap()
    );
}

#[test]
fn the_judge_sees_each_gate_s_question_as_json() {
    let (_tmp, mut ws) = gate_root();
    let mut questions: Vec<(Gate, Json)> = Vec::new();
    let mut judge = |gate: Gate, question: &str| {
        let parsed = parse_json(question).unwrap_or_else(|e| panic!("{}: {}", e, question));
        questions.push((gate, parsed));
        write_answer(gate)
    };
    let result = ws
        .gate(&gate_now(), &staging_candidate(), Some(&mut judge), false)
        .unwrap();
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert_eq!(questions.len(), 5);
    for (gate, question) in &questions {
        assert_eq!(
            str_member(question, "gate"),
            Some(gate.name()),
            "{:?}",
            question
        );
        let candidate = question.get("candidate").expect("the candidate");
        assert_eq!(
            str_member(candidate, "text"),
            Some("Deploys go through the staging cluster first")
        );
        // The confidence in hundredths, as decay reports it.
        assert_eq!(candidate.get("confidence").and_then(Json::as_u64), Some(85));
        assert_eq!(str_member(candidate, "title"), Some("Staging first"));
        assert_eq!(
            str_member(candidate, "source"),
            Some("the release checklist")
        );
        assert!(
            candidate.get("client").unwrap().is_null(),
            "{:?}",
            candidate
        );
        assert!(question
            .get("near_duplicates")
            .and_then(Json::as_array)
            .is_some());
    }
    let (gate, value) = &questions[0];
    assert_eq!(*gate, Gate::Value);
    assert_eq!(
        value.get("categories"),
        Some(&Json::Array(vec![])),
        "{:?}",
        value
    );
    let (gate, alignment) = &questions[1];
    assert_eq!(*gate, Gate::Alignment);
    let categories: Vec<&str> = alignment
        .get("categories")
        .and_then(Json::as_array)
        .expect("the categories at ALIGNMENT")
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    // LONG_TERM.md's H2 categories are among them (beside the section files' own).
    assert!(
        categories.contains(&"Tooling") && categories.contains(&"People"),
        "{:?}",
        alignment
    );
    assert!(
        alignment.get("category").unwrap().is_null(),
        "{:?}",
        alignment
    );
    // Once ALIGNMENT chose Tooling, REDUNDANCY sees that category and its entries.
    let (gate, redundancy) = &questions[2];
    assert_eq!(*gate, Gate::Redundancy);
    assert_eq!(
        str_member(redundancy, "category"),
        Some("Tooling"),
        "{:?}",
        redundancy
    );
    let entries = redundancy
        .get("category_entries")
        .and_then(Json::as_array)
        .unwrap();
    assert_eq!(entries.len(), 1, "{:?}", redundancy);
    assert!(entries[0]
        .as_str()
        .unwrap()
        .starts_with("memory/LONG_TERM.md#"));
}

#[test]
fn a_judge_that_abstains_at_freshness_stops_there_and_writes_nothing() {
    let (tmp, mut ws) = gate_root();
    let mut asked = Vec::new();
    let mut judge = |gate: Gate, _question: &str| {
        asked.push(gate);
        match gate {
            Gate::Freshness => None,
            other => write_answer(other),
        }
    };
    let result = ws
        .gate(&gate_now(), &staging_candidate(), Some(&mut judge), true)
        .unwrap();
    let json = result.json().unwrap();
    assert_eq!(result.exit_code(), 0, "{}", json);
    let data = data_of(&result);
    assert_eq!(
        str_member(&data, "outcome"),
        Some("NEEDS_JUDGEMENT"),
        "{}",
        json
    );
    assert_eq!(
        str_member(&data, "stopped_at"),
        Some("FRESHNESS"),
        "{}",
        json
    );
    let results: Vec<&str> = data
        .get("gates")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|g| str_member(g, "result").unwrap())
        .collect();
    assert_eq!(
        results,
        ["pass", "pass", "pass", "needs_judgement", "skipped"],
        "{}",
        json
    );
    assert_eq!(
        asked,
        [
            Gate::Value,
            Gate::Alignment,
            Gate::Redundancy,
            Gate::Freshness
        ],
        "PLACEMENT is never asked"
    );
    assert!(!result.applied());
    assert_eq!(
        fs::read_to_string(tmp.path().join("memory/LONG_TERM.md")).unwrap(),
        LONG_TERM
    );
}

#[test]
fn a_panicking_judge_is_caught_and_fails_the_gate_with_mk_box_005() {
    let (tmp, mut ws) = gate_root();
    let mut judge = |gate: Gate, _question: &str| -> Option<String> {
        if gate == Gate::Alignment {
            panic!("the judge broke");
        }
        write_answer(gate)
    };
    let result = ws
        .gate(&gate_now(), &staging_candidate(), Some(&mut judge), true)
        .unwrap();
    let json = result.json().unwrap();
    assert_eq!(result.exit_code(), 2, "{}", json);
    assert!(
        finding_codes(&result).contains(&"MK-BOX-005".to_string()),
        "{}",
        json
    );
    assert!(json.contains("\"fatal\":true"), "{}", json);
    assert!(!result.applied());
    assert_eq!(
        fs::read_to_string(tmp.path().join("memory/LONG_TERM.md")).unwrap(),
        LONG_TERM
    );
    // The workspace is still usable after the caught panic.
    let again = ws
        .gate(&gate_now(), &staging_candidate(), None, false)
        .unwrap();
    assert_eq!(again.exit_code(), 0, "{}", again.json().unwrap());
}

#[test]
fn an_answer_that_does_not_parse_fails_the_gate_with_mk_box_005() {
    let (tmp, mut ws) = gate_root();
    let mut judge = |_gate: Gate, _question: &str| Some("maybe".to_string());
    let result = ws
        .gate(&gate_now(), &staging_candidate(), Some(&mut judge), true)
        .unwrap();
    let json = result.json().unwrap();
    assert_eq!(result.exit_code(), 2, "{}", json);
    assert!(
        finding_codes(&result).contains(&"MK-BOX-005".to_string()),
        "{}",
        json
    );
    assert!(!result.applied());
    assert_eq!(
        fs::read_to_string(tmp.path().join("memory/LONG_TERM.md")).unwrap(),
        LONG_TERM
    );
}

#[test]
fn gate_refuses_a_nul_and_a_custodian_workspace() {
    let (_tmp, mut ws) = gate_root();
    for candidate in [
        GateCandidate::new("text", "0.8\0"),
        GateCandidate::new("text", "0.8").title("a\0b"),
        GateCandidate::new("text", "0.8").source("a\0b"),
        GateCandidate::new("text", "0.8").client("a\0b"),
    ] {
        expect_error(
            ws.gate(&gate_now(), &candidate, None, false),
            -1,
            "MK_E_ARG",
        );
    }
    // The text crosses as (data, size): a NUL in it is the command's to refuse.
    let nul_text = ws
        .gate(&gate_now(), &GateCandidate::new("a\0b", "0.8"), None, false)
        .unwrap();
    assert_eq!(nul_text.exit_code(), 2, "{}", nul_text.json().unwrap());
    let bad_confidence = ws
        .gate(
            &gate_now(),
            &GateCandidate::new("text", "high"),
            None,
            false,
        )
        .unwrap();
    assert_eq!(
        bad_confidence.exit_code(),
        2,
        "{}",
        bad_confidence.json().unwrap()
    );

    let (custodian_tmp, mut custodian) = initialised_project();
    let refused = custodian
        .gate(&gate_now(), &staging_candidate(), None, true)
        .unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", json);
    assert!(
        finding_codes(&refused).contains(&"MK-ARG-001".to_string()),
        "{}",
        json
    );
    assert!(!custodian_tmp.path().join("memory").exists());
}

// The MemoryBox moves (memorybox compact, promote, update --resolve archive)

const PATTERNS: &str =
    "# PATTERNS\n\n## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n\
                        Last-Used: 2026-11-28\n\n## Log everything\nLast-Used: 2026-08-01\n";

/// A MemoryBox root whose memory/ACTIVE_TASKS.md holds 50 items: 45 open tasks, three completed
/// in October, one completed in early November (all more than 7 days before the clock) and one
/// completed two days before it.
fn moves_root() -> (TempDir, Workspace) {
    let tmp = TempDir::new("moves");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    ws.init(&gate_now(), false).unwrap();
    let mut tasks = String::from("# ACTIVE_TASKS\n\n## Now\n");
    for i in 1..=45 {
        tasks.push_str(&format!("- [ ] open task {}\n", i));
    }
    for day in 1..=3 {
        tasks.push_str(&format!(
            "- [x] shipped feature {} Done: 2026-10-0{}\n",
            day, day
        ));
    }
    tasks.push_str("- [x] recent fix Done: 2026-11-28\n");
    tasks.push_str("- [x] another old one Done: 2026-11-02\n");
    fs::write(tmp.path().join("memory/ACTIVE_TASKS.md"), tasks).unwrap();
    fs::write(tmp.path().join("memory/PATTERNS.md"), PATTERNS).unwrap();
    (tmp, ws)
}

#[test]
fn memorybox_compact_moves_old_completed_tasks_to_the_archive_under_its_plan_id() {
    let (tmp, mut ws) = moves_root();
    let active = tmp.path().join("memory/ACTIVE_TASKS.md");
    let before = fs::read_to_string(&active).unwrap();

    let plan = ws.plan_memorybox_compact(&gate_now(), None, false).unwrap();
    let json = plan.json().unwrap();
    assert_eq!(plan.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox compact\""),
        "{}",
        json
    );
    let id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(id.len(), 16);
    assert!(!plan.applied());
    assert_eq!(plan.plan_operation_count(), 3, "{}", json);
    let data = data_of(&plan);
    let tasks_rule = data
        .get("rules")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .find(|r| str_member(r, "rule") == Some("active_tasks"))
        .expect("the active_tasks rule")
        .clone();
    assert_eq!(
        tasks_rule.get("breached").and_then(Json::as_bool),
        Some(true)
    );
    assert_eq!(tasks_rule.get("value").and_then(Json::as_u64), Some(50));
    assert_eq!(tasks_rule.get("threshold").and_then(Json::as_u64), Some(50));
    let moves: Vec<(&str, &str)> = data
        .get("actions")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|a| {
            (
                str_member(a, "kind").unwrap(),
                str_member(a, "detail").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        [
            ("move", "memory/ARCHIVES/tasks-2026-10.md"),
            ("move", "memory/ARCHIVES/tasks-2026-10.md"),
            ("move", "memory/ARCHIVES/tasks-2026-10.md"),
            ("move", "memory/ARCHIVES/tasks-2026-11.md"),
        ],
        "{}",
        json
    );
    assert_eq!(
        fs::read_to_string(&active).unwrap(),
        before,
        "a dry run writes nothing"
    );
    assert!(!tmp.path().join("memory/ARCHIVES/tasks-2026-10.md").exists());

    // One rule alone plans the same moves; another rule alone has nothing to do.
    let only_tasks = ws
        .plan_memorybox_compact(&gate_now(), Some("memory/ACTIVE_TASKS.md"), false)
        .unwrap();
    assert_eq!(
        only_tasks.plan_operation_count(),
        3,
        "{}",
        only_tasks.json().unwrap()
    );
    let only_daily = ws
        .plan_memorybox_compact(&gate_now(), Some("memory/daily/"), false)
        .unwrap();
    assert_eq!(only_daily.plan_id(), None, "{}", only_daily.json().unwrap());
    let bad_file = ws
        .plan_memorybox_compact(&gate_now(), Some("brain/SOUL.md"), false)
        .unwrap();
    assert_eq!(bad_file.exit_code(), 2, "{}", bad_file.json().unwrap());
    expect_error(
        ws.plan_memorybox_compact(&gate_now(), Some("memory/\0x.md"), false),
        -1,
        "MK_E_ARG",
    );

    let stale = ws
        .apply_memorybox_compact(&gate_now(), None, false, "0000000000000000")
        .unwrap();
    assert_eq!(stale.exit_code(), 2, "{}", stale.json().unwrap());
    assert!(finding_codes(&stale).contains(&"MK-PLAN-001".to_string()));
    assert!(!stale.applied());
    assert_eq!(fs::read_to_string(&active).unwrap(), before);

    let done = ws
        .apply_memorybox_compact(&gate_now(), None, false, &id)
        .unwrap();
    let json = done.json().unwrap();
    assert_eq!(done.exit_code(), 0, "{}", json);
    assert!(done.applied(), "{}", json);
    assert_eq!(done.plan_id(), Some(id.as_str()));
    let after = fs::read_to_string(&active).unwrap();
    assert!(!after.contains("shipped feature"), "{}", after);
    assert!(!after.contains("another old one"), "{}", after);
    assert!(
        after.contains("- [x] recent fix Done: 2026-11-28\n"),
        "{}",
        after
    );
    assert!(after.contains("- [ ] open task 45\n"), "{}", after);
    let october = fs::read_to_string(tmp.path().join("memory/ARCHIVES/tasks-2026-10.md")).unwrap();
    for day in 1..=3 {
        let line = format!("- [x] shipped feature {} Done: 2026-10-0{}\n", day, day);
        assert!(october.contains(&line), "{}", october);
    }
    let november = fs::read_to_string(tmp.path().join("memory/ARCHIVES/tasks-2026-11.md")).unwrap();
    assert!(
        november.contains("- [x] another old one Done: 2026-11-02\n"),
        "{}",
        november
    );

    // Nothing is left to move, and the used Plan ID no longer matches.
    let again = ws.plan_memorybox_compact(&gate_now(), None, false).unwrap();
    assert_eq!(again.plan_id(), None, "{}", again.json().unwrap());
    let replay = ws
        .apply_memorybox_compact(&gate_now(), None, false, &id)
        .unwrap();
    assert!(!replay.applied(), "{}", replay.json().unwrap());
}

/// The entry IDs of memory/PATTERNS.md, from decay's JSON: (scored, unscored).
fn pattern_ids(ws: &mut Workspace) -> (Vec<String>, Vec<String>) {
    let decay = ws.decay(&gate_now(), Some("memory/PATTERNS.md")).unwrap();
    let data = data_of(&decay);
    let scored = data
        .get("entries")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|e| str_member(e, "entry_id").unwrap().to_string())
        .collect();
    let unscored = data
        .get("unscored")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect();
    (scored, unscored)
}

#[test]
fn promote_moves_a_pattern_to_the_sop_library_under_its_plan_id() {
    let (tmp, mut ws) = moves_root();
    let (scored, _) = pattern_ids(&mut ws);
    assert_eq!(scored.len(), 1, "{:?}", scored);
    let retry = &scored[0];
    assert!(retry.starts_with("memory/PATTERNS.md#"), "{}", retry);
    let sop = tmp.path().join("memory/SOP_LIBRARY.md");
    let sop_before = fs::read_to_string(&sop).unwrap();

    let plan = ws.plan_promote(&gate_now(), retry).unwrap();
    let json = plan.json().unwrap();
    assert_eq!(plan.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox promote\""),
        "{}",
        json
    );
    let id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(plan.plan_operation_count(), 2, "{}", json);
    assert!(!plan.applied());
    assert_eq!(
        fs::read_to_string(&sop).unwrap(),
        sop_before,
        "a dry run writes nothing"
    );

    let stale = ws
        .apply_promote(&gate_now(), retry, "0000000000000000")
        .unwrap();
    assert_eq!(stale.exit_code(), 2, "{}", stale.json().unwrap());
    assert!(!stale.applied());

    let done = ws.apply_promote(&gate_now(), retry, &id).unwrap();
    let json = done.json().unwrap();
    assert_eq!(done.exit_code(), 0, "{}", json);
    assert!(done.applied(), "{}", json);
    assert_eq!(done.plan_id(), Some(id.as_str()));
    let patterns = fs::read_to_string(tmp.path().join("memory/PATTERNS.md")).unwrap();
    assert!(!patterns.contains("## Retry with backoff"), "{}", patterns);
    assert!(patterns.contains("## Log everything"), "{}", patterns);
    let sop_after = fs::read_to_string(&sop).unwrap();
    assert!(
        sop_after.starts_with(&sop_before),
        "appended at the end: {}",
        sop_after
    );
    assert!(
        sop_after.contains("## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n"),
        "moved verbatim: {}",
        sop_after
    );

    // Only a pattern is promoted; a NUL is refused before the call.
    let not_pattern = ws
        .plan_promote(&gate_now(), "memory/LONG_TERM.md#000000000000")
        .unwrap();
    assert_eq!(
        not_pattern.exit_code(),
        2,
        "{}",
        not_pattern.json().unwrap()
    );
    assert!(finding_codes(&not_pattern).contains(&"MK-ARG-001".to_string()));
    expect_error(
        ws.plan_promote(&gate_now(), "memory/\0P.md"),
        -1,
        "MK_E_ARG",
    );
    expect_error(
        ws.apply_promote(&gate_now(), retry, "00000000\u{0}00000000"),
        -1,
        "MK_E_ARG",
    );
}

#[test]
fn archive_entry_moves_an_entry_to_the_month_s_archive_under_its_plan_id() {
    let (tmp, mut ws) = moves_root();
    let (_, unscored) = pattern_ids(&mut ws);
    assert_eq!(unscored.len(), 1, "{:?}", unscored);
    let log_everything = &unscored[0];
    let archive = tmp.path().join("memory/ARCHIVES/patterns-2026-11.md");

    let plan = ws.plan_archive_entry(&gate_now(), log_everything).unwrap();
    let json = plan.json().unwrap();
    assert_eq!(plan.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox update\""),
        "{}",
        json
    );
    let data = data_of(&plan);
    assert_eq!(str_member(&data, "entry_id"), Some(log_everything.as_str()));
    let id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(plan.plan_operation_count(), 2, "{}", json);
    assert!(!plan.applied());
    assert!(!archive.exists(), "a dry run writes nothing");

    let stale = ws
        .apply_archive_entry(&gate_now(), log_everything, "0000000000000000")
        .unwrap();
    assert_eq!(stale.exit_code(), 2, "{}", stale.json().unwrap());
    assert!(!stale.applied());
    assert!(!archive.exists());

    let done = ws
        .apply_archive_entry(&gate_now(), log_everything, &id)
        .unwrap();
    let json = done.json().unwrap();
    assert_eq!(done.exit_code(), 0, "{}", json);
    assert!(done.applied(), "{}", json);
    assert_eq!(done.plan_id(), Some(id.as_str()));
    let patterns = fs::read_to_string(tmp.path().join("memory/PATTERNS.md")).unwrap();
    assert!(!patterns.contains("## Log everything"), "{}", patterns);
    assert!(patterns.contains("## Retry with backoff"), "{}", patterns);
    let archived = fs::read_to_string(&archive).unwrap();
    assert!(
        archived.contains("## Log everything\nLast-Used: 2026-08-01\n"),
        "moved verbatim: {}",
        archived
    );

    // The entry is gone: archiving it again finds nothing.
    let gone = ws.plan_archive_entry(&gate_now(), log_everything).unwrap();
    assert_eq!(gone.exit_code(), 2, "{}", gone.json().unwrap());
    expect_error(ws.plan_archive_entry(&gate_now(), "a\0b"), -1, "MK_E_ARG");
}

#[test]
fn the_memorybox_moves_refuse_a_custodian_workspace() {
    let (tmp, mut ws) = initialised_project();
    let entry = "memory/PATTERNS.md#000000000000";
    let results = [
        ws.plan_memorybox_compact(&gate_now(), None, true).unwrap(),
        ws.apply_memorybox_compact(&gate_now(), None, false, "0000000000000000")
            .unwrap(),
        ws.plan_promote(&gate_now(), entry).unwrap(),
        ws.apply_promote(&gate_now(), entry, "0000000000000000")
            .unwrap(),
        ws.plan_archive_entry(&gate_now(), entry).unwrap(),
        ws.apply_archive_entry(&gate_now(), entry, "0000000000000000")
            .unwrap(),
    ];
    for result in &results {
        let json = result.json().unwrap();
        assert_eq!(result.exit_code(), 2, "{}", json);
        assert!(
            finding_codes(result).contains(&"MK-ARG-001".to_string()),
            "{}",
            json
        );
        assert!(!result.applied());
    }
    assert!(!tmp.path().join("memory").exists());
}

// The Maven profile (memorybox init --profile, canon add|verify, client set)

const CANON: &str = "brain/MARKETING_CANON.md";
const LEDGER: &str = ".memkit/canon-ledger.jsonl";

/// A MemoryBox root initialised with the Maven profile, at the gate clock.
fn maven_root() -> (TempDir, Workspace) {
    let tmp = TempDir::new("maven");
    let mut ws = Workspace::open_with(tmp.path(), &memorybox_options()).unwrap();
    let init = ws
        .init_with(&gate_now(), &InitOptions::new().profile(Profile::Maven))
        .unwrap();
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    (tmp, ws)
}

/// The bytes of a file under the root, or None when it does not exist.
fn read_opt(root: &Path, relative: &str) -> Option<Vec<u8>> {
    match fs::read(root.join(relative)) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => panic!("{}: {}", relative, e),
    }
}

/// The strings of an array member of `data` (e.g. `written`).
fn str_array(data: &Json, key: &str) -> Vec<String> {
    data.get(key)
        .and_then(Json::as_array)
        .unwrap_or_else(|| panic!("no array {:?} in {:?}", key, data))
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn profile_and_lifecycle_values_match_the_header() {
    assert_eq!(Profile::Default.as_raw(), sys::MK_INIT_PROFILE_DEFAULT);
    assert_eq!(Profile::Maven.as_raw(), sys::MK_INIT_PROFILE_MAVEN);
    assert_eq!(Profile::Maven.to_string(), "maven");
    assert_eq!(Profile::Default.name(), "default");
    let states = [
        (Lifecycle::Active, sys::MK_LIFECYCLE_ACTIVE, "active"),
        (
            Lifecycle::Maintenance,
            sys::MK_LIFECYCLE_MAINTENANCE,
            "maintenance",
        ),
        (Lifecycle::Archived, sys::MK_LIFECYCLE_ARCHIVED, "archived"),
    ];
    for (state, raw, name) in states {
        assert_eq!(state.as_raw(), raw);
        assert_eq!(Lifecycle::from_raw(raw), Some(state));
        assert_eq!(state.name(), name);
        assert_eq!(state.to_string(), name);
    }
    assert_eq!(Lifecycle::from_raw(3), None);
}

#[test]
fn init_with_the_maven_profile_records_it_and_creates_the_canon() {
    let (tmp, mut ws) = maven_root();
    assert_eq!(
        read_opt(tmp.path(), ".memkit/profile").as_deref(),
        Some(&b"maven\n"[..])
    );
    for brain in [
        CANON,
        "brain/ATTRIBUTION_MODEL.md",
        "brain/BENCHMARK.md",
        "brain/OKRs.md",
        "brain/RISK_REGISTER.md",
    ] {
        assert!(
            tmp.path().join(brain).is_file(),
            "{} was not created",
            brain
        );
    }
    // init never overwrites: again, it creates nothing.
    let again = ws
        .init_with(&gate_now(), &InitOptions::new().profile(Profile::Maven))
        .unwrap();
    assert_eq!(again.exit_code(), 0, "{}", again.json().unwrap());
    assert!(str_array(&data_of(&again), "created").is_empty());

    // The default profile creates no Maven file.
    let plain = TempDir::new("default-profile");
    let mut ws = Workspace::open_with(plain.path(), &memorybox_options()).unwrap();
    let init = ws
        .init_with(&gate_now(), &InitOptions::new().profile(Profile::Default))
        .unwrap();
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    assert_eq!(
        read_opt(plain.path(), ".memkit/profile").as_deref(),
        Some(&b"default\n"[..])
    );
    assert!(!plain.path().join(CANON).exists());

    // Both profiles at once is MK_E_ARG (unrepresentable in InitOptions, so through sys).
    let mut out = std::ptr::null_mut();
    let flags = sys::MK_INIT_PROFILE_DEFAULT | sys::MK_INIT_PROFILE_MAVEN;
    let clock = gate_now();
    // SAFETY: valid pointers; no result is made on failure.
    let status = unsafe { sys::mk_workspace_init(&mut out, ws.as_raw(), clock.as_raw(), flags) };
    assert_eq!(status, sys::MK_E_ARG);
    assert!(out.is_null());

    // A profile is a MemoryBox option: a custodian init refuses it.
    let custodian = TempDir::new("custodian-profile");
    let mut ws = Workspace::open(custodian.path()).unwrap();
    let refused = ws
        .init_with(&gate_now(), &InitOptions::new().profile(Profile::Maven))
        .unwrap();
    assert_eq!(refused.exit_code(), 2, "{}", refused.json().unwrap());
    assert!(finding_codes(&refused).contains(&"MK-ARG-001".to_string()));
    assert!(!custodian.path().join("docs/memory").exists());
}

#[test]
fn canon_add_appends_to_the_marketing_canon_and_verify_is_clean() {
    let (tmp, mut ws) = maven_root();
    let done = ws
        .canon_add(&gate_now(), CANON, "Never promise ROI figures")
        .unwrap();
    let json = done.json().unwrap();
    assert_eq!(done.exit_code(), 0, "{}", json);
    // "memorybox canon" or "memorybox canon add", as the CLI names it.
    assert!(
        json.starts_with("{\"command\":\"memorybox canon"),
        "{}",
        json
    );
    assert_eq!(done.plan_id(), None, "an append needs no plan");
    let data = data_of(&done);
    assert_eq!(str_array(&data, "written"), vec![CANON, LEDGER]);
    let ledger = data.get("ledger").and_then(Json::as_array).unwrap();
    assert_eq!(ledger.len(), 1, "{}", json);
    assert_eq!(str_member(&ledger[0], "path"), Some(CANON));
    let canon = fs::read_to_string(tmp.path().join(CANON)).unwrap();
    assert_eq!(canon, "# MARKETING_CANON\n\n- Never promise ROI figures\n");
    assert!(tmp.path().join(LEDGER).is_file());

    // A second entry appends after the first.
    let second = ws
        .canon_add(&gate_now(), CANON, "Name the client only with consent")
        .unwrap();
    assert_eq!(second.exit_code(), 0, "{}", second.json().unwrap());
    let canon = fs::read_to_string(tmp.path().join(CANON)).unwrap();
    assert!(
        canon.ends_with("- Never promise ROI figures\n- Name the client only with consent\n"),
        "{}",
        canon
    );

    let verify = ws.canon_verify(&gate_now()).unwrap();
    let json = verify.json().unwrap();
    assert_eq!(verify.exit_code(), 0, "{}", json);
    let data = data_of(&verify);
    assert!(str_array(&data, "violations").is_empty(), "{}", json);
    assert!(
        str_array(&data, "written").is_empty(),
        "verify writes nothing"
    );
    assert!(finding_codes(&verify).is_empty(), "{}", json);
}

#[test]
fn a_canon_edited_by_hand_fails_verify_with_mk_box_030_and_refuses_an_add() {
    let (tmp, mut ws) = maven_root();
    let added = ws
        .canon_add(&gate_now(), CANON, "Never promise ROI figures")
        .unwrap();
    assert_eq!(added.exit_code(), 0, "{}", added.json().unwrap());
    let edited = "# MARKETING_CANON\n\n- Always promise ROI figures\n";
    fs::write(tmp.path().join(CANON), edited).unwrap();
    let ledger_before = read_opt(tmp.path(), LEDGER).unwrap();

    let verify = ws.canon_verify(&gate_now()).unwrap();
    let json = verify.json().unwrap();
    assert_eq!(verify.exit_code(), 1, "{}", json);
    assert!(
        finding_codes(&verify).contains(&"MK-BOX-030".to_string()),
        "{}",
        json
    );
    let data = data_of(&verify);
    let violations = data.get("violations").and_then(Json::as_array).unwrap();
    assert_eq!(violations.len(), 1, "{}", json);
    assert_eq!(str_member(&violations[0], "path"), Some(CANON));

    let refused = ws.canon_add(&gate_now(), CANON, "One more rule").unwrap();
    let json = refused.json().unwrap();
    assert_eq!(refused.exit_code(), 1, "{}", json);
    assert!(
        finding_codes(&refused).contains(&"MK-BOX-030".to_string()),
        "{}",
        json
    );
    assert!(!refused.applied());
    assert!(
        str_array(&data_of(&refused), "written").is_empty(),
        "{}",
        json
    );
    assert_eq!(
        fs::read_to_string(tmp.path().join(CANON)).unwrap(),
        edited,
        "nothing is written"
    );
    assert_eq!(read_opt(tmp.path(), LEDGER).unwrap(), ledger_before);
}

#[test]
fn a_write_once_canon_file_is_created_once() {
    let (tmp, mut ws) = maven_root();
    let file = "brain/canon/x.md";
    let done = ws
        .canon_add(&gate_now(), file, "Tone: plain words, no hype")
        .unwrap();
    let json = done.json().unwrap();
    assert_eq!(done.exit_code(), 0, "{}", json);
    assert_eq!(str_array(&data_of(&done), "written"), vec![file, LEDGER]);
    assert_eq!(
        fs::read_to_string(tmp.path().join(file)).unwrap(),
        "Tone: plain words, no hype\n"
    );
    let ledger_before = read_opt(tmp.path(), LEDGER).unwrap();

    let again = ws.canon_add(&gate_now(), file, "Tone: loud").unwrap();
    let json = again.json().unwrap();
    assert_eq!(again.exit_code(), 2, "{}", json);
    assert!(
        finding_codes(&again).contains(&"MK-ARG-001".to_string()),
        "{}",
        json
    );
    assert!(json.contains("write-once"), "{}", json);
    assert_eq!(
        fs::read_to_string(tmp.path().join(file)).unwrap(),
        "Tone: plain words, no hype\n",
        "nothing is written"
    );
    assert_eq!(read_opt(tmp.path(), LEDGER).unwrap(), ledger_before);

    let verify = ws.canon_verify(&gate_now()).unwrap();
    assert_eq!(verify.exit_code(), 0, "{}", verify.json().unwrap());

    // A NUL in the file is refused before the call; one in the text is the library's
    // MK-ARG-001, and nothing is written.
    expect_error(
        ws.canon_add(&gate_now(), "brain/canon/\0y.md", "text"),
        -1,
        "MK_E_ARG",
    );
    let nul = ws
        .canon_add(&gate_now(), "brain/canon/y.md", "a\0b")
        .unwrap();
    assert_eq!(nul.exit_code(), 2, "{}", nul.json().unwrap());
    assert!(finding_codes(&nul).contains(&"MK-ARG-001".to_string()));
    assert!(!tmp.path().join("brain/canon/y.md").exists());
}

const ACME: &str = "# acme\n\nLifecycle: active\n\nBrand voice: calm, precise.\n";

#[test]
fn client_set_moves_a_client_through_maintenance_to_the_archive_and_back() {
    let (tmp, mut ws) = maven_root();
    let profile = tmp.path().join("brain/clients/acme.md");
    let archived = tmp.path().join("memory/ARCHIVES/clients/acme/acme.md");
    fs::create_dir_all(profile.parent().unwrap()).unwrap();
    fs::write(&profile, ACME).unwrap();

    // active -> archived must pass through maintenance.
    let skipped = ws
        .client_set(&gate_now(), "acme", Lifecycle::Archived)
        .unwrap();
    let json = skipped.json().unwrap();
    assert_eq!(skipped.exit_code(), 1, "{}", json);
    assert!(
        finding_codes(&skipped).contains(&"MK-BOX-031".to_string()),
        "{}",
        json
    );
    assert!(!skipped.applied());
    assert_eq!(fs::read_to_string(&profile).unwrap(), ACME);
    assert!(!archived.exists());

    // active -> maintenance: the field line, written directly.
    let maintenance = ws
        .client_set(&gate_now(), "acme", Lifecycle::Maintenance)
        .unwrap();
    let json = maintenance.json().unwrap();
    assert_eq!(maintenance.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox client set\""),
        "{}",
        json
    );
    assert!(maintenance.applied(), "{}", json);
    assert_eq!(maintenance.plan_id(), None);
    let data = data_of(&maintenance);
    assert_eq!(str_member(&data, "client"), Some("acme"));
    assert_eq!(str_member(&data, "from"), Some("active"));
    assert_eq!(str_member(&data, "to"), Some("maintenance"));
    assert_eq!(str_array(&data, "written"), vec!["brain/clients/acme.md"]);
    let text = fs::read_to_string(&profile).unwrap();
    assert!(
        text.lines().any(|line| line == "Lifecycle: maintenance"),
        "{}",
        text
    );
    assert!(!text.contains("Lifecycle: active"), "{}", text);
    let maintained = text;

    // A field update has no plan to apply.
    let no_plan = ws
        .apply_client_set(&gate_now(), "acme", Lifecycle::Active, "0000000000000000")
        .unwrap();
    assert_eq!(no_plan.exit_code(), 2, "{}", no_plan.json().unwrap());
    assert!(finding_codes(&no_plan).contains(&"MK-ARG-001".to_string()));
    assert_eq!(fs::read_to_string(&profile).unwrap(), maintained);

    // maintenance -> archived: a dry run, then the apply under its Plan ID.
    let plan = ws
        .client_set(&gate_now(), "acme", Lifecycle::Archived)
        .unwrap();
    let json = plan.json().unwrap();
    assert_eq!(plan.exit_code(), 0, "{}", json);
    assert!(!plan.applied());
    let id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(plan.plan_operation_count(), 2, "{}", json);
    assert_eq!(str_member(&data_of(&plan), "from"), Some("maintenance"));
    assert_eq!(fs::read_to_string(&profile).unwrap(), maintained);
    assert!(!archived.exists(), "a dry run writes nothing");

    let stale = ws
        .apply_client_set(&gate_now(), "acme", Lifecycle::Archived, "0000000000000000")
        .unwrap();
    assert_eq!(stale.exit_code(), 2, "{}", stale.json().unwrap());
    assert!(finding_codes(&stale).contains(&"MK-PLAN-001".to_string()));
    assert!(!stale.applied());
    assert!(profile.exists() && !archived.exists());

    let done = ws
        .apply_client_set(&gate_now(), "acme", Lifecycle::Archived, &id)
        .unwrap();
    let json = done.json().unwrap();
    assert_eq!(done.exit_code(), 0, "{}", json);
    assert!(done.applied(), "{}", json);
    assert_eq!(done.plan_id(), Some(id.as_str()));
    assert!(!profile.exists(), "moved out of brain/clients/");
    let moved = fs::read_to_string(&archived).unwrap();
    assert!(moved.contains("Brand voice: calm, precise.\n"), "{}", moved);

    // archived -> maintenance is not allowed; archived -> active moves it back.
    let sideways = ws
        .client_set(&gate_now(), "acme", Lifecycle::Maintenance)
        .unwrap();
    assert_eq!(sideways.exit_code(), 1, "{}", sideways.json().unwrap());
    assert!(finding_codes(&sideways).contains(&"MK-BOX-031".to_string()));
    let back = ws
        .client_set(&gate_now(), "acme", Lifecycle::Active)
        .unwrap();
    assert_eq!(back.exit_code(), 0, "{}", back.json().unwrap());
    let back_id = back.plan_id().expect("a plan back").to_string();
    assert!(archived.exists() && !profile.exists(), "a dry run");
    let restored = ws
        .apply_client_set(&gate_now(), "acme", Lifecycle::Active, &back_id)
        .unwrap();
    assert_eq!(restored.exit_code(), 0, "{}", restored.json().unwrap());
    assert!(restored.applied());
    assert!(profile.exists() && !archived.exists());
    let text = fs::read_to_string(&profile).unwrap();
    assert!(
        text.lines().any(|line| line == "Lifecycle: active"),
        "{}",
        text
    );
}

#[test]
fn client_set_refuses_an_unknown_client_a_bad_key_and_a_nul() {
    let (_tmp, mut ws) = maven_root();
    for client in ["nobody", ".hidden", "../escape"] {
        let refused = ws
            .client_set(&gate_now(), client, Lifecycle::Maintenance)
            .unwrap();
        let json = refused.json().unwrap();
        assert_eq!(refused.exit_code(), 2, "{}: {}", client, json);
        assert!(
            finding_codes(&refused).contains(&"MK-ARG-001".to_string()),
            "{}",
            json
        );
    }
    expect_error(
        ws.client_set(&gate_now(), "ac\0me", Lifecycle::Active),
        -1,
        "MK_E_ARG",
    );
    expect_error(
        ws.apply_client_set(&gate_now(), "acme", Lifecycle::Archived, "0\0"),
        -1,
        "MK_E_ARG",
    );
    // A lifecycle C does not define is MK_E_ARG (unrepresentable in Lifecycle, so through sys).
    let client = std::ffi::CString::new("acme").unwrap();
    let clock = gate_now();
    let mut out = std::ptr::null_mut();
    // SAFETY: valid pointers; no result is made on failure.
    let status = unsafe {
        sys::mk_workspace_client_set(&mut out, ws.as_raw(), clock.as_raw(), client.as_ptr(), 7)
    };
    assert_eq!(status, sys::MK_E_ARG);
    assert!(out.is_null());
}

#[test]
fn canon_and_client_set_need_a_maven_root() {
    let default_tmp = TempDir::new("default-root");
    let mut memorybox = Workspace::open_with(default_tmp.path(), &memorybox_options()).unwrap();
    memorybox.init(&gate_now(), false).unwrap();
    let (custodian_tmp, mut custodian) = initialised_project();
    for ws in [&mut memorybox, &mut custodian] {
        let results = [
            ws.canon_add(&gate_now(), CANON, "text").unwrap(),
            ws.canon_verify(&gate_now()).unwrap(),
            ws.client_set(&gate_now(), "acme", Lifecycle::Maintenance)
                .unwrap(),
            ws.apply_client_set(&gate_now(), "acme", Lifecycle::Archived, "0000000000000000")
                .unwrap(),
        ];
        for result in &results {
            let json = result.json().unwrap();
            assert_eq!(result.exit_code(), 2, "{}", json);
            assert!(
                finding_codes(result).contains(&"MK-ARG-001".to_string()),
                "{}",
                json
            );
            assert!(!result.applied());
        }
    }
    assert!(!default_tmp.path().join(CANON).exists());
    // (canon add takes the root's lock before it reads the profile, so .memkit/lock may exist.)
    assert!(!default_tmp.path().join(LEDGER).exists());
    assert!(!default_tmp.path().join(".memkit/profile").exists());
    assert!(!custodian_tmp.path().join("brain").exists());
}

// Commands and results

#[test]
fn a_command_stopped_by_its_findings_is_ok_with_exit_code_2() {
    let (_tmp, mut ws) = initialised_project();
    let stale = ws
        .apply_compaction(&now(), &CompactOptions::new(), "0000000000000000")
        .unwrap();
    assert!(!stale.applied());
    let bad_target = ws
        .plan_compaction(&now(), &CompactOptions::new().target("../x.md"))
        .unwrap();
    assert_eq!(bad_target.exit_code(), 2, "{}", bad_target.json().unwrap());
    assert_eq!(bad_target.plan_id(), None);
    assert_eq!(bad_target.plan_operation_count(), 0);
    assert_eq!(bad_target.inbox_counts().unwrap(), None);
    let empty_topic = ws.plan_forget(&now(), "", &ForgetOptions::new()).unwrap();
    assert_eq!(empty_topic.exit_code(), 2);
}

#[test]
fn a_plan_is_applied_only_under_its_id() {
    let (tmp, mut ws) = initialised_project();
    let added = ws
        .add(
            &now(),
            "remember the staging URL",
            &AddOptions::new("inbox"),
        )
        .unwrap();
    assert!(added.applied());
    assert_eq!(added.plan_id(), None, "add applies directly");
    let alone = ws.plan_compaction(&now(), &CompactOptions::new()).unwrap();
    assert_eq!(
        alone.plan_id(),
        None,
        "one candidate leaves nothing to compact"
    );
    assert_eq!(alone.inbox_counts().unwrap().map(|c| c.candidates), Some(1));
    ws.add(
        &now(),
        "remember the staging URL",
        &AddOptions::new("inbox"),
    )
    .unwrap();
    let plan = ws.plan_compaction(&now(), &CompactOptions::new()).unwrap();
    let id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(id.len(), 16);
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{}",
        id
    );
    assert!(plan.plan_operation_count() > 0);
    assert!(!plan.applied());
    let counts = plan
        .inbox_counts()
        .unwrap()
        .expect("an inbox compaction has counts");
    assert_eq!(
        (counts.inbox_items, counts.duplicates, counts.candidates),
        (2, 1, 1)
    );
    assert_eq!(
        counts.inbox_items,
        counts.empty_items + counts.duplicates + counts.tombstone_matches + counts.candidates
    );
    let before = fs::read(tmp.path().join("docs/memory/inbox.md")).unwrap();
    let done = ws
        .apply_compaction(&now(), &CompactOptions::new(), &id)
        .unwrap();
    assert_eq!(done.exit_code(), 0, "{}", done.json().unwrap());
    assert!(done.applied());
    assert_eq!(done.plan_id(), Some(id.as_str()));
    assert_ne!(
        fs::read(tmp.path().join("docs/memory/inbox.md")).unwrap(),
        before
    );
}

#[test]
fn status_rows_are_typed() {
    let (_tmp, mut ws) = initialised_project();
    let status = ws.status(&now()).unwrap();
    let rows = status.budget_rows().unwrap();
    assert_eq!(rows.len() as u64, status.budget_row_count());
    assert_eq!(rows[0].path, "manifest.md");
    let preferences = rows
        .iter()
        .find(|row| row.path == "preferences.md")
        .unwrap();
    assert_eq!(preferences.limit, 300);
    assert!(
        rows.iter().all(|row| row.state != BudgetState::Missing),
        "{:?}",
        rows
    );
    assert_eq!(status.inbox_counts().unwrap(), None);
    let error = expect_error(status.budget_row(status.budget_row_count()), -1, "MK_E_ARG");
    assert!(error.message().contains("index"), "{}", error);
    assert_eq!(BudgetState::from_raw(9), BudgetState::Other(9));
    assert_eq!(BudgetState::NearLimit.as_raw(), sys::MK_BUDGET_NEAR_LIMIT);

    let check = ws.check(&now()).unwrap();
    assert_eq!(check.budget_row_count(), 0);
    assert!(check.budget_rows().unwrap().is_empty());
}

#[test]
fn a_nul_inside_a_nul_terminated_argument_is_mk_e_arg() {
    let (_tmp, mut ws) = initialised_project();
    let error = expect_error(ws.plan_undo(&now(), "0123\0"), -1, "MK_E_ARG");
    assert!(error.message().contains("plan_id"), "{}", error);
    let options = CompactOptions::new().target("deci\0sions.md");
    expect_error(ws.plan_compaction(&now(), &options), -1, "MK_E_ARG");
    let options = AddOptions::new("decision").reason("because\0");
    let error = expect_error(ws.add(&now(), "x", &options), -1, "MK_E_ARG");
    assert!(error.message().contains("opts.reason"), "{}", error);
}

// Streaming JSON

/// A result whose JSON is several of the library's 64 KiB pieces long.
fn large_result() -> (TempDir, CommandResult) {
    let (tmp, mut ws) = initialised_project();
    let inbox = tmp.path().join("docs/memory/inbox.md");
    let mut text = fs::read_to_string(&inbox).unwrap();
    text.push_str("\n## 2026-03-06\n");
    for i in 0..3000 {
        text.push_str(&format!(
            "- note {} about something worth keeping for later review\n",
            i
        ));
    }
    fs::write(&inbox, text).unwrap();
    let result = ws.plan_compaction(&now(), &CompactOptions::new()).unwrap();
    (tmp, result)
}

#[test]
fn write_json_streams_the_bytes_of_json() {
    let (_tmp, result) = large_result();
    let json = result.json().unwrap();
    assert!(json.len() > 3 * 65536, "only {} bytes", json.len());
    let mut pieces = Vec::new();
    result
        .write_json(|piece| {
            pieces.push(piece.to_vec());
            Ok(())
        })
        .unwrap();
    assert!(pieces.len() > 1, "the whole result in one piece");
    assert_eq!(pieces.concat(), json.as_bytes());

    let mut out = Vec::new();
    result.write_json_to(&mut out).unwrap();
    assert_eq!(out, json.as_bytes());

    let (_tmp2, mut ws) = initialised_project();
    let small = ws.status(&now()).unwrap();
    let mut out = Vec::new();
    small.write_json_to(&mut out).unwrap();
    assert_eq!(out, small.json().unwrap().as_bytes());
}

#[test]
fn a_failing_write_callback_stops_the_stream_with_mk_e_callback() {
    let (_tmp, result) = large_result();
    let mut calls = 0;
    let error = expect_error(
        result.write_json(|_piece| {
            calls += 1;
            Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the reader went away",
            ))
        }),
        -50,
        "MK_E_CALLBACK",
    );
    assert_eq!(calls, 1, "the writer went on after the callback failed");
    assert!(
        error.message().contains("the reader went away"),
        "{}",
        error
    );
    // The result is unharmed.
    assert!(result
        .json()
        .unwrap()
        .starts_with("{\"command\":\"custodian compact\""));
}

#[test]
fn a_panicking_write_callback_is_caught_as_mk_e_callback() {
    let (_tmp, result) = large_result();
    let error = expect_error(
        result.write_json(|_piece| -> io::Result<()> { panic!("host code blew up") }),
        sys::MK_E_CALLBACK,
        "MK_E_CALLBACK",
    );
    assert!(error.message().contains("host code blew up"), "{}", error);
    assert_eq!(result.exit_code(), 0);
}

// Document

#[test]
fn a_document_is_partitioned_into_units() {
    let text = "---\nk: v\n---\n# Title\n\n- a\n  b\n```\nx\n```\n<!-- c -->\n## Two\ntext";
    let doc = Document::parse(text.as_bytes()).unwrap();
    let unit = |kind, heading_level, first_line, last_line, begin, end| Unit {
        kind,
        heading_level,
        first_line,
        last_line,
        begin,
        end,
    };
    let expected = vec![
        unit(UnitKind::FrontMatter, 0, 1, 3, 0, 13),
        unit(UnitKind::Heading, 1, 4, 4, 13, 21),
        unit(UnitKind::Blank, 0, 5, 5, 21, 22),
        unit(UnitKind::Bullet, 0, 6, 7, 22, 30),
        unit(UnitKind::Fence, 0, 8, 10, 30, 40),
        unit(UnitKind::Comment, 0, 11, 11, 40, 51),
        unit(UnitKind::Heading, 2, 12, 12, 51, 58),
        unit(UnitKind::Text, 0, 13, 13, 58, 62),
    ];
    assert_eq!(doc.units().unwrap(), expected);
    assert_eq!(doc.unit_count(), 8);
    assert_eq!(&text[0..13], "---\nk: v\n---\n");
    assert_eq!(&text[22..30], "- a\n  b\n");
    assert_eq!(&text[51..58], "## Two\n");
    assert_eq!(text.len(), 62, "the last line has no terminator");
    assert_eq!(doc.unit(3).unwrap(), expected[3]);
    let error = expect_error(doc.unit(8), -1, "MK_E_ARG");
    assert!(error.message().contains("index"), "{}", error);
    let json = doc.json().unwrap();
    assert!(
        json.starts_with("{\"sections\":[{\"first_line\":1,"),
        "{}",
        json
    );
    assert!(json.contains("\"kind\":\"front_matter\""), "{}", json);
    assert_eq!(UnitKind::from_raw(sys::MK_UNIT_COMMENT), UnitKind::Comment);
    assert_eq!(UnitKind::from_raw(42).as_raw(), 42);
}

#[test]
fn an_empty_or_unparseable_document_has_no_units() {
    let empty = Document::parse(b"").unwrap();
    assert_eq!(empty.unit_count(), 0);
    assert_eq!(empty.json().unwrap(), "{\"sections\":[],\"units\":[]}");

    let open_fence = Document::parse(b"# T\n\n```\n- a\n").unwrap();
    assert_eq!(open_fence.unit_count(), 0);
    assert!(open_fence.units().unwrap().is_empty());
    assert_eq!(
        open_fence.json().unwrap(),
        "{\"sections\":null,\"units\":null}"
    );
}

// Ownership and threads

#[test]
fn handles_are_destroyed_exactly_once() {
    let tmp = TempDir::new("api");
    for round in 0..300 {
        let mut ws = Workspace::open(tmp.path()).unwrap();
        let status = ws.status(&now()).unwrap();
        let json = status.json().unwrap();
        assert!(json.contains("custodian status"), "round {}", round);
        if round % 2 == 0 {
            drop(ws); // the result outlives its workspace
            assert_eq!(status.exit_code(), 1);
            status.close();
        } else {
            ws.close();
        }
    }
    for _ in 0..1000 {
        let doc = Document::parse(b"# T\n- a\n").unwrap();
        assert_eq!(doc.unit_count(), 2);
        let copy = doc.units().unwrap();
        drop(doc);
        assert_eq!(copy[1].kind, UnitKind::Bullet);
    }
}

fn shared_across_threads<T: Send + Sync>() {}
fn moved_across_threads<T: Send>() {}

#[test]
fn results_and_documents_are_shared_across_threads_and_workspaces_move() {
    shared_across_threads::<CommandResult>();
    shared_across_threads::<Document>();
    shared_across_threads::<Error>();
    shared_across_threads::<Clock>();
    moved_across_threads::<Workspace>();

    let (tmp, mut ws) = initialised_project();
    let status = Arc::new(ws.status(&now()).unwrap());
    let doc = Arc::new(Document::parse(b"# T\n\n- a\n").unwrap());
    let expected = status.json().unwrap();
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let status = Arc::clone(&status);
            let doc = Arc::clone(&doc);
            thread::spawn(move || (status.json().unwrap(), doc.units().unwrap().len()))
        })
        .collect();
    for reader in readers {
        assert_eq!(reader.join().unwrap(), (expected.clone(), 3));
    }

    let root = tmp.path().to_path_buf();
    let moved = thread::spawn(move || {
        let added = ws
            .add(&now(), "from another thread", &AddOptions::new("inbox"))
            .unwrap();
        (added.applied(), ws)
    });
    let (applied, _ws) = moved.join().unwrap();
    assert!(applied);
    let inbox = fs::read_to_string(Path::new(&root).join("docs/memory/inbox.md")).unwrap();
    assert!(inbox.contains("from another thread"), "{}", inbox);
}
