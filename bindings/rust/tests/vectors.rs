//! The shared test vectors (tests/vectors/README.md), run through the Rust binding: every case the
//! folder holds, every step, compared with the committed expectations byte for byte.
mod common;

use common::{copy_dir, parse_json, Json, TempDir};
use memkit::{
    AddOptions, BudgetRow, BudgetState, Clock, CommandResult, CompactOptions, CuratedCommand,
    CuratedOptions, Document, ForgetMode, ForgetOptions, Gate, GateCandidate, InboxCounts, Layout,
    SyncCommand, SyncOptions, TiersCommand, TiersOptions, UnitKind, UpdateEvent, Workspace,
    WorkspaceOptions,
};
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's tests/vectors, found from this crate's folder (bindings/rust).
fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

fn cases() -> Vec<PathBuf> {
    let dir = vectors_dir();
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {}", dir.display(), e));
    let mut cases: Vec<PathBuf> = entries
        .map(|entry| entry.expect("read tests/vectors").path())
        .filter(|path| path.join("case.json").is_file())
        .collect();
    cases.sort();
    cases
}

#[test]
fn the_json_reader_reads_what_case_files_hold() {
    common::self_test_json();
}

#[test]
fn every_shared_vector_passes() {
    let cases = cases();
    assert!(
        !cases.is_empty(),
        "no case.json under {}",
        vectors_dir().display()
    );
    let mut problems = Vec::new();
    let mut steps = 0;
    for case in &cases {
        steps += run_case(case, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "{} case(s), {} step(s), {} problem(s):\n{}",
        cases.len(),
        steps,
        problems.len(),
        problems.join("\n")
    );
    assert!(
        steps >= cases.len(),
        "{} case(s) ran only {} step(s)",
        cases.len(),
        steps
    );
}

/// Runs one case in a fresh copy of its files; returns how many steps ran.
fn run_case(case_dir: &Path, problems: &mut Vec<String>) -> usize {
    let name = case_dir.file_name().unwrap().to_string_lossy().into_owned();
    let text = fs::read_to_string(case_dir.join("case.json")).expect("read case.json");
    let case = parse_json(&text).unwrap_or_else(|e| panic!("{}/case.json: {}", name, e));
    let clock_text = case
        .get("clock")
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("{}/case.json: no clock", name));
    let clock = Clock::parse(clock_text).unwrap_or_else(|e| panic!("{}: clock: {}", name, e));
    // The README: `layout` is "custodian" (the default when absent), "memorybox", "tiers" or
    // "curated".
    let layout = match opt_str(&case, "layout") {
        Ok(None) => None,
        Ok(Some("custodian")) => Some(Layout::Custodian),
        Ok(Some("memorybox")) => Some(Layout::MemoryBox),
        Ok(Some("tiers")) => Some(Layout::Tiers),
        Ok(Some("curated")) => Some(Layout::Curated),
        Ok(Some(other)) => panic!("{}/case.json: unknown layout {:?}", name, other),
        Err(e) => panic!("{}/case.json: {}", name, e),
    };
    let steps = case
        .get("steps")
        .and_then(Json::as_array)
        .unwrap_or_else(|| panic!("{}/case.json: no steps", name));

    let tmp = TempDir::new("vector");
    let root = tmp.path().join("project");
    let files = case_dir.join("files");
    if files.is_dir() {
        copy_dir(&files, &root).expect("copy the case's files");
    } else {
        fs::create_dir(&root).expect("create the project root");
    }

    let mut run = CaseRun {
        name,
        case_dir: case_dir.to_path_buf(),
        root,
        clock,
        layout,
        workspace: None,
        plan_ids: Vec::new(),
        problems: Vec::new(),
    };
    for (index, step) in steps.iter().enumerate() {
        let plan_id = run.step(index + 1, step);
        run.plan_ids.push(plan_id);
    }
    let count = steps.len();
    problems.extend(run.problems);
    count
}

struct CaseRun {
    name: String,
    case_dir: PathBuf,
    root: PathBuf,
    clock: Clock,
    /// None: the library's default options (NULL), as the README's "absent" says.
    layout: Option<Layout>,
    workspace: Option<Workspace>,
    plan_ids: Vec<Option<String>>,
    problems: Vec<String>,
}

/// A step's field that is absent or null, or else of the expected type.
fn opt_str<'a>(step: &'a Json, key: &str) -> Result<Option<&'a str>, String> {
    match step.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("`{}` is not a string: {:?}", key, other)),
    }
}

