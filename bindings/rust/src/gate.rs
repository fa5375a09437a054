//! The judge of memkit.h (`mk_gate`, `mk_judge_fn`): what `memorybox gate` asks the host, and
//! the host's closure that answers it.

use crate::sys;
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::slice;
use std::str;

/// The five gates of `memorybox gate`, in the order they run (`mk_gate`, spec memorybox.md §4).
/// The judge answers each with the text form its variant names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gate {
    /// Does this change how the agent acts? `"yes"` or `"no"`.
    #[doc(alias = "MK_GATE_VALUE")]
    Value,
    /// `"existing <category>"`, `"new <name>"` or `"none"`.
    #[doc(alias = "MK_GATE_ALIGNMENT")]
    Alignment,
    /// `"<entry ID>"` (already captured there) or `"none"`.
    #[doc(alias = "MK_GATE_REDUNDANCY")]
    Redundancy,
    /// `"stable"` or `"time_sensitive <YYYY-MM-DD>"` (a date later than today).
    #[doc(alias = "MK_GATE_FRESHNESS")]
    Freshness,
    /// `"<tier> <file>"`, e.g. `"2 memory/LONG_TERM.md"`.
    #[doc(alias = "MK_GATE_PLACEMENT")]
    Placement,
    /// A gate a newer library asks about that this binding does not know.
    Other(i32),
}

impl Gate {
    /// The gate an `mk_gate` value stands for.
    pub fn from_raw(gate: sys::mk_gate) -> Gate {
        match gate {
            sys::MK_GATE_VALUE => Gate::Value,
            sys::MK_GATE_ALIGNMENT => Gate::Alignment,
            sys::MK_GATE_REDUNDANCY => Gate::Redundancy,
            sys::MK_GATE_FRESHNESS => Gate::Freshness,
            sys::MK_GATE_PLACEMENT => Gate::Placement,
            other => Gate::Other(other),
        }
    }

    /// The `MK_GATE_*` value.
    pub fn as_raw(self) -> sys::mk_gate {
        match self {
            Gate::Value => sys::MK_GATE_VALUE,
            Gate::Alignment => sys::MK_GATE_ALIGNMENT,
            Gate::Redundancy => sys::MK_GATE_REDUNDANCY,
            Gate::Freshness => sys::MK_GATE_FRESHNESS,
            Gate::Placement => sys::MK_GATE_PLACEMENT,
            Gate::Other(other) => other,
        }
    }

