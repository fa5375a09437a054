// `memkit custodian forget TOPIC` (spec compaction.md §14): removes what mentions a topic, entry
// by entry and bullet by bullet, leaves a tombstone as the mode says, and never rewrites prose:
// matching text that is not a removable unit is a blocker for a person to rewrite.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

enum class ForgetMode : std::uint8_t { soft, hard, purge };

struct ForgetMatch {
  std::string path;
  std::string summary;  // the unit's first line, or "[redacted]" in hard and purge
};

struct ForgetBlocker {
  std::string path;
  std::string kind;  // "title", "heading", "text", "heading-only section", "do-not-use text"
};

struct ForgetPlanning {
  ForgetMode mode = ForgetMode::soft;
  std::vector<std::string> searched_files;
  std::vector<std::string> matched_files;
  std::vector<ForgetMatch> matches;
  std::uint64_t tombstones_matched = 0;
  std::string tombstone_action;  // "insert", "replace-with-generic", "remove"
  std::string changelog;         // "topic", "generic" or "disabled"
  bool broad = false;
  std::vector<std::string> broad_reasons;
  std::vector<ForgetBlocker> blockers;
  std::optional<Plan> plan;
  std::vector<Finding> findings;  // dry-run view: MK-FORGET-001/002 as WARNINGs
};

// "soft", "hard", "purge" -> the mode; nullopt for anything else.
[[nodiscard]] std::optional<ForgetMode> parse_forget_mode(std::string_view mode) noexcept;
[[nodiscard]] std::string_view forget_mode_name(ForgetMode mode) noexcept;

// REQUIRES: the snapshot holds every file to search (for purge: every .md under the memory
// directory, archive/ included).
[[nodiscard]] ForgetPlanning plan_forget(const CustodianInputs& inputs, std::string_view topic,
                                         ForgetMode mode, const TokenCounter& counter,
                                         const ClockReading& now);

// The refusals of an apply (§14): MK-FORGET-001 for blockers, MK-FORGET-002 for a broad plan
// without --allow-broad-match, both ERRORs.
[[nodiscard]] std::vector<Finding> forget_gates(const ForgetPlanning& planning,
                                                bool allow_broad_match);

}  // namespace memkit
