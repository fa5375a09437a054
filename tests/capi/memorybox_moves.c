/* The MemoryBox moves of the C ABI from C11 (spec memorybox.md §6 --resolve archive, §7 compact,
 * §11 promote): each dry run gives a Plan ID that only its own apply accepts, and the applies
 * move entries verbatim. Runs in a fresh folder under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* The first "<prefix><12 hex digits>" in the result's JSON, copied into out (64 bytes). */
static void entry_id_in(const mk_result* result, const char* prefix, char* out) {
  mk_buf json = {NULL, 0};
  memset(out, 0, 64);
  EXPECT(mk_result_json(&json, result) == MK_OK);
  const size_t n = strlen(prefix);
  for (size_t i = 0; i + n + 12 <= json.size; ++i) {
    if (memcmp(json.ptr + i, prefix, n) == 0) {
      memcpy(out, json.ptr + i, n + 12);
      break;
    }
  }
  mk_buf_dispose(&json);
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "moves") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-03-07T10:00:00+01:00") == MK_OK);
  mk_workspace_options options;
  mk_workspace_options_init(&options);
  options.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, &options) == MK_OK);
  mk_result* result = NULL;
  EXPECT(mk_workspace_init(&result, ws, &now, 0) == MK_OK);
  mk_result_destroy(result);
  EXPECT(write_file_at(root, "memory/ACTIVE_TASKS.md",
                       "# ACTIVE_TASKS\n- [ ] open\n- [x] shipped 2026-01-10\n"));
  EXPECT(write_file_at(
      root, "memory/PATTERNS.md",
      "# PATTERNS\n\n## Retry\nConfidence: 0.90\nVerified: 2026-03-01\n\n## Old\nx\n"));
  EXPECT(write_file_at(root, "memory/SOP_LIBRARY.md", "# SOP_LIBRARY\n\n## Release\nTag.\n"));
  EXPECT(write_file_at(root, "memory/LONG_TERM.md", "# LONG_TERM\n- stale fact\n- kept fact\n"));
  char plan[17];
  char stale_plan[17];

  /* compact: a dry run, unknown flags, a stale ID, the confirmed apply. */
  EXPECT(mk_workspace_plan_memorybox_compact(&result, ws, &now, NULL, 2u) == MK_E_ARG);
  EXPECT(mk_workspace_plan_memorybox_compact(NULL, ws, &now, NULL, 0) == MK_E_ARG);
  EXPECT(mk_workspace_plan_memorybox_compact(&result, ws, &now, NULL, 0) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_plan_id(result) == NULL); /* no threshold is breached */
  mk_result_destroy(result);
  EXPECT(mk_workspace_plan_memorybox_compact(&result, ws, &now, "memory/ACTIVE_TASKS.md",
                                             MK_MEMORYBOX_COMPACT_FORCE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_plan_operation_count(result) == 2);
  plan_id_of(result, plan);
  EXPECT(strlen(plan) == 16);
  mk_result_destroy(result);
  EXPECT(mk_workspace_plan_memorybox_compact(&result, ws, &now, NULL, MK_MEMORYBOX_COMPACT_FORCE) ==
         MK_OK);
  plan_id_of(result, stale_plan); /* another plan: its arguments differ */
  EXPECT(strcmp(stale_plan, plan) != 0);
  mk_result_destroy(result);
  EXPECT(mk_workspace_plan_memorybox_compact(&result, ws, &now, "memory/LONG_TERM.md", 0) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2); /* not a file of a rule */
  mk_result_destroy(result);
  EXPECT(mk_workspace_apply_memorybox_compact(&result, ws, &now, "memory/ACTIVE_TASKS.md",
                                              MK_MEMORYBOX_COMPACT_FORCE, NULL) == MK_E_ARG);
  EXPECT(mk_workspace_apply_memorybox_compact(&result, ws, &now, "memory/ACTIVE_TASKS.md",
                                              MK_MEMORYBOX_COMPACT_FORCE, stale_plan) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(file_holds(root, "memory/ACTIVE_TASKS.md",
                    "# ACTIVE_TASKS\n- [ ] open\n- [x] shipped 2026-01-10\n"));
  EXPECT(mk_workspace_apply_memorybox_compact(&result, ws, &now, "memory/ACTIVE_TASKS.md",
                                              MK_MEMORYBOX_COMPACT_FORCE, plan) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(file_holds(root, "memory/ACTIVE_TASKS.md", "# ACTIVE_TASKS\n- [ ] open\n"));
  EXPECT(file_holds(root, "memory/ARCHIVES/tasks-2026-01.md",
                    "# Archived Memory: memory/ACTIVE_TASKS.md\n\n"
                    "Complete entries moved out of active memory by reviewed compaction.\n"
                    "Load this file only when explicitly asked; it is not part of normal task "
                    "context.\n\n- [x] shipped 2026-01-10\n"));

  /* promote: the pattern's ID from a decay report, then its plan and apply. */
  char pattern[64];
  EXPECT(mk_workspace_decay(&result, ws, &now, "memory/PATTERNS.md") == MK_OK);
  entry_id_in(result, "memory/PATTERNS.md#", pattern);
  mk_result_destroy(result);
  EXPECT(strlen(pattern) == 31);
  EXPECT(mk_workspace_plan_promote(&result, ws, &now, NULL) == MK_E_ARG);
  EXPECT(mk_workspace_plan_promote(&result, ws, &now, "memory/LONG_TERM.md#000000000000") == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2); /* not a pattern */
  mk_result_destroy(result);
  EXPECT(mk_workspace_plan_promote(&result, ws, &now, pattern) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  plan_id_of(result, plan);
  mk_result_destroy(result);
  EXPECT(mk_workspace_apply_promote(&result, ws, &now, pattern, NULL) == MK_E_ARG);
  EXPECT(mk_workspace_apply_promote(&result, ws, &now, pattern, plan) == MK_OK);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(file_holds(root, "memory/PATTERNS.md", "# PATTERNS\n\n## Old\nx\n"));
  EXPECT(file_holds(root, "memory/SOP_LIBRARY.md",
                    "# SOP_LIBRARY\n\n## Release\nTag.\n\n"
                    "## Retry\nConfidence: 0.90\nVerified: 2026-03-01\n"));

  /* update --resolve archive: a LONG_TERM entry goes to long_term-2026-03.md. */
  char fact[64];
  EXPECT(mk_workspace_decay(&result, ws, &now, "memory/LONG_TERM.md") == MK_OK);
  entry_id_in(result, "memory/LONG_TERM.md#", fact);
  mk_result_destroy(result);
  EXPECT(strlen(fact) == 32);
  EXPECT(mk_workspace_plan_archive_entry(&result, ws, &now, NULL) == MK_E_ARG);
  EXPECT(mk_workspace_plan_archive_entry(&result, ws, &now, fact) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_plan_operation_count(result) == 2);
  plan_id_of(result, plan);
  mk_result_destroy(result);
  EXPECT(mk_workspace_apply_archive_entry(&result, ws, &now, fact, "0000000000000000") == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  EXPECT(mk_workspace_apply_archive_entry(&result, ws, &now, fact, plan) == MK_OK);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(file_holds(root, "memory/LONG_TERM.md", "# LONG_TERM\n- kept fact\n"));
  char* archive = read_file_at(root, "memory/ARCHIVES/long_term-2026-03.md");
  EXPECT(archive != NULL && strstr(archive, "\n\n- stale fact\n") != NULL);
  free(archive);
  mk_workspace_destroy(ws);

  /* A custodian workspace has its own compact: these functions refuse it in the result. */
  mk_workspace* custodian = NULL;
  EXPECT(mk_workspace_open(&custodian, root, NULL) == MK_OK);
  EXPECT(mk_workspace_plan_memorybox_compact(&result, custodian, NULL, NULL, 0) == MK_E_ARG);
  EXPECT(mk_workspace_plan_memorybox_compact(&result, custodian, &now, NULL, 0) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(mk_result_plan_id(result) == NULL);
  mk_result_destroy(result);
  EXPECT(mk_workspace_plan_promote(&result, custodian, &now, pattern) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  mk_workspace_destroy(custodian);

  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (failures == 0 && system(command) != 0) ++failures;
  printf("memorybox moves from C: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
