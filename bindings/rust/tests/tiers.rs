//! The three-tier session memory (spec tiers3.md) through the binding: a workspace opened with
//! `Layout::Tiers`, every `memkit tiers` command by `Workspace::tiers_run`, and what they write.
mod common;

use common::{data_of, envelope, finding_codes, parse_json, Json, TempDir};
use memkit::{
    sys, Clock, CommandResult, Error, Layout, TiersCommand, TiersOptions, Workspace,
    WorkspaceOptions,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::ptr;

/// The clock of spec tiers3.md §15: 2026-03-07 14:05:09 local time.
fn at(rfc3339: &str) -> Clock {
    Clock::parse(rfc3339).expect("the test clock parses")
}

fn spec_now() -> Clock {
    at("2026-03-07T14:05:09+00:00")
}

fn tiers_options() -> WorkspaceOptions {
    WorkspaceOptions::new().layout(Layout::Tiers)
}

/// An empty workspace opened with the tiers layout.
fn tiers_workspace() -> (TempDir, Workspace) {
    let tmp = TempDir::new("tiers");
    let ws = Workspace::open_with(tmp.path(), &tiers_options()).expect("open a tiers workspace");
    (tmp, ws)
}

fn run(
    ws: &mut Workspace,
    now: &Clock,
    command: TiersCommand,
    options: TiersOptions,
) -> CommandResult {
    ws.tiers_run(now, command, &options)
        .unwrap_or_else(|e| panic!("tiers {}: {}", command, e))
}

fn str_member<'a>(data: &'a Json, key: &str) -> Option<&'a str> {
    data.get(key).and_then(Json::as_str)
}

fn bool_member(data: &Json, key: &str) -> Option<bool> {
    data.get(key).and_then(Json::as_bool)
}

/// An object with its members sorted by key (other values as they are).
fn sorted(value: &Json) -> Json {
    match value {
        Json::Object(members) => {
            let mut members = members.clone();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Json::Object(members)
        }
        other => other.clone(),
    }
}

fn read(root: &Path, relative: &str) -> String {
    let path = root.join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

/// Every file under `dir` with its bytes, sorted by path: a snapshot to compare before and after.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                found.extend(files_under(&path));
            } else {
                found.push((path.clone(), fs::read(&path).unwrap()));
            }
        }
    }
    found.sort();
    found
}

fn expect_error<T: std::fmt::Debug>(result: Result<T, Error>, code: i32) -> Error {
    match result {
        Ok(value) => panic!("expected the error {}, got Ok({:?})", code, value),
        Err(error) => {
            assert_eq!(error.code(), code, "{}", error);
            error
        }
    }
}

