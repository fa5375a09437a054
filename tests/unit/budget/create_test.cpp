// Building budgets and naming their parts (spec README.md "Budgets").
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "memkit/budget.hpp"

namespace memkit {
namespace {

TEST_CASE("budget: a limit of 0 is rejected, since no usage could be within it") {
  for (const Bound bound : {Bound::inclusive, Bound::stay_under}) {
    const Result<Budget> budget = Budget::create(0, bound);
    REQUIRE_FALSE(budget.ok());
    CHECK(budget.status().code() == Errc::invalid_argument);
    CHECK(budget.status().message() == "budget limit must be positive");
  }
}

TEST_CASE("budget: any positive 64-bit limit is accepted") {
  for (const std::uint64_t limit :
       {std::uint64_t{1}, std::uint64_t{1} << 48, (std::uint64_t{1} << 48) + 1,
        std::numeric_limits<std::uint64_t>::max()}) {
    CAPTURE(limit);
    const Result<Budget> budget = Budget::create(limit, Bound::inclusive);
    REQUIRE(budget.ok());
    CHECK(budget->limit() == limit);
  }
}

TEST_CASE("budget: a budget keeps its limit, bound and measure") {
  const Budget lines = Budget::create(200, Bound::stay_under, Measure::lines).value();
  CHECK(lines.limit() == 200);
  CHECK(lines.bound() == Bound::stay_under);
  CHECK(lines.measure() == Measure::lines);
  CHECK(Budget::create(500, Bound::inclusive).value().measure() == Measure::tokens);
}

TEST_CASE("budget: budgets are equal only when limit, bound and measure all are") {
  const Budget base = Budget::create(500, Bound::inclusive).value();
  CHECK(base == Budget::create(500, Bound::inclusive, Measure::tokens).value());
  CHECK_FALSE(base == Budget::create(501, Bound::inclusive).value());
  CHECK_FALSE(base == Budget::create(500, Bound::stay_under).value());
  CHECK_FALSE(base == Budget::create(500, Bound::inclusive, Measure::lines).value());
}

TEST_CASE("budget: states, measures and bounds have the names reports print") {
  CHECK(budget_state_name(BudgetState::ok) == "OK");
  CHECK(budget_state_name(BudgetState::near_limit) == "NEAR LIMIT");
  CHECK(budget_state_name(BudgetState::over_budget) == "OVER BUDGET");
  CHECK(measure_name(Measure::tokens) == "tokens");
  CHECK(measure_name(Measure::lines) == "lines");
  CHECK(measure_name(Measure::items) == "items");
  CHECK(measure_name(Measure::entries) == "entries");
  CHECK(bound_name(Bound::inclusive) == "inclusive");
  CHECK(bound_name(Bound::stay_under) == "stay-under");
}

}  // namespace
}  // namespace memkit
