// What every command function of the C ABI shares: argument checks, and running a CommandRequest
// through memkit::execute (the code the CLI runs) into an mk_result. Internal to capi/.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "capi/convert.hpp"
#include "capi/handles.hpp"
#include "commands/commands.hpp"
#include "guard.hpp"

namespace memkit::capi {

inline Status null_argument(const char* name) {
  return Status(Errc::invalid_argument, std::string(name) + ": NULL");
}

// Flags a library of this version does not know are refused, so that a host built against a newer
// header learns at once that its request cannot be honoured.
inline Status known_flags(const char* name, std::uint32_t flags, std::uint32_t known) {
  if ((flags & ~known) == 0) return Status();
  return Status(Errc::invalid_argument,
                std::string(name) + ": unknown flag bits " + std::to_string(flags & ~known));
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

// Runs `custodian <command>` on a workspace at a clock reading; the request's own words are
// the CLI's, so the result is the one `memkit custodian <command> ... --format json` prints.
// `host` holds what a command may take from its host beyond the clock and the working directory
// (mk_memorybox_sync: the connection string, the PostgreSQL adapter, random bytes); run() sets
// those two itself, on a copy made inside the guard.
inline mk_status run(mk_result** out, const mk_workspace* ws, const mk_clock* now,
                     const char* command, CommandRequest request,
                     const memkit::CommandEnvironment& host = {}) {
  return guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (ws == nullptr) return null_argument("ws");
    const memkit::Result<memkit::ClockReading> reading = clock_of(now);
    if (!reading) return reading.status();
    request.command = command;
    request.format = memkit::OutputFormat::json;
    request.lock_timeout_seconds = ws->lock_timeout_seconds;
    if (ws->layout == MK_LAYOUT_CURATED) {
      // Only mk_curated_run names the curated group. Any other function's command (add,
      // recover, ...) would otherwise reach the curated command of the same name with arguments
      // meant for another layout.
      if (request.group != "curated") {
        CommandReply reply;
        reply.command = "curated " + std::string(command);
        reply.findings.push_back(make_fatal(
            "MK-ARG-001", "",
            "a workspace opened with MK_LAYOUT_CURATED takes only mk_curated_run (recover: "
            "MK_CURATED_RECOVER)"));
        *out = result_of(std::move(reply)).release();
        return Status();
      }
      request.options["--store"] = ws->project_root;
    } else if (ws->layout == MK_LAYOUT_MEMORYBOX) {
      request.group = "memorybox";
      request.options["--root"] = ws->project_root;
    } else if (ws->layout == MK_LAYOUT_TIERS) {
      request.group = "tiers";
      request.options["--workspace"] = ws->project_root;
    } else {
      request.group = "custodian";
      request.options["--project-root"] = ws->project_root;
      if (!ws->memory_dir.empty()) request.options["--memory-dir"] = ws->memory_dir;
    }
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

// The CLI options an options struct (mk_tiers_options, mk_curated_options) gives, added to a
// request: each text that is not NULL, each integer that is not `unset` (as the CLI's decimal
// text, so a bad one is refused the same way), each flag that is not 0, then --apply
// --confirm-plan when `confirm_plan_id` is set.
inline Status add_given(CommandRequest& request,
                        std::span<const std::pair<const char*, const char*>> texts,
                        std::span<const std::pair<const char*, std::int64_t>> numbers,
                        std::int64_t unset,
                        std::span<const std::pair<const char*, std::int32_t>> flags,
                        const char* confirm_plan_id);

// --apply --confirm-plan ID, added to a request.
inline Status confirm(CommandRequest& request, const char* confirm_plan_id) {
  if (confirm_plan_id == nullptr) return null_argument("confirm_plan_id");
  request.flags.emplace_back("--apply");
  request.options["--confirm-plan"] = confirm_plan_id;
  return Status();
}

inline Status add_given(CommandRequest& request,
                        std::span<const std::pair<const char*, const char*>> texts,
                        std::span<const std::pair<const char*, std::int64_t>> numbers,
                        std::int64_t unset,
                        std::span<const std::pair<const char*, std::int32_t>> flags,
                        const char* confirm_plan_id) {
  for (const auto& [option, value] : texts) {
    if (value != nullptr) request.options[option] = value;
  }
  for (const auto& [option, value] : numbers) {
    if (value != unset) request.options[option] = std::to_string(value);
  }
  for (const auto& [flag, value] : flags) {
    if (value != 0) request.flags.emplace_back(flag);
  }
  if (confirm_plan_id == nullptr) return Status();
  return confirm(request, confirm_plan_id);
}

// A request that could not be built fails the call before anything runs. `build` runs inside the
// guard, so it may also fill `host` (passed on to run()).
template <class Build>
mk_status run_built(mk_result** out, const mk_workspace* ws, const mk_clock* now,
                    const char* command, Build&& build,
                    const memkit::CommandEnvironment& host = {}) {
  memkit::Result<CommandRequest> request(CommandRequest{});
  const mk_status built = guard([&]() -> Status {
    request = build();
    return request ? Status() : request.status();
  });
  if (built != MK_OK) return built;
  return run(out, ws, now, command, std::move(request).value(), host);
}

// The result of a command function called on a workspace of the other layout, when the other
// layout has a command of the same name (`compact`): a fatal MK-ARG-001 finding, as for a command
// the layout does not have, rather than the other layout's command.
inline mk_status wrong_layout(mk_result** out, const mk_clock* now, const char* command,
                              const char* function, const char* layout) {
  return guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (const memkit::Result<memkit::ClockReading> reading = clock_of(now); !reading) {
      return reading.status();
    }
    CommandReply reply;
    reply.command = command;
    reply.findings.push_back(make_fatal(
        "MK-ARG-001", "", std::string(function) + ": needs a workspace opened with " + layout));
    *out = result_of(std::move(reply)).release();
    return Status();
  });
}

}  // namespace memkit::capi
