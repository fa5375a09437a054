/* memkit.h: the C ABI of memkit, and the whole of it: what this header does not declare is not API.
 *
 * Self-contained C11 (and C++) header. Every fallible function returns mk_status; MK_OK is 0 and
 * errors are negative. mk_last_error_message() explains the most recent failure on the calling
 * thread, but a caller detects failure from the returned status, never from the message.
 * Exported symbols are listed, each by name, in capi/memkit.map; tests/abi/check_symbols.py keeps
 * this header, that list and the built library equal. */
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
#define MK_VERSION_MINOR 1
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
 * @return The MK_VERSION_NUMBER the library was built with, e.g. 100 for 0.1.0.
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
 * @since 0.1
 */
MK_API const char* mk_last_error_message(void);

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
  MK_LAYOUT_TIERS = 2,     /**< three-tier session memory: memory/ under the workspace (spec
                                tiers3.md); only mk_tiers_run and mk_workspace_recover; @since 0.1 */
  MK_LAYOUT_CURATED = 3    /**< curated memory: the store folder (the CLI's --store, spec
                                curated.md); only mk_curated_run; @since 0.1 */
};

/** The current mk_workspace_options layout. @since 0.1 */
#define MK_WORKSPACE_OPTIONS_VERSION 1u

/** How to open a workspace. Set version (or call mk_workspace_options_init) first; NULL for
 *  the defaults. @since 0.1 */
typedef struct mk_workspace_options {
  uint32_t version;            /**< MK_WORKSPACE_OPTIONS_VERSION */
  mk_layout layout;            /**< MK_LAYOUT_CUSTODIAN (default), MK_LAYOUT_MEMORYBOX,
                                    MK_LAYOUT_TIERS or MK_LAYOUT_CURATED */
  const char* memory_dir;      /**< custodian only, relative to the project root; NULL:
                                    "docs/memory" (not ""); must be NULL for the other
                                    layouts */
  double lock_timeout_seconds; /**< how long applies wait for the lock: 0 to 86400; default 10 */
} mk_workspace_options;

/**
 * Fills options with the defaults of this library's version.
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_workspace_options_init(mk_workspace_options* opts);

/** A project's memory folder, opened once and used by the commands below. Not thread-safe: use
 *  one workspace per thread (several may share a folder; applies take its lock). @since 0.1 */
typedef struct mk_workspace mk_workspace;

/**
 * Opens the memory folder of a project: checks the project root and, for MK_LAYOUT_CUSTODIAN,
 * that the memory directory lies strictly inside docs/ without symbolic links (for
 * MK_LAYOUT_MEMORYBOX, the agent root; its brain/ and memory/ are checked by each command). The
 * memory directory need not exist yet (mk_workspace_init creates it). For MK_LAYOUT_CURATED,
 * project_root is the store folder (the CLI's --store): a missing one is an empty store, made by
 * the first write, as the CLI allows; an existing path that is not a directory is MK_E_ARG.
 * Reads no memory file. A relative root is made absolute against the working directory now, so
 * a later chdir does not move the workspace.
 *
 * @param[out] out Destroy with mk_workspace_destroy().
 * @param project_root NUL-terminated path; never NULL.
 * @param opts NULL means defaults.
 * @return MK_OK, MK_E_ARG, MK_E_LAYOUT, MK_E_UNSAFE_PATH or MK_E_IO.
 * @since 0.1
 */
MK_API mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
                                   const mk_workspace_options* opts);

/** Closes a workspace. Accepts NULL. @since 0.1 */
MK_API void mk_workspace_destroy(mk_workspace* ws);

/* Section - Results
 *
 * Every command returns an mk_result: the same result the CLI prints for the same arguments and
 * clock. A command that ran returns MK_OK even when its findings stop it (a BLOCKER, a stale Plan
 * ID): read mk_result_exit_code() and the JSON. A non-OK status means no result was made (a NULL
 * argument, an options version this library does not know, out of memory). Besides the codes each
 * function lists, any fallible function may return MK_E_NOMEM or MK_E_INTERNAL. */

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
 * Returns the number of file rows of a custodian status result (mk_workspace_status), else 0
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

/* Section - Commands
 *
 * Each runs one command of the workspace's layout and returns its result (Destroy with
 * mk_result_destroy()): `memkit custodian ...` for MK_LAYOUT_CUSTODIAN; for MK_LAYOUT_MEMORYBOX,
 * mk_workspace_init, mk_workspace_status, mk_workspace_decay, mk_workspace_hygiene,
 * mk_workspace_load and mk_workspace_update run `memkit memorybox
 * init|status|decay|hygiene|load|update --root ROOT`. A command the layout does not have (yet)
 * gives a result with a fatal MK-ARG-001 finding; so does every function of this section on an
 * MK_LAYOUT_CURATED workspace, whose commands all run through mk_curated_run. `now` is never
 * NULL: every command reads the clock, as the CLI does. Text arguments are UTF-8 (data, size;
 * data may be NULL when size is 0) without NUL bytes: other text gives a result with a fatal
 * MK-ARG-001 finding and writes nothing. Paths and Plan IDs are NUL-terminated. Flag bits this
 * version does not define give MK_E_ARG. */

/** Flags of mk_workspace_init. @since 0.1 */
#define MK_INIT_EXTENDED 1u        /**< custodian: --extended */
#define MK_INIT_PROFILE_DEFAULT 2u /**< MemoryBox: --profile default */
#define MK_INIT_PROFILE_MAVEN 4u   /**< MemoryBox: --profile maven (spec memorybox.md §10) */

