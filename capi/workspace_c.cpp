// Section - Workspace, Section - Results and Section - Commands of memkit.h: every command runs
// through memkit::execute, the code the CLI runs, so both give the same result.
#include <filesystem>
#include <memory>
#include <string>

#include "capi/command_run.hpp"
#include "capi/convert.hpp"
#include "capi/handles.hpp"
#include "commands/commands.hpp"
#include "files/file_system.hpp"
#include "guard.hpp"
#include "memkit/layouts.hpp"
#include "store/agent_root.hpp"
#include "store/curated_store.hpp"
#include "store/tiers_workspace.hpp"
#include "store/workspace.hpp"

namespace {

using memkit::CommandRequest;
using memkit::Errc;
using memkit::Status;
using memkit::capi::confirm;
using memkit::capi::known_flags;
using memkit::capi::null_argument;
using memkit::capi::run;
using memkit::capi::run_built;
using memkit::capi::unknown_version;

// The request of compact, from its options (NULL: inbox mode).
memkit::Result<CommandRequest> compact_request(const mk_compact_options* opts) {
  CommandRequest request;
  if (opts == nullptr) return request;
  if (opts->version != MK_COMPACT_OPTIONS_VERSION) return unknown_version("opts", opts->version);
  if (Status known = known_flags("opts.flags", opts->flags, MK_COMPACT_ARCHIVE_OLDEST);
      !known.ok()) {
    return known;
  }
  if (opts->target != nullptr) request.options["--target"] = opts->target;
  if ((opts->flags & MK_COMPACT_ARCHIVE_OLDEST) != 0)
    request.flags.emplace_back("--archive-oldest");
  return request;
}

memkit::Result<CommandRequest> forget_request(const char* topic, std::size_t topic_size,
                                              const mk_forget_options* opts) {
  if (topic == nullptr && topic_size != 0) return null_argument("topic");
  CommandRequest request;
  request.positionals.emplace_back(topic_size == 0 ? std::string()
                                                   : std::string(topic, topic_size));
  if (opts == nullptr) return request;
  if (opts->version != MK_FORGET_OPTIONS_VERSION) return unknown_version("opts", opts->version);
  if (Status known = known_flags("opts.flags", opts->flags, MK_FORGET_ALLOW_BROAD_MATCH);
      !known.ok()) {
    return known;
  }
  switch (opts->mode) {
    case MK_FORGET_SOFT:
      request.options["--mode"] = "soft";
      break;
    case MK_FORGET_HARD:
      request.options["--mode"] = "hard";
      break;
    case MK_FORGET_PURGE:
      request.options["--mode"] = "purge";
      break;
    default:
      return Status(Errc::invalid_argument,
                    "opts.mode: unknown mode " + std::to_string(opts->mode));
  }
  if ((opts->flags & MK_FORGET_ALLOW_BROAD_MATCH) != 0) {
    request.flags.emplace_back("--allow-broad-match");
  }
  return request;
}

}  // namespace

