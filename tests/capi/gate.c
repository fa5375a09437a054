/* A `memorybox gate` request from C11: the judge callback answers some gates and abstains from
 * others, sees the question as JSON, fails, or writes an answer that does not parse; `apply` writes
 * the entry; an answer given as an argument is not asked. Runs in a fresh agent root under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* The host: one answer per gate (NULL abstains), a status to return instead, and what it saw. */
struct host {
  const char* answers[5];
  int32_t fail_with; /* 0: answer or abstain */
  int asked[5];
  int saw_categories; /* the ALIGNMENT question listed the existing categories */
};

static int32_t judge(mk_gate gate, const char* question, size_t size, mk_write_fn answer,
                     void* answer_payload, void* payload) {
  struct host* h = (struct host*)payload;
  h->asked[gate] += 1;
  if (h->fail_with != 0) return h->fail_with;
  if (gate == MK_GATE_ALIGNMENT) {
    const char* needle = "\"SOP_LIBRARY\",\"Team\"]"; /* sorted; init made the section files */
    for (size_t i = 0; i + strlen(needle) <= size; ++i) {
      if (memcmp(question + i, needle, strlen(needle)) == 0) h->saw_categories = 1;
    }
  }
  const char* said = h->answers[gate];
  if (said == NULL) return MK_JUDGE_ABSTAIN;
  /* In two pieces: the answer is the concatenation. */
  const size_t half = strlen(said) / 2;
  if (answer(said, half, answer_payload) != MK_OK) return -1;
  if (answer(said + half, strlen(said) - half, answer_payload) != MK_OK) return -1;
  return MK_JUDGE_ANSWER;
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "gate") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-11-30T10:00:00+01:00") == MK_OK);
  mk_workspace_options box;
  EXPECT(mk_workspace_options_init(&box, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  box.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, &box) == MK_OK);
  mk_result* result = NULL;
  EXPECT(run_request(&result, ws, &now, "memorybox", "init", NULL) == MK_OK);
  mk_result_destroy(result);
  char long_term[700];
  snprintf(long_term, sizeof long_term, "%s/memory/LONG_TERM.md", root);
  FILE* f = fopen(long_term, "wb");
  EXPECT(f != NULL);
  if (f != NULL) {
    fputs("# LONG_TERM\n\n## Team\n- Alice owns deploys\n", f);
    fclose(f);
  }

  /* The candidate, as arguments of a `memorybox gate` request; the judge is a callback. */
  mk_request* gate = NULL;
  EXPECT(mk_request_create(&gate, "memorybox", "gate") == MK_OK);
  EXPECT(mk_request_set_string(gate, "text", "Bob reviews every schema change") == MK_OK);
  EXPECT(mk_request_set_string(gate, "confidence", "0.85") == MK_OK);

  /* A judge belongs to a gate request only. */
  mk_request* status = NULL;
  EXPECT(mk_request_create(&status, "memorybox", "status") == MK_OK);
  EXPECT(mk_request_set_judge(status, judge, NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "memorybox status") != NULL);
  mk_request_destroy(status);
  EXPECT(mk_request_set_judge(NULL, judge, NULL) == MK_E_ARG);

  /* No judge: the run stops at VALUE, failing closed. */
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"outcome\":\"NEEDS_JUDGEMENT\""));
  EXPECT(json_contains(result, "\"stopped_at\":\"VALUE\""));
  mk_result_destroy(result);

  /* The host abstains from FRESHNESS. */
  struct host partial = {
      {"yes", "existing Team", "none", NULL, "2 memory/LONG_TERM.md"}, 0, {0}, 0};
  EXPECT(mk_request_set_judge(gate, judge, &partial) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(json_contains(result, "\"stopped_at\":\"FRESHNESS\""));
  EXPECT(partial.asked[MK_GATE_PLACEMENT] == 0);
  EXPECT(partial.saw_categories == 1);
  mk_result_destroy(result);

  /* A failing judge, and an answer that does not parse: MK-BOX-005, exit 2. */
  struct host failing = {{NULL, NULL, NULL, NULL, NULL}, -7, {0}, 0};
  EXPECT(mk_request_set_judge(gate, judge, &failing) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "MK-BOX-005"));
  mk_result_destroy(result);
  struct host garbled = {{"perhaps", NULL, NULL, NULL, NULL}, 0, {0}, 0};
  EXPECT(mk_request_set_judge(gate, judge, &garbled) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "MK-BOX-005"));
  mk_result_destroy(result);

  /* Every answer: a dry run writes nothing, `apply` writes the entry. */
  struct host full = {
      {"yes", "existing Team", "none", "stable", "2 memory/LONG_TERM.md"}, 0, {0}, 0};
  EXPECT(mk_request_set_judge(gate, judge, &full) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(json_contains(result, "\"outcome\":\"WRITE\""));
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  char* before = read_file_at(NULL, long_term);
  EXPECT(before != NULL && strstr(before, "Bob") == NULL);
  free(before);
  EXPECT(mk_request_set_judge(gate, judge, &full) == MK_OK);
  EXPECT(mk_request_set_bool(gate, "apply", 1) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 1);
  EXPECT(json_contains(result, "\"written\":[\"memory/LONG_TERM.md\"]"));
  mk_result_destroy(result);
  char* after = read_file_at(NULL, long_term);
  EXPECT(after != NULL &&
         strstr(after,
                "- Alice owns deploys\n- Bob reviews every schema change\n"
                "  Confidence: 0.85\n  Verified: 2026-11-30\n  Stable: yes\n") != NULL);
  free(after);

  /* The same text again is an exact match: UPDATE_EXISTING, and REDUNDANCY is not asked. */
  struct host again = {
      {"yes", "existing Team", "none", "stable", "2 memory/LONG_TERM.md"}, 0, {0}, 0};
  EXPECT(mk_request_set_judge(gate, judge, &again) == MK_OK);
  EXPECT(mk_request_set_bool(gate, "apply", 1) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(json_contains(result, "\"outcome\":\"UPDATE_EXISTING\""));
  EXPECT(again.asked[MK_GATE_REDUNDANCY] == 0);
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);

  /* An answer given as an argument answers its gate without asking the judge. */
  struct host rest_of = {
      {"yes", "existing Team", "none", "stable", "2 memory/LONG_TERM.md"}, 0, {0}, 0};
  EXPECT(mk_request_set_bool(gate, "apply", 0) == MK_OK);
  EXPECT(mk_request_set_string(gate, "text", "Carol signs the releases") == MK_OK);
  EXPECT(mk_request_set_string(gate, "value", "no") == MK_OK);
  EXPECT(mk_request_set_judge(gate, judge, &rest_of) == MK_OK);
  EXPECT(mk_workspace_run(&result, ws, &now, gate) == MK_OK);
  EXPECT(json_contains(result, "\"outcome\":\"DISCARD\""));
  EXPECT(rest_of.asked[MK_GATE_VALUE] == 0);
  mk_result_destroy(result);
  mk_request_destroy(gate);

  mk_workspace_destroy(ws);
  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  EXPECT(system(cleanup) == 0);
  if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
