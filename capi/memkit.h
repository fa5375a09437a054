/* memkit.h: the C ABI of memkit, and the whole of it: what this header does not declare is not API.
 *
 * Self-contained C11 (and C++) header. Every fallible function returns mk_status; MK_OK is 0 and
 * errors are negative. mk_error_message() explains the most recent failure on the calling
 * thread, but a caller detects failure from the returned status, never from the message.
 * Exported symbols are listed, each by name, in capi/memkit.map; tests/abi/check_symbols.py keeps
 * this header, that list and the built library equal. Every function is named mk_<object>_<verb>,
 * and every command runs through one of them: a request (Section - Requests). */
#ifndef MEMKIT_H
#define MEMKIT_H

#include <stddef.h>
#include <stdint.h>

/* Section - Export */

/* MK_API marks the exported functions. Build with MK_STATIC to link a static copy; the library
 * itself builds with MK_BUILDING and hidden visibility, so only MK_API functions leave it. */
#if defined(MK_STATIC)
#define MK_API
#elif defined(_WIN32) || defined(__CYGWIN__)
#if defined(MK_BUILDING)
#define MK_API __declspec(dllexport)
#else
#define MK_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define MK_API __attribute__((visibility("default")))
#else
#define MK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Section - Version */

/* cmake/MemkitVersion.cmake reads these three lines: this header is the one version source. */
#define MK_VERSION_MAJOR 0
#define MK_VERSION_MINOR 2
#define MK_VERSION_PATCH 0
/** The version this header describes, as MAJOR * 10000 + MINOR * 100 + PATCH. @since 0.1 */
#define MK_VERSION_NUMBER (MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH)
/* Two steps, so the numbers above are expanded before they are quoted; the string cannot drift. */
#define MK_VERSION_QUOTE_(x) #x
#define MK_VERSION_EXPAND_(x) MK_VERSION_QUOTE_(x)
/** The version this header describes, as "MAJOR.MINOR.PATCH". @since 0.1 */
#define MK_VERSION_STRING              \
  MK_VERSION_EXPAND_(MK_VERSION_MAJOR) \
  "." MK_VERSION_EXPAND_(MK_VERSION_MINOR) "." MK_VERSION_EXPAND_(MK_VERSION_PATCH)

/**
 * Returns the version of the loaded library as MAJOR * 10000 + MINOR * 100 + PATCH.
 *
 * Bindings compare it with MK_VERSION_NUMBER on load to catch a header/library mismatch.
 * A plain value; there is nothing to release. Safe to call from any thread.
 *
 * @return The MK_VERSION_NUMBER the library was built with, e.g. 200 for 0.2.0.
 * @since 0.1
 */
MK_API int32_t mk_version_number(void);

/**
 * Returns the version of the loaded library as a NUL-terminated "MAJOR.MINOR.PATCH" string.
 *
 * Borrowed; valid for the life of the process. Safe to call from any thread.
 *
 * @return The MK_VERSION_STRING the library was built with; never NULL.
 * @since 0.1
 */
MK_API const char* mk_version_string(void);

/* Section - Status */

/** The result of every fallible function: MK_OK or one of the negative MK_E_* codes. @since 0.1 */
typedef int32_t mk_status;

/** The values of mk_status. Codes are grouped with gaps and never renumbered; memkit::Errc
 *  (include/memkit/status.hpp) uses the same numbers, and capi/status_c.cpp static_asserts each
 *  pair. @since 0.1 */
