/* The C baseline of bench/scripts/binding_overhead.py: runs `<group> <verb>` (no arguments) on a
 * workspace COUNT times through the C ABI, a request made for each call as a binding makes it,
 * and prints the mean microseconds per call, the figure each binding's loop is compared with.
 * Usage: capi_calls ROOT LAYOUT GROUP VERB COUNT */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: capi_calls ROOT LAYOUT GROUP VERB COUNT\n");
    return 2;
  }
  mk_workspace_options options;
  mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION);
  options.layout = strcmp(argv[2], "memorybox") == 0 ? MK_LAYOUT_MEMORYBOX : MK_LAYOUT_CUSTODIAN;
  mk_workspace* ws = NULL;
  mk_clock now;
  if (mk_workspace_open(&ws, argv[1], &options) != MK_OK ||
      mk_clock_parse(&now, "2026-11-30T10:00:00+00:00") != MK_OK) {
    fprintf(stderr, "capi_calls: %s\n", mk_error_message());
    return 1;
  }
  const long count = atol(argv[5]);
  double start = 0;
  for (long i = -1; i < count; ++i) {  /* call -1 warms the caches and is not timed */
    if (i == 0) start = seconds();
    mk_request* req = NULL;
    mk_result* result = NULL;
    if (mk_request_create(&req, argv[3], argv[4]) != MK_OK ||
        mk_workspace_run(&result, ws, &now, req) != MK_OK) {
      fprintf(stderr, "capi_calls: %s\n", mk_error_message());
      return 1;
    }
    (void)mk_result_plan_id(result);
    mk_result_destroy(result);
    mk_request_destroy(req);
  }
  printf("%.1f\n", (seconds() - start) / (double)count * 1e6);
  mk_workspace_destroy(ws);
  return 0;
}
