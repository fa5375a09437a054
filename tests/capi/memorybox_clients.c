/* `memorybox client set` from C11 (spec memorybox.md §10, §11): the field update written
 * directly, the archive move's dry run, a stale ID, the confirmed apply and its reverse, byte for
 * byte, and the refusals. Runs in a fresh folder under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static int make_folder(const char* root, const char* path) {
  char full[1024];
  snprintf(full, sizeof full, "%s/%s", root, path);
  return mkdir(full, 0755) == 0;
}

static const char* const kProfile = "# Acme\r\nLifecycle: maintenance\r\nBrand: bold\r\n";
static const char* const kNotes = "# Notes\n- launch\n";

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "clients") != 0) return 1;
  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-11-30T10:00:00+01:00") == MK_OK);
  mk_workspace_options options;
  mk_workspace_options_init(&options);
  options.layout = MK_LAYOUT_MEMORYBOX;
  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(&ws, root, &options) == MK_OK);
  mk_result* result = NULL;

  /* A default root has no clients. */
  EXPECT(mk_workspace_init(&result, ws, &now, 0) == MK_OK);
  mk_result_destroy(result);
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_MAINTENANCE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"code\":\"MK-ARG-001\""));
  EXPECT(json_contains(result, "profile is default"));
  mk_result_destroy(result);

  EXPECT(mk_workspace_init(&result, ws, &now, MK_INIT_PROFILE_MAVEN) == MK_OK);
  mk_result_destroy(result);
  EXPECT(make_folder(root, "brain/clients"));
  EXPECT(make_folder(root, "memory/clients"));
  EXPECT(make_folder(root, "memory/clients/acme"));
  EXPECT(write_file_at(root, "brain/clients/acme.md", "# Acme\r\nBrand: bold\r\n"));
  EXPECT(write_file_at(root, "memory/clients/acme/notes.md", kNotes));

  /* Arguments the library refuses before anything runs. */
  EXPECT(mk_workspace_client_set(NULL, ws, &now, "acme", MK_LIFECYCLE_ACTIVE) == MK_E_ARG);
  EXPECT(mk_workspace_client_set(&result, ws, &now, NULL, MK_LIFECYCLE_ACTIVE) == MK_E_ARG);
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", 3) == MK_E_ARG);
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", -1) == MK_E_ARG);
  EXPECT(mk_workspace_apply_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ARCHIVED, NULL) ==
         MK_E_ARG);

  /* A key that is not file-name safe, and a client that does not exist. */
  EXPECT(mk_workspace_client_set(&result, ws, &now, "../acme", MK_LIFECYCLE_ACTIVE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  EXPECT(mk_workspace_client_set(&result, ws, &now, "beta", MK_LIFECYCLE_ACTIVE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);

  /* active -> archived must pass through maintenance. */
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ARCHIVED) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 1);
  EXPECT(json_contains(result, "\"code\":\"MK-BOX-031\""));
  EXPECT(mk_result_plan_id(result) == NULL);
  mk_result_destroy(result);

  /* active -> maintenance: the Lifecycle line is inserted after the title, written directly. */
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_MAINTENANCE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 1);
  EXPECT(mk_result_plan_id(result) == NULL);
  EXPECT(json_contains(result, "\"from\":\"active\""));
  EXPECT(json_contains(result, "\"written\":[\"brain/clients/acme.md\"]"));
  mk_result_destroy(result);
  EXPECT(file_holds(root, "brain/clients/acme.md", kProfile));
  /* A field update has no plan to confirm. */
  EXPECT(mk_workspace_apply_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ACTIVE,
                                       "0000000000000000") == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  EXPECT(file_holds(root, "brain/clients/acme.md", kProfile));

  /* maintenance -> archived: a dry run, a stale ID, the confirmed apply. */
  char plan[17];
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ARCHIVED) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(mk_result_plan_operation_count(result) == 4);
  plan_id_of(result, plan);
  EXPECT(strlen(plan) == 16);
  mk_result_destroy(result);
  EXPECT(file_holds(root, "brain/clients/acme.md", kProfile));
  EXPECT(mk_workspace_apply_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ARCHIVED,
                                       "0000000000000000") == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(json_contains(result, "\"code\":\"MK-PLAN-001\""));
  mk_result_destroy(result);
  EXPECT(file_holds(root, "brain/clients/acme.md", kProfile));
  EXPECT(mk_workspace_apply_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ARCHIVED, plan) ==
         MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(!path_exists(root, "brain/clients/acme.md"));
  EXPECT(!path_exists(root, "memory/clients/acme/notes.md"));
  EXPECT(file_holds(root, "memory/ARCHIVES/clients/acme/acme.md",
                    "# Acme\r\nLifecycle: archived\r\nBrand: bold\r\n"));
  EXPECT(file_holds(root, "memory/ARCHIVES/clients/acme/notes.md", kNotes));

  /* archived -> maintenance is refused; archived -> active moves everything back. */
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_MAINTENANCE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 1);
  mk_result_destroy(result);
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ACTIVE) == MK_OK);
  EXPECT(json_contains(result, "\"from\":\"archived\""));
  plan_id_of(result, plan);
  mk_result_destroy(result);
  EXPECT(mk_workspace_apply_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ACTIVE, plan) ==
         MK_OK);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  EXPECT(
      file_holds(root, "brain/clients/acme.md", "# Acme\r\nLifecycle: active\r\nBrand: bold\r\n"));
  EXPECT(file_holds(root, "memory/clients/acme/notes.md", kNotes));
  EXPECT(!path_exists(root, "memory/ARCHIVES/clients/acme/acme.md"));

  /* The state it is in already: nothing to write. */
  EXPECT(mk_workspace_client_set(&result, ws, &now, "acme", MK_LIFECYCLE_ACTIVE) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 0);
  EXPECT(json_contains(result, "\"plan\":null"));
  mk_result_destroy(result);
  mk_workspace_destroy(ws);

  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (failures == 0 && system(command) != 0) ++failures;
  printf("memorybox client set from C: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