fn req_str<'a>(step: &'a Json, key: &str) -> Result<&'a str, String> {
    opt_str(step, key)?.ok_or_else(|| format!("`{}` is missing", key))
}

fn flag(step: &Json, key: &str) -> Result<bool, String> {
    match step.get(key) {
        None | Some(Json::Null) => Ok(false),
        Some(Json::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("`{}` is not a bool: {:?}", key, other)),
    }
}

fn compact_options(step: &Json) -> Result<CompactOptions, String> {
    let mut options = CompactOptions::new().archive_oldest(flag(step, "archive_oldest")?);
    if let Some(target) = opt_str(step, "target")? {
        options = options.target(target);
    }
    Ok(options)
}

fn add_options(step: &Json) -> Result<AddOptions, String> {
    let mut options = AddOptions::new(req_str(step, "type")?).allow_long(flag(step, "allow_long")?);
    if let Some(reason) = opt_str(step, "reason")? {
        options = options.reason(reason);
    }
    if let Some(name) = opt_str(step, "name")? {
        options = options.name(name);
    }
    if let Some(area) = opt_str(step, "area")? {
        options = options.area(area);
    }
    Ok(options)
}

fn forget_options(step: &Json) -> Result<ForgetOptions, String> {
    let mut options = ForgetOptions::new().allow_broad_match(flag(step, "allow_broad_match")?);
    match opt_str(step, "mode")? {
        None => {}
        Some("soft") => options = options.mode(ForgetMode::Soft),
        Some("hard") => options = options.mode(ForgetMode::Hard),
        Some("purge") => options = options.mode(ForgetMode::Purge),
        Some(other) => return Err(format!("unknown forget mode {:?}", other)),
    }
    Ok(options)
}

fn opt_i32(step: &Json, key: &str) -> Result<Option<i32>, String> {
    match step.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(value) => value
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| format!("`{}` is not an int32: {:?}", key, value)),
    }
}

/// The README: `load` has `tier` (a number, or absent: 0 in C), `file` (or absent) and
/// `include_archive`. The safe API takes a tier or a file, never both or neither (`MK_E_ARG` in C).
fn load(
    ws: &mut Workspace,
    now: &Clock,
    step: &Json,
) -> Result<memkit::Result<CommandResult>, String> {
    let include_archive = flag(step, "include_archive")?;
    match (opt_i32(step, "tier")?, opt_str(step, "file")?) {
        (Some(tier), None) => Ok(ws.load_tier(now, tier, include_archive)),
        // --include-archive only lets a tier 5 load run; a file under memory/ARCHIVES/ needs
        // none (memkit.h), so load_file has no such flag.
        (None, Some(file)) if !include_archive => Ok(ws.load_file(now, file)),
        (None, Some(_)) => {
            Err("`include_archive` with a `file`: load_file has no such flag".into())
        }
        _ => Err("give exactly one of `tier` and `file`".into()),
    }
}

/// The README: `update` has `entry`, `event` (`verify`, `confirm`, `contradict`,
/// `resolve_keep`), `note` (or absent) and `confidence` (hundredths, or absent). The safe API
/// takes a note only with `contradict` and a confidence only with `resolve_keep`, as memkit.h
/// asks (NULL and -1 with the other events).
fn update_event(step: &Json) -> Result<UpdateEvent, String> {
    let note = opt_str(step, "note")?;
    let confidence = match opt_i32(step, "confidence")? {
        Some(c) => Some(u32::try_from(c).map_err(|_| format!("`confidence` {} is negative", c))?),
        None => None,
    };
    let event = req_str(step, "event")?;
    match (event, note, confidence) {
        ("verify", None, None) => Ok(UpdateEvent::Verify),
        ("confirm", None, None) => Ok(UpdateEvent::Confirm),
        ("contradict", Some(note), None) => Ok(UpdateEvent::Contradict {
            note: note.to_string(),
        }),
        ("contradict", None, _) => Err("`contradict` needs a `note`".into()),
        ("resolve_keep", None, confidence) => Ok(UpdateEvent::ResolveKeep { confidence }),
        ("verify" | "confirm", _, _) => Err(format!("`{}` takes no `note` or `confidence`", event)),
        ("contradict", Some(_), Some(_)) => Err("`contradict` takes no `confidence`".into()),
        ("resolve_keep", Some(_), _) => Err("`resolve_keep` takes no `note`".into()),
        (other, _, _) => Err(format!("unknown update event {:?}", other)),
    }
}