/**
 * `custodian init [--extended]` or `memorybox init [--profile default|maven]`: creates the memory
 * directory (or the MemoryBox folders) and every missing file; never overwrites. A profile flag
 * records the profile in the agent root's .memkit/profile first; both profile flags at once give
 * MK_E_ARG.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_init(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                   uint32_t flags);

/**
 * `custodian status`: token budgets and states per file; writes nothing. The rows are also read
 * with mk_result_budget_row().
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_status(mk_result** out, mk_workspace* ws, const mk_clock* now);

/**
 * `custodian check`: layout consistency; writes nothing.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_check(mk_result** out, mk_workspace* ws, const mk_clock* now);

/** Flags of mk_compact_options. @since 0.1 */
#define MK_COMPACT_ARCHIVE_OLDEST 1u
/** The current mk_compact_options layout. @since 0.1 */
#define MK_COMPACT_OPTIONS_VERSION 1u

/** What to compact. NULL for the defaults (inbox mode). @since 0.1 */
typedef struct mk_compact_options {
  uint32_t version;   /**< MK_COMPACT_OPTIONS_VERSION */
  uint32_t flags;     /**< 0 or MK_COMPACT_ARCHIVE_OLDEST */
  const char* target; /**< --target FILE, NUL-terminated; NULL for inbox mode */
} mk_compact_options;

/**
 * Fills options with the defaults of this library's version.
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_compact_options_init(mk_compact_options* opts);

/**
 * `custodian compact [--target FILE]`, a dry run: the plan and its ID; writes nothing.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_plan_compaction(mk_result** out, mk_workspace* ws,
                                              const mk_clock* now, const mk_compact_options* opts);

/**
 * `custodian compact ... --apply --confirm-plan ID`: takes the lock, plans again from disk, and
 * writes only when the new plan's ID is `confirm_plan_id` (else the result carries MK-PLAN-001
 * and nothing is written).
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_compaction(mk_result** out, mk_workspace* ws,
                                               const mk_clock* now,
                                               const mk_compact_options* opts,
                                               const char* confirm_plan_id);

/** Flags of mk_workspace_recover. @since 0.1 */
#define MK_RECOVER_APPLY 1u
#define MK_RECOVER_ROLLBACK 2u

/**
 * `custodian recover [--apply [--rollback]]` (`tiers recover` on an MK_LAYOUT_TIERS workspace,
 * `memorybox recover` on an MK_LAYOUT_MEMORYBOX one):
 * lists transactions a crash left unfinished; with MK_RECOVER_APPLY finishes them (or rolls them
 * back). An MK_LAYOUT_CURATED workspace gives a result with a fatal MK-ARG-001 finding: `curated
 * recover` needs the workspace name, so it is mk_curated_run with MK_CURATED_RECOVER.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_recover(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                      uint32_t flags);

/**
 * `custodian undo PLAN_ID`, a dry run: the plan that restores the bytes an applied plan replaced.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_plan_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                        const char* plan_id);

/**
 * `custodian undo PLAN_ID --apply --confirm-plan ID`.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param plan_id NUL-terminated; never NULL.
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                         const char* plan_id, const char* confirm_plan_id);

/** Flags of mk_add_options. @since 0.1 */
#define MK_ADD_ALLOW_LONG 1u
/** The current mk_add_options layout. @since 0.1 */
#define MK_ADD_OPTIONS_VERSION 1u

/** How to add an entry. `type` is required; the other strings are NULL when not given. @since 0.1 */
typedef struct mk_add_options {
  uint32_t version;   /**< MK_ADD_OPTIONS_VERSION */
  uint32_t flags;     /**< 0 or MK_ADD_ALLOW_LONG */
  const char* type;   /**< --type: decision, constraint, preference, tombstone, inbox, ... */
  const char* reason; /**< --reason */
  const char* name;   /**< --name */
  const char* area;   /**< --area */
} mk_add_options;

/**
 * Fills options with the defaults of this library's version (every string NULL).
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_add_options_init(mk_add_options* opts);

/**
 * `custodian add MESSAGE --type T ...`: writes one entry where its type belongs; an additive
 * write, applied directly under the lock.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param message UTF-8, `message_size` bytes; never NULL.
 * @param opts Never NULL (type is required).
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                  const char* message, size_t message_size,
                                  const mk_add_options* opts);

/** The modes of forget. @since 0.1 */
typedef int32_t mk_forget_mode;
/** The values of mk_forget_mode (spec compaction.md §14). @since 0.1 */
enum { MK_FORGET_SOFT = 0, MK_FORGET_HARD = 1, MK_FORGET_PURGE = 2 };
/** Flags of mk_forget_options. @since 0.1 */
#define MK_FORGET_ALLOW_BROAD_MATCH 1u
/** The current mk_forget_options layout. @since 0.1 */
#define MK_FORGET_OPTIONS_VERSION 1u

/** How to forget. NULL for the defaults (soft). @since 0.1 */
typedef struct mk_forget_options {
  uint32_t version;    /**< MK_FORGET_OPTIONS_VERSION */
  uint32_t flags;      /**< 0 or MK_FORGET_ALLOW_BROAD_MATCH */
  mk_forget_mode mode; /**< MK_FORGET_SOFT, MK_FORGET_HARD or MK_FORGET_PURGE */
} mk_forget_options;