    /// The gate's name as the question's `"gate"` and the result's JSON spell it: `"VALUE"`,
    /// `"ALIGNMENT"`, `"REDUNDANCY"`, `"FRESHNESS"` or `"PLACEMENT"` (`"UNKNOWN"` for
    /// [`Gate::Other`]; its question still names it).
    pub fn name(self) -> &'static str {
        match self {
            Gate::Value => "VALUE",
            Gate::Alignment => "ALIGNMENT",
            Gate::Redundancy => "REDUNDANCY",
            Gate::Freshness => "FRESHNESS",
            Gate::Placement => "PLACEMENT",
            Gate::Other(_) => "UNKNOWN",
        }
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The host's judgement, as [`Request::judge`](crate::Request::judge) and the `memorybox gate`
/// builder take it: called on the running thread with the gate and its question (the JSON object
/// `{"candidate", "categories", "category", "category_entries", "gate", "near_duplicates"}`), it
/// returns the answer's text in its gate's form, or `None` to abstain (the run stops there with
/// NEEDS_JUDGEMENT). A panic in it is caught and fails the gate with the fatal finding
/// MK-BOX-005, kept on the result (exit code 2), never unwinding into C. It must not run a
/// command on its own workspace (memkit.h): such a run is refused with `MK_E_ARG`.
///
/// ```
/// # let tmp = std::env::temp_dir().join(format!("memkit-gate-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&tmp).unwrap();
/// use memkit::{Clock, Gate, Layout, Workspace, WorkspaceOptions};
///
/// let now = Clock::parse("2026-11-30T10:00:00+01:00")?;
/// let options = WorkspaceOptions::new().layout(Layout::MemoryBox);
/// let ws = Workspace::open_with(&tmp, &options)?; // an agent root: brain/, memory/
/// ws.memorybox_init().run(&now)?;
/// # std::fs::write(tmp.join("memory/LONG_TERM.md"), "# LONG_TERM\n\n## Tooling\n").unwrap();
/// let judge = |gate: Gate, _question: &str| match gate {
///     Gate::Value => Some("yes".to_string()),
///     Gate::Alignment => Some("existing Tooling".to_string()),
///     Gate::Redundancy => Some("none".to_string()),
///     Gate::Freshness => Some("stable".to_string()),
///     Gate::Placement => Some("2 memory/LONG_TERM.md".to_string()),
///     Gate::Other(_) => None, // abstain
/// };
/// let candidate = || ws.memorybox_gate().text("Deploys go through staging").confidence(0.85);
/// let dry = candidate().judge(judge).run(&now)?; // WRITE, but writes nothing
/// assert!(dry.json()?.contains("\"outcome\":\"WRITE\""));
/// let done = candidate().judge(judge).apply(true).run(&now)?; // under ## Tooling
/// assert!(done.applied());
/// let stopped = candidate().apply(true).run(&now)?; // no judge: stops at VALUE
/// assert!(stopped.json()?.contains("\"stopped_at\":\"VALUE\""));
/// # drop(ws);
/// # std::fs::remove_dir_all(&tmp).unwrap();
/// # Ok::<(), memkit::Error>(())
/// ```
#[doc(alias = "mk_judge_fn")]
pub type Judge<'a> = dyn FnMut(Gate, &str) -> Option<String> + 'a;

/// The `mk_judge_fn` handed to mk_request_set_judge; its payload is the `&mut Box<Judge>` that
/// [`Request::run`](crate::Request::run) keeps alive for the whole run. No panic may unwind into
/// C++: a panicking judge (or a question that is not UTF-8, or a failed answer write) returns
/// MK_E_CALLBACK, which is neither MK_JUDGE_ANSWER nor MK_JUDGE_ABSTAIN, so the result carries
/// MK-BOX-005.
pub(crate) unsafe extern "C" fn judge_trampoline(
    gate: sys::mk_gate,
    question_json: *const c_char,
    question_size: usize,
    answer: sys::mk_write_fn,
    answer_payload: *mut c_void,
    payload: *mut c_void,
) -> i32 {
    if payload.is_null() {
        return sys::MK_E_CALLBACK;
    }
    // SAFETY: payload is the &mut Box<Judge> that Request::run passed, alive for the whole run.
    let judge = &mut *(payload as *mut Box<Judge<'_>>);
    let question: &[u8] = if question_size == 0 || question_json.is_null() {
        &[]
    } else {
        // SAFETY: the library passes `question_size` readable bytes for this call.
        slice::from_raw_parts(question_json as *const u8, question_size)
    };
    let question = match str::from_utf8(question) {
        Ok(question) => question,
        Err(_) => return sys::MK_E_CALLBACK,
    };
    match panic::catch_unwind(AssertUnwindSafe(|| judge(Gate::from_raw(gate), question))) {
        Ok(Some(text)) => {
            let write = match answer {
                Some(write) => write,
                None => return sys::MK_E_CALLBACK,
            };
            let status = write(text.as_ptr() as *const c_char, text.len(), answer_payload);
            if status == sys::MK_OK {
                sys::MK_JUDGE_ANSWER
            } else if status < 0 {
                status
            } else {
                sys::MK_E_CALLBACK
            }
        }
        Ok(None) => sys::MK_JUDGE_ABSTAIN,
        Err(panic) => {
            // Dropping a payload can itself panic; forgetting it keeps the unwind out of C++.
            std::mem::forget(panic);
            sys::MK_E_CALLBACK
        }
    }
}
