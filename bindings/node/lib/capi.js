'use strict';
// The raw layer: capi/memkit.h as koffi sees it, one declaration per C function, in header order.
// Nothing here owns memory or checks a status; index.js does that. Each function is declared from
// its C prototype string, and the header's own declaration stands above it as a comment.
//
// koffi 3 turns every pointer into a BigInt that no longer knows its C type, so a handle handed to
// the wrong function is undefined behaviour: only index.js touches these functions, and it keeps
// each handle in a private #ptr field of the class that owns it.

const fs = require('node:fs');
const path = require('node:path');
const koffi = require('koffi');

// The header version this file was written against (MK_VERSION_NUMBER). The struct layouts below
// are those of 0.1, so a library of any other version is refused on load (STYLE C10).
const MK_VERSION_NUMBER = 100;

/* Section - Export: library loading */

function systemLibraryName() {
  if (process.platform === 'win32') return 'memkit.dll';
  if (process.platform === 'darwin') return 'libmemkit.dylib';
  return 'libmemkit.so';
}

// MEMKIT_LIBRARY, else a copy in the package folder, else the system's search path.
function loadLibrary() {
  const fromEnv = process.env.MEMKIT_LIBRARY;
  if (fromEnv) {
    try {
      return { lib: koffi.load(fromEnv), from: fromEnv };
    } catch (err) {
      throw new Error(`memkit: cannot load MEMKIT_LIBRARY=${fromEnv}: ${err.message}`, {
        cause: err,
      });
    }
  }
  const name = systemLibraryName();
  const inPackage = path.join(__dirname, '..', name);
  if (fs.existsSync(inPackage)) {
    try {
      return { lib: koffi.load(inPackage), from: inPackage };
    } catch (err) {
      throw new Error(`memkit: cannot load ${inPackage}: ${err.message}`, { cause: err });
    }
  }
  try {
    return { lib: koffi.load(name), from: name };
  } catch (err) {
    throw new Error(
      `memkit: cannot find the memkit C library: MEMKIT_LIBRARY is not set, ${inPackage} does not ` +
        `exist, and loading "${name}" from the system failed (${err.message})`,
      { cause: err },
    );
  }
}

const { lib, from: libraryPath } = loadLibrary();

/* Section - Version */

// MK_API int32_t mk_version_number(void);
const mk_version_number = lib.func('int32_t mk_version_number(void)');
// MK_API const char* mk_version_string(void);
const mk_version_string = lib.func('const char *mk_version_string(void)');

// Checked before any other declaration, so a mismatched library fails here with a clear message
// rather than later with a missing symbol or a wrong struct layout.
{
  const found = mk_version_number();
  if (found !== MK_VERSION_NUMBER) {
    throw new Error(
      `memkit: ${libraryPath} is version ${found} (${mk_version_string()}), but this binding ` +
        `needs MK_VERSION_NUMBER ${MK_VERSION_NUMBER}`,
    );
  }
}

/* Section - Status */

// typedef int32_t mk_status;
koffi.alias('mk_status', 'int32_t');

const MK_OK = 0;
const MK_E_ARG = -1;
const MK_E_NOMEM = -2;
const MK_E_INTERNAL = -3;
const MK_E_IO = -10;
const MK_E_NOT_FOUND = -11;
const MK_E_PARSE = -20;
const MK_E_UTF8 = -21;
const MK_E_LAYOUT = -30;
const MK_E_UNSAFE_PATH = -31;
const MK_E_LOCK = -40;
const MK_E_CALLBACK = -50;

// MK_API const char* mk_status_name(mk_status status);
const mk_status_name = lib.func('const char *mk_status_name(mk_status status)');
// MK_API const char* mk_last_error_message(void);
const mk_last_error_message = lib.func('const char *mk_last_error_message(void)');

/* Section - Buffers */

// typedef struct mk_buf { char* ptr; size_t size; } mk_buf;
// ptr is declared void* here: as char* koffi would read it as a NUL-terminated string, and these
// bytes have no NUL. index.js copies `size` bytes from it.
const mk_buf = koffi.struct('mk_buf', {
  ptr: 'void *',
  size: 'size_t',
});

// MK_API void mk_buf_dispose(mk_buf* buf);
const mk_buf_dispose = lib.func('void mk_buf_dispose(_Inout_ mk_buf *buf)');

// MK_API mk_status mk_commands_json(mk_buf* out);
const mk_commands_json = lib.func('mk_status mk_commands_json(_Out_ mk_buf *out)');

// typedef mk_status (*mk_write_fn)(const char* data, size_t size, void* payload);
// data is void* for the reason given at mk_buf: it is `size` bytes, not a C string.
const mk_write_fn = koffi.proto(
  'mk_status mk_write_fn(const void *data, size_t size, void *payload)',
);

/* Section - Clock */

const MK_CLOCK_SYSTEM = 1;
const MK_CLOCK_VERSION = 1;

// typedef struct mk_clock { uint32_t version; uint32_t flags; int64_t unix_ms;
//                           int32_t utc_offset_minutes; } mk_clock;
const mk_clock = koffi.struct('mk_clock', {
  version: 'uint32_t',
  flags: 'uint32_t',
  unix_ms: 'int64_t',
  utc_offset_minutes: 'int32_t',
});

// MK_API mk_status mk_clock_parse(mk_clock* out, const char* rfc3339);
const mk_clock_parse = lib.func(
  'mk_status mk_clock_parse(_Out_ mk_clock *out, const char *rfc3339)',
);

/* Section - Workspace */

