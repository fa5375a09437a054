// Token counting (spec compaction.md §4). memkit's estimate is the reference rule; a host that has
// a real tokenizer supplies its own TokenCounter and every budget decision uses that instead.
#pragma once

#include <cstdint>
#include <string_view>

namespace memkit {

// The estimate over the decoded text (a BOM counts as U+FEFF): each maximal run of ASCII
// [A-Za-z0-9_] counts 1, every other code point outside W counts 1, and W counts 0. Ill-formed
// UTF-8 is read as U+FFFD per maximal subpart, so each such subpart counts 1.
[[nodiscard]] std::uint64_t estimate_tokens(std::string_view utf8) noexcept;

// A token counter the host may replace. Implementations must be pure: the same text always gives
// the same count, or plans stop being reproducible.
class TokenCounter {
 public:
  virtual ~TokenCounter() = default;
  [[nodiscard]] virtual std::uint64_t count(std::string_view utf8) const = 0;
};

// The default counter: estimate_tokens().
class EstimateTokenCounter final : public TokenCounter {
 public:
  [[nodiscard]] std::uint64_t count(std::string_view utf8) const override {
    return estimate_tokens(utf8);
  }
};

// Returns the process-wide default counter (an EstimateTokenCounter; stateless, so sharing is
// safe).
[[nodiscard]] const TokenCounter& default_token_counter() noexcept;

}  // namespace memkit
