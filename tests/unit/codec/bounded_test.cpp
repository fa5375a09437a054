// The one JSON nesting limit (json/bounded_json.hpp, docs/limits.md): text nested up to
// kJsonNestingLimit levels reads, one level more is refused with the byte where it goes too deep,
// brackets inside strings never count, and the strict reader refuses what the limit refuses.
#include <doctest/doctest.h>

#include <string>

#include "codec/bounded_json.hpp"
#include "codec/strict_json.hpp"

using memkit::detail::find_too_deep_json;
using memkit::detail::kJsonNestingLimit;
using memkit::detail::parse_bounded_json;

namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

// `depth` objects, each holding the next as "k".
std::string nested_objects(std::size_t depth) {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) out += i + 1 < depth ? "{\"k\":" : "{\"k\":1";
  return out + std::string(depth, '}');
}

}  // namespace

TEST_CASE("json nesting: the limit is reached but not passed") {
  CHECK(kJsonNestingLimit == 512);
  CHECK_FALSE(find_too_deep_json(nested(kJsonNestingLimit)));
  CHECK_FALSE(find_too_deep_json(nested_objects(kJsonNestingLimit)));
  CHECK(find_too_deep_json(nested(kJsonNestingLimit + 1)) == kJsonNestingLimit);
  CHECK(find_too_deep_json(nested_objects(kJsonNestingLimit + 1)).has_value());
  CHECK(parse_bounded_json(nested(kJsonNestingLimit)).is_array());
  // Depth is nesting, not size: many shallow values side by side are fine.
  std::string wide = "[";
  for (int i = 0; i < 10000; ++i) wide += i ? ",[1]" : "[1]";
  CHECK(parse_bounded_json(wide + "]").size() == 10000);
  CHECK_FALSE(find_too_deep_json("[" + nested(kJsonNestingLimit - 1) + "," +
                                 nested(kJsonNestingLimit - 1) + "]"));
}

TEST_CASE("json nesting: brackets in strings and escaped quotes do not count") {
  const std::string brackets(2 * kJsonNestingLimit, '[');
  CHECK_FALSE(find_too_deep_json("\"" + brackets + "\""));
  CHECK(parse_bounded_json("[\"" + brackets + "\"]").is_array());
  // An escaped quote does not end the string; an escaped backslash before the quote does.
  CHECK_FALSE(find_too_deep_json("[\"\\\"" + brackets + "\"]"));
  CHECK(find_too_deep_json("[\"\\\\\"," + brackets + "]").has_value());
}

TEST_CASE("json nesting: too deep is refused with its problem, 100,000 levels without a crash") {
  std::string problem = "not JSON";
  CHECK(parse_bounded_json(nested(100000), &problem).is_discarded());
  CHECK(problem == "nested more than 512 levels deep (at byte 512)");
  problem = "not JSON";
  CHECK(parse_bounded_json("{oops", &problem).is_discarded());
  CHECK(problem == "not JSON");  // the caller's words for JSON that does not parse
  const nlohmann::ordered_json ordered =
      parse_bounded_json<nlohmann::ordered_json>(nested_objects(100000), &problem);
  CHECK(ordered.is_discarded());
  CHECK(problem.starts_with("nested more than 512 levels deep"));
}

TEST_CASE("json nesting: the strict reader keeps the same limit") {
  std::string problem;
  CHECK(memkit::detail::parse_strict_json(nested(kJsonNestingLimit), problem));
  CHECK_FALSE(memkit::detail::parse_strict_json(nested(20000), problem));
  CHECK(problem == "nested more than 512 levels deep (at byte 512)");
}