// typedef int32_t mk_layout;
koffi.alias('mk_layout', 'int32_t');
const MK_LAYOUT_CUSTODIAN = 0;
const MK_LAYOUT_MEMORYBOX = 1;
const MK_LAYOUT_TIERS = 2;
const MK_LAYOUT_CURATED = 3;
const MK_WORKSPACE_OPTIONS_VERSION = 1;

// typedef struct mk_workspace_options { uint32_t version; mk_layout layout;
//   const char* memory_dir; double lock_timeout_seconds; } mk_workspace_options;
const mk_workspace_options = koffi.struct('mk_workspace_options', {
  version: 'uint32_t',
  layout: 'mk_layout',
  memory_dir: 'const char *',
  lock_timeout_seconds: 'double',
});

// MK_API void mk_workspace_options_init(mk_workspace_options* opts);
const mk_workspace_options_init = lib.func(
  'void mk_workspace_options_init(_Out_ mk_workspace_options *opts)',
);

// typedef struct mk_workspace mk_workspace;
koffi.opaque('mk_workspace');

// MK_API mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
//                                    const mk_workspace_options* opts);
const mk_workspace_open = lib.func(
  'mk_status mk_workspace_open(_Out_ mk_workspace **out, const char *project_root, ' +
    'const mk_workspace_options *opts)',
);

// MK_API void mk_workspace_destroy(mk_workspace* ws);
const mk_workspace_destroy = lib.func('void mk_workspace_destroy(mk_workspace *ws)');

/* Section - Results */

// typedef struct mk_result mk_result;
koffi.opaque('mk_result');

// MK_API void mk_result_destroy(mk_result* result);
const mk_result_destroy = lib.func('void mk_result_destroy(mk_result *result)');

// MK_API int32_t mk_result_exit_code(const mk_result* result);
const mk_result_exit_code = lib.func('int32_t mk_result_exit_code(const mk_result *result)');

// MK_API mk_status mk_result_json(mk_buf* out, const mk_result* result);
const mk_result_json = lib.func(
  'mk_status mk_result_json(_Out_ mk_buf *out, const mk_result *result)',
);

// MK_API mk_status mk_result_write_json(const mk_result* result, mk_write_fn write, void* payload);
const mk_result_write_json = lib.func(
  'mk_status mk_result_write_json(const mk_result *result, mk_write_fn *write, void *payload)',
);

// MK_API const char* mk_result_plan_id(const mk_result* result);
const mk_result_plan_id = lib.func('const char *mk_result_plan_id(const mk_result *result)');

// MK_API int32_t mk_result_applied(const mk_result* result);
const mk_result_applied = lib.func('int32_t mk_result_applied(const mk_result *result)');

// MK_API uint64_t mk_result_plan_operation_count(const mk_result* result);
const mk_result_plan_operation_count = lib.func(
  'uint64_t mk_result_plan_operation_count(const mk_result *result)',
);

// typedef struct mk_inbox_counts { uint64_t inbox_items; uint64_t empty_items;
//   uint64_t duplicates; uint64_t tombstone_matches; uint64_t candidates; } mk_inbox_counts;
const mk_inbox_counts = koffi.struct('mk_inbox_counts', {
  inbox_items: 'uint64_t',
  empty_items: 'uint64_t',
  duplicates: 'uint64_t',
  tombstone_matches: 'uint64_t',
  candidates: 'uint64_t',
});

// MK_API mk_status mk_result_inbox_counts(mk_inbox_counts* out, const mk_result* result);
const mk_result_inbox_counts = lib.func(
  'mk_status mk_result_inbox_counts(_Out_ mk_inbox_counts *out, const mk_result *result)',
);

// typedef int32_t mk_budget_state;
koffi.alias('mk_budget_state', 'int32_t');
const MK_BUDGET_OK = 0;
const MK_BUDGET_NEAR_LIMIT = 1;
const MK_BUDGET_OVER_BUDGET = 2;
const MK_BUDGET_MISSING = 3;
const MK_BUDGET_NOT_ENABLED = 4;

// typedef struct mk_budget_row { const char* path; uint64_t tokens; uint64_t limit;
//                                mk_budget_state state; } mk_budget_row;
// path is read as a string, so koffi copies it while the result still lives.
const mk_budget_row = koffi.struct('mk_budget_row', {
  path: 'const char *',
  tokens: 'uint64_t',
  limit: 'uint64_t',
  state: 'mk_budget_state',
});

// MK_API uint64_t mk_result_budget_row_count(const mk_result* result);
const mk_result_budget_row_count = lib.func(
  'uint64_t mk_result_budget_row_count(const mk_result *result)',
);

// MK_API mk_status mk_result_budget_row(mk_budget_row* out, const mk_result* result, uint64_t index);
const mk_result_budget_row = lib.func(
  'mk_status mk_result_budget_row(_Out_ mk_budget_row *out, const mk_result *result, uint64_t index)',
);

/* Section - Commands */

const MK_INIT_EXTENDED = 1;
const MK_INIT_PROFILE_DEFAULT = 2;
const MK_INIT_PROFILE_MAVEN = 4;

// MK_API mk_status mk_workspace_init(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                    uint32_t flags);
const mk_workspace_init = lib.func(
  'mk_status mk_workspace_init(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'uint32_t flags)',
);

// MK_API mk_status mk_workspace_status(mk_result** out, mk_workspace* ws, const mk_clock* now);
const mk_workspace_status = lib.func(
  'mk_status mk_workspace_status(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now)',
);

