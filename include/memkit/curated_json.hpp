// The data JSON of the `memkit curated` commands (spec curated.md §6-§10): canonical JSON, the
// bytes every front end returns. Each function names the command whose `data` it makes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated_log.hpp"
#include "memkit/curated_write.hpp"

namespace memkit {

// ---- writes (§6, §7, §10) -----------------------------------------------------------------------

// `add`: {workspace, dry_run, files, result, name, action, type, class, memory_status, initiative,
// description, updated_at}, plus `entry` in a dry run. REQUIRES: the write was not refused.
[[nodiscard]] std::string curated_add_json(std::string_view workspace, bool dry_run,
                                           const curated::Write& write);

// ---- reads (§8, §10) ----------------------------------------------------------------------------

// ---- floors and telemetry (§9, §10) -------------------------------------------------------------

}  // namespace memkit
