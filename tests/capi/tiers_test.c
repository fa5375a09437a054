/* The three-tier session memory (spec tiers3.md) from C11: mk_tiers_options_init, mk_tiers_run
 * writing the exact L1 and L2 bytes of §15, the arguments it refuses before writing anything, and
 * the layouts it refuses. Runs in a fresh folder under TMPDIR. */
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

static int options_are_unset(const mk_tiers_options* o) {
  const char* const texts[] = {
      o->content,       o->raw_content,  o->extracted_content, o->theme,
      o->template_name, o->title,        o->entry_type,        o->session_id,
      o->tools_json,    o->name,         o->csv_content,       o->source_file,
      o->description,   o->source_label, o->columns_json,      o->confirm_plan_id};
  const int64_t numbers[] = {o->recent_days, o->theme_limit, o->max_tokens, o->days_back,
                             o->limit,       o->hours_back,  o->head,       o->days};
  int unset = o->version == MK_TIERS_OPTIONS_VERSION && o->no_log == 0 && o->promote_global == 0 &&
              o->append == 0 && o->replace == 0;
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) unset = unset && texts[i] == NULL;
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; ++i) {
    unset = unset && numbers[i] == MK_TIERS_UNSET;
  }
  return unset;
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "tiers") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-03-07T14:05:09+00:00") == MK_OK);
  mk_clock later;
  EXPECT(mk_clock_parse(&later, "2026-03-07T14:30:00+00:00") == MK_OK);

  /* init overwrites whatever the caller's memory held: every field ends up "not given". */
  mk_tiers_options opts;
  memset(&opts, 0xA5, sizeof opts);
  mk_tiers_options_init(&opts);
  EXPECT(options_are_unset(&opts));

  mk_workspace_options tiers_layout;
  mk_workspace_options_init(&tiers_layout);
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
  opts.entry_type = "assistant";
  opts.raw_content = "  Raw one  ";
  opts.session_id = "s1";
  opts.tools_json = "[\"search\",\"read\"]";
  opts.extracted_content = "Use persist-turn.";
  opts.theme = "Decision";
  opts.template_name = "decision";
  opts.title = "Default command";
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_PERSIST_TURN, &opts) == MK_OK);
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
  mk_tiers_options_init(&opts);
  opts.raw_content = "second";
  opts.extracted_content = "second note";
  opts.theme = "decision";
  EXPECT(mk_tiers_run(&result, ws, &later, MK_TIERS_PERSIST_TURN, &opts) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  mk_result_destroy(result);
  char expected[1024];
  snprintf(expected, sizeof expected, "%s%s", kL1First, kL1Second);
  EXPECT(file_holds(root, "memory/sessions/2026-03-07.md", expected));
  snprintf(expected, sizeof expected, "%s%s", kL2First, kL2Second);
  EXPECT(file_holds(root, "memory/decision/2026-03-07_14.md", expected));
  char* l1_before = read_file_at(root, "memory/sessions/2026-03-07.md");
  EXPECT(l1_before != NULL);

  /* A command number outside the enum is the caller's mistake, not a command result. */
  mk_tiers_options_init(&opts);
  result = NULL;
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_TEMPLATE + 1, &opts) == MK_E_ARG);
  EXPECT(result == NULL);
  EXPECT(strstr(mk_last_error_message(), "command") != NULL);
  EXPECT(mk_tiers_run(&result, ws, &now, -1, &opts) == MK_E_ARG);
  EXPECT(result == NULL);

  /* So is an options layout this library does not know, and a NULL out, ws or clock. */
  opts.version = 99;
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_LIST_THEMES, &opts) == MK_E_ARG);
  EXPECT(result == NULL);
  mk_tiers_options_init(&opts);
  EXPECT(mk_tiers_run(NULL, ws, &now, MK_TIERS_LIST_THEMES, &opts) == MK_E_ARG);
  EXPECT(mk_tiers_run(&result, NULL, &now, MK_TIERS_LIST_THEMES, &opts) == MK_E_ARG);
  EXPECT(mk_tiers_run(&result, ws, NULL, MK_TIERS_LIST_THEMES, &opts) == MK_E_ARG);
  EXPECT(result == NULL);

  /* A field log-turn does not take (`head`, a flag too) is the CLI's unknown option: fatal, and
   * checked before the write, so the valid content is not logged. */
  opts.content = "would be logged";
  opts.head = 1;
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_LOG_TURN, &opts) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(json_contains(result, "--head"));
  mk_result_destroy(result);
  opts.head = MK_TIERS_UNSET;
  opts.promote_global = 1;
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_LOG_TURN, &opts) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  mk_result_destroy(result);
  EXPECT(l1_before != NULL && file_holds(root, "memory/sessions/2026-03-07.md", l1_before));
  free(l1_before);

  /* NULL options mean nothing given; the template's name is its positional NAME. */
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_LIST_THEMES, NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(json_contains(result, "\"themes\":[\"decision\"]"));
  mk_result_destroy(result);
  mk_tiers_options_init(&opts);
  opts.template_name = "error";
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_TEMPLATE, &opts) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "**Root Cause**"));
  mk_result_destroy(result);

  /* recover on a tiers workspace is `tiers recover`; nothing was left unfinished. */
  EXPECT(mk_workspace_recover(&result, ws, &now, 0) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"tiers recover\""));
  EXPECT(json_contains(result, "\"recovery_status\":\"clean\""));
  mk_result_destroy(result);
  mk_workspace_destroy(ws);

  /* A custodian workspace takes no tiers command: a fatal MK-ARG-001, and no memory/ appears. */
  char custodian_root[600];
  snprintf(custodian_root, sizeof custodian_root, "%s/custodian", root);
  EXPECT(mkdir(custodian_root, 0755) == 0);
  EXPECT(mk_workspace_open(&ws, custodian_root, NULL) == MK_OK);
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_INIT, NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(json_contains(result, "\"command\":\"tiers init\""));
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  mk_result_destroy(result);
  EXPECT(!path_exists(custodian_root, "memory"));
  mk_workspace_destroy(ws);

  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
