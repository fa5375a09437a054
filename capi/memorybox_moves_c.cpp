// The MemoryBox moves of memkit.h's Commands section (spec memorybox.md §6 `--resolve archive`,
// §7 `compact`, §11 `promote`): each a plan and an apply, run through memkit::execute like every
// other command, so a host gets the CLI's result byte for byte.
#include <string>

#include "capi/command_run.hpp"

namespace {

using memkit::CommandRequest;
using memkit::Status;
using memkit::capi::confirm;
using memkit::capi::known_flags;
using memkit::capi::null_argument;

memkit::Result<CommandRequest> compact_request(const char* file, uint32_t flags) {
  if (Status known = known_flags("flags", flags, MK_MEMORYBOX_COMPACT_FORCE); !known.ok()) {
    return known;
  }
  CommandRequest request;
  if (file != nullptr) request.options["--file"] = file;
  if ((flags & MK_MEMORYBOX_COMPACT_FORCE) != 0) request.flags.emplace_back("--force");
  return request;
}

memkit::Result<CommandRequest> entry_request(const char* entry_id) {
  if (entry_id == nullptr) return null_argument("entry_id");
  CommandRequest request;
  request.options["--entry"] = entry_id;
  return request;
}

memkit::Result<CommandRequest> archive_request(const char* entry_id) {
  memkit::Result<CommandRequest> request = entry_request(entry_id);
  if (request) request->options["--resolve"] = "archive";
  return request;
}

// The request, then --apply --confirm-plan ID.
memkit::Result<CommandRequest> confirmed(memkit::Result<CommandRequest> request,
                                         const char* confirm_plan_id) {
  if (!request) return request;
  if (Status confirmed = confirm(*request, confirm_plan_id); !confirmed.ok()) return confirmed;
  return request;
}

// `custodian compact` exists too, so a compaction asked of a custodian workspace must not fall
// through to it.
bool is_custodian(const mk_workspace* ws) {
  return ws != nullptr && ws->layout != MK_LAYOUT_MEMORYBOX;
}

}  // namespace

extern "C" {

mk_status mk_workspace_plan_memorybox_compact(mk_result** out, mk_workspace* ws,
                                              const mk_clock* now, const char* file,
                                              uint32_t flags) {
  if (is_custodian(ws)) {
    return memkit::capi::wrong_layout(out, now, "custodian compact",
                                      "mk_workspace_plan_memorybox_compact", "MK_LAYOUT_MEMORYBOX");
  }
  return memkit::capi::run_built(out, ws, now, "compact",
                                 [&] { return compact_request(file, flags); });
}

mk_status mk_workspace_apply_memorybox_compact(mk_result** out, mk_workspace* ws,
                                               const mk_clock* now, const char* file,
                                               uint32_t flags, const char* confirm_plan_id) {
  if (is_custodian(ws)) {
    return memkit::capi::wrong_layout(out, now, "custodian compact",
                                      "mk_workspace_apply_memorybox_compact",
                                      "MK_LAYOUT_MEMORYBOX");
  }
  return memkit::capi::run_built(out, ws, now, "compact", [&] {
    return confirmed(compact_request(file, flags), confirm_plan_id);
  });
}

mk_status mk_workspace_plan_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                    const char* entry_id) {
  return memkit::capi::run_built(out, ws, now, "promote", [&] { return entry_request(entry_id); });
}

mk_status mk_workspace_apply_promote(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                     const char* entry_id, const char* confirm_plan_id) {
  return memkit::capi::run_built(
      out, ws, now, "promote", [&] { return confirmed(entry_request(entry_id), confirm_plan_id); });
}

mk_status mk_workspace_plan_archive_entry(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                          const char* entry_id) {
  return memkit::capi::run_built(out, ws, now, "update", [&] { return archive_request(entry_id); });
}

mk_status mk_workspace_apply_archive_entry(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                           const char* entry_id, const char* confirm_plan_id) {
  return memkit::capi::run_built(out, ws, now, "update", [&] {
    return confirmed(archive_request(entry_id), confirm_plan_id);
  });
}

}  // extern "C"
