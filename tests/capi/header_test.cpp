// memkit.h as a C++20 program sees it: it compiles cleanly on its own under -Wpedantic -Werror,
// its constants are constant expressions, and its functions have C linkage.
#include <memkit.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

static_assert(std::is_same_v<mk_status, std::int32_t>, "mk_status is a fixed-width int32_t");
static_assert(MK_OK == 0 && MK_E_ARG < 0, "MK_OK is 0 and errors are negative");
static_assert(MK_VERSION_NUMBER ==
              MK_VERSION_MAJOR * 10000 + MK_VERSION_MINOR * 100 + MK_VERSION_PATCH);
// extern "C" functions keep their plain C types, so a C function pointer can hold each one.
using version_number_fn = std::int32_t (*)(void);
using string_fn = const char* (*)(void);
using status_name_fn = const char* (*)(mk_status);
static_assert(std::is_same_v<decltype(&mk_version_number), version_number_fn>);
static_assert(std::is_same_v<decltype(&mk_version_string), string_fn>);
static_assert(std::is_same_v<decltype(&mk_status_name), status_name_fn>);
static_assert(std::is_same_v<decltype(&mk_error_message), string_fn>);

int main() {
  if (mk_version_number() != MK_VERSION_NUMBER) {
    std::fprintf(stderr, "header_test.cpp: library %d, header %d\n", mk_version_number(),
                 MK_VERSION_NUMBER);
    return 1;
  }
  if (std::strcmp(mk_status_name(MK_E_UNSAFE_PATH), "MK_E_UNSAFE_PATH") != 0) {
    std::fprintf(stderr, "header_test.cpp: mk_status_name(MK_E_UNSAFE_PATH) is %s\n",
                 mk_status_name(MK_E_UNSAFE_PATH));
    return 1;
  }
  return 0;
}