/**
 * Fills options with the defaults of this library's version.
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_forget_options_init(mk_forget_options* opts);

/**
 * `custodian forget TOPIC`, a dry run. In hard and purge modes nothing in the result names the
 * topic.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param topic UTF-8, `topic_size` bytes; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_plan_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                          const char* topic, size_t topic_size,
                                          const mk_forget_options* opts);

/**
 * `custodian forget TOPIC --apply --confirm-plan ID`.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param topic UTF-8, `topic_size` bytes; never NULL.
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                           const char* topic, size_t topic_size,
                                           const mk_forget_options* opts,
                                           const char* confirm_plan_id);

/**
 * `memorybox decay [--file F]` (MK_LAYOUT_MEMORYBOX): every scored entry's effective confidence,
 * band and review state on `now`'s date, and the unscored entries; writes nothing.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param file NUL-terminated path of one tier 1-4 file relative to the root, or NULL for all.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_decay(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                    const char* file);

/**
 * `memorybox hygiene` (MK_LAYOUT_MEMORYBOX): the ten items of the monthly checklist and the
 * orphaned links, in the result's JSON ({"items","orphans"}); writes nothing. A failed item makes
 * the exit code 1.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_hygiene(mk_result** out, mk_workspace* ws, const mk_clock* now);

/** Flags of mk_workspace_load. @since 0.1 */
#define MK_LOAD_INCLUDE_ARCHIVE 1u

/**
 * `memorybox load --tier N | --file F [--include-archive]` (MK_LAYOUT_MEMORYBOX): the existing
 * files of a tier (or one file) with their contents, in the result's JSON
 * ({"files":[{content, lines, path, tier}]}). Tier 5 needs MK_LOAD_INCLUDE_ARCHIVE unless `file`
 * lies under memory/ARCHIVES/. Writes nothing.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param tier 1 to 5, or 0 when `file` is given.
 * @param file NUL-terminated path relative to the root, or NULL when `tier` is given.
 * @return MK_OK or MK_E_ARG (unknown flag bits, or both or neither of tier and file).
 * @since 0.1
 */
MK_API mk_status mk_workspace_load(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                   int32_t tier, const char* file, uint32_t flags);

/** The events of mk_workspace_update (spec memorybox.md §6). @since 0.1 */
typedef int32_t mk_update_event;
/** The values of mk_update_event. @since 0.1 */
enum {
  MK_UPDATE_VERIFY = 0,      /**< --verify: Verified := today */
  MK_UPDATE_CONFIRM = 1,     /**< --confirm: Confidence + 0.05 (capped at 1.00), Verified := today */
  MK_UPDATE_CONTRADICT = 2,  /**< --contradict --note N: Review := contradicted <today>: N */
  MK_UPDATE_RESOLVE_KEEP = 3 /**< --resolve keep [--confidence C]: clears Review */
};
/** The current mk_update_options layout. @since 0.1 */
#define MK_UPDATE_OPTIONS_VERSION 1u

/** An update's event and its arguments. Set version (or call mk_update_options_init) first.
 *  @since 0.1 */
typedef struct mk_update_options {
  uint32_t version;      /**< MK_UPDATE_OPTIONS_VERSION */
  mk_update_event event; /**< MK_UPDATE_* */
  const char* note;      /**< NUL-terminated UTF-8; required with MK_UPDATE_CONTRADICT, else NULL */
  int32_t confidence;    /**< with MK_UPDATE_RESOLVE_KEEP: the new Confidence in hundredths
                              (0-100), or -1 to keep it; -1 for every other event */
} mk_update_options;

/**
 * Fills options with the defaults of this library's version (MK_UPDATE_VERIFY, no note,
 * confidence -1).
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_update_options_init(mk_update_options* opts);

/**
 * `memorybox update --entry ID ...` (MK_LAYOUT_MEMORYBOX): records one event on an entry's field
 * lines and writes the file directly; nothing else in it changes. The JSON's data is
 * {"after","before","entry_id","written"}.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param entry_id NUL-terminated "<path>#<12 hex digits>" (an entry_id of mk_workspace_decay's
 *        JSON); never NULL.
 * @param opts Never NULL.
 * @return MK_OK or MK_E_ARG (NULL, unknown version or event, a confidence outside -1..100).
 * @since 0.1
 */
MK_API mk_status mk_workspace_update(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                     const char* entry_id, const mk_update_options* opts);

/** The five gates of mk_workspace_gate, in the order they run (spec memorybox.md §4).
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
 * the thread that called mk_workspace_gate; must not call back into the library with `ws`.
 *
 * @since 0.1
 */
typedef int32_t (*mk_judge_fn)(mk_gate gate, const char* question_json, size_t question_size,
                               mk_write_fn answer, void* answer_payload, void* payload);

/** The current mk_gate_candidate layout. @since 0.1 */
#define MK_GATE_CANDIDATE_VERSION 1u

/** What the host wants remembered. Set version (or call mk_gate_candidate_init) first.
 *  @since 0.1 */
typedef struct mk_gate_candidate {
  uint32_t version;       /**< MK_GATE_CANDIDATE_VERSION */
  const char* text;       /**< UTF-8, `text_size` bytes; required */
  size_t text_size;       /**< bytes of `text` */
  const char* confidence; /**< NUL-terminated, the Confidence form: "0.85", "1", "0.5"; required */
  const char* title;      /**< NUL-terminated or NULL; required for section files and
                               memory/SESSION_LOG.md */
  const char* source;     /**< NUL-terminated or NULL: becomes `Source:` */
  const char* client;     /**< NUL-terminated or NULL: becomes `Client:` */
} mk_gate_candidate;

/**
 * Fills a candidate with the defaults of this library's version (everything NULL and 0).
 *
 * @param candidate Never NULL.
 * @since 0.1
 */
MK_API void mk_gate_candidate_init(mk_gate_candidate* candidate);

/** Flags of mk_workspace_gate: write a WRITE outcome (additive, so it needs no plan). @since 0.1 */
#define MK_GATE_APPLY 1u

