// Uses the installed C++ API: a header from include/memkit and a function from the static library.
#include <cstdio>
#include <memkit/memkit.hpp>  // the umbrella: every installed header compiles

int main() {
  using memkit::BudgetState;
  const memkit::Result<memkit::Budget> budget =
      memkit::Budget::create(500, memkit::Bound::inclusive);
  if (!budget) {
    std::fprintf(stderr, "main.cpp: %s\n", budget.status().message().c_str());
    return 1;
  }
  // 400 of 500 is exactly 80%, and an inclusive limit still holds 500.
  const bool as_documented = budget->classify(399) == BudgetState::ok &&
                             budget->classify(400) == BudgetState::near_limit &&
                             budget->classify(500) == BudgetState::near_limit &&
                             budget->classify(501) == BudgetState::over_budget &&
                             !memkit::Budget::create(0, memkit::Bound::inclusive).ok();
  if (!as_documented) {
    std::fprintf(stderr, "main.cpp: Budget::classify disagrees with budget.hpp\n");
    return 1;
  }
  std::printf("memkit::memkit: 400 of 500 tokens is %s\n",
              memkit::budget_state_name(budget->classify(400)).data());
  return 0;
}
