/* What the C ABI's C11 tests share: EXPECT and its failure count, running a request, files under a
 * test's root, the result's JSON and Plan ID, and the test's own folder under TMPDIR. Each test
 * includes it once. */
#ifndef MEMKIT_TESTS_CAPI_CHECK_H
#define MEMKIT_TESTS_CAPI_CHECK_H

#include <memkit.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int failures = 0;

static inline void expect_true(int condition, const char* what, const char* file, int line) {
  if (!condition) {
    const char* name = strrchr(file, '/');
    fprintf(stderr, "%s:%d: expected %s (last error: %s)\n", name != NULL ? name + 1 : file, line,
            what, mk_error_message());
    ++failures;
  }
}
#define EXPECT(condition) expect_true((condition) ? 1 : 0, #condition, __FILE__, __LINE__)

/* Runs `memkit <group> <verb>` on ws through a request. The arguments after `verb` end with NULL:
 * "name=value" sets a text argument (mk_request_set_string; numbers as the CLI's text), "--name"
 * a flag. Returns the first status that is not MK_OK (the request's or the run's), with *out
 * NULL, or MK_OK with the result in *out. */
static inline mk_status run_request_v(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                      const char* group, const char* verb, va_list arguments) {
  mk_request* req = NULL;
  *out = NULL;
  mk_status status = mk_request_create(&req, group, verb);
  for (const char* a = va_arg(arguments, const char*); status == MK_OK && a != NULL;
       a = va_arg(arguments, const char*)) {
    const char* equals = strchr(a, '=');
    if (strncmp(a, "--", 2) == 0 && equals == NULL) {
      status = mk_request_set_bool(req, a + 2, 1);
    } else {
      char name[128] = {0};
      const size_t n = equals == NULL ? strlen(a) : (size_t)(equals - a);
      memcpy(name, a, n < sizeof name - 1 ? n : sizeof name - 1);
      status = mk_request_set_string(req, name, equals == NULL ? "" : equals + 1);
    }
  }
  if (status == MK_OK) status = mk_workspace_run(out, ws, now, req);
  mk_request_destroy(req);
  return status;
}

static inline mk_status run_request(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                    const char* group, const char* verb, ...) {
  va_list arguments;
  va_start(arguments, verb);
  const mk_status status = run_request_v(out, ws, now, group, verb, arguments);
  va_end(arguments);
  return status;
}

/* Makes the test's own fresh folder, TMPDIR (else /tmp) + "/memkit-<name>-XXXXXX", into root;
 * returns 0, or prints why and returns 1. REQUIRES: _POSIX_C_SOURCE 200809L (mkdtemp). */
static inline int make_test_root(char* root, size_t size, const char* name) {
  const char* tmp = getenv("TMPDIR");
  snprintf(root, size, "%s/memkit-%s-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp", name);
  if (mkdtemp(root) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  return 0;
}

static inline void join_path(char* full, size_t size, const char* root, const char* path) {
  if (root == NULL) {
    snprintf(full, size, "%s", path);
  } else {
    snprintf(full, size, "%s/%s", root, path);
  }
}

static inline int write_file_at(const char* root, const char* path, const char* text) {
  char full[1024];
  join_path(full, sizeof full, root, path);
  FILE* f = fopen(full, "wb");
  if (f == NULL) return 0;
  const size_t n = strlen(text);
  const int ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* The file's bytes (NUL-terminated; free them), or NULL when it does not exist. */
static inline char* read_file_at(const char* root, const char* path) {
  char full[1024];
  join_path(full, sizeof full, root, path);
  FILE* f = fopen(full, "rb");
  if (f == NULL) return NULL;
  char* text = calloc(1, 1 << 16);
  if (text != NULL && fread(text, 1, (1 << 16) - 1, f) == 0 && ferror(f)) text[0] = '\0';
  fclose(f);
  return text;
}

static inline int file_holds(const char* root, const char* path, const char* expected) {
  char* text = read_file_at(root, path);
  const int same = text != NULL && strcmp(text, expected) == 0;
  free(text);
  return same;
}

static inline int path_exists(const char* root, const char* path) {
  char full[1024];
  struct stat st;
  join_path(full, sizeof full, root, path);
  return stat(full, &st) == 0;
}

/* Returns true iff the result's JSON holds `needle`. */
static inline int json_contains(const mk_result* result, const char* needle) {
  mk_buf json = {NULL, 0};
  if (mk_result_json(&json, result) != MK_OK) return 0;
  int found = 0;
  const size_t n = strlen(needle);
  for (size_t i = 0; !found && i + n <= json.size; ++i)
    found = memcmp(json.ptr + i, needle, n) == 0;
  mk_buf_dispose(&json);
  return found;
}

/* Copies the result's Plan ID into id (17 bytes); "" when it has none. */
static inline void plan_id_of(const mk_result* result, char* id) {
  const char* got = mk_result_plan_id(result);
  memset(id, 0, 17);
  if (got != NULL) memcpy(id, got, 16);
}

#endif /* MEMKIT_TESTS_CAPI_CHECK_H */
