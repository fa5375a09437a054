//! Rust text and paths as the NUL-terminated strings memkit.h asks for.

use crate::error::{Error, Result};
use std::ffi::CString;
use std::os::raw::c_char;
use std::path::Path;
use std::ptr;

/// A path as a NUL-terminated C string, byte for byte on Unix.
pub(crate) fn path_cstring(what: &str, path: &Path) -> Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = match path.to_str() {
        Some(text) => text.as_bytes().to_vec(),
        None => {
            return Err(Error::new(
                crate::sys::MK_E_UTF8,
                format!("{}: not UTF-8", what),
            ))
        }
    };
    CString::new(bytes).map_err(|_| Error::interior_nul(what))
}

/// Text as a NUL-terminated C string; `what` names the argument in the error.
pub(crate) fn text_cstring(what: &str, text: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::interior_nul(what))
}

/// The C string, or NULL for "not given".
pub(crate) fn ptr_or_null(text: &Option<CString>) -> *const c_char {
    match text {
        Some(text) => text.as_ptr(),
        None => ptr::null(),
    }
}
