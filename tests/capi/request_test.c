/* Requests (Section - Requests of memkit.h) from C11: any command by group and verb, its
 * arguments set by name and checked against the command table as they are set; the same JSON as
 * the typed functions give; the names, types, roots and layouts it refuses. Runs in a fresh
 * folder under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The whole envelope of a result, NUL-terminated (free it). */
static char* json_of(const mk_result* result) {
  mk_buf json = {NULL, 0};
  if (mk_result_json(&json, result) != MK_OK) return NULL;
  char* text = calloc(1, json.size + 1);
  if (text != NULL) memcpy(text, json.ptr, json.size);
  mk_buf_dispose(&json);
  return text;
}

static int last_error_holds(const char* needle) {
  return strstr(mk_error_message(), needle) != NULL;
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "request") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-11-30T10:00:00+00:00") == MK_OK);

  /* A custodian project: init, then an add by request. */
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, NULL) == MK_OK);
  mk_result* result = NULL;
  EXPECT(run_request(&result, ws, &now, "custodian", "init", NULL) == MK_OK);
  mk_result_destroy(result);

  mk_request* add = NULL;
  EXPECT(mk_request_create(&add, "custodian", "add") == MK_OK);
  EXPECT(mk_request_set_string(add, "message", "Reports render without JavaScript") == MK_OK);
  EXPECT(mk_request_set_string(add, "--type", "constraint") == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, add) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"custodian add\""));
  EXPECT(json_contains(result, "\"written\":[\"constraints.md\""));
  mk_result_destroy(result);
  {
    char* text = read_file_at(root, "docs/memory/constraints.md");
    EXPECT(text != NULL && strstr(text, "- Reports render without JavaScript\n") != NULL);
    free(text);
  }

  /* A request is not changed by a run: run again, it gives the same bytes. */
  mk_request* status = NULL;
  EXPECT(mk_request_create(&status, "custodian", "status") == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, status) == MK_OK);
  mk_result* again = NULL;
  EXPECT(mk_workspace_run(&again, ws, &now, status) == MK_OK);
  char* first = json_of(result);
  char* second = json_of(again);
  EXPECT(first != NULL && second != NULL && strcmp(first, second) == 0);
  EXPECT(first != NULL && strstr(first, "\"command\":\"custodian status\"") != NULL);
  free(first);
  free(second);
  mk_result_destroy(result);
  mk_result_destroy(again);

  /* Refused as they are set: a name the command does not take (with the closest one), a value
   * of the wrong type, a root the workspace gives; the request stays usable. */
  EXPECT(mk_request_set_string(add, "reson", "x") == MK_E_ARG);
  EXPECT(last_error_holds("reson: not an argument of custodian add (did you mean 'reason'?)"));
  EXPECT(mk_request_set_bool(add, "type", 1) == MK_E_ARG);
  EXPECT(last_error_holds("--type: takes a string, not a boolean"));
  EXPECT(mk_request_set_int(add, "allow_long", 1) == MK_E_ARG);
  EXPECT(mk_request_set_string(add, "allow-long", "yes") == MK_E_ARG);
  EXPECT(mk_request_set_bool(add, "allow_long", 1) == MK_OK);
  EXPECT(mk_request_set_bool(add, "allow_long", 0) == MK_OK);
  EXPECT(mk_request_set_string(add, "project-root", "/elsewhere") == MK_E_ARG);
  EXPECT(last_error_holds("given by the workspace"));
  EXPECT(mk_request_set_string(add, "--message", "x") == MK_E_ARG);  /* a positional, no -- */
  EXPECT(mk_request_set_string(NULL, "type", "x") == MK_E_ARG);
  EXPECT(mk_request_set_string(add, NULL, "x") == MK_E_ARG);
  EXPECT(mk_request_set_string(add, "type", NULL) == MK_E_ARG);

  /* Unknown groups and verbs, with suggestions; a group's first word alone is no verb. */
  mk_request* bad = NULL;
  EXPECT(mk_request_create(&bad, "custodain", "status") == MK_E_ARG && bad == NULL);
  EXPECT(last_error_holds("unknown group 'custodain' (did you mean 'custodian'?)"));
  EXPECT(mk_request_create(&bad, "custodian", "stauts") == MK_E_ARG);
  EXPECT(last_error_holds("did you mean 'status'?"));
  EXPECT(mk_request_create(&bad, "memorybox", "sync") == MK_E_ARG);
  EXPECT(mk_request_create(&bad, "memorybox", "sync push extra") == MK_E_ARG);
  EXPECT(mk_request_create(&bad, NULL, "status") == MK_E_ARG);

  /* A command the workspace's layout does not run. */
  mk_request* tiers = NULL;
  EXPECT(mk_request_create(&tiers, "tiers", "list-themes") == MK_OK);
  result = NULL;
  EXPECT(mk_workspace_run(&result, ws, &now, tiers) == MK_E_ARG && result == NULL);
  EXPECT(mk_workspace_run(&result, ws, &now, NULL) == MK_E_ARG);
  /* A command the CLI alone runs (it times memkit processes): no workspace runs it. */
  mk_request* bench = NULL;
  if (mk_request_create(&bench, "bench", "compaction") == MK_OK) {
    result = NULL;
    EXPECT(mk_workspace_run(&result, ws, &now, bench) == MK_E_ARG && result == NULL);
    mk_request_destroy(bench);
  }

  /* A two-word verb, and an integer argument, on a MemoryBox root. */
  mk_workspace_options options;
  EXPECT(mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  options.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* box = NULL;
  EXPECT(mk_workspace_open(&box, root, &options) == MK_OK);
  mk_request* log = NULL;
  EXPECT(mk_request_create(&log, "memorybox", "log") == MK_OK);
  EXPECT(mk_request_set_string(log, "text", "Shipped the parser.") == MK_OK);
  EXPECT(mk_request_set_string(log, "session", "parser work") == MK_OK);
  EXPECT(mk_workspace_run(&result, box, &now, log) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"memorybox log\""));
  mk_result_destroy(result);
  EXPECT(path_exists(root, "memory/daily/2026-11-30.md"));
  mk_request* verify = NULL;
  EXPECT(mk_request_create(&verify, "memorybox", "canon verify") == MK_OK);
  EXPECT(mk_workspace_run(&result, box, &now, verify) == MK_OK);
  EXPECT(json_contains(result, "\"command\":\"memorybox canon verify\""));
  mk_result_destroy(result);
  mk_request* load = NULL;
  EXPECT(mk_request_create(&load, "memorybox", "load") == MK_OK);
  EXPECT(mk_request_set_int(load, "tier", 4) == MK_OK);
  EXPECT(mk_workspace_run(&result, box, &now, load) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "memory/daily/2026-11-30.md"));
  mk_result_destroy(result);

  /* A three-tier workspace and a curated store: the layout gives --workspace and --store; a
   * curated request names the workspace inside the store itself. */
  EXPECT(mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  options.layout = MK_LAYOUT_TIERS;
  mk_workspace* tw = NULL;
  EXPECT(mk_workspace_open(&tw, root, &options) == MK_OK);
  mk_request* turn = NULL;
  EXPECT(mk_request_create(&turn, "tiers", "log-turn") == MK_OK);
  EXPECT(mk_request_set_string(turn, "content", "Read the parser's tests") == MK_OK);
  EXPECT(mk_request_set_string(turn, "workspace", ".") == MK_E_ARG);  /* the root: the layout's */
  EXPECT(mk_workspace_run(&result, tw, &now, turn) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"tiers log-turn\""));
  mk_result_destroy(result);
  EXPECT(path_exists(root, "memory/sessions/2026-11-30.md"));
  EXPECT(mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  options.layout = MK_LAYOUT_CURATED;
  char store[600];
  snprintf(store, sizeof store, "%s/store", root);
  mk_workspace* cs = NULL;
  EXPECT(mk_workspace_open(&cs, store, &options) == MK_OK);
  mk_request* row = NULL;
  EXPECT(mk_request_create(&row, "curated", "add") == MK_OK);
  EXPECT(mk_request_set_string(row, "workspace", "billing") == MK_OK);
  EXPECT(mk_request_set_string(row, "name", "project_parser") == MK_OK);
  EXPECT(mk_request_set_string(row, "type", "project") == MK_OK);
  EXPECT(mk_request_set_string(row, "body", "The parser ships.") == MK_OK);
  EXPECT(mk_request_set_string(row, "store", store) == MK_E_ARG);
  EXPECT(mk_workspace_run(&result, cs, &now, row) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"curated add\""));
  mk_result_destroy(result);
  EXPECT(path_exists(store, "rows/billing/project.md"));
  EXPECT(mk_workspace_run(&result, tw, &now, row) == MK_E_ARG);  /* a curated request, tiers ws */

  /* A group that is its own command ("search", verb "") runs on a workspace of every layout and
   * searches its root: the custodian project's constraint, the curated row. */
  mk_request* search = NULL;
  EXPECT(mk_request_create(&search, "search", "") == MK_OK);
  EXPECT(mk_request_set_string(search, "query", "javascript") == MK_OK);
  EXPECT(mk_request_set_string(search, "root", root) == MK_E_ARG);
  EXPECT(last_error_holds("root: given by the workspace, not the request"));
  EXPECT(mk_workspace_run(&result, ws, &now, search) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"search\""));
  EXPECT(json_contains(result, "\"file\":\"docs/memory/constraints.md\""));
  EXPECT(json_contains(result, "\"total\":1"));
  mk_result_destroy(result);
  EXPECT(mk_request_set_string(search, "query", "parser") == MK_OK);
  EXPECT(mk_workspace_run(&result, cs, &now, search) == MK_OK);
  EXPECT(json_contains(result, "\"layout\":\"curated\""));
  mk_result_destroy(result);
  EXPECT(mk_request_set_string(search, "query", "(parser") == MK_OK);
  EXPECT(mk_workspace_run(&result, cs, &now, search) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "query: at byte"));
  mk_result_destroy(result);
  mk_request* words = NULL;
  EXPECT(mk_request_create(&words, "search", "parser") == MK_E_ARG);
  EXPECT(last_error_holds("verb: 'parser' is not a command of search"));
  mk_request_destroy(search);

  mk_request_destroy(turn);
  mk_request_destroy(row);
  mk_workspace_destroy(tw);
  mk_workspace_destroy(cs);
  mk_request_destroy(add);
  mk_request_destroy(status);
  mk_request_destroy(tiers);
  mk_request_destroy(log);
  mk_request_destroy(verify);
  mk_request_destroy(load);
  mk_request_destroy(NULL);
  mk_workspace_destroy(ws);
  mk_workspace_destroy(box);
  if (failures != 0) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