enum {
  MK_OK = 0,              /**< success */
  MK_E_ARG = -1,          /**< an argument is NULL, out of range or malformed */
  MK_E_NOMEM = -2,        /**< out of memory */
  MK_E_INTERNAL = -3,     /**< a bug in memkit; the message says where */
  MK_E_IO = -10,          /**< reading or writing a file failed */
  MK_E_NOT_FOUND = -11,   /**< a file or entry does not exist */
  MK_E_PARSE = -20,       /**< a Markdown file cannot be parsed (unclosed fence or comment) */
  MK_E_UTF8 = -21,        /**< text is not valid UTF-8 */
  MK_E_LAYOUT = -30,      /**< the memory folder is missing or outside its allowed place */
  MK_E_UNSAFE_PATH = -31, /**< a path escapes its root or crosses a symlink */
  MK_E_LOCK = -40,        /**< another process holds the memory folder's lock */
  MK_E_CALLBACK = -50     /**< a host callback failed */
};

/**
 * Returns the name of a status code as a NUL-terminated string, e.g. "MK_E_ARG" for MK_E_ARG.
 *
 * Borrowed; valid for the life of the process. Safe to call from any thread.
 *
 * @param status Any value; codes this library does not know are named "MK_E_UNKNOWN".
 * @return The constant's name ("MK_OK" for MK_OK), or "MK_E_UNKNOWN"; never NULL.
 * @since 0.1
 */
MK_API const char* mk_status_name(mk_status status);

/**
 * Returns the message that explains the last failure on the calling thread.
 *
 * Messages read "file:line: what is wrong", or name the argument at fault. Detect a failure from
 * the returned mk_status; the message only explains it.
 * Borrowed; valid until the next mk_ call on the same thread. Safe to call from any thread: each
 * thread has its own message.
 *
 * @return A NUL-terminated UTF-8 message, or "" when no mk_ call on this thread has failed;
 *         never NULL.
 * @since 0.2 (0.1: mk_last_error_message)
 */
MK_API const char* mk_error_message(void);

/* Section - Buffers */

/** Bytes the library made for the caller: UTF-8 text, not NUL-terminated (size excludes any NUL).
 *  Release with mk_buf_dispose(). @since 0.1 */
typedef struct mk_buf {
  char* ptr;   /**< NULL when empty */
  size_t size; /**< bytes at ptr */
} mk_buf;

/**
 * Releases the bytes of a buffer this library filled, and sets it to {NULL, 0}.
 *
 * Accepts NULL and an empty buffer. Never free() a buffer's bytes yourself.
 *
 * @param buf The buffer; may be NULL.
 * @since 0.1
 */
MK_API void mk_buf_dispose(mk_buf* buf);

/**
 * Writes the command table: every command of every door with its arguments (name, type, default,
 * choices, whether required, documentation) and what it does to the files, the bytes
 * `memkit commands --format json` prints without the final newline
 * ({"global_options","groups","table_version"}).
 *
 * Thread-safe: reads constant data.
 *
 * @param[out] out Release with mk_buf_dispose().
 * @return MK_OK, MK_E_ARG (out is NULL) or MK_E_NOMEM.
 * @since 0.1
 */
MK_API mk_status mk_commands_json(mk_buf* out);

/**
 * Receives streamed output: called with consecutive pieces of a result, in order.
 *
 * Return MK_OK to go on; a negative status stops the writer, which returns that status unchanged
 * (any other value stops it with MK_E_CALLBACK).
 * Bindings return MK_E_CALLBACK when host code throws. Must not call back into the library with
 * the object being written.
 *
 * @since 0.1
 */
typedef mk_status (*mk_write_fn)(const char* data, size_t size, void* payload);

/* Section - Clock */

/** Set in mk_clock.flags: ignore unix_ms and utc_offset_minutes; read the system clock and the
 *  local zone's offset when the command runs. @since 0.1 */
#define MK_CLOCK_SYSTEM 1u
/** The current mk_clock layout. @since 0.1 */
#define MK_CLOCK_VERSION 1u

/** A clock reading: an instant and the UTC offset that every local date uses (archive names,
 *  changelog dates). Pass the same instant and offset as the CLI's --now to get its Plan ID.
 *  A plain value. @since 0.1 */
