//! The raw C ABI of memkit: a hand-written copy of `capi/memkit.h` (STYLE B1, B3).
//!
//! Every function is declared once, in header order, under its C prototype. Nothing here is
//! safe to call without reading that prototype's contract in memkit.h: ownership, NULL rules
//! and thread safety are stated there, and the safe API in `lib.rs` is built on them.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::{c_char, c_void};

// Section - Version

/// `MK_VERSION_MAJOR` of the header this module copies.
pub const MK_VERSION_MAJOR: i32 = 0;
/// `MK_VERSION_MINOR` of the header this module copies.
pub const MK_VERSION_MINOR: i32 = 1;
/// `MK_VERSION_PATCH` of the header this module copies.
pub const MK_VERSION_PATCH: i32 = 0;
/// `MK_VERSION_NUMBER`: MAJOR * 10000 + MINOR * 100 + PATCH; `mk_version_number()` must equal it.
pub const MK_VERSION_NUMBER: i32 =
    MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH;
/// `MK_VERSION_STRING`.
pub const MK_VERSION_STRING: &str = "0.1.0";

extern "C" {
    // int32_t mk_version_number(void);
    pub fn mk_version_number() -> i32;

    // const char* mk_version_string(void);
    pub fn mk_version_string() -> *const c_char;
}

// Section - Status

/// `typedef int32_t mk_status;`
pub type mk_status = i32;
pub const MK_OK: mk_status = 0;
pub const MK_E_ARG: mk_status = -1;
pub const MK_E_NOMEM: mk_status = -2;
pub const MK_E_INTERNAL: mk_status = -3;
pub const MK_E_IO: mk_status = -10;
pub const MK_E_NOT_FOUND: mk_status = -11;
pub const MK_E_PARSE: mk_status = -20;
pub const MK_E_UTF8: mk_status = -21;
pub const MK_E_LAYOUT: mk_status = -30;
pub const MK_E_UNSAFE_PATH: mk_status = -31;
pub const MK_E_LOCK: mk_status = -40;
pub const MK_E_CALLBACK: mk_status = -50;

extern "C" {
    // const char* mk_status_name(mk_status status);
    pub fn mk_status_name(status: mk_status) -> *const c_char;

    // const char* mk_last_error_message(void);
    pub fn mk_last_error_message() -> *const c_char;
}

// Section - Buffers

/// `typedef struct mk_buf { char* ptr; size_t size; } mk_buf;`
#[repr(C)]
#[derive(Debug)]
pub struct mk_buf {
    pub ptr: *mut c_char,
    pub size: usize,
}

extern "C" {
    // void mk_buf_dispose(mk_buf* buf);
    pub fn mk_buf_dispose(buf: *mut mk_buf);
    // mk_status mk_commands_json(mk_buf* out);
    pub fn mk_commands_json(out: *mut mk_buf) -> mk_status;
}

/// `typedef mk_status (*mk_write_fn)(const char* data, size_t size, void* payload);`
pub type mk_write_fn = Option<
    unsafe extern "C" fn(data: *const c_char, size: usize, payload: *mut c_void) -> mk_status,
>;

// Section - Clock

pub const MK_CLOCK_SYSTEM: u32 = 1;
pub const MK_CLOCK_VERSION: u32 = 1;

/// `typedef struct mk_clock { uint32_t version; uint32_t flags; int64_t unix_ms;
/// int32_t utc_offset_minutes; } mk_clock;`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mk_clock {
    pub version: u32,
    pub flags: u32,
    pub unix_ms: i64,
    pub utc_offset_minutes: i32,
}

extern "C" {
    // mk_status mk_clock_parse(mk_clock* out, const char* rfc3339);
    pub fn mk_clock_parse(out: *mut mk_clock, rfc3339: *const c_char) -> mk_status;
}

// Section - Workspace

/// `typedef int32_t mk_layout;`
pub type mk_layout = i32;
pub const MK_LAYOUT_CUSTODIAN: mk_layout = 0;
pub const MK_LAYOUT_MEMORYBOX: mk_layout = 1;
pub const MK_LAYOUT_TIERS: mk_layout = 2;
pub const MK_LAYOUT_CURATED: mk_layout = 3;

