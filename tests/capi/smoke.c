/* The C ABI as a C11 program sees it: the header compiles cleanly under -Wpedantic -Werror, and
 * every declared function links and behaves as memkit.h documents. Handles get their
 * create/destroy pairs (destroy(NULL) included) here as they are added to the header. */
#include <memkit.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect_true(int condition, const char* what, int line) {
  if (!condition) {
    fprintf(stderr, "smoke.c:%d: expected %s\n", line, what);
    ++failures;
  }
}
#define EXPECT(condition) expect_true((condition) ? 1 : 0, #condition, __LINE__)

static void expect_name(mk_status status, const char* expected, int line) {
  const char* name = mk_status_name(status);
  if (name == NULL || strcmp(name, expected) != 0) {
    fprintf(stderr, "smoke.c:%d: mk_status_name(%ld) is \"%s\", expected \"%s\"\n", line,
            (long)status, name == NULL ? "(null)" : name, expected);
    ++failures;
  }
}
#define EXPECT_NAME(status, expected) expect_name((status), (expected), __LINE__)

static void check_version(void) {
  char expected[32];
  EXPECT(mk_version_number() == MK_VERSION_NUMBER);
  EXPECT(MK_VERSION_NUMBER == MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH);
  EXPECT(mk_version_string() != NULL);
  EXPECT(mk_version_string() != NULL && strcmp(mk_version_string(), MK_VERSION_STRING) == 0);
  snprintf(expected, sizeof expected, "%d.%d.%d", MK_VERSION_MAJOR, MK_VERSION_MINOR,
           MK_VERSION_PATCH);
  EXPECT(strcmp(MK_VERSION_STRING, expected) == 0);
}

static void check_status_names(void) {
  /* The numbers are part of the ABI: a binding may have hard-coded any of them. */
  EXPECT(MK_OK == 0 && MK_E_ARG == -1 && MK_E_NOMEM == -2 && MK_E_INTERNAL == -3);
  EXPECT(MK_E_IO == -10 && MK_E_NOT_FOUND == -11 && MK_E_PARSE == -20 && MK_E_UTF8 == -21);
  EXPECT(MK_E_LAYOUT == -30 && MK_E_UNSAFE_PATH == -31 && MK_E_LOCK == -40);
  EXPECT(MK_E_CALLBACK == -50);
  EXPECT(sizeof(mk_status) == 4);

  EXPECT_NAME(MK_OK, "MK_OK");
  EXPECT_NAME(MK_E_ARG, "MK_E_ARG");
  EXPECT_NAME(MK_E_NOMEM, "MK_E_NOMEM");
  EXPECT_NAME(MK_E_INTERNAL, "MK_E_INTERNAL");
  EXPECT_NAME(MK_E_IO, "MK_E_IO");
  EXPECT_NAME(MK_E_NOT_FOUND, "MK_E_NOT_FOUND");
  EXPECT_NAME(MK_E_PARSE, "MK_E_PARSE");
  EXPECT_NAME(MK_E_UTF8, "MK_E_UTF8");
  EXPECT_NAME(MK_E_LAYOUT, "MK_E_LAYOUT");
  EXPECT_NAME(MK_E_UNSAFE_PATH, "MK_E_UNSAFE_PATH");
  EXPECT_NAME(MK_E_LOCK, "MK_E_LOCK");
  EXPECT_NAME(MK_E_CALLBACK, "MK_E_CALLBACK");

  /* Codes in the gaps, positive codes and the extremes are unknown, never NULL. */
  EXPECT_NAME(1, "MK_E_UNKNOWN");
  EXPECT_NAME(-4, "MK_E_UNKNOWN");
  EXPECT_NAME(-12, "MK_E_UNKNOWN");
  EXPECT_NAME(-51, "MK_E_UNKNOWN");
  EXPECT_NAME(INT32_MAX, "MK_E_UNKNOWN");
  EXPECT_NAME(INT32_MIN, "MK_E_UNKNOWN");
}

static void check_last_error_message(void) {
  /* Nothing has failed on this thread, and looking at names or versions is not a failure. */
  const char* message = mk_error_message();
  EXPECT(message != NULL);
  EXPECT(message != NULL && message[0] == '\0');
}

int main(void) {
  check_last_error_message();
  check_version();
  check_status_names();
  check_last_error_message();
  if (failures != 0) {
    fprintf(stderr, "smoke.c: %d check(s) failed\n", failures);
    return 1;
  }
  printf("memkit %s (%ld): C ABI smoke test passed\n", mk_version_string(),
         (long)mk_version_number());
  return 0;
}
