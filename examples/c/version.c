/* Checks at run time that the library matches the header it was compiled against. */
#include <memkit.h>
#include <stdio.h>

int main(void) {
  if (mk_version_number() != MK_VERSION_NUMBER) {
    fprintf(stderr, "memkit.h is %s but libmemkit is %s\n", MK_VERSION_STRING, mk_version_string());
    return 1;
  }
  printf("memkit %s\n", mk_version_string());
  return 0;
}
