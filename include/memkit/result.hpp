// How a memkit call fails: an error code (Errc) and a message in a Status, and Result<T>, a T or a
// failed Status. GCC 12 has no std::expected in C++20 mode, so we keep our own.
#pragma once

#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

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


template <class T>
class [[nodiscard]] Result final {
  static_assert(!std::is_same_v<T, Status>, "use Status for results without a value");

 public:
  // REQUIRES: !status.ok(); a successful Result always holds a value.
  Result(Status status) : state_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(state_).ok());
  }
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design

  [[nodiscard]] bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  [[nodiscard]] const T& value() const& {
    if (!ok()) throw std::logic_error("memkit::Result::value() on a failed result");
    return std::get<T>(state_);
  }
  [[nodiscard]] T& value() & {
    if (!ok()) throw std::logic_error("memkit::Result::value() on a failed result");
    return std::get<T>(state_);
  }
  [[nodiscard]] T&& value() && {
    if (!ok()) throw std::logic_error("memkit::Result::value() on a failed result");
    return std::get<T>(std::move(state_));
  }

  [[nodiscard]] const T& operator*() const& { return value(); }
  [[nodiscard]] T& operator*() & { return value(); }
  [[nodiscard]] T&& operator*() && { return std::move(*this).value(); }
  [[nodiscard]] const T* operator->() const { return &value(); }
  [[nodiscard]] T* operator->() { return &value(); }

  // Returns the failure, or an OK status when a value is held.
  [[nodiscard]] Status status() const { return ok() ? Status() : std::get<Status>(state_); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace memkit
