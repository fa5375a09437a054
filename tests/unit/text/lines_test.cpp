#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "memkit/text.hpp"

namespace {

using memkit::count_newlines;

TEST_CASE("text: count_newlines counts LF bytes only, wherever they are") {
  CHECK(count_newlines("") == 0);
  CHECK(count_newlines("no line end") == 0);
  CHECK(count_newlines("\n") == 1);
  CHECK(count_newlines("a\r\nb\rc\n") == 2);  // CR is not a line end
  CHECK(count_newlines("\n\nx\n\n") == 4);
  CHECK(count_newlines(std::string_view("a\0\n\0b\n", 6)) == 2);  // NUL bytes do not stop it
}

TEST_CASE("text: count_newlines agrees with a byte-by-byte count on large buffers") {
  std::string bytes;
  std::uint32_t state = 12345;
  for (int i = 0; i < 1 << 20; ++i) {
    state = state * 1664525u + 1013904223u;
    bytes.push_back(static_cast<char>(state >> 24 & 0x1F ? state >> 16 : '\n'));
  }
  for (const std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{31}, bytes.size()}) {
    const std::string_view view = std::string_view(bytes).substr(cut);
    CHECK(count_newlines(view) ==
          static_cast<std::size_t>(std::count(view.begin(), view.end(), '\n')));
  }
  CHECK(count_newlines(bytes) > 1000);
}

}  // namespace