/**
 * `memorybox gate` (MK_LAYOUT_MEMORYBOX): runs the five gates for a candidate, asking `judge` for
 * each judgement, and with MK_GATE_APPLY writes the entry when the outcome is WRITE. The JSON's
 * data is {"applied","budget","category","entry_id","entry_text","file","gates",
 * "near_duplicates","outcome","stopped_at","tier","written"} (spec memorybox.md §4); the outcome
 * DO_NOT_STORE, DISCARD, UPDATE_EXISTING or NEEDS_JUDGEMENT exits 0 and REJECTED exits 1.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param candidate Never NULL.
 * @param judge The host's judgement, or NULL: every judgement is then missing and the run stops
 *        at VALUE with NEEDS_JUDGEMENT.
 * @param payload Passed to `judge` unchanged.
 * @return MK_OK or MK_E_ARG (NULL, unknown version or flag bits).
 * @since 0.1
 */
MK_API mk_status mk_workspace_gate(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                   const mk_gate_candidate* candidate, mk_judge_fn judge,
                                   void* payload, uint32_t flags);

/**
 * `memorybox canon add --file F --text T` (MK_LAYOUT_MEMORYBOX, a Maven root; spec memorybox.md
 * §10): appends `- T` to brain/MARKETING_CANON.md (append-only) or creates the write-once
 * brain/canon/<name>.md holding T, then records the file's length and SHA-256 in
 * .memkit/canon-ledger.jsonl, under the lock. The JSON's data is {"ledger","unrecorded",
 * "violations","written"}. A file that already violates the ledger gets the ERROR MK-BOX-030 and
 * nothing is written.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param file NUL-terminated path relative to the root; never NULL.
 * @param text UTF-8, `text_size` bytes; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_canon_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                        const char* file, const char* text, size_t text_size);

/**
 * `memorybox canon verify` (MK_LAYOUT_MEMORYBOX, a Maven root): checks that each canon file still
 * begins with the bytes its latest ledger record covers (and that a write-once file holds nothing
 * more); every violation is the ERROR MK-BOX-030 (exit code 1). Writes nothing.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_canon_verify(mk_result** out, mk_workspace* ws, const mk_clock* now);

/** Flags of mk_workspace_plan_memorybox_compact. @since 0.1 */
#define MK_MEMORYBOX_COMPACT_FORCE 1u /**< --force: every rule acts, breached or not */

/**
 * `memorybox compact [--file F] [--force]` (MK_LAYOUT_MEMORYBOX), a dry run: the five bloat rules
 * of spec memorybox.md §7 (their thresholds, the entries that would move verbatim into
 * memory/ARCHIVES/, the review candidates) and the plan with its ID, in the result's JSON
 * ({"actions","applied","plan","rules","written"}); writes nothing. A workspace of another layout
 * gives a result with a fatal MK-ARG-001 finding.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param file NUL-terminated: memory/SESSION_LOG.md, memory/ACTIVE_TASKS.md, memory/MISTAKES.md,
 *        memory/PATTERNS.md or memory/daily/ to run that one rule; NULL for all five.
 * @param flags 0 or MK_MEMORYBOX_COMPACT_FORCE.
 * @return MK_OK or MK_E_ARG (NULL out, ws or now, or unknown flag bits).
 * @since 0.1
 */
MK_API mk_status mk_workspace_plan_memorybox_compact(mk_result** out, mk_workspace* ws,
                                                     const mk_clock* now, const char* file,
                                                     uint32_t flags);

/**
 * `memorybox compact [--file F] [--force] --apply --confirm-plan ID`: takes the root's lock,
 * finishes what a crash left of an earlier memorybox apply, plans again from disk, and writes only
 * when the new plan's ID is `confirm_plan_id` (else the result carries MK-PLAN-001 and nothing is
 * written). Keeps no applied record: memorybox has no undo.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param file As for mk_workspace_plan_memorybox_compact.
 * @param flags As for mk_workspace_plan_memorybox_compact.
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_memorybox_compact(mk_result** out, mk_workspace* ws,
                                                      const mk_clock* now, const char* file,
                                                      uint32_t flags,
                                                      const char* confirm_plan_id);

/**
 * `memorybox promote --entry ID` (MK_LAYOUT_MEMORYBOX), a dry run: the plan that moves a pattern
 * of memory/PATTERNS.md verbatim to the end of memory/SOP_LIBRARY.md; the JSON's data is
 * {"applied","plan","written"}. Another entry gives a result with a fatal MK-ARG-001 finding.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param entry_id NUL-terminated "memory/PATTERNS.md#<12 hex digits>"; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_plan_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                           const char* entry_id);

/**
 * `memorybox promote --entry ID --apply --confirm-plan ID`, with the lock and checks of
 * mk_workspace_apply_memorybox_compact.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param entry_id NUL-terminated; never NULL.
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                            const char* entry_id, const char* confirm_plan_id);

/**
 * `memorybox update --entry ID --resolve archive` (MK_LAYOUT_MEMORYBOX), a dry run: the plan that
 * moves the entry verbatim to memory/ARCHIVES/<stem>-<YYYY-MM of now>.md (a daily file: archived
 * whole, then deleted); the JSON's data is {"after","applied","before","entry_id","plan",
 * "written"}.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param entry_id NUL-terminated "<path>#<12 hex digits>" of a tier 1-4 entry; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_plan_archive_entry(mk_result** out, mk_workspace* ws,
                                                 const mk_clock* now, const char* entry_id);

/**
 * `memorybox update --entry ID --resolve archive --apply --confirm-plan ID`, with the lock and
 * checks of mk_workspace_apply_memorybox_compact.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param entry_id NUL-terminated; never NULL.
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_archive_entry(mk_result** out, mk_workspace* ws,
                                                  const mk_clock* now, const char* entry_id,
                                                  const char* confirm_plan_id);

/** A client's lifecycle on a Maven root (spec memorybox.md §10). @since 0.1 */
typedef int32_t mk_lifecycle;
/** The values of mk_lifecycle. @since 0.1 */
enum {
  MK_LIFECYCLE_ACTIVE = 0,      /**< brain/clients/C.md, in tier 1 and its budget */
  MK_LIFECYCLE_MAINTENANCE = 1, /**< brain/clients/C.md, loaded on demand (tier 2) */
  MK_LIFECYCLE_ARCHIVED = 2     /**< moved to memory/ARCHIVES/clients/C/, out of every load set */
};

