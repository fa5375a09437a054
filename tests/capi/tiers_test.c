/* The three-tier session memory (spec tiers3.md) from C11, as `tiers` requests on an
 * MK_LAYOUT_TIERS workspace: the exact L1 and L2 bytes of §15 (a list argument among them), the
 * arguments refused before anything is written, and the layouts refused. Runs in a fresh folder
 * under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* tiers3.md §15: the L1 and L2 files after the first vector, and what the second appends. */
static const char* const kL1First =
    "# Session Log - 2026-03-07\n\n### [2026-03-07 14:05:09] ASSISTANT\n**Session:** s1\n"
    "**Tools:** search, read\n\nRaw one\n\n---";
static const char* const kL1Second = "\n\n### [2026-03-07 14:30:00] TURN\n\nsecond\n\n---";
static const char* const kL2First = "## Decision Record: Default command\n\nUse persist-turn.\n";
static const char* const kL2Second = "\n\n## 2026-03-07 14:30:00\n\nsecond note\n";

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "tiers") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-03-07T14:05:09+00:00") == MK_OK);
  mk_clock later;
  EXPECT(mk_clock_parse(&later, "2026-03-07T14:30:00+00:00") == MK_OK);

  mk_workspace_options tiers_layout;
  EXPECT(mk_workspace_options_init(&tiers_layout, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  tiers_layout.layout = MK_LAYOUT_TIERS;
  mk_workspace* ws = NULL;
  /* memory_dir is the custodian layout's alone. */
  tiers_layout.memory_dir = "docs/memory";
  EXPECT(mk_workspace_open(&ws, root, &tiers_layout) == MK_E_ARG);
  EXPECT(ws == NULL);
  tiers_layout.memory_dir = NULL;
  EXPECT(mk_workspace_open(&ws, root, &tiers_layout) == MK_OK);
  EXPECT(ws != NULL);
  mk_result* result = NULL;

  /* §15's first vector on an empty workspace (no init: a write creates what it needs). */
  mk_request* persist = NULL;
  EXPECT(mk_request_create(&persist, "tiers", "persist-turn") == MK_OK);
  const char* const tools[] = {"search", "read"};
  EXPECT(mk_request_set_list(persist, "tools", tools, 2) == MK_OK);
  EXPECT(mk_request_set_list(persist, "theme", tools, 2) == MK_E_ARG); /* not a JSON argument */
  EXPECT(strcmp(mk_error_message(), "--theme: takes a string, not a list") == 0);
  const char* const bad[] = {"search", NULL};
  EXPECT(mk_request_set_list(persist, "tools", bad, 2) == MK_E_ARG);
  const char* const not_utf8[] = {"\xff"};
  EXPECT(mk_request_set_list(persist, "tools", not_utf8, 1) == MK_E_UTF8);
  const char* const texts[][2] = {{"entry_type", "assistant"},  {"raw_content", "  Raw one  "},
                                  {"session-id", "s1"},         {"extracted_content", "Use persist-turn."},
                                  {"theme", "Decision"},        {"template", "decision"},
                                  {"title", "Default command"}};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
    EXPECT(mk_request_set_string(persist, texts[i][0], texts[i][1]) == MK_OK);
  }
  EXPECT(mk_workspace_run(&result, ws, &now, persist) == MK_OK);
  mk_request_destroy(persist);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 1);
  EXPECT(mk_result_plan_id(result) == NULL);
  EXPECT(json_contains(result, "\"command\":\"tiers persist-turn\""));
  EXPECT(json_contains(result, "\"l2_written\":true"));
  EXPECT(json_contains(result, "\"theme\":\"decision\""));
  EXPECT(json_contains(result, "\"global_updated\":false"));
  mk_result_destroy(result);
  EXPECT(file_holds(root, "memory/sessions/2026-03-07.md", kL1First));
  EXPECT(file_holds(root, "memory/decision/2026-03-07_14.md", kL2First));
  EXPECT(!path_exists(root, "memory/global.md")); /* nothing promoted, so not needed */

  /* §15's second turn, at 14:30:00: the same two files, appended to. */
  EXPECT(run_request(&result, ws, &later, "tiers", "persist-turn", "raw-content=second",
                     "extracted-content=second note", "theme=decision", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  mk_result_destroy(result);
  char expected[1024];
  snprintf(expected, sizeof expected, "%s%s", kL1First, kL1Second);
  EXPECT(file_holds(root, "memory/sessions/2026-03-07.md", expected));
  snprintf(expected, sizeof expected, "%s%s", kL2First, kL2Second);
  EXPECT(file_holds(root, "memory/decision/2026-03-07_14.md", expected));
  char* l1_before = read_file_at(root, "memory/sessions/2026-03-07.md");
  EXPECT(l1_before != NULL);

  /* An argument log-turn does not take is refused before anything runs: nothing is logged. */
  EXPECT(run_request(&result, ws, &now, "tiers", "log-turn", "content=would be logged",
                     "head=1", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "head: not an argument of tiers log-turn") != NULL);
  EXPECT(run_request(&result, ws, &now, "tiers", "log-turn", "content=would be logged",
                     "--promote-global", NULL) == MK_E_ARG);
  EXPECT(run_request(&result, ws, &now, "tiers", "log-trun", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "log-turn") != NULL);
  /* The root is the workspace's, never the request's. */
  EXPECT(run_request(&result, ws, &now, "tiers", "list-themes", "workspace=/tmp", NULL) ==
         MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "given by the workspace") != NULL);
  EXPECT(l1_before != NULL && file_holds(root, "memory/sessions/2026-03-07.md", l1_before));
  free(l1_before);

  /* A command without arguments, and a positional by its name. */
  EXPECT(run_request(&result, ws, &now, "tiers", "list-themes", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(json_contains(result, "\"themes\":[\"decision\"]"));
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, &now, "tiers", "template", "kind=error", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "**Root Cause**"));
  mk_result_destroy(result);

  /* recover on a tiers workspace; nothing was left unfinished. */
  EXPECT(run_request(&result, ws, &now, "tiers", "recover", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"tiers recover\""));
  EXPECT(json_contains(result, "\"recovery_status\":\"clean\""));
  mk_result_destroy(result);
  mk_workspace_destroy(ws);

  /* A custodian workspace takes no tiers request, and no memory/ appears. */
  char custodian_root[600];
  snprintf(custodian_root, sizeof custodian_root, "%s/custodian", root);
  EXPECT(mkdir(custodian_root, 0755) == 0);
  EXPECT(mk_workspace_open(&ws, custodian_root, NULL) == MK_OK);
  EXPECT(run_request(&result, ws, &now, "tiers", "init", NULL) == MK_E_ARG);
  EXPECT(result == NULL);
  EXPECT(!path_exists(custodian_root, "memory"));
  mk_workspace_destroy(ws);

  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
