// Section - Status of memkit.h: names for codes, and the thread's last error message.
#include <string>

#include "guard.hpp"
#include "memkit.h"
#include "memkit/result.hpp"

namespace {

using memkit::Errc;

// A status crosses the ABI as its Errc number, unconverted; these keep the two lists equal.
constexpr bool same_code(mk_status c_code, Errc cxx_code) {
  return c_code == static_cast<mk_status>(cxx_code);
}
static_assert(same_code(MK_OK, Errc::ok));
static_assert(same_code(MK_E_ARG, Errc::invalid_argument));
static_assert(same_code(MK_E_NOMEM, Errc::out_of_memory));
static_assert(same_code(MK_E_INTERNAL, Errc::internal));
static_assert(same_code(MK_E_IO, Errc::io));
static_assert(same_code(MK_E_NOT_FOUND, Errc::not_found));
static_assert(same_code(MK_E_PARSE, Errc::parse));
static_assert(same_code(MK_E_UTF8, Errc::invalid_utf8));
static_assert(same_code(MK_E_LAYOUT, Errc::layout));
static_assert(same_code(MK_E_UNSAFE_PATH, Errc::unsafe_path));
static_assert(same_code(MK_E_LOCK, Errc::lock_busy));
static_assert(same_code(MK_E_CALLBACK, Errc::callback));

}  // namespace

namespace memkit::capi {

std::string& last_error_message() noexcept {
  thread_local std::string message;
  return message;
}

}  // namespace memkit::capi

extern "C" {

MK_API const char* mk_status_name(mk_status status) {
  switch (status) {
    case MK_OK:
      return "MK_OK";
    case MK_E_ARG:
      return "MK_E_ARG";
    case MK_E_NOMEM:
      return "MK_E_NOMEM";
    case MK_E_INTERNAL:
      return "MK_E_INTERNAL";
    case MK_E_IO:
      return "MK_E_IO";
    case MK_E_NOT_FOUND:
      return "MK_E_NOT_FOUND";
    case MK_E_PARSE:
      return "MK_E_PARSE";
    case MK_E_UTF8:
      return "MK_E_UTF8";
    case MK_E_LAYOUT:
      return "MK_E_LAYOUT";
    case MK_E_UNSAFE_PATH:
      return "MK_E_UNSAFE_PATH";
    case MK_E_LOCK:
      return "MK_E_LOCK";
    case MK_E_CALLBACK:
      return "MK_E_CALLBACK";
    default:
      return "MK_E_UNKNOWN";
  }
}

MK_API const char* mk_error_message(void) {
  return memkit::capi::last_error_message().c_str();
}

}  // extern "C"
