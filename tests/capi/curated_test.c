/* Curated memory (spec curated.md) from C11: MK_LAYOUT_CURATED on a store folder that does not
 * exist yet, mk_curated_options_init, mk_curated_run writing the exact row of §4 and reading it
 * back, refusals that write nothing (MK-CUR-007, a checkpoint that names a row twice), the
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

static int options_are_unset(const mk_curated_options* o) {
  const char* const texts[] = {o->workspace,  o->actor,       o->name,           o->dst,
                               o->query,      o->id,          o->type,           o->body,
                               o->body_file,  o->description, o->row_class,      o->status,
                               o->initiative, o->project_ref, o->audience,       o->origin_session,
                               o->field,      o->content,     o->kind,           o->file,
                               o->sort,       o->order,       o->scope,          o->threshold,
                               o->before,     o->source,      o->agent,          o->result,
                               o->severity,   o->payload,     o->confirm_plan_id};
  const int64_t numbers[] = {o->max_chars, o->limit, o->max_depth};
  const int32_t flags[] = {o->dry_run, o->links,       o->history, o->include_deleted, o->yes,
                           o->hard,    o->delete_link, o->apply,   o->rollback};
  int unset = o->version == MK_CURATED_OPTIONS_VERSION;
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) unset = unset && texts[i] == NULL;
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; ++i) {
    unset = unset && numbers[i] == MK_CURATED_UNSET;
  }
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; ++i) unset = unset && flags[i] == 0;
  return unset;
}

/* Runs one command and checks its exit code; returns the result (destroy it). */
static mk_result* run(mk_workspace* ws, const mk_clock* now, mk_curated_command command,
                      const mk_curated_options* opts, int exit_code) {
  mk_result* result = NULL;
  EXPECT(mk_curated_run(&result, ws, now, command, opts) == MK_OK);
  EXPECT(result != NULL);
  EXPECT(mk_result_exit_code(result) == exit_code);
  EXPECT(mk_result_plan_id(result) == NULL);
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

  /* init overwrites whatever the caller's memory held: every field ends up "not given". */
  mk_curated_options opts;
  memset(&opts, 0xA5, sizeof opts);
  mk_curated_options_init(&opts);
  EXPECT(options_are_unset(&opts));

  /* The store need not exist (the first write makes it); memory_dir is the custodian's alone,
   * and a store path that is a file is refused. */
  mk_workspace_options curated_layout;
  mk_workspace_options_init(&curated_layout);
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
  opts.name = "project_a";
  opts.type = "project";
  opts.body = "Fix the flaky build";
  opts.row_class = "thread";
  opts.status = "open";
  result = run(ws, &now, MK_CURATED_ADD, &opts, 2);
  EXPECT(json_contains(result, "\"command\":\"curated add\""));
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-001\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(!path_exists(store, "."));

  /* A dry run returns the exact entry and writes nothing. */
  opts.workspace = "ws1";
  opts.dry_run = 1;
  result = run(ws, &now, MK_CURATED_ADD, &opts, 0);
  EXPECT(json_contains(result, "\"dry_run\":true"));
  EXPECT(json_contains(result, "\"action\":\"inserted\""));
  EXPECT(json_contains(result, "\"entry\":\"## project_a\\nType: project\\n"));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(!path_exists(store, "rows"));

  /* The add itself: §4's row file and one history line. */
  opts.dry_run = 0;
  result = run(ws, &now, MK_CURATED_ADD, &opts, 0);
  EXPECT(json_contains(result, "\"action\":\"inserted\""));
  EXPECT(json_contains(result, "\"memory_status\":\"open\""));
  EXPECT(json_contains(result, "\"files\":[\"log/ws1/history.jsonl\",\"rows/ws1/project.md\"]"));
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  char* history = read_file_at(store, "log/ws1/history.jsonl");
  EXPECT(history != NULL && strstr(history, "\"op\":\"insert\"") != NULL);

  /* show: the row view, its body, and the deliberate read it just recorded (§9). */
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  opts.name = "project_a";
  result = run(ws, &later, MK_CURATED_SHOW, &opts, 0);
  EXPECT(json_contains(result, "\"command\":\"curated show\""));
  EXPECT(json_contains(result, "\"body\":\"Fix the flaky build\""));
  EXPECT(json_contains(result, "\"status\":\"open\""));
  EXPECT(json_contains(result, "\"deliberate_count\":1"));
  EXPECT(json_contains(result, "\"last_deliberate_at\":\"2026-11-30T09:00:00.000Z\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(path_exists(store, "log/ws1/access.jsonl"));

  /* get-relevant's digest: the live pending thread, counted as an injection. */
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  result = run(ws, &now, MK_CURATED_GET_RELEVANT, &opts, 0);
  EXPECT(json_contains(result, "\"command\":\"curated get-relevant\""));
  EXPECT(json_contains(result, "## Memory \xE2\x80\x94 live pending by initiative"));
  EXPECT(json_contains(result, "\"name\":\"project_a\""));
  EXPECT(json_contains(result, "\"initiative\":\"_none\""));
  mk_result_destroy(result);

  /* A status on what would be an anchor is MK-CUR-007 (§5): fatal, and the row is unchanged. */
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  opts.name = "project_a";
  opts.row_class = "anchor";
  opts.status = "open";
  result = run(ws, &later, MK_CURATED_RECLASSIFY, &opts, 2);
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
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  opts.file = payload;
  result = run(ws, &later, MK_CURATED_CHECKPOINT, &opts, 1);
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-020\""));
  EXPECT(json_contains(result, "\"error\":\"MK-CUR-021\""));
  EXPECT(json_contains(result, "\"status\":\"rejected\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  EXPECT(history != NULL && file_holds(store, "log/ws1/history.jsonl", history));

  /* "-" is the CLI's standard input, which a library call has not: refused, nothing written. */
  opts.file = "-";
  result = run(ws, &later, MK_CURATED_CHECKPOINT, &opts, 2);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  mk_result_destroy(result);

  /* An option the command does not take is the CLI's unknown option, checked before the write. */
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  opts.name = "project_b";
  opts.type = "project";
  opts.body = "would be written";
  opts.limit = 3;
  result = run(ws, &later, MK_CURATED_ADD, &opts, 2);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(json_contains(result, "--limit"));
  mk_result_destroy(result);
  opts.limit = MK_CURATED_UNSET;
  opts.yes = 1;
  result = run(ws, &later, MK_CURATED_ADD, &opts, 2);
  EXPECT(json_contains(result, "--yes"));
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));
  EXPECT(history != NULL && file_holds(store, "log/ws1/history.jsonl", history));
  free(history);

  /* A command number outside the enum, an unknown options layout and a NULL out, ws or clock are
   * the caller's mistakes, not command results. */
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  result = NULL;
  EXPECT(mk_curated_run(&result, ws, &now, MK_CURATED_RECOVER + 1, &opts) == MK_E_ARG);
  EXPECT(result == NULL);
  EXPECT(strstr(mk_last_error_message(), "command") != NULL);
  EXPECT(mk_curated_run(&result, ws, &now, -1, &opts) == MK_E_ARG);
  EXPECT(result == NULL);
  opts.version = 99;
  EXPECT(mk_curated_run(&result, ws, &now, MK_CURATED_STATS, &opts) == MK_E_ARG);
  EXPECT(result == NULL);
  EXPECT(strstr(mk_last_error_message(), "version") != NULL);
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  EXPECT(mk_curated_run(NULL, ws, &now, MK_CURATED_STATS, &opts) == MK_E_ARG);
  EXPECT(mk_curated_run(&result, NULL, &now, MK_CURATED_STATS, &opts) == MK_E_ARG);
  EXPECT(mk_curated_run(&result, ws, NULL, MK_CURATED_STATS, &opts) == MK_E_ARG);
  EXPECT(result == NULL);

  /* NULL options mean nothing given: no workspace, so MK-CUR-001. */
  result = run(ws, &now, MK_CURATED_STATS, NULL, 2);
  EXPECT(json_contains(result, "\"code\":\"MK-CUR-001\""));
  mk_result_destroy(result);

  /* recover is MK_CURATED_RECOVER (it needs the workspace); nothing was left unfinished.
   * mk_workspace_recover, like every other workspace function, refuses a curated workspace. */
  result = run(ws, &now, MK_CURATED_RECOVER, &opts, 0);
  EXPECT(json_contains(result, "\"command\":\"curated recover\""));
  EXPECT(json_contains(result, "\"recovery_status\":\"clean\""));
  mk_result_destroy(result);
  EXPECT(mk_workspace_recover(&result, ws, &now, 0) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"command\":\"curated recover\""));
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(json_contains(result, "MK_CURATED_RECOVER"));
  mk_result_destroy(result);
  mk_add_options add;
  mk_add_options_init(&add);
  add.type = "project";
  EXPECT(mk_workspace_add(&result, ws, &now, "project_c", 9, &add) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(file_holds(store, "rows/ws1/project.md", kProjectRows));

  /* A tiers command on a curated workspace, and a curated one on a tiers workspace: fatal
   * MK-ARG-001, nothing made. */
  EXPECT(mk_tiers_run(&result, ws, &now, MK_TIERS_INIT, NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  mk_result_destroy(result);
  EXPECT(!path_exists(store, "memory"));
  mk_workspace_destroy(ws);

  char tiers_root[600];
  snprintf(tiers_root, sizeof tiers_root, "%s/tiers", root);
  EXPECT(mkdir(tiers_root, 0755) == 0);
  mk_workspace_options tiers_layout;
  mk_workspace_options_init(&tiers_layout);
  tiers_layout.layout = MK_LAYOUT_TIERS;
  EXPECT(mk_workspace_open(&ws, tiers_root, &tiers_layout) == MK_OK);
  mk_curated_options_init(&opts);
  opts.workspace = "ws1";
  opts.name = "project_a";
  opts.type = "project";
  opts.body = "x";
  EXPECT(mk_curated_run(&result, ws, &now, MK_CURATED_ADD, &opts) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"command\":\"curated add\""));
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(json_contains(result, "MK_LAYOUT_CURATED"));
  mk_result_destroy(result);
  EXPECT(!path_exists(tiers_root, "rows"));
  mk_workspace_destroy(ws);

  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