pub const MK_WORKSPACE_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_workspace_options { uint32_t version; mk_layout layout;
/// const char* memory_dir; double lock_timeout_seconds; } mk_workspace_options;`
/// (`memory_dir` is for `MK_LAYOUT_CUSTODIAN` only: NULL for `MK_LAYOUT_MEMORYBOX`,
/// `MK_LAYOUT_TIERS` and `MK_LAYOUT_CURATED`.)
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_workspace_options {
    pub version: u32,
    pub layout: mk_layout,
    pub memory_dir: *const c_char,
    pub lock_timeout_seconds: f64,
}

extern "C" {
    // void mk_workspace_options_init(mk_workspace_options* opts);
    pub fn mk_workspace_options_init(opts: *mut mk_workspace_options);
}

/// `typedef struct mk_workspace mk_workspace;` (opaque)
#[repr(C)]
pub struct mk_workspace {
    _private: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

extern "C" {
    // mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
    //                                    const mk_workspace_options* opts);
    pub fn mk_workspace_open(
        out: *mut *mut mk_workspace,
        project_root: *const c_char,
        opts: *const mk_workspace_options,
    ) -> mk_status;

    // void mk_workspace_destroy(mk_workspace* ws);
    pub fn mk_workspace_destroy(ws: *mut mk_workspace);
}

// Section - Results

/// `typedef struct mk_result mk_result;` (opaque)
#[repr(C)]
pub struct mk_result {
    _private: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

extern "C" {
    // void mk_result_destroy(mk_result* result);
    pub fn mk_result_destroy(result: *mut mk_result);

    // int32_t mk_result_exit_code(const mk_result* result);
    pub fn mk_result_exit_code(result: *const mk_result) -> i32;

    // mk_status mk_result_json(mk_buf* out, const mk_result* result);
    pub fn mk_result_json(out: *mut mk_buf, result: *const mk_result) -> mk_status;

    // mk_status mk_result_write_json(const mk_result* result, mk_write_fn write,
    //                                       void* payload);
    pub fn mk_result_write_json(
        result: *const mk_result,
        write: mk_write_fn,
        payload: *mut c_void,
    ) -> mk_status;

    // const char* mk_result_plan_id(const mk_result* result);
    pub fn mk_result_plan_id(result: *const mk_result) -> *const c_char;

    // int32_t mk_result_applied(const mk_result* result);
    pub fn mk_result_applied(result: *const mk_result) -> i32;

    // uint64_t mk_result_plan_operation_count(const mk_result* result);
    pub fn mk_result_plan_operation_count(result: *const mk_result) -> u64;
}

/// `typedef struct mk_inbox_counts { uint64_t inbox_items; uint64_t empty_items;
/// uint64_t duplicates; uint64_t tombstone_matches; uint64_t candidates; } mk_inbox_counts;`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mk_inbox_counts {
    pub inbox_items: u64,
    pub empty_items: u64,
    pub duplicates: u64,
    pub tombstone_matches: u64,
    pub candidates: u64,
}

extern "C" {
    // mk_status mk_result_inbox_counts(mk_inbox_counts* out, const mk_result* result);
    pub fn mk_result_inbox_counts(out: *mut mk_inbox_counts, result: *const mk_result)
        -> mk_status;
}

/// `typedef int32_t mk_budget_state;`
pub type mk_budget_state = i32;
pub const MK_BUDGET_OK: mk_budget_state = 0;
pub const MK_BUDGET_NEAR_LIMIT: mk_budget_state = 1;
pub const MK_BUDGET_OVER_BUDGET: mk_budget_state = 2;
pub const MK_BUDGET_MISSING: mk_budget_state = 3;
pub const MK_BUDGET_NOT_ENABLED: mk_budget_state = 4;

/// `typedef struct mk_budget_row { const char* path; uint64_t tokens; uint64_t limit;
/// mk_budget_state state; } mk_budget_row;`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_budget_row {
    pub path: *const c_char,
    pub tokens: u64,
    pub limit: u64,
    pub state: mk_budget_state,
}

extern "C" {
    // uint64_t mk_result_budget_row_count(const mk_result* result);
    pub fn mk_result_budget_row_count(result: *const mk_result) -> u64;

    // mk_status mk_result_budget_row(mk_budget_row* out, const mk_result* result,
    //                                       uint64_t index);
    pub fn mk_result_budget_row(
        out: *mut mk_budget_row,
        result: *const mk_result,
        index: u64,
    ) -> mk_status;
}

// Section - Commands

pub const MK_INIT_EXTENDED: u32 = 1;
pub const MK_INIT_PROFILE_DEFAULT: u32 = 2;
pub const MK_INIT_PROFILE_MAVEN: u32 = 4;

extern "C" {
    // mk_status mk_workspace_init(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                    uint32_t flags);
    pub fn mk_workspace_init(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        flags: u32,
    ) -> mk_status;

    // mk_status mk_workspace_status(mk_result** out, mk_workspace* ws, const mk_clock* now);
    pub fn mk_workspace_status(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
    ) -> mk_status;

    // mk_status mk_workspace_check(mk_result** out, mk_workspace* ws, const mk_clock* now);
    pub fn mk_workspace_check(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
    ) -> mk_status;
}

pub const MK_COMPACT_ARCHIVE_OLDEST: u32 = 1;
pub const MK_COMPACT_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_compact_options { uint32_t version; uint32_t flags; const char* target; }
/// mk_compact_options;`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_compact_options {
    pub version: u32,
    pub flags: u32,
    pub target: *const c_char,
}

