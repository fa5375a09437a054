// Plan values and the Plan ID (spec compaction.md §12.1).
#include "memkit/plan.hpp"

#include <algorithm>

#include "codec/canonical.hpp"
#include "parallel/run_both.hpp"

namespace memkit {

std::string_view operation_kind_name(OperationKind kind) noexcept {
  switch (kind) {
    case OperationKind::create:
      return "create";
    case OperationKind::replace:
      return "replace";
    case OperationKind::remove:
      return "delete";
    case OperationKind::append:
      return "append";
  }
  return "replace";
}

Plan Plan::create(std::string command, PlanArguments arguments,
                  std::vector<PlanOperation> operations, std::vector<BudgetResult> budget_results,
                  bool sensitive) {
  Plan plan;
  plan.command_ = std::move(command);
  plan.arguments_ = std::move(arguments);
  plan.budget_results_ = std::move(budget_results);
  plan.sensitive_ = sensitive;
  // A plan rule, not an encoding rule: these two arrays are sorted bytewise by path.
  std::stable_sort(operations.begin(), operations.end(),
                   [](const PlanOperation& a, const PlanOperation& b) { return a.path < b.path; });
  plan.operations_ = std::make_shared<const std::vector<PlanOperation>>(std::move(operations));
  std::stable_sort(plan.budget_results_.begin(), plan.budget_results_.end(),
                   [](const BudgetResult& a, const BudgetResult& b) { return a.path < b.path; });
  return plan;
}

const std::vector<PlanOperation>& Plan::operations() const noexcept {
  static const std::vector<PlanOperation> kNone;  // a plan moved from
  return operations_ ? *operations_ : kNone;
}

const std::string& Plan::id() const {
  std::call_once(id_->once, [this] { id_->text = sha256_hex(canonical_json()).substr(0, 16); });
  return id_->text;
}

const PlanOperation::Digests& PlanOperation::digests() const {
  std::call_once(digests_->once, [this] {
    const std::string& base = *output.base;
    // The two digests are independent: a large file has them computed on two cores.
    if (base.size() >= (std::size_t{1} << 20)) {
      detail::run_both([&] { digests_->output = sha256_of_splices(base, output.splices); },
                       [&] { digests_->base = sha256(base); });
    } else {
      digests_->base = sha256(base);
      digests_->output = sha256_of_splices(base, output.splices);
    }
  });
  return *digests_;
}

std::string Plan::canonical_json() const {
  nlohmann::json arguments = nlohmann::json::object();
  for (const auto& [key, value] : arguments_) {
    arguments[key] =
        value.is_flag() ? nlohmann::json(value.flag_value()) : detail::utf8(value.text());
  }
  nlohmann::json budgets = nlohmann::json::array();
  for (const BudgetResult& b : budget_results_) {
    budgets.push_back({{"path", detail::utf8(b.path)},
                       {"before", b.before},
                       {"after", b.after},
                       {"limit", b.limit},
                       {"state", std::string(budget_state_name(b.state))}});
  }
  nlohmann::json operations = nlohmann::json::array();
  for (const PlanOperation& op : this->operations()) {
    nlohmann::json row = {{"path", detail::utf8(op.path)},
                          {"operation", std::string(operation_kind_name(op.kind))},
                          {"base_sha256", to_hex(op.base_sha256())},
                          {"expected_output_sha256", to_hex(op.output_sha256())}};
    // An append's digests cover only the file's last bytes: its length names the rest.
    if (op.kind == OperationKind::append) row["base_size"] = op.base_size();
    operations.push_back(std::move(row));
  }
  return detail::canonical_dump({{"arguments", arguments},
                                 {"budget_results", budgets},
                                 {"command", detail::utf8(command_)},
                                 {"operations", operations},
                                 {"plan_schema", 1}});
}

PlanOperation plan_remove(const FileSnapshot& file) {
  PlanOperation op;
  op.path = file.path;
  op.kind = OperationKind::remove;
  const std::shared_ptr<const std::string> bytes =
      file.bytes ? file.bytes : std::make_shared<const std::string>();
  op.output = PlannedBytes{bytes, {Splice{0, bytes->size(), {}}}};
  return op;
}

PlanOperation plan_append(const FileSnapshot& file, std::string bytes) {
  PlanOperation op;
  op.path = file.path;
  op.kind = OperationKind::append;
  op.offset = file.offset;
  std::shared_ptr<const std::string> tail =
      file.bytes ? file.bytes : std::make_shared<const std::string>();
  const std::size_t end = tail->size();
  op.output = PlannedBytes{std::move(tail), {Splice{end, end, std::move(bytes)}}};
  return op;
}

PlanOperation plan_write(std::string path, std::shared_ptr<const std::string> base,
                         bool base_exists, std::vector<Splice> splices) {
  PlanOperation op;
  op.path = std::move(path);
  op.kind = base_exists ? OperationKind::replace : OperationKind::create;
  if (!base) base = std::make_shared<const std::string>();
  op.output = PlannedBytes{std::move(base), std::move(splices)};
  return op;
}

std::string_view target_state_name(TargetState state) noexcept {
  switch (state) {
    case TargetState::base:
      return "base";
    case TargetState::output:
      return "output";
    case TargetState::other:
      return "other";
  }
  return "other";
}

}  // namespace memkit