/**
 * `memorybox client set --client C --to S` (MK_LAYOUT_MEMORYBOX, a root initialised with
 * MK_INIT_PROFILE_MAVEN), exactly as the CLI runs it without --apply. active -> maintenance and
 * maintenance -> active are a field update: the profile's `Lifecycle:` line is written directly
 * and the JSON's "written" names brain/clients/C.md. A move to or from archived is a dry run: the
 * plan that moves brain/clients/C.md (its `Lifecycle:` line set to the new state) and every file
 * of memory/clients/C/ verbatim to memory/ARCHIVES/clients/C/ (or back), writing nothing; apply it
 * with mk_workspace_apply_client_set. A state to itself writes nothing. The JSON's data is
 * {"applied","client","from","plan","to","written"}. A transition spec memorybox.md §10 does not
 * allow (active -> archived, archived -> maintenance) is the ERROR MK-BOX-031 (exit code 1); a
 * root of another profile, an unknown client or a key that is not file-name safe is a fatal
 * MK-ARG-001.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param client NUL-terminated key of brain/clients/<client>.md: A-Z, a-z, 0-9, '.', '_' and
 *        '-', not starting with '.'; never NULL.
 * @param to MK_LIFECYCLE_ACTIVE, MK_LIFECYCLE_MAINTENANCE or MK_LIFECYCLE_ARCHIVED.
 * @return MK_OK or MK_E_ARG (NULL out, ws, now or client, or an unknown lifecycle).
 * @since 0.1
 */
MK_API mk_status mk_workspace_client_set(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                         const char* client, mk_lifecycle to);

/**
 * `memorybox client set --client C --to S --apply --confirm-plan ID`: a move to or from archived,
 * with the lock and checks of mk_workspace_apply_memorybox_compact; the moved files are created
 * and their sources deleted in one journalled apply. For active <-> maintenance (no plan) the
 * result carries a fatal MK-ARG-001 and nothing is written: use mk_workspace_client_set.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param client As for mk_workspace_client_set.
 * @param to As for mk_workspace_client_set.
 * @param confirm_plan_id NUL-terminated; never NULL.
 * @return MK_OK or MK_E_ARG.
 * @since 0.1
 */
MK_API mk_status mk_workspace_apply_client_set(mk_result** out, mk_workspace* ws,
                                               const mk_clock* now, const char* client,
                                               mk_lifecycle to, const char* confirm_plan_id);

/* Section - MemoryBox sync (spec memorybox.md §9)
 *
 * `memkit memorybox sync pull|push|status|resolve --root ROOT` through one function on a workspace
 * opened with MK_LAYOUT_MEMORYBOX: the verb is a number and its arguments are an mk_sync_options
 * whose fields are the CLI's options. A field the verb does not take must stay unset (NULL or 0):
 * a set one gives the CLI's fatal MK-ARG-001 ("--id: not an option of memorybox sync push"), but
 * conninfo, which is no option, is only read with remote "postgres". The result's JSON is the
 * CLI's, byte for byte. The library reads no environment variable: MEMKIT_SYNC_CONNINFO and
 * --conninfo-file are the CLI's alone, so the PostgreSQL connection string is the conninfo field,
 * and no result, finding or error message ever contains it. A relative `dir:PATH` remote names a
 * folder of the process's working directory. */

/** The verbs of mk_memorybox_sync. @since 0.1 */
typedef int32_t mk_sync_command;
/** The values of mk_sync_command, each `memkit memorybox sync <verb>`. @since 0.1 */
enum {
  MK_SYNC_PULL = 0,   /**< pull: merge the remote's records into the files (remote, workspace_id,
                           apply, confirm_plan) */
  MK_SYNC_PUSH = 1,   /**< push: send every record changed since the last push (remote,
                           workspace_id) */
  MK_SYNC_STATUS = 2, /**< status: the sync state; with remote also pending_pull (remote) */
  MK_SYNC_RESOLVE = 3 /**< resolve: settle one open conflict (id, take) */
};

/** The current mk_sync_options layout. @since 0.1 */
#define MK_SYNC_OPTIONS_VERSION 1u

/** The arguments of a sync verb. Call mk_sync_options_init first. Strings are NUL-terminated
 *  UTF-8, NULL when not given; apply is 0 or 1. @since 0.1 */
