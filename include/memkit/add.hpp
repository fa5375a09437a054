// `memkit custodian add` (spec compaction.md §13): one entry written where its type belongs, by
// byte insertion only, applied directly (an additive write needs no review).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/clock.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

struct AddRequest {
  std::string message;
  std::string type;  // decision, tombstone (or do-not-use), inbox, constraint, preference,
                     // rule, profile, area
  std::optional<std::string> reason;
  bool allow_long = false;
  std::optional<std::string> name;  // rule, profile, area
  std::optional<std::string> area;  // decision, constraint, preference, tombstone
};

struct MaintenancePreview {
  bool required = false;  // OVER BUDGET (false: NEAR LIMIT)
  std::vector<std::string> advice;
  std::string command;
};

struct AddPlanning {
  std::string type;  // normalised: do-not-use is tombstone
  std::string target;
  std::optional<std::uint64_t> decision_entry_tokens;
  std::optional<BudgetResult> budget_result;  // after the write, for a budgeted target
  std::optional<MaintenancePreview> maintenance_preview;
  std::optional<Plan> plan;       // the writes; applied directly when no finding stops them
  std::vector<Finding> findings;  // sorted
};

// Checks the request's arguments alone (§13 "Validation"): Errc::invalid_argument, naming the
// argument, for MK-ARG-001.
[[nodiscard]] Status validate_add(const AddRequest& request);

// The memory-relative file an add writes to. REQUIRES: validate_add(request).ok().
[[nodiscard]] std::string add_target(const AddRequest& request);

// REQUIRES: validate_add(request).ok(); the snapshot holds the target and changelog.md.
[[nodiscard]] AddPlanning plan_add(const CustodianInputs& inputs, const AddRequest& request,
                                   const TokenCounter& counter, const ClockReading& now);

}  // namespace memkit
