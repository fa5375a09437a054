//! The MemoryBox layout (spec memorybox.md) through the generated builders: init and status, a
//! tier load, entry updates, the gate and its judge, a move under its Plan ID, and the Maven
//! commands of two words (canon add, client set).
mod common;

use common::{data_of, finding_codes, parse_json, Json, TempDir};
use memkit::{Clock, CommandResult, Gate, Layout, Workspace, WorkspaceOptions};
use std::cell::RefCell;
use std::fs;
use std::rc::Rc;

fn at(rfc3339: &str) -> Clock {
    Clock::parse(rfc3339).expect("the test clock parses")
}

fn now() -> Clock {
    at("2026-11-30T10:00:00+01:00")
}

fn ok(result: memkit::Result<CommandResult>) -> CommandResult {
    result.unwrap_or_else(|e| panic!("an error, not a result: {}", e))
}

fn str_member<'a>(data: &'a Json, key: &str) -> Option<&'a str> {
    data.get(key).and_then(Json::as_str)
}

/// An initialised MemoryBox root.
fn memorybox_root() -> (TempDir, Workspace) {
    let tmp = TempDir::new("memorybox");
    let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    let ws = Workspace::open_with(tmp.path(), &options).unwrap();
    let init = ok(ws.memorybox_init().run(&now()));
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    (tmp, ws)
}

#[test]
fn init_and_status_report_the_tiers_in_the_json() {
    let tmp = TempDir::new("memorybox-init");
    let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    let ws = Workspace::open_with(tmp.path(), &options).unwrap();
    assert!(!tmp.path().join("brain").exists(), "open writes nothing");
    let init = ok(ws.memorybox_init().run(&now()));
    let json = init.json().unwrap();
    assert!(
        json.starts_with("{\"command\":\"memorybox init\""),
        "{}",
        json
    );
    assert!(tmp.path().join("brain/SOUL.md").is_file());
    assert!(tmp.path().join("memory/daily").is_dir());
    assert!(!tmp.path().join("docs").exists(), "no custodian files");

    let status = ok(ws.memorybox_status().run(&now()));
    let json = status.json().unwrap();
    assert_eq!(status.exit_code(), 0, "{}", json);
    assert!(json.contains("\"path\":\"brain/SOUL.md\""), "{}", json);
    // Line budgets are only in the JSON: no custodian rows (mk_result_budget_row_count).
    assert_eq!(status.budget_row_count(), 0);
    assert!(status.budget_rows().unwrap().is_empty());
    assert_eq!(status.inbox_counts().unwrap(), None);

    // A memory_dir is the custodian's; the layout refuses it.
    let error = Workspace::open_with(tmp.path(), &options.memory_dir("docs/memory")).unwrap_err();
    assert_eq!(error.name(), "MK_E_ARG", "{}", error);
    assert!(error.message().contains("memory_dir"), "{}", error);
}