typedef struct mk_clock {
  uint32_t version;           /**< MK_CLOCK_VERSION; fields are only ever appended */
  uint32_t flags;             /**< 0 or MK_CLOCK_SYSTEM */
  int64_t unix_ms;            /**< milliseconds since 1970-01-01T00:00:00Z */
  int32_t utc_offset_minutes; /**< 60 for 2026-11-30T10:00:00+01:00; -23:59..+23:59 */
} mk_clock;

/**
 * Parses an RFC 3339 time with an offset, as --now takes it ("2026-11-30T10:00:00+01:00", "...Z").
 *
 * @param[out] out Written only on success; a plain value.
 * @param rfc3339 NUL-terminated; never NULL.
 * @return MK_OK, or MK_E_ARG naming what is wrong (no offset, out of range, ...).
 * @since 0.1
 */
MK_API mk_status mk_clock_parse(mk_clock* out, const char* rfc3339);

/* Section - Workspace */

/** The layouts a workspace can be opened with. @since 0.1 */
typedef int32_t mk_layout;
/** The values of mk_layout. @since 0.1 */
enum {
  MK_LAYOUT_CUSTODIAN = 0, /**< memory-custodian: docs/memory (spec compaction.md) */
  MK_LAYOUT_MEMORYBOX = 1, /**< MemoryBox: brain/ and memory/ under the root (spec memorybox.md);
                                @since 0.1 */
  MK_LAYOUT_TIERS = 2,     /**< three-tier session memory: memory/ under the workspace (the CLI's
                                --workspace, spec tiers3.md); @since 0.1 */
  MK_LAYOUT_CURATED = 3    /**< curated memory: the store folder (the CLI's --store, spec
                                curated.md); @since 0.1 */
};

/** The mk_workspace_options layout this header describes. Fields are only ever appended, each
 *  with the version that added it; a library takes any version from 1 up to its own. @since 0.1 */
#define MK_WORKSPACE_OPTIONS_VERSION 1u

/** How to open a workspace. Call mk_workspace_options_init first; NULL for the defaults.
 *  @since 0.1 */
typedef struct mk_workspace_options {
  uint32_t version;            /**< the layout's version: MK_WORKSPACE_OPTIONS_VERSION */
  mk_layout layout;            /**< MK_LAYOUT_CUSTODIAN (default), MK_LAYOUT_MEMORYBOX,
                                    MK_LAYOUT_TIERS or MK_LAYOUT_CURATED */
  const char* memory_dir;      /**< custodian only, relative to the project root; NULL:
                                    "docs/memory" (not ""); must be NULL for the other
                                    layouts */
  double lock_timeout_seconds; /**< how long applies wait for the lock: 0 to 86400; default 10 */
} mk_workspace_options;

/**
 * Fills options with the defaults, writing only the fields of layout `version` (the caller's
 * MK_WORKSPACE_OPTIONS_VERSION), so a newer library never writes past an older caller's struct.
 *
 * @param opts Never NULL.
 * @param version 1 up to this library's MK_WORKSPACE_OPTIONS_VERSION.
 * @return MK_OK, or MK_E_ARG (NULL, or a version this library does not know; nothing written).
 * @since 0.2 (0.1 took no version)
 */
MK_API mk_status mk_workspace_options_init(mk_workspace_options* opts, uint32_t version);

/** A project's memory folder, opened once and used by the requests below. Not thread-safe: use
 *  one workspace per thread (several may share a folder; applies take its lock). @since 0.1 */
typedef struct mk_workspace mk_workspace;

