/* The command surface of the C ABI from C11, every command a request: open a workspace, init, plan
 * and apply an inbox compaction (a stale ID first), read the typed accessors and the JSON, stream
 * it through a callback that stops, and parse a document. Runs in a fresh folder under TMPDIR. */
#define _POSIX_C_SOURCE 200809L
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int contains(const mk_buf* buf, const char* needle) {
  const size_t n = strlen(needle);
  for (size_t i = 0; i + n <= buf->size; ++i) {
    if (memcmp(buf->ptr + i, needle, n) == 0) return 1;
  }
  return 0;
}

struct stop_after {
  int calls;
  size_t bytes;
};

static mk_status count_then_stop(const char* data, size_t size, void* payload) {
  struct stop_after* state = (struct stop_after*)payload;
  (void)data;
  state->calls += 1;
  state->bytes += size;
  return MK_E_CALLBACK;
}

static mk_status collect(const char* data, size_t size, void* payload) {
  mk_buf* buf = (mk_buf*)payload;
  char* grown = realloc(buf->ptr, buf->size + size);
  if (grown == NULL) return MK_E_NOMEM;
  memcpy(grown + buf->size, data, size);
  buf->ptr = grown;
  buf->size += size;
  return MK_OK;
}

int main(void) {
  char root[512];
  if (make_test_root(root, sizeof root, "capi") != 0) return 1;

  mk_clock now;
  EXPECT(mk_clock_parse(&now, "2026-03-07T10:00:00+01:00") == MK_OK);
  EXPECT(now.utc_offset_minutes == 60);
  EXPECT(now.unix_ms == 1772874000000LL);
  mk_clock bad;
  EXPECT(mk_clock_parse(&bad, "2026-03-07T10:00:00") == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "offset") != NULL);

  mk_workspace* ws = NULL;
  EXPECT(mk_workspace_open(NULL, root, NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "out") != NULL);
  mk_workspace_options options;
  EXPECT(mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION + 1) == MK_E_ARG);
  EXPECT(mk_workspace_options_init(&options, 0) == MK_E_ARG);
  EXPECT(mk_workspace_options_init(NULL, MK_WORKSPACE_OPTIONS_VERSION) == MK_E_ARG);
  EXPECT(mk_workspace_options_init(&options, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  EXPECT(options.version == MK_WORKSPACE_OPTIONS_VERSION && options.layout == MK_LAYOUT_CUSTODIAN);
  EXPECT(options.memory_dir == NULL && options.lock_timeout_seconds == 10);
  options.version = 999;
  EXPECT(mk_workspace_open(&ws, root, &options) == MK_E_ARG);
  EXPECT(ws == NULL);
  options.version = MK_WORKSPACE_OPTIONS_VERSION;
  options.lock_timeout_seconds = 1e10;
  EXPECT(mk_workspace_open(&ws, root, &options) == MK_E_ARG);
  options.lock_timeout_seconds = 10;
  options.memory_dir = "";
  EXPECT(mk_workspace_open(&ws, root, &options) == MK_E_ARG);
  EXPECT(ws == NULL);
  /* A relative root is fixed at open: a later chdir does not move the workspace. */
  char cwd[1024];
  EXPECT(getcwd(cwd, sizeof cwd) != NULL);
  EXPECT(chdir(root) == 0);
  EXPECT(mk_workspace_open(&ws, ".", NULL) == MK_OK);
  EXPECT(chdir(cwd) == 0);
  EXPECT(ws != NULL);

  mk_result* result = NULL;
  EXPECT(run_request(&result, ws, &now, "custodian", "init", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_plan_id(result) == NULL);
  mk_result_destroy(result);

  char inbox[640];
  snprintf(inbox, sizeof inbox, "%s/docs/memory/inbox.md", root);
  EXPECT(write_file_at(NULL, inbox, "# Memory Inbox\n\n- Use Redis\n- keep tabs\n- use redis\n"));

  EXPECT(run_request(&result, ws, &now, "custodian", "compact", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  const char* id = mk_result_plan_id(result);
  EXPECT(id != NULL && strlen(id) == 16);
  char plan_id[17] = {0};
  if (id != NULL) memcpy(plan_id, id, 16);
  mk_inbox_counts counts;
  EXPECT(mk_result_inbox_counts(&counts, result) == MK_OK);
  EXPECT(counts.inbox_items == 3 && counts.duplicates == 1 && counts.candidates == 2);
  EXPECT(mk_result_plan_operation_count(result) >= 1);
  mk_buf json = {NULL, 0};
  EXPECT(mk_result_json(&json, result) == MK_OK);
  EXPECT(contains(&json, "\"command\":\"custodian compact\""));
  EXPECT(contains(&json, plan_id));
  mk_buf streamed = {NULL, 0};
  EXPECT(mk_result_write_json(result, collect, &streamed) == MK_OK);
  EXPECT(streamed.size == json.size && memcmp(streamed.ptr, json.ptr, json.size) == 0);
  free(streamed.ptr);
  struct stop_after stop = {0, 0};
  EXPECT(mk_result_write_json(result, count_then_stop, &stop) == MK_E_CALLBACK);
  EXPECT(stop.calls == 1);
  mk_buf_dispose(&json);
  EXPECT(json.ptr == NULL && json.size == 0);
  mk_buf_dispose(&json);
  mk_buf_dispose(NULL);
  mk_result_destroy(result);

  /* A stale ID writes nothing; the confirmed one writes the plan. */
  EXPECT(run_request(&result, ws, &now, "custodian", "compact", "--apply",
                     "confirm-plan=0000000000000000", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  EXPECT(mk_result_applied(result) == 0);
  mk_result_destroy(result);
  char* before = read_file_at(NULL, inbox);
  EXPECT(before != NULL && strstr(before, "use redis") != NULL);
  free(before);
  char confirm[64];
  snprintf(confirm, sizeof confirm, "confirm_plan=%s", plan_id);
  EXPECT(run_request(&result, ws, &now, "custodian", "compact", "--apply", confirm, NULL) ==
         MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  char* after = read_file_at(NULL, inbox);
  EXPECT(after != NULL && strcmp(after, "# Memory Inbox\n\n- Use Redis\n- keep tabs\n") == 0);
  free(after);

  /* Undo restores the bytes. */
  char undo_of[64];
  snprintf(undo_of, sizeof undo_of, "plan_id=%s", plan_id);
  EXPECT(run_request(&result, ws, &now, "custodian", "undo", undo_of, NULL) == MK_OK);
  const char* undo_id = mk_result_plan_id(result);
  char undo_plan[17] = {0};
  EXPECT(undo_id != NULL);
  if (undo_id != NULL) memcpy(undo_plan, undo_id, 16);
  mk_result_destroy(result);
  snprintf(confirm, sizeof confirm, "confirm-plan=%s", undo_plan);
  EXPECT(run_request(&result, ws, &now, "custodian", "undo", undo_of, "--apply", confirm, NULL) ==
         MK_OK);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  char* undone = read_file_at(NULL, inbox);
  EXPECT(undone != NULL && strstr(undone, "use redis") != NULL);
  free(undone);

  /* Status rows, and an inbox-count request on a result without them. */
  EXPECT(run_request(&result, ws, &now, "custodian", "status", NULL) == MK_OK);
  EXPECT(mk_result_budget_row_count(result) > 0);
  int found_inbox = 0;
  for (uint64_t i = 0; i < mk_result_budget_row_count(result); ++i) {
    mk_budget_row row;
    EXPECT(mk_result_budget_row(&row, result, i) == MK_OK);
    if (row.path != NULL && strcmp(row.path, "inbox.md") == 0) found_inbox = 1;
  }
  EXPECT(found_inbox);
  mk_budget_row row;
  EXPECT(mk_result_budget_row(&row, result, mk_result_budget_row_count(result)) == MK_E_ARG);
  EXPECT(mk_result_inbox_counts(&counts, result) == MK_E_NOT_FOUND);
  mk_result_destroy(result);

  /* add, forget (dry run), check and recover run and report. */
  EXPECT(run_request(&result, ws, &now, "custodian", "add", "message=remember the staging URL",
                     "type=inbox", NULL) == MK_OK);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  /* A required argument left out is the command's own finding, as from the CLI. */
  EXPECT(run_request(&result, ws, &now, "custodian", "add", "message=no type", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2 && mk_result_applied(result) == 0);
  mk_result_destroy(result);
  /* Text that is no UTF-8 is refused in the result and never written. */
  char* inbox_before = read_file_at(NULL, inbox);
  EXPECT(run_request(&result, ws, &now, "custodian", "add", "message=bad \xff byte", "type=inbox",
                     NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2 && mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, &now, "custodian", "add", "message=", "type=inbox", NULL) ==
         MK_OK); /* empty: exit 2 */
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  char* inbox_after = read_file_at(NULL, inbox);
  EXPECT(inbox_before != NULL && inbox_after != NULL && strcmp(inbox_before, inbox_after) == 0);
  free(inbox_before);
  free(inbox_after);
  /* A name or type the command does not take fails the request: MK_E_ARG, naming it. */
  EXPECT(run_request(&result, ws, &now, "custodian", "add", "message=x", "tpye=inbox", NULL) ==
         MK_E_ARG);
  EXPECT(result == NULL);
  EXPECT(strstr(mk_error_message(), "tpye: not an argument of custodian add") != NULL);
  EXPECT(strstr(mk_error_message(), "did you mean 'type'") != NULL);
  EXPECT(run_request(&result, ws, &now, "custodian", "init", "--profile", NULL) == MK_E_ARG);
  EXPECT(run_request(&result, ws, &now, "custodian", "recover", "--appply", NULL) == MK_E_ARG);
  EXPECT(run_request(&result, ws, &now, "custodian", "forget", "topic=redis", "mode=gentle",
                     NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2 && mk_result_plan_id(result) == NULL);
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, &now, "custodian", "forget", "topic=redis", NULL) == MK_OK);
  EXPECT(mk_result_plan_id(result) != NULL);
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, &now, "custodian", "check", NULL) == MK_OK);
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, &now, "custodian", "recover", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, &now, "custodian", "compact", "target=../escape.md", NULL) ==
         MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  EXPECT(run_request(&result, ws, NULL, "custodian", "status", NULL) == MK_E_ARG);
  /* A command of another layout's group is refused before it runs. */
  EXPECT(run_request(&result, ws, &now, "memorybox", "status", NULL) == MK_E_ARG);
  EXPECT(strstr(mk_error_message(), "another layout") != NULL);

  /* The MemoryBox layout: an agent root whose init and status are memorybox's. */
  char agent[600];
  snprintf(agent, sizeof agent, "%s/agent", root);
  char make_agent[700];
  snprintf(make_agent, sizeof make_agent, "mkdir -p '%s'", agent);
  EXPECT(system(make_agent) == 0);
  mk_workspace_options box;
  EXPECT(mk_workspace_options_init(&box, MK_WORKSPACE_OPTIONS_VERSION) == MK_OK);
  box.layout = MK_LAYOUT_MEMORYBOX;
  box.memory_dir = "docs/memory";
  mk_workspace* agent_ws = NULL;
  EXPECT(mk_workspace_open(&agent_ws, agent, &box) == MK_E_ARG);
  box.memory_dir = NULL;
  box.layout = 7;
  EXPECT(mk_workspace_open(&agent_ws, agent, &box) == MK_E_ARG);
  box.layout = MK_LAYOUT_MEMORYBOX;
  EXPECT(mk_workspace_open(&agent_ws, agent, &box) == MK_OK);
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "init", "--extended", NULL) == MK_E_ARG);
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "init", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  mk_result_destroy(result);
  char soul[700];
  snprintf(soul, sizeof soul, "%s/brain/SOUL.md", agent);
  char* soul_text = read_file_at(NULL, soul);
  EXPECT(soul_text != NULL && strcmp(soul_text, "# SOUL\n") == 0);
  free(soul_text);
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "status", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_budget_row_count(result) == 0);
  mk_buf box_json = {NULL, 0};
  EXPECT(mk_result_json(&box_json, result) == MK_OK);
  EXPECT(contains(&box_json, "\"command\":\"memorybox status\""));
  EXPECT(contains(&box_json, "\"tiers\":["));
  mk_buf_dispose(&box_json);
  mk_result_destroy(result);
  /* An integer argument set as an integer. */
  mk_request* load = NULL;
  EXPECT(mk_request_create(&load, "memorybox", "load") == MK_OK);
  EXPECT(mk_request_set_int(load, "tier", 1) == MK_OK);
  EXPECT(mk_request_set_string(load, "tier", "1") == MK_OK); /* the CLI's text, also accepted */
  EXPECT(mk_request_set_bool(load, "tier", 1) == MK_E_ARG);
  EXPECT(strcmp(mk_error_message(), "--tier: takes an integer, not a boolean") == 0);
  EXPECT(mk_request_set_int(load, "include-archive", 1) == MK_E_ARG);
  EXPECT(mk_workspace_run(&result, agent_ws, &now, load) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_json(&box_json, result) == MK_OK);
  EXPECT(contains(&box_json, "\"content\":\"# SOUL\\n\""));
  mk_buf_dispose(&box_json);
  mk_result_destroy(result);
  EXPECT(mk_request_set_int(load, "tier", 5) == MK_OK);
  EXPECT(mk_workspace_run(&result, agent_ws, &now, load) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2); /* the archive only when asked */
  mk_result_destroy(result);
  EXPECT(mk_request_set_bool(load, "include_archive", 1) == MK_OK);
  EXPECT(mk_workspace_run(&result, agent_ws, &now, load) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  mk_result_destroy(result);
  EXPECT(mk_request_set_bool(load, "include_archive", 0) == MK_OK); /* taken back */
  EXPECT(mk_workspace_run(&result, agent_ws, &now, load) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2);
  mk_result_destroy(result);
  mk_request_destroy(load);
  /* Hygiene: a fresh root passes every item that has a limit. */
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "hygiene", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 0);
  EXPECT(mk_result_json(&box_json, result) == MK_OK);
  EXPECT(contains(&box_json, "\"command\":\"memorybox hygiene\""));
  EXPECT(contains(&box_json, "\"orphans\":[]"));
  mk_buf_dispose(&box_json);
  mk_result_destroy(result);

  /* An update writes one entry's field lines. */
  char long_term[700];
  snprintf(long_term, sizeof long_term, "%s/memory/LONG_TERM.md", agent);
  EXPECT(write_file_at(NULL, long_term, "- fact\n  Confidence: 0.90\n  Verified: 2026-10-01\n"));
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "update",
                     "entry=memory/LONG_TERM.md#b0cb0b2b4bd5", "--confirm", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2); /* no such entry */
  mk_result_destroy(result);
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "decay", "file=memory/LONG_TERM.md",
                     NULL) == MK_OK);
  EXPECT(mk_result_json(&box_json, result) == MK_OK);
  char entry[64] = "entry=";
  for (size_t i = 0; i + 11 < box_json.size; ++i) {
    if (memcmp(box_json.ptr + i, "\"entry_id\":\"", 12) == 0) {
      memcpy(entry + 6, box_json.ptr + i + 12, 32); /* memory/LONG_TERM.md# + 12 hex */
      break;
    }
  }
  mk_buf_dispose(&box_json);
  mk_result_destroy(result);
  EXPECT(strlen(entry) == 38);
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "update", entry, "--confirm", NULL) ==
         MK_OK);
  EXPECT(mk_result_applied(result) == 1);
  mk_result_destroy(result);
  char* confirmed = read_file_at(NULL, long_term);
  EXPECT(confirmed != NULL &&
         strstr(confirmed, "  Confidence: 0.95\n  Verified: 2026-03-07\n") != NULL);
  free(confirmed);
  EXPECT(run_request(&result, agent_ws, &now, "memorybox", "update", entry, "resolve=keep",
                     "confidence=101", NULL) == MK_OK);
  EXPECT(mk_result_exit_code(result) == 2 && mk_result_applied(result) == 0);
  mk_result_destroy(result);
  EXPECT(run_request(&result, agent_ws, &now, "custodian", "compact", NULL) == MK_E_ARG);
  mk_workspace_destroy(agent_ws);

  /* A document and its units. */
  mk_document* doc = NULL;
  const char* text = "# T\n\n- a\n  more\n- b\n";
  EXPECT(mk_document_parse(&doc, text, strlen(text)) == MK_OK);
  EXPECT(mk_document_unit_count(doc) == 4);
  mk_unit unit;
  EXPECT(mk_document_unit(&unit, doc, 2) == MK_OK);
  EXPECT(unit.kind == MK_UNIT_BULLET && unit.first_line == 3 && unit.last_line == 4);
  EXPECT(unit.begin == 5 && unit.end == 16);
  EXPECT(mk_document_unit(&unit, doc, 4) == MK_E_ARG);
  mk_buf units = {NULL, 0};
  EXPECT(mk_document_json(&units, doc) == MK_OK);
  EXPECT(contains(&units, "\"kind\":\"bullet_unit\""));
  mk_buf_dispose(&units);
  mk_document_destroy(doc);
  EXPECT(mk_document_parse(&doc, NULL, 0) == MK_OK);
  EXPECT(mk_document_unit_count(doc) == 0);
  mk_document_destroy(doc);
  mk_document_destroy(NULL);
  mk_result_destroy(NULL);
  mk_workspace_destroy(ws);
  mk_workspace_destroy(NULL);

  char cleanup[640];
  snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", root);
  if (failures == 0 && system(cleanup) != 0) fprintf(stderr, "could not remove %s\n", root);
  if (failures != 0) fprintf(stderr, "%d failure(s); left %s\n", failures, root);
  return failures == 0 ? 0 : 1;
}
