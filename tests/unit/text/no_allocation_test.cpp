// text.hpp promises that nothing allocates unless it returns a std::string: the checks, decoding
// and strips run on every line of every file. This program replaces the global allocator to count
// allocations around each call.
#include <doctest/doctest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "allocation_counter.hpp"
#include "memkit/text.hpp"

using memkit::testing::allocation_count;

TEST_CASE("text: the checks, decoding and strips never allocate") {
  std::string text = "\xC2\xA0 ";
  for (int i = 0; i < 200; ++i) text += "Stra\u00DFe \u8A18 \U0001F600 ascii run ";
  text += "\xE3\x80\x80";
  std::string broken = text + "\xED\xA0\x80";

  const std::size_t before = allocation_count();
  const std::optional<std::size_t> valid = memkit::find_invalid_utf8(text);
  const std::optional<std::size_t> invalid = memkit::find_invalid_utf8(broken);
  std::size_t pos = 0;
  std::size_t characters = 0;
  while (pos < broken.size()) {
    (void)memkit::decode_utf8(broken, pos);
    ++characters;
  }
  const std::string_view stripped = memkit::strip_w(text);
  const std::string_view left = memkit::lstrip_w(text);
  const std::string_view right = memkit::rstrip_w(text);
  const std::size_t after = allocation_count();

  CHECK(after == before);
  CHECK(valid == std::nullopt);
  CHECK(invalid == text.size());
  CHECK(characters == 200 * 21 + 2 + 1 + 3);
  CHECK(stripped.size() == text.size() - 7);
  CHECK(left.size() == text.size() - 3);
  CHECK(right.size() == text.size() - 4);

  const std::size_t probe_before = allocation_count();  // the probe must see a real allocation
  CHECK(memkit::casefold(text).size() > 1000);
  CHECK(allocation_count() > probe_before);
}