/**
 * Opens the memory folder of a project: checks the project root and, for MK_LAYOUT_CUSTODIAN,
 * that the memory directory lies strictly inside docs/ without symbolic links (for
 * MK_LAYOUT_MEMORYBOX, the agent root; its brain/ and memory/ are checked by each command). The
 * memory directory need not exist yet (`custodian init` creates it). For MK_LAYOUT_CURATED,
 * project_root is the store folder (the CLI's --store): a missing one is an empty store, made by
 * the first write, as the CLI allows; an existing path that is not a directory is MK_E_ARG.
 * Reads no memory file. A relative root is made absolute against the working directory now, so
 * a later chdir does not move the workspace.
 *
 * @param[out] out Destroy with mk_workspace_destroy().
 * @param project_root NUL-terminated path; never NULL.
 * @param opts NULL means defaults.
 * @return MK_OK, MK_E_ARG (also for an options version above this library's), MK_E_LAYOUT,
 *         MK_E_UNSAFE_PATH or MK_E_IO.
 * @since 0.1
 */
MK_API mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
                                   const mk_workspace_options* opts);

/** Closes a workspace. Accepts NULL. @since 0.1 */
MK_API void mk_workspace_destroy(mk_workspace* ws);

/* Section - Results
 *
 * Every request run returns an mk_result: the same result the CLI prints for the same arguments
 * and clock. A command that ran returns MK_OK even when its findings stop it (a BLOCKER, a stale
 * Plan ID): read mk_result_exit_code() and the JSON. A non-OK status means no result was made (a
 * NULL argument, a workspace of another layout, out of memory). Besides the codes each function
 * lists, any fallible function may return MK_E_NOMEM or MK_E_INTERNAL. */

/** The outcome of one command. Immutable: safe to share across threads. @since 0.1 */
typedef struct mk_result mk_result;

/** Destroys a result. Accepts NULL. @since 0.1 */
MK_API void mk_result_destroy(mk_result* result);

/**
 * Returns the exit code the CLI gives for this result: 0 success (possibly with review), 1 a
 * domain failure, 2 a blocker or a fatal error.
 *
 * @param result Never NULL.
 * @since 0.1
 */
MK_API int32_t mk_result_exit_code(const mk_result* result);

/**
 * Writes the result envelope: the bytes `memkit ... --format json` prints, without the final
 * newline ({"command","data","exit_class","findings","output_schema_version","status"}).
 *
 * @param[out] out Release with mk_buf_dispose().
 * @param result Never NULL.
 * @return MK_OK, MK_E_ARG or MK_E_NOMEM.
 * @since 0.1
 */
MK_API mk_status mk_result_json(mk_buf* out, const mk_result* result);

/**
 * Streams the same envelope to `write` in pieces of about 64 KiB, for results larger than a host
 * wants to hold (an inbox's candidate list can outweigh the inbox).
 *
 * @param result Never NULL.
 * @param write Never NULL; called on this thread before the function returns.
 * @param payload Passed to write unchanged.
 * @return MK_OK, MK_E_ARG, or the first non-OK status write returned.
 * @since 0.1
 */
MK_API mk_status mk_result_write_json(const mk_result* result, mk_write_fn write, void* payload);

/**
 * Returns the Plan ID the result shows or applied: 16 lowercase hex digits.
 *
 * Borrowed; valid while `result` lives.
 *
 * @param result Never NULL.
 * @return A NUL-terminated ID, or NULL when the command made no plan (nothing to apply, or a
 *         finding stopped it).
 * @since 0.1
 */
MK_API const char* mk_result_plan_id(const mk_result* result);

/**
 * Returns 1 when the result's plan (or additive write) reached the disk, else 0.
 *
 * @param result Never NULL.
 * @since 0.1
 */
MK_API int32_t mk_result_applied(const mk_result* result);

/**
 * Returns how many files the result's plan writes or deletes (0 without a plan).
 *
 * @param result Never NULL.
 * @since 0.1
 */
MK_API uint64_t mk_result_plan_operation_count(const mk_result* result);

/** The counts of an inbox compaction (spec compaction.md §8). A plain value. @since 0.1 */
typedef struct mk_inbox_counts {
  uint64_t inbox_items;
  uint64_t empty_items;
  uint64_t duplicates;
  uint64_t tombstone_matches;
  uint64_t candidates; /**< inbox_items = empty_items + duplicates + tombstone_matches + candidates */
} mk_inbox_counts;

