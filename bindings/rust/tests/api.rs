//! The safe API beyond the shared vectors: versions, clocks, errors, opening workspaces, plans and
//! their IDs, typed results, streaming, documents, ownership and threads.
mod common;

use common::TempDir;
use memkit::{
    sys, BudgetState, Clock, CommandResult, Document, Error, Unit, UnitKind, Workspace,
    WorkspaceOptions,
};
use std::fs;
use std::io;
use std::sync::Arc;
use std::thread;

fn now() -> Clock {
    Clock::parse("2026-03-07T10:00:00+01:00").expect("the test clock parses")
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

/// A project whose memory folder `custodian init` created.
fn initialised_project() -> (TempDir, Workspace) {
    let tmp = TempDir::new("api");
    let ws = Workspace::open(tmp.path()).expect("open a fresh project");
    let init = ws.custodian_init().run(&now()).expect("init");
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    (tmp, ws)
}

// Version, table, status names and messages

#[test]
fn the_library_is_version_0_2_0() {
    assert_eq!(memkit::version(), 200);
    assert_eq!(memkit::version(), sys::MK_VERSION_NUMBER);
    assert_eq!(memkit::version_string(), "0.2.0");
    assert_eq!(memkit::version_string(), sys::MK_VERSION_STRING);
    memkit::check_version().expect("the loaded library matches the binding");
}

#[test]
fn the_command_table_is_the_library_s() {
    let table = memkit::commands_json().expect("the table");
    assert!(table.starts_with("{\"global_options\":["));
    assert!(table.contains("\"name\":\"memorybox sync push\""));
    assert!(table.contains("\"table_version\":1}"));
}

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
    assert_eq!(memkit::error_message(), error.message());
    let shown = error.to_string();
    assert!(shown.starts_with("MK_E_ARG (-1): "), "{}", shown);
    assert!(shown.contains(error.message()), "{}", shown);

    // Each thread keeps its own message: a failure elsewhere does not replace this one.
    let other = thread::spawn(|| {
        let error = Clock::parse("2026-11-30T10:00:00").unwrap_err();
        (error.message().to_string(), memkit::error_message())
    })
    .join()
    .unwrap();
    assert_eq!(other.0, other.1);
    assert_ne!(other.0, error.message());
    assert_eq!(memkit::error_message(), error.message());
}

// Clock

#[test]
fn a_clock_parses_rfc3339_with_an_offset() {
    let clock = Clock::parse("2026-11-30T10:00:00+01:00").unwrap();
    assert_eq!(clock.unix_ms(), Some(1_796_029_200_000));
    assert_eq!(clock.utc_offset_minutes(), Some(60));
    assert!(!clock.is_system());
    assert_eq!(clock.as_raw().version, sys::MK_CLOCK_VERSION);

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
    let (_tmp, ws) = initialised_project();
    let status = ws
        .custodian_status()
        .run(&clock)
        .expect("status at the system clock");
    assert!(status
        .json()
        .unwrap()
        .starts_with("{\"command\":\"custodian status\""));
}

#[test]
fn a_command_given_an_impossible_offset_fails_without_a_result() {
    let (_tmp, ws) = initialised_project();
    let error = expect_error(
        ws.custodian_status().run(&Clock::from_unix_ms(0, 24 * 60)),
        -1,
        "MK_E_ARG",
    );
    assert!(error.message().contains("offset"), "{}", error);
}

// Workspace::open

