// libpq loaded on first use (libpq.hpp).
#include "libpq.hpp"

#include <dlfcn.h>

#include <mutex>
#include <optional>
#include <string>

namespace memkit::detail::pg {

namespace {

std::string loader_error() {
  const char* reason = ::dlerror();
  return reason != nullptr ? reason : "unknown reason";
}

struct Loaded {
  std::once_flag once;
  std::optional<Result<LibPq>> outcome;
};

Loaded& loaded() {
  static Loaded instance;
  return instance;
}

}  // namespace

Result<LibPq> open_libpq(const char* name) {
  void* handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return Status(Errc::io, std::string("PostgreSQL: libpq cannot be loaded (") + loader_error() +
                                "); install libpq (Debian: libpq5) to use a PostgreSQL remote");
  }
  LibPq functions;
  std::string missing;
#define MEMKIT_LIBPQ_LOOKUP(function)                                                              \
  functions.function = reinterpret_cast<decltype(functions.function)>(::dlsym(handle, #function)); \
  if (functions.function == nullptr && missing.empty()) missing = #function;
  MEMKIT_LIBPQ_FUNCTIONS(MEMKIT_LIBPQ_LOOKUP)
#undef MEMKIT_LIBPQ_LOOKUP
  if (!missing.empty()) {
    ::dlclose(handle);
    return Status(Errc::io, std::string("PostgreSQL: ") + name + " has no " + missing +
                                ": it is not a libpq this adapter can use");
  }
  return functions;
}

Result<const LibPq*> load_libpq() {
  Loaded& state = loaded();
  std::call_once(state.once, [&state] { state.outcome = open_libpq(kLibPqName); });
  if (!*state.outcome) return state.outcome->status();
  return &**state.outcome;
}

const LibPq& libpq() noexcept { return **loaded().outcome; }

}  // namespace memkit::detail::pg
