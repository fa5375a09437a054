//! Section - Requests of memkit.h: one command of the command table, its arguments set by name,
//! run on a workspace. The generated builders ([`commands`](crate::commands)) are typed faces
//! of this one door, so an argument the table gains reaches the library with no hand edit here.

use crate::c_text::{c_string, path_bytes};
use crate::clock::Clock;
use crate::command_result::CommandResult;
use crate::error::{check, Error, Result};
use crate::gate::{judge_trampoline, Gate, Judge};
use crate::sys;
use crate::workspace::Workspace;
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::path::Path;
use std::ptr;

/// A value of a command argument for [`Workspace::run`] and [`Request::arg`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// Any argument but a flag: text, a path, a time, JSON, or a number as the CLI writes it.
    Text(&'a str),
    /// An integer or number argument.
    Int(i64),
    /// A flag: given or not.
    Flag(bool),
    /// A JSON argument taking a list of strings (`tools`, `columns-json`), sent as a JSON array.
    List(&'a [&'a str]),
}

/// An argument as the request keeps it until it runs.
#[derive(Clone)]
enum Value {
    Text(Vec<u8>),
    Int(i64),
    Flag(bool),
    List(Vec<String>),
}

/// One command for one workspace (`mk_request`), built by name and run with [`run`](Request::run).
///
/// Names are the command table's without the leading dashes (`"confirm-plan"`; `"_"` reads as
/// `"-"`), positionals by their lower-case names (`"message"`, `"src"`). The setters only record
/// the value: the library checks each name and type when the request runs, and a name the command
/// does not take, a value of the wrong type or a root the workspace gives is an `MK_E_ARG` error
/// naming it (and the closest known name). What the command checks itself (a required argument,
/// a value's form) comes back as findings in the result, as from the CLI.
///
/// ```
/// # let tmp = std::env::temp_dir().join(format!("memkit-request-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&tmp).unwrap();
/// use memkit::{Clock, Workspace};
///
/// let now = Clock::parse("2026-03-07T10:00:00+01:00")?;
/// let ws = Workspace::open(&tmp)?;
/// ws.request("custodian", "init").run(&now)?;
/// let added = ws.request("custodian", "add").string("message", "Use PostgreSQL")
///     .string("type", "decision").run(&now)?;
/// assert!(added.applied());
/// let wrong = ws.request("custodian", "status").string("colour", "red").run(&now).unwrap_err();
/// assert_eq!(wrong.message(), "colour: not an argument of custodian status");
/// # drop(ws);
/// # std::fs::remove_dir_all(&tmp).unwrap();
/// # Ok::<(), memkit::Error>(())
/// ```
#[doc(alias = "mk_request")]
#[must_use = "a request does nothing until it runs"]
pub struct Request<'w> {
    ws: &'w Workspace,
    group: String,
    verb: String,
    args: Vec<(String, Value)>,
    judge: Option<Box<Judge<'w>>>,
    // A value that cannot become C text, reported when the request runs.
    failure: Option<Error>,
}

impl<'w> Request<'w> {
    pub(crate) fn new(ws: &'w Workspace, group: &str, verb: &str) -> Request<'w> {
        Request {
            ws,
            group: group.to_string(),
            verb: verb.to_string(),
            args: Vec::new(),
            judge: None,
            failure: None,
        }
    }

    fn with(mut self, name: &str, value: Value) -> Request<'w> {
        self.args.push((name.to_string(), value));
        self
    }