extern "C" {

void mk_workspace_options_init(mk_workspace_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_workspace_options{MK_WORKSPACE_OPTIONS_VERSION, MK_LAYOUT_CUSTODIAN, nullptr, 10.0};
}

mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
                            const mk_workspace_options* opts) {
  return memkit::capi::guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (project_root == nullptr) return null_argument("project_root");
    mk_workspace_options defaults;
    mk_workspace_options_init(&defaults);
    if (opts == nullptr) opts = &defaults;
    if (opts->version != MK_WORKSPACE_OPTIONS_VERSION) {
      return unknown_version("opts", opts->version);
    }
    if (opts->layout != MK_LAYOUT_CUSTODIAN && opts->layout != MK_LAYOUT_MEMORYBOX &&
        opts->layout != MK_LAYOUT_TIERS && opts->layout != MK_LAYOUT_CURATED) {
      return Status(Errc::invalid_argument,
                    "opts.layout: unknown layout " + std::to_string(opts->layout));
    }
    // The CLI's --lock-timeout range, so that the millisecond deadline cannot overflow.
    if (!(opts->lock_timeout_seconds >= 0 && opts->lock_timeout_seconds <= 86400)) {
      return Status(Errc::invalid_argument,
                    "opts.lock_timeout_seconds: expected 0 to 86400 seconds");
    }
    if (*project_root == '\0') return Status(Errc::invalid_argument, "project_root: empty");
    if (opts->memory_dir != nullptr && *opts->memory_dir == '\0') {
      return Status(Errc::invalid_argument, "opts.memory_dir: empty (NULL means the default)");
    }
    // Made absolute now: a later change of the process's working directory must not move it.
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(project_root, error);
    if (error) {
      return Status(Errc::io,
                    std::string("project_root: ") + project_root + ": " + error.message());
    }
    if (opts->layout == MK_LAYOUT_CURATED) {
      if (opts->memory_dir != nullptr) {
        return Status(Errc::invalid_argument, "opts.memory_dir: only for MK_LAYOUT_CUSTODIAN");
      }
      // The CLI's own check of --store: a missing folder is an empty store that the first write
      // makes; a path that is not a directory is refused.
      const std::string store = absolute.lexically_normal().string();
      const memkit::Result<memkit::CuratedStore> opened =
          memkit::CuratedStore::open(memkit::posix_file_system(), store);
      if (!opened) return opened.status();
      *out = new mk_workspace{MK_LAYOUT_CURATED, store, "", opts->lock_timeout_seconds};
      return Status();
    }
    if (opts->layout == MK_LAYOUT_TIERS) {
      if (opts->memory_dir != nullptr) {
        return Status(Errc::invalid_argument, "opts.memory_dir: only for MK_LAYOUT_CUSTODIAN");
      }
      const std::string workspace = absolute.lexically_normal().string();
      const memkit::Result<memkit::TiersWorkspace> opened =
          memkit::TiersWorkspace::open(memkit::posix_file_system(), workspace);
      if (!opened) return opened.status();
      *out = new mk_workspace{MK_LAYOUT_TIERS, workspace, "", opts->lock_timeout_seconds};
      return Status();
    }
    if (opts->layout == MK_LAYOUT_MEMORYBOX) {
      if (opts->memory_dir != nullptr) {
        return Status(Errc::invalid_argument, "opts.memory_dir: only for MK_LAYOUT_CUSTODIAN");
      }
      const memkit::Result<memkit::AgentRoot> root = memkit::AgentRoot::open(
          memkit::posix_file_system(), absolute.lexically_normal().string());
      if (!root) return root.status();
      *out = new mk_workspace{MK_LAYOUT_MEMORYBOX, absolute.lexically_normal().string(), "",
                              opts->lock_timeout_seconds};
      return Status();
    }
    memkit::WorkspaceOptions options;
    options.project_root = absolute.lexically_normal().string();
    if (opts->memory_dir != nullptr) options.memory_dir = opts->memory_dir;
    options.lock_timeout_seconds = opts->lock_timeout_seconds;
    const memkit::Result<memkit::Workspace> opened =
        memkit::Workspace::open(memkit::posix_file_system(), memkit::custodian_layout(), options);
    if (!opened) return opened.status();
    *out = new mk_workspace{MK_LAYOUT_CUSTODIAN, options.project_root, options.memory_dir,
                            options.lock_timeout_seconds};
    return Status();
  });
}

void mk_workspace_destroy(mk_workspace* ws) { delete ws; }

void mk_result_destroy(mk_result* result) { delete result; }

int32_t mk_result_exit_code(const mk_result* result) {
  if (result == nullptr) return 2;
  return memkit::exit_code(memkit::derive_exit_class(result->reply.findings));
}

mk_status mk_result_json(mk_buf* out, const mk_result* result) {
  return memkit::capi::guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (result == nullptr) return null_argument("result");
    std::string json;
    memkit::write_reply_json(result->reply, [&](std::string_view piece) { json += piece; });
    if (const mk_status filled = memkit::capi::fill_buffer(out, json); filled != MK_OK) {
      return Status(Errc::out_of_memory, "out of memory");
    }
    return Status();
  });
}