// MK_API mk_status mk_workspace_check(mk_result** out, mk_workspace* ws, const mk_clock* now);
const mk_workspace_check = lib.func(
  'mk_status mk_workspace_check(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now)',
);

const MK_COMPACT_ARCHIVE_OLDEST = 1;
const MK_COMPACT_OPTIONS_VERSION = 1;

// typedef struct mk_compact_options { uint32_t version; uint32_t flags; const char* target; }
//   mk_compact_options;
const mk_compact_options = koffi.struct('mk_compact_options', {
  version: 'uint32_t',
  flags: 'uint32_t',
  target: 'const char *',
});

// MK_API void mk_compact_options_init(mk_compact_options* opts);
const mk_compact_options_init = lib.func(
  'void mk_compact_options_init(_Out_ mk_compact_options *opts)',
);

// MK_API mk_status mk_workspace_plan_compaction(mk_result** out, mk_workspace* ws,
//                                               const mk_clock* now, const mk_compact_options* opts);
const mk_workspace_plan_compaction = lib.func(
  'mk_status mk_workspace_plan_compaction(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const mk_compact_options *opts)',
);

// MK_API mk_status mk_workspace_apply_compaction(mk_result** out, mk_workspace* ws,
//                                                const mk_clock* now,
//                                                const mk_compact_options* opts,
//                                                const char* confirm_plan_id);
const mk_workspace_apply_compaction = lib.func(
  'mk_status mk_workspace_apply_compaction(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const mk_compact_options *opts, const char *confirm_plan_id)',
);

const MK_RECOVER_APPLY = 1;
const MK_RECOVER_ROLLBACK = 2;

// MK_API mk_status mk_workspace_recover(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                       uint32_t flags);
const mk_workspace_recover = lib.func(
  'mk_status mk_workspace_recover(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'uint32_t flags)',
);

// MK_API mk_status mk_workspace_plan_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                         const char* plan_id);
const mk_workspace_plan_undo = lib.func(
  'mk_status mk_workspace_plan_undo(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const char *plan_id)',
);

// MK_API mk_status mk_workspace_apply_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                          const char* plan_id, const char* confirm_plan_id);
const mk_workspace_apply_undo = lib.func(
  'mk_status mk_workspace_apply_undo(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const char *plan_id, const char *confirm_plan_id)',
);

const MK_ADD_ALLOW_LONG = 1;
const MK_ADD_OPTIONS_VERSION = 1;

// typedef struct mk_add_options { uint32_t version; uint32_t flags; const char* type;
//   const char* reason; const char* name; const char* area; } mk_add_options;
const mk_add_options = koffi.struct('mk_add_options', {
  version: 'uint32_t',
  flags: 'uint32_t',
  type: 'const char *',
  reason: 'const char *',
  name: 'const char *',
  area: 'const char *',
});

// MK_API void mk_add_options_init(mk_add_options* opts);
const mk_add_options_init = lib.func('void mk_add_options_init(_Out_ mk_add_options *opts)');

// MK_API mk_status mk_workspace_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                   const char* message, size_t message_size,
//                                   const mk_add_options* opts);
const mk_workspace_add = lib.func(
  'mk_status mk_workspace_add(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const char *message, size_t message_size, const mk_add_options *opts)',
);

// typedef int32_t mk_forget_mode;
koffi.alias('mk_forget_mode', 'int32_t');
const MK_FORGET_SOFT = 0;
const MK_FORGET_HARD = 1;
const MK_FORGET_PURGE = 2;
const MK_FORGET_ALLOW_BROAD_MATCH = 1;
const MK_FORGET_OPTIONS_VERSION = 1;

// typedef struct mk_forget_options { uint32_t version; uint32_t flags; mk_forget_mode mode; }
//   mk_forget_options;
const mk_forget_options = koffi.struct('mk_forget_options', {
  version: 'uint32_t',
  flags: 'uint32_t',
  mode: 'mk_forget_mode',
});

// MK_API void mk_forget_options_init(mk_forget_options* opts);
const mk_forget_options_init = lib.func(
  'void mk_forget_options_init(_Out_ mk_forget_options *opts)',
);

// MK_API mk_status mk_workspace_plan_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                           const char* topic, size_t topic_size,
//                                           const mk_forget_options* opts);
const mk_workspace_plan_forget = lib.func(
  'mk_status mk_workspace_plan_forget(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *topic, size_t topic_size, const mk_forget_options *opts)',
);

// MK_API mk_status mk_workspace_apply_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                            const char* topic, size_t topic_size,
//                                            const mk_forget_options* opts,
//                                            const char* confirm_plan_id);
const mk_workspace_apply_forget = lib.func(
  'mk_status mk_workspace_apply_forget(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *topic, size_t topic_size, const mk_forget_options *opts, ' +
    'const char *confirm_plan_id)',
);

// MK_API mk_status mk_workspace_decay(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                     const char* file);
const mk_workspace_decay = lib.func(
  'mk_status mk_workspace_decay(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const char *file)',
);

// MK_API mk_status mk_workspace_hygiene(mk_result** out, mk_workspace* ws, const mk_clock* now);
const mk_workspace_hygiene = lib.func(
  'mk_status mk_workspace_hygiene(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now)',
);

const MK_LOAD_INCLUDE_ARCHIVE = 1;

// MK_API mk_status mk_workspace_load(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                    int32_t tier, const char* file, uint32_t flags);
const mk_workspace_load = lib.func(
  'mk_status mk_workspace_load(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'int32_t tier, const char *file, uint32_t flags)',
);

