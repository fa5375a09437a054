// Result<T>: a T or a failed Status. GCC 12 has no std::expected in C++20 mode, so we keep our own.
#pragma once

#include <cassert>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "memkit/status.hpp"

namespace memkit {

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