mk_status mk_result_write_json(const mk_result* result, mk_write_fn write, void* payload) {
  // Thrown by the sink when the callback stops the writer, so that nothing more is built.
  struct Stopped {};
  mk_status stopped = MK_OK;
  const mk_status status = memkit::capi::guard([&]() -> Status {
    if (result == nullptr) return null_argument("result");
    if (write == nullptr) return null_argument("write");
    try {
      memkit::write_reply_json(result->reply, [&](std::string_view piece) {
        stopped = write(piece.data(), piece.size(), payload);
        if (stopped != MK_OK) throw Stopped{};
      });
    } catch (const Stopped&) {
    }
    return Status();
  });
  if (status != MK_OK) return status;
  if (stopped != MK_OK) {
    // A callback's own failure comes back unchanged; a value that is no status becomes one.
    const mk_status failure = stopped < 0 ? stopped : MK_E_CALLBACK;
    return memkit::capi::record(failure, "the write callback returned " + std::to_string(stopped) +
                                             " (" + mk_status_name(stopped) + ")");
  }
  return MK_OK;
}

const char* mk_result_plan_id(const mk_result* result) {
  if (result == nullptr || result->plan_id.empty()) return nullptr;
  return result->plan_id.c_str();
}

int32_t mk_result_applied(const mk_result* result) {
  return result != nullptr && result->reply.applied ? 1 : 0;
}

uint64_t mk_result_plan_operation_count(const mk_result* result) {
  if (result == nullptr || !result->reply.plan) return 0;
  return result->reply.plan->operations().size();
}

mk_status mk_result_inbox_counts(mk_inbox_counts* out, const mk_result* result) {
  return memkit::capi::guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (result == nullptr) return null_argument("result");
    const memkit::InboxCompaction* inbox = result->reply.inbox.get();
    if (inbox == nullptr) {
      return Status(Errc::not_found, "the result is no inbox compaction");
    }
    *out = mk_inbox_counts{inbox->inbox_items, inbox->empty_items, inbox->duplicates,
                           inbox->tombstone_matches, inbox->candidates.size()};
    return Status();
  });
}

uint64_t mk_result_budget_row_count(const mk_result* result) {
  return result == nullptr ? 0 : result->rows.size();
}

mk_status mk_result_budget_row(mk_budget_row* out, const mk_result* result, uint64_t index) {
  return memkit::capi::guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (result == nullptr) return null_argument("result");
    if (index >= result->rows.size()) {
      return Status(Errc::invalid_argument, "index: " + std::to_string(index) + " is not below " +
                                                std::to_string(result->rows.size()));
    }
    *out = result->rows[index];
    return Status();
  });
}

mk_status mk_workspace_init(mk_result** out, mk_workspace* ws, const mk_clock* now,
                            uint32_t flags) {
  // A tiers workspace has its init among the tiers commands (MK_TIERS_INIT): one way to each.
  if (ws != nullptr && ws->layout == MK_LAYOUT_TIERS) {
    return memkit::capi::wrong_layout(
        out, now, "tiers init", "mk_workspace_init",
        "MK_LAYOUT_CUSTODIAN or MK_LAYOUT_MEMORYBOX; use mk_tiers_run");
  }
  return run_built(out, ws, now, "init", [&]() -> memkit::Result<CommandRequest> {
    if (Status known = known_flags(
            "flags", flags, MK_INIT_EXTENDED | MK_INIT_PROFILE_DEFAULT | MK_INIT_PROFILE_MAVEN);
        !known.ok()) {
      return known;
    }
    if ((flags & MK_INIT_PROFILE_DEFAULT) != 0 && (flags & MK_INIT_PROFILE_MAVEN) != 0) {
      return Status(Errc::invalid_argument, "flags: at most one profile");
    }
    CommandRequest request;
    if ((flags & MK_INIT_EXTENDED) != 0) request.flags.emplace_back("--extended");
    if ((flags & MK_INIT_PROFILE_DEFAULT) != 0) request.options["--profile"] = "default";
    if ((flags & MK_INIT_PROFILE_MAVEN) != 0) request.options["--profile"] = "maven";
    return request;
  });
}

mk_status mk_workspace_status(mk_result** out, mk_workspace* ws, const mk_clock* now) {
  return run(out, ws, now, "status", CommandRequest{});
}

mk_status mk_workspace_check(mk_result** out, mk_workspace* ws, const mk_clock* now) {
  return run(out, ws, now, "check", CommandRequest{});
}

void mk_compact_options_init(mk_compact_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_compact_options{MK_COMPACT_OPTIONS_VERSION, 0, nullptr};
}