/**
 * Reads the counts of an inbox compaction result.
 *
 * @param[out] out Written only on success.
 * @param result Never NULL.
 * @return MK_OK, MK_E_ARG, or MK_E_NOT_FOUND when the result is no inbox compaction (another
 *         command, --target, or a finding stopped it before counting).
 * @since 0.1
 */
MK_API mk_status mk_result_inbox_counts(mk_inbox_counts* out, const mk_result* result);

/** A budget state. @since 0.1 */
typedef int32_t mk_budget_state;
/** The values of mk_budget_state (spec compaction.md §5). @since 0.1 */
enum {
  MK_BUDGET_OK = 0,
  MK_BUDGET_NEAR_LIMIT = 1,
  MK_BUDGET_OVER_BUDGET = 2,
  MK_BUDGET_MISSING = 3,
  MK_BUDGET_NOT_ENABLED = 4
};

/** One file's row of a status report. The path is borrowed from the result. @since 0.1 */
typedef struct mk_budget_row {
  const char* path;      /**< NUL-terminated, relative to the memory directory; valid while the
                              result lives */
  uint64_t tokens;       /**< 0 for a missing file */
  uint64_t limit;        /**< 0 when the file has no budget */
  mk_budget_state state; /**< MK_BUDGET_* */
} mk_budget_row;

/**
 * Returns the number of file rows of a `custodian status` result, else 0
 * (a MemoryBox status has line budgets: read them from the JSON).
 *
 * @param result Never NULL.
 * @since 0.1
 */
MK_API uint64_t mk_result_budget_row_count(const mk_result* result);

/**
 * Reads one file row of a status result, in the report's order.
 *
 * @param[out] out Written only on success; its path is borrowed from `result`.
 * @param result Never NULL.
 * @param index Below mk_result_budget_row_count(result).
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_result_budget_row(mk_budget_row* out, const mk_result* result, uint64_t index);

/* Section - Requests
 *
 * Every command of the command table (mk_commands_json) runs through one function: a request
 * names the command by its group and verb, its arguments are set by name, and
 * mk_workspace_run() runs it on a workspace of the group's layout. New commands and arguments
 * need no new struct or function. Names are the table's without the leading dashes ("type",
 * "confirm-plan"; "_" is read as "-"), positionals by their lower-case names ("message",
 * "src"). The workspace gives the root (--project-root and --memory-dir of custodian, --root of
 * memorybox, --workspace of tiers, --store of curated) and `now` the clock; the result is the one
 * `memkit <group> <verb> ... --format json` prints. Text is NUL-terminated UTF-8; text that is
 * not UTF-8 gives a result with a fatal MK-ARG-001 finding and writes nothing. A PostgreSQL sync
 * reads its connection string from the `conninfo-file` argument, else libpq's defaults (its PG*
 * variables, ~/.pgpass, services); the library reads no variable of its own. */

/** A command and its arguments, built by the setters below. Not thread-safe. @since 0.1 */
typedef struct mk_request mk_request;

/**
 * Starts a request for `memkit <group> <verb>` ("curated", "add"; a verb of two words is given
 * whole: "memorybox", "sync push").
 *
 * @param[out] out Destroy with mk_request_destroy().
 * @param group, verb NUL-terminated; never NULL.
 * @return MK_OK, or MK_E_ARG for a group or verb the table does not have (the message names the
 *         closest one).
 * @since 0.1
 */
MK_API mk_status mk_request_create(mk_request** out, const char* group, const char* verb);

/** Releases a request. Accepts NULL. @since 0.1 */
MK_API void mk_request_destroy(mk_request* req);