#[test]
fn command_values_and_names_match_the_header_and_the_cli() {
    let expected = [
        (sys::MK_TIERS_INIT, "init"),
        (sys::MK_TIERS_SESSION_INIT, "session-init"),
        (sys::MK_TIERS_LOG_TURN, "log-turn"),
        (sys::MK_TIERS_READ_LOGS, "read-logs"),
        (sys::MK_TIERS_PERSIST_TURN, "persist-turn"),
        (sys::MK_TIERS_WRITE_THEME, "write-theme"),
        (sys::MK_TIERS_READ_THEME, "read-theme"),
        (sys::MK_TIERS_READ_GLOBAL, "read-global"),
        (sys::MK_TIERS_WRITE_GLOBAL, "write-global"),
        (sys::MK_TIERS_LIST_THEMES, "list-themes"),
        (sys::MK_TIERS_WRITE_DATA, "write-data"),
        (sys::MK_TIERS_READ_DATA, "read-data"),
        (sys::MK_TIERS_LIST_DATA, "list-data"),
        (sys::MK_TIERS_ARCHIVE_THEMES, "archive-themes"),
        (sys::MK_TIERS_TEMPLATE, "template"),
    ];
    let got: Vec<(i32, &str)> = TiersCommand::ALL
        .iter()
        .map(|c| (c.as_raw(), c.name()))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn each_command_runs_as_the_cli_command_of_its_name() {
    // The envelope's `command` is the library's own name for what it ran, so this checks every
    // enum value against the C numbering end to end. Commands missing a required argument still
    // run (exit code 2, a finding) and name themselves.
    let (_tmp, mut ws) = tiers_workspace();
    let init = run(
        &mut ws,
        &spec_now(),
        TiersCommand::Init,
        TiersOptions::new(),
    );
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    for command in TiersCommand::ALL {
        let result = run(&mut ws, &spec_now(), command, TiersOptions::new());
        let name = envelope(&result)
            .get("command")
            .and_then(Json::as_str)
            .map(str::to_string);
        assert_eq!(name, Some(format!("tiers {}", command.name())));
    }
}

#[test]
fn persist_turn_writes_the_l1_and_l2_bytes_of_the_spec() {
    // tiers3.md §15, first turn: entry type, stripped raw content, session, tools, a title and
    // a template, on an empty workspace.
    let (tmp, mut ws) = tiers_workspace();
    let turn = TiersOptions::new()
        .entry_type("assistant")
        .raw_content("  Raw one  ")
        .session_id("s1")
        .tools(["search", "read"])
        .extracted_content("Use persist-turn.")
        .theme("Decision")
        .template_name("decision")
        .title("Default command");
    let first = run(&mut ws, &spec_now(), TiersCommand::PersistTurn, turn);
    assert_eq!(first.exit_code(), 0, "{}", first.json().unwrap());
    assert!(first.applied());
    assert_eq!(first.plan_id(), None);
    let data = data_of(&first);
    assert_eq!(bool_member(&data, "l1_written"), Some(true));
    assert_eq!(bool_member(&data, "l2_written"), Some(true));
    assert_eq!(str_member(&data, "theme"), Some("decision"));
    assert_eq!(bool_member(&data, "global_updated"), Some(false));
    assert_eq!(str_member(&data, "global_path"), Some("memory/global.md"));
    assert_eq!(
        str_member(&data, "l1_path"),
        Some("memory/sessions/2026-03-07.md")
    );
    assert_eq!(
        str_member(&data, "l2_path"),
        Some("memory/decision/2026-03-07_14.md")
    );

    let l1 = "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n**Session:** s1\n\
              **Tools:** search, read\n\nRaw one\n\n---";
    let l2 = "## Decision Record: Default command\n\nUse persist-turn.\n";
    assert_eq!(read(tmp.path(), "memory/sessions/2026-03-07.md"), l1);
    assert_eq!(read(tmp.path(), "memory/decision/2026-03-07_14.md"), l2);
    // No promotion was asked for, and none happens from the text (§12 defect 6).
    assert!(!tmp.path().join("memory/global.md").exists());

    // §15, second turn at 14:30:00: appended to both files, default entry type and heading.
    let second = TiersOptions::new()
        .raw_content("second")
        .extracted_content("second note")
        .theme("decision");
    let second = run(
        &mut ws,
        &at("2026-03-07T14:30:00+00:00"),
        TiersCommand::PersistTurn,
        second,
    );
    assert_eq!(second.exit_code(), 0, "{}", second.json().unwrap());
    assert_eq!(
        read(tmp.path(), "memory/sessions/2026-03-07.md"),
        format!("{}\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---", l1)
    );
    assert_eq!(
        read(tmp.path(), "memory/decision/2026-03-07_14.md"),
        format!("{}\n\n## 2026-03-07 14:30:00\n\nsecond note\n", l2)
    );
}

#[test]
fn promote_global_appends_the_block_to_a_new_skeleton() {
    let (tmp, mut ws) = tiers_workspace();
    let turn = TiersOptions::new()
        .raw_content("r")
        .extracted_content("Use it.")
        .theme("decision")
        .promote_global(true);
    let result = run(&mut ws, &spec_now(), TiersCommand::PersistTurn, turn);
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert_eq!(bool_member(&data_of(&result), "global_updated"), Some(true));
    let skeleton = "# Global Memory\n\n\
                    Read Order: Active Mission -> Key Constraints -> Research Index -> \
                    User Preferences\n\n\
                    ## 1. Active Mission\n### Mission Snapshot\n### Key Constraints (Immutable)\n\
                    ### Next Useful Reads\n\n## 2. Research Index\n\n## 3. Decisions\n\n\
                    ## 4. User Preferences\n";
    assert_eq!(
        read(tmp.path(), "memory/global.md"),
        format!(
            "{}\n\n## Persisted Turn Promotion - 2026-03-07 14:05\n\nUse it.",
            skeleton
        )
    );
}

#[test]
fn extracted_content_without_a_theme_is_refused_and_writes_nothing() {
    let (tmp, mut ws) = tiers_workspace();
    let turn = TiersOptions::new()
        .raw_content("Raw one")
        .extracted_content("Use persist-turn.");
    let result = run(&mut ws, &spec_now(), TiersCommand::PersistTurn, turn);
    assert_eq!(result.exit_code(), 2, "{}", result.json().unwrap());
    assert_eq!(finding_codes(&result), ["MK-TIERS-004"]);
    assert!(!result.applied());
    // Not even the L1 entry the reference script writes before failing (§12 defect 1).
    assert!(!tmp.path().join("memory").exists());
    assert_eq!(files_under(tmp.path()), []);
}

#[test]
fn invalid_arguments_are_findings_and_write_nothing() {
    let (tmp, mut ws) = tiers_workspace();
    let init = run(
        &mut ws,
        &spec_now(),
        TiersCommand::Init,
        TiersOptions::new(),
    );
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    let before = files_under(&tmp.path().join("memory"));
    let note = || TiersOptions::new().content("A note");
    let cases = [
        (
            TiersCommand::WriteTheme,
            note().theme("auto"),
            "MK-TIERS-003",
        ),
        (
            TiersCommand::WriteTheme,
            note().theme("../x"),
            "MK-TIERS-002",
        ),
        (
            TiersCommand::WriteTheme,
            note().theme("sessions"),
            "MK-TIERS-002",
        ),
        (
            TiersCommand::LogTurn,
            TiersOptions::new().content("   "),
            "MK-TIERS-001",
        ),
        (
            TiersCommand::LogTurn,
            note().tools_json("\"search\""),
            "MK-TIERS-001",
        ),
        (
            TiersCommand::LogTurn,
            note().entry_type("two words"),
            "MK-TIERS-001",
        ),
        (
            TiersCommand::WriteGlobal,
            note().append(true).replace(true),
            "MK-ARG-001",
        ),
        (
            TiersCommand::WriteTheme,
            note().theme("ops").template_name("memo"),
            "MK-ARG-001",
        ),
        // An argument the command does not take: the CLI's "unknown option".
        (TiersCommand::LogTurn, note().head(1), "MK-ARG-001"),
        (
            TiersCommand::PersistTurn,
            TiersOptions::new().raw_content("r").days(3),
            "MK-ARG-001",
        ),
    ];
    for (command, options, code) in cases {
        let shown = format!("{} {:?}", command, options);
        let result = run(&mut ws, &spec_now(), command, options);
        assert_eq!(
            result.exit_code(),
            2,
            "{}: {}",
            shown,
            result.json().unwrap()
        );
        assert_eq!(finding_codes(&result), [code], "{}", shown);
        assert!(!result.applied(), "{}", shown);
    }
    assert_eq!(files_under(&tmp.path().join("memory")), before);
}

#[test]
fn a_nul_or_i64_min_is_mk_e_arg_before_the_library_runs() {
    let (tmp, mut ws) = tiers_workspace();
    let error = expect_error(
        ws.tiers_run(
            &spec_now(),
            TiersCommand::LogTurn,
            &TiersOptions::new().content("a\0b"),
        ),
        sys::MK_E_ARG,
    );
    assert!(error.message().contains("opts.content"), "{}", error);
    // i64::MIN is C's MK_TIERS_UNSET: passing it would silently mean "no --head".
    let options = TiersOptions::new().name("people").head(i64::MIN);
    let error = expect_error(
        ws.tiers_run(&spec_now(), TiersCommand::ReadData, &options),
        sys::MK_E_ARG,
    );
    assert!(error.message().contains("opts.head"), "{}", error);
    assert_eq!(files_under(tmp.path()), []);
}

#[test]
fn tools_are_sent_as_escaped_json_and_written_verbatim() {
    let (tmp, mut ws) = tiers_workspace();
    let turn =
        TiersOptions::new()
            .content("Looked it up")
            .tools(["say \"hi\"", "back\\slash", "naïve"]);
    let result = run(&mut ws, &spec_now(), TiersCommand::LogTurn, turn);
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert!(result.applied());
    let log = read(tmp.path(), "memory/sessions/2026-03-07.md");
    assert!(
        log.contains("\n**Tools:** say \"hi\", back\\slash, naïve\n"),
        "{:?}",
        log
    );
    // No tools: no Tools line (§3).
    let (tmp, mut ws) = tiers_workspace();
    let turn = TiersOptions::new()
        .content("Nothing used")
        .tools(Vec::<String>::new());
    assert_eq!(
        run(&mut ws, &spec_now(), TiersCommand::LogTurn, turn).exit_code(),
        0
    );
    assert!(!read(tmp.path(), "memory/sessions/2026-03-07.md").contains("**Tools:**"));
}

/// The CSV of tiers3.md §15: a quoted comma, a quoted line break, an empty line, doubled quotes.
const CSV: &str = "name,note\n\"Smith, J\",\"line1\nline2\"\n\nx,\"say \"\"hi\"\"\"";

#[test]
fn write_data_then_read_data_with_head() {
    let (tmp, mut ws) = tiers_workspace();
    let write = TiersOptions::new()
        .name("people")
        .csv_content(CSV)
        .description("Contacts")
        .columns(["name", "note"]);
    let written = run(&mut ws, &spec_now(), TiersCommand::WriteData, write);
    assert_eq!(written.exit_code(), 0, "{}", written.json().unwrap());
    assert!(written.applied());
    let data = data_of(&written);
    assert_eq!(
        str_member(&data, "data_path"),
        Some("memory/data/people.csv")
    );
    let entry = data.get("manifest_entry").expect("a manifest entry");
    assert_eq!(entry.get("row_count").and_then(Json::as_u64), Some(2));
    assert_eq!(entry.get("column_count").and_then(Json::as_u64), Some(2));
    assert_eq!(str_member(entry, "description"), Some("Contacts"));
    assert_eq!(
        entry.get("size_bytes").and_then(Json::as_u64),
        Some(CSV.len() as u64)
    );
    assert_eq!(read(tmp.path(), "memory/data/people.csv"), CSV);
    // Commit order L1, CSV, manifest (§9): the log names the file in the reference's words.
    assert!(read(tmp.path(), "memory/sessions/2026-03-07.md")
        .contains("\n\nStored CSV memory data file people.csv\n\n---"));
    let manifest = parse_json(&read(tmp.path(), "memory/data/manifest.json")).unwrap();
    // The same entry, compared member by member: the manifest file keeps §10's key order, the
    // envelope sorts keys by code point.
    assert_eq!(manifest.get("people.csv").map(sorted), Some(sorted(entry)));

    let head = |ws: &mut Workspace, n: i64| {
        let options = TiersOptions::new().name("people.csv").head(n);
        let result = run(ws, &spec_now(), TiersCommand::ReadData, options);
        assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
        assert!(!result.applied(), "a read applies nothing");
        data_of(&result).get("data").expect("data.data").clone()
    };
    // The header is record 1, and the last record included keeps its line break.
    let one = head(&mut ws, 1);
    assert_eq!(str_member(&one, "content"), Some("name,note\n"));
    assert_eq!(bool_member(&one, "truncated"), Some(true));
    assert_eq!(one.get("metadata"), Some(entry));
    // Record 2 holds a quoted line break: the prefix runs through the record, not the line.
    let two = head(&mut ws, 2);
    assert_eq!(
        str_member(&two, "content"),
        Some("name,note\n\"Smith, J\",\"line1\nline2\"\n")
    );
    assert_eq!(bool_member(&two, "truncated"), Some(true));
    let all = head(&mut ws, 3);
    assert_eq!(str_member(&all, "content"), Some(CSV));
    assert_eq!(bool_member(&all, "truncated"), Some(false));

    // A second write of the same name needs --replace, and writes nothing without it.
    let before = files_under(&tmp.path().join("memory"));
    let again = TiersOptions::new().name("people").csv_content("a\n1\n");
    let refused = run(&mut ws, &spec_now(), TiersCommand::WriteData, again.clone());
    assert_eq!(refused.exit_code(), 1, "{}", refused.json().unwrap());
    assert_eq!(finding_codes(&refused), ["MK-TIERS-011"]);
    assert_eq!(files_under(&tmp.path().join("memory")), before);
    let replaced = run(
        &mut ws,
        &spec_now(),
        TiersCommand::WriteData,
        again.replace(true),
    );
    assert_eq!(replaced.exit_code(), 0, "{}", replaced.json().unwrap());
    assert_eq!(read(tmp.path(), "memory/data/people.csv"), "a\n1\n");
}

#[test]
fn archive_themes_is_a_dry_run_until_applied_with_its_plan_id() {
    let (tmp, mut ws) = tiers_workspace();
    let note = |content: &str| TiersOptions::new().theme("ops").content(content);
    let old = run(
        &mut ws,
        &at("2025-11-01T09:15:00+01:00"),
        TiersCommand::WriteTheme,
        note("Old note"),
    );
    assert_eq!(old.exit_code(), 0, "{}", old.json().unwrap());
    let new = run(
        &mut ws,
        &spec_now(),
        TiersCommand::WriteTheme,
        note("New note"),
    );
    assert_eq!(new.exit_code(), 0, "{}", new.json().unwrap());
    let old_path = "memory/ops/2025-11-01_09.md";
    let old_bytes = read(tmp.path(), old_path);
    let before = files_under(tmp.path());

    let init = run(
        &mut ws,
        &spec_now(),
        TiersCommand::SessionInit,
        TiersOptions::new().no_log(true),
    );
    assert_eq!(
        data_of(&init).get("l2_archive_due").and_then(Json::as_u64),
        Some(1)
    );

    let plan = run(
        &mut ws,
        &spec_now(),
        TiersCommand::ArchiveThemes,
        TiersOptions::new(),
    );
    assert_eq!(plan.exit_code(), 0, "{}", plan.json().unwrap());
    assert!(!plan.applied());
    let plan_id = plan
        .plan_id()
        .expect("a plan to move the old note")
        .to_string();
    let data = data_of(&plan);
    let candidates: Vec<&str> = data
        .get("candidates")
        .and_then(Json::as_array)
        .expect("candidates")
        .iter()
        .map(|c| str_member(c, "path").unwrap())
        .collect();
    assert_eq!(candidates, [old_path]);
    assert_eq!(
        plan.plan_operation_count(),
        2,
        "create the archive copy, delete the note"
    );
    assert_eq!(files_under(tmp.path()), before, "a dry run writes nothing");

    // The days are part of the plan (`{"days": n}`): moving the same note under another cut-off
    // is another plan, which this ID does not confirm.
    let shorter = run(
        &mut ws,
        &spec_now(),
        TiersCommand::ArchiveThemes,
        TiersOptions::new().days(1),
    );
    assert_ne!(shorter.plan_id(), Some(plan_id.as_str()));
    let stale = TiersOptions::new().days(1).confirm_plan_id(plan_id.clone());
    let refused = run(&mut ws, &spec_now(), TiersCommand::ArchiveThemes, stale);
    assert_eq!(refused.exit_code(), 2, "{}", refused.json().unwrap());
    assert!(finding_codes(&refused).contains(&"MK-PLAN-001".to_string()));
    assert!(!refused.applied());
    assert_eq!(files_under(tmp.path()), before, "a stale ID writes nothing");

    let apply = TiersOptions::new().confirm_plan_id(plan_id.clone());
    let applied = run(&mut ws, &spec_now(), TiersCommand::ArchiveThemes, apply);
    assert_eq!(applied.exit_code(), 0, "{}", applied.json().unwrap());
    assert!(applied.applied());
    assert_eq!(applied.plan_id(), Some(plan_id.as_str()));
    assert!(!tmp.path().join(old_path).exists());
    assert_eq!(
        read(tmp.path(), "memory/archive/ops/2025-11-01_09.md"),
        old_bytes
    );
    assert_eq!(
        read(tmp.path(), "memory/ops/2026-03-07_14.md"),
        "## 2026-03-07 14:05:09\n\nNew note\n"
    );

    let after = run(
        &mut ws,
        &spec_now(),
        TiersCommand::ArchiveThemes,
        TiersOptions::new(),
    );
    assert_eq!(after.plan_id(), None, "{}", after.json().unwrap());
    // archive/ is reserved: it is no theme.
    let themes = run(
        &mut ws,
        &spec_now(),
        TiersCommand::ListThemes,
        TiersOptions::new(),
    );
    let listed = data_of(&themes).get("themes").cloned();
    assert_eq!(listed, Some(Json::Array(vec![Json::String("ops".into())])));
}

#[test]
fn template_shows_the_body_named_in_template_name() {
    let (tmp, mut ws) = tiers_workspace();
    let decision = run(
        &mut ws,
        &spec_now(),
        TiersCommand::Template,
        TiersOptions::new().template_name("decision"),
    );
    assert_eq!(decision.exit_code(), 0, "{}", decision.json().unwrap());
    let text = str_member(&data_of(&decision), "text").unwrap().to_string();
    let fields = [
        "**Context**:",
        "**Options**:",
        "**Decision**:",
        "**Rationale**:",
    ];
    let at: Vec<usize> = fields
        .iter()
        .map(|f| text.find(f).unwrap_or(usize::MAX))
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]) && at[3] != usize::MAX,
        "{:?}",
        text
    );
    let unknown = run(
        &mut ws,
        &spec_now(),
        TiersCommand::Template,
        TiersOptions::new().template_name("memo"),
    );
    assert_eq!(unknown.exit_code(), 2, "{}", unknown.json().unwrap());
    assert_eq!(files_under(tmp.path()), []);
}

