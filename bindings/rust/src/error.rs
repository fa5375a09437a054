//! Section - Status of memkit.h: a failed call as an [`Error`], and the names of codes.

use crate::sys;
use std::ffi::CStr;
use std::fmt;

/// `Result<T, Error>`, the return type of every fallible call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failed call: its `mk_status` code, that code's name and the library's explanation.
///
/// The message is `mk_error_message()`, read right after the failing call on the same thread;
/// failures found before the library is called (a NUL byte inside a string, bytes that are not
/// UTF-8) carry the code the library would give them and a message written here.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    code: i32,
    name: &'static str,
    message: String,
}

impl Error {
    /// An error with `code` (a negative `MK_E_*`) and its `mk_status_name`.
    pub fn new(code: i32, message: impl Into<String>) -> Error {
        Error {
            code,
            name: status_name(code),
            message: message.into(),
        }
    }

    /// The error of the call that just returned `status`. Must run before any other `mk_` call
    /// on this thread: the message is only valid until then.
    pub(crate) fn last(status: sys::mk_status) -> Error {
        // SAFETY: mk_error_message never returns NULL; the string is valid until the next
        // mk_ call on this thread, and is copied before one can happen.
        let message = unsafe { CStr::from_ptr(sys::mk_error_message()) };
        Error::new(status, message.to_string_lossy().into_owned())
    }

    /// The `mk_status` code: one of the negative `sys::MK_E_*` constants.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The code's name from `mk_status_name`, e.g. `"MK_E_ARG"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Why the call failed, e.g. `"rfc3339: the time has no offset"`; may be empty.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.code)
            .field("name", &self.name)
            .field("message", &self.message)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{} ({})", self.name, self.code)
        } else {
            write!(f, "{} ({}): {}", self.name, self.code, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Turns a returned status into `Ok(())` or the error it stands for.
pub(crate) fn check(status: sys::mk_status) -> Result<()> {
    if status == sys::MK_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}

/// The name of a status code, e.g. `"MK_E_ARG"`; `"MK_E_UNKNOWN"` for codes the library does
/// not know.
#[doc(alias = "mk_status_name")]
pub fn status_name(status: i32) -> &'static str {
    // SAFETY: never NULL; a static ASCII string valid for the life of the process.
    let name = unsafe { CStr::from_ptr(sys::mk_status_name(status)) };
    name.to_str().unwrap_or("MK_E_UNKNOWN")
}

/// The message that explains the last failure of an `mk_` call on this thread, or `""`.
///
/// Every [`Error`] already carries it; this is for code that calls [`sys`](crate::sys) directly.
#[doc(alias = "mk_error_message")]
pub fn error_message() -> String {
    // SAFETY: never NULL; copied before any other mk_ call on this thread.
    let message = unsafe { CStr::from_ptr(sys::mk_error_message()) };
    message.to_string_lossy().into_owned()
}
