//! Section - Buffers of memkit.h: bytes the library made, owned until `mk_buf_dispose`.

use crate::error::{Error, Result};
use crate::sys;
use std::ptr;
use std::slice;

/// Bytes the library made; released with `mk_buf_dispose`, never by Rust's allocator.
pub(crate) struct Buf(pub(crate) sys::mk_buf);

impl Buf {
    pub(crate) fn new() -> Buf {
        Buf(sys::mk_buf {
            ptr: ptr::null_mut(),
            size: 0,
        })
    }

    fn bytes(&self) -> &[u8] {
        if self.0.ptr.is_null() {
            &[]
        } else {
            // SAFETY: the library wrote `size` bytes at `ptr`; they live until dispose.
            unsafe { slice::from_raw_parts(self.0.ptr as *const u8, self.0.size) }
        }
    }

    pub(crate) fn to_string(&self, what: &str) -> Result<String> {
        String::from_utf8(self.bytes().to_vec()).map_err(|e| {
            Error::new(
                sys::MK_E_UTF8,
                format!(
                    "{}: not UTF-8 at byte {}",
                    what,
                    e.utf8_error().valid_up_to()
                ),
            )
        })
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: the buffer is {NULL, 0} or filled by the library; dispose accepts both.
        unsafe { sys::mk_buf_dispose(&mut self.0) }
    }
}