#[test]
fn a_tiers_workspace_runs_tiers_and_recover_only() {
    let (tmp, mut ws) = tiers_workspace();
    let recover = ws
        .recover(&spec_now(), false, false)
        .expect("tiers recover");
    assert_eq!(recover.exit_code(), 0, "{}", recover.json().unwrap());
    assert_eq!(
        envelope(&recover).get("command").and_then(Json::as_str),
        Some("tiers recover")
    );
    assert_eq!(
        str_member(&data_of(&recover), "recovery_status"),
        Some("clean")
    );
    // A custodian command is no tiers command.
    let status = ws.status(&spec_now()).expect("a result, not an error");
    assert_eq!(status.exit_code(), 2, "{}", status.json().unwrap());
    assert_eq!(finding_codes(&status), ["MK-ARG-001"]);
    let plan = ws
        .plan_compaction(&spec_now(), &memkit::CompactOptions::new())
        .expect("a result, not an error");
    assert_eq!(plan.exit_code(), 2, "{}", plan.json().unwrap());
    assert_eq!(finding_codes(&plan), ["MK-ARG-001"]);
    assert_eq!(files_under(tmp.path()), []);

    // And a tiers command on a custodian workspace is refused the same way.
    let custodian_root = TempDir::new("tiers-custodian");
    let mut custodian = Workspace::open(custodian_root.path()).unwrap();
    let log = TiersOptions::new().content("x");
    let refused = custodian
        .tiers_run(&spec_now(), TiersCommand::LogTurn, &log)
        .expect("a result, not an error");
    assert_eq!(refused.exit_code(), 2, "{}", refused.json().unwrap());
    assert_eq!(finding_codes(&refused), ["MK-ARG-001"]);
    assert_eq!(files_under(custodian_root.path()), []);

    // The tiers layout takes no memory_dir.
    let with_dir = tiers_options().memory_dir("docs/memory");
    expect_error(Workspace::open_with(tmp.path(), &with_dir), sys::MK_E_ARG);
}