/// The README: `gate` has `text` and `confidence` (strings), `title`, `source` and `client`
/// (strings or absent) and `apply` (bool).
fn gate_candidate(step: &Json) -> Result<GateCandidate, String> {
    let mut candidate = GateCandidate::new(req_str(step, "text")?, req_str(step, "confidence")?);
    if let Some(title) = opt_str(step, "title")? {
        candidate = candidate.title(title);
    }
    if let Some(source) = opt_str(step, "source")? {
        candidate = candidate.source(source);
    }
    if let Some(client) = opt_str(step, "client")? {
        candidate = candidate.client(client);
    }
    Ok(candidate)
}

/// A gate step's `answers`: gate name -> the host's answer (mk_gate's forms). A gate it lacks is
/// abstained from.
fn gate_answers(step: &Json) -> Result<Vec<(String, String)>, String> {
    const GATES: [&str; 5] = ["VALUE", "ALIGNMENT", "REDUNDANCY", "FRESHNESS", "PLACEMENT"];
    match step.get("answers") {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Object(members)) => members
            .iter()
            .map(|(gate, answer)| {
                if !GATES.contains(&gate.as_str()) {
                    return Err(format!("`answers` names an unknown gate {:?}", gate));
                }
                let answer = answer
                    .as_str()
                    .ok_or_else(|| format!("the answer for {} is not a string", gate))?;
                Ok((gate.clone(), answer.to_string()))
            })
            .collect(),
        Some(other) => Err(format!("`answers` is not an object: {:?}", other)),
    }
}

/// Runs a gate step with a judge that answers from the step's `answers`; the question each gate
/// gets must be JSON naming that gate.
fn gate(ws: &mut Workspace, now: &Clock, step: &Json) -> Result<CommandResult, String> {
    let candidate = gate_candidate(step)?;
    let answers = gate_answers(step)?;
    let mut misasked = Vec::new();
    let mut judge = |gate: Gate, question: &str| -> Option<String> {
        let named = parse_json(question)
            .ok()
            .and_then(|q| q.get("gate").and_then(Json::as_str).map(str::to_string));
        if named.as_deref() != Some(gate.name()) {
            misasked.push(format!("{} was asked {:?}", gate, question));
        }
        answers
            .iter()
            .find(|(name, _)| name == gate.name())
            .map(|(_, answer)| answer.clone())
    };
    let result = ws
        .gate(now, &candidate, Some(&mut judge), flag(step, "apply")?)
        .map_err(|e| format!("the binding returned an error: {}", e))?;
    if !misasked.is_empty() {
        return Err(misasked.join("; "));
    }
    Ok(result)
}

/// A `tiers` step's `args` value for a text field of mk_tiers_options.
fn arg_text<'a>(key: &str, value: &'a Json) -> Result<&'a str, String> {
    value
        .as_str()
        .ok_or_else(|| format!("args.{} is a text field, not {:?}", key, value))
}

/// A `tiers` step's `args` value for an int64 field.
fn arg_int(key: &str, value: &Json) -> Result<i64, String> {
    value
        .as_i64()
        .ok_or_else(|| format!("args.{} is an int64 field, not {:?}", key, value))
}

/// A `tiers` step's `args` value for a flag field: `true` sets it (`false` leaves it unset).
fn arg_flag(key: &str, value: &Json) -> Result<bool, String> {
    value
        .as_bool()
        .ok_or_else(|| format!("args.{} is a flag field, not {:?}", key, value))
}

