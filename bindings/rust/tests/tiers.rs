//! The three-tier session memory (spec tiers3.md) through the generated builders on a workspace
//! opened with `Layout::Tiers`: what the commands write, and what they refuse.
mod common;

use common::{data_of, envelope, finding_codes, parse_json, Json, TempDir};
use memkit::{Clock, CommandResult, Layout, Workspace, WorkspaceOptions};
use std::fs;
use std::path::{Path, PathBuf};

fn at(rfc3339: &str) -> Clock {
    Clock::parse(rfc3339).expect("the test clock parses")
}

/// The clock of spec tiers3.md §15: 2026-03-07 14:05:09 local time.
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

fn ok(result: memkit::Result<CommandResult>) -> CommandResult {
    result.unwrap_or_else(|e| panic!("an error, not a result: {}", e))
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

#[test]
fn persist_turn_writes_the_l1_and_l2_bytes_of_the_spec() {
    // tiers3.md §15, first turn: entry type, stripped raw content, session, tools, a title and
    // a template, on an empty workspace.
    let (tmp, ws) = tiers_workspace();
    let first = ok(ws
        .tiers_persist_turn()
        .entry_type("assistant")
        .raw_content("  Raw one  ")
        .session_id("s1")
        .tools_list(["search", "read"])
        .extracted_content("Use persist-turn.")
        .theme("Decision")
        .template("decision")
        .title("Default command")
        .run(&spec_now()));
    assert_eq!(first.exit_code(), 0, "{}", first.json().unwrap());
    assert!(first.applied());
    assert_eq!(first.plan_id(), None);
    let data = data_of(&first);
    assert_eq!(bool_member(&data, "l1_written"), Some(true));
    assert_eq!(bool_member(&data, "l2_written"), Some(true));
    assert_eq!(str_member(&data, "theme"), Some("decision"));
    assert_eq!(bool_member(&data, "global_updated"), Some(false));
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
    let second = ok(ws
        .tiers_persist_turn()
        .raw_content("second")
        .extracted_content("second note")
        .theme("decision")
        .run(&at("2026-03-07T14:30:00+00:00")));
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
fn extracted_content_without_a_theme_is_refused_and_writes_nothing() {
    let (tmp, ws) = tiers_workspace();
    let result = ok(ws
        .tiers_persist_turn()
        .raw_content("Raw one")
        .extracted_content("Use persist-turn.")
        .run(&spec_now()));
    assert_eq!(result.exit_code(), 2, "{}", result.json().unwrap());
    assert_eq!(finding_codes(&result), ["MK-TIERS-004"]);
    assert!(!result.applied());
    // Not even the L1 entry the reference script writes before failing (§12 defect 1).
    assert_eq!(files_under(tmp.path()), []);
}

#[test]
fn invalid_values_are_findings_and_write_nothing() {
    let (tmp, ws) = tiers_workspace();
    let init = ok(ws.tiers_init().run(&spec_now()));
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    let before = files_under(&tmp.path().join("memory"));
    let note = || ws.tiers_write_theme().content("A note");
    let log = || ws.tiers_log_turn().content("A note");
    let cases = [
        (note().theme("auto").run(&spec_now()), "MK-TIERS-003"),
        (note().theme("../x").run(&spec_now()), "MK-TIERS-002"),
        (note().theme("sessions").run(&spec_now()), "MK-TIERS-002"),
        (
            ws.tiers_log_turn().content("   ").run(&spec_now()),
            "MK-TIERS-001",
        ),
        (log().tools("\"search\"").run(&spec_now()), "MK-TIERS-001"),
        (
            log().entry_type("two words").run(&spec_now()),
            "MK-TIERS-001",
        ),
        (
            ws.tiers_write_global()
                .content("A note")
                .append(true)
                .replace(true)
                .run(&spec_now()),
            "MK-ARG-001",
        ),
        (
            note().theme("ops").template("memo").run(&spec_now()),
            "MK-ARG-001",
        ),
    ];
    for (i, (result, code)) in cases.into_iter().enumerate() {
        let result = ok(result);
        assert_eq!(
            result.exit_code(),
            2,
            "case {}: {}",
            i,
            result.json().unwrap()
        );
        assert_eq!(finding_codes(&result), [code], "case {}", i);
        assert!(!result.applied(), "case {}", i);
    }
    assert_eq!(files_under(&tmp.path().join("memory")), before);
}

#[test]
fn tools_are_sent_as_a_json_list_and_written_verbatim() {
    let (tmp, ws) = tiers_workspace();
    let result = ok(ws
        .tiers_log_turn()
        .content("Looked it up")
        .tools_list(["say \"hi\"", "back\\slash", "naïve"])
        .run(&spec_now()));
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert!(result.applied());
    let log = read(tmp.path(), "memory/sessions/2026-03-07.md");
    assert!(
        log.contains("\n**Tools:** say \"hi\", back\\slash, naïve\n"),
        "{:?}",
        log
    );
    // The same list as JSON text reaches the same bytes.
    let (text_tmp, text_ws) = tiers_workspace();
    let as_text = ok(text_ws
        .tiers_log_turn()
        .content("Looked it up")
        .tools(r#"["say \"hi\"","back\\slash","naïve"]"#)
        .run(&spec_now()));
    assert_eq!(as_text.exit_code(), 0, "{}", as_text.json().unwrap());
    assert_eq!(read(text_tmp.path(), "memory/sessions/2026-03-07.md"), log);
    // No tools: no Tools line (§3).
    let (tmp, ws) = tiers_workspace();
    let none = ok(ws
        .tiers_log_turn()
        .content("Nothing used")
        .tools_list(Vec::<String>::new())
        .run(&spec_now()));
    assert_eq!(none.exit_code(), 0, "{}", none.json().unwrap());
    assert!(!read(tmp.path(), "memory/sessions/2026-03-07.md").contains("**Tools:**"));
}

/// The CSV of tiers3.md §15: a quoted comma, a quoted line break, an empty line, doubled quotes.
const CSV: &str = "name,note\n\"Smith, J\",\"line1\nline2\"\n\nx,\"say \"\"hi\"\"\"";

#[test]
fn write_data_then_read_data_with_head() {
    let (tmp, ws) = tiers_workspace();
    let written = ok(ws
        .tiers_write_data()
        .name("people")
        .csv_content(CSV)
        .description("Contacts")
        .columns_json_list(["name", "note"])
        .run(&spec_now()));
    assert_eq!(written.exit_code(), 0, "{}", written.json().unwrap());
    assert!(written.applied());
    let data = data_of(&written);
    assert_eq!(
        str_member(&data, "data_path"),
        Some("memory/data/people.csv")
    );
    let entry = data.get("manifest_entry").expect("a manifest entry");
    assert_eq!(entry.get("row_count").and_then(Json::as_u64), Some(2));
    assert_eq!(str_member(entry, "description"), Some("Contacts"));
    assert_eq!(read(tmp.path(), "memory/data/people.csv"), CSV);
    let manifest = parse_json(&read(tmp.path(), "memory/data/manifest.json")).unwrap();
    // The manifest file keeps §10's key order, the envelope sorts keys by code point.
    assert_eq!(manifest.get("people.csv").map(sorted), Some(sorted(entry)));

    let head = |n: i64| {
        let result = ok(ws
            .tiers_read_data()
            .name("people.csv")
            .head(n)
            .run(&spec_now()));
        assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
        assert!(!result.applied(), "a read applies nothing");
        data_of(&result).get("data").expect("data.data").clone()
    };
    // The header is record 1, and the last record included keeps its line break.
    let one = head(1);
    assert_eq!(str_member(&one, "content"), Some("name,note\n"));
    assert_eq!(bool_member(&one, "truncated"), Some(true));
    let two = head(2);
    assert_eq!(
        str_member(&two, "content"),
        Some("name,note\n\"Smith, J\",\"line1\nline2\"\n")
    );
    let all = head(3);
    assert_eq!(str_member(&all, "content"), Some(CSV));
    assert_eq!(bool_member(&all, "truncated"), Some(false));

    // A second write of the same name needs --replace, and writes nothing without it.
    let before = files_under(&tmp.path().join("memory"));
    let again = || ws.tiers_write_data().name("people").csv_content("a\n1\n");
    let refused = ok(again().run(&spec_now()));
    assert_eq!(refused.exit_code(), 1, "{}", refused.json().unwrap());
    assert_eq!(finding_codes(&refused), ["MK-TIERS-011"]);
    assert_eq!(files_under(&tmp.path().join("memory")), before);
    let replaced = ok(again().replace(true).run(&spec_now()));
    assert_eq!(replaced.exit_code(), 0, "{}", replaced.json().unwrap());
    assert_eq!(read(tmp.path(), "memory/data/people.csv"), "a\n1\n");
}

#[test]
fn archive_themes_is_a_dry_run_until_applied_with_its_plan_id() {
    let (tmp, ws) = tiers_workspace();
    let note = |content: &str, now: &Clock| {
        let result = ok(ws
            .tiers_write_theme()
            .theme("ops")
            .content(content)
            .run(now));
        assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    };
    note("Old note", &at("2025-11-01T09:15:00+01:00"));
    note("New note", &spec_now());
    let old_path = "memory/ops/2025-11-01_09.md";
    let old_bytes = read(tmp.path(), old_path);
    let before = files_under(tmp.path());

    let init = ok(ws.tiers_session_init().no_log(true).run(&spec_now()));
    assert_eq!(
        data_of(&init).get("l2_archive_due").and_then(Json::as_u64),
        Some(1)
    );

    let plan = ok(ws.tiers_archive_themes().run(&spec_now()));
    assert_eq!(plan.exit_code(), 0, "{}", plan.json().unwrap());
    assert!(!plan.applied());
    let plan_id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(plan.plan_operation_count(), 2, "copy, then delete");
    assert_eq!(files_under(tmp.path()), before, "a dry run writes nothing");

    // The days are part of the plan: this ID does not confirm another cut-off.
    let stale = ok(ws
        .tiers_archive_themes()
        .days(1)
        .apply(true)
        .confirm_plan(&plan_id)
        .run(&spec_now()));
    assert_eq!(stale.exit_code(), 2, "{}", stale.json().unwrap());
    assert!(finding_codes(&stale).contains(&"MK-PLAN-001".to_string()));
    assert!(!stale.applied());
    assert_eq!(files_under(tmp.path()), before, "a stale ID writes nothing");

    let applied = ok(ws
        .tiers_archive_themes()
        .apply(true)
        .confirm_plan(&plan_id)
        .run(&spec_now()));
    assert_eq!(applied.exit_code(), 0, "{}", applied.json().unwrap());
    assert!(applied.applied());
    assert_eq!(applied.plan_id(), Some(plan_id.as_str()));
    assert!(!tmp.path().join(old_path).exists());
    assert_eq!(
        read(tmp.path(), "memory/archive/ops/2025-11-01_09.md"),
        old_bytes
    );
    // archive/ is reserved: it is no theme.
    let themes = ok(ws.tiers_list_themes().run(&spec_now()));
    let listed = data_of(&themes).get("themes").cloned();
    assert_eq!(listed, Some(Json::Array(vec![Json::String("ops".into())])));
}

#[test]
fn template_takes_its_kind_as_a_positional() {
    let (tmp, ws) = tiers_workspace();
    let decision = ok(ws.tiers_template().kind("decision").run(&spec_now()));
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
    let unknown = ok(ws.tiers_template().kind("memo").run(&spec_now()));
    assert_eq!(unknown.exit_code(), 2, "{}", unknown.json().unwrap());
    assert_eq!(files_under(tmp.path()), []);
}

#[test]
fn a_tiers_workspace_runs_the_tiers_commands_only() {
    let (tmp, ws) = tiers_workspace();
    let recover = ok(ws.tiers_recover().run(&spec_now()));
    assert_eq!(recover.exit_code(), 0, "{}", recover.json().unwrap());
    assert_eq!(
        envelope(&recover).get("command").and_then(Json::as_str),
        Some("tiers recover")
    );
    // A custodian command is refused before it runs, and so is a tiers one elsewhere.
    let error = ws.custodian_status().run(&spec_now()).unwrap_err();
    assert_eq!(error.name(), "MK_E_ARG", "{}", error);
    assert!(error.message().contains("another layout"), "{}", error);
    let custodian_root = TempDir::new("tiers-custodian");
    let custodian = Workspace::open(custodian_root.path()).unwrap();
    let error = custodian
        .tiers_log_turn()
        .content("x")
        .run(&spec_now())
        .unwrap_err();
    assert_eq!(error.name(), "MK_E_ARG", "{}", error);
    assert_eq!(files_under(custodian_root.path()), []);
    assert_eq!(files_under(tmp.path()), []);
    // The workspace is the root: a request may not name it.
    let error = ws
        .request("tiers", "list-themes")
        .string("workspace", "elsewhere")
        .run(&spec_now())
        .unwrap_err();
    assert_eq!(
        error.message(),
        "workspace: given by the workspace, not the request"
    );
    // The tiers layout takes no memory_dir.
    let with_dir = tiers_options().memory_dir("docs/memory");
    let error = Workspace::open_with(tmp.path(), &with_dir).unwrap_err();
    assert_eq!(error.name(), "MK_E_ARG", "{}", error);
}
