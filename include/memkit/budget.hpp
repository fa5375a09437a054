// Budgets as values (spec README.md "Budgets", compaction.md §5): a limit, what it measures, and
// whether the limit itself is still within (inclusive) or already over (stay under).
#pragma once

#include <cstdint>
#include <string_view>

#include "memkit/result.hpp"

namespace memkit {

// custodian token limits are inclusive (used <= limit is within); MemoryBox limits are "stay
// under" (used >= limit is over). The layout that states a budget states its bound.
enum class Bound : std::uint8_t { inclusive, stay_under };

enum class Measure : std::uint8_t { tokens, lines, items, entries };

enum class BudgetState : std::uint8_t { ok, near_limit, over_budget };

// "OK", "NEAR LIMIT", "OVER BUDGET": the words reports and JSON use.
[[nodiscard]] std::string_view budget_state_name(BudgetState state) noexcept;
[[nodiscard]] std::string_view measure_name(Measure measure) noexcept;  // "tokens", "lines", ...
[[nodiscard]] std::string_view bound_name(Bound bound) noexcept;        // "inclusive", "stay-under"

class Budget final {
 public:
  // Fails with Errc::invalid_argument when limit is 0: no usage could be within it.
  [[nodiscard]] static Result<Budget> create(std::uint64_t limit, Bound bound,
                                             Measure measure = Measure::tokens);

  [[nodiscard]] std::uint64_t limit() const noexcept { return limit_; }
  [[nodiscard]] Bound bound() const noexcept { return bound_; }
  [[nodiscard]] Measure measure() const noexcept { return measure_; }

  // OVER BUDGET by the bound; otherwise NEAR LIMIT when used * 100 >= limit * 80 (integers);
  // otherwise OK.
  [[nodiscard]] BudgetState classify(std::uint64_t used) const noexcept;

  friend bool operator==(const Budget&, const Budget&) = default;

 private:
  Budget(std::uint64_t limit, Bound bound, Measure measure) noexcept
      : limit_(limit), bound_(bound), measure_(measure) {}

  std::uint64_t limit_;
  Bound bound_;
  Measure measure_;
};

}  // namespace memkit