// typedef int32_t mk_update_event;
koffi.alias('mk_update_event', 'int32_t');
const MK_UPDATE_VERIFY = 0;
const MK_UPDATE_CONFIRM = 1;
const MK_UPDATE_CONTRADICT = 2;
const MK_UPDATE_RESOLVE_KEEP = 3;
const MK_UPDATE_OPTIONS_VERSION = 1;

// typedef struct mk_update_options { uint32_t version; mk_update_event event; const char* note;
//   int32_t confidence; } mk_update_options;
const mk_update_options = koffi.struct('mk_update_options', {
  version: 'uint32_t',
  event: 'mk_update_event',
  note: 'const char *',
  confidence: 'int32_t',
});

// MK_API void mk_update_options_init(mk_update_options* opts);
const mk_update_options_init = lib.func(
  'void mk_update_options_init(_Out_ mk_update_options *opts)',
);

// MK_API mk_status mk_workspace_update(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                      const char* entry_id, const mk_update_options* opts);
const mk_workspace_update = lib.func(
  'mk_status mk_workspace_update(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const char *entry_id, const mk_update_options *opts)',
);

// typedef int32_t mk_gate;
koffi.alias('mk_gate', 'int32_t');
const MK_GATE_VALUE = 0;
const MK_GATE_ALIGNMENT = 1;
const MK_GATE_REDUNDANCY = 2;
const MK_GATE_FRESHNESS = 3;
const MK_GATE_PLACEMENT = 4;
const MK_JUDGE_ANSWER = 0;
const MK_JUDGE_ABSTAIN = 1;

// typedef int32_t (*mk_judge_fn)(mk_gate gate, const char* question_json, size_t question_size,
//                                mk_write_fn answer, void* answer_payload, void* payload);
// question_json is void* for the reason given at mk_buf: it is `question_size` bytes, not a C
// string. `answer` arrives as a bare pointer, called with koffi.call(answer, mk_write_fn, ...).
const mk_judge_fn = koffi.proto(
  'int32_t mk_judge_fn(mk_gate gate, const void *question_json, size_t question_size, ' +
    'mk_write_fn *answer, void *answer_payload, void *payload)',
);

const MK_GATE_CANDIDATE_VERSION = 1;

// typedef struct mk_gate_candidate { uint32_t version; const char* text; size_t text_size;
//   const char* confidence; const char* title; const char* source; const char* client; }
//   mk_gate_candidate;
// text is void* for the reason given at mk_buf: it is `text_size` bytes (a Buffer), not a C string.
const mk_gate_candidate = koffi.struct('mk_gate_candidate', {
  version: 'uint32_t',
  text: 'const void *',
  text_size: 'size_t',
  confidence: 'const char *',
  title: 'const char *',
  source: 'const char *',
  client: 'const char *',
});

// MK_API void mk_gate_candidate_init(mk_gate_candidate* candidate);
const mk_gate_candidate_init = lib.func(
  'void mk_gate_candidate_init(_Out_ mk_gate_candidate *candidate)',
);

const MK_GATE_APPLY = 1;

// MK_API mk_status mk_workspace_gate(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                    const mk_gate_candidate* candidate, mk_judge_fn judge,
//                                    void* payload, uint32_t flags);
const mk_workspace_gate = lib.func(
  'mk_status mk_workspace_gate(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const mk_gate_candidate *candidate, mk_judge_fn *judge, void *payload, uint32_t flags)',
);

// MK_API mk_status mk_workspace_canon_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                         const char* file, const char* text, size_t text_size);
const mk_workspace_canon_add = lib.func(
  'mk_status mk_workspace_canon_add(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *file, const char *text, size_t text_size)',
);

// MK_API mk_status mk_workspace_canon_verify(mk_result** out, mk_workspace* ws, const mk_clock* now);
const mk_workspace_canon_verify = lib.func(
  'mk_status mk_workspace_canon_verify(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now)',
);

const MK_MEMORYBOX_COMPACT_FORCE = 1;

// MK_API mk_status mk_workspace_plan_memorybox_compact(mk_result** out, mk_workspace* ws,
//                                                      const mk_clock* now, const char* file,
//                                                      uint32_t flags);
const mk_workspace_plan_memorybox_compact = lib.func(
  'mk_status mk_workspace_plan_memorybox_compact(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *file, uint32_t flags)',
);

// MK_API mk_status mk_workspace_apply_memorybox_compact(mk_result** out, mk_workspace* ws,
//                                                       const mk_clock* now, const char* file,
//                                                       uint32_t flags,
//                                                       const char* confirm_plan_id);
const mk_workspace_apply_memorybox_compact = lib.func(
  'mk_status mk_workspace_apply_memorybox_compact(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *file, uint32_t flags, const char *confirm_plan_id)',
);

// MK_API mk_status mk_workspace_plan_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                            const char* entry_id);
const mk_workspace_plan_promote = lib.func(
  'mk_status mk_workspace_plan_promote(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *entry_id)',
);

// MK_API mk_status mk_workspace_apply_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                             const char* entry_id, const char* confirm_plan_id);
const mk_workspace_apply_promote = lib.func(
  'mk_status mk_workspace_apply_promote(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *entry_id, const char *confirm_plan_id)',
);

// MK_API mk_status mk_workspace_plan_archive_entry(mk_result** out, mk_workspace* ws,
//                                                  const mk_clock* now, const char* entry_id);
const mk_workspace_plan_archive_entry = lib.func(
  'mk_status mk_workspace_plan_archive_entry(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *entry_id)',
);