/// The README: a `tiers` step has `command` (the CLI's name) and `args`, whose keys are
/// mk_tiers_options field names; `confirm_plan_id` may be "$N", resolved by `resolve`. A key
/// that is not a field, or a value of the wrong type, fails the step rather than being dropped.
fn tiers_request(
    step: &Json,
    resolve: impl Fn(&str) -> Result<String, String>,
) -> Result<(TiersCommand, TiersOptions), String> {
    let name = req_str(step, "command")?;
    let command =
        TiersCommand::from_name(name).ok_or_else(|| format!("unknown tiers command {:?}", name))?;
    let args: &[(String, Json)] = match step.get("args") {
        None | Some(Json::Null) => &[],
        Some(Json::Object(members)) => members,
        Some(other) => return Err(format!("`args` is not an object: {:?}", other)),
    };
    let mut o = TiersOptions::new();
    for (key, value) in args {
        let k = key.as_str();
        o = match k {
            "content" => o.content(arg_text(k, value)?),
            "raw_content" => o.raw_content(arg_text(k, value)?),
            "extracted_content" => o.extracted_content(arg_text(k, value)?),
            "theme" => o.theme(arg_text(k, value)?),
            "template_name" => o.template_name(arg_text(k, value)?),
            "title" => o.title(arg_text(k, value)?),
            "entry_type" => o.entry_type(arg_text(k, value)?),
            "session_id" => o.session_id(arg_text(k, value)?),
            "tools_json" => o.tools_json(arg_text(k, value)?),
            "name" => o.name(arg_text(k, value)?),
            "csv_content" => o.csv_content(arg_text(k, value)?),
            "source_file" => o.source_file(arg_text(k, value)?),
            "description" => o.description(arg_text(k, value)?),
            "source_label" => o.source_label(arg_text(k, value)?),
            "columns_json" => o.columns_json(arg_text(k, value)?),
            "confirm_plan_id" => o.confirm_plan_id(resolve(arg_text(k, value)?)?),
            "recent_days" => o.recent_days(arg_int(k, value)?),
            "theme_limit" => o.theme_limit(arg_int(k, value)?),
            "max_tokens" => o.max_tokens(arg_int(k, value)?),
            "days_back" => o.days_back(arg_int(k, value)?),
            "limit" => o.limit(arg_int(k, value)?),
            "hours_back" => o.hours_back(arg_int(k, value)?),
            "head" => o.head(arg_int(k, value)?),
            "days" => o.days(arg_int(k, value)?),
            "no_log" => o.no_log(arg_flag(k, value)?),
            "promote_global" => o.promote_global(arg_flag(k, value)?),
            "append" => o.append(arg_flag(k, value)?),
            "replace" => o.replace(arg_flag(k, value)?),
            other => return Err(format!("args.{}: not a field of mk_tiers_options", other)),
        };
    }
    Ok((command, o))
}

/// The README: a `curated` step has `command` (the CLI's words) and `args`, whose keys are
/// mk_curated_options field names (`type` is the builder's `type_`); `confirm_plan_id` may be
/// "$N". A key that is not a field, or a value of the wrong type, fails the step.
fn curated_request(
    step: &Json,
    resolve: impl Fn(&str) -> Result<String, String>,
) -> Result<(CuratedCommand, CuratedOptions), String> {
    let name = req_str(step, "command")?;
    let command = CuratedCommand::from_name(name)
        .ok_or_else(|| format!("unknown curated command {:?}", name))?;
    let args: &[(String, Json)] = match step.get("args") {
        None | Some(Json::Null) => &[],
        Some(Json::Object(members)) => members,
        Some(other) => return Err(format!("`args` is not an object: {:?}", other)),
    };
    let mut o = CuratedOptions::new();
    for (key, value) in args {
        let k = key.as_str();
        o = match k {
            "workspace" => o.workspace(arg_text(k, value)?),
            "actor" => o.actor(arg_text(k, value)?),
            "name" => o.name(arg_text(k, value)?),
            "dst" => o.dst(arg_text(k, value)?),
            "query" => o.query(arg_text(k, value)?),
            "id" => o.id(arg_text(k, value)?),
            "type" => o.type_(arg_text(k, value)?),
            "body" => o.body(arg_text(k, value)?),
            "body_file" => o.body_file(arg_text(k, value)?),
            "description" => o.description(arg_text(k, value)?),
            "row_class" => o.row_class(arg_text(k, value)?),
            "status" => o.status(arg_text(k, value)?),
            "initiative" => o.initiative(arg_text(k, value)?),
            "project_ref" => o.project_ref(arg_text(k, value)?),
            "audience" => o.audience(arg_text(k, value)?),
            "origin_session" => o.origin_session(arg_text(k, value)?),
            "field" => o.field(arg_text(k, value)?),
            "content" => o.content(arg_text(k, value)?),
            "kind" => o.kind(arg_text(k, value)?),
            "file" => o.file(arg_text(k, value)?),
            "sort" => o.sort(arg_text(k, value)?),
            "order" => o.order(arg_text(k, value)?),
            "scope" => o.scope(arg_text(k, value)?),
            "threshold" => o.threshold(arg_text(k, value)?),
            "before" => o.before(arg_text(k, value)?),
            "source" => o.source(arg_text(k, value)?),
            "agent" => o.agent(arg_text(k, value)?),
            "result" => o.result(arg_text(k, value)?),
            "severity" => o.severity(arg_text(k, value)?),
            "payload" => o.payload(arg_text(k, value)?),
            "confirm_plan_id" => o.confirm_plan_id(resolve(arg_text(k, value)?)?),
            "max_chars" => o.max_chars(arg_int(k, value)?),
            "limit" => o.limit(arg_int(k, value)?),
            "max_depth" => o.max_depth(arg_int(k, value)?),
            "dry_run" => o.dry_run(arg_flag(k, value)?),
            "links" => o.links(arg_flag(k, value)?),
            "history" => o.history(arg_flag(k, value)?),
            "include_deleted" => o.include_deleted(arg_flag(k, value)?),
            "yes" => o.yes(arg_flag(k, value)?),
            "hard" => o.hard(arg_flag(k, value)?),
            "delete_link" => o.delete_link(arg_flag(k, value)?),
            "apply" => o.apply(arg_flag(k, value)?),
            "rollback" => o.rollback(arg_flag(k, value)?),
            other => return Err(format!("args.{}: not a field of mk_curated_options", other)),
        };
    }
    Ok((command, o))
}