mk_status mk_workspace_plan_compaction(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                       const mk_compact_options* opts) {
  // MemoryBox has a compact of its own; on a tiers workspace "tiers compact" is simply unknown.
  if (ws != nullptr && ws->layout == MK_LAYOUT_MEMORYBOX) {
    return memkit::capi::wrong_layout(out, now, "memorybox compact", "mk_workspace_plan_compaction",
                                      "MK_LAYOUT_CUSTODIAN");
  }
  return run_built(out, ws, now, "compact", [&] { return compact_request(opts); });
}

mk_status mk_workspace_apply_compaction(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                        const mk_compact_options* opts,
                                        const char* confirm_plan_id) {
  // MemoryBox has a compact of its own; on a tiers workspace "tiers compact" is simply unknown.
  if (ws != nullptr && ws->layout == MK_LAYOUT_MEMORYBOX) {
    return memkit::capi::wrong_layout(out, now, "memorybox compact",
                                      "mk_workspace_apply_compaction", "MK_LAYOUT_CUSTODIAN");
  }
  return run_built(out, ws, now, "compact", [&]() -> memkit::Result<CommandRequest> {
    memkit::Result<CommandRequest> request = compact_request(opts);
    if (!request) return request;
    if (Status confirmed = confirm(*request, confirm_plan_id); !confirmed.ok()) return confirmed;
    return request;
  });
}

mk_status mk_workspace_recover(mk_result** out, mk_workspace* ws, const mk_clock* now,
                               uint32_t flags) {
  return run_built(out, ws, now, "recover", [&]() -> memkit::Result<CommandRequest> {
    if (Status known = known_flags("flags", flags, MK_RECOVER_APPLY | MK_RECOVER_ROLLBACK);
        !known.ok()) {
      return known;
    }
    CommandRequest request;
    if ((flags & MK_RECOVER_APPLY) != 0) request.flags.emplace_back("--apply");
    if ((flags & MK_RECOVER_ROLLBACK) != 0) request.flags.emplace_back("--rollback");
    return request;
  });
}

mk_status mk_workspace_plan_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                 const char* plan_id) {
  return run_built(out, ws, now, "undo", [&]() -> memkit::Result<CommandRequest> {
    if (plan_id == nullptr) return null_argument("plan_id");
    CommandRequest request;
    request.positionals.emplace_back(plan_id);
    return request;
  });
}

mk_status mk_workspace_apply_undo(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                  const char* plan_id, const char* confirm_plan_id) {
  return run_built(out, ws, now, "undo", [&]() -> memkit::Result<CommandRequest> {
    if (plan_id == nullptr) return null_argument("plan_id");
    CommandRequest request;
    request.positionals.emplace_back(plan_id);
    if (Status confirmed = confirm(request, confirm_plan_id); !confirmed.ok()) return confirmed;
    return request;
  });
}

mk_status mk_workspace_decay(mk_result** out, mk_workspace* ws, const mk_clock* now,
                             const char* file) {
  CommandRequest request;
  if (file != nullptr) request.options["--file"] = file;
  return run(out, ws, now, "decay", std::move(request));
}

mk_status mk_workspace_hygiene(mk_result** out, mk_workspace* ws, const mk_clock* now) {
  return run(out, ws, now, "hygiene", CommandRequest{});
}

mk_status mk_workspace_load(mk_result** out, mk_workspace* ws, const mk_clock* now, int32_t tier,
                            const char* file, uint32_t flags) {
  return run_built(out, ws, now, "load", [&]() -> memkit::Result<CommandRequest> {
    if (Status known = known_flags("flags", flags, MK_LOAD_INCLUDE_ARCHIVE); !known.ok()) {
      return known;
    }
    if ((tier != 0) == (file != nullptr)) {
      return Status(Errc::invalid_argument, "tier, file: give exactly one (tier 0 with a file)");
    }
    CommandRequest request;
    if (file != nullptr) {
      request.options["--file"] = file;
    } else {
      request.options["--tier"] = std::to_string(tier);
    }
    if ((flags & MK_LOAD_INCLUDE_ARCHIVE) != 0) request.flags.emplace_back("--include-archive");
    return request;
  });
}

