#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>

#include "memkit/tokens.hpp"

namespace {

// A host-supplied counter: one token per byte, to prove callers go through the interface.
class ByteCounter final : public memkit::TokenCounter {
 public:
  [[nodiscard]] std::uint64_t count(std::string_view utf8) const override { return utf8.size(); }
};

std::uint64_t count_with(const memkit::TokenCounter& counter, std::string_view text) {
  return counter.count(text);
}

}  // namespace

TEST_CASE("tokens: the default counter is the estimate, and one shared instance") {
  const memkit::TokenCounter& counter = memkit::default_token_counter();
  CHECK(&counter == &memkit::default_token_counter());
  CHECK(dynamic_cast<const memkit::EstimateTokenCounter*>(&counter) != nullptr);
  for (std::string_view text : {"", "Use tabs, not spaces.", "snake_case2 == 3.14!", "\xFF\xFE"}) {
    CAPTURE(text);
    CHECK(counter.count(text) == memkit::estimate_tokens(text));
  }
}

TEST_CASE("tokens: a host counter replaces the estimate through TokenCounter") {
  const ByteCounter bytes;
  const memkit::EstimateTokenCounter estimate;
  CHECK(count_with(bytes, "Use tabs, not spaces.") == 21);
  CHECK(count_with(estimate, "Use tabs, not spaces.") == 6);
}
