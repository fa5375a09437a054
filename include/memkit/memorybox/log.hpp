// `memkit memorybox log` (spec memorybox.md §2 tier 4, the seed's Session End step 1 "write
// session data to local files"): a session's record, written without the five gates. A pure
// planner from what the shell read to a Plan of additive writes, applied directly as one
// transaction.
#pragma once

#include <optional>
#include <string>

#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/memorybox.hpp"
#include "memkit/plan.hpp"
#include "memkit/result.hpp"

namespace memkit::memorybox {

struct SessionLogRequest {
  std::string text;     // the session's record; not empty once stripped
  std::string session;  // the entry's title, one line; "" is "session"
};

struct SessionLog {
  std::string session_entry_id;  // the new entry of memory/SESSION_LOG.md
  std::string daily_file;        // memory/daily/<today>.md
  std::string daily_entry_id;    // that file's entry (the whole day)
  std::string session_text;      // the lines written to SESSION_LOG.md
  std::string daily_text;        // the bullet added to the day's file
  Plan plan;                     // both writes: one transaction, additive
  std::vector<Finding> findings;  // MK-BOX-012 when SESSION_LOG.md or tier 4 nears its limit
};

// Appends `### <today> — <session>`, `Updated: <now>`, `Id: <uuid>`, an empty line and the text to
// memory/SESSION_LOG.md (§4 "What a WRITE writes"), and `- <session>: <the text's first line>` to
// today's daily file (created with its Id line when missing). Fails with Errc::invalid_argument
// for an empty text, a session title of more than one line, or a text that would not read back as
// exactly one new session entry; Errc::parse or Errc::invalid_utf8 for a file it would change.
[[nodiscard]] Result<SessionLog> plan_session_log(const Inputs& inputs,
                                                 const SessionLogRequest& request,
                                                 const ClockReading& now);

}  // namespace memkit::memorybox
