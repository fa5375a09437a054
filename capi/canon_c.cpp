// mk_workspace_canon_add and mk_workspace_canon_verify (memkit.h Section - Commands): Maven canon
// through memkit::execute, the CLI's code.
#include <string>

#include "capi/command_run.hpp"

extern "C" {

mk_status mk_workspace_canon_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                 const char* file, const char* text, size_t text_size) {
  using namespace memkit::capi;  // NOLINT: the shared helpers of the C ABI
  return run_built(out, ws, now, "canon", [&]() -> memkit::Result<memkit::CommandRequest> {
    if (file == nullptr) return null_argument("file");
    if (text == nullptr) return null_argument("text");
    memkit::CommandRequest request;
    request.positionals.emplace_back("add");
    request.options["--file"] = file;
    request.options["--text"] = std::string(text, text_size);
    return request;
  });
}

mk_status mk_workspace_canon_verify(mk_result** out, mk_workspace* ws, const mk_clock* now) {
  memkit::CommandRequest request;
  request.positionals.emplace_back("verify");
  return memkit::capi::run(out, ws, now, "canon", std::move(request));
}

}  // extern "C"