// MK_API mk_status mk_workspace_apply_archive_entry(mk_result** out, mk_workspace* ws,
//                                                   const mk_clock* now, const char* entry_id,
//                                                   const char* confirm_plan_id);
const mk_workspace_apply_archive_entry = lib.func(
  'mk_status mk_workspace_apply_archive_entry(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *entry_id, const char *confirm_plan_id)',
);

// typedef int32_t mk_lifecycle;
koffi.alias('mk_lifecycle', 'int32_t');
const MK_LIFECYCLE_ACTIVE = 0;
const MK_LIFECYCLE_MAINTENANCE = 1;
const MK_LIFECYCLE_ARCHIVED = 2;

// MK_API mk_status mk_workspace_client_set(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                          const char* client, mk_lifecycle to);
const mk_workspace_client_set = lib.func(
  'mk_status mk_workspace_client_set(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *client, mk_lifecycle to)',
);

// MK_API mk_status mk_workspace_apply_client_set(mk_result** out, mk_workspace* ws,
//                                                const mk_clock* now, const char* client,
//                                                mk_lifecycle to, const char* confirm_plan_id);
const mk_workspace_apply_client_set = lib.func(
  'mk_status mk_workspace_apply_client_set(_Out_ mk_result **out, mk_workspace *ws, ' +
    'const mk_clock *now, const char *client, mk_lifecycle to, const char *confirm_plan_id)',
);

/* Section - MemoryBox sync (spec memorybox.md §9) */

// typedef int32_t mk_sync_command;
koffi.alias('mk_sync_command', 'int32_t');
const MK_SYNC_PULL = 0;
const MK_SYNC_PUSH = 1;
const MK_SYNC_STATUS = 2;
const MK_SYNC_RESOLVE = 3;

const MK_SYNC_OPTIONS_VERSION = 1;

// typedef struct mk_sync_options { uint32_t version; const char* remote; const char* conninfo;
//   const char* workspace_id; const char* id; const char* take; const char* confirm_plan;
//   int32_t apply; } mk_sync_options;
// conninfo is the PostgreSQL connection string in place of the CLI's MEMKIT_SYNC_CONNINFO;
// confirm_plan is --apply --confirm-plan ID; the others are the CLI options of their names.
const mk_sync_options = koffi.struct('mk_sync_options', {
  version: 'uint32_t',
  remote: 'const char *',
  conninfo: 'const char *',
  workspace_id: 'const char *',
  id: 'const char *',
  take: 'const char *',
  confirm_plan: 'const char *',
  apply: 'int32_t',
});

// MK_API void mk_sync_options_init(mk_sync_options* opts);
const mk_sync_options_init = lib.func('void mk_sync_options_init(_Out_ mk_sync_options *opts)');

// MK_API mk_status mk_memorybox_sync(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                    mk_sync_command command, const mk_sync_options* options);
const mk_memorybox_sync = lib.func(
  'mk_status mk_memorybox_sync(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'mk_sync_command command, const mk_sync_options *options)',
);

/* Section - Three-tier session memory (spec tiers3.md) */

// typedef int32_t mk_tiers_command;
koffi.alias('mk_tiers_command', 'int32_t');
const MK_TIERS_INIT = 0;
const MK_TIERS_SESSION_INIT = 1;
const MK_TIERS_LOG_TURN = 2;
const MK_TIERS_READ_LOGS = 3;
const MK_TIERS_PERSIST_TURN = 4;
const MK_TIERS_WRITE_THEME = 5;
const MK_TIERS_READ_THEME = 6;
const MK_TIERS_READ_GLOBAL = 7;
const MK_TIERS_WRITE_GLOBAL = 8;
const MK_TIERS_LIST_THEMES = 9;
const MK_TIERS_WRITE_DATA = 10;
const MK_TIERS_READ_DATA = 11;
const MK_TIERS_LIST_DATA = 12;
const MK_TIERS_ARCHIVE_THEMES = 13;
const MK_TIERS_TEMPLATE = 14;

// #define MK_TIERS_UNSET INT64_MIN
// A BigInt: INT64_MIN is past 2^53, and koffi reads an int64 field holding it back as this BigInt.
const MK_TIERS_UNSET = -(2n ** 63n);
const MK_TIERS_OPTIONS_VERSION = 1;

// typedef struct mk_tiers_options { uint32_t version; const char* content;
//   const char* raw_content; const char* extracted_content; const char* theme;
//   const char* template_name; const char* title; const char* entry_type; const char* session_id;
//   const char* tools_json; const char* name; const char* csv_content; const char* source_file;
//   const char* description; const char* source_label; const char* columns_json;
//   const char* confirm_plan_id; int64_t recent_days; int64_t theme_limit; int64_t max_tokens;
//   int64_t days_back; int64_t limit; int64_t hours_back; int64_t head; int64_t days;
//   int32_t no_log; int32_t promote_global; int32_t append; int32_t replace; } mk_tiers_options;
// The strings are NUL-terminated C strings, so koffi's 'const char *' fits: a JS string is passed
// as UTF-8, null as NULL, and "" as a pointer to an empty string (an empty CSV, not "not given").
const mk_tiers_options = koffi.struct('mk_tiers_options', {
  version: 'uint32_t',
  content: 'const char *',
  raw_content: 'const char *',
  extracted_content: 'const char *',
  theme: 'const char *',
  template_name: 'const char *',
  title: 'const char *',
  entry_type: 'const char *',
  session_id: 'const char *',
  tools_json: 'const char *',
  name: 'const char *',
  csv_content: 'const char *',
  source_file: 'const char *',
  description: 'const char *',
  source_label: 'const char *',
  columns_json: 'const char *',
  confirm_plan_id: 'const char *',
  recent_days: 'int64_t',
  theme_limit: 'int64_t',
  max_tokens: 'int64_t',
  days_back: 'int64_t',
  limit: 'int64_t',
  hours_back: 'int64_t',
  head: 'int64_t',
  days: 'int64_t',
  no_log: 'int32_t',
  promote_global: 'int32_t',
  append: 'int32_t',
  replace: 'int32_t',
});

