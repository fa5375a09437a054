/* MemoryBox sync (spec memorybox.md §9) from C11, as `memorybox sync` requests: pushing
 * a root's entries to a folder remote (Ids written, records stored), status before and after,
 * a second root pulling them, the connection string that never reaches a result, and the
 * arguments and layouts it refuses. Runs in a fresh folder under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static const char* const kWorkspaceId = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b";

/* Two scored facts and a session, each with its Updated time, so the records are fixed. */
static const char* const kLongTerm =
    "# LONG_TERM\n\n## Facts\n\n"
    "- The API base URL is https://api.example.com\n"
    "  Confidence: 0.90\n  Verified: 2026-11-20\n  Updated: 2026-11-20T10:00:00.000Z\n"
    "- Deploys happen on Tuesdays\n"
    "  Confidence: 0.80\n  Verified: 2026-11-25\n  Updated: 2026-11-25T10:00:00.000Z\n";
static const char* const kSessionLog =
    "# SESSION_LOG\n\n### 2026-11-29 \xE2\x80\x94 Billing session\n"
    "Updated: 2026-11-29T18:00:00.000Z\n\nFixed the invoice rounding bug.\n";

/* Runs `memorybox sync <verb>` with the arguments after exit_code (run_request's forms, ending
 * with NULL) and checks its exit code; returns the result (destroy it). */
static mk_result* run(mk_workspace* ws, const mk_clock* now, const char* verb, int exit_code, ...) {
  mk_result* result = NULL;
  char words[32];
  snprintf(words, sizeof words, "sync %s", verb);
  va_list arguments;
  va_start(arguments, exit_code);
  EXPECT(run_request_v(&result, ws, now, "memorybox", words, arguments) == MK_OK);
  va_end(arguments);
  EXPECT(result != NULL);
  EXPECT(result != NULL && mk_result_exit_code(result) == exit_code);
  return result;
}

