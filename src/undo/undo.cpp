// Undo plans (spec compaction.md §12.6): exactly the base bytes back, as a plan of its own.
#include "memkit/undo.hpp"

#include "memkit/layouts.hpp"

namespace memkit {

bool is_plan_id(std::string_view id) noexcept {
  if (id.size() != 16) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

UndoPlanning plan_undo(const std::optional<AppliedRecord>& record, std::string_view plan_id,
                       const CustodianInputs& inputs, const TokenCounter& counter) {
  UndoPlanning undo;
  undo.undone_plan_id = std::string(plan_id);
  if (!record) {
    undo.findings.push_back(make_finding(
        "MK-UNDO-002", Severity::blocker, "", "no applied record for plan " + std::string(plan_id),
        "only the last applies made here can be undone, and never a forget --mode hard or purge"));
    return undo;
  }
  std::vector<PlanOperation> operations;
  std::vector<BudgetResult> budgets;
  bool moved = false;
  for (const AppliedRecord::Target& target : record->targets) {
    const FileSnapshot* now = inputs.snapshot.find(target.path);
    const bool exists = now != nullptr && now->exists();
    const bool at_output =
        target.output_exists ? exists && sha256_hex(now->text()) == target.output_sha256 : !exists;
    undo.targets.push_back(
        TransactionTarget{target.path, at_output ? TargetState::output : TargetState::other});
    if (!at_output) {
      moved = true;
      undo.findings.push_back(make_finding(
          "MK-UNDO-001", Severity::blocker, target.path,
          target.path + ": no longer holds what plan " + std::string(plan_id) + " wrote",
          "undo restores only unchanged files; edit this one by hand"));
      continue;
    }
    if (const std::optional<Budget> budget = custodian::budget_for(target.path)) {
      const std::uint64_t before = exists ? counter.count(now->text()) : 0;
      const std::uint64_t after = target.base_exists ? counter.count(*target.base) : 0;
      budgets.push_back(
          BudgetResult{target.path, before, after, budget->limit(), budget->classify(after)});
    }
    if (target.base_exists) {
      // replace, or create when the undone apply deleted the file.
      std::shared_ptr<const std::string> current = exists ? now->bytes : nullptr;
      const std::size_t size = current ? current->size() : 0;
      operations.push_back(
          plan_write(target.path, current, exists, only_splice(Splice{0, size, *target.base})));
    } else {
      operations.push_back(plan_remove(*now));  // found by target.path
    }
  }
  if (!moved && !operations.empty()) {
    undo.plan = Plan::create("custodian undo",
                             {{"memory_dir", inputs.memory_dir}, {"plan_id", std::string(plan_id)}},
                             std::move(operations), std::move(budgets));
  }
  sort_findings(undo.findings);
  return undo;
}

}  // namespace memkit