void mk_update_options_init(mk_update_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_update_options{MK_UPDATE_OPTIONS_VERSION, MK_UPDATE_VERIFY, nullptr, -1};
}

mk_status mk_workspace_update(mk_result** out, mk_workspace* ws, const mk_clock* now,
                              const char* entry_id, const mk_update_options* opts) {
  return run_built(out, ws, now, "update", [&]() -> memkit::Result<CommandRequest> {
    if (entry_id == nullptr) return null_argument("entry_id");
    if (opts == nullptr) return null_argument("opts");
    if (opts->version != MK_UPDATE_OPTIONS_VERSION) return unknown_version("opts", opts->version);
    if (opts->confidence < -1 || opts->confidence > 100) {
      return Status(Errc::invalid_argument, "opts.confidence: expected -1 or 0 to 100 hundredths");
    }
    CommandRequest request;
    request.options["--entry"] = entry_id;
    switch (opts->event) {
      case MK_UPDATE_VERIFY:
        request.flags.emplace_back("--verify");
        break;
      case MK_UPDATE_CONFIRM:
        request.flags.emplace_back("--confirm");
        break;
      case MK_UPDATE_CONTRADICT:
        request.flags.emplace_back("--contradict");
        break;
      case MK_UPDATE_RESOLVE_KEEP:
        request.options["--resolve"] = "keep";
        break;
      default:
        return Status(Errc::invalid_argument,
                      "opts.event: unknown event " + std::to_string(opts->event));
    }
    if (opts->note != nullptr) request.options["--note"] = opts->note;
    if (opts->confidence >= 0) {
      const int c = opts->confidence;
      request.options["--confidence"] =
          std::to_string(c / 100) + "." + (c % 100 < 10 ? "0" : "") + std::to_string(c % 100);
    }
    return request;
  });
}

void mk_add_options_init(mk_add_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_add_options{MK_ADD_OPTIONS_VERSION, 0, nullptr, nullptr, nullptr, nullptr};
}

mk_status mk_workspace_add(mk_result** out, mk_workspace* ws, const mk_clock* now,
                           const char* message, size_t message_size, const mk_add_options* opts) {
  return run_built(out, ws, now, "add", [&]() -> memkit::Result<CommandRequest> {
    if (message == nullptr && message_size != 0) return null_argument("message");
    if (opts == nullptr) return null_argument("opts");
    if (opts->version != MK_ADD_OPTIONS_VERSION) return unknown_version("opts", opts->version);
    if (Status known = known_flags("opts.flags", opts->flags, MK_ADD_ALLOW_LONG); !known.ok()) {
      return known;
    }
    if (opts->type == nullptr) return null_argument("opts.type");
    CommandRequest request;
    request.positionals.emplace_back(message_size == 0 ? std::string()
                                                       : std::string(message, message_size));
    request.options["--type"] = opts->type;
    if (opts->reason != nullptr) request.options["--reason"] = opts->reason;
    if (opts->name != nullptr) request.options["--name"] = opts->name;
    if (opts->area != nullptr) request.options["--area"] = opts->area;
    if ((opts->flags & MK_ADD_ALLOW_LONG) != 0) request.flags.emplace_back("--allow-long");
    return request;
  });
}

void mk_forget_options_init(mk_forget_options* opts) {
  if (opts == nullptr) return;
  *opts = mk_forget_options{MK_FORGET_OPTIONS_VERSION, 0, MK_FORGET_SOFT};
}

mk_status mk_workspace_plan_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                   const char* topic, size_t topic_size,
                                   const mk_forget_options* opts) {
  return run_built(out, ws, now, "forget", [&] { return forget_request(topic, topic_size, opts); });
}

mk_status mk_workspace_apply_forget(mk_result** out, mk_workspace* ws, const mk_clock* now,
                                    const char* topic, size_t topic_size,
                                    const mk_forget_options* opts, const char* confirm_plan_id) {
  return run_built(out, ws, now, "forget", [&]() -> memkit::Result<CommandRequest> {
    memkit::Result<CommandRequest> request = forget_request(topic, topic_size, opts);
    if (!request) return request;
    if (Status confirmed = confirm(*request, confirm_plan_id); !confirmed.ok()) return confirmed;
    return request;
  });
}

}  // extern "C"