// MK_API void mk_tiers_options_init(mk_tiers_options* opts);
const mk_tiers_options_init = lib.func(
  'void mk_tiers_options_init(_Out_ mk_tiers_options *opts)',
);

// MK_API mk_status mk_tiers_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                               mk_tiers_command command, const mk_tiers_options* opts);
const mk_tiers_run = lib.func(
  'mk_status mk_tiers_run(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'mk_tiers_command command, const mk_tiers_options *opts)',
);

/* Section - Curated memory (spec curated.md) */

// typedef int32_t mk_curated_command;
koffi.alias('mk_curated_command', 'int32_t');
const MK_CURATED_ADD = 0;
const MK_CURATED_APPEND = 1;
const MK_CURATED_EDIT = 2;
const MK_CURATED_RECLASSIFY = 3;
const MK_CURATED_LINK = 4;
const MK_CURATED_UNLINK = 5;
const MK_CURATED_DELETE = 6;
const MK_CURATED_RESTORE = 7;
const MK_CURATED_CHECKPOINT = 8;
const MK_CURATED_BATCH = 9;
const MK_CURATED_GET_RELEVANT = 10;
const MK_CURATED_KERNEL = 11;
const MK_CURATED_SHOW = 12;
const MK_CURATED_LIST = 13;
const MK_CURATED_SEARCH = 14;
const MK_CURATED_STATS = 15;
const MK_CURATED_CONFLICTS = 16;
const MK_CURATED_LINEAGE = 17;
const MK_CURATED_STORY = 18;
const MK_CURATED_EVENT_ADD = 19;
const MK_CURATED_EPISODE_ADD = 20;
const MK_CURATED_EPISODE_SHOW = 21;
const MK_CURATED_FLOORS_PRUNE = 22;
const MK_CURATED_TELEMETRY_COMPACT = 23;
const MK_CURATED_RECOVER = 24;

// #define MK_CURATED_UNSET INT64_MIN
// A BigInt, as MK_TIERS_UNSET.
const MK_CURATED_UNSET = -(2n ** 63n);
const MK_CURATED_OPTIONS_VERSION = 1;

// typedef struct mk_curated_options { uint32_t version; const char* workspace;
//   const char* actor; const char* name; const char* dst; const char* query; const char* id;
//   const char* type; const char* body; const char* body_file; const char* description;
//   const char* row_class; const char* status; const char* initiative; const char* project_ref;
//   const char* audience; const char* origin_session; const char* field; const char* content;
//   const char* kind; const char* file; const char* sort; const char* order; const char* scope;
//   const char* threshold; const char* before; const char* source; const char* agent;
//   const char* result; const char* severity; const char* payload; const char* confirm_plan_id;
//   int64_t max_chars; int64_t limit; int64_t max_depth; int32_t dry_run; int32_t links;
//   int32_t history; int32_t include_deleted; int32_t yes; int32_t hard; int32_t delete_link;
//   int32_t apply; int32_t rollback; } mk_curated_options;
const mk_curated_options = koffi.struct('mk_curated_options', {
  version: 'uint32_t',
  workspace: 'const char *',
  actor: 'const char *',
  name: 'const char *',
  dst: 'const char *',
  query: 'const char *',
  id: 'const char *',
  type: 'const char *',
  body: 'const char *',
  body_file: 'const char *',
  description: 'const char *',
  row_class: 'const char *',
  status: 'const char *',
  initiative: 'const char *',
  project_ref: 'const char *',
  audience: 'const char *',
  origin_session: 'const char *',
  field: 'const char *',
  content: 'const char *',
  kind: 'const char *',
  file: 'const char *',
  sort: 'const char *',
  order: 'const char *',
  scope: 'const char *',
  threshold: 'const char *',
  before: 'const char *',
  source: 'const char *',
  agent: 'const char *',
  result: 'const char *',
  severity: 'const char *',
  payload: 'const char *',
  confirm_plan_id: 'const char *',
  max_chars: 'int64_t',
  limit: 'int64_t',
  max_depth: 'int64_t',
  dry_run: 'int32_t',
  links: 'int32_t',
  history: 'int32_t',
  include_deleted: 'int32_t',
  yes: 'int32_t',
  hard: 'int32_t',
  delete_link: 'int32_t',
  apply: 'int32_t',
  rollback: 'int32_t',
});

// MK_API void mk_curated_options_init(mk_curated_options* opts);
const mk_curated_options_init = lib.func(
  'void mk_curated_options_init(_Out_ mk_curated_options *opts)',
);

// MK_API mk_status mk_curated_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                 mk_curated_command command, const mk_curated_options* opts);
const mk_curated_run = lib.func(
  'mk_status mk_curated_run(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'mk_curated_command command, const mk_curated_options *opts)',
);

/* Section - Requests */

// typedef struct mk_request mk_request;
koffi.opaque('mk_request');