/// The README: a `sync` step has `command` (the CLI's verb) and `args`, whose keys are
/// mk_sync_options field names; `confirm_plan` may be "$N". A key that is not a field, or a value
/// of the wrong type, fails the step.
fn sync_request(
    step: &Json,
    resolve: impl Fn(&str) -> Result<String, String>,
) -> Result<(SyncCommand, SyncOptions), String> {
    let name = req_str(step, "command")?;
    let command =
        SyncCommand::from_name(name).ok_or_else(|| format!("unknown sync command {:?}", name))?;
    let args: &[(String, Json)] = match step.get("args") {
        None | Some(Json::Null) => &[],
        Some(Json::Object(members)) => members,
        Some(other) => return Err(format!("`args` is not an object: {:?}", other)),
    };
    let mut o = SyncOptions::new();
    for (key, value) in args {
        let k = key.as_str();
        o = match k {
            "remote" => o.remote(arg_text(k, value)?),
            "conninfo" => o.conninfo(arg_text(k, value)?),
            "workspace_id" => o.workspace_id(arg_text(k, value)?),
            "id" => o.id(arg_text(k, value)?),
            "take" => o.take(arg_text(k, value)?),
            "confirm_plan" => o.confirm_plan(resolve(arg_text(k, value)?)?),
            "apply" => o.apply(arg_flag(k, value)?),
            other => return Err(format!("args.{}: not a field of mk_sync_options", other)),
        };
    }
    Ok((command, o))
}

fn json_u64(value: &Json, key: &str) -> Result<u64, String> {
    value
        .get(key)
        .and_then(Json::as_u64)
        .ok_or_else(|| format!("`{}` is not an unsigned number in {:?}", key, value))
}

fn expected_inbox_counts(value: &Json) -> Result<InboxCounts, String> {
    Ok(InboxCounts {
        inbox_items: json_u64(value, "inbox_items")?,
        empty_items: json_u64(value, "empty_items")?,
        duplicates: json_u64(value, "duplicates")?,
        tombstone_matches: json_u64(value, "tombstone_matches")?,
        candidates: json_u64(value, "candidates")?,
    })
}

fn expected_budget_rows(value: &Json) -> Result<Vec<BudgetRow>, String> {
    let rows = value.as_array().ok_or("budget_rows is not an array")?;
    rows.iter()
        .map(|row| {
            let state = row
                .get("state")
                .and_then(Json::as_i64)
                .ok_or_else(|| format!("no state in {:?}", row))?;
            Ok(BudgetRow {
                path: req_str(row, "path")?.to_string(),
                tokens: json_u64(row, "tokens")?,
                limit: json_u64(row, "limit")?,
                state: BudgetState::from_raw(state as i32),
            })
        })
        .collect()
}

/// Where two byte strings first differ, with some context, for a readable failure.
fn describe_difference(expected: &[u8], got: &[u8]) -> String {
    let at = expected
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.len().min(got.len()));
    let from = at.saturating_sub(40);
    let show = |bytes: &[u8]| {
        String::from_utf8_lossy(&bytes[from.min(bytes.len())..(at + 40).min(bytes.len())])
            .into_owned()
    };
    format!(
        "JSON differs at byte {} (expected {} bytes, got {}):\n\
         expected …{}…\n\
         got      …{}…",
        at,
        expected.len(),
        got.len(),
        show(expected),
        show(got)
    )
}

