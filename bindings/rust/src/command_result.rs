//! Section - Results of memkit.h: one command's outcome, as JSON and as typed values.

use crate::buffer::Buf;
use crate::error::{check, Error, Result};
use crate::sys;
use std::ffi::CStr;
use std::fmt;
use std::io;
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::slice;

/// The counts of an inbox compaction (`mk_inbox_counts`, spec compaction.md §8).
/// `inbox_items == empty_items + duplicates + tombstone_matches + candidates`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct InboxCounts {
    pub inbox_items: u64,
    pub empty_items: u64,
    pub duplicates: u64,
    pub tombstone_matches: u64,
    pub candidates: u64,
}

/// A file's budget state in a status report (`mk_budget_state`, spec compaction.md §5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BudgetState {
    #[doc(alias = "MK_BUDGET_OK")]
    Ok,
    #[doc(alias = "MK_BUDGET_NEAR_LIMIT")]
    NearLimit,
    #[doc(alias = "MK_BUDGET_OVER_BUDGET")]
    OverBudget,
    #[doc(alias = "MK_BUDGET_MISSING")]
    Missing,
    #[doc(alias = "MK_BUDGET_NOT_ENABLED")]
    NotEnabled,
    /// A state a newer library reports that this binding does not know.
    Other(i32),
}

impl BudgetState {
    /// The state an `mk_budget_state` value stands for.
    pub fn from_raw(state: sys::mk_budget_state) -> BudgetState {
        match state {
            sys::MK_BUDGET_OK => BudgetState::Ok,
            sys::MK_BUDGET_NEAR_LIMIT => BudgetState::NearLimit,
            sys::MK_BUDGET_OVER_BUDGET => BudgetState::OverBudget,
            sys::MK_BUDGET_MISSING => BudgetState::Missing,
            sys::MK_BUDGET_NOT_ENABLED => BudgetState::NotEnabled,
            other => BudgetState::Other(other),
        }
    }

    /// The `MK_BUDGET_*` value.
    pub fn as_raw(self) -> sys::mk_budget_state {
        match self {
            BudgetState::Ok => sys::MK_BUDGET_OK,
            BudgetState::NearLimit => sys::MK_BUDGET_NEAR_LIMIT,
            BudgetState::OverBudget => sys::MK_BUDGET_OVER_BUDGET,
            BudgetState::Missing => sys::MK_BUDGET_MISSING,
            BudgetState::NotEnabled => sys::MK_BUDGET_NOT_ENABLED,
            BudgetState::Other(other) => other,
        }
    }
}

/// One file's row of a status report (`mk_budget_row`), its path copied out of the result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BudgetRow {
    /// Relative to the memory directory.
    pub path: String,
    /// 0 for a missing file.
    pub tokens: u64,
    /// 0 when the file has no budget.
    pub limit: u64,
    pub state: BudgetState,
}

/// The outcome of one command (`mk_result`): the result the CLI prints for the same arguments
/// and clock. Check [`exit_code`](CommandResult::exit_code): a command whose findings stop it
/// still returns a result.
pub struct CommandResult {
    pub(crate) ptr: NonNull<sys::mk_result>,
}

// memkit.h: "The outcome of one command. Immutable: safe to share across threads."
unsafe impl Send for CommandResult {}
unsafe impl Sync for CommandResult {}

/// What mk_result_write_json's payload points at: the host's writer, and why it stopped.
struct JsonSink<'a> {
    write: &'a mut dyn FnMut(&[u8]) -> io::Result<()>,
    failure: Option<String>,
}