#[test]
fn load_takes_an_integer_tier_and_a_flag() {
    let (tmp, ws) = memorybox_root();
    fs::write(tmp.path().join("memory/ARCHIVES/old.md"), "# OLD\n").unwrap();
    let tier_1 = ok(ws.memorybox_load().tier(1).run(&now()));
    let json = tier_1.json().unwrap();
    assert_eq!(tier_1.exit_code(), 0, "{}", json);
    assert!(
        json.contains(
            "{\"content\":\"# SOUL\\n\",\"lines\":1,\"path\":\"brain/SOUL.md\",\"tier\":1}"
        ),
        "{}",
        json
    );
    let refused = ok(ws.memorybox_load().tier(5).run(&now()));
    assert_eq!(refused.exit_code(), 2, "{}", refused.json().unwrap());
    assert!(refused.json().unwrap().contains("--include-archive"));
    let archive = ok(ws
        .memorybox_load()
        .tier(5)
        .include_archive(true)
        .run(&now()));
    assert!(archive
        .json()
        .unwrap()
        .contains("\"path\":\"memory/ARCHIVES/old.md\",\"tier\":5"));
    let file = ok(ws.memorybox_load().file("brain/SOUL.md").run(&now()));
    assert!(file
        .json()
        .unwrap()
        .contains("\"files\":[{\"content\":\"# SOUL\\n\""));
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
    let (tmp, ws) = memorybox_root();
    let long_term = tmp.path().join("memory/LONG_TERM.md");
    fs::write(
        &long_term,
        "- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n",
    )
    .unwrap();
    let decay = ok(ws.memorybox_decay().run(&now()));
    assert!(decay.json().unwrap().contains("\"effective\":80"));
    let entry_id = first_entry_id(&decay.json().unwrap());
    assert!(entry_id.starts_with("memory/LONG_TERM.md#"), "{}", entry_id);

    let confirmed = ok(ws
        .memorybox_update()
        .entry(&entry_id)
        .confirm(true)
        .run(&now()));
    assert_eq!(confirmed.exit_code(), 0, "{}", confirmed.json().unwrap());
    assert!(confirmed.applied());
    assert_eq!(confirmed.plan_id(), None, "an update applies directly");
    let text = fs::read_to_string(&long_term).unwrap();
    assert!(text.contains("Confidence: 0.95"), "{}", text);
    assert!(text.contains("Verified: 2026-11-30"), "{}", text);

    // An empty note is the command's to refuse: a result, and nothing written.
    let empty = ok(ws
        .memorybox_update()
        .entry(&entry_id)
        .contradict(true)
        .note("")
        .run(&now()));
    assert_eq!(empty.exit_code(), 2, "{}", empty.json().unwrap());
    assert_eq!(fs::read_to_string(&long_term).unwrap(), text);

    let contradicted = ok(ws
        .memorybox_update()
        .entry(&entry_id)
        .contradict(true)
        .note("it is 16 now")
        .run(&now()));
    assert_eq!(
        contradicted.exit_code(),
        0,
        "{}",
        contradicted.json().unwrap()
    );
    let text = fs::read_to_string(&long_term).unwrap();
    assert!(
        text.contains("Review: contradicted 2026-11-30: it is 16 now"),
        "{}",
        text
    );
    // A number argument from an f64, as the CLI's text.
    let kept = ok(ws
        .memorybox_update()
        .entry(&entry_id)
        .resolve("keep")
        .confidence(0.7)
        .run(&now()));
    assert_eq!(kept.exit_code(), 0, "{}", kept.json().unwrap());
    let text = fs::read_to_string(&long_term).unwrap();
    assert!(text.contains("Confidence: 0.70"), "{}", text);
    assert!(!text.contains("Review:"), "{}", text);
}

// The gate (memorybox gate) and its judge

const LONG_TERM: &str =
    "# LONG_TERM\n\n## Tooling\n\n- Use ripgrep for search\n  Confidence: 0.90\n  \
                         Verified: 2026-10-01\n\n## People\n\n- Ana owns the release train\n  \
                         Confidence: 0.80\n  Verified: 2026-11-01\n";

/// A MemoryBox root whose memory/LONG_TERM.md has two H2 categories, Tooling and People.
fn gate_root() -> (TempDir, Workspace) {
    let (tmp, ws) = memorybox_root();
    fs::write(tmp.path().join("memory/LONG_TERM.md"), LONG_TERM).unwrap();
    (tmp, ws)
}

fn staging(ws: &Workspace) -> memkit::commands::MemoryboxGate<'_> {
    ws.memorybox_gate()
        .text("Deploys go through the staging cluster first")
        .confidence(0.85)
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

fn long_term(tmp: &TempDir) -> String {
    fs::read_to_string(tmp.path().join("memory/LONG_TERM.md")).unwrap()
}

#[test]
fn gate_names_and_values_match_the_header() {
    use memkit::sys;
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
        assert_eq!(gate.to_string(), name);
    }
    assert_eq!(Gate::from_raw(9), Gate::Other(9));
}

#[test]
fn gate_without_a_judge_stops_at_value_with_needs_judgement() {
    let (tmp, ws) = gate_root();
    for apply in [false, true] {
        let result = ok(staging(&ws).apply(apply).run(&now()));
        let json = result.json().unwrap();
        assert_eq!(result.exit_code(), 0, "{}", json);
        let data = data_of(&result);
        assert_eq!(
            str_member(&data, "outcome"),
            Some("NEEDS_JUDGEMENT"),
            "{}",
            json
        );
        assert_eq!(str_member(&data, "stopped_at"), Some("VALUE"), "{}", json);
        assert!(!result.applied());
        assert_eq!(finding_codes(&result), ["MK-BOX-003"], "{}", json);
    }
    assert_eq!(long_term(&tmp), LONG_TERM, "nothing was written");
}

