// `memorybox client set` of memkit.h's Commands section (spec memorybox.md §10, §11): the CLI's
// run without --apply (a field update written, or a move's dry run) and with --apply
// --confirm-plan, each through memkit::execute, so a host gets the CLI's result byte for byte.
#include <string>

#include "capi/command_run.hpp"
#include "memkit/memorybox.hpp"

namespace {

using memkit::CommandRequest;
using memkit::Status;

static_assert(MK_LIFECYCLE_ACTIVE == static_cast<int>(memkit::memorybox::Lifecycle::active));
static_assert(MK_LIFECYCLE_MAINTENANCE ==
              static_cast<int>(memkit::memorybox::Lifecycle::maintenance));
static_assert(MK_LIFECYCLE_ARCHIVED == static_cast<int>(memkit::memorybox::Lifecycle::archived));

memkit::Result<CommandRequest> client_set_request(const char* client, mk_lifecycle to) {
  if (client == nullptr) return memkit::capi::null_argument("client");
  if (to < MK_LIFECYCLE_ACTIVE || to > MK_LIFECYCLE_ARCHIVED) {
    return Status(memkit::Errc::invalid_argument, "to: unknown lifecycle " + std::to_string(to));
  }
  CommandRequest request;
  request.positionals.emplace_back("set");
  request.options["--client"] = client;
  request.options["--to"] =
      std::string(memkit::memorybox::lifecycle_name(static_cast<memkit::memorybox::Lifecycle>(to)));
  return request;
}

}  // namespace

extern "C" {

mk_status mk_workspace_client_set(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                  const char* client, mk_lifecycle to) {
  return memkit::capi::run_built(out, ws, now, "client",
                                 [&] { return client_set_request(client, to); });
}

mk_status mk_workspace_apply_client_set(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                        const char* client, mk_lifecycle to,
                                        const char* confirm_plan_id) {
  return memkit::capi::run_built(out, ws, now, "client", [&]() -> memkit::Result<CommandRequest> {
    memkit::Result<CommandRequest> request = client_set_request(client, to);
    if (!request) return request;
    if (Status confirmed = memkit::capi::confirm(*request, confirm_plan_id); !confirmed.ok()) {
      return confirmed;
    }
    return request;
  });
}

}  // extern "C"
