// The one place where C++ failures become mk_status, and where the thread's last error is kept.
#pragma once

#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "memkit.h"
#include "memkit/result.hpp"

namespace memkit::capi {

// The calling thread's message for mk_error_message(); defined in status_c.cpp so that the
// whole library shares one thread_local.
[[nodiscard]] std::string& last_error_message() noexcept;

// Remembers why a call failed and passes its status through. MK_OK leaves the message alone: it
// explains the last failure, not the last call.
inline mk_status record(mk_status status, std::string_view message) noexcept {
  if (status != MK_OK) {
    std::string& last = last_error_message();
    try {
      last.assign(message);
    } catch (...) {
      last.clear();  // out of memory while copying: an empty message is better than a stale one
    }
  }
  return status;
}

inline mk_status record(const memkit::Status& status) noexcept {
  // Errc reuses the mk_status numbers (status_c.cpp static_asserts each one).
  return record(static_cast<mk_status>(status.code()), status.message());
}

// Runs the body of an exported function. body() returns a memkit::Status; no exception leaves.
template <class F>
mk_status guard(F&& body) noexcept {
  try {
    return record(std::forward<F>(body)());
  } catch (const std::bad_alloc&) {
    return record(MK_E_NOMEM, "out of memory");
  } catch (const std::exception& e) {
    return record(MK_E_INTERNAL, e.what());
  } catch (...) {
    return record(MK_E_INTERNAL, "unknown exception");
  }
}

}  // namespace memkit::capi
