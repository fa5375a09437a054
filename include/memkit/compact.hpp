// Compaction planning for the custodian layout (spec compaction.md §8-§11): pure functions from
// what the shell read to a report and, when something can be removed, a Plan.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/clock.hpp"
#include "memkit/edit.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

// An inbox item left for a person or the host to review. memkit never classifies it.
struct Candidate {
  std::uint32_t index;                    // 1-based, in file order
  std::string label;                      // the first line's text after the marker, stripped
  std::vector<std::string> continuation;  // the unit's later lines, verbatim
  std::uint32_t line;                     // 1-based line of the bullet
};

// `memkit custodian compact` in inbox mode (§8).
struct InboxCompaction {
  std::string memory_dir;
  std::optional<std::string> protocol_version;
  std::uint64_t inbox_items = 0;
  std::uint64_t empty_items = 0;
  std::uint64_t duplicates = 0;
  std::uint64_t tombstone_matches = 0;
  std::vector<Candidate> candidates;
  std::optional<Plan> plan;       // nullopt: nothing to apply
  std::vector<Finding> findings;  // sorted; a BLOCKER means no plan could be made
};

[[nodiscard]] InboxCompaction plan_inbox_compaction(const CustodianInputs& inputs,
                                                    const TokenCounter& counter,
                                                    const ClockReading& now);

// §8 tombstone keys of do-not-use.md: every non-empty bullet key, and the titles of H2 headings
// "Tombstone: <title>" or "<text> — tombstone: <title>" (ASCII case-insensitive), case-folded.
[[nodiscard]] std::set<std::string> tombstone_keys(const Document& do_not_use);

// §11: the splice that adds "- <message>" under "## <today>" in changelog.md: into today's first
// section if there is one, else a new dated section before the first H2, else appended.
// REQUIRES: changelog.parseable().
[[nodiscard]] Splice changelog_line(const Document& changelog, std::string_view today,
                                    std::string_view message);

}  // namespace memkit
