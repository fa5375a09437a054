// `memkit custodian undo PLAN_ID` (spec compaction.md §12.6): a plan that gives every target of a
// recent apply its base bytes again, refused when a target has moved on since.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/audit.hpp"
#include "memkit/findings.hpp"
#include "memkit/plan.hpp"
#include "memkit/tokens.hpp"

namespace memkit {

// What `.memkit/applied/<plan_id>/` holds: applied.json and the base bytes b-<n>.
struct AppliedRecord {
  struct Target {
    std::string path;
    bool base_exists = false;
    std::string base_sha256;
    bool output_exists = false;
    std::string output_sha256;
    std::shared_ptr<const std::string> base;  // set iff base_exists
  };
  std::string plan_id;
  std::string command;
  std::string applied_at;
  std::vector<Target> targets;
};

struct UndoPlanning {
  std::string undone_plan_id;
  std::vector<TransactionTarget> targets;  // state: output (unchanged since) or other
  std::optional<Plan> plan;
  std::vector<Finding> findings;
};

// REQUIRES: `inputs` holds every target path of the record that exists (extra paths).
// A missing record is MK-UNDO-002; a moved target is MK-UNDO-001; both BLOCKERs, no plan.
[[nodiscard]] UndoPlanning plan_undo(const std::optional<AppliedRecord>& record,
                                     std::string_view plan_id, const CustodianInputs& inputs,
                                     const TokenCounter& counter);

// Returns true iff `id` has the form of a Plan ID: 16 lowercase hex digits.
[[nodiscard]] bool is_plan_id(std::string_view id) noexcept;

}  // namespace memkit