impl CaseRun {
    /// Runs step `n` and checks it; returns the Plan ID it made, for later "$N" references.
    fn step(&mut self, n: usize, step: &Json) -> Option<String> {
        let op = step
            .get("op")
            .and_then(Json::as_str)
            .unwrap_or("<no op>")
            .to_string();
        let label = format!("{} step {} ({})", self.name, n, op);
        let mut problems = Vec::new();
        let plan_id = match self.run_and_check(&op, step, &mut problems) {
            Ok(plan_id) => plan_id,
            Err(problem) => {
                problems.push(problem);
                None
            }
        };
        for problem in problems {
            self.problems.push(format!("{}: {}", label, problem));
        }
        plan_id
    }

    /// "$N" is step N's Plan ID; anything else is itself.
    fn resolve(&self, value: &str) -> Result<String, String> {
        if let Some(number) = value.strip_prefix('$') {
            let n: usize = number
                .parse()
                .map_err(|_| format!("bad reference {:?}", value))?;
            match self.plan_ids.get(n.wrapping_sub(1)) {
                Some(Some(id)) => Ok(id.clone()),
                Some(None) => Err(format!(
                    "{} refers to step {}, which made no plan",
                    value, n
                )),
                None => Err(format!("{} refers to a step that has not run", value)),
            }
        } else {
            Ok(value.to_string())
        }
    }

    fn run_and_check(
        &mut self,
        op: &str,
        step: &Json,
        problems: &mut Vec<String>,
    ) -> Result<Option<String>, String> {
        let expect = step.get("expect").ok_or("no expect")?;
        if let Json::Object(members) = expect {
            for (key, _) in members {
                let known = [
                    "exit_code",
                    "plan_id",
                    "applied",
                    "inbox_counts",
                    "budget_rows",
                    "json",
                ];
                if !known.contains(&key.as_str()) {
                    // An expectation this runner would ignore is a failure, not a pass.
                    problems.push(format!("unknown expectation `{}`", key));
                }
            }
        } else {
            return Err("expect is not an object".into());
        }
        let expected_json_file = expect
            .get("json")
            .and_then(Json::as_str)
            .ok_or("expect.json is missing")?;
        let expected_json = fs::read(self.case_dir.join(expected_json_file))
            .map_err(|e| format!("{}: {}", expected_json_file, e))?;

        if op == "units" {
            self.check_units(step, &expected_json, problems)?;
            return Ok(None);
        }

        let result = self.run_command(op, step)?;
        self.check_result(&result, expect, &expected_json, problems)?;
        Ok(result.plan_id().map(str::to_string))
    }

