/* Uses the installed C ABI: memkit.h from include/ and libmemkit (libmemkit.a when built with
 * MK_STATIC): checks the version, then parses a document, which runs the C++ inside. */
#include <memkit.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  static const char text[] = "# Notes\n\n- first\n- second\n";
  mk_document* doc = NULL;
  if (mk_version_number() != MK_VERSION_NUMBER) {
    fprintf(stderr, "main.c: libmemkit is %ld, memkit.h is %ld\n", (long)mk_version_number(),
            (long)MK_VERSION_NUMBER);
    return 1;
  }
  if (mk_document_parse(&doc, text, strlen(text)) != MK_OK) {
    fprintf(stderr, "main.c: %s\n", mk_error_message());
    return 1;
  }
  const unsigned long long units = (unsigned long long)mk_document_unit_count(doc);
  mk_document_destroy(doc);
  if (units < 2) {
    fprintf(stderr, "main.c: the document has %llu units, not at least 2\n", units);
    return 1;
  }
#if defined(MK_STATIC)
  printf("memkit::c_static: libmemkit.a %s, %llu units\n", mk_version_string(), units);
#else
  printf("memkit::c: libmemkit %s, %llu units\n", mk_version_string(), units);
#endif
  return 0;
}
