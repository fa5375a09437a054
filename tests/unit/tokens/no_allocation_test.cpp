// estimate_tokens runs over every file on every status and plan, so the header promises it never
// allocates. This program replaces the global allocator to count allocations around each call.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include "allocation_counter.hpp"
#include "memkit/tokens.hpp"

using memkit::testing::allocation_count;

TEST_CASE("tokens: estimate_tokens never allocates") {
  std::string text;
  for (int i = 0; i < 1000; ++i)
    text += "word \xC3\xA9 \xE8\xA8\x98 \xFF\xED\xA0\x80 \xEF\xBB\xBF\n";
  const std::size_t before = allocation_count();
  const std::uint64_t tokens = memkit::estimate_tokens(text);
  const std::size_t after = allocation_count();
  CHECK(after == before);
  CHECK(tokens == 8000);
  // The probe itself must work, or the check above proves nothing.
  const std::size_t probe_before = allocation_count();
  std::string probe(1000, 'x');
  CHECK(allocation_count() == probe_before + 1);
}