/**
 * Sets an argument that takes text (any type but boolean: a number or a time is given as the
 * CLI's text), or a positional. Setting it again replaces the value.
 *
 * @param req, name, value Never NULL; name and value NUL-terminated UTF-8.
 * @return MK_OK, or MK_E_ARG for a name the command does not take (the message names the closest
 *         one), a boolean argument, or a root the workspace gives.
 * @since 0.1
 */
MK_API mk_status mk_request_set_string(mk_request* req, const char* name, const char* value);

/**
 * Sets an integer or number argument.
 *
 * @return MK_OK, or MK_E_ARG for an unknown name or an argument of another type.
 * @since 0.1
 */
MK_API mk_status mk_request_set_int(mk_request* req, const char* name, int64_t value);

/**
 * Sets a boolean argument (a flag): `value` non-zero gives it, zero takes it back.
 *
 * @return MK_OK, or MK_E_ARG for an unknown name or an argument of another type.
 * @since 0.1
 */
MK_API mk_status mk_request_set_bool(mk_request* req, const char* name, int32_t value);

/**
 * Sets a JSON argument that takes a list of strings (`tools`, `columns-json`) from `count`
 * NUL-terminated UTF-8 strings: the request holds them as a JSON array, as the CLI would read
 * `--tools '["a","b"]'`.
 *
 * @param items `count` strings, none NULL; may be NULL when count is 0.
 * @return MK_OK, MK_E_ARG for an unknown name, an argument that is not JSON or a NULL item, or
 *         MK_E_UTF8 for an item that is not UTF-8.
 * @since 0.2
 */
MK_API mk_status mk_request_set_list(mk_request* req, const char* name, const char* const* items,
                                     size_t count);

/** The five gates of `memorybox gate`, in the order they run (spec memorybox.md §4).
 *  @since 0.1 */
typedef int32_t mk_gate;
/** The values of mk_gate. @since 0.1 */
enum {
  MK_GATE_VALUE = 0,      /**< does this change how the agent acts? "yes" | "no" */
  MK_GATE_ALIGNMENT = 1,  /**< "existing <category>" | "new <name>" | "none" */
  MK_GATE_REDUNDANCY = 2, /**< "<entry ID>" (already captured there) | "none" */
  MK_GATE_FRESHNESS = 3,  /**< "stable" | "time_sensitive <YYYY-MM-DD>" (later than today) */
  MK_GATE_PLACEMENT = 4   /**< "<tier> <file>", e.g. "2 memory/LONG_TERM.md" */
};

/** What an mk_judge_fn returns. @since 0.1 */
enum {
  MK_JUDGE_ANSWER = 0, /**< the answer was written through `answer` */
  MK_JUDGE_ABSTAIN = 1 /**< no answer: the gate stops with NEEDS_JUDGEMENT (fail closed) */
};

/**
 * The host's judgement for one gate: memkit never decides VALUE, ALIGNMENT, FRESHNESS or
 * PLACEMENT itself, nor whether a near-duplicate already captures the candidate.
 *
 * `question_json` (UTF-8, `question_size` bytes, valid during the call) is one JSON object:
 * {"candidate":{"client","confidence","source","text","title"},"categories":[...],
 * "category":null|"...","category_entries":[entry IDs],"gate":"VALUE"|...,
 * "near_duplicates":[{"entry_id","file","similarity"}]}. Write the answer's text (the forms of
 * mk_gate's values) through `answer(data, size, answer_payload)`, in one or more pieces, and
 * return MK_JUDGE_ANSWER; or return MK_JUDGE_ABSTAIN. Any other value, or an answer that does
 * not parse, fails the gate with the fatal finding MK-BOX-005 and nothing is written. Called on
 * the thread that called mk_workspace_run; must not call back into the library with `ws`.
 *
 * @since 0.1
 */
typedef int32_t (*mk_judge_fn)(mk_gate gate, const char* question_json, size_t question_size,
                               mk_write_fn answer, void* answer_payload, void* payload);

