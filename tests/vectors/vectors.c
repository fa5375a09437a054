/* The shared vectors from C11: the inbox_dedupe case's first steps (a dry run, a stale apply, the
 * confirmed apply), whose results must be the committed bytes of 1.json, 2.json and 3.json and
 * whose Plan ID is the one 1.json holds; then the same three steps of its sibling case
 * memorybox_compact (steps 2-4: `memorybox compact --force`); then steps 1-5 of memorybox_gate
 * (the five-gate filter with a C judge; the candidates and answers below are those of its
 * case.json). The full case list runs in capi_vectors.cpp; this one shows a plain C host gets the
 * same bytes. Last, steps 1-13 of curated_lifecycle through mk_curated_run.
 * Usage: vectors CASE_DIR SCRATCH_DIR */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static char* slurp(const char* dir, const char* name, size_t* size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  char* text = calloc(1, 1 << 20);
  *size = text == NULL ? 0 : fread(text, 1, (1 << 20) - 1, f);
  fclose(f);
  return text;
}

static void expect_json(mk_result* result, const char* dir, const char* name) {
  size_t size = 0;
  char* expected = slurp(dir, name, &size);
  mk_buf got = {NULL, 0};
  if (expected == NULL || mk_result_json(&got, result) != MK_OK || got.size != size ||
      memcmp(got.ptr, expected, size) != 0) {
    fprintf(stderr, "vectors.c: %s differs from the result\n", name);
    ++failures;
  }
  mk_buf_dispose(&got);
  free(expected);
}

/* The Plan ID a committed result holds (17 bytes with the NUL). */
static void plan_id_in(const char* dir, const char* name, char* plan_id) {
  size_t size = 0;
  char* text = slurp(dir, name, &size);
  const char* at = text == NULL ? NULL : strstr(text, "\"plan_id\":\"");
  memset(plan_id, 0, 17);
  if (at != NULL) memcpy(plan_id, at + 11, 16);
  free(text);
}

/* memorybox_compact steps 2-4: the forced dry run, a stale apply, the confirmed apply. */
static void memorybox_steps(const char* inbox_case, const char* scratch) {
  char case_dir[1024], root[1024], command[5120], plan_id[17];
  snprintf(case_dir, sizeof case_dir, "%s/../memorybox_compact", inbox_case);
  snprintf(root, sizeof root, "%s/memorybox_compact-c", scratch);
  snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s' && cp -R '%s/files/.' '%s'", root,
           scratch, case_dir, root);
  if (system(command) != 0) {
    ++failures;
    return;
  }
  plan_id_in(case_dir, "2.json", plan_id);
  mk_clock now;
  mk_workspace_options options;
  mk_workspace_options_init(&options);
  options.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* ws = NULL;
  mk_result* result = NULL;
  if (mk_clock_parse(&now, "2026-11-30T10:00:00+01:00") != MK_OK ||
      mk_workspace_open(&ws, root, &options) != MK_OK) {
    fprintf(stderr, "vectors.c: %s\n", mk_last_error_message());
    ++failures;
    return;
  }
  if (mk_workspace_plan_memorybox_compact(&result, ws, &now, NULL, MK_MEMORYBOX_COMPACT_FORCE) ==
      MK_OK) {
    const char* id = mk_result_plan_id(result);
    if (id == NULL || strcmp(id, plan_id) != 0) ++failures;
    expect_json(result, case_dir, "2.json");
    mk_result_destroy(result);
  } else {
    ++failures;
  }
  if (mk_workspace_apply_memorybox_compact(&result, ws, &now, NULL, MK_MEMORYBOX_COMPACT_FORCE,
                                           "0000000000000000") == MK_OK) {
    expect_json(result, case_dir, "3.json");
    mk_result_destroy(result);
  } else {
    ++failures;
  }
  if (mk_workspace_apply_memorybox_compact(&result, ws, &now, NULL, MK_MEMORYBOX_COMPACT_FORCE,
                                           plan_id) == MK_OK) {
    expect_json(result, case_dir, "4.json");
    if (mk_result_applied(result) != 1) ++failures;
    mk_result_destroy(result);
  } else {
    ++failures;
  }
  mk_workspace_destroy(ws);
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (system(command) != 0) ++failures;
}

