// estimate_tokens runs over every file on every status and plan, so the header promises it never
// allocates. This program replaces the global allocator to count allocations around each call.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <string>

#include "memkit/tokens.hpp"

namespace {
std::size_t allocation_count = 0;
}  // namespace

void* operator new(std::size_t size) {
  ++allocation_count;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST_CASE("tokens: estimate_tokens never allocates") {
  std::string text;
  for (int i = 0; i < 1000; ++i)
    text += "word \xC3\xA9 \xE8\xA8\x98 \xFF\xED\xA0\x80 \xEF\xBB\xBF\n";
  const std::size_t before = allocation_count;
  const std::uint64_t tokens = memkit::estimate_tokens(text);
  const std::size_t after = allocation_count;
  CHECK(after == before);
  CHECK(tokens == 8000);
  // The probe itself must work, or the check above proves nothing.
  const std::size_t probe_before = allocation_count;
  std::string probe(1000, 'x');
  CHECK(allocation_count == probe_before + 1);
}
