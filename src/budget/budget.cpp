#include "memkit/budget.hpp"

namespace memkit {

std::string_view budget_state_name(BudgetState state) noexcept {
  switch (state) {
    case BudgetState::ok:
      return "OK";
    case BudgetState::near_limit:
      return "NEAR LIMIT";
    case BudgetState::over_budget:
      return "OVER BUDGET";
  }
  return "OK";
}

std::string_view measure_name(Measure measure) noexcept {
  switch (measure) {
    case Measure::tokens:
      return "tokens";
    case Measure::lines:
      return "lines";
    case Measure::items:
      return "items";
    case Measure::entries:
      return "entries";
  }
  return "tokens";
}

std::string_view bound_name(Bound bound) noexcept {
  return bound == Bound::inclusive ? "inclusive" : "stay-under";
}

Result<Budget> Budget::create(std::uint64_t limit, Bound bound, Measure measure) {
  if (limit == 0) return Status(Errc::invalid_argument, "budget limit must be positive");
  return Budget(limit, bound, measure);
}

BudgetState Budget::classify(std::uint64_t used) const noexcept {
  const bool over = bound_ == Bound::inclusive ? used > limit_ : used >= limit_;
  if (over) return BudgetState::over_budget;
  // used * 100 >= limit * 80 is used >= ceil(limit * 4 / 5), which is limit - floor(limit / 5):
  // the same integer rule with no product that could overflow for any 64-bit limit.
  if (used >= limit_ - limit_ / 5) return BudgetState::near_limit;
  return BudgetState::ok;
}

}  // namespace memkit
