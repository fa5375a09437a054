// Budget states at their boundaries (spec README.md "Budgets", compaction.md §5).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "memkit/budget.hpp"

namespace memkit {
namespace {

BudgetState classify(std::uint64_t limit, Bound bound, std::uint64_t used) {
  return Budget::create(limit, bound).value().classify(used);
}

TEST_CASE("budget: 80% of the limit is NEAR LIMIT, not OK") {
  for (const Bound bound : {Bound::inclusive, Bound::stay_under}) {
    CAPTURE(bound_name(bound));
    CHECK(classify(500, bound, 0) == BudgetState::ok);
    CHECK(classify(500, bound, 399) == BudgetState::ok);
    CHECK(classify(500, bound, 400) == BudgetState::near_limit);
    CHECK(classify(500, bound, 499) == BudgetState::near_limit);
    CHECK(classify(500, bound, 501) == BudgetState::over_budget);
  }
}

TEST_CASE("budget: an inclusive limit is still within at the limit itself") {
  CHECK(classify(500, Bound::inclusive, 500) == BudgetState::near_limit);
  CHECK(classify(500, Bound::inclusive, 501) == BudgetState::over_budget);
}

TEST_CASE("budget: a stay-under limit is already OVER BUDGET at the limit itself") {
  CHECK(classify(500, Bound::stay_under, 499) == BudgetState::near_limit);
  CHECK(classify(500, Bound::stay_under, 500) == BudgetState::over_budget);
}

TEST_CASE("budget: NEAR LIMIT rounds the 80% threshold up, as the integer rule does") {
  // 80% of 7 is 5.6: 5 tokens are OK and 6 are NEAR LIMIT (6 * 100 >= 7 * 80, 5 * 100 < 560).
  CHECK(classify(7, Bound::inclusive, 5) == BudgetState::ok);
  CHECK(classify(7, Bound::inclusive, 6) == BudgetState::near_limit);
  // A limit of 1 leaves no room for OK above zero.
  CHECK(classify(1, Bound::inclusive, 0) == BudgetState::ok);
  CHECK(classify(1, Bound::inclusive, 1) == BudgetState::near_limit);
  CHECK(classify(1, Bound::stay_under, 0) == BudgetState::ok);
  CHECK(classify(1, Bound::stay_under, 1) == BudgetState::over_budget);
}

TEST_CASE("budget: classify agrees with used * 100 >= limit * 80 for every small case") {
  for (std::uint64_t limit = 1; limit <= 1'000; ++limit) {
    for (std::uint64_t used = 0; used <= limit + 1; ++used) {
      const bool near_by_spec = used * 100 >= limit * 80;
      const BudgetState inclusive = used > limit   ? BudgetState::over_budget
                                    : near_by_spec ? BudgetState::near_limit
                                                   : BudgetState::ok;
      const BudgetState stay_under = used >= limit  ? BudgetState::over_budget
                                     : near_by_spec ? BudgetState::near_limit
                                                    : BudgetState::ok;
      if (classify(limit, Bound::inclusive, used) != inclusive ||
          classify(limit, Bound::stay_under, used) != stay_under) {
        FAIL("limit " << limit << ", used " << used);
      }
    }
  }
}

TEST_CASE("budget: values near 2^64 classify without overflow") {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  // A naive used * 100 would wrap around and call these OK.
  CHECK(classify(kMax, Bound::inclusive, kMax) == BudgetState::near_limit);
  CHECK(classify(kMax, Bound::stay_under, kMax) == BudgetState::over_budget);
  CHECK(classify(kMax, Bound::stay_under, kMax - 1) == BudgetState::near_limit);
  CHECK(classify(kMax, Bound::inclusive, kMax / 2) == BudgetState::ok);
  // kMax = 5 * 3689348814741910323, so 80% of it is exactly 4 * 3689348814741910323.
  constexpr std::uint64_t kFifth = kMax / 5;
  CHECK(classify(kMax, Bound::inclusive, 4 * kFifth) == BudgetState::near_limit);
  CHECK(classify(kMax, Bound::inclusive, 4 * kFifth - 1) == BudgetState::ok);
  // A small limit against a huge usage is plainly over, whatever the bound.
  CHECK(classify(500, Bound::inclusive, kMax) == BudgetState::over_budget);
  CHECK(classify(500, Bound::stay_under, kMax) == BudgetState::over_budget);
  // 10^18 tokens: limit * 80 alone would exceed 2^64.
  constexpr std::uint64_t kQuintillion = 1'000'000'000'000'000'000;
  CHECK(classify(kQuintillion, Bound::inclusive, kQuintillion / 10 * 8) == BudgetState::near_limit);
  CHECK(classify(kQuintillion, Bound::inclusive, kQuintillion / 10 * 8 - 1) == BudgetState::ok);
}

}  // namespace
}  // namespace memkit
