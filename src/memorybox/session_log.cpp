// `memorybox log` (memkit/memorybox/log.hpp): a session's record in SESSION_LOG.md and today's
// daily file, written as a gate WRITE writes (gate_write.hpp), without the gates.
#include <fmt/format.h>

#include <set>

#include "memkit/memorybox/log.hpp"
#include "memkit/text.hpp"
#include "memorybox/gate_write.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::string_view kSessionLog = "memory/SESSION_LOG.md";

// One planned write of a gate WRITE's kind: its verdict (entry, splices) or why not.
Result<GateVerdict> planned(const Inputs& inputs, const Candidate& candidate,
                            const std::string& file, const ClockReading& now) {
  const GateAnswer unused;  // freshness and category have no part in a log's fields
  const std::string no_category;
  const WriteRequest write{.candidate = candidate,
                           .category = no_category,
                           .freshness = unused,
                           .tier = 4,
                           .file = file,
                           .now = now,
                           .log = true};
  GateVerdict verdict;
  if (Status made = plan_gate_write(inputs, write, verdict); !made.ok()) return made;
  return verdict;
}

PlanOperation operation_of(const Inputs& inputs, const std::string& file,
                           const GateVerdict& verdict) {
  const FileSnapshot* existing = inputs.snapshot.find(file);
  const bool exists = !verdict.creates_file && existing != nullptr;
  return plan_write(file, exists ? existing->bytes : std::make_shared<const std::string>(),
                    exists, verdict.splices);
}

// `title`, or the first of "title (2)", "title (3)", ... that names no session entry of today yet:
// a second session of a day under one title is a new entry, never a refusal.
std::string free_title(const Inputs& inputs, const std::string& title, const ClockReading& now) {
  const std::string path(kSessionLog);
  std::set<std::string> taken;
  if (const FileSnapshot* file = inputs.snapshot.find(path); file != nullptr && file->exists()) {
    const Document doc = parse_markdown(file->bytes);
    if (doc.parseable()) {
      for (const Entry& e : read_entries(path, doc)) taken.insert(e.id);
    }
  }
  const std::string day = now.local_date_iso();
  for (int n = 1;; ++n) {
    std::string candidate = n == 1 ? title : fmt::format("{} ({})", title, n);
    const std::vector<Entry> probe =
        read_entries(path, parse_markdown("### " + day + " \u2014 " + candidate + "\n"));
    if (probe.empty() || !taken.contains(probe.front().id)) return candidate;
  }
}

}  // namespace

Result<SessionLog> plan_session_log(const Inputs& inputs, const SessionLogRequest& request,
                                    const ClockReading& now) {
  const std::string_view text = strip_w(request.text);
  if (text.empty()) return Status(Errc::invalid_argument, "--text: empty");
  const std::string_view given = strip_w(request.session);
  if (given.find_first_of("\r\n") != std::string_view::npos) {
    return Status(Errc::invalid_argument, "--session: expected one line");
  }
  const std::string session =
      free_title(inputs, given.empty() ? std::string("session") : std::string(given), now);
  const std::string session_file(kSessionLog);
  Candidate entry{.text = std::string(text), .confidence = 0, .title = session, .source = {},
                  .client = {}};
  Result<GateVerdict> logged = planned(inputs, entry, session_file, now);
  if (!logged) return logged.status();

  // The day's file gets one line per session: the title and the record's first line.
  const std::string_view first = text.substr(0, text.find_first_of("\r\n"));
  const CivilDate today = now.local_date();
  const std::string daily_file =
      fmt::format("memory/daily/{:04}-{:02}-{:02}.md", today.year, today.month, today.day);
  Candidate bullet{.text = session + ": " + std::string(strip_w(first)), .confidence = 0,
                   .title = {}, .source = {}, .client = {}};
  Result<GateVerdict> noted = planned(inputs, bullet, daily_file, now);
  if (!noted) return noted.status();

  std::vector<PlanOperation> operations;
  operations.push_back(operation_of(inputs, session_file, *logged));
  operations.push_back(operation_of(inputs, daily_file, *noted));
  std::vector<Finding> findings = logged->findings;
  findings.insert(findings.end(), noted->findings.begin(), noted->findings.end());
  sort_findings(findings);
  return SessionLog{
      .session_entry_id = *logged->entry_id,
      .daily_file = daily_file,
      .daily_entry_id = *noted->entry_id,
      .session_text = *logged->entry_text,
      .daily_text = *noted->entry_text,
      .plan = Plan::create("memorybox log", {{"session", session}}, std::move(operations), {}),
      .findings = std::move(findings)};
}

}  // namespace memkit::memorybox