static mk_workspace* open_root(const char* root, mk_layout layout) {
  mk_workspace_options options;
  EXPECT(mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  options.layout = layout;
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, &options) == MK_OK);
  return ws;
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "sync") != 0) return 1;
  char a[600], b[600], remote[600], remote_spec[700];
  snprintf(a, sizeof a, "%s/a", root);
  snprintf(b, sizeof b, "%s/b", root);
  snprintf(remote, sizeof remote, "%s/remote", root);
  snprintf(remote_spec, sizeof remote_spec, "dir:%s", remote);
  EXPECT(mkdir(a, 0755) == 0 && mkdir(b, 0755) == 0 && mkdir(remote, 0755) == 0);
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-11-30T09:00:00Z") == MK_OK);
  mk_clock later;
  EXPECT(mk_clock_parse(&later, "2026-11-30T10:00:00+01:00") == MK_OK);

  mk_workspace* ws = open_root(a, MK_LAYOUT_MEMORYBOX);
  mk_result* result = NULL;
  EXPECT(run_request(&result, ws, &now, "memorybox", "init", NULL) == MK_OK);
  mk_result_destroy(result);
  EXPECT(write_file_at(a, "memory/LONG_TERM.md", kLongTerm));
  EXPECT(write_file_at(a, "memory/SESSION_LOG.md", kSessionLog));
  char remote_arg[720], workspace_arg[64];
  snprintf(remote_arg, sizeof remote_arg, "remote=%s", remote_spec);
  snprintf(workspace_arg, sizeof workspace_arg, "workspace_id=%s", kWorkspaceId);

  /* status of a root that never synced: no workspace, three records waiting, nothing written. */
  result = run(ws, &now, "status", 0, NULL);
  EXPECT(json_contains(result, "\"command\":\"memorybox sync status\""));
  EXPECT(json_contains(result, "\"workspace_id\":null"));
  EXPECT(json_contains(result, "\"pending_push\":3"));
  EXPECT(json_contains(result, "\"pending_pull\":null"));
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(mk_result_plan_id(result) == NULL);
  mk_result_destroy(result);
  EXPECT(!path_exists(a, ".memkit/sync.json"));

  /* push: three records stored in the folder, each entry given its Id line first. */
  result = run(ws, &now, "push", 0, remote_arg, workspace_arg, NULL);
  EXPECT(json_contains(result, "\"command\":\"memorybox sync push\""));
  EXPECT(json_contains(result, "\"sent\":3"));
  EXPECT(json_contains(result, "\"last_push_ok\":true"));
  EXPECT(json_contains(result, "\"last_push_at\":\"2026-11-30T09:00:00.000Z\""));
  EXPECT(json_contains(result, "\"workspace_id\":\"0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b\""));
  EXPECT(json_contains(result, "\"refused\":[]"));
  EXPECT(mk_result_plan_id(result) == NULL);
  mk_result_destroy(result);
  char* long_term = read_file_at(a, "memory/LONG_TERM.md");
  EXPECT(long_term != NULL && strstr(long_term, "  Id: ") != NULL);
  EXPECT(path_exists(remote, "memories.jsonl"));
  EXPECT(path_exists(remote, "session_logs.jsonl"));
  EXPECT(path_exists(a, ".memkit/sync.json"));

  /* status after it: the workspace recorded, nothing pending either way. */
  result = run(ws, &later, "status", 0, NULL);
  EXPECT(json_contains(result, "\"workspace_id\":\"0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b\""));
  EXPECT(json_contains(result, "\"pending_push\":0"));
  EXPECT(json_contains(result, "\"last_push_ok\":true"));
  EXPECT(json_contains(result, "\"open_conflicts\":[]"));
  mk_result_destroy(result);
  result = run(ws, &later, "status", 0, remote_arg, NULL);
  EXPECT(json_contains(result, "\"pending_pull\":0"));
  mk_result_destroy(result);

  /* A second push sends nothing: every record is in the base. */
  result = run(ws, &later, "push", 0, remote_arg, NULL);
  EXPECT(json_contains(result, "\"sent\":0"));
  mk_result_destroy(result);
  EXPECT(long_term != NULL && file_holds(a, "memory/LONG_TERM.md", long_term));

  /* Another root of the workspace pulls: new entries only, so written without a plan to
   * confirm, the facts arriving with their Id lines. */
  mk_workspace* other = open_root(b, MK_LAYOUT_MEMORYBOX);
  EXPECT(run_request(&result, other, &now, "memorybox", "init", NULL) == MK_OK);
  mk_result_destroy(result);
  result = run(other, &later, "pull", 0, remote_arg, workspace_arg, NULL);
  EXPECT(json_contains(result, "\"command\":\"memorybox sync pull\""));
  EXPECT(json_contains(result, "\"pulled\":3"));
  EXPECT(json_contains(result, "\"needs_confirmation\":false"));
  EXPECT(json_contains(result, "\"action\":\"added\""));
  EXPECT(mk_result_applied(result) == 1);
  EXPECT(mk_result_plan_id(result) != NULL);
  mk_result_destroy(result);
  char* pulled = read_file_at(b, "memory/LONG_TERM.md");
  EXPECT(pulled != NULL && strstr(pulled, "Deploys happen on Tuesdays") != NULL);
  EXPECT(pulled != NULL && strstr(pulled, "  Id: ") != NULL);
  free(pulled);
  free(long_term);

  /* The connection string comes from the conninfo-file argument and never reaches a result: with
   * "postgres" the connection fails (MK-BOX-023), or this build has no adapter (MK-ARG-001), and
   * neither names it. */
  EXPECT(write_file_at(root, "conninfo",
                       "host=/nonexistent/memkit-sync-test port=1 password=sekrit-conninfo\n"));
  char conninfo_arg[700];
  snprintf(conninfo_arg, sizeof conninfo_arg, "conninfo-file=%s/conninfo", root);
  result = run(ws, &later, "push", 2, "remote=postgres", conninfo_arg, NULL);
  EXPECT(json_contains(result, "\"code\":\"MK-BOX-023\"") ||
         json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(!json_contains(result, "sekrit"));
  EXPECT(strstr(mk_error_message(), "sekrit") == NULL);
  mk_result_destroy(result);

  /* Refusals that are results: an id with no open conflict, a verb without its remote, a remote
   * of no known kind. */
  result = run(ws, &later, "resolve", 2, "id=0190a1b2-0000-7000-8000-000000000000", "take=remote",
               NULL);
  EXPECT(json_contains(result, "\"command\":\"memorybox sync resolve\""));
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(json_contains(result, "no open sync conflict"));
  mk_result_destroy(result);
  result = run(ws, &later, "pull", 2, NULL);
  EXPECT(json_contains(result, "--remote: required"));
  mk_result_destroy(result);
  result = run(ws, &later, "push", 2, "remote=ftp:somewhere", NULL);
  EXPECT(json_contains(result, "--remote: expected dir:PATH or postgres"));
  mk_result_destroy(result);

  /* Refusals of the request itself: an argument the verb does not take, a NULL out, ws or clock. */
  EXPECT(run_request(&result, ws, &later, "memorybox", "sync status", "id=x", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "not an argument of memorybox sync status") != NULL);
  EXPECT(run_request(&result, ws, &later, "memorybox", "sync push", "--apply", NULL) == MK_E_ARG);
  EXPECT(run_request(&result, ws, &later, "memorybox", "sync pusj", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "push") != NULL);
  mk_request* status = NULL;
  EXPECT(mk_request_create(&status, "memorybox", "sync status") == MK_OK);
  EXPECT(mk_workspace_run(NULL, ws, &now, status) == MK_E_ARG);
  EXPECT(mk_workspace_run(&result, NULL, &now, status) == MK_E_ARG);
  EXPECT(mk_workspace_run(&result, ws, NULL, status) == MK_E_ARG);
  EXPECT(mk_workspace_run(&result, ws, &now, NULL) == MK_E_ARG);
  EXPECT(result == NULL);

  /* Another layout is refused, with nothing run. */
  mk_workspace* custodian = open_root(root, MK_LAYOUT_CUSTODIAN);
  EXPECT(mk_workspace_run(&result, custodian, &now, status) == MK_E_ARG);
  EXPECT(strcmp(mk_error_message(), "ws: opened with another layout (custodian) than memorybox "
                                    "sync status runs on (memorybox)") == 0);
  EXPECT(result == NULL);
  mk_request_destroy(status);
  mk_workspace_destroy(custodian);

  mk_workspace_destroy(other);
  mk_workspace_destroy(ws);
  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  return failures == 0 ? 0 : 1;
}
