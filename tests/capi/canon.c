/* Maven canon from C11: init a Maven root, add canon, verify, break it, and see add refused. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "canon") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-11-30T10:00:00+01:00") == MK_OK);
  mk_workspace_options box;
  mk_workspace_options_init(&box);
  box.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, &box) == MK_OK);
  mk_result* result = NULL;

  /* A default root has no canon. */
  EXPECT(mk_workspace_canon_verify(&result, ws, &now) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);

  EXPECT(mk_workspace_init(&result, ws, &now, MK_INIT_PROFILE_MAVEN) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"brain/MARKETING_CANON.md\""));
  mk_result_destroy(result);

  EXPECT(mk_workspace_canon_add(&result, ws, &now, NULL, "x", 1) == MK_E_ARG);
  const char* rule = "Plain words beat jargon";
  EXPECT(mk_workspace_canon_add(&result, ws, &now, "brain/MARKETING_CANON.md", rule,
                                strlen(rule)) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result,
                       "\"written\":[\"brain/MARKETING_CANON.md\","
                       "\".memkit/canon-ledger.jsonl\"]"));
  mk_result_destroy(result);
  EXPECT(mk_workspace_canon_verify(&result, ws, &now) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(json_contains(result, "\"violations\":[]"));
  mk_result_destroy(result);

  /* An edit of recorded canon is a violation, and add then refuses that file. */
  char canon[700];
  snprintf(canon, sizeof canon, "%s/brain/MARKETING_CANON.md", root);
  FILE* f = fopen(canon, "wb");
  EXPECT(f != NULL);
  if (f != NULL) {
    fputs("# MARKETING_CANON\n\n- Fancy words beat jargon\n", f);
    fclose(f);
  }
  EXPECT(mk_workspace_canon_verify(&result, ws, &now) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 1);
  EXPECT(json_contains(result, "MK-BOX-030"));
  mk_result_destroy(result);
  EXPECT(mk_workspace_canon_add(&result, ws, &now, "brain/MARKETING_CANON.md", "more", 4) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 1);
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);

  mk_workspace_destroy(ws);
  char cleanup[700];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  EXPECT(system(cleanup) == 0);
  if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
