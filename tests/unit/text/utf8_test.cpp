#include <doctest/doctest.h>

#include <cstddef>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/text.hpp"

namespace {

using namespace std::string_view_literals;

struct Step {
  char32_t cp;
  std::size_t size;
  friend bool operator==(const Step&, const Step&) = default;
};

std::ostream& operator<<(std::ostream& os, const Step& step) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "{U+%04X, %zu}", static_cast<unsigned>(step.cp), step.size);
  return os << buf;
}

std::ostream& operator<<(std::ostream& os, const std::vector<Step>& steps) {
  for (const Step& step : steps) os << step;
  return os;
}

// Every step decode_utf8 takes over bytes: what it read and how many bytes it consumed.
std::vector<Step> decode_steps(std::string_view bytes) {
  std::vector<Step> steps;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const std::size_t before = pos;
    const char32_t cp = memkit::decode_utf8(bytes, pos);
    steps.push_back({cp, pos - before});
  }
  return steps;
}

constexpr char32_t kBad = U'\uFFFD';

}  // namespace

TEST_CASE("text: decode_utf8 reads the first and last code point of each encoded length") {
  CHECK(decode_steps("\x00"sv) == std::vector<Step>{{0x00, 1}});
  CHECK(decode_steps("\x7F") == std::vector<Step>{{0x7F, 1}});
  CHECK(decode_steps("\xC2\x80") == std::vector<Step>{{0x80, 2}});
  CHECK(decode_steps("\xDF\xBF") == std::vector<Step>{{0x7FF, 2}});
  CHECK(decode_steps("\xE0\xA0\x80") == std::vector<Step>{{0x800, 3}});
  CHECK(decode_steps("\xED\x9F\xBF") == std::vector<Step>{{0xD7FF, 3}});
  CHECK(decode_steps("\xEE\x80\x80") == std::vector<Step>{{0xE000, 3}});
  CHECK(decode_steps("\xEF\xBF\xBF") == std::vector<Step>{{0xFFFF, 3}});
  CHECK(decode_steps("\xF0\x90\x80\x80") == std::vector<Step>{{0x10000, 4}});
  CHECK(decode_steps("\xF4\x8F\xBF\xBF") == std::vector<Step>{{0x10FFFF, 4}});
  CHECK(decode_steps("\xEF\xBF\xBD") == std::vector<Step>{{0xFFFD, 3}});  // a real U+FFFD
}

