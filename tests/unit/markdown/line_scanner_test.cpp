// The parser's vectorised line walk gives exactly LineCursor's lines, wherever line ends fall
// relative to its 64-byte windows.
#include "markdown/line_scanner.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "memkit/markdown.hpp"

TEST_CASE("markdown: the line scanner and LineCursor agree on every line of random text") {
  std::mt19937 rng(64);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const auto lines = static_cast<int>(rng() % 12);
    for (int i = 0; i < lines; ++i) {
      // Line lengths around the window size, so ends land on and near every boundary.
      text += std::string(rng() % 150, static_cast<char>('a' + rng() % 26));
      const auto end = rng() % 5;
      text += end == 0 ? "\r\n" : end == 1 ? "\r" : "\n";
    }
    if (rng() % 3 == 0) text += std::string(rng() % 70, 'z');  // an unterminated last line
    const std::size_t begin = rng() % 4 == 0 ? std::min<std::size_t>(3, text.size()) : 0;
    CAPTURE(text);
    memkit::LineCursor cursor(text, begin, text.size(), 1);
    memkit::detail::LineScanner scanner(text, begin, 1);
    memkit::Line want{};
    memkit::Line got{};
    while (cursor.next(want)) {
      REQUIRE(scanner.next(got));
      CHECK(got.number == want.number);
      CHECK(got.begin == want.begin);
      CHECK(got.content == want.content);
      CHECK(got.terminator == want.terminator);
    }
    CHECK_FALSE(scanner.next(got));
  }
}