    fn run_command(&mut self, op: &str, step: &Json) -> Result<CommandResult, String> {
        if self.workspace.is_none() {
            let ws = match self.layout {
                None => Workspace::open(&self.root),
                Some(layout) => {
                    Workspace::open_with(&self.root, &WorkspaceOptions::new().layout(layout))
                }
            };
            let ws = ws.map_err(|e| format!("Workspace::open ({:?}): {}", self.layout, e))?;
            self.workspace = Some(ws);
        }
        let confirm = match opt_str(step, "confirm")? {
            Some(value) => Some(self.resolve(value)?),
            None => None,
        };
        let plan_id = match opt_str(step, "plan_id")? {
            Some(value) => Some(self.resolve(value)?),
            None => None,
        };
        let tiers = if op == "tiers" {
            Some(tiers_request(step, |value| self.resolve(value))?)
        } else {
            None
        };
        let curated = if op == "curated" {
            Some(curated_request(step, |value| self.resolve(value))?)
        } else {
            None
        };
        let sync = if op == "sync" {
            Some(sync_request(step, |value| self.resolve(value))?)
        } else {
            None
        };
        let need =
            |value: Option<String>, key: &str| value.ok_or_else(|| format!("`{}` is missing", key));
        let now = self.clock;
        let ws = self.workspace.as_mut().unwrap();
        let result = match op {
            "init" => ws.init(&now, flag(step, "extended")?),
            "status" => ws.status(&now),
            "check" => ws.check(&now),
            "plan_compaction" => ws.plan_compaction(&now, &compact_options(step)?),
            "apply_compaction" => {
                ws.apply_compaction(&now, &compact_options(step)?, &need(confirm, "confirm")?)
            }
            "add" => ws.add(&now, req_str(step, "message")?, &add_options(step)?),
            "plan_forget" => ws.plan_forget(&now, req_str(step, "topic")?, &forget_options(step)?),
            "apply_forget" => ws.apply_forget(
                &now,
                req_str(step, "topic")?,
                &forget_options(step)?,
                &need(confirm, "confirm")?,
            ),
            "plan_undo" => ws.plan_undo(&now, &need(plan_id, "plan_id")?),
            "apply_undo" => {
                ws.apply_undo(&now, &need(plan_id, "plan_id")?, &need(confirm, "confirm")?)
            }
            "recover" => ws.recover(&now, flag(step, "apply")?, flag(step, "rollback")?),
            "decay" => ws.decay(&now, opt_str(step, "file")?),
            "hygiene" => ws.hygiene(&now),
            "load" => load(ws, &now, step)?,
            "update" => ws.update(&now, req_str(step, "entry")?, &update_event(step)?),
            "gate" => return gate(ws, &now, step),
            "plan_memorybox_compact" => {
                ws.plan_memorybox_compact(&now, opt_str(step, "file")?, flag(step, "force")?)
            }
            "apply_memorybox_compact" => ws.apply_memorybox_compact(
                &now,
                opt_str(step, "file")?,
                flag(step, "force")?,
                &need(confirm, "confirm")?,
            ),
            "plan_promote" => ws.plan_promote(&now, req_str(step, "entry")?),
            "apply_promote" => {
                ws.apply_promote(&now, req_str(step, "entry")?, &need(confirm, "confirm")?)
            }
            "plan_archive_entry" => ws.plan_archive_entry(&now, req_str(step, "entry")?),
            "apply_archive_entry" => {
                ws.apply_archive_entry(&now, req_str(step, "entry")?, &need(confirm, "confirm")?)
            }
            "tiers" => {
                let (command, options) = tiers.expect("parsed above");
                ws.tiers_run(&now, command, &options)
            }
            "curated" => {
                let (command, options) = curated.expect("parsed above");
                // cli.py runs each step in the case's folder: a relative path the library
                // resolves against the working directory (--file, --body-file) must find the same
                // file. This test binary's other test touches no relative path.
                let cwd = std::env::current_dir().map_err(|e| format!("current_dir: {}", e))?;
                std::env::set_current_dir(&self.root).map_err(|e| format!("chdir: {}", e))?;
                let result = ws.curated_run(&now, command, &options);
                std::env::set_current_dir(cwd).map_err(|e| format!("chdir back: {}", e))?;
                result
            }
            "sync" => {
                let (command, options) = sync.expect("parsed above");
                // A relative `dir:PATH` remote names a folder of the working directory, which is
                // the case's folder for cli.py.
                let cwd = std::env::current_dir().map_err(|e| format!("current_dir: {}", e))?;
                std::env::set_current_dir(&self.root).map_err(|e| format!("chdir: {}", e))?;
                let result = ws.memorybox_sync(&now, command, &options);
                std::env::set_current_dir(cwd).map_err(|e| format!("chdir back: {}", e))?;
                result
            }
            other => return Err(format!("unknown op {:?}", other)),
        };
        result.map_err(|e| format!("the binding returned an error: {}", e))
    }