/**
 * Gives a `memorybox gate` request the host's judgement: mk_workspace_run() asks `judge` for each
 * judgement the gates need. Without one every judgement is missing and the run stops at VALUE
 * with NEEDS_JUDGEMENT. An answer given as an argument (value, category, not-redundant, stable,
 * placement, ...) answers its gate without asking.
 *
 * @param req A `memorybox gate` request; never NULL.
 * @param judge The callback, or NULL to take it back.
 * @param payload Passed to `judge` unchanged.
 * @return MK_OK, or MK_E_ARG for another command.
 * @since 0.2 (0.1: mk_workspace_gate)
 */
MK_API mk_status mk_request_set_judge(mk_request* req, mk_judge_fn judge, void* payload);

/**
 * Runs a request on a workspace of its group's layout (custodian, memorybox, tiers, curated).
 * What the command checks itself (a required argument, a value's form) comes back as findings in
 * the result, as from the CLI.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param ws, now, req Never NULL; req is not changed and may be run again.
 * @return MK_OK, or MK_E_ARG for a NULL argument or a workspace of another layout.
 * @since 0.1
 */
MK_API mk_status mk_workspace_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                  const mk_request* req);

/* Section - Document */

/** A parsed Markdown file: its lines partitioned into units (spec compaction.md §6). Immutable:
 *  safe to share across threads. @since 0.1 */
typedef struct mk_document mk_document;

/** The kinds of unit. @since 0.1 */
typedef int32_t mk_unit_kind;
/** The values of mk_unit_kind. @since 0.1 */
enum {
  MK_UNIT_FRONT_MATTER = 0,
  MK_UNIT_BULLET = 1,
  MK_UNIT_FENCE = 2,
  MK_UNIT_COMMENT = 3,
  MK_UNIT_HEADING = 4,
  MK_UNIT_BLANK = 5,
  MK_UNIT_TEXT = 6
};

/** One unit: a range of whole lines. A plain value. @since 0.1 */
typedef struct mk_unit {
  mk_unit_kind kind;
  int32_t heading_level; /**< 1..6 for a heading, else 0 */
  uint32_t first_line;   /**< 1-based, inclusive */
  uint32_t last_line;    /**< inclusive */
  uint64_t begin;        /**< byte offset of the first line */
  uint64_t end;          /**< byte offset just past the last line's terminator */
} mk_unit;

/**
 * Parses bytes as Markdown. Never fails on content: an unclosed fence or comment leaves the
 * document without units and sections (its JSON shows both as null). Ill-formed UTF-8 is parsed
 * as it is; `custodian check` reports it for memory files.
 *
 * @param[out] out Destroy with mk_document_destroy().
 * @param data The bytes, `size` long; may be NULL when size is 0. Copied.
 * @return MK_OK, MK_E_ARG or MK_E_NOMEM.
 * @since 0.1
 */
MK_API mk_status mk_document_parse(mk_document** out, const char* data, size_t size);

/** Destroys a document. Accepts NULL. @since 0.1 */
MK_API void mk_document_destroy(mk_document* doc);

/**
 * Returns the number of units (0 when the document cannot be parsed).
 *
 * @param doc Never NULL.
 * @since 0.1
 */
MK_API uint64_t mk_document_unit_count(const mk_document* doc);

/**
 * Reads one unit, in file order.
 *
 * @param[out] out Written only on success.
 * @param doc Never NULL.
 * @param index Below mk_document_unit_count(doc).
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_document_unit(mk_unit* out, const mk_document* doc, uint64_t index);

/**
 * Writes the document as `memkit markdown units --format json` shows its data:
 * {"sections":[...],"units":[...]} (both null when unparseable).
 *
 * @param[out] out Release with mk_buf_dispose().
 * @param doc Never NULL.
 * @return MK_OK, MK_E_ARG or MK_E_NOMEM.
 * @since 0.1
 */
MK_API mk_status mk_document_json(mk_buf* out, const mk_document* doc);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MEMKIT_H */
