//! Section - Version of memkit.h: which library is loaded, and whether it is the one this
//! binding was written for.

use crate::error::{Error, Result};
use crate::sys;
use std::ffi::CStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// The loaded library's version, as MAJOR * 10000 + MINOR * 100 + PATCH (200 for 0.2.0).
#[doc(alias = "mk_version_number")]
pub fn version() -> i32 {
    // SAFETY: no arguments, a plain value.
    unsafe { sys::mk_version_number() }
}

/// The loaded library's version as `"MAJOR.MINOR.PATCH"`.
#[doc(alias = "mk_version_string")]
pub fn version_string() -> &'static str {
    // SAFETY: never NULL; valid for the life of the process.
    let version = unsafe { CStr::from_ptr(sys::mk_version_string()) };
    version.to_str().unwrap_or("")
}

/// The command table: every command of every door with its arguments, as
/// `memkit commands --format json` prints it (JSON text).
#[doc(alias = "mk_commands_json")]
pub fn commands_json() -> Result<String> {
    let mut buf = crate::buffer::Buf::new();
    // SAFETY: `buf` is a valid, empty mk_buf the library fills.
    crate::error::check(unsafe { sys::mk_commands_json(&mut buf.0) })?;
    buf.to_string("mk_commands_json")
}

static VERSION_CHECKED: AtomicBool = AtomicBool::new(false);

/// Checks that the loaded library is the version this binding was written for
/// (`sys::MK_VERSION_NUMBER`). [`Workspace::open`](crate::Workspace::open) and
/// [`Document::parse`](crate::Document::parse) call it.
///
/// A mismatch is an `MK_E_INTERNAL` error: the structs in [`sys`](crate::sys) may no longer
/// match the library's, so no other call is safe to make.
pub fn check_version() -> Result<()> {
    if VERSION_CHECKED.load(Ordering::Acquire) {
        return Ok(());
    }
    let loaded = version();
    if loaded != sys::MK_VERSION_NUMBER {
        return Err(Error::new(
            sys::MK_E_INTERNAL,
            format!(
                "the loaded libmemkit is version {} ({}), but this binding was written for {}.{}.{}",
                loaded,
                version_string(),
                sys::MK_VERSION_MAJOR,
                sys::MK_VERSION_MINOR,
                sys::MK_VERSION_PATCH
            ),
        ));
    }
    VERSION_CHECKED.store(true, Ordering::Release);
    Ok(())
}
