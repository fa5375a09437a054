// Section - Buffers of memkit.h, mk_commands_json: the command table (src/commands/table.hpp), the
// one description of every command each door reads.
#include "capi/convert.hpp"
#include "commands/table.hpp"
#include "guard.hpp"

extern "C" {

mk_status mk_commands_json(mk_buf* out) {
  return memkit::capi::guard([&]() -> memkit::Status {
    if (out == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "out: NULL");
    if (memkit::capi::fill_buffer(out, memkit::command_table_json()) != MK_OK) {
      return memkit::Status(memkit::Errc::out_of_memory, "out of memory");
    }
    return memkit::Status();
  });
}

}  // extern "C"
