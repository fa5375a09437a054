// Building an index keeps its buffers from one text to the next: what it allocates grows with
// the tables' doublings, never with the number of words or items.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "allocation_counter.hpp"
#include "memkit/similarity.hpp"

using memkit::testing::allocation_count;

namespace {

std::size_t allocations_to_index(const std::vector<std::string>& texts) {
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  const std::size_t before = allocation_count();
  const memkit::similarity::NearDuplicateIndex index(views);
  return allocation_count() - before;
}

}  // namespace

TEST_CASE("similarity: indexing allocates per table growth, not per word or item") {
  // The same 40 words over and over: after the first text, nothing is new.
  std::string text;
  for (int i = 0; i < 40; ++i) text += "Word" + std::to_string(i % 40) + ", ";
  const std::vector<std::string> few(100, text);
  const std::vector<std::string> many(10000, text);
  const std::size_t for_few = allocations_to_index(few);
  const std::size_t for_many = allocations_to_index(many);
  CAPTURE(for_few);
  CAPTURE(for_many);
  CHECK(for_few < 100);
  CHECK(for_many < for_few + 20);  // the per-item arrays double a few more times
}
