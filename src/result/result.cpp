#include "memkit/result.hpp"

namespace memkit {

std::string_view errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::ok:
      return "ok";
    case Errc::invalid_argument:
      return "invalid_argument";
    case Errc::out_of_memory:
      return "out_of_memory";
    case Errc::internal:
      return "internal";
    case Errc::io:
      return "io";
    case Errc::not_found:
      return "not_found";
    case Errc::parse:
      return "parse";
    case Errc::invalid_utf8:
      return "invalid_utf8";
    case Errc::layout:
      return "layout";
    case Errc::unsafe_path:
      return "unsafe_path";
    case Errc::lock_busy:
      return "lock_busy";
    case Errc::callback:
      return "callback";
  }
  return "internal";
}

}  // namespace memkit
