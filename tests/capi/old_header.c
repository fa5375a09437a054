/* A caller built against the 0.2.0 header (tests/capi/abi/memkit-0.2.0.h, a frozen copy) and run
 * against the library of this tree: its structs, constants and functions still work. When a later
 * version appends fields to mk_workspace_options, this caller's smaller struct must be filled and
 * read only as far as its own version goes; the guard bytes after it prove nothing more is
 * written. */
#define _POSIX_C_SOURCE 200809L
#include "memkit-0.2.0.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define EXPECT(condition)                                                            \
  do {                                                                               \
    if (!(condition)) {                                                              \
      fprintf(stderr, "old_header.c:%d: expected %s (%s)\n", __LINE__, #condition, \
              mk_error_message());                                                   \
      ++failures;                                                                    \
    }                                                                                \
  } while (0)

int main(void) {
  /* The library is this header's version or a later compatible one (same major, minor >= 2). */
  EXPECT(mk_version_number() / 10000 == MK_VERSION_MAJOR);
  EXPECT(mk_version_number() >= MK_VERSION_NUMBER);

  /* The options struct of version 1, followed by guard bytes the library must not touch. */
  struct {
    mk_workspace_options options;
    unsigned char guard[64];
  } caller;
  memset(&caller, 0xA5, sizeof caller);
  EXPECT(mk_workspace_options_init(&caller.options, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  EXPECT(caller.options.version == MK_WORKSPACE_OPTIONS_VERSION);
  EXPECT(caller.options.layout == MK_LAYOUT_CUSTODIAN && caller.options.memory_dir == NULL);
  for (size_t i = 0; i < sizeof caller.guard; ++i) EXPECT(caller.guard[i] == 0xA5);

  char root[512];
  const char* tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/memkit-old-header-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
  if (mkdtemp(root) == NULL) return 1;
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, &caller.options) == MK_OK);
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-12-03T10:00:00+00:00") == MK_OK);

  mk_request* req = NULL;
  EXPECT(mk_request_create(&req, "custodian", "init") == MK_OK);
  mk_result* result = NULL;
  EXPECT(mk_workspace_run(&result, ws, &now, req) == MK_OK);
  EXPECT(result != NULL && mk_result_exit_code(result) == 0);
  mk_result_destroy(result);
  mk_request_destroy(req);
  EXPECT(mk_request_create(&req, "custodian", "add") == MK_OK);
  EXPECT(mk_request_set_string(req, "message", "keep the old callers working") == MK_OK);
  EXPECT(mk_request_set_string(req, "type", "inbox") == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, req) == MK_OK);
  EXPECT(result != NULL && mk_result_applied(result) == 1);
  mk_buf json = {NULL, 0};
  EXPECT(mk_result_json(&json, result) == MK_OK);
  EXPECT(json.size > 0 && memcmp(json.ptr, "{\"command\":\"custodian add\"", 26) == 0);
  mk_buf_dispose(&json);
  mk_result_destroy(result);
  mk_request_destroy(req);
  mk_workspace_destroy(ws);

  char cleanup[600];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  return failures == 0 ? 0 : 1;
}