#[test]
fn open_rejects_a_file_a_missing_root_and_a_nul() {
    let tmp = TempDir::new("api");
    let file = tmp.path().join("file.txt");
    fs::write(&file, "not a folder").unwrap();
    let error = expect_error(Workspace::open(&file), sys::MK_E_ARG, "MK_E_ARG");
    assert!(error.message().contains("file.txt"), "{}", error);
    expect_error(Workspace::open(tmp.path().join("missing")), -1, "MK_E_ARG");
    expect_error(Workspace::open(""), -1, "MK_E_ARG");
    let error = expect_error(Workspace::open("a\0b"), -1, "MK_E_ARG");
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
    let ws = Workspace::open_with(tmp.path(), &options).unwrap();
    let init = ws.custodian_init().extended(true).run(&now()).unwrap();
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

// Commands and results

#[test]
fn a_command_stopped_by_its_findings_is_ok_with_exit_code_2() {
    let (_tmp, ws) = initialised_project();
    let stale = ws
        .custodian_compact()
        .apply(true)
        .confirm_plan("0000000000000000")
        .run(&now())
        .unwrap();
    assert!(!stale.applied());
    let bad_target = ws
        .custodian_compact()
        .target("../x.md")
        .run(&now())
        .unwrap();
    assert_eq!(bad_target.exit_code(), 2, "{}", bad_target.json().unwrap());
    assert_eq!(bad_target.plan_id(), None);
    assert_eq!(bad_target.plan_operation_count(), 0);
    assert_eq!(bad_target.inbox_counts().unwrap(), None);
    // A required positional left out is the command's finding, as on the CLI.
    let no_topic = ws.custodian_forget().run(&now()).unwrap();
    assert_eq!(no_topic.exit_code(), 2, "{}", no_topic.json().unwrap());
    let empty_topic = ws.custodian_forget().topic("").run(&now()).unwrap();
    assert_eq!(empty_topic.exit_code(), 2);
}

#[test]
fn a_plan_is_applied_only_under_its_id() {
    let (tmp, ws) = initialised_project();
    let add = || {
        ws.custodian_add()
            .message("remember the staging URL")
            .type_("inbox")
    };
    let added = add().run(&now()).unwrap();
    assert!(added.applied());
    assert_eq!(added.plan_id(), None, "add applies directly");
    let alone = ws.custodian_compact().run(&now()).unwrap();
    assert_eq!(
        alone.plan_id(),
        None,
        "one candidate leaves nothing to compact"
    );
    assert_eq!(alone.inbox_counts().unwrap().map(|c| c.candidates), Some(1));
    add().run(&now()).unwrap();
    let plan = ws.custodian_compact().run(&now()).unwrap();
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
        .custodian_compact()
        .apply(true)
        .confirm_plan(&id)
        .run(&now())
        .unwrap();
    assert_eq!(done.exit_code(), 0, "{}", done.json().unwrap());
    assert!(done.applied());
    assert_eq!(done.plan_id(), Some(id.as_str()));
    assert_ne!(
        fs::read(tmp.path().join("docs/memory/inbox.md")).unwrap(),
        before
    );

    // The applied plan can be undone: PLAN_ID is a positional.
    let undo = ws.custodian_undo().plan_id(&id).run(&now()).unwrap();
    assert_eq!(undo.exit_code(), 0, "{}", undo.json().unwrap());
    let undo_id = undo.plan_id().expect("an undo plan").to_string();
    let undone = ws
        .custodian_undo()
        .plan_id(&id)
        .apply(true)
        .confirm_plan(&undo_id)
        .run(&now())
        .unwrap();
    assert!(undone.applied(), "{}", undone.json().unwrap());
    assert_eq!(
        fs::read(tmp.path().join("docs/memory/inbox.md")).unwrap(),
        before
    );
}

#[test]
fn the_builders_and_the_generic_path_give_the_same_result() {
    let (tmp, ws) = initialised_project();
    let added = ws
        .run(
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
    let constraints = fs::read_to_string(tmp.path().join("docs/memory/constraints.md")).unwrap();
    assert!(constraints.contains("- Reports render without JavaScript\n"));
    let by_name = ws.run(&now(), "custodian", "status", &[]).unwrap();
    let built = ws.custodian_status().run(&now()).unwrap();
    let requested = ws.request("custodian", "status").run(&now()).unwrap();
    assert_eq!(by_name.json().unwrap(), built.json().unwrap());
    assert_eq!(requested.json().unwrap(), built.json().unwrap());
}

#[test]
fn status_rows_are_typed() {
    let (_tmp, ws) = initialised_project();
    let status = ws.custodian_status().run(&now()).unwrap();
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
    let check = ws.custodian_check().run(&now()).unwrap();
    assert_eq!(check.budget_row_count(), 0);
    assert!(check.budget_rows().unwrap().is_empty());
}

// Streaming JSON

/// A result whose JSON is several of the library's 64 KiB pieces long.
fn large_result() -> (TempDir, CommandResult) {
    let (tmp, ws) = initialised_project();
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
    let result = ws.custodian_compact().run(&now()).unwrap();
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
        let ws = Workspace::open(tmp.path()).unwrap();
        let status = ws.custodian_status().run(&now()).unwrap();
        assert!(
            status.json().unwrap().contains("custodian status"),
            "round {}",
            round
        );
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

    let (tmp, ws) = initialised_project();
    let status = Arc::new(ws.custodian_status().run(&now()).unwrap());
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

    // One workspace per thread, each on the same folder: applies take its lock.
    let workers: Vec<_> = (0..3)
        .map(|i| {
            let root = tmp.path().to_path_buf();
            thread::spawn(move || {
                let ws = Workspace::open(&root).unwrap();
                let added = ws
                    .custodian_add()
                    .message(format!("from thread {}", i))
                    .type_("inbox")
                    .run(&now())
                    .unwrap();
                added.applied()
            })
        })
        .collect();
    for worker in workers {
        assert!(worker.join().unwrap());
    }
    let moved = thread::spawn(move || ws.custodian_check().run(&now()).unwrap().json().unwrap());
    assert!(moved
        .join()
        .unwrap()
        .starts_with("{\"command\":\"custodian check\""));
    let inbox = fs::read_to_string(tmp.path().join("docs/memory/inbox.md")).unwrap();
    for i in 0..3 {
        assert!(inbox.contains(&format!("from thread {}", i)), "{}", inbox);
    }
}