/* A judge's answers, by mk_gate (NULL: abstain), and whether a question came that was not JSON
 * naming its gate. */
struct gate_answers {
  const char* answer[5];
  int bad_question;
};

static const char* const gate_names[5] = {"VALUE", "ALIGNMENT", "REDUNDANCY", "FRESHNESS",
                                          "PLACEMENT"};

static int32_t judge_from_table(mk_gate gate, const char* question, size_t question_size,
                                mk_write_fn answer, void* answer_payload, void* payload) {
  struct gate_answers* answers = payload;
  char expected[64];
  if (gate < MK_GATE_VALUE || gate > MK_GATE_PLACEMENT) return MK_E_CALLBACK;
  snprintf(expected, sizeof expected, "\"gate\":\"%s\"", gate_names[gate]);
  /* The question is one JSON object; its "gate" is the gate asked. */
  {
    size_t n = strlen(expected), i;
    int found = 0;
    for (i = 0; i + n <= question_size && !found; ++i)
      found = memcmp(question + i, expected, n) == 0;
    if (question_size == 0 || question[0] != '{' || !found) answers->bad_question = 1;
  }
  if (answers->answer[gate] == NULL) return MK_JUDGE_ABSTAIN;
  if (answer(answers->answer[gate], strlen(answers->answer[gate]), answer_payload) != MK_OK) {
    return MK_E_CALLBACK;
  }
  return MK_JUDGE_ANSWER;
}

/* memorybox_gate steps 1-5: no judge at all (NEEDS_JUDGEMENT at VALUE), VALUE no (DISCARD),
 * confidence 0.10 (DO_NOT_STORE), the full WRITE as a dry run, then applied. */
static void gate_steps(const char* inbox_case, const char* scratch) {
  static const char text[] = "Deploys go out from the release branch only.";
  char case_dir[1024], root[1024], command[5120];
  snprintf(case_dir, sizeof case_dir, "%s/../memorybox_gate", inbox_case);
  snprintf(root, sizeof root, "%s/memorybox_gate-c", scratch);
  snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s' && cp -R '%s/files/.' '%s'", root,
           scratch, case_dir, root);
  if (system(command) != 0) {
    ++failures;
    return;
  }
  struct gate_answers value_no = {{"no", NULL, NULL, NULL, NULL}, 0};
  struct gate_answers full = {{"yes", "existing Infra", "none", "stable", "2 memory/LONG_TERM.md"},
                              0};
  struct {
    struct gate_answers* judge; /* NULL: no mk_judge_fn at all */
    const char* confidence;
    const char* source;
    uint32_t flags;
    const char* json;
  } steps[5] = {{NULL, "0.85", NULL, 0, "1.json"},
                {&value_no, "0.85", NULL, 0, "2.json"},
                {&full, "0.10", NULL, 0, "3.json"},
                {&full, "0.85", "release review", 0, "4.json"},
                {&full, "0.85", "release review", MK_GATE_APPLY, "5.json"}};
  mk_clock now;
  mk_workspace_options options;
  mk_workspace_options_init(&options);
  options.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* ws = NULL;
  if (mk_clock_parse(&now, "2026-11-30T10:00:00+01:00") != MK_OK ||
      mk_workspace_open(&ws, root, &options) != MK_OK) {
    fprintf(stderr, "vectors.c: %s\n", mk_last_error_message());
    ++failures;
    return;
  }
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
    mk_gate_candidate candidate;
    mk_gate_candidate_init(&candidate);
    candidate.text = text;
    candidate.text_size = sizeof text - 1;
    candidate.confidence = steps[i].confidence;
    candidate.source = steps[i].source;
    mk_result* result = NULL;
    if (mk_workspace_gate(&result, ws, &now, &candidate,
                          steps[i].judge == NULL ? NULL : judge_from_table, steps[i].judge,
                          steps[i].flags) != MK_OK) {
      fprintf(stderr, "vectors.c: gate step %zu: %s\n", i + 1, mk_last_error_message());
      ++failures;
      continue;
    }
    expect_json(result, case_dir, steps[i].json);
    if (mk_result_applied(result) != (steps[i].flags & MK_GATE_APPLY ? 1 : 0) ||
        mk_result_plan_id(result) != NULL || mk_result_exit_code(result) != 0) {
      fprintf(stderr, "vectors.c: gate step %zu: applied, plan ID or exit code\n", i + 1);
      ++failures;
    }
    if (steps[i].judge != NULL && steps[i].judge->bad_question) {
      fprintf(stderr, "vectors.c: gate step %zu: a question did not name its gate\n", i + 1);
      ++failures;
    }
    mk_result_destroy(result);
  }
  mk_workspace_destroy(ws);
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (system(command) != 0) ++failures;
}

