// The commands of every front end (spec README.md "CLI shape"; compaction.md §8-§16): a request in,
// the findings, the JSON data and the human view out. The `memkit` CLI parses argv into a
// CommandRequest and the C ABI builds one from its arguments; both call execute(), so the same
// input gives the same result in every language.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands/table.hpp"
#include "json/json.hpp"
#include "memkit/audit.hpp"
#include "memkit/clock.hpp"
#include "memkit/compact.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox/gate.hpp"
#include "memkit/plan.hpp"
#include "sync/remote.hpp"

namespace memkit {

enum class OutputFormat : std::uint8_t { text, json };

// One command with its arguments, as the CLI spells them: group "custodian", command "compact",
// options {"--target": "decisions.md"}, flags {"--apply"}.
struct CommandRequest {
  std::string group;                         // "custodian", "markdown", or "" when none was given
  std::string command;                       // "status", "units", ...
  OutputFormat format = OutputFormat::text;  // text: the human view is made too
  std::optional<std::string> now;            // --now (RFC 3339), else the environment's clock
  double lock_timeout_seconds = 10.0;
  bool help = false;                           // CLI only
  bool version = false;                        // CLI only
  bool quiet = false;                          // CLI only: --quiet, no progress display
  std::vector<std::string> positionals;        // after group and command
  std::map<std::string, std::string> options;  // "--project-root" -> value
  std::vector<std::string> flags;              // "--extended"
  // `memorybox gate`: the host's judgement (the C ABI's callback), asked for each gate that no
  // judgement flag answers.
  memorybox::Judge judge;
};

// The most memkit reads from one input a command is given (standard input, --file, --body-file,
// --source-file): 64 MiB. More is refused with MK-ARG-001 before anything is parsed or written
// (docs/limits.md). Memory files themselves have no such limit.
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

// What a command may read from its surroundings.
struct CommandEnvironment {
  std::optional<std::string> memkit_now;  // MEMKIT_NOW
  bool stdout_is_terminal = false;
  bool stderr_is_terminal = false;
  bool no_colour = false;                      // NO_COLOR is set
  bool no_progress = false;                    // NO_PROGRESS or MEMKIT_NO_PROGRESS is set
  bool cli = false;  // the memkit program runs it: the commands only it has (bench) run too
  std::string temporary_directory;  // TMPDIR (empty: /tmp), where `bench` makes its scratch folder
  std::function<ClockReading()> system_clock;  // the system clock and local zone
  std::string current_directory;               // absolute; for `markdown units` paths
  // `curated`: MEMKIT_STORE, MEMKIT_WORKSPACE and MEMKIT_ACTOR (curated.md §2, §11), each used
  // when its option is not given.
  std::optional<std::string> memkit_store;
  std::optional<std::string> memkit_workspace;
  std::optional<std::string> memkit_actor;
  // `memorybox sync` (memorybox.md §9): MEMKIT_SYNC_CONNINFO, the PostgreSQL connection string,
  // used when no --conninfo-file is given (never printed); how to open a PostgreSQL remote (empty
  // in a build without the adapter); and random bytes for a new workspace id (empty: a new
  // workspace needs --workspace-id).
  std::optional<std::string> sync_conninfo;
  std::function<Result<std::unique_ptr<sync::Remote>>(const std::string& conninfo)> open_postgres;
  std::function<std::array<std::uint8_t, 10>()> random_bytes;
  // Standard input, for `--body-file -` and `--file -`: at most `limit` + 1 bytes (one more tells
  // the caller the input is over its limit, kMaxInputBytes); none where there is no such stream
  // (the C ABI), which refuses "-".
  std::function<Result<std::string>(std::size_t limit)> read_stdin;
};

// Writes a result's human view to a sink.
using TextWriter = std::function<void(const TextSink&)>;

struct CommandReply {
  std::string command;            // "custodian compact"
  JsonWriter data;                // the envelope's data; "{}" when unset
  std::vector<Finding> findings;  // in the order found; the envelope sorts them
  TextWriter text;                // the human view, for OutputFormat::text; none when empty
  // The values behind the data, for typed access (C ABI): set by the commands that make them.
  std::optional<Plan> plan;                      // the plan shown or applied
  bool applied = false;                          // the plan was written
  std::shared_ptr<const InboxCompaction> inbox;  // custodian compact, inbox mode
  std::shared_ptr<const StatusReport> status;    // custodian status
};

// A request for the command `spec`, as the CLI's parser makes one: its group and command set, a
// two-word verb's second word its first positional. The C ABI and the MCP server start from it.
[[nodiscard]] CommandRequest request_for(const CommandSpec& spec);

// Sets the root arguments of `spec` in `request` (the folders a workspace is opened on, never
// given by a request): each to `root`, and --memory-dir to `memory_dir` unless that is empty (then
// its default).
void set_root_arguments(const CommandSpec& spec, const std::string& root,
                        const std::string& memory_dir, CommandRequest& request);

// Runs one command. Failures of the request or the environment come back as fatal findings; the
// exit class is derive_exit_class(reply.findings).
[[nodiscard]] CommandReply execute(const CommandRequest& request, const CommandEnvironment& env);

// The envelope of a reply (spec README.md "Result envelope"), the bytes `--format json` prints
// without its final newline.
void write_reply_json(const CommandReply& reply, const TextSink& sink);

// Failures of a request or its environment as fatal findings (MK-ARG-001, MK-LAYOUT-001, ...).
[[nodiscard]] Finding finding_from(const Status& status);

namespace commands_detail {
// A writer of text that is already made; none for empty text.
[[nodiscard]] inline TextWriter fixed(std::string text) {
  if (text.empty()) return {};
  return [text = std::move(text)](const TextSink& sink) { sink(text); };
}
}  // namespace commands_detail

}  // namespace memkit
