/* memkit.h: the C ABI of memkit, and the whole of it: what this header does not declare is not API.
 *
 * Self-contained C11 (and C++) header. Every fallible function returns mk_status; MK_OK is 0 and
 * errors are negative. mk_last_error_message() explains the most recent failure on the calling
 * thread, but a caller detects failure from the returned status, never from the message.
 * Exported symbols are listed, each by name, in capi/memkit.map; tests/abi/check_symbols.py keeps
 * this header, that list and the built library equal. */
#ifndef MEMKIT_H
#define MEMKIT_H

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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MEMKIT_H */