/* curated_lifecycle steps 1-13 (the arguments of its case.json): the adds with their classes and
 * statuses, a dry run, the two MK-CUR-007 refusals, the reclassify, the supersedes link, both
 * modes of get-relevant and the counters show derives from them. */
static void curated_steps(const char* inbox_case, const char* scratch) {
  char case_dir[1024], root[1024], command[5120];
  snprintf(case_dir, sizeof case_dir, "%s/../curated_lifecycle", inbox_case);
  snprintf(root, sizeof root, "%s/curated_lifecycle-c", scratch);
  snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s' && cp -R '%s/files/.' '%s'", root,
           scratch, case_dir, root);
  if (system(command) != 0) {
    ++failures;
    return;
  }
  struct {
    mk_curated_command command;
    const char *name, *dst, *type, *row_class, *status, *initiative, *project_ref, *description;
    const char *body, *audience, *origin_session, *kind, *actor;
    int32_t dry_run, links, history;
    int exit_code, applied;
  } steps[13] = {
      {MK_CURATED_ADD, "feedback_a", NULL, "feedback", "thread", "open", "Demo", NULL,
       "Fix the flaky build on CI runners that time out after ten minutes",
       "CI runners time out.\n\n\n", NULL, NULL, NULL, NULL, 0, 0, 0, 0, 1},
      {MK_CURATED_ADD, "feedback_b", NULL, "feedback", "thread", "open", "demo", NULL, NULL,
       "Retry the upload", NULL, NULL, NULL, NULL, 0, 0, 0, 0, 1},
      {MK_CURATED_ADD, "feedback_c", NULL, "feedback", "thread", "carry_forward", NULL,
       "/srv/repos/demo/.git", "Replace the upload retry", "A resumable upload", NULL, NULL, NULL,
       "orchestrator", 0, 0, 0, 0, 1},
      {MK_CURATED_ADD, "project_x", NULL, "project", "thread", "open", NULL, NULL, "x",
       "The project without an initiative", "executor", "s-9", NULL, NULL, 0, 0, 0, 0, 1},
      {MK_CURATED_ADD, "decision_rows", NULL, "decision", "anchor", NULL, NULL, NULL, NULL,
       "Rows live in Markdown.", NULL, NULL, NULL, NULL, 0, 0, 0, 0, 1},
      {MK_CURATED_ADD, "project_note", NULL, "project", NULL, NULL, NULL, NULL, NULL, "A log entry",
       NULL, NULL, NULL, NULL, 1, 0, 0, 0, 0},
      {MK_CURATED_ADD, "project_note", NULL, "project", NULL, "open", NULL, NULL, NULL,
       "A log entry", NULL, NULL, NULL, NULL, 0, 0, 0, 2, 0},
      {MK_CURATED_RECLASSIFY, "project_x", NULL, NULL, "anchor", NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, 0, 0, 0, 0, 1},
      {MK_CURATED_RECLASSIFY, "project_x", NULL, NULL, NULL, "open", NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, 0, 0, 0, 2, 0},
      {MK_CURATED_LINK, "feedback_c", "feedback_b", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, "supersedes", NULL, 0, 0, 0, 0, 1},
      {MK_CURATED_GET_RELEVANT, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, 0, 0, 0, 0, 0},
      {MK_CURATED_GET_RELEVANT, NULL, NULL, NULL, NULL, NULL, "Demo", NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, 0, 0, 0, 0, 0},
      {MK_CURATED_SHOW, "feedback_a", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, 0, 1, 0, 0, 0}};
  mk_clock now;
  mk_workspace_options options;
  mk_workspace_options_init(&options);
  options.layout = MK_LAYOUT_CURATED;
  mk_workspace* ws = NULL;
  if (mk_clock_parse(&now, "2026-11-30T10:00:00+01:00") != MK_OK ||
      mk_workspace_open(&ws, root, &options) != MK_OK) {
    fprintf(stderr, "vectors.c: %s\n", mk_last_error_message());
    ++failures;
    return;
  }
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
    mk_curated_options opts;
    mk_curated_options_init(&opts);
    opts.workspace = "ws1";
    opts.name = steps[i].name;
    opts.dst = steps[i].dst;
    opts.type = steps[i].type;
    opts.row_class = steps[i].row_class;
    opts.status = steps[i].status;
    opts.initiative = steps[i].initiative;
    opts.project_ref = steps[i].project_ref;
    opts.description = steps[i].description;
    opts.body = steps[i].body;
    opts.audience = steps[i].audience;
    opts.origin_session = steps[i].origin_session;
    opts.kind = steps[i].kind;
    opts.actor = steps[i].actor;
    opts.dry_run = steps[i].dry_run;
    opts.links = steps[i].links;
    opts.history = steps[i].history;
    mk_result* result = NULL;
    if (mk_curated_run(&result, ws, &now, steps[i].command, &opts) != MK_OK) {
      fprintf(stderr, "vectors.c: curated step %zu: %s\n", i + 1, mk_last_error_message());
      ++failures;
      continue;
    }
    char json[16];
    snprintf(json, sizeof json, "%zu.json", i + 1);
    expect_json(result, case_dir, json);
    if (mk_result_applied(result) != steps[i].applied || mk_result_plan_id(result) != NULL ||
        mk_result_exit_code(result) != steps[i].exit_code) {
      fprintf(stderr, "vectors.c: curated step %zu: applied, plan ID or exit code\n", i + 1);
      ++failures;
    }
    mk_result_destroy(result);
  }
  mk_workspace_destroy(ws);
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (system(command) != 0) ++failures;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const char* case_dir = argv[1];
  char root[1024], command[3072];
  snprintf(root, sizeof root, "%s/inbox_dedupe-c", argv[2]);
  snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s' && cp -R '%s/files/.' '%s'", root,
           argv[2], case_dir, root);
  if (system(command) != 0) return 2;

  /* The Plan ID of step 1, as 1.json spells it. */
  size_t size = 0;
  char* first = slurp(case_dir, "1.json", &size);
  const char* at = first == NULL ? NULL : strstr(first, "\"plan_id\":\"");
  char plan_id[17] = {0};
  if (at != NULL) memcpy(plan_id, at + 11, 16);
  free(first);

  mk_clock now;
  mk_workspace* ws = NULL;
  mk_result* result = NULL;
  if (mk_clock_parse(&now, "2026-03-07T10:00:00+01:00") != MK_OK ||
      mk_workspace_open(&ws, root, NULL) != MK_OK) {
    fprintf(stderr, "vectors.c: %s\n", mk_last_error_message());
    return 1;
  }
  if (mk_workspace_plan_compaction(&result, ws, &now, NULL) == MK_OK) {
    const char* id = mk_result_plan_id(result);
    if (id == NULL || strcmp(id, plan_id) != 0) {
      fprintf(stderr, "vectors.c: plan %s, expected %s\n", id ? id : "(none)", plan_id);
      ++failures;
    }
    expect_json(result, case_dir, "1.json");
    mk_result_destroy(result);
  } else {
    ++failures;
  }
  if (mk_workspace_apply_compaction(&result, ws, &now, NULL, "0000000000000000") == MK_OK) {
    expect_json(result, case_dir, "2.json");
    mk_result_destroy(result);
  } else {
    ++failures;
  }
  if (mk_workspace_apply_compaction(&result, ws, &now, NULL, plan_id) == MK_OK) {
    expect_json(result, case_dir, "3.json");
    if (mk_result_applied(result) != 1) ++failures;
    mk_result_destroy(result);
  } else {
    ++failures;
  }
  mk_workspace_destroy(ws);
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (system(command) != 0) ++failures;
  memorybox_steps(case_dir, argv[2]);
  gate_steps(case_dir, argv[2]);
  curated_steps(case_dir, argv[2]);
  printf(
      "inbox_dedupe 1-3, memorybox_compact 2-4, memorybox_gate 1-5 and curated_lifecycle 1-13 "
      "from C: %d failure(s)\n",
      failures);
  return failures == 0 ? 0 : 1;
}