#[test]
fn a_judge_answering_all_five_writes_under_the_category_only_with_apply() {
    let (tmp, ws) = gate_root();
    let mut asked = Vec::new();
    let mut judge = |gate: Gate, _question: &str| {
        asked.push(gate);
        write_answer(gate)
    };
    let dry = ok(staging(&ws).judge(&mut judge).run(&now()));
    let json = dry.json().unwrap();
    assert_eq!(dry.exit_code(), 0, "{}", json);
    let data = data_of(&dry);
    assert_eq!(str_member(&data, "outcome"), Some("WRITE"), "{}", json);
    assert_eq!(str_member(&data, "category"), Some("Tooling"), "{}", json);
    let entry_text = str_member(&data, "entry_text").unwrap().to_string();
    assert!(
        entry_text.starts_with(
            "- Deploys go through the staging cluster first\n  Confidence: 0.85\n  \
             Verified: 2026-11-30\n"
        ),
        "{}",
        entry_text
    );
    assert!(!dry.applied(), "a dry run");
    assert_eq!(long_term(&tmp), LONG_TERM, "a dry run writes nothing");

    let applied = ok(staging(&ws).judge(&mut judge).apply(true).run(&now()));
    let json = applied.json().unwrap();
    assert_eq!(applied.exit_code(), 0, "{}", json);
    assert!(applied.applied(), "{}", json);
    assert_eq!(applied.plan_id(), None, "an additive write has no plan");
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
    let text = long_term(&tmp);
    let entry = text.find(&entry_text).unwrap_or_else(|| panic!("{}", text));
    let ripgrep = text.find("- Use ripgrep for search").unwrap();
    let people = text.find("## People\n").unwrap();
    assert!(ripgrep < entry && entry < people, "{}", text);
}

#[test]
fn the_judge_sees_each_gate_s_question_as_json() {
    let (_tmp, ws) = gate_root();
    let mut questions: Vec<(Gate, Json)> = Vec::new();
    let result = ok(staging(&ws)
        .judge(|gate: Gate, question: &str| {
            let parsed = parse_json(question).unwrap_or_else(|e| panic!("{}: {}", e, question));
            questions.push((gate, parsed));
            write_answer(gate)
        })
        .run(&now()));
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
        // The confidence in hundredths, as decay reports it: 0.85 arrived as "0.85".
        assert_eq!(candidate.get("confidence").and_then(Json::as_u64), Some(85));
        assert_eq!(str_member(candidate, "title"), Some("Staging first"));
        assert!(
            candidate.get("client").unwrap().is_null(),
            "{:?}",
            candidate
        );
    }
    // Once ALIGNMENT chose Tooling, REDUNDANCY sees that category and its entries.
    let (gate, redundancy) = &questions[2];
    assert_eq!(*gate, Gate::Redundancy);
    assert_eq!(str_member(redundancy, "category"), Some("Tooling"));
    let entries = redundancy
        .get("category_entries")
        .and_then(Json::as_array)
        .unwrap();
    assert_eq!(entries.len(), 1, "{:?}", redundancy);
}

