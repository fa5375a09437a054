/* A dry run of inbox compaction through the C ABI: the Plan ID and counts the CLI shows. Every
 * command is a request: `custodian compact` here, its arguments (none) set by name. */
#include <memkit.h>
#include <stdio.h>

int main(int argc, char** argv) {
  mk_workspace* ws = NULL;
  mk_request* req = NULL;
  mk_result* result = NULL;
  mk_clock now;
  mk_inbox_counts counts;
  if (argc != 2 || mk_clock_parse(&now, "2026-11-30T10:00:00+00:00") != MK_OK ||
      mk_workspace_open(&ws, argv[1], NULL) != MK_OK ||
      mk_request_create(&req, "custodian", "compact") != MK_OK ||
      mk_workspace_run(&result, ws, &now, req) != MK_OK ||
      mk_result_inbox_counts(&counts, result) != MK_OK) {
    fprintf(stderr, "compact: %s\n", mk_error_message());
    return 2;
  }
  const char* id = mk_result_plan_id(result);
  printf("%llu items, %llu duplicates, plan %s\n", (unsigned long long)counts.inbox_items,
         (unsigned long long)counts.duplicates, id != NULL ? id : "none");
  mk_result_destroy(result);
  mk_request_destroy(req);
  mk_workspace_destroy(ws);
  return 0;
}
