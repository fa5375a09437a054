// An additive change written in the caller's commit order (tiers3.md §9, curated.md §6): the
// operations become one plan, and the plan's operations (sorted by path) are written in the
// order the caller gave them, as one journalled transaction. Shared by TiersWorkspace and
// CuratedStore.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "apply/apply.hpp"
#include "memkit/plan.hpp"

namespace memkit::detail {

// REQUIRES: the operations name distinct paths; the paths' folders were checked for links.
inline Result<std::vector<std::string>> write_in_commit_order(FileSystem& fs,
                                                              const ApplyPaths& paths,
                                                              const std::string& command,
                                                              std::vector<PlanOperation> operations,
                                                              const ClockReading& now) {
  std::vector<std::string> commit_order;
  for (const PlanOperation& op : operations) commit_order.push_back(op.path);
  const Plan plan = Plan::create(command, {}, std::move(operations), {});
  std::vector<std::size_t> order;
  for (const std::string& path : commit_order) {
    const auto& ops = plan.operations();
    const auto at = std::find_if(ops.begin(), ops.end(),
                                 [&](const PlanOperation& op) { return op.path == path; });
    order.push_back(static_cast<std::size_t>(at - ops.begin()));
  }
  return apply_plan_in_order(fs, paths, plan, order, now, new_transaction_id());
}

}  // namespace memkit::detail