extern "C" {
    // void mk_compact_options_init(mk_compact_options* opts);
    pub fn mk_compact_options_init(opts: *mut mk_compact_options);

    // mk_status mk_workspace_plan_compaction(mk_result** out, mk_workspace* ws,
    //                                               const mk_clock* now,
    //                                               const mk_compact_options* opts);
    pub fn mk_workspace_plan_compaction(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        opts: *const mk_compact_options,
    ) -> mk_status;

    // mk_status mk_workspace_apply_compaction(mk_result** out, mk_workspace* ws,
    //                                                const mk_clock* now,
    //                                                const mk_compact_options* opts,
    //                                                const char* confirm_plan_id);
    pub fn mk_workspace_apply_compaction(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        opts: *const mk_compact_options,
        confirm_plan_id: *const c_char,
    ) -> mk_status;
}

pub const MK_RECOVER_APPLY: u32 = 1;
pub const MK_RECOVER_ROLLBACK: u32 = 2;

extern "C" {
    // mk_status mk_workspace_recover(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                       uint32_t flags);
    pub fn mk_workspace_recover(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        flags: u32,
    ) -> mk_status;

    // mk_status mk_workspace_plan_undo(mk_result** out, mk_workspace* ws,
    //                                         const mk_clock* now, const char* plan_id);
    pub fn mk_workspace_plan_undo(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        plan_id: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_apply_undo(mk_result** out, mk_workspace* ws,
    //                                          const mk_clock* now, const char* plan_id,
    //                                          const char* confirm_plan_id);
    pub fn mk_workspace_apply_undo(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        plan_id: *const c_char,
        confirm_plan_id: *const c_char,
    ) -> mk_status;
}

pub const MK_ADD_ALLOW_LONG: u32 = 1;
pub const MK_ADD_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_add_options { uint32_t version; uint32_t flags; const char* type;
/// const char* reason; const char* name; const char* area; } mk_add_options;`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_add_options {
    pub version: u32,
    pub flags: u32,
    pub type_: *const c_char,
    pub reason: *const c_char,
    pub name: *const c_char,
    pub area: *const c_char,
}

extern "C" {
    // void mk_add_options_init(mk_add_options* opts);
    pub fn mk_add_options_init(opts: *mut mk_add_options);

    // mk_status mk_workspace_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                   const char* message, size_t message_size,
    //                                   const mk_add_options* opts);
    pub fn mk_workspace_add(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        message: *const c_char,
        message_size: usize,
        opts: *const mk_add_options,
    ) -> mk_status;
}

/// `typedef int32_t mk_forget_mode;`
pub type mk_forget_mode = i32;
pub const MK_FORGET_SOFT: mk_forget_mode = 0;
pub const MK_FORGET_HARD: mk_forget_mode = 1;
pub const MK_FORGET_PURGE: mk_forget_mode = 2;
pub const MK_FORGET_ALLOW_BROAD_MATCH: u32 = 1;
pub const MK_FORGET_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_forget_options { uint32_t version; uint32_t flags; mk_forget_mode mode; }
/// mk_forget_options;`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mk_forget_options {
    pub version: u32,
    pub flags: u32,
    pub mode: mk_forget_mode,
}

extern "C" {
    // void mk_forget_options_init(mk_forget_options* opts);
    pub fn mk_forget_options_init(opts: *mut mk_forget_options);

    // mk_status mk_workspace_plan_forget(mk_result** out, mk_workspace* ws,
    //                                           const mk_clock* now, const char* topic,
    //                                           size_t topic_size, const mk_forget_options* opts);
    pub fn mk_workspace_plan_forget(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        topic: *const c_char,
        topic_size: usize,
        opts: *const mk_forget_options,
    ) -> mk_status;

    // mk_status mk_workspace_apply_forget(mk_result** out, mk_workspace* ws,
    //                                            const mk_clock* now, const char* topic,
    //                                            size_t topic_size,
    //                                            const mk_forget_options* opts,
    //                                            const char* confirm_plan_id);
    pub fn mk_workspace_apply_forget(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        topic: *const c_char,
        topic_size: usize,
        opts: *const mk_forget_options,
        confirm_plan_id: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_decay(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                     const char* file);
    pub fn mk_workspace_decay(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        file: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_hygiene(mk_result** out, mk_workspace* ws, const mk_clock* now);
    pub fn mk_workspace_hygiene(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
    ) -> mk_status;
}

pub const MK_LOAD_INCLUDE_ARCHIVE: u32 = 1;

extern "C" {
    // mk_status mk_workspace_load(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                    int32_t tier, const char* file, uint32_t flags);
    pub fn mk_workspace_load(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        tier: i32,
        file: *const c_char,
        flags: u32,
    ) -> mk_status;
}

/// `typedef int32_t mk_update_event;`
pub type mk_update_event = i32;
pub const MK_UPDATE_VERIFY: mk_update_event = 0;
pub const MK_UPDATE_CONFIRM: mk_update_event = 1;
pub const MK_UPDATE_CONTRADICT: mk_update_event = 2;
pub const MK_UPDATE_RESOLVE_KEEP: mk_update_event = 3;
pub const MK_UPDATE_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_update_options { uint32_t version; mk_update_event event; const char* note;
/// int32_t confidence; } mk_update_options;` (`note` is required with `MK_UPDATE_CONTRADICT`,
/// else NULL; `confidence` is hundredths 0-100 with `MK_UPDATE_RESOLVE_KEEP`, else -1.)
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_update_options {
    pub version: u32,
    pub event: mk_update_event,
    pub note: *const c_char,
    pub confidence: i32,
}

extern "C" {
    // void mk_update_options_init(mk_update_options* opts);
    pub fn mk_update_options_init(opts: *mut mk_update_options);

    // mk_status mk_workspace_update(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                      const char* entry_id, const mk_update_options* opts);
    pub fn mk_workspace_update(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        entry_id: *const c_char,
        opts: *const mk_update_options,
    ) -> mk_status;
}

/// `typedef int32_t mk_gate;` (the five gates of `mk_workspace_gate`, in the order they run)
pub type mk_gate = i32;
pub const MK_GATE_VALUE: mk_gate = 0;
pub const MK_GATE_ALIGNMENT: mk_gate = 1;
pub const MK_GATE_REDUNDANCY: mk_gate = 2;
pub const MK_GATE_FRESHNESS: mk_gate = 3;
pub const MK_GATE_PLACEMENT: mk_gate = 4;

/// What an `mk_judge_fn` returns.
pub const MK_JUDGE_ANSWER: i32 = 0;
pub const MK_JUDGE_ABSTAIN: i32 = 1;

/// `typedef int32_t (*mk_judge_fn)(mk_gate gate, const char* question_json, size_t question_size,
/// mk_write_fn answer, void* answer_payload, void* payload);` (writes the answer through `answer`
/// and returns `MK_JUDGE_ANSWER`, or returns `MK_JUDGE_ABSTAIN`; any other value fails the gate
/// with MK-BOX-005.)
pub type mk_judge_fn = Option<
    unsafe extern "C" fn(
        gate: mk_gate,
        question_json: *const c_char,
        question_size: usize,
        answer: mk_write_fn,
        answer_payload: *mut c_void,
        payload: *mut c_void,
    ) -> i32,
>;

pub const MK_GATE_CANDIDATE_VERSION: u32 = 1;

/// `typedef struct mk_gate_candidate { uint32_t version; const char* text; size_t text_size;
/// const char* confidence; const char* title; const char* source; const char* client; }
/// mk_gate_candidate;` (`text` is `text_size` bytes; the others are NUL-terminated or NULL.)
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_gate_candidate {
    pub version: u32,
    pub text: *const c_char,
    pub text_size: usize,
    pub confidence: *const c_char,
    pub title: *const c_char,
    pub source: *const c_char,
    pub client: *const c_char,
}

extern "C" {
    // void mk_gate_candidate_init(mk_gate_candidate* candidate);
    pub fn mk_gate_candidate_init(candidate: *mut mk_gate_candidate);
}

pub const MK_GATE_APPLY: u32 = 1;

extern "C" {
    // mk_status mk_workspace_gate(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                    const mk_gate_candidate* candidate, mk_judge_fn judge,
    //                                    void* payload, uint32_t flags);
    pub fn mk_workspace_gate(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        candidate: *const mk_gate_candidate,
        judge: mk_judge_fn,
        payload: *mut c_void,
        flags: u32,
    ) -> mk_status;

    // mk_status mk_workspace_canon_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                         const char* file, const char* text,
    //                                         size_t text_size);
    pub fn mk_workspace_canon_add(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        file: *const c_char,
        text: *const c_char,
        text_size: usize,
    ) -> mk_status;

    // mk_status mk_workspace_canon_verify(mk_result** out, mk_workspace* ws, const mk_clock* now);
    pub fn mk_workspace_canon_verify(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
    ) -> mk_status;
}

pub const MK_MEMORYBOX_COMPACT_FORCE: u32 = 1;

extern "C" {
    // mk_status mk_workspace_plan_memorybox_compact(mk_result** out, mk_workspace* ws,
    //                                                      const mk_clock* now, const char* file,
    //                                                      uint32_t flags);
    pub fn mk_workspace_plan_memorybox_compact(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        file: *const c_char,
        flags: u32,
    ) -> mk_status;

    // mk_status mk_workspace_apply_memorybox_compact(mk_result** out, mk_workspace* ws,
    //                                                       const mk_clock* now, const char* file,
    //                                                       uint32_t flags,
    //                                                       const char* confirm_plan_id);
    pub fn mk_workspace_apply_memorybox_compact(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        file: *const c_char,
        flags: u32,
        confirm_plan_id: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_plan_promote(mk_result** out, mk_workspace* ws,
    //                                            const mk_clock* now, const char* entry_id);
    pub fn mk_workspace_plan_promote(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        entry_id: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_apply_promote(mk_result** out, mk_workspace* ws,
    //                                             const mk_clock* now, const char* entry_id,
    //                                             const char* confirm_plan_id);
    pub fn mk_workspace_apply_promote(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        entry_id: *const c_char,
        confirm_plan_id: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_plan_archive_entry(mk_result** out, mk_workspace* ws,
    //                                                  const mk_clock* now, const char* entry_id);
    pub fn mk_workspace_plan_archive_entry(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        entry_id: *const c_char,
    ) -> mk_status;

    // mk_status mk_workspace_apply_archive_entry(mk_result** out, mk_workspace* ws,
    //                                                   const mk_clock* now, const char* entry_id,
    //                                                   const char* confirm_plan_id);
    pub fn mk_workspace_apply_archive_entry(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        entry_id: *const c_char,
        confirm_plan_id: *const c_char,
    ) -> mk_status;
}

/// `typedef int32_t mk_lifecycle;` (a client's lifecycle on a Maven root, spec memorybox.md §10)
pub type mk_lifecycle = i32;
pub const MK_LIFECYCLE_ACTIVE: mk_lifecycle = 0;
pub const MK_LIFECYCLE_MAINTENANCE: mk_lifecycle = 1;
pub const MK_LIFECYCLE_ARCHIVED: mk_lifecycle = 2;

extern "C" {
    // mk_status mk_workspace_client_set(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                          const char* client, mk_lifecycle to);
    pub fn mk_workspace_client_set(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        client: *const c_char,
        to: mk_lifecycle,
    ) -> mk_status;

    // mk_status mk_workspace_apply_client_set(mk_result** out, mk_workspace* ws,
    //                                                const mk_clock* now, const char* client,
    //                                                mk_lifecycle to, const char* confirm_plan_id);
    pub fn mk_workspace_apply_client_set(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        client: *const c_char,
        to: mk_lifecycle,
        confirm_plan_id: *const c_char,
    ) -> mk_status;
}

// Section - MemoryBox sync (spec memorybox.md §9)

/// `typedef int32_t mk_sync_command;` (each value is `memkit memorybox sync <verb>`)
pub type mk_sync_command = i32;
pub const MK_SYNC_PULL: mk_sync_command = 0;
pub const MK_SYNC_PUSH: mk_sync_command = 1;
pub const MK_SYNC_STATUS: mk_sync_command = 2;
pub const MK_SYNC_RESOLVE: mk_sync_command = 3;

pub const MK_SYNC_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_sync_options { uint32_t version; const char* remote; const char* conninfo;
/// const char* workspace_id; const char* id; const char* take; const char* confirm_plan;
/// int32_t apply; } mk_sync_options;` (strings NULL when not given, `apply` 0 or 1; each field is
/// the CLI option of its name, but `conninfo`, the PostgreSQL connection string in place of the
/// CLI's MEMKIT_SYNC_CONNINFO, and `confirm_plan`, `--apply --confirm-plan ID`.)
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_sync_options {
    pub version: u32,
    pub remote: *const c_char,
    pub conninfo: *const c_char,
    pub workspace_id: *const c_char,
    pub id: *const c_char,
    pub take: *const c_char,
    pub confirm_plan: *const c_char,
    pub apply: i32,
}

extern "C" {
    // void mk_sync_options_init(mk_sync_options* opts);
    pub fn mk_sync_options_init(opts: *mut mk_sync_options);

    // mk_status mk_memorybox_sync(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                                    mk_sync_command command, const mk_sync_options* options);
    pub fn mk_memorybox_sync(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        command: mk_sync_command,
        options: *const mk_sync_options,
    ) -> mk_status;
}

// Section - Three-tier session memory (spec tiers3.md)

/// `typedef int32_t mk_tiers_command;` (each value is `memkit tiers <name>`)
pub type mk_tiers_command = i32;
pub const MK_TIERS_INIT: mk_tiers_command = 0;
pub const MK_TIERS_SESSION_INIT: mk_tiers_command = 1;
pub const MK_TIERS_LOG_TURN: mk_tiers_command = 2;
pub const MK_TIERS_READ_LOGS: mk_tiers_command = 3;
pub const MK_TIERS_PERSIST_TURN: mk_tiers_command = 4;
pub const MK_TIERS_WRITE_THEME: mk_tiers_command = 5;
pub const MK_TIERS_READ_THEME: mk_tiers_command = 6;
pub const MK_TIERS_READ_GLOBAL: mk_tiers_command = 7;
pub const MK_TIERS_WRITE_GLOBAL: mk_tiers_command = 8;
pub const MK_TIERS_LIST_THEMES: mk_tiers_command = 9;
pub const MK_TIERS_WRITE_DATA: mk_tiers_command = 10;
pub const MK_TIERS_READ_DATA: mk_tiers_command = 11;
pub const MK_TIERS_LIST_DATA: mk_tiers_command = 12;
pub const MK_TIERS_ARCHIVE_THEMES: mk_tiers_command = 13;
pub const MK_TIERS_TEMPLATE: mk_tiers_command = 14;

/// `#define MK_TIERS_UNSET INT64_MIN`: an integer field of `mk_tiers_options` that is not given.
pub const MK_TIERS_UNSET: i64 = i64::MIN;
pub const MK_TIERS_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_tiers_options { uint32_t version; const char* content;
/// const char* raw_content; const char* extracted_content; const char* theme;
/// const char* template_name; const char* title; const char* entry_type; const char* session_id;
/// const char* tools_json; const char* name; const char* csv_content; const char* source_file;
/// const char* description; const char* source_label; const char* columns_json;
/// const char* confirm_plan_id; int64_t recent_days; int64_t theme_limit; int64_t max_tokens;
/// int64_t days_back; int64_t limit; int64_t hours_back; int64_t head; int64_t days;
/// int32_t no_log; int32_t promote_global; int32_t append; int32_t replace; } mk_tiers_options;`
/// (strings NULL when not given, integers `MK_TIERS_UNSET`, flags 0 or 1; each field is the CLI
/// option of its name, `tools_json` is `--tools`, `template_name` is `--template` or, for
/// `MK_TIERS_TEMPLATE`, the template shown, `confirm_plan_id` is `--apply --confirm-plan ID`.)
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_tiers_options {
    pub version: u32,
    pub content: *const c_char,
    pub raw_content: *const c_char,
    pub extracted_content: *const c_char,
    pub theme: *const c_char,
    pub template_name: *const c_char,
    pub title: *const c_char,
    pub entry_type: *const c_char,
    pub session_id: *const c_char,
    pub tools_json: *const c_char,
    pub name: *const c_char,
    pub csv_content: *const c_char,
    pub source_file: *const c_char,
    pub description: *const c_char,
    pub source_label: *const c_char,
    pub columns_json: *const c_char,
    pub confirm_plan_id: *const c_char,
    pub recent_days: i64,
    pub theme_limit: i64,
    pub max_tokens: i64,
    pub days_back: i64,
    pub limit: i64,
    pub hours_back: i64,
    pub head: i64,
    pub days: i64,
    pub no_log: i32,
    pub promote_global: i32,
    pub append: i32,
    pub replace: i32,
}

extern "C" {
    // void mk_tiers_options_init(mk_tiers_options* opts);
    pub fn mk_tiers_options_init(opts: *mut mk_tiers_options);

    // mk_status mk_tiers_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                               mk_tiers_command command, const mk_tiers_options* opts);
    pub fn mk_tiers_run(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        command: mk_tiers_command,
        opts: *const mk_tiers_options,
    ) -> mk_status;
}

// Section - Curated memory (spec curated.md)

/// `typedef int32_t mk_curated_command;` (each value is `memkit curated <words>`)
pub type mk_curated_command = i32;
pub const MK_CURATED_ADD: mk_curated_command = 0;
pub const MK_CURATED_APPEND: mk_curated_command = 1;
pub const MK_CURATED_EDIT: mk_curated_command = 2;
pub const MK_CURATED_RECLASSIFY: mk_curated_command = 3;
pub const MK_CURATED_LINK: mk_curated_command = 4;
pub const MK_CURATED_UNLINK: mk_curated_command = 5;
pub const MK_CURATED_DELETE: mk_curated_command = 6;
pub const MK_CURATED_RESTORE: mk_curated_command = 7;
pub const MK_CURATED_CHECKPOINT: mk_curated_command = 8;
pub const MK_CURATED_BATCH: mk_curated_command = 9;
pub const MK_CURATED_GET_RELEVANT: mk_curated_command = 10;
pub const MK_CURATED_KERNEL: mk_curated_command = 11;
pub const MK_CURATED_SHOW: mk_curated_command = 12;
pub const MK_CURATED_LIST: mk_curated_command = 13;
pub const MK_CURATED_SEARCH: mk_curated_command = 14;
pub const MK_CURATED_STATS: mk_curated_command = 15;
pub const MK_CURATED_CONFLICTS: mk_curated_command = 16;
pub const MK_CURATED_LINEAGE: mk_curated_command = 17;
pub const MK_CURATED_STORY: mk_curated_command = 18;
pub const MK_CURATED_EVENT_ADD: mk_curated_command = 19;
pub const MK_CURATED_EPISODE_ADD: mk_curated_command = 20;
pub const MK_CURATED_EPISODE_SHOW: mk_curated_command = 21;
pub const MK_CURATED_FLOORS_PRUNE: mk_curated_command = 22;
pub const MK_CURATED_TELEMETRY_COMPACT: mk_curated_command = 23;
pub const MK_CURATED_RECOVER: mk_curated_command = 24;

/// `#define MK_CURATED_UNSET INT64_MIN`: an integer field of `mk_curated_options` that is not
/// given.
pub const MK_CURATED_UNSET: i64 = i64::MIN;
pub const MK_CURATED_OPTIONS_VERSION: u32 = 1;

/// `typedef struct mk_curated_options { uint32_t version; const char* workspace;
/// const char* actor; const char* name; const char* dst; const char* query; const char* id;
/// const char* type; const char* body; const char* body_file; const char* description;
/// const char* row_class; const char* status; const char* initiative; const char* project_ref;
/// const char* audience; const char* origin_session; const char* field; const char* content;
/// const char* kind; const char* file; const char* sort; const char* order; const char* scope;
/// const char* threshold; const char* before; const char* source; const char* agent;
/// const char* result; const char* severity; const char* payload; const char* confirm_plan_id;
/// int64_t max_chars; int64_t limit; int64_t max_depth; int32_t dry_run; int32_t links;
/// int32_t history; int32_t include_deleted; int32_t yes; int32_t hard; int32_t delete_link;
/// int32_t apply; int32_t rollback; } mk_curated_options;`
/// (strings NULL when not given, integers `MK_CURATED_UNSET`, flags 0 or 1; each field is the CLI
/// option of its name, `row_class` is `--class`, `delete_link` is `--delete`, `confirm_plan_id`
/// is `--apply --confirm-plan ID`; `name`, `dst`, `query` and `id` are positional arguments, but
/// `name` is `--name` for `MK_CURATED_ADD` and `MK_CURATED_EDIT`. C's `type` is `type_` here.)
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mk_curated_options {
    pub version: u32,
    pub workspace: *const c_char,
    pub actor: *const c_char,
    pub name: *const c_char,
    pub dst: *const c_char,
    pub query: *const c_char,
    pub id: *const c_char,
    pub type_: *const c_char,
    pub body: *const c_char,
    pub body_file: *const c_char,
    pub description: *const c_char,
    pub row_class: *const c_char,
    pub status: *const c_char,
    pub initiative: *const c_char,
    pub project_ref: *const c_char,
    pub audience: *const c_char,
    pub origin_session: *const c_char,
    pub field: *const c_char,
    pub content: *const c_char,
    pub kind: *const c_char,
    pub file: *const c_char,
    pub sort: *const c_char,
    pub order: *const c_char,
    pub scope: *const c_char,
    pub threshold: *const c_char,
    pub before: *const c_char,
    pub source: *const c_char,
    pub agent: *const c_char,
    pub result: *const c_char,
    pub severity: *const c_char,
    pub payload: *const c_char,
    pub confirm_plan_id: *const c_char,
    pub max_chars: i64,
    pub limit: i64,
    pub max_depth: i64,
    pub dry_run: i32,
    pub links: i32,
    pub history: i32,
    pub include_deleted: i32,
    pub yes: i32,
    pub hard: i32,
    pub delete_link: i32,
    pub apply: i32,
    pub rollback: i32,
}

extern "C" {
    // void mk_curated_options_init(mk_curated_options* opts);
    pub fn mk_curated_options_init(opts: *mut mk_curated_options);

    // mk_status mk_curated_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                          mk_curated_command command, const mk_curated_options* opts);
    pub fn mk_curated_run(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        command: mk_curated_command,
        opts: *const mk_curated_options,
    ) -> mk_status;
}

// Section - Requests

/// `typedef struct mk_request mk_request;` (opaque)
#[repr(C)]
pub struct mk_request {
    _private: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

extern "C" {
    // mk_status mk_request_create(mk_request** out, const char* group, const char* verb);
    pub fn mk_request_create(
        out: *mut *mut mk_request,
        group: *const c_char,
        verb: *const c_char,
    ) -> mk_status;

    // void mk_request_destroy(mk_request* req);
    pub fn mk_request_destroy(req: *mut mk_request);

    // mk_status mk_request_set_string(mk_request* req, const char* name, const char* value);
    pub fn mk_request_set_string(
        req: *mut mk_request,
        name: *const c_char,
        value: *const c_char,
    ) -> mk_status;

    // mk_status mk_request_set_int(mk_request* req, const char* name, int64_t value);
    pub fn mk_request_set_int(req: *mut mk_request, name: *const c_char, value: i64) -> mk_status;

    // mk_status mk_request_set_bool(mk_request* req, const char* name, int32_t value);
    pub fn mk_request_set_bool(req: *mut mk_request, name: *const c_char, value: i32) -> mk_status;

    // mk_status mk_workspace_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
    //                            const mk_request* req);
    pub fn mk_workspace_run(
        out: *mut *mut mk_result,
        ws: *mut mk_workspace,
        now: *const mk_clock,
        req: *const mk_request,
    ) -> mk_status;
}

// Section - Document

/// `typedef struct mk_document mk_document;` (opaque)
#[repr(C)]
pub struct mk_document {
    _private: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// `typedef int32_t mk_unit_kind;`
pub type mk_unit_kind = i32;
pub const MK_UNIT_FRONT_MATTER: mk_unit_kind = 0;
pub const MK_UNIT_BULLET: mk_unit_kind = 1;
pub const MK_UNIT_FENCE: mk_unit_kind = 2;
pub const MK_UNIT_COMMENT: mk_unit_kind = 3;
pub const MK_UNIT_HEADING: mk_unit_kind = 4;
pub const MK_UNIT_BLANK: mk_unit_kind = 5;
pub const MK_UNIT_TEXT: mk_unit_kind = 6;

/// `typedef struct mk_unit { mk_unit_kind kind; int32_t heading_level; uint32_t first_line;
/// uint32_t last_line; uint64_t begin; uint64_t end; } mk_unit;`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mk_unit {
    pub kind: mk_unit_kind,
    pub heading_level: i32,
    pub first_line: u32,
    pub last_line: u32,
    pub begin: u64,
    pub end: u64,
}

extern "C" {
    // mk_status mk_document_parse(mk_document** out, const char* data, size_t size);
    pub fn mk_document_parse(
        out: *mut *mut mk_document,
        data: *const c_char,
        size: usize,
    ) -> mk_status;

    // void mk_document_destroy(mk_document* doc);
    pub fn mk_document_destroy(doc: *mut mk_document);

    // uint64_t mk_document_unit_count(const mk_document* doc);
    pub fn mk_document_unit_count(doc: *const mk_document) -> u64;

    // mk_status mk_document_unit(mk_unit* out, const mk_document* doc, uint64_t index);
    pub fn mk_document_unit(out: *mut mk_unit, doc: *const mk_document, index: u64) -> mk_status;

    // mk_status mk_document_json(mk_buf* out, const mk_document* doc);
    pub fn mk_document_json(out: *mut mk_buf, doc: *const mk_document) -> mk_status;
}

#[cfg(test)]
mod layout_tests {
    use super::*;
    use std::mem::{align_of, size_of};

    // The sizes a C compiler gives these structs on LP64 targets; a drift here means the copy
    // above no longer matches memkit.h.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn struct_sizes_match_the_c_layout() {
        assert_eq!(size_of::<mk_buf>(), 16);
        assert_eq!(size_of::<mk_clock>(), 24);
        assert_eq!(align_of::<mk_clock>(), 8);
        assert_eq!(size_of::<mk_workspace_options>(), 24);
        assert_eq!(size_of::<mk_inbox_counts>(), 40);
        assert_eq!(size_of::<mk_budget_row>(), 32);
        assert_eq!(size_of::<mk_compact_options>(), 16);
        assert_eq!(size_of::<mk_add_options>(), 40);
        assert_eq!(size_of::<mk_forget_options>(), 12);
        assert_eq!(size_of::<mk_update_options>(), 24);
        assert_eq!(align_of::<mk_update_options>(), 8);
        assert_eq!(size_of::<mk_gate_candidate>(), 56);
        assert_eq!(align_of::<mk_gate_candidate>(), 8);
        assert_eq!(size_of::<mk_unit>(), 32);
        assert_eq!(size_of::<mk_sync_options>(), 64);
        assert_eq!(align_of::<mk_sync_options>(), 8);
        assert_eq!(size_of::<mk_tiers_options>(), 216);
        assert_eq!(align_of::<mk_tiers_options>(), 8);
        assert_eq!(size_of::<mk_curated_options>(), 320);
        assert_eq!(align_of::<mk_curated_options>(), 8);
        assert_eq!(size_of::<mk_workspace>(), 0);
    }

    // The offsets gcc gives mk_tiers_options' first, boundary and last fields on LP64 (pointers
    // after the 4-byte version and its padding, then the int64s, then the int32 flags).
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn tiers_options_fields_sit_at_the_c_offsets() {
        let opts = std::mem::MaybeUninit::<mk_tiers_options>::uninit();
        let p = opts.as_ptr();
        let at = |field: *const u8| field as usize - p as usize;
        // SAFETY: addr_of! takes field addresses without reading the uninitialised struct.
        unsafe {
            assert_eq!(at(std::ptr::addr_of!((*p).content) as *const u8), 8);
            assert_eq!(at(std::ptr::addr_of!((*p).columns_json) as *const u8), 120);
            assert_eq!(
                at(std::ptr::addr_of!((*p).confirm_plan_id) as *const u8),
                128
            );
            assert_eq!(at(std::ptr::addr_of!((*p).recent_days) as *const u8), 136);
            assert_eq!(at(std::ptr::addr_of!((*p).days) as *const u8), 192);
            assert_eq!(at(std::ptr::addr_of!((*p).no_log) as *const u8), 200);
            assert_eq!(at(std::ptr::addr_of!((*p).replace) as *const u8), 212);
        }
    }

    // The same for mk_curated_options: 31 pointers after the version, three int64s, nine int32
    // flags and 4 bytes of tail padding.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn curated_options_fields_sit_at_the_c_offsets() {
        let opts = std::mem::MaybeUninit::<mk_curated_options>::uninit();
        let p = opts.as_ptr();
        let at = |field: *const u8| field as usize - p as usize;
        // SAFETY: addr_of! takes field addresses without reading the uninitialised struct.
        unsafe {
            assert_eq!(at(std::ptr::addr_of!((*p).workspace) as *const u8), 8);
            assert_eq!(at(std::ptr::addr_of!((*p).type_) as *const u8), 56);
            assert_eq!(
                at(std::ptr::addr_of!((*p).confirm_plan_id) as *const u8),
                248
            );
            assert_eq!(at(std::ptr::addr_of!((*p).max_chars) as *const u8), 256);
            assert_eq!(at(std::ptr::addr_of!((*p).max_depth) as *const u8), 272);
            assert_eq!(at(std::ptr::addr_of!((*p).dry_run) as *const u8), 280);
            assert_eq!(at(std::ptr::addr_of!((*p).rollback) as *const u8), 312);
        }
    }
}
