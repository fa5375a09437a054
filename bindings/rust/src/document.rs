//! Section - Document of memkit.h: a Markdown file partitioned into units.

use crate::buffer::Buf;
use crate::error::{check, Error, Result};
use crate::sys;
use crate::version::check_version;
use std::fmt;
use std::os::raw::c_char;
use std::ptr::{self, NonNull};

/// The kinds of unit (`mk_unit_kind`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnitKind {
    #[doc(alias = "MK_UNIT_FRONT_MATTER")]
    FrontMatter,
    #[doc(alias = "MK_UNIT_BULLET")]
    Bullet,
    #[doc(alias = "MK_UNIT_FENCE")]
    Fence,
    #[doc(alias = "MK_UNIT_COMMENT")]
    Comment,
    #[doc(alias = "MK_UNIT_HEADING")]
    Heading,
    #[doc(alias = "MK_UNIT_BLANK")]
    Blank,
    #[doc(alias = "MK_UNIT_TEXT")]
    Text,
    /// A kind a newer library reports that this binding does not know.
    Other(i32),
}

impl UnitKind {
    /// The kind an `mk_unit_kind` value stands for.
    pub fn from_raw(kind: sys::mk_unit_kind) -> UnitKind {
        match kind {
            sys::MK_UNIT_FRONT_MATTER => UnitKind::FrontMatter,
            sys::MK_UNIT_BULLET => UnitKind::Bullet,
            sys::MK_UNIT_FENCE => UnitKind::Fence,
            sys::MK_UNIT_COMMENT => UnitKind::Comment,
            sys::MK_UNIT_HEADING => UnitKind::Heading,
            sys::MK_UNIT_BLANK => UnitKind::Blank,
            sys::MK_UNIT_TEXT => UnitKind::Text,
            other => UnitKind::Other(other),
        }
    }

    /// The `MK_UNIT_*` value.
    pub fn as_raw(self) -> sys::mk_unit_kind {
        match self {
            UnitKind::FrontMatter => sys::MK_UNIT_FRONT_MATTER,
            UnitKind::Bullet => sys::MK_UNIT_BULLET,
            UnitKind::Fence => sys::MK_UNIT_FENCE,
            UnitKind::Comment => sys::MK_UNIT_COMMENT,
            UnitKind::Heading => sys::MK_UNIT_HEADING,
            UnitKind::Blank => sys::MK_UNIT_BLANK,
            UnitKind::Text => sys::MK_UNIT_TEXT,
            UnitKind::Other(other) => other,
        }
    }
}

/// One unit of a document: a range of whole lines (`mk_unit`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    /// 1..=6 for a heading, else 0.
    pub heading_level: i32,
    /// 1-based, inclusive.
    pub first_line: u32,
    /// Inclusive.
    pub last_line: u32,
    /// Byte offset of the first line.
    pub begin: u64,
    /// Byte offset just past the last line's terminator.
    pub end: u64,
}

/// A parsed Markdown file: its lines partitioned into units (`mk_document`, spec compaction.md
/// §6).
pub struct Document {
    ptr: NonNull<sys::mk_document>,
}

// memkit.h: "A parsed Markdown file ... Immutable: safe to share across threads."
unsafe impl Send for Document {}
unsafe impl Sync for Document {}

impl Document {
    /// Parses bytes as Markdown (they are copied). Never fails on content: an unclosed fence or
    /// comment leaves the document without units, and its JSON with null sections and units.
    #[doc(alias = "mk_document_parse")]
    pub fn parse(data: &[u8]) -> Result<Document> {
        check_version()?;
        let mut out = ptr::null_mut();
        // SAFETY: `data` is `len` readable bytes (the library accepts a dangling pointer at 0).
        check(unsafe {
            sys::mk_document_parse(&mut out, data.as_ptr() as *const c_char, data.len())
        })?;
        match NonNull::new(out) {
            Some(ptr) => Ok(Document { ptr }),
            None => Err(Error::new(
                sys::MK_E_INTERNAL,
                "mk_document_parse returned MK_OK without a document",
            )),
        }
    }

    /// The number of units (0 when the document cannot be parsed).
    #[doc(alias = "mk_document_unit_count")]
    pub fn unit_count(&self) -> u64 {
        // SAFETY (every accessor below): self.ptr is a live document.
        unsafe { sys::mk_document_unit_count(self.ptr.as_ptr()) }
    }

    /// One unit, in file order; `index` below [`unit_count`](Document::unit_count), else
    /// `MK_E_ARG`.
    #[doc(alias = "mk_document_unit")]
    pub fn unit(&self, index: u64) -> Result<Unit> {
        let mut raw = sys::mk_unit::default();
        check(unsafe { sys::mk_document_unit(&mut raw, self.ptr.as_ptr(), index) })?;
        Ok(Unit {
            kind: UnitKind::from_raw(raw.kind),
            heading_level: raw.heading_level,
            first_line: raw.first_line,
            last_line: raw.last_line,
            begin: raw.begin,
            end: raw.end,
        })
    }

    /// Every unit, in file order.
    #[doc(alias = "mk_document_unit")]
    pub fn units(&self) -> Result<Vec<Unit>> {
        (0..self.unit_count()).map(|i| self.unit(i)).collect()
    }

    /// The document as `memkit markdown units --format json` shows its data:
    /// `{"sections":[...],"units":[...]}` (both null when unparseable).
    #[doc(alias = "mk_document_json")]
    pub fn json(&self) -> Result<String> {
        let mut buf = Buf::new();
        check(unsafe { sys::mk_document_json(&mut buf.0, self.ptr.as_ptr()) })?;
        buf.to_string("mk_document_json")
    }

    /// Destroys the document now; dropping it does the same.
    #[doc(alias = "mk_document_destroy")]
    pub fn close(self) {}

    /// The `mk_document*` for calls into [`sys`]; it stays owned by `self`.
    pub fn as_raw(&self) -> *const sys::mk_document {
        self.ptr.as_ptr()
    }
}

impl Drop for Document {
    fn drop(&mut self) {
        // SAFETY: the pointer came from mk_document_parse and is destroyed only here.
        unsafe { sys::mk_document_destroy(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("unit_count", &self.unit_count())
            .finish()
    }
}