typedef struct mk_sync_options {
  uint32_t version;         /**< MK_SYNC_OPTIONS_VERSION */
  const char* remote;       /**< --remote: "dir:PATH" (a folder that exists) or "postgres"; pull
                                 and push need it */
  const char* conninfo;     /**< with remote "postgres": the libpq connection string or URI
                                 (NULL: libpq's defaults, its PG* variables, ~/.pgpass and
                                 services); never copied into a result; ignored otherwise */
  const char* workspace_id; /**< --workspace-id: a lower-case 8-4-4-4-12 UUID (pull, push);
                                 needed only by a root's first sync, which otherwise makes a
                                 random one; refused when it differs from .memkit/sync.json's */
  const char* id;           /**< --id: the record id of an open conflict (resolve) */
  const char* take;         /**< --take: "local" or "remote" (resolve) */
  const char* confirm_plan; /**< --apply --confirm-plan ID (pull: the Plan ID of its dry run) */
  int32_t apply;            /**< --apply (pull; implied by confirm_plan) */
} mk_sync_options;

/**
 * Fills options with "nothing given": NULL strings, apply 0.
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_sync_options_init(mk_sync_options* opts);

/**
 * Runs `memkit memorybox sync <verb> --root ROOT` with the arguments in options, exactly as the
 * CLI runs it (spec memorybox.md §9), under the root's .memkit/lock (waiting up to the
 * workspace's lock timeout). pull reads the remote first and writes nothing when that fails (the
 * fatal MK-BOX-023, 024 or 025); what only adds entries is written at once, while a pull that
 * replaces or removes local text is a dry run showing its plan until confirm_plan names that
 * plan's ID. push writes the Id and Updated lines it needs, then sends; a record the remote
 * refuses is the ERROR MK-BOX-020. status reads no remote unless remote is given. resolve writes
 * the chosen version; an id with no open conflict is a fatal MK-ARG-001. The JSON's data keys are
 * those of memorybox.md §9 (pull: applied, items, needs_confirmation, open_conflicts, plan,
 * pulled, unchanged, workspace_id, written; push: assigned, held, last_push_at, last_push_ok,
 * refused, sent, workspace_id; status: last_pull_at, last_push_at, last_push_ok, open_conflicts,
 * pending_pull, pending_push, workspace_id; resolve: file, id, plan, take, written).
 * mk_result_plan_id() and mk_result_applied() are a pull's plan and whether it reached the disk;
 * for the other verbs they are NULL and 0 (a resolve's plan is in the JSON's data.plan).
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param ws A workspace opened with MK_LAYOUT_MEMORYBOX (another layout gives a fatal
 *        MK-ARG-001).
 * @param now The clock: Updated stamps, last_push_at and last_pull_at, new Ids; never NULL.
 * @param command One of MK_SYNC_*.
 * @param options NULL means nothing given (then pull and push stop at a fatal MK-ARG-001: they
 *        need remote).
 * @return MK_OK or MK_E_ARG (NULL out, ws or now, an unknown command or options version).
 * @since 0.1
 */
MK_API mk_status mk_memorybox_sync(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                   mk_sync_command command, const mk_sync_options* options);

/* Section - Three-tier session memory (spec tiers3.md)
 *
 * Every `memkit tiers` command through one function on a workspace opened with MK_LAYOUT_TIERS:
 * the command is a number and its arguments are an mk_tiers_options whose fields are the CLI's
 * options. A field the command does not take must stay unset (NULL, MK_TIERS_UNSET or 0): a set
 * one gives the CLI's fatal MK-ARG-001 "unknown option". The result's JSON is the CLI's. */

/** The commands of mk_tiers_run. @since 0.1 */
typedef int32_t mk_tiers_command;
/** The values of mk_tiers_command, each `memkit tiers <name>`. @since 0.1 */
enum {
  MK_TIERS_INIT = 0,           /**< init */
  MK_TIERS_SESSION_INIT = 1,   /**< session-init */
  MK_TIERS_LOG_TURN = 2,       /**< log-turn */
  MK_TIERS_READ_LOGS = 3,      /**< read-logs */
  MK_TIERS_PERSIST_TURN = 4,   /**< persist-turn */
  MK_TIERS_WRITE_THEME = 5,    /**< write-theme */
  MK_TIERS_READ_THEME = 6,     /**< read-theme */
  MK_TIERS_READ_GLOBAL = 7,    /**< read-global */
  MK_TIERS_WRITE_GLOBAL = 8,   /**< write-global */
  MK_TIERS_LIST_THEMES = 9,    /**< list-themes */
  MK_TIERS_WRITE_DATA = 10,    /**< write-data */
  MK_TIERS_READ_DATA = 11,     /**< read-data */
  MK_TIERS_LIST_DATA = 12,     /**< list-data */
  MK_TIERS_ARCHIVE_THEMES = 13, /**< archive-themes (with confirm_plan_id: --apply --confirm-plan) */
  MK_TIERS_TEMPLATE = 14       /**< template NAME (the name in template_name) */
};

/** The value of an integer field of mk_tiers_options that is not given. @since 0.1 */
#define MK_TIERS_UNSET INT64_MIN

/** The current mk_tiers_options layout. @since 0.1 */
#define MK_TIERS_OPTIONS_VERSION 1u

/** The arguments of a tiers command. Call mk_tiers_options_init first. Strings are
 *  NUL-terminated UTF-8, NULL when not given; integers are MK_TIERS_UNSET when not given (any
 *  other value is passed on as the CLI's decimal text, so a negative one is refused the same way);
 *  flags are 0 or 1. @since 0.1 */
