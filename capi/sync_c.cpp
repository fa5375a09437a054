// `memkit memorybox sync pull|push|status|resolve` of memkit.h's MemoryBox sync section (spec
// memorybox.md §9): an mk_sync_options turned into the CLI's words and run through
// memkit::execute, so a host gets the CLI's result byte for byte. What the CLI takes from its
// process (MEMKIT_SYNC_CONNINFO, the PostgreSQL adapter it was linked with, the kernel's random
// bytes) comes here from the options and from this library's own build.
#include <string>
#include <utility>

#include "capi/command_run.hpp"
#include "store/system_clock.hpp"
#if MEMKIT_WITH_POSTGRES
#include "sync/postgres/postgres.hpp"
#endif

namespace {

using memkit::CommandRequest;
using memkit::Status;

// The CLI's verb of each mk_sync_command, indexed by its value.
constexpr const char* kSyncCommands[] = {"pull", "push", "status", "resolve"};
static_assert(sizeof kSyncCommands / sizeof kSyncCommands[0] == MK_SYNC_RESOLVE + 1);

memkit::Result<CommandRequest> sync_request(mk_sync_command command, const mk_sync_options* opts) {
  mk_sync_options none;
  mk_sync_options_init(&none);
  if (opts == nullptr) opts = &none;
  if (opts->version != MK_SYNC_OPTIONS_VERSION) {
    return memkit::capi::unknown_version("options", opts->version);
  }
  CommandRequest request;
  request.positionals.emplace_back(kSyncCommands[command]);
  // conninfo is no option: it takes the place of MEMKIT_SYNC_CONNINFO (sync_environment).
  const std::pair<const char*, const char*> texts[] = {{"--remote", opts->remote},
                                                       {"--workspace-id", opts->workspace_id},
                                                       {"--id", opts->id},
                                                       {"--take", opts->take}};
  // --apply once, whether asked for by the flag or by confirm_plan.
  const std::pair<const char*, int32_t> flags[] = {
      {"--apply", opts->apply != 0 && opts->confirm_plan == nullptr}};
  if (Status given = memkit::capi::add_given(request, texts, {}, 0, flags, opts->confirm_plan);
      !given.ok()) {
    return given;
  }
  return request;
}

// What the CLI's main() gives a sync command, from the options instead of the environment: the
// connection string is the caller's (NULL: libpq's defaults), never read from MEMKIT_SYNC_CONNINFO.
void fill_environment(memkit::CommandEnvironment& env, const mk_sync_options* opts) {
  if (opts != nullptr && opts->conninfo != nullptr) env.sync_conninfo = opts->conninfo;
  env.random_bytes = memkit::read_system_random;
#if MEMKIT_WITH_POSTGRES
  env.open_postgres = memkit::sync::open_postgres_remote;
#endif
}

}  // namespace

extern "C" {

void mk_sync_options_init(mk_sync_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_sync_options{};
  opts->version = MK_SYNC_OPTIONS_VERSION;
}

mk_status mk_memorybox_sync(mk_result** out, mk_workspace* ws, const mk_clock* now,
                            mk_sync_command command, const mk_sync_options* options) {
  if (command < MK_SYNC_PULL || command > MK_SYNC_RESOLVE) {
    return memkit::capi::guard([&]() -> Status {
      return Status(memkit::Errc::invalid_argument,
                    "command: unknown sync command " + std::to_string(command));
    });
  }
  if (ws != nullptr && ws->layout != MK_LAYOUT_MEMORYBOX) {
    const std::string name = std::string("memorybox sync ") + kSyncCommands[command];
    return memkit::capi::wrong_layout(out, now, name.c_str(), "mk_memorybox_sync",
                                      "MK_LAYOUT_MEMORYBOX");
  }
  memkit::CommandEnvironment env;
  return memkit::capi::run_built(
      out, ws, now, "sync",
      [&]() -> memkit::Result<CommandRequest> {
        memkit::Result<CommandRequest> request = sync_request(command, options);
        if (request) fill_environment(env, options);
        return request;
      },
      env);
}

}  // extern "C"
