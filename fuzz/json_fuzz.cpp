// JSON as memkit reads it: the nesting limit (bounded_json.hpp) refuses exactly the text nested
// deeper than kJsonNestingLimit, the strict reader accepts only what nlohmann accepts, and the
// canonical form of what it reads parses back to the same value and prints the same bytes.
#include <string>

#include "codec/bounded_json.hpp"
#include "codec/canonical.hpp"
#include "codec/strict_json.hpp"
#include "fuzz_support.hpp"

namespace {

// The deepest nesting of a parsed value, counted without recursion past the limit's use.
std::size_t depth_of(const nlohmann::json& value) {
  if (!value.is_structured()) return 0;
  std::size_t deepest = 0;
  for (const nlohmann::json& item : value) deepest = std::max(deepest, depth_of(item));
  return deepest + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = memkit::fuzz::as_text(data, size);
  std::string problem;
  const nlohmann::json bounded = memkit::detail::parse_bounded_json(text, &problem);
  const bool too_deep = memkit::detail::find_too_deep_json(text).has_value();
  MEMKIT_FUZZ_CHECK(too_deep == !problem.empty());
  if (!bounded.is_discarded()) {
    MEMKIT_FUZZ_CHECK(depth_of(bounded) <= memkit::detail::kJsonNestingLimit);
  }
  const std::optional<nlohmann::json> strict = memkit::detail::parse_strict_json(text, problem);
  if (strict) {
    MEMKIT_FUZZ_CHECK(!too_deep && !bounded.is_discarded() && *strict == bounded);
    const std::string canonical = memkit::detail::canonical_dump(*strict);
    std::string again_problem;
    const std::optional<nlohmann::json> again =
        memkit::detail::parse_strict_json(canonical, again_problem);
    MEMKIT_FUZZ_CHECK(again && memkit::detail::canonical_dump(*again) == canonical);
  }
  return 0;
}