    /// Sets an argument that takes text (string, time, JSON; a number as the CLI's text), or a
    /// positional. Setting a name again replaces its value.
    #[doc(alias = "mk_request_set_string")]
    pub fn string(self, name: &str, value: impl AsRef<str>) -> Request<'w> {
        self.with(name, Value::Text(value.as_ref().as_bytes().to_vec()))
    }

    /// Sets a path argument, byte for byte (relative paths are the library's: against the
    /// working directory when the request runs).
    #[doc(alias = "mk_request_set_string")]
    pub fn path(mut self, name: &str, value: impl AsRef<Path>) -> Request<'w> {
        match path_bytes(name, value.as_ref()) {
            Ok(bytes) => self.with(name, Value::Text(bytes)),
            Err(error) => {
                self.failure.get_or_insert(error);
                self
            }
        }
    }

    /// Sets an integer or number argument.
    #[doc(alias = "mk_request_set_int")]
    pub fn int(self, name: &str, value: i64) -> Request<'w> {
        self.with(name, Value::Int(value))
    }

    /// Sets a number argument from an `f64`, as its shortest text (`0.85` is `"0.85"`).
    #[doc(alias = "mk_request_set_string")]
    pub fn number(self, name: &str, value: f64) -> Request<'w> {
        self.string(name, value.to_string())
    }

    /// Gives a flag (`true`) or takes it back (`false`).
    #[doc(alias = "mk_request_set_bool")]
    pub fn bool(self, name: &str, value: bool) -> Request<'w> {
        self.with(name, Value::Flag(value))
    }

    /// Sets a JSON argument to a list of strings, as the CLI would read `--tools '["a","b"]'`.
    #[doc(alias = "mk_request_set_list")]
    pub fn list<I>(self, name: &str, items: I) -> Request<'w>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let items = items
            .into_iter()
            .map(|item| item.as_ref().to_string())
            .collect();
        self.with(name, Value::List(items))
    }

    /// Sets an argument from an [`Arg`].
    pub fn arg(self, name: &str, value: Arg<'_>) -> Request<'w> {
        match value {
            Arg::Text(text) => self.string(name, text),
            Arg::Int(number) => self.int(name, number),
            Arg::Flag(on) => self.bool(name, on),
            Arg::List(items) => self.list(name, items),
        }
    }

    /// Gives a `memorybox gate` request the host's [`Judge`], asked for each judgement the gates
    /// need (without one the run stops at VALUE with NEEDS_JUDGEMENT). Another command refuses
    /// it with `MK_E_ARG` when the request runs.
    #[doc(alias = "mk_request_set_judge")]
    pub fn judge<F>(mut self, judge: F) -> Request<'w>
    where
        F: FnMut(Gate, &str) -> Option<String> + 'w,
    {
        self.judge = Some(Box::new(judge));
        self
    }

    /// Runs the request on its workspace at `now`: the result the CLI prints for the same
    /// arguments and clock. `Err` only for a failing `mk_status`: an unknown command or
    /// argument, a wrong type, a workspace of another layout (`MK_E_ARG`).
    #[doc(alias = "mk_workspace_run")]
    pub fn run(mut self, now: &Clock) -> Result<CommandResult> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        let group = c_string("group", self.group.as_str())?;
        let verb = c_string("verb", self.verb.as_str())?;
        let mut raw = ptr::null_mut();
        // SAFETY: an out-parameter and two NUL-terminated strings.
        check(unsafe { sys::mk_request_create(&mut raw, group.as_ptr(), verb.as_ptr()) })?;
        let raw = RawRequest(raw);
        for (name, value) in &self.args {
            set(raw.0, name, value)?;
        }
        if let Some(judge) = &mut self.judge {
            // The Box stays in `self` until run_raw returns, so C's payload outlives its use.
            let payload = judge as *mut Box<Judge<'w>> as *mut c_void;
            // SAFETY: a live request; the trampoline reads payload as this Box.
            check(unsafe { sys::mk_request_set_judge(raw.0, Some(judge_trampoline), payload) })?;
        }
        self.ws.run_raw(now, raw.0)
    }
}

/// Sets one argument on a live request.
fn set(req: *mut sys::mk_request, name: &str, value: &Value) -> Result<()> {
    let key = c_string("name", name)?;
    // SAFETY (each setter): a live request and NUL-terminated strings that outlive the call.
    check(match value {
        Value::Text(bytes) => {
            let text = c_string(name, bytes.as_slice())?;
            unsafe { sys::mk_request_set_string(req, key.as_ptr(), text.as_ptr()) }
        }
        Value::Int(number) => unsafe { sys::mk_request_set_int(req, key.as_ptr(), *number) },
        Value::Flag(on) => unsafe { sys::mk_request_set_bool(req, key.as_ptr(), i32::from(*on)) },
        Value::List(items) => {
            let items = items
                .iter()
                .map(|item| c_string(name, item.as_str()))
                .collect::<Result<Vec<_>>>()?;
            let pointers: Vec<*const c_char> = items.iter().map(|item| item.as_ptr()).collect();
            unsafe {
                sys::mk_request_set_list(req, key.as_ptr(), pointers.as_ptr(), pointers.len())
            }
        }
    })
}

impl fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("group", &self.group)
            .field("verb", &self.verb)
            .field(
                "args",
                &self.args.iter().map(|(name, _)| name).collect::<Vec<_>>(),
            )
            .field("judge", &self.judge.is_some())
            .finish()
    }
}

/// An `mk_request` released when dropped.
struct RawRequest(*mut sys::mk_request);

impl Drop for RawRequest {
    fn drop(&mut self) {
        // SAFETY: made by mk_request_create, released once.
        unsafe { sys::mk_request_destroy(self.0) }
    }
}
