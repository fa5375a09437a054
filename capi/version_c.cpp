// Section - Version of memkit.h: the library reports the version it was built with, so a host can
// compare it with the MK_VERSION_NUMBER of the header it was compiled against.
#include <cstdint>

#include "memkit.h"

static_assert(MK_VERSION_NUMBER ==
                  MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH,
              "MK_VERSION_NUMBER is MAJOR * 10000 + MINOR * 100 + PATCH");
static_assert(MK_VERSION_MINOR < 100 && MK_VERSION_PATCH < 100,
              "MK_VERSION_NUMBER has two decimal digits each for MINOR and PATCH");

extern "C" {

MK_API int32_t mk_version_number(void) { return MK_VERSION_NUMBER; }

MK_API const char* mk_version_string(void) { return MK_VERSION_STRING; }

}  // extern "C"