// MK_API mk_status mk_request_create(mk_request** out, const char* group, const char* verb);
const mk_request_create = lib.func(
  'mk_status mk_request_create(_Out_ mk_request **out, const char *group, const char *verb)',
);

// MK_API void mk_request_destroy(mk_request* req);
const mk_request_destroy = lib.func('void mk_request_destroy(mk_request *req)');

// MK_API mk_status mk_request_set_string(mk_request* req, const char* name, const char* value);
const mk_request_set_string = lib.func(
  'mk_status mk_request_set_string(mk_request *req, const char *name, const char *value)',
);

// MK_API mk_status mk_request_set_int(mk_request* req, const char* name, int64_t value);
const mk_request_set_int = lib.func(
  'mk_status mk_request_set_int(mk_request *req, const char *name, int64_t value)',
);

// MK_API mk_status mk_request_set_bool(mk_request* req, const char* name, int32_t value);
const mk_request_set_bool = lib.func(
  'mk_status mk_request_set_bool(mk_request *req, const char *name, int32_t value)',
);

// MK_API mk_status mk_workspace_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
//                                   const mk_request* req);
const mk_workspace_run = lib.func(
  'mk_status mk_workspace_run(_Out_ mk_result **out, mk_workspace *ws, const mk_clock *now, ' +
    'const mk_request *req)',
);

/* Section - Document */

// typedef struct mk_document mk_document;
koffi.opaque('mk_document');

// typedef int32_t mk_unit_kind;
koffi.alias('mk_unit_kind', 'int32_t');
const MK_UNIT_FRONT_MATTER = 0;
const MK_UNIT_BULLET = 1;
const MK_UNIT_FENCE = 2;
const MK_UNIT_COMMENT = 3;
const MK_UNIT_HEADING = 4;
const MK_UNIT_BLANK = 5;
const MK_UNIT_TEXT = 6;

// typedef struct mk_unit { mk_unit_kind kind; int32_t heading_level; uint32_t first_line;
//   uint32_t last_line; uint64_t begin; uint64_t end; } mk_unit;
const mk_unit = koffi.struct('mk_unit', {
  kind: 'mk_unit_kind',
  heading_level: 'int32_t',
  first_line: 'uint32_t',
  last_line: 'uint32_t',
  begin: 'uint64_t',
  end: 'uint64_t',
});

// MK_API mk_status mk_document_parse(mk_document** out, const char* data, size_t size);
const mk_document_parse = lib.func(
  'mk_status mk_document_parse(_Out_ mk_document **out, const char *data, size_t size)',
);

// MK_API void mk_document_destroy(mk_document* doc);
const mk_document_destroy = lib.func('void mk_document_destroy(mk_document *doc)');

// MK_API uint64_t mk_document_unit_count(const mk_document* doc);
const mk_document_unit_count = lib.func('uint64_t mk_document_unit_count(const mk_document *doc)');

// MK_API mk_status mk_document_unit(mk_unit* out, const mk_document* doc, uint64_t index);
const mk_document_unit = lib.func(
  'mk_status mk_document_unit(_Out_ mk_unit *out, const mk_document *doc, uint64_t index)',
);

// MK_API mk_status mk_document_json(mk_buf* out, const mk_document* doc);
const mk_document_json = lib.func(
  'mk_status mk_document_json(_Out_ mk_buf *out, const mk_document *doc)',
);

