// `memkit curated <command>` of memkit.h's curated section (spec curated.md): an
// mk_curated_options turned into the CLI's words and run through memkit::execute, so a host gets
// the CLI's result byte for byte.
#include <string>
#include <utility>

#include "capi/command_run.hpp"

namespace {

using memkit::CommandRequest;
using memkit::Status;

// Each mk_curated_command as the CLI spells it: the command, and the sub-command word a two-word
// command passes as its first positional ("curated event add"), else nullptr.
struct CuratedWords {
  const char* command;
  const char* sub;
};

constexpr CuratedWords kCuratedCommands[] = {
    {"add", nullptr},        {"append", nullptr},       {"edit", nullptr},
    {"reclassify", nullptr}, {"link", nullptr},         {"unlink", nullptr},
    {"delete", nullptr},     {"restore", nullptr},      {"checkpoint", nullptr},
    {"batch", nullptr},      {"get-relevant", nullptr}, {"kernel", nullptr},
    {"show", nullptr},       {"list", nullptr},         {"search", nullptr},
    {"stats", nullptr},      {"conflicts", nullptr},    {"lineage", nullptr},
    {"story", nullptr},      {"event", "add"},          {"episode", "add"},
    {"episode", "show"},     {"floors", "prune"},       {"telemetry", "compact"},
    {"recover", nullptr}};
static_assert(sizeof kCuratedCommands / sizeof kCuratedCommands[0] == MK_CURATED_RECOVER + 1);

memkit::Result<CommandRequest> curated_request(mk_curated_command command,
                                               const mk_curated_options* opts) {
  mk_curated_options none;
  mk_curated_options_init(&none);
  if (opts == nullptr) opts = &none;
  if (opts->version != MK_CURATED_OPTIONS_VERSION) {
    return memkit::capi::unknown_version("opts", opts->version);
  }
  CommandRequest request;
  // Only mk_curated_run names this group: run() refuses a curated workspace any other request.
  request.group = "curated";
  if (kCuratedCommands[command].sub != nullptr)
    request.positionals.emplace_back(kCuratedCommands[command].sub);
  // add and edit name their row with --name; every other command that names one takes it as its
  // first positional. A positional field a command does not take still goes to it, so that the
  // result is the CLI's refusal of the same extra argument.
  const bool name_option = command == MK_CURATED_ADD || command == MK_CURATED_EDIT;
  if (opts->name != nullptr) {
    if (name_option) {
      request.options["--name"] = opts->name;
    } else {
      request.positionals.emplace_back(opts->name);
    }
  }
  for (const char* positional : {opts->dst, opts->query, opts->id}) {
    if (positional != nullptr) request.positionals.emplace_back(positional);
  }
  const std::pair<const char*, const char*> texts[] = {{"--workspace", opts->workspace},
                                                       {"--actor", opts->actor},
                                                       {"--type", opts->type},
                                                       {"--body", opts->body},
                                                       {"--body-file", opts->body_file},
                                                       {"--description", opts->description},
                                                       {"--class", opts->row_class},
                                                       {"--status", opts->status},
                                                       {"--initiative", opts->initiative},
                                                       {"--project-ref", opts->project_ref},
                                                       {"--audience", opts->audience},
                                                       {"--origin-session", opts->origin_session},
                                                       {"--field", opts->field},
                                                       {"--content", opts->content},
                                                       {"--kind", opts->kind},
                                                       {"--file", opts->file},
                                                       {"--sort", opts->sort},
                                                       {"--order", opts->order},
                                                       {"--scope", opts->scope},
                                                       {"--threshold", opts->threshold},
                                                       {"--before", opts->before},
                                                       {"--source", opts->source},
                                                       {"--agent", opts->agent},
                                                       {"--result", opts->result},
                                                       {"--severity", opts->severity},
                                                       {"--payload", opts->payload}};
  const std::pair<const char*, int64_t> numbers[] = {
      {"--max-chars", opts->max_chars}, {"--limit", opts->limit}, {"--max-depth", opts->max_depth}};
  // --apply once, whether asked for by the flag (recover) or by confirm_plan_id.
  const std::pair<const char*, int32_t> flags[] = {
      {"--dry-run", opts->dry_run},
      {"--links", opts->links},
      {"--history", opts->history},
      {"--include-deleted", opts->include_deleted},
      {"--yes", opts->yes},
      {"--hard", opts->hard},
      {"--delete", opts->delete_link},
      {"--apply", opts->apply != 0 && opts->confirm_plan_id == nullptr},
      {"--rollback", opts->rollback}};
  if (Status given = memkit::capi::add_given(request, texts, numbers, MK_CURATED_UNSET, flags,
                                             opts->confirm_plan_id);
      !given.ok()) {
    return given;
  }
  return request;
}

}  // namespace

extern "C" {

void mk_curated_options_init(mk_curated_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_curated_options{};
  opts->version = MK_CURATED_OPTIONS_VERSION;
  for (int64_t* number : {&opts->max_chars, &opts->limit, &opts->max_depth}) {
    *number = MK_CURATED_UNSET;
  }
}

mk_status mk_curated_run(mk_result** out, mk_workspace* ws, const mk_clock* now,
                         mk_curated_command command, const mk_curated_options* opts) {
  if (command < MK_CURATED_ADD || command > MK_CURATED_RECOVER) {
    return memkit::capi::guard([&]() -> Status {
      return Status(memkit::Errc::invalid_argument,
                    "command: unknown curated command " + std::to_string(command));
    });
  }
  const CuratedWords& words = kCuratedCommands[command];
  if (ws != nullptr && ws->layout != MK_LAYOUT_CURATED) {
    const std::string name = std::string("curated ") + words.command;
    return memkit::capi::wrong_layout(out, now, name.c_str(), "mk_curated_run",
                                      "MK_LAYOUT_CURATED");
  }
  return memkit::capi::run_built(out, ws, now, words.command,
                                 [&] { return curated_request(command, opts); });
}

}  // extern "C"