#[test]
fn a_judge_that_abstains_at_freshness_stops_there_and_writes_nothing() {
    let (tmp, ws) = gate_root();
    let mut asked = Vec::new();
    let result = ok(staging(&ws)
        .judge(|gate: Gate, _question: &str| {
            asked.push(gate);
            match gate {
                Gate::Freshness => None,
                other => write_answer(other),
            }
        })
        .apply(true)
        .run(&now()));
    let json = result.json().unwrap();
    assert_eq!(result.exit_code(), 0, "{}", json);
    assert_eq!(
        str_member(&data_of(&result), "stopped_at"),
        Some("FRESHNESS"),
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
    assert_eq!(long_term(&tmp), LONG_TERM);
}

#[test]
fn an_answer_given_as_an_argument_is_not_asked() {
    let (_tmp, ws) = gate_root();
    let mut asked = Vec::new();
    let result = ok(staging(&ws)
        .value("yes")
        .category("Tooling")
        .judge(|gate: Gate, _question: &str| {
            asked.push(gate);
            write_answer(gate)
        })
        .run(&now()));
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    assert_eq!(str_member(&data_of(&result), "outcome"), Some("WRITE"));
    assert_eq!(asked, [Gate::Redundancy, Gate::Freshness, Gate::Placement]);
}

#[test]
fn a_panicking_judge_is_caught_and_fails_the_gate_with_mk_box_005() {
    let (tmp, ws) = gate_root();
    let result = ok(staging(&ws)
        .judge(|gate: Gate, _question: &str| -> Option<String> {
            if gate == Gate::Alignment {
                panic!("the judge broke");
            }
            write_answer(gate)
        })
        .apply(true)
        .run(&now()));
    let json = result.json().unwrap();
    assert_eq!(result.exit_code(), 2, "{}", json);
    assert!(
        finding_codes(&result).contains(&"MK-BOX-005".to_string()),
        "{}",
        json
    );
    assert!(json.contains("\"fatal\":true"), "{}", json);
    assert!(!result.applied());
    assert_eq!(long_term(&tmp), LONG_TERM);
    // The workspace is still usable after the caught panic.
    let again = ok(staging(&ws).run(&now()));
    assert_eq!(again.exit_code(), 0, "{}", again.json().unwrap());
}

#[test]
fn an_answer_that_does_not_parse_fails_the_gate_with_mk_box_005() {
    let (tmp, ws) = gate_root();
    let result = ok(staging(&ws)
        .judge(|_gate: Gate, _question: &str| Some("maybe".to_string()))
        .apply(true)
        .run(&now()));
    assert_eq!(result.exit_code(), 2, "{}", result.json().unwrap());
    assert!(finding_codes(&result).contains(&"MK-BOX-005".to_string()));
    assert_eq!(long_term(&tmp), LONG_TERM);
}

#[test]
fn a_judge_cannot_run_a_command_on_its_own_workspace() {
    let (_tmp, ws) = gate_root();
    let refusals = Rc::new(RefCell::new(Vec::new()));
    let seen = Rc::clone(&refusals);
    let result = ok(staging(&ws)
        .judge(|gate: Gate, _question: &str| {
            // memkit.h: a judge "must not call back into the library with ws".
            let inner = ws.memorybox_status().run(&now());
            seen.borrow_mut()
                .push(inner.map(|r| r.exit_code()).map_err(|e| e.to_string()));
            write_answer(gate)
        })
        .run(&now()));
    assert_eq!(result.exit_code(), 0, "{}", result.json().unwrap());
    let refusals = refusals.borrow();
    assert_eq!(refusals.len(), 5);
    for refusal in refusals.iter() {
        let error = refusal.as_ref().unwrap_err();
        assert!(error.starts_with("MK_E_ARG"), "{}", error);
        assert!(error.contains("already running"), "{}", error);
    }
    // Once the gate returned, the workspace runs commands again.
    assert_eq!(ok(ws.memorybox_status().run(&now())).exit_code(), 0);
}

// A move under its Plan ID, and the Maven commands of two words

const PATTERNS: &str =
    "# PATTERNS\n\n## Retry with backoff\nConfidence: 0.90\nVerified: 2026-11-20\n\
                        Last-Used: 2026-11-28\n\n## Log everything\nLast-Used: 2026-08-01\n";

#[test]
fn promote_moves_a_pattern_to_the_sop_library_under_its_plan_id() {
    let (tmp, ws) = memorybox_root();
    fs::write(tmp.path().join("memory/PATTERNS.md"), PATTERNS).unwrap();
    let decay = ok(ws.memorybox_decay().file("memory/PATTERNS.md").run(&now()));
    let retry = first_entry_id(&decay.json().unwrap());
    let sop = tmp.path().join("memory/SOP_LIBRARY.md");
    let sop_before = fs::read_to_string(&sop).unwrap();

    let plan = ok(ws.memorybox_promote().entry(&retry).run(&now()));
    let json = plan.json().unwrap();
    assert_eq!(plan.exit_code(), 0, "{}", json);
    let id = plan.plan_id().expect("a plan").to_string();
    assert_eq!(plan.plan_operation_count(), 2, "{}", json);
    assert_eq!(fs::read_to_string(&sop).unwrap(), sop_before, "a dry run");

    let stale = ok(ws
        .memorybox_promote()
        .entry(&retry)
        .apply(true)
        .confirm_plan("0000000000000000")
        .run(&now()));
    assert_eq!(stale.exit_code(), 2, "{}", stale.json().unwrap());
    assert!(!stale.applied());

    let done = ok(ws
        .memorybox_promote()
        .entry(&retry)
        .apply(true)
        .confirm_plan(&id)
        .run(&now()));
    assert_eq!(done.exit_code(), 0, "{}", done.json().unwrap());
    assert!(done.applied());
    assert_eq!(done.plan_id(), Some(id.as_str()));
    let sop_after = fs::read_to_string(&sop).unwrap();
    assert!(
        sop_after.starts_with(&sop_before),
        "appended: {}",
        sop_after
    );
    assert!(
        sop_after.contains("## Retry with backoff\nConfidence: 0.90\n"),
        "{}",
        sop_after
    );
}

const CANON: &str = "brain/MARKETING_CANON.md";
const ACME: &str = "# acme\n\nLifecycle: active\n\nBrand voice: calm, precise.\n";

#[test]
fn the_maven_profile_s_canon_and_client_lifecycle() {
    let tmp = TempDir::new("maven");
    let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
    let ws = Workspace::open_with(tmp.path(), &options).unwrap();
    let init = ok(ws.memorybox_init().profile("maven").run(&now()));
    assert_eq!(init.exit_code(), 0, "{}", init.json().unwrap());
    assert_eq!(
        fs::read_to_string(tmp.path().join(".memkit/profile")).unwrap(),
        "maven\n"
    );
    assert!(tmp.path().join("brain/RISK_REGISTER.md").is_file());

    let added = ok(ws
        .memorybox_canon_add()
        .file(CANON)
        .text("Never promise ROI figures")
        .run(&now()));
    let json = added.json().unwrap();
    assert_eq!(added.exit_code(), 0, "{}", json);
    assert!(
        json.starts_with("{\"command\":\"memorybox canon add\""),
        "{}",
        json
    );
    assert_eq!(
        fs::read_to_string(tmp.path().join(CANON)).unwrap(),
        "# MARKETING_CANON\n\n- Never promise ROI figures\n"
    );
    assert_eq!(ok(ws.memorybox_canon_verify().run(&now())).exit_code(), 0);
    fs::write(
        tmp.path().join(CANON),
        "# MARKETING_CANON\n\n- Always promise ROI\n",
    )
    .unwrap();
    let verify = ok(ws.memorybox_canon_verify().run(&now()));
    assert_eq!(verify.exit_code(), 1, "{}", verify.json().unwrap());
    assert_eq!(finding_codes(&verify), ["MK-BOX-030"]);

    let profile = tmp.path().join("brain/clients/acme.md");
    let archived = tmp.path().join("memory/ARCHIVES/clients/acme/acme.md");
    fs::create_dir_all(profile.parent().unwrap()).unwrap();
    fs::write(&profile, ACME).unwrap();
    let set = |to: &str| ws.memorybox_client_set().client("acme").to(to);
    let skipped = ok(set("archived").run(&now()));
    assert_eq!(skipped.exit_code(), 1, "{}", skipped.json().unwrap());
    assert_eq!(finding_codes(&skipped), ["MK-BOX-031"]);
    let maintenance = ok(set("maintenance").run(&now()));
    assert_eq!(
        maintenance.exit_code(),
        0,
        "{}",
        maintenance.json().unwrap()
    );
    assert!(maintenance.applied());
    assert!(fs::read_to_string(&profile)
        .unwrap()
        .contains("Lifecycle: maintenance"));
    let plan = ok(set("archived").run(&now()));
    let id = plan.plan_id().expect("a plan").to_string();
    assert!(!archived.exists(), "a dry run writes nothing");
    let done = ok(set("archived").apply(true).confirm_plan(&id).run(&now()));
    assert_eq!(done.exit_code(), 0, "{}", done.json().unwrap());
    assert!(done.applied());
    assert!(!profile.exists() && archived.is_file());
}
