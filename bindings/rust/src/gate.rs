//! The gate section of memkit.h (`mk_gate`, `mk_judge_fn`, `mk_gate_candidate`): what
//! [`Workspace::gate`](crate::Workspace::gate) asks the host, and what the host wants remembered.

use crate::c_text::{ptr_or_null, text_cstring};
use crate::error::Result;
use crate::sys;
use std::ffi::CString;
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
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

/// What the host wants remembered, the candidate of [`Workspace::gate`](crate::Workspace::gate)
/// (`mk_gate_candidate`): its text and confidence (required), and optionally a title, a source
/// and a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateCandidate {
    text: String,
    confidence: String,
    title: Option<String>,
    source: Option<String>,
    client: Option<String>,
}

impl GateCandidate {
    /// `--text TEXT --confidence C`: `confidence` in the Confidence form, e.g. `"0.85"`, `"1"`
    /// (0 to 1 with at most two decimals; another form gives a result with a fatal finding).
    pub fn new(text: impl Into<String>, confidence: impl Into<String>) -> GateCandidate {
        GateCandidate {
            text: text.into(),
            confidence: confidence.into(),
            title: None,
            source: None,
            client: None,
        }
    }

    /// `--title`: required for section files (e.g. memory/PATTERNS.md) and memory/SESSION_LOG.md.
    pub fn title(mut self, title: impl Into<String>) -> GateCandidate {
        self.title = Some(title.into());
        self
    }

    /// `--source`: becomes the entry's `Source:` line.
    pub fn source(mut self, source: impl Into<String>) -> GateCandidate {
        self.source = Some(source.into());
        self
    }

    /// `--client`: becomes the entry's `Client:` line.
    pub fn client(mut self, client: impl Into<String>) -> GateCandidate {
        self.client = Some(client.into());
        self
    }

    /// The C struct and the strings it points into (`text` points into `self`); both must
    /// outlive the call.
    #[doc(alias = "mk_gate_candidate_init")]
    pub(crate) fn to_raw(&self) -> Result<(sys::mk_gate_candidate, [Option<CString>; 4])> {
        let optional = |what: &str, text: &Option<String>| match text {
            Some(text) => text_cstring(what, text).map(Some),
            None => Ok(None),
        };
        let strings = [
            Some(text_cstring("candidate.confidence", &self.confidence)?),
            optional("candidate.title", &self.title)?,
            optional("candidate.source", &self.source)?,
            optional("candidate.client", &self.client)?,
        ];
        let mut raw = sys::mk_gate_candidate {
            version: 0,
            text: ptr::null(),
            text_size: 0,
            confidence: ptr::null(),
            title: ptr::null(),
            source: ptr::null(),
            client: ptr::null(),
        };
        // SAFETY: `raw` is a valid struct to fill.
        unsafe { sys::mk_gate_candidate_init(&mut raw) };
        raw.text = self.text.as_ptr() as *const c_char;
        raw.text_size = self.text.len();
        raw.confidence = ptr_or_null(&strings[0]);
        raw.title = ptr_or_null(&strings[1]);
        raw.source = ptr_or_null(&strings[2]);
        raw.client = ptr_or_null(&strings[3]);
        Ok((raw, strings))
    }
}

/// The host's judgement, as [`Workspace::gate`](crate::Workspace::gate) takes it: called with
/// the gate and its question (the JSON object `{"candidate", "categories", "category",
/// "category_entries", "gate", "near_duplicates"}`), it returns the answer's text, or `None` to
/// abstain (the run stops there with NEEDS_JUDGEMENT).
pub type Judge<'a> = dyn FnMut(Gate, &str) -> Option<String> + 'a;

/// What mk_workspace_gate's payload points at: the host's judge for the whole call.
pub(crate) struct JudgeCall<'a, 'b> {
    pub(crate) judge: &'a mut Judge<'b>,
}

/// The `mk_judge_fn` handed to mk_workspace_gate. No panic may unwind into C++: a panicking
/// judge (or a question that is not UTF-8, or a failed answer write) returns MK_E_CALLBACK, which
/// is neither MK_JUDGE_ANSWER nor MK_JUDGE_ABSTAIN, so the result carries MK-BOX-005.
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
    // SAFETY: payload is the &mut JudgeCall that Workspace::gate passed, alive for the whole call.
    let call = &mut *(payload as *mut JudgeCall<'_, '_>);
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
    let judge = &mut call.judge;
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