    fn check_result(
        &self,
        result: &CommandResult,
        expect: &Json,
        expected_json: &[u8],
        problems: &mut Vec<String>,
    ) -> Result<(), String> {
        if let Some(code) = expect.get("exit_code") {
            let code = code.as_i64().ok_or("expect.exit_code is not a number")?;
            if i64::from(result.exit_code()) != code {
                problems.push(format!(
                    "exit_code: expected {}, got {}",
                    code,
                    result.exit_code()
                ));
            }
        }
        if let Some(plan_id) = expect.get("plan_id") {
            let expected = match plan_id {
                Json::Null => None,
                Json::String(s) => Some(self.resolve(s)?),
                other => return Err(format!("expect.plan_id is {:?}", other)),
            };
            if result.plan_id() != expected.as_deref() {
                problems.push(format!(
                    "plan_id: expected {:?}, got {:?}",
                    expected,
                    result.plan_id()
                ));
            }
        }
        if let Some(applied) = expect.get("applied") {
            let applied = applied.as_bool().ok_or("expect.applied is not a bool")?;
            if result.applied() != applied {
                problems.push(format!(
                    "applied: expected {}, got {}",
                    applied,
                    result.applied()
                ));
            }
        }
        // The README: inbox_counts is present only for inbox compactions, so its absence expects
        // none; likewise budget_rows for status.
        let expected_counts = match expect.get("inbox_counts") {
            Some(value) => Some(expected_inbox_counts(value)?),
            None => None,
        };
        match result.inbox_counts() {
            Ok(got) if got == expected_counts => {}
            Ok(got) => problems.push(format!(
                "inbox_counts: expected {:?}, got {:?}",
                expected_counts, got
            )),
            Err(e) => problems.push(format!("inbox_counts: {}", e)),
        }
        let expected_rows = match expect.get("budget_rows") {
            Some(value) => expected_budget_rows(value)?,
            None => Vec::new(),
        };
        match result.budget_rows() {
            Ok(got) if got == expected_rows => {}
            Ok(got) => problems.push(format!(
                "budget_rows: expected {:?}, got {:?}",
                expected_rows, got
            )),
            Err(e) => problems.push(format!("budget_rows: {}", e)),
        }

        let json = result.json().map_err(|e| format!("json(): {}", e))?;
        if json.as_bytes() != expected_json {
            problems.push(describe_difference(expected_json, json.as_bytes()));
        }
        let mut streamed = Vec::new();
        result
            .write_json(|piece| {
                streamed.extend_from_slice(piece);
                Ok(())
            })
            .map_err(|e| format!("write_json(): {}", e))?;
        if streamed != json.as_bytes() {
            problems.push(format!(
                "write_json streamed {} bytes that differ from json()",
                streamed.len()
            ));
        }

        // The typed accessors and the JSON must agree (STYLE B5).
        let envelope = parse_json(&json).map_err(|e| format!("the result's JSON: {}", e))?;
        let plan = envelope.get("data").and_then(|data| data.get("plan"));
        let operations = match plan {
            Some(plan @ Json::Object(_)) => plan
                .get("operations")
                .and_then(Json::as_array)
                .map_or(0, |ops| ops.len()),
            _ => 0,
        } as u64;
        if result.plan_operation_count() != operations {
            problems.push(format!(
                "plan_operation_count: {} but the JSON's plan has {} operation(s)",
                result.plan_operation_count(),
                operations
            ));
        }
        Ok(())
    }

    fn check_units(
        &self,
        step: &Json,
        expected_json: &[u8],
        problems: &mut Vec<String>,
    ) -> Result<(), String> {
        let file = req_str(step, "file")?;
        let bytes = fs::read(self.root.join(file)).map_err(|e| format!("{}: {}", file, e))?;
        let doc = Document::parse(&bytes).map_err(|e| format!("Document::parse: {}", e))?;
        let json = doc.json().map_err(|e| format!("json(): {}", e))?;
        if json.as_bytes() != expected_json {
            problems.push(describe_difference(expected_json, json.as_bytes()));
        }

        // The typed units and the JSON's units must agree, and tile the file without gaps.
        let units = doc.units().map_err(|e| format!("units(): {}", e))?;
        let data = parse_json(&json).map_err(|e| format!("the document's JSON: {}", e))?;
        let listed: &[Json] = match data.get("units") {
            Some(Json::Array(items)) => items,
            Some(Json::Null) => &[],
            other => return Err(format!("the document's JSON has units {:?}", other)),
        };
        if units.len() != listed.len() {
            problems.push(format!(
                "{} typed unit(s), {} in the JSON",
                units.len(),
                listed.len()
            ));
        }
        for (i, (unit, listed)) in units.iter().zip(listed).enumerate() {
            let kind = match unit.kind {
                UnitKind::FrontMatter => "front_matter",
                UnitKind::Bullet => "bullet_unit",
                UnitKind::Fence => "fence",
                UnitKind::Comment => "comment",
                UnitKind::Heading => "heading",
                UnitKind::Blank => "blank",
                UnitKind::Text => "text",
                UnitKind::Other(_) => "<other>",
            };
            let lines = (
                listed.get("first_line").and_then(Json::as_u64),
                listed.get("last_line").and_then(Json::as_u64),
            );
            if listed.get("kind").and_then(Json::as_str) != Some(kind)
                || lines
                    != (
                        Some(u64::from(unit.first_line)),
                        Some(u64::from(unit.last_line)),
                    )
            {
                problems.push(format!("unit {}: typed {:?}, JSON {:?}", i, unit, listed));
            }
            let expected_begin = if i == 0 { 0 } else { units[i - 1].end };
            if unit.begin != expected_begin || unit.end <= unit.begin {
                problems.push(format!(
                    "unit {}: bytes {}..{} after {}",
                    i, unit.begin, unit.end, expected_begin
                ));
            }
        }
        if let Some(last) = units.last() {
            if last.end != bytes.len() as u64 {
                problems.push(format!(
                    "the units end at byte {} of {}",
                    last.end,
                    bytes.len()
                ));
            }
        }
        Ok(())
    }
}
