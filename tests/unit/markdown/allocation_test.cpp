// "No allocation per line" (issue 2): parsing allocates per unit and per document, never per line.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "allocation_counter.hpp"
#include "memkit/markdown.hpp"

using memkit::testing::allocation_count;

namespace {

// Allocations made by parse_markdown alone (the input buffer is made beforehand).
std::size_t allocations_to_parse(const std::string& text) {
  const auto bytes = std::make_shared<const std::string>(text);
  const std::size_t before = allocation_count();
  const memkit::Document doc = memkit::parse_markdown(bytes);
  const std::size_t used = allocation_count() - before;
  REQUIRE(doc.parseable());
  return used;
}

}  // namespace

TEST_CASE("markdown: a unit of 100000 lines costs no more allocations than one of 10") {
  auto one_unit = [](int lines) {
    std::string text = "# Title\n\n- item\n";
    for (int i = 0; i < lines; ++i) text += "  continuation line with some words\n";
    text += "  ```\n  - fenced\n  ```\n<!-- note -->\n";
    return text;
  };
  const std::size_t small = allocations_to_parse(one_unit(10));
  const std::size_t large = allocations_to_parse(one_unit(100000));
  CHECK(small > 0);  // the counter sees the document itself
  CHECK(large == small);
}

TEST_CASE("markdown: allocations grow with units, not with bytes or lines") {
  auto units = [](int count, int lines_each) {
    std::string text;
    for (int i = 0; i < count; ++i) {
      text += "- unit " + std::to_string(i) + "\n";
      for (int l = 0; l < lines_each; ++l) text += "  more text on this line\n";
    }
    return text;
  };
  // The unit list is reserved from the byte count and grows geometrically beyond that, so more
  // lines never cost more allocations, and 1000 units need at most about log2(1000) of them.
  CHECK(allocations_to_parse(units(1000, 50)) <= allocations_to_parse(units(1000, 1)));
  CHECK(allocations_to_parse(units(1000, 1)) < 40);
  CHECK(allocations_to_parse(units(1000, 50)) < 10);
}
