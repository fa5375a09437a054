// Running a CommandRequest through memkit::execute (the code the CLI runs) into an mk_result: what
// mk_workspace_run does once its request is built. Internal to capi/.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "capi/convert.hpp"
#include "capi/handles.hpp"
#include "commands/commands.hpp"
#include "commands/table.hpp"
#include "guard.hpp"

namespace memkit::capi {

inline Status null_argument(const char* name) {
  return Status(Errc::invalid_argument, std::string(name) + ": NULL");
}

inline Status unknown_version(const char* name, std::uint32_t version) {
  return Status(Errc::invalid_argument,
                std::string(name) + ": unknown version " + std::to_string(version));
}

// Builds the result of a reply: the typed values are prepared once, here.
inline std::unique_ptr<mk_result> result_of(CommandReply reply) {
  auto result = std::make_unique<mk_result>();
  if (reply.plan) result->plan_id = reply.plan->id();
  if (reply.status) {
    for (const memkit::FileStatus& file : reply.status->files)
      result->row_paths.push_back(file.path);
    for (std::size_t i = 0; i < reply.status->files.size(); ++i) {
      const memkit::FileStatus& file = reply.status->files[i];
      result->rows.push_back(mk_budget_row{result->row_paths[i].c_str(), file.tokens.value_or(0),
                                           file.limit.value_or(0),
                                           static_cast<mk_budget_state>(file.state)});
    }
  }
  result->reply = std::move(reply);
  return result;
}

// Runs `request` (a command of the table, its group and command set) on a workspace: the command's
// root arguments are the workspace's folders, so the result is the one `memkit <group> <command>
// ... --format json` prints. `host` holds what a command may take from its host beyond the clock
// and the working directory (a sync: the PostgreSQL adapter, random bytes; a gate: the judge);
// run() sets those two itself, on a copy made inside the guard.
inline mk_status run(mk_result** out, const mk_workspace* ws, const mk_clock* now,
                     const memkit::CommandSpec& spec, CommandRequest request,
                     const memkit::CommandEnvironment& host = {}) {
  return guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (ws == nullptr) return null_argument("ws");
    const memkit::Result<memkit::ClockReading> reading = clock_of(now);
    if (!reading) return reading.status();
    request.format = memkit::OutputFormat::json;
    request.lock_timeout_seconds = ws->lock_timeout_seconds;
    memkit::set_root_arguments(spec, ws->project_root, ws->memory_dir, request);
    memkit::CommandEnvironment env = host;
    const memkit::ClockReading fixed = *reading;
    env.system_clock = [fixed] { return fixed; };
    // Relative paths a command reads (tiers write-data --source-file) name the host's directory.
    std::error_code cwd_error;
    env.current_directory = std::filesystem::current_path(cwd_error).string();
    *out = result_of(memkit::execute(request, env)).release();
    return Status();
  });
}

}  // namespace memkit::capi
