/* memkit.h alone, as a strict C11 translation unit: it must compile with nothing before it and
 * no warning under -std=c11 -pedantic-errors. */
#include <memkit.h>

int memkit_header_only_compiles(void);
int memkit_header_only_compiles(void) { return MK_VERSION_NUMBER > 0 ? MK_OK : MK_E_INTERNAL; }