/// The `mk_write_fn` handed to mk_result_write_json. No panic or error may unwind into C++:
/// both become MK_E_CALLBACK, and the reason waits in the sink for the caller's Error.
unsafe extern "C" fn write_json_piece(
    data: *const c_char,
    size: usize,
    payload: *mut c_void,
) -> sys::mk_status {
    // SAFETY: payload is the &mut JsonSink that write_json passed, alive for the whole call.
    let sink = &mut *(payload as *mut JsonSink<'_>);
    let piece: &[u8] = if size == 0 || data.is_null() {
        &[]
    } else {
        // SAFETY: the library passes `size` readable bytes at `data` for this call.
        slice::from_raw_parts(data as *const u8, size)
    };
    let write = &mut sink.write;
    match panic::catch_unwind(AssertUnwindSafe(|| write(piece))) {
        Ok(Ok(())) => sys::MK_OK,
        Ok(Err(error)) => {
            sink.failure = Some(format!("the write callback failed: {}", error));
            sys::MK_E_CALLBACK
        }
        Err(panic) => {
            let reason = if let Some(text) = panic.downcast_ref::<&str>() {
                (*text).to_string()
            } else if let Some(text) = panic.downcast_ref::<String>() {
                text.clone()
            } else {
                "a non-string payload".to_string()
            };
            // Dropping a payload can itself panic; forgetting it keeps the unwind out of C++.
            std::mem::forget(panic);
            sink.failure = Some(format!("the write callback panicked: {}", reason));
            sys::MK_E_CALLBACK
        }
    }
}

impl CommandResult {
    /// The exit code the CLI gives for this result: 0 success (possibly with review), 1 a
    /// domain failure, 2 a blocker or a fatal error.
    #[doc(alias = "mk_result_exit_code")]
    pub fn exit_code(&self) -> i32 {
        // SAFETY (every accessor below): self.ptr is a live result.
        unsafe { sys::mk_result_exit_code(self.ptr.as_ptr()) }
    }

    /// The result envelope: the bytes `memkit ... --format json` prints, without the final
    /// newline.
    #[doc(alias = "mk_result_json")]
    pub fn json(&self) -> Result<String> {
        let mut buf = Buf::new();
        check(unsafe { sys::mk_result_json(&mut buf.0, self.ptr.as_ptr()) })?;
        buf.to_string("mk_result_json")
    }

    /// Streams the envelope of [`json`](CommandResult::json) to `write` in pieces of about
    /// 64 KiB, in order, without holding all of it. An error returned by `write`, or a panic
    /// in it, stops the writer: the call then fails with `MK_E_CALLBACK` (-50) and a message
    /// naming the cause.
    #[doc(alias = "mk_result_write_json")]
    pub fn write_json<F>(&self, mut write: F) -> Result<()>
    where
        F: FnMut(&[u8]) -> io::Result<()>,
    {
        let mut sink = JsonSink {
            write: &mut write,
            failure: None,
        };
        let status = unsafe {
            sys::mk_result_write_json(
                self.ptr.as_ptr(),
                Some(write_json_piece),
                &mut sink as *mut JsonSink<'_> as *mut c_void,
            )
        };
        if status == sys::MK_OK {
            return Ok(());
        }
        let error = Error::last(status);
        match sink.failure {
            Some(failure) if error.message().is_empty() => Err(Error::new(status, failure)),
            Some(failure) => Err(Error::new(
                status,
                format!("{} ({})", error.message(), failure),
            )),
            None => Err(error),
        }
    }

    /// Streams the envelope into an [`io::Write`] (see [`write_json`](CommandResult::write_json)).
    #[doc(alias = "mk_result_write_json")]
    pub fn write_json_to<W: io::Write>(&self, writer: &mut W) -> Result<()> {
        self.write_json(|piece| writer.write_all(piece))
    }

    /// The Plan ID the result shows or applied (16 lowercase hex digits), or `None` when the
    /// command made no plan (nothing to apply, or a finding stopped it).
    #[doc(alias = "mk_result_plan_id")]
    pub fn plan_id(&self) -> Option<&str> {
        let id = unsafe { sys::mk_result_plan_id(self.ptr.as_ptr()) };
        if id.is_null() {
            return None;
        }
        // SAFETY: NUL-terminated and borrowed from the result, which outlives the &str.
        let id = unsafe { CStr::from_ptr(id) };
        // A Plan ID is ASCII hex; anything else would be a library bug worth seeing, not hiding.
        Some(
            id.to_str()
                .expect("mk_result_plan_id returned a Plan ID that is not UTF-8"),
        )
    }

    /// Whether the result's plan (or additive write) reached the disk.
    #[doc(alias = "mk_result_applied")]
    pub fn applied(&self) -> bool {
        unsafe { sys::mk_result_applied(self.ptr.as_ptr()) != 0 }
    }

    /// How many files the result's plan writes or deletes (0 without a plan).
    #[doc(alias = "mk_result_plan_operation_count")]
    pub fn plan_operation_count(&self) -> u64 {
        unsafe { sys::mk_result_plan_operation_count(self.ptr.as_ptr()) }
    }

    /// The counts of an inbox compaction, or `None` when the result is no inbox compaction
    /// (another command, `--target`, or a finding stopped it before counting).
    #[doc(alias = "mk_result_inbox_counts")]
    pub fn inbox_counts(&self) -> Result<Option<InboxCounts>> {
        let mut raw = sys::mk_inbox_counts::default();
        let status = unsafe { sys::mk_result_inbox_counts(&mut raw, self.ptr.as_ptr()) };
        if status == sys::MK_E_NOT_FOUND {
            return Ok(None);
        }
        check(status)?;
        Ok(Some(InboxCounts {
            inbox_items: raw.inbox_items,
            empty_items: raw.empty_items,
            duplicates: raw.duplicates,
            tombstone_matches: raw.tombstone_matches,
            candidates: raw.candidates,
        }))
    }

    /// The number of file rows of a custodian status result, else 0 (a MemoryBox status has
    /// line budgets: read them from the JSON).
    #[doc(alias = "mk_result_budget_row_count")]
    pub fn budget_row_count(&self) -> u64 {
        unsafe { sys::mk_result_budget_row_count(self.ptr.as_ptr()) }
    }

    /// One file row of a status result, in the report's order; `index` below
    /// [`budget_row_count`](CommandResult::budget_row_count), else `MK_E_ARG`.
    #[doc(alias = "mk_result_budget_row")]
    pub fn budget_row(&self, index: u64) -> Result<BudgetRow> {
        let mut raw = sys::mk_budget_row {
            path: ptr::null(),
            tokens: 0,
            limit: 0,
            state: 0,
        };
        check(unsafe { sys::mk_result_budget_row(&mut raw, self.ptr.as_ptr(), index) })?;
        if raw.path.is_null() {
            return Err(Error::new(
                sys::MK_E_INTERNAL,
                "mk_result_budget_row gave a NULL path",
            ));
        }
        // SAFETY: NUL-terminated, borrowed from the result, copied before it can go.
        let path = unsafe { CStr::from_ptr(raw.path) };
        let path = path
            .to_str()
            .map_err(|_| Error::new(sys::MK_E_UTF8, "mk_budget_row.path: not UTF-8"))?;
        Ok(BudgetRow {
            path: path.to_string(),
            tokens: raw.tokens,
            limit: raw.limit,
            state: BudgetState::from_raw(raw.state),
        })
    }

    /// Every file row of a custodian status result, in the report's order (empty for other
    /// commands and for a MemoryBox status).
    #[doc(alias = "mk_result_budget_row")]
    pub fn budget_rows(&self) -> Result<Vec<BudgetRow>> {
        (0..self.budget_row_count())
            .map(|i| self.budget_row(i))
            .collect()
    }

    /// Destroys the result now; dropping it does the same.
    #[doc(alias = "mk_result_destroy")]
    pub fn close(self) {}

    /// The `mk_result*` for calls into [`sys`]; it stays owned by `self`.
    pub fn as_raw(&self) -> *const sys::mk_result {
        self.ptr.as_ptr()
    }
}

impl Drop for CommandResult {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a command and is destroyed only here.
        unsafe { sys::mk_result_destroy(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for CommandResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CommandResult")
            .field("exit_code", &self.exit_code())
            .field("plan_id", &self.plan_id())
            .field("applied", &self.applied())
            .finish()
    }
}