// Expected steps come from python3: bytes.decode("utf-8", handler) with an error handler that
// records each (start, end) it is given.
TEST_CASE("text: decode_utf8 replaces each maximal subpart with one U+FFFD, as python3 does") {
  SUBCASE("a byte that cannot follow the lead ends the subpart at the lead") {
    CHECK(decode_steps("\xC0\xAF") == std::vector<Step>{{kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xE0\x80\xAF") == std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xE0\x9F\xBF") == std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xF0\x8F\xBF\xBF") ==
          std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xF0\x80\x80") == std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xC2\x41") == std::vector<Step>{{kBad, 1}, {'A', 1}});
  }
  SUBCASE("surrogates are three subparts") {
    CHECK(decode_steps("\xED\xA0\x80") == std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xED\xBF\xBF") == std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}});
  }
  SUBCASE("above U+10FFFF, and bytes that never start a character") {
    CHECK(decode_steps("\xF4\x90") == std::vector<Step>{{kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xF4\x90\x80\x80") ==
          std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xF5\x80\x80\x80") ==
          std::vector<Step>{{kBad, 1}, {kBad, 1}, {kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xF8\x88\x80\x80\x80").size() == 5);
    CHECK(decode_steps("\x80\xBF") == std::vector<Step>{{kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xFE\xFF") == std::vector<Step>{{kBad, 1}, {kBad, 1}});
    CHECK(decode_steps("\xC1\xBF") == std::vector<Step>{{kBad, 1}, {kBad, 1}});
  }
  SUBCASE("a truncated well-formed prefix is one subpart, at the end or before another byte") {
    CHECK(decode_steps("\xE2\x82") == std::vector<Step>{{kBad, 2}});
    CHECK(decode_steps("\xE2\x82z") == std::vector<Step>{{kBad, 2}, {'z', 1}});
    CHECK(decode_steps("\xF0\x9F") == std::vector<Step>{{kBad, 2}});
    CHECK(decode_steps("\xF0\x9F\x98") == std::vector<Step>{{kBad, 3}});
    CHECK(decode_steps("\xF0\x9F\x98z") == std::vector<Step>{{kBad, 3}, {'z', 1}});
    CHECK(decode_steps("\xF4\x8F\xBF") == std::vector<Step>{{kBad, 3}});
    CHECK(decode_steps("\xC2") == std::vector<Step>{{kBad, 1}});
    CHECK(decode_steps("\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41") ==
          std::vector<Step>{{kBad, 2}, {kBad, 1}, {kBad, 3}, {kBad, 2}, {'A', 1}});
  }
  SUBCASE("Unicode Table 3-8's example") {
    CHECK(decode_steps("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64") ==
          std::vector<Step>{{'a', 1},
                            {kBad, 3},
                            {kBad, 2},
                            {kBad, 1},
                            {'b', 1},
                            {kBad, 1},
                            {'c', 1},
                            {kBad, 1},
                            {kBad, 1},
                            {'d', 1}});
  }
}

TEST_CASE("text: decode_utf8 starts at pos and never reads before it") {
  const std::string_view bytes = "\xE2\x82\xAC\xE2\x82\xAC";  // two euro signs
  std::size_t pos = 3;
  CHECK(memkit::decode_utf8(bytes, pos) == 0x20AC);
  CHECK(pos == 6);
  pos = 1;  // inside the first character: its continuation bytes read as stray ones
  CHECK(memkit::decode_utf8(bytes, pos) == kBad);
  CHECK(pos == 2);
}

TEST_CASE("text: find_invalid_utf8 accepts well-formed text of every length") {
  CHECK(memkit::find_invalid_utf8("") == std::nullopt);
  CHECK(memkit::find_invalid_utf8("plain ascii") == std::nullopt);
  CHECK(memkit::find_invalid_utf8("\uFEFFcaf\u00E9 \u8A18 \U0001F600") == std::nullopt);
  CHECK(memkit::find_invalid_utf8("\x00\x7F"sv) == std::nullopt);
  // A multi-byte character placed across every 8- and 16-byte block boundary of the fast path.
  for (std::size_t offset = 0; offset < 40; ++offset) {
    std::string text(offset, 'x');
    text += "\xF0\x9F\x98\x80";
    text.append(37 - offset % 37, 'y');
    CAPTURE(offset);
    CHECK(memkit::find_invalid_utf8(text) == std::nullopt);
  }
}

TEST_CASE("text: find_invalid_utf8 finds a bad byte at every offset of an ASCII run") {
  for (std::size_t length = 1; length <= 70; ++length) {
    for (std::size_t offset = 0; offset < length; ++offset) {
      std::string text(length, 'a');
      text[offset] = '\x80';
      CAPTURE(length);
      CAPTURE(offset);
      REQUIRE(memkit::find_invalid_utf8(text) == offset);
    }
  }
}

TEST_CASE("text: find_invalid_utf8 draws each boundary of Unicode Table 3-7") {
  struct Case {
    std::string_view bytes;
    std::optional<std::size_t> first_bad;
  };
  const Case cases[] = {
      {"\xC2\x80", std::nullopt},
      {"\xC1\xBF", 0},  // overlong 2-byte
      {"\xC0\x80", 0},
      {"\xDF\xBF", std::nullopt},
      {"\xE0\xA0\x80", std::nullopt},
      {"\xE0\x9F\xBF", 0},  // overlong 3-byte
      {"\xED\x9F\xBF", std::nullopt},
      {"\xED\xA0\x80", 0},  // first surrogate
      {"\xED\xBF\xBF", 0},
      {"\xEE\x80\x80", std::nullopt},
      {"\xF0\x90\x80\x80", std::nullopt},
      {"\xF0\x8F\xBF\xBF", 0},  // overlong 4-byte
      {"\xF4\x8F\xBF\xBF", std::nullopt},
      {"\xF4\x90\x80\x80", 0},  // above U+10FFFF
      {"\xF5\x80\x80\x80", 0},
      {"\xFF", 0},
      {"\x80", 0},
      {"\xBF", 0},  // stray continuation bytes
      {"ab\xE2\x82", 2},
      {"ab\xE2\x82\xAC\xE2", 5},  // truncated at the end
      {"\xE2\x82z", 0},
      {"\xF0\x9F\x98\x80\xF0\x9F\x98", 4},
      {"\xC3\xA9\xC3", 2},
      {"\xC3\xA9\xA9", 2},
  };
  for (const Case& c : cases) {
    CAPTURE(c.bytes);
    CHECK(memkit::find_invalid_utf8(c.bytes) == c.first_bad);
  }
}

TEST_CASE("text: find_invalid_utf8 reports the first of several ill-formed sequences") {
  CHECK(memkit::find_invalid_utf8("0123456789abcdef0123456789\xFF\xFF") == 26);
  CHECK(memkit::find_invalid_utf8("\xC3\xA9\xC3\xA9 ok \xED\xA0\x80 then \xFF") == 8);
}

TEST_CASE("text: to_valid_utf8 keeps well-formed bytes and replaces each subpart") {
  CHECK(memkit::to_valid_utf8("") == "");
  CHECK(memkit::to_valid_utf8("caf\xC3\xA9 \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xF0\x9F\x98\x80");
  CHECK(memkit::to_valid_utf8("\xE2\x82") == "\xEF\xBF\xBD");
  CHECK(memkit::to_valid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(memkit::to_valid_utf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64") ==
        "a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd");
  const std::string long_tail = std::string(50, 'x') + "\xFF" + std::string(50, 'y');
  CHECK(memkit::to_valid_utf8(long_tail) ==
        std::string(50, 'x') + "\xEF\xBF\xBD" + std::string(50, 'y'));
  // NUL is well-formed and must survive the copy.
  CHECK(memkit::to_valid_utf8("a\x00\xFF"sv) == "a\x00\xEF\xBF\xBD"sv);
}

TEST_CASE("text: append_utf8 writes the shortest form and U+FFFD for non-scalar values") {
  std::string out = "<";
  memkit::append_utf8(0x24, out);
  memkit::append_utf8(0x7FF, out);
  memkit::append_utf8(0x800, out);
  memkit::append_utf8(0xFFFF, out);
  memkit::append_utf8(0x10000, out);
  memkit::append_utf8(0x10FFFF, out);
  CHECK(out == "<$\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF");

  std::string replaced;
  memkit::append_utf8(0xD800, replaced);
  memkit::append_utf8(0xDFFF, replaced);
  memkit::append_utf8(0x110000, replaced);
  CHECK(replaced == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");

  std::string nul;
  memkit::append_utf8(0, nul);
  CHECK(nul == "\x00"sv);
}

TEST_CASE("text: append_utf8 and decode_utf8 round-trip every scalar value") {
  std::string encoded;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp == 0xD800) cp = 0xE000;
    encoded.clear();
    memkit::append_utf8(cp, encoded);
    std::size_t pos = 0;
    const char32_t back = memkit::decode_utf8(encoded, pos);
    if (back != cp || pos != encoded.size()) {
      FAIL("U+" << static_cast<unsigned>(cp) << " does not round-trip");
    }
  }
}

TEST_CASE("text: plain text is well-formed UTF-8 without NUL, and a refusal names the byte") {
  using memkit::check_plain_text;
  using memkit::Errc;
  using memkit::Status;
  CHECK(check_plain_text("x", "caf\xC3\xA9 \xE8\xA8\x98").ok());
  CHECK(check_plain_text("x", "").ok());
  const Status bad = check_plain_text("--reason", "ok \xC3(");
  CHECK(bad.code() == Errc::invalid_argument);
  CHECK(bad.message() == "--reason: invalid UTF-8 at byte 3");
  CHECK(check_plain_text("topic", std::string_view("ab\0c", 4)).message() ==
        "topic: a NUL byte at byte 2");
}
