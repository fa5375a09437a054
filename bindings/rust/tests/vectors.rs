//! The shared test vectors (tests/vectors/README.md), run through the Rust binding: every case the
//! folder holds, every step, compared with the committed expectations (written by the CLI) byte
//! for byte. Each step is a request, its arguments set by name through the binding's one request
//! path; a gate's answers come from the binding's judge, where the CLI takes flags.
mod common;

use common::{copy_dir, parse_json, Json, TempDir};
use memkit::{
    BudgetRow, BudgetState, Clock, CommandResult, Document, Gate, InboxCounts, Layout, Request,
    UnitKind, Workspace, WorkspaceOptions,
};
use std::cell::RefCell;
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

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

/// A step's request (tests/vectors/README.md): `run` names the command, each of `args` is set by
/// its JSON type (text, integer, flag, list of strings; "$N" is step N's Plan ID), and a gate's
/// `answers` come from a judge, which also checks that each question is JSON naming its gate.
fn request_of<'w>(
    ws: &'w Workspace,
    step: &Json,
    resolve: &dyn Fn(&str) -> Result<String, String>,
    misasked: &Rc<RefCell<Vec<String>>>,
) -> Result<Request<'w>, String> {
    let run = req_str(step, "run")?;
    // "search": a command without a verb is its group alone.
    let (group, verb) = run.split_once(' ').unwrap_or((run, ""));
    let mut request = ws.request(group, verb);
    let args: &[(String, Json)] = match step.get("args") {
        None | Some(Json::Null) => &[],
        Some(Json::Object(members)) => members,
        Some(other) => return Err(format!("`args` is not an object: {:?}", other)),
    };
    for (name, value) in args {
        request = match value {
            Json::String(text) => request.string(name, resolve(text)?),
            Json::Bool(on) => request.bool(name, *on),
            Json::Number(_) => request.int(name, value.as_i64().ok_or("an integer")?),
            Json::Array(items) => {
                let items: Option<Vec<&str>> = items.iter().map(Json::as_str).collect();
                request.list(
                    name,
                    items.ok_or_else(|| format!("args.{}: not strings", name))?,
                )
            }
            other => return Err(format!("args.{}: {:?} is no argument value", name, other)),
        };
    }
    if step.get("answers").is_none() {
        return Ok(request);
    }
    let answers = gate_answers(step)?;
    let misasked = Rc::clone(misasked);
    Ok(request.judge(move |gate: Gate, question: &str| {
        let named = parse_json(question)
            .ok()
            .and_then(|q| q.get("gate").and_then(Json::as_str).map(str::to_string));
        if named.as_deref() != Some(gate.name()) {
            misasked
                .borrow_mut()
                .push(format!("{} was asked {:?}", gate, question));
        }
        answers
            .iter()
            .find(|(name, _)| name == gate.name())
            .map(|(_, answer)| answer.clone())
    }))
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
        // A request step names its command in `run`; a document step has `op: "units"`.
        let op = opt_str(step, "run")
            .ok()
            .flatten()
            .or_else(|| opt_str(step, "op").ok().flatten())
            .unwrap_or("<no run>")
            .to_string();
        let label = format!("{} step {} ({})", self.name, n, op);
        let mut problems = Vec::new();
        let plan_id = match self.run_and_check(step, &mut problems) {
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

        if opt_str(step, "op")? == Some("units") {
            self.check_units(step, &expected_json, problems)?;
            return Ok(None);
        }

        let result = self.run_command(step)?;
        self.check_result(&result, expect, &expected_json, problems)?;
        Ok(result.plan_id().map(str::to_string))
    }

    fn run_command(&mut self, step: &Json) -> Result<CommandResult, String> {
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
        let ws = self.workspace.as_ref().unwrap();
        let misasked = Rc::new(RefCell::new(Vec::new()));
        let request = request_of(ws, step, &|value| self.resolve(value), &misasked)?;
        // cli.py runs each step in the case's folder: a relative path the library resolves
        // against the working directory (a curated `file`, tiers' `source-file`, a `dir:`
        // remote) must find the same file. This test binary's other test touches no relative path.
        let cwd = std::env::current_dir().map_err(|e| format!("current_dir: {}", e))?;
        std::env::set_current_dir(&self.root).map_err(|e| format!("chdir: {}", e))?;
        let result = request.run(&self.clock);
        std::env::set_current_dir(cwd).map_err(|e| format!("chdir back: {}", e))?;
        let misasked = misasked.borrow();
        if !misasked.is_empty() {
            return Err(misasked.join("; "));
        }
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
