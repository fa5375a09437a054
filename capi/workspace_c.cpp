// Section - Workspace and Section - Results of memkit.h: opening a memory folder of one of the
// four layouts, and reading what a request run (capi/request_c.cpp) returned.
#include <cstring>
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

using memkit::Errc;
using memkit::Status;
using memkit::capi::null_argument;
using memkit::capi::unknown_version;

// The bytes of mk_workspace_options each layout version has, indexed by version: a caller's
// struct is read and written only that far (fields are only ever appended).
constexpr std::size_t kWorkspaceOptionsSize[] = {0, sizeof(mk_workspace_options)};
constexpr std::uint32_t kWorkspaceOptionsVersions =
    sizeof kWorkspaceOptionsSize / sizeof kWorkspaceOptionsSize[0] - 1;
static_assert(kWorkspaceOptionsVersions == MK_WORKSPACE_OPTIONS_VERSION);

mk_workspace_options default_workspace_options() {
  mk_workspace_options opts;
  std::memset(&opts, 0, sizeof opts);
  opts.version = MK_WORKSPACE_OPTIONS_VERSION;
  opts.layout = MK_LAYOUT_CUSTODIAN;
  opts.memory_dir = nullptr;
  opts.lock_timeout_seconds = 10.0;
  return opts;
}

// Thrown by mk_result_write_json's sink when the callback stops the writer, so that nothing more
// is built. (A type of its own, outside extern "C": an empty struct there means another size in C.)
struct Stopped {};

}  // namespace

extern "C" {

mk_status mk_workspace_options_init(mk_workspace_options* opts, uint32_t version) {
  return memkit::capi::guard([&]() -> Status {
    if (opts == nullptr) return null_argument("opts");
    if (version == 0 || version > kWorkspaceOptionsVersions) {
      return unknown_version("version", version);
    }
    mk_workspace_options defaults = default_workspace_options();
    defaults.version = version;
    std::memcpy(opts, &defaults, kWorkspaceOptionsSize[version]);
    return Status();
  });
}

mk_status mk_workspace_open(mk_workspace** out, const char* project_root,
                            const mk_workspace_options* opts) {
  return memkit::capi::guard([&]() -> Status {
    if (out == nullptr) return null_argument("out");
    if (project_root == nullptr) return null_argument("project_root");
    // The caller's struct, read only as far as its version goes; the rest keeps the defaults.
    mk_workspace_options given = default_workspace_options();
    if (opts != nullptr) {
      if (opts->version == 0 || opts->version > kWorkspaceOptionsVersions) {
        return unknown_version("opts", opts->version);
      }
      std::memcpy(&given, opts, kWorkspaceOptionsSize[opts->version]);
    }
    opts = &given;
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

}  // extern "C"
