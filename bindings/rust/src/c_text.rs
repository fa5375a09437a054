//! Rust text and paths as the NUL-terminated strings memkit.h asks for.

use crate::error::{Error, Result};
use std::ffi::CString;
use std::path::Path;

/// A path's bytes as C takes them: byte for byte on Unix, its UTF-8 text elsewhere.
pub(crate) fn path_bytes(what: &str, path: &Path) -> Result<Vec<u8>> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let _ = what;
        Ok(path.as_os_str().as_bytes().to_vec())
    }
    #[cfg(not(unix))]
    match path.to_str() {
        Some(text) => Ok(text.as_bytes().to_vec()),
        None => Err(Error::new(
            crate::sys::MK_E_UTF8,
            format!("{}: not UTF-8", what),
        )),
    }
}

/// Bytes as a NUL-terminated C string; `what` names the argument in the error, since C would
/// silently cut the text at a NUL inside it.
pub(crate) fn c_string(what: &str, bytes: impl Into<Vec<u8>>) -> Result<CString> {
    CString::new(bytes).map_err(|_| {
        Error::new(
            crate::sys::MK_E_ARG,
            format!("{}: contains a NUL byte", what),
        )
    })
}
