#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "memkit/tokens.hpp"

namespace {

using memkit::estimate_tokens;
using namespace std::string_view_literals;

}  // namespace

TEST_CASE("tokens: the spec §4 examples count 6, 8 and 7") {
  CHECK(estimate_tokens("Use tabs, not spaces.") == 6);
  // caf, é, ß, 記, 住, x_y, -, z
  CHECK(estimate_tokens("caf\u00E9 \u00DF \u8A18\u4F4F x_y-z") == 8);
  CHECK(estimate_tokens("snake_case2 == 3.14!") == 7);
}

TEST_CASE("tokens: a maximal run of [A-Za-z0-9_] counts once, whatever its length") {
  CHECK(estimate_tokens("") == 0);
  CHECK(estimate_tokens("a") == 1);
  CHECK(estimate_tokens("Az09_") == 1);
  CHECK(estimate_tokens("_") == 1);
  CHECK(estimate_tokens(std::string(1000, 'w')) == 1);
  CHECK(estimate_tokens("a b") == 2);
  CHECK(estimate_tokens("a-b") == 3);
  CHECK(estimate_tokens("a.b.c") == 5);
  // The bytes just outside each word range are separate tokens: / : @ [ ` {
  CHECK(estimate_tokens("0/9:A@Z[a`z{") == 12);
}

TEST_CASE("tokens: every other code point outside W counts one") {
  CHECK(estimate_tokens("--") == 2);
  CHECK(estimate_tokens("\x7F") == 1);          // DEL is not W
  CHECK(estimate_tokens("\x00"sv) == 1);        // nor is NUL
  CHECK(estimate_tokens("\x08\x0E\x1B") == 3);  // the neighbours of W's ASCII ranges
  CHECK(estimate_tokens("\xC3\xA9") == 1);      // é
  CHECK(estimate_tokens("a\xC3\xA9") == 2);     // an accented letter ends the ASCII run
  CHECK(estimate_tokens("\u00E9x") == 2);
  CHECK(estimate_tokens("x\u00E9x") == 3);
  CHECK(estimate_tokens("\xE8\xA8\x98\xE4\xBD\x8F") == 2);  // each CJK character
  CHECK(estimate_tokens("\xF0\x9F\x98\x80") == 1);          // an emoji is one code point
  CHECK(estimate_tokens("\xE2\x80\x8B") == 1);              // zero-width space is not W
}

TEST_CASE("tokens: W counts nothing and splits runs, multi-byte W included") {
  CHECK(estimate_tokens(" \t\r\n\v\f\x1C\x1D\x1E\x1F") == 0);
  CHECK(estimate_tokens("\xC2\x85\xC2\xA0\xE1\x9A\x80\xE2\x80\x80\xE2\x80\x8A\xE2\x80\xA8"
                        "\xE2\x80\xA9\xE2\x80\xAF\xE2\x81\x9F\xE3\x80\x80") == 0);
  CHECK(estimate_tokens("x\u00A0y") == 2);
  CHECK(estimate_tokens("x\u3000y") == 2);
  CHECK(estimate_tokens("line one\r\nline two\r\n") == 4);
}

TEST_CASE("tokens: a BOM counts as U+FEFF") {
  CHECK(estimate_tokens("\xEF\xBB\xBF") == 1);
  CHECK(estimate_tokens("\uFEFFword") == 2);
  CHECK(estimate_tokens("\xEF\xBB\xBF# Brief\n") == 3);
}

TEST_CASE("tokens: each maximal subpart of ill-formed UTF-8 counts one") {
  CHECK(estimate_tokens("\xFF") == 1);
  CHECK(estimate_tokens("x\xFFy") == 3);    // and it ends the ASCII run
  CHECK(estimate_tokens("\xE2\x82") == 1);  // truncated: one subpart
  CHECK(estimate_tokens("\xE2\x82z") == 2);
  CHECK(estimate_tokens("\xED\xA0\x80") == 3);      // a surrogate: three subparts
  CHECK(estimate_tokens("\xF0\x80\x80\x80") == 4);  // an overlong: four
  CHECK(estimate_tokens("\xC2 \xA0") == 2);         // not an NBSP: two subparts and a space
  CHECK(estimate_tokens("\xEF\xBF\xBD") == 1);      // a real U+FFFD counts the same
}

TEST_CASE("tokens: counts of large inputs add up exactly") {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "word, ";
  CHECK(estimate_tokens(text) == 200000);
  std::string cjk;
  for (int i = 0; i < 50000; ++i) cjk += "\xE8\xA8\x98";
  CHECK(estimate_tokens(cjk) == 50000);
}

TEST_CASE("tokens: counts do not depend on where text falls in 8-byte blocks") {
  for (std::size_t shift = 0; shift <= 17; ++shift) {
    CAPTURE(shift);
    const std::string spaces(shift, ' ');
    const std::string word(shift, 'w');
    CHECK(estimate_tokens(spaces + "snake_case2 == 3.14!") == 7);
    CHECK(estimate_tokens(spaces + "Use tabs, not spaces." + spaces) == 6);
    // One run, however it straddles block boundaries.
    CHECK(estimate_tokens(word + "x" + word) == 1);
    CHECK(estimate_tokens(spaces + "_" + word + "9" + spaces) == 1);
    // A run split by a non-ASCII letter, a separator or a multi-byte W character.
    CHECK(estimate_tokens(word + "x\u00E9x" + word) == 3);
    CHECK(estimate_tokens(word + "x-x" + word) == 3);
    CHECK(estimate_tokens(word + "x\u3000x" + word) == 2);
    CHECK(estimate_tokens(word + "x\xFFx" + word) == 3);
  }
}
