/* Curated memory (spec curated.md) from C11: MK_LAYOUT_CURATED on a store folder that does not
 * exist yet, `curated` requests writing the exact row of §4 and reading it back, refusals that write nothing (MK-CUR-007, a checkpoint that names a row twice), the
 * arguments it refuses before running, and the layouts it refuses. Runs in a fresh folder under
 * TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* The row file after the first add: §4's field order, the thread's status, no optional field. */
static const char* const kProjectRows =
    "# Curated memory: project\n\n## project_a\nType: project\nClass: thread\nStatus: open\n"
    "Audience: any\nCreated: 2026-11-30T09:00:00.000Z\nUpdated: 2026-11-30T09:00:00.000Z\n\n"
    "Fix the flaky build\n";

/* Runs `curated <verb>` with the arguments after exit_code (run_request's forms, ending with
 * NULL) and checks its exit code; returns the result (destroy it). */
static mk_result* run(mk_workspace* ws, const mk_clock* now, const char* verb, int exit_code, ...) {
  mk_result* result = NULL;
  va_list arguments;
  va_start(arguments, exit_code);
  EXPECT(run_request_v(&result, ws, now, "curated", verb, arguments) == MK_OK);
  va_end(arguments);
  EXPECT(result != NULL && mk_result_exit_code(result) == exit_code);
  EXPECT(result != NULL && mk_result_plan_id(result) == NULL);
  return result;
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "curated") != 0) return 1;
  char store[600];
  snprintf(store, sizeof store, "%s/store", root);
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-11-30T09:00:00Z") == MK_OK);
  mk_clock later;
  EXPECT(mk_clock_parse(&later, "2026-11-30T10:00:00+01:00") == MK_OK);

  /* The store need not exist (the first write makes it); memory_dir is the custodian's alone,
   * and a store path that is a file is refused. */
  mk_workspace_options curated_layout;
  EXPECT(mk_workspace_options_init(&curated_layout, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  curated_layout.layout = MK_LAYOUT_CURATED;
  mk_workspace* ws = NULL;
  curated_layout.memory_dir = "docs/memory";
  EXPECT(mk_workspace_open(&ws, store, &curated_layout) == MK_E_ARG);
  EXPECT(ws == NULL);
  curated_layout.memory_dir = NULL;
  EXPECT(write_file_at(root, "a-file", "not a store\n"));
  char a_file[600];
  snprintf(a_file, sizeof a_file, "%s/a-file", root);
  EXPECT(mk_workspace_open(&ws, a_file, &curated_layout) == MK_E_ARG);
  EXPECT(ws == NULL);
  EXPECT(mk_workspace_open(&ws, store, &curated_layout) == MK_OK);
  EXPECT(ws != NULL);
  EXPECT(!path_exists(store, "."));
  mk_result* result = NULL;

  /* No workspace is the CLI's missing_scope: fatal, and nothing is made. */
  result = run(ws, &now, "add", 2, "name=project_a", "type=project", "body=Fix the flaky build",
               "class=thread", "status=open", NULL);
  EXPECT(json_contains(result, "\"command\":\"curated add\""));
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-001\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(!path_exists(store, "."));

  /* A dry run returns the exact entry and writes nothing. */
  result = run(ws, &now, "add", 0, "workspace=ws1", "name=project_a", "type=project",
               "body=Fix the flaky build", "class=thread", "status=open", "--dry-run", NULL);
  EXPECT(json_contains(result, "\"dry_run\":true"));
  EXPECT(json_contains(result, "\"action\":\"inserted\""));
  EXPECT(json_contains(result, "\"entry\":\"## project_a\\nType: project\\n"));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(!path_exists(store, "rows"));

  /* The add itself: §4's row file and one history line. */
  result = run(ws, &now, "add", 0, "workspace=ws1", "name=project_a", "type=project",
               "body=Fix the flaky build", "class=thread", "status=open", NULL);
  EXPECT(json_contains(result, "\"action\":\"inserted\""));
  EXPECT(json_contains(result, "\"memory_status\":\"open\""));
  EXPECT(json_contains(result, "\"files\":[\"log/ws1/history.jsonl\",\"rows/ws1/project.md\"]"));
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  char* history = read_file_at(store, "log/ws1/history.jsonl");
  EXPECT(history != NULL && strstr(history, "\"op\":\"insert\"") != NULL);

  /* show: the row view, its body, and the deliberate read it just recorded (§9). */
  result = run(ws, &later, "show", 0, "workspace=ws1", "name=project_a", NULL);
  EXPECT(json_contains(result, "\"command\":\"curated show\""));
  EXPECT(json_contains(result, "\"body\":\"Fix the flaky build\""));
  EXPECT(json_contains(result, "\"status\":\"open\""));
  EXPECT(json_contains(result, "\"deliberate_count\":1"));
  EXPECT(json_contains(result, "\"last_deliberate_at\":\"2026-11-30T09:00:00.000Z\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(path_exists(store, "log/ws1/access.jsonl"));

  /* get-relevant's digest: the live pending thread, counted as an injection. */
  result = run(ws, &now, "get-relevant", 0, "workspace=ws1", NULL);
  EXPECT(json_contains(result, "\"command\":\"curated get-relevant\""));
  EXPECT(json_contains(result, "## Memory \xE2\x80\x94 live pending by initiative"));
  EXPECT(json_contains(result, "\"name\":\"project_a\""));
  EXPECT(json_contains(result, "\"initiative\":\"_none\""));
  mk_result_destroy(result);

  /* A status on what would be an anchor is MK-CUR-007 (§5): fatal, and the row is unchanged. */
  result = run(ws, &later, "reclassify", 2, "workspace=ws1", "name=project_a", "class=anchor",
               "status=open", NULL);
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-007\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  EXPECT(history != NULL && file_holds(store, "log/ws1/history.jsonl", history));

  /* A checkpoint whose pending items share a name (§14) is rejected whole: MK-CUR-020 ERROR
   * with operation 2 failed as MK-CUR-021, and nothing written. */
  char payload[700];
  snprintf(payload, sizeof payload, "%s/checkpoint.json", root);
  EXPECT(write_file_at(NULL, payload,
                       "{\"record\":{\"name\":\"project_r\",\"type\":\"project\",\"body\":\"r\"},"
                       "\"pending\":[{\"name\":\"project_t\",\"body\":\"one\"},"
                       "{\"name\":\"project_t\",\"body\":\"two\"}]}"));
  char file_arg[720];
  snprintf(file_arg, sizeof file_arg, "file=%s", payload);
  result = run(ws, &later, "checkpoint", 1, "workspace=ws1", file_arg, NULL);
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-020\""));
  EXPECT(json_contains(result, "\"error\":\"MK-CUR-021\""));
  EXPECT(json_contains(result, "\"status\":\"rejected\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  EXPECT(history != NULL && file_holds(store, "log/ws1/history.jsonl", history));

  /* "-" is the CLI's standard input, which a library call has not: refused, nothing written. */
  result = run(ws, &later, "checkpoint", 2, "workspace=ws1", "file=-", NULL);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  mk_result_destroy(result);

  /* An argument the command does not take fails the request before anything runs. */
  EXPECT(run_request(&result, ws, &later, "curated", "add", "workspace=ws1", "name=project_b",
                     "type=project", "body=would be written", "limit=3", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "limit: not an argument of curated add") != NULL);
  EXPECT(run_request(&result, ws, &later, "curated", "add", "workspace=ws1", "--yes", NULL) ==
         MK_E_ARG);
  EXPECT(run_request(&result, ws, &later, "curated", "add", "store=/tmp", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "given by the workspace") != NULL);
  EXPECT(result == NULL);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  EXPECT(history != NULL && file_holds(store, "log/ws1/history.jsonl", history));
  free(history);

  /* Nothing given: no workspace, so MK-CUR-001. */
  result = run(ws, &now, "stats", 2, NULL);
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-001\""));
  mk_result_destroy(result);

  /* recover (it needs the workspace); nothing was left unfinished. */
  result = run(ws, &now, "recover", 0, "workspace=ws1", NULL);
  EXPECT(json_contains(result, "\"command\":\"curated recover\""));
  EXPECT(json_contains(result, "\"recovery_status\":\"clean\""));
  mk_result_destroy(result);

  /* A custodian or tiers request on a curated workspace, and a curated one on a tiers workspace:
   * refused before anything runs, nothing made. */
  EXPECT(run_request(&result, ws, &now, "custodian", "add", "message=project_c", "type=inbox",
                     NULL) == MK_E_ARG);
  EXPECT(run_request(&result, ws, &now, "tiers", "init", NULL) == MK_E_ARG);
  EXPECT(result == NULL);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  EXPECT(!path_exists(store, "memory"));
  mk_workspace_destroy(ws);

  char tiers_root[600];
  snprintf(tiers_root, sizeof tiers_root, "%s/tiers", root);
  EXPECT(mkdir(tiers_root, 0755) == 0);
  mk_workspace_options tiers_layout;
  EXPECT(mk_workspace_options_init(&tiers_layout, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  tiers_layout.layout = MK_LAYOUT_TIERS;
  EXPECT(mk_workspace_open(&ws, tiers_root, &tiers_layout) == MK_OK);
  EXPECT(run_request(&result, ws, &now, "curated", "add", "workspace=ws1", "name=project_a",
                     "type=project", "body=x", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "another layout") != NULL);
  EXPECT(!path_exists(tiers_root, "rows"));
  mk_workspace_destroy(ws);

  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
