//! Section - Clock of memkit.h: the instant and UTC offset every command runs at.

use crate::c_text::c_string;
use crate::error::{check, Error, Result};
use crate::sys;
use std::str::FromStr;

/// A clock reading: an instant and the UTC offset that every local date uses (archive names,
/// changelog dates). The same instant and offset as the CLI's `--now` give the same Plan ID.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    pub(crate) raw: sys::mk_clock,
}

impl Clock {
    /// Parses an RFC 3339 time with an offset, as `--now` takes it: `"2026-11-30T10:00:00+01:00"`
    /// or `"...Z"`. A time without an offset is an `MK_E_ARG` error.
    #[doc(alias = "mk_clock_parse")]
    pub fn parse(rfc3339: &str) -> Result<Clock> {
        let text = c_string("rfc3339", rfc3339)?;
        let mut raw = sys::mk_clock::default();
        // SAFETY: both pointers are valid for the call; `raw` is written only on success.
        check(unsafe { sys::mk_clock_parse(&mut raw, text.as_ptr()) })?;
        Ok(Clock { raw })
    }

    /// The system clock and the local zone's offset, read when each command runs.
    #[doc(alias = "MK_CLOCK_SYSTEM")]
    pub fn system() -> Clock {
        Clock {
            raw: sys::mk_clock {
                version: sys::MK_CLOCK_VERSION,
                flags: sys::MK_CLOCK_SYSTEM,
                unix_ms: 0,
                utc_offset_minutes: 0,
            },
        }
    }

    /// A fixed reading: milliseconds since the Unix epoch and the UTC offset in minutes
    /// (-1439..=1439; a command given another offset fails with `MK_E_ARG`).
    pub fn from_unix_ms(unix_ms: i64, utc_offset_minutes: i32) -> Clock {
        Clock {
            raw: sys::mk_clock {
                version: sys::MK_CLOCK_VERSION,
                flags: 0,
                unix_ms,
                utc_offset_minutes,
            },
        }
    }

    /// Whether this reads the system clock when a command runs ([`Clock::system`]).
    pub fn is_system(&self) -> bool {
        self.raw.flags & sys::MK_CLOCK_SYSTEM != 0
    }

    /// Milliseconds since 1970-01-01T00:00:00Z; `None` for the system clock.
    pub fn unix_ms(&self) -> Option<i64> {
        if self.is_system() {
            None
        } else {
            Some(self.raw.unix_ms)
        }
    }

    /// The UTC offset in minutes (60 for `+01:00`); `None` for the system clock.
    pub fn utc_offset_minutes(&self) -> Option<i32> {
        if self.is_system() {
            None
        } else {
            Some(self.raw.utc_offset_minutes)
        }
    }

    /// The `mk_clock` this stands for.
    pub fn as_raw(&self) -> &sys::mk_clock {
        &self.raw
    }
}

impl FromStr for Clock {
    type Err = Error;

    fn from_str(rfc3339: &str) -> Result<Clock> {
        Clock::parse(rfc3339)
    }
}