module.exports = {
  koffi,
  libraryPath,
  MK_VERSION_NUMBER,
  // functions, in header order
  mk_version_number,
  mk_version_string,
  mk_status_name,
  mk_last_error_message,
  mk_buf_dispose,
  mk_commands_json,
  mk_clock_parse,
  mk_workspace_options_init,
  mk_workspace_open,
  mk_workspace_destroy,
  mk_result_destroy,
  mk_result_exit_code,
  mk_result_json,
  mk_result_write_json,
  mk_result_plan_id,
  mk_result_applied,
  mk_result_plan_operation_count,
  mk_result_inbox_counts,
  mk_result_budget_row_count,
  mk_result_budget_row,
  mk_workspace_init,
  mk_workspace_status,
  mk_workspace_check,
  mk_compact_options_init,
  mk_workspace_plan_compaction,
  mk_workspace_apply_compaction,
  mk_workspace_recover,
  mk_workspace_plan_undo,
  mk_workspace_apply_undo,
  mk_add_options_init,
  mk_workspace_add,
  mk_forget_options_init,
  mk_workspace_plan_forget,
  mk_workspace_apply_forget,
  mk_workspace_decay,
  mk_workspace_hygiene,
  mk_workspace_load,
  mk_update_options_init,
  mk_workspace_update,
  mk_gate_candidate_init,
  mk_workspace_gate,
  mk_workspace_canon_add,
  mk_workspace_canon_verify,
  mk_workspace_plan_memorybox_compact,
  mk_workspace_apply_memorybox_compact,
  mk_workspace_plan_promote,
  mk_workspace_apply_promote,
  mk_workspace_plan_archive_entry,
  mk_workspace_apply_archive_entry,
  mk_workspace_client_set,
  mk_workspace_apply_client_set,
  mk_sync_options_init,
  mk_memorybox_sync,
  mk_tiers_options_init,
  mk_tiers_run,
  mk_curated_options_init,
  mk_curated_run,
  mk_request_create,
  mk_request_destroy,
  mk_request_set_string,
  mk_request_set_int,
  mk_request_set_bool,
  mk_workspace_run,
  mk_document_parse,
  mk_document_destroy,
  mk_document_unit_count,
  mk_document_unit,
  mk_document_json,
  // types
  types: {
    mk_buf,
    mk_write_fn,
    mk_clock,
    mk_workspace_options,
    mk_inbox_counts,
    mk_budget_row,
    mk_compact_options,
    mk_add_options,
    mk_forget_options,
    mk_update_options,
    mk_judge_fn,
    mk_gate_candidate,
    mk_sync_options,
    mk_tiers_options,
    mk_curated_options,
    mk_unit,
  },
  // constants, with the header's names
  constants: Object.freeze({
    MK_OK,
    MK_E_ARG,
    MK_E_NOMEM,
    MK_E_INTERNAL,
    MK_E_IO,
    MK_E_NOT_FOUND,
    MK_E_PARSE,
    MK_E_UTF8,
    MK_E_LAYOUT,
    MK_E_UNSAFE_PATH,
    MK_E_LOCK,
    MK_E_CALLBACK,
    MK_CLOCK_SYSTEM,
    MK_CLOCK_VERSION,
    MK_LAYOUT_CUSTODIAN,
    MK_LAYOUT_MEMORYBOX,
    MK_LAYOUT_TIERS,
    MK_LAYOUT_CURATED,
    MK_WORKSPACE_OPTIONS_VERSION,
    MK_BUDGET_OK,
    MK_BUDGET_NEAR_LIMIT,
    MK_BUDGET_OVER_BUDGET,
    MK_BUDGET_MISSING,
    MK_BUDGET_NOT_ENABLED,
    MK_INIT_EXTENDED,
    MK_INIT_PROFILE_DEFAULT,
    MK_INIT_PROFILE_MAVEN,
    MK_COMPACT_ARCHIVE_OLDEST,
    MK_COMPACT_OPTIONS_VERSION,
    MK_RECOVER_APPLY,
    MK_RECOVER_ROLLBACK,
    MK_ADD_ALLOW_LONG,
    MK_ADD_OPTIONS_VERSION,
    MK_FORGET_SOFT,
    MK_FORGET_HARD,
    MK_FORGET_PURGE,
    MK_FORGET_ALLOW_BROAD_MATCH,
    MK_FORGET_OPTIONS_VERSION,
    MK_LOAD_INCLUDE_ARCHIVE,
    MK_UPDATE_VERIFY,
    MK_UPDATE_CONFIRM,
    MK_UPDATE_CONTRADICT,
    MK_UPDATE_RESOLVE_KEEP,
    MK_UPDATE_OPTIONS_VERSION,
    MK_GATE_VALUE,
    MK_GATE_ALIGNMENT,
    MK_GATE_REDUNDANCY,
    MK_GATE_FRESHNESS,
    MK_GATE_PLACEMENT,
    MK_JUDGE_ANSWER,
    MK_JUDGE_ABSTAIN,
    MK_GATE_CANDIDATE_VERSION,
    MK_GATE_APPLY,
    MK_MEMORYBOX_COMPACT_FORCE,
    MK_LIFECYCLE_ACTIVE,
    MK_LIFECYCLE_MAINTENANCE,
    MK_LIFECYCLE_ARCHIVED,
    MK_SYNC_PULL,
    MK_SYNC_PUSH,
    MK_SYNC_STATUS,
    MK_SYNC_RESOLVE,
    MK_SYNC_OPTIONS_VERSION,
    MK_TIERS_INIT,
    MK_TIERS_SESSION_INIT,
    MK_TIERS_LOG_TURN,
    MK_TIERS_READ_LOGS,
    MK_TIERS_PERSIST_TURN,
    MK_TIERS_WRITE_THEME,
    MK_TIERS_READ_THEME,
    MK_TIERS_READ_GLOBAL,
    MK_TIERS_WRITE_GLOBAL,
    MK_TIERS_LIST_THEMES,
    MK_TIERS_WRITE_DATA,
    MK_TIERS_READ_DATA,
    MK_TIERS_LIST_DATA,
    MK_TIERS_ARCHIVE_THEMES,
    MK_TIERS_TEMPLATE,
    MK_TIERS_UNSET,
    MK_TIERS_OPTIONS_VERSION,
    MK_CURATED_ADD,
    MK_CURATED_APPEND,
    MK_CURATED_EDIT,
    MK_CURATED_RECLASSIFY,
    MK_CURATED_LINK,
    MK_CURATED_UNLINK,
    MK_CURATED_DELETE,
    MK_CURATED_RESTORE,
    MK_CURATED_CHECKPOINT,
    MK_CURATED_BATCH,
    MK_CURATED_GET_RELEVANT,
    MK_CURATED_KERNEL,
    MK_CURATED_SHOW,
    MK_CURATED_LIST,
    MK_CURATED_SEARCH,
    MK_CURATED_STATS,
    MK_CURATED_CONFLICTS,
    MK_CURATED_LINEAGE,
    MK_CURATED_STORY,
    MK_CURATED_EVENT_ADD,
    MK_CURATED_EPISODE_ADD,
    MK_CURATED_EPISODE_SHOW,
    MK_CURATED_FLOORS_PRUNE,
    MK_CURATED_TELEMETRY_COMPACT,
    MK_CURATED_RECOVER,
    MK_CURATED_UNSET,
    MK_CURATED_OPTIONS_VERSION,
    MK_UNIT_FRONT_MATTER,
    MK_UNIT_BULLET,
    MK_UNIT_FENCE,
    MK_UNIT_COMMENT,
    MK_UNIT_HEADING,
    MK_UNIT_BLANK,
    MK_UNIT_TEXT,
  }),
};
