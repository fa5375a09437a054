// Status: an error code and a message; the value every fallible memkit function reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace memkit {

// The numbers equal the C API's mk_status codes (capi/memkit.h static_asserts each one),
// so a Status crosses the ABI without a lookup. Never renumber; add new codes in the gaps.
enum class Errc : std::int32_t {
  ok = 0,
  invalid_argument = -1,  // MK_E_ARG
  out_of_memory = -2,     // MK_E_NOMEM
  internal = -3,          // MK_E_INTERNAL
  io = -10,               // MK_E_IO
  not_found = -11,        // MK_E_NOT_FOUND
  parse = -20,            // MK_E_PARSE: unclosed fence or comment
  invalid_utf8 = -21,     // MK_E_UTF8
  layout = -30,           // MK_E_LAYOUT: memory folder missing or outside its allowed place
  unsafe_path = -31,      // MK_E_UNSAFE_PATH: a path escapes its root or crosses a symlink
  lock_busy = -40,        // MK_E_LOCK
  callback = -50,         // MK_E_CALLBACK: a host callback failed
};

// Returns the stable lower-case name of a code, e.g. "invalid_argument".
[[nodiscard]] std::string_view errc_name(Errc code) noexcept;

// A failed Status pairs an Errc with a message of the form "file:line: what is wrong"
// (lower case, no full stop). An OK status carries no message.
class [[nodiscard]] Status final {
 public:
  Status() noexcept = default;
  Status(Errc code, std::string message) : code_(code), message_(std::move(message)) {}

  [[nodiscard]] static Status ok_status() noexcept { return Status(); }

  [[nodiscard]] bool ok() const noexcept { return code_ == Errc::ok; }
  [[nodiscard]] Errc code() const noexcept { return code_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

  friend bool operator==(const Status&, const Status&) = default;

 private:
  Errc code_ = Errc::ok;
  std::string message_;
};

}  // namespace memkit
