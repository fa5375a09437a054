// Section - Buffers and Section - Clock of memkit.h.
#include <cstdlib>
#include <cstring>

#include "capi/convert.hpp"
#include "guard.hpp"
#include "memkit.h"
#include "memkit/clock.hpp"

namespace memkit::capi {

mk_status fill_buffer(mk_buf* out, std::string_view bytes) {
  char* copy = nullptr;
  if (!bytes.empty()) {
    copy = static_cast<char*>(std::malloc(bytes.size()));
    if (copy == nullptr) return record(MK_E_NOMEM, "out of memory");
    std::memcpy(copy, bytes.data(), bytes.size());
  }
  out->ptr = copy;
  out->size = bytes.size();
  return MK_OK;
}

Result<ClockReading> clock_of(const mk_clock* now) {
  if (now == nullptr) return Status(Errc::invalid_argument, "now: NULL");
  if (now->version != MK_CLOCK_VERSION) {
    return Status(Errc::invalid_argument,
                  "now: unknown mk_clock version " + std::to_string(now->version));
  }
  if ((now->flags & ~MK_CLOCK_SYSTEM) != 0) {
    return Status(Errc::invalid_argument,
                  "now.flags: unknown flag bits " + std::to_string(now->flags & ~MK_CLOCK_SYSTEM));
  }
  if ((now->flags & MK_CLOCK_SYSTEM) != 0) return read_system_clock();
  return ClockReading::create(now->unix_ms, now->utc_offset_minutes);
}

}  // namespace memkit::capi

extern "C" {

void mk_buf_dispose(mk_buf* buf) {
  if (buf == nullptr) return;
  std::free(buf->ptr);
  buf->ptr = nullptr;
  buf->size = 0;
}

mk_status mk_clock_parse(mk_clock* out, const char* rfc3339) {
  return memkit::capi::guard([&]() -> memkit::Status {
    if (out == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "out: NULL");
    if (rfc3339 == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "rfc3339: NULL");
    const memkit::Result<memkit::ClockReading> parsed =
        memkit::ClockReading::parse_rfc3339(rfc3339, "rfc3339");
    if (!parsed) return parsed.status();
    *out = mk_clock{MK_CLOCK_VERSION, 0, parsed->unix_millis(), parsed->utc_offset_minutes()};
    return memkit::Status();
  });
}

}  // extern "C"
