// `memkit tiers <command>` of memkit.h's three-tier section (spec tiers3.md §8): an
// mk_tiers_options turned into the CLI's words and run through memkit::execute, so a host gets the
// CLI's result byte for byte.
#include <string>

#include "capi/command_run.hpp"

namespace {

using memkit::CommandRequest;
using memkit::Status;

// The CLI's name of each command, indexed by mk_tiers_command.
constexpr const char* kTiersCommands[] = {
    "init",        "session-init", "log-turn",    "read-logs",      "persist-turn",
    "write-theme", "read-theme",   "read-global", "write-global",   "list-themes",
    "write-data",  "read-data",    "list-data",   "archive-themes", "template"};
static_assert(sizeof kTiersCommands / sizeof kTiersCommands[0] == MK_TIERS_TEMPLATE + 1);

memkit::Result<CommandRequest> tiers_request(mk_tiers_command command,
                                             const mk_tiers_options* opts) {
  mk_tiers_options none;
  mk_tiers_options_init(&none);
  if (opts == nullptr) opts = &none;
  if (opts->version != MK_TIERS_OPTIONS_VERSION) {
    return memkit::capi::unknown_version("opts", opts->version);
  }
  CommandRequest request;
  const std::pair<const char*, const char*> texts[] = {
      {"--content", opts->content},
      {"--raw-content", opts->raw_content},
      {"--extracted-content", opts->extracted_content},
      {"--theme", opts->theme},
      {"--title", opts->title},
      {"--entry-type", opts->entry_type},
      {"--session-id", opts->session_id},
      {"--tools", opts->tools_json},
      {"--name", opts->name},
      {"--csv-content", opts->csv_content},
      {"--source-file", opts->source_file},
      {"--description", opts->description},
      {"--source-label", opts->source_label},
      {"--columns-json", opts->columns_json}};
  if (opts->template_name != nullptr) {
    if (command == MK_TIERS_TEMPLATE) {
      request.positionals.emplace_back(opts->template_name);
    } else {
      request.options["--template"] = opts->template_name;
    }
  }
  const std::pair<const char*, int64_t> numbers[] = {{"--recent-days", opts->recent_days},
                                                     {"--theme-limit", opts->theme_limit},
                                                     {"--max-tokens", opts->max_tokens},
                                                     {"--days-back", opts->days_back},
                                                     {"--limit", opts->limit},
                                                     {"--hours-back", opts->hours_back},
                                                     {"--head", opts->head},
                                                     {"--days", opts->days}};
  const std::pair<const char*, int32_t> flags[] = {{"--no-log", opts->no_log},
                                                   {"--promote-global", opts->promote_global},
                                                   {"--append", opts->append},
                                                   {"--replace", opts->replace}};
  if (Status given = memkit::capi::add_given(request, texts, numbers, MK_TIERS_UNSET, flags,
                                             opts->confirm_plan_id);
      !given.ok()) {
    return given;
  }
  return request;
}

}  // namespace

extern "C" {

void mk_tiers_options_init(mk_tiers_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_tiers_options{};
  opts->version = MK_TIERS_OPTIONS_VERSION;
  for (int64_t* number :
       {&opts->recent_days, &opts->theme_limit, &opts->max_tokens, &opts->days_back, &opts->limit,
        &opts->hours_back, &opts->head, &opts->days}) {
    *number = MK_TIERS_UNSET;
  }
}

mk_status mk_tiers_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
                       mk_tiers_command command, const mk_tiers_options* opts) {
  if (command < MK_TIERS_INIT || command > MK_TIERS_TEMPLATE) {
    return memkit::capi::guard([&]() -> Status {
      return Status(memkit::Errc::invalid_argument,
                    "command: unknown tiers command " + std::to_string(command));
    });
  }
  if (ws != nullptr && ws->layout != MK_LAYOUT_TIERS) {
    return memkit::capi::wrong_layout(out, now,
                                      (std::string("tiers ") + kTiersCommands[command]).c_str(),
                                      "mk_tiers_run", "MK_LAYOUT_TIERS");
  }
  return memkit::capi::run_built(out, ws, now, kTiersCommands[command],
                                 [&] { return tiers_request(command, opts); });
}

}  // extern "C"