typedef struct mk_tiers_options {
  uint32_t version;              /**< MK_TIERS_OPTIONS_VERSION */
  const char* content;           /**< --content */
  const char* raw_content;       /**< --raw-content */
  const char* extracted_content; /**< --extracted-content */
  const char* theme;             /**< --theme */
  const char* template_name;     /**< --template; for MK_TIERS_TEMPLATE the template shown */
  const char* title;             /**< --title */
  const char* entry_type;        /**< --entry-type (default "turn") */
  const char* session_id;        /**< --session-id */
  const char* tools_json;        /**< --tools: a JSON array of strings */
  const char* name;              /**< --name (write-data, read-data) */
  const char* csv_content;       /**< --csv-content; "" is empty CSV, NULL is not given */
  const char* source_file;       /**< --source-file, relative to the working directory */
  const char* description;       /**< --description */
  const char* source_label;      /**< --source-label */
  const char* columns_json;      /**< --columns-json: a JSON array of strings */
  const char* confirm_plan_id;   /**< archive-themes: --apply --confirm-plan ID */
  int64_t recent_days;           /**< --recent-days (session-init, default 7) */
  int64_t theme_limit;           /**< --theme-limit (session-init, default 8) */
  int64_t max_tokens;            /**< --max-tokens (session-init) */
  int64_t days_back;             /**< --days-back (read-logs, default 7) */
  int64_t limit;                 /**< --limit (read-logs, read-theme, default 20) */
  int64_t hours_back;            /**< --hours-back (read-theme, default 24) */
  int64_t head;                  /**< --head (read-data) */
  int64_t days;                  /**< --days (archive-themes, default 90) */
  int32_t no_log;                /**< --no-log (session-init) */
  int32_t promote_global;        /**< --promote-global (persist-turn, write-theme) */
  int32_t append;                /**< --append (write-global) */
  int32_t replace;               /**< --replace (write-global, write-data) */
} mk_tiers_options;

/**
 * Fills options with "nothing given": NULL strings, MK_TIERS_UNSET integers, 0 flags.
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_tiers_options_init(mk_tiers_options* opts);

/**
 * Runs `memkit tiers <command>` with the arguments in opts, exactly as the CLI runs it (spec
 * tiers3.md §8): reads never write; a write checks every argument first and then writes all its
 * files or none, in the commit order of §9, under the workspace's .memkit/lock (waiting up to the
 * workspace's lock timeout).
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param ws A workspace opened with MK_LAYOUT_TIERS (another layout gives a fatal MK-ARG-001).
 * @param command One of MK_TIERS_*.
 * @param opts NULL means nothing given.
 * @return MK_OK or MK_E_ARG (NULL out, ws or now, an unknown command or options version).
 * @since 0.1
 */
MK_API mk_status mk_tiers_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
                              mk_tiers_command command, const mk_tiers_options* opts);

/* Section - Curated memory (spec curated.md)
 *
 * Every `memkit curated` command through one function on a workspace opened with
 * MK_LAYOUT_CURATED, whose path is the store folder (the CLI's --store): the command is a number
 * and its arguments are an mk_curated_options whose fields are the CLI's options and positional
 * arguments. A field the command does not take must stay unset (NULL, MK_CURATED_UNSET or 0): a
 * set option gives the CLI's fatal MK-ARG-001 "unknown option", a set positional field the CLI's
 * refusal of an extra argument. The result's JSON is the CLI's, byte for byte. The library reads
 * no environment variable: MEMKIT_STORE, MEMKIT_WORKSPACE and MEMKIT_ACTOR are the CLI's alone,
 * so the workspace and actor are always fields (a NULL workspace is the CLI's missing_scope,
 * MK-CUR-001). A file field (body_file, file) is read relative to the process's working
 * directory; "-" (standard input) is the CLI's alone and gives a fatal MK-ARG-001. */

/** The commands of mk_curated_run. @since 0.1 */
typedef int32_t mk_curated_command;
/** The values of mk_curated_command, each `memkit curated <words>`. A command of two words
 *  passes its second word as the first positional argument (`curated event add`). @since 0.1 */
enum {
  MK_CURATED_ADD = 0,                /**< add (--name from name) */
  MK_CURATED_APPEND = 1,             /**< append NAME */
  MK_CURATED_EDIT = 2,               /**< edit (--name from name) */
  MK_CURATED_RECLASSIFY = 3,         /**< reclassify NAME */
  MK_CURATED_LINK = 4,               /**< link SRC DST (SRC in name) */
  MK_CURATED_UNLINK = 5,             /**< unlink SRC DST (SRC in name) */
  MK_CURATED_DELETE = 6,             /**< delete NAME (a dry run without yes) */
  MK_CURATED_RESTORE = 7,            /**< restore NAME */
  MK_CURATED_CHECKPOINT = 8,         /**< checkpoint */
  MK_CURATED_BATCH = 9,              /**< batch */
  MK_CURATED_GET_RELEVANT = 10,      /**< get-relevant */
  MK_CURATED_KERNEL = 11,            /**< kernel */
  MK_CURATED_SHOW = 12,              /**< show NAME */
  MK_CURATED_LIST = 13,              /**< list */
  MK_CURATED_SEARCH = 14,            /**< search QUERY (in query) */
  MK_CURATED_STATS = 15,             /**< stats */
  MK_CURATED_CONFLICTS = 16,         /**< conflicts */
  MK_CURATED_LINEAGE = 17,           /**< lineage NAME */
  MK_CURATED_STORY = 18,             /**< story NAME */
  MK_CURATED_EVENT_ADD = 19,         /**< event add */
  MK_CURATED_EPISODE_ADD = 20,       /**< episode add */
  MK_CURATED_EPISODE_SHOW = 21,      /**< episode show ID (in id) */
  MK_CURATED_FLOORS_PRUNE = 22,      /**< floors prune (a dry run without confirm_plan_id) */
  MK_CURATED_TELEMETRY_COMPACT = 23, /**< telemetry compact (a dry run without
                                          confirm_plan_id) */
  MK_CURATED_RECOVER = 24            /**< recover (apply, rollback) */
};

