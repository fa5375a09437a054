// `memkit memorybox log --text T [--session S]`: the seed's Session End step 1, "write session
// data to local files": an additive write of SESSION_LOG.md and today's daily file, without the
// gates, applied directly as one transaction under the lock.
#include "memkit/memorybox/log.hpp"

#include <fmt/format.h>

#include "commands/flow.hpp"
#include "json/json.hpp"

namespace memkit::commands_detail {
namespace {

std::string log_text(const memorybox::SessionLog& log) {
  std::string out = "Wrote memory/SESSION_LOG.md (" + log.session_entry_id + "):\n";
  const auto quoted = [&out](std::string_view text) {
    for (std::string_view rest = text; !rest.empty();) {
      const std::size_t lf = rest.find('\n');
      out += "  | " + std::string(rest.substr(0, lf)) + "\n";
      rest = lf == std::string_view::npos ? std::string_view() : rest.substr(lf + 1);
    }
  };
  quoted(log.session_text);
  out += "Wrote " + log.daily_file + ":\n";
  quoted(log.daily_text);
  return out;
}

}  // namespace

void run_memorybox_log(MemoryBoxRun& run) {
  CommandReply& reply = run.reply;
  const std::optional<std::string> text = option(run.inv, "--text");
  if (!text) {
    reply.findings.push_back(
        finding_from(Status(Errc::invalid_argument, "memorybox log: --text is required")));
    return;
  }
  const memorybox::SessionLogRequest request{*text, option(run.inv, "--session").value_or("")};
  // Planned first without the lock, so that a refusal leaves no .memkit/ behind; then again from
  // the files read under it, so that another process's write is never lost.
  if (const Result<memorybox::SessionLog> first =
          memorybox::plan_session_log(run.inputs, request, run.now);
      !first) {
    reply.findings.push_back(finding_from(first.status()));
    return;
  }
  const std::unique_ptr<LockHandle> lock = lock_for_write(run);
  if (!lock) return;
  const Result<memorybox::Inputs> locked = run.root.read_memorybox_inputs();
  if (!locked) {
    reply.findings.push_back(finding_from(locked.status()));
    return;
  }
  const Result<memorybox::SessionLog> log = memorybox::plan_session_log(*locked, request, run.now);
  if (!log) {
    reply.findings.push_back(finding_from(log.status()));
    return;
  }
  reply.findings = log->findings;
  const Result<std::vector<std::string>> written = run.root.apply(log->plan, run.now);
  if (!written) {
    reply.findings.push_back(finding_from(written.status()));
    reply.data = fixed(memorybox_log_json(*log, {}));
    return;
  }
  reply.applied = true;
  reply.data = fixed(memorybox_log_json(*log, *written));
  if (run.inv.format == OutputFormat::text) reply.text = fixed(log_text(*log));
}

}  // namespace memkit::commands_detail