#[test]
fn the_raw_layer_refuses_an_unknown_command_or_options_version() {
    let (_tmp, ws) = tiers_workspace();
    let mut raw_now = sys::mk_clock::default();
    let rfc3339 = std::ffi::CString::new("2026-03-07T14:05:09+00:00").unwrap();
    // SAFETY: valid pointers for each call; `opts` holds no strings.
    unsafe {
        assert_eq!(
            sys::mk_clock_parse(&mut raw_now, rfc3339.as_ptr()),
            sys::MK_OK
        );
        let mut opts = std::mem::zeroed::<sys::mk_tiers_options>();
        sys::mk_tiers_options_init(&mut opts);
        let mut out = ptr::null_mut();
        let status = sys::mk_tiers_run(
            &mut out,
            ws.as_raw(),
            &raw_now,
            sys::MK_TIERS_TEMPLATE + 1,
            &opts,
        );
        assert_eq!(status, sys::MK_E_ARG);
        assert!(out.is_null());
        opts.version = sys::MK_TIERS_OPTIONS_VERSION + 1;
        let status = sys::mk_tiers_run(&mut out, ws.as_raw(), &raw_now, sys::MK_TIERS_INIT, &opts);
        assert_eq!(status, sys::MK_E_ARG);
        assert!(out.is_null());
        // NULL options mean "nothing given".
        let status = sys::mk_tiers_run(
            &mut out,
            ws.as_raw(),
            &raw_now,
            sys::MK_TIERS_LIST_THEMES,
            ptr::null(),
        );
        assert_eq!(status, sys::MK_OK);
        assert_eq!(sys::mk_result_exit_code(out), 0);
        sys::mk_result_destroy(out);
    }
}
