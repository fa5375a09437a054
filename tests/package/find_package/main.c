/* Uses the installed C ABI: memkit.h from include/ and libmemkit.so. */
#include <memkit.h>
#include <stdio.h>

int main(void) {
  if (mk_version_number() != MK_VERSION_NUMBER) {
    fprintf(stderr, "main.c: libmemkit is %ld, memkit.h is %ld\n", (long)mk_version_number(),
            (long)MK_VERSION_NUMBER);
    return 1;
  }
  printf("memkit::c: libmemkit %s\n", mk_version_string());
  return 0;
}