/** The value of an integer field of mk_curated_options that is not given. @since 0.1 */
#define MK_CURATED_UNSET INT64_MIN

/** The current mk_curated_options layout. @since 0.1 */
#define MK_CURATED_OPTIONS_VERSION 1u

/** The arguments of a curated command. Call mk_curated_options_init first. Strings are
 *  NUL-terminated UTF-8, NULL when not given; integers are MK_CURATED_UNSET when not given (any
 *  other value is passed on as the CLI's decimal text, so a negative one is refused the same
 *  way); flags are 0 or 1. The positional fields (name, dst, query, id) become the command's
 *  arguments in that order, after a two-word command's second word; name is --name for
 *  MK_CURATED_ADD and MK_CURATED_EDIT instead. @since 0.1 */
typedef struct mk_curated_options {
  uint32_t version;            /**< MK_CURATED_OPTIONS_VERSION */
  const char* workspace;       /**< --workspace: every command needs it (NULL: MK-CUR-001) */
  const char* actor;           /**< --actor of a write (NULL: the human owner, spec §11) */
  const char* name;            /**< --name of add and edit; the NAME of append, reclassify,
                                    delete, restore, show, lineage and story; the SRC of link
                                    and unlink */
  const char* dst;             /**< the DST of link and unlink */
  const char* query;           /**< the QUERY of search */
  const char* id;              /**< the ID of episode show */
  const char* type;            /**< --type (add, list; event add: the event's type) */
  const char* body;            /**< --body (add, append) */
  const char* body_file;       /**< --body-file (add, append, edit) */
  const char* description;     /**< --description (add) */
  const char* row_class;       /**< --class: anchor, thread or log (add, reclassify, list) */
  const char* status;          /**< --status: a thread status, or "null" (add, reclassify,
                                    list) */
  const char* initiative;      /**< --initiative (add, edit, checkpoint, get-relevant, list) */
  const char* project_ref;     /**< --project-ref (add, edit, checkpoint) */
  const char* audience;        /**< --audience (add, edit, list) */
  const char* origin_session;  /**< --origin-session (add) */
  const char* field;           /**< --field: description or body (edit) */
  const char* content;         /**< --content (edit) */
  const char* kind;            /**< --kind: the link kind (link, unlink) */
  const char* file;            /**< --file (checkpoint, batch, episode add) */
  const char* sort;            /**< --sort (list) */
  const char* order;           /**< --order (list) */
  const char* scope;           /**< --scope: memory, episodes or both (search) */
  const char* threshold;       /**< --threshold as text, e.g. "0.3" (conflicts) */
  const char* before;          /**< --before: an RFC 3339 time (telemetry compact) */
  const char* source;          /**< --source (event add) */
  const char* agent;           /**< --agent (event add) */
  const char* result;          /**< --result (event add) */
  const char* severity;        /**< --severity (event add) */
  const char* payload;         /**< --payload: a JSON value (event add) */
  const char* confirm_plan_id; /**< --apply --confirm-plan ID (floors prune, telemetry
                                    compact) */
  int64_t max_chars;           /**< --max-chars (get-relevant, kernel) */
  int64_t limit;               /**< --limit (list, search) */
  int64_t max_depth;           /**< --max-depth (lineage, story) */
  int32_t dry_run;             /**< --dry-run (the writes but delete and batch) */
  int32_t links;               /**< --links (show) */
  int32_t history;             /**< --history (show) */
  int32_t include_deleted;     /**< --include-deleted (show, list, lineage, story) */
  int32_t yes;                 /**< --yes (delete: without it a dry run) */
  int32_t hard;                /**< --hard (delete) */
  int32_t delete_link;         /**< --delete (link: remove the link, as unlink) */
  int32_t apply;               /**< --apply (recover) */
  int32_t rollback;            /**< --rollback (recover, with apply) */
} mk_curated_options;

/**
 * Fills options with "nothing given": NULL strings, MK_CURATED_UNSET integers, 0 flags.
 *
 * @param opts Never NULL.
 * @since 0.1
 */
MK_API void mk_curated_options_init(mk_curated_options* opts);

/**
 * Runs `memkit curated <command> --store STORE` with the arguments in opts, exactly as the CLI
 * runs it (spec curated.md): reads never write a row (counted reads append their access records,
 * §9); a write checks every argument and the writer boundary first and then writes its row files
 * and history lines as one transaction, or nothing, under the store's .memkit/lock (waiting up
 * to the workspace's lock timeout). mk_result_applied() is 1 when a write reached the disk.
 *
 * @param[out] out Destroy with mk_result_destroy().
 * @param ws A workspace opened with MK_LAYOUT_CURATED (another layout gives a fatal MK-ARG-001).
 * @param command One of MK_CURATED_*.
 * @param opts NULL means nothing given (then every command stops at MK-CUR-001).
 * @return MK_OK or MK_E_ARG (NULL out, ws or now, an unknown command or options version).
 * @since 0.1
 */
MK_API mk_status mk_curated_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                mk_curated_command command, const mk_curated_options* opts);

/* Section - Requests
 *
 * Any command of the command table (mk_commands_json), by its group and verb, with its arguments
 * set by name: the way the ABI grows without a new struct or function per command. Names are the
 * table's without the leading dashes ("type", "confirm-plan"; "_" is read as "-"), positionals
 * by their lower-case names ("message", "src"). The workspace gives the root (--project-root and
 * --memory-dir, --root, --workspace of tiers, --store) and the clock; the JSON is the CLI's. */

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
 * as it is; mk_workspace_check reports it for memory files.
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
