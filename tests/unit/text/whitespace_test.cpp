#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "memkit/text.hpp"

namespace {

using namespace std::string_view_literals;

// Returns true iff view lies inside whole: the strip functions must return views, never copies.
bool is_view_into(std::string_view whole, std::string_view view) {
  return view.data() >= whole.data() && view.data() + view.size() <= whole.data() + whole.size();
}

}  // namespace

TEST_CASE("text: is_w is exactly the set of spec §2.2") {
  // Listed once more, by hand from the spec, so a typo in either copy shows up.
  constexpr std::array<char32_t, 25> kW = {
      0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x1C,   0x1D,   0x1E,   0x1F,
      0x20,   0x85,   0xA0,   0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
      0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028,
  };
  constexpr std::array<char32_t, 4> kMoreW = {0x2029, 0x202F, 0x205F, 0x3000};
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    const bool listed = std::find(kW.begin(), kW.end(), cp) != kW.end() ||
                        std::find(kMoreW.begin(), kMoreW.end(), cp) != kMoreW.end();
    if (memkit::is_w(cp) != listed) FAIL("is_w(U+" << static_cast<unsigned>(cp) << ") is wrong");
  }
  // Look-alikes that are not W: zero-width space, BOM, Mongolian vowel separator, NUL, DEL.
  CHECK_FALSE(memkit::is_w(0x200B));
  CHECK_FALSE(memkit::is_w(0xFEFF));
  CHECK_FALSE(memkit::is_w(0x180E));
  CHECK_FALSE(memkit::is_w(0x00));
  CHECK_FALSE(memkit::is_w(0x7F));
  CHECK_FALSE(memkit::is_w(0x110000 + 0x20));
}

TEST_CASE("text: strip_w removes ASCII and multi-byte W from both ends only") {
  CHECK(memkit::strip_w("") == "");
  CHECK(memkit::strip_w(" \t\r\n\v\f") == "");
  CHECK(memkit::strip_w("  a b  ") == "a b");
  CHECK(memkit::strip_w("\x1C\x1Fx\x1D") == "x");
  // U+00A0, U+3000, U+2028, U+0085, U+1680, U+205F: 2- and 3-byte W characters.
  CHECK(memkit::strip_w("\xC2\xA0 x \xE3\x80\x80") == "x");
  CHECK(memkit::strip_w("\u2028x\u0085") == "x");
  CHECK(memkit::strip_w("\u1680x\u202Fy\u205F") == "x\u202Fy");
  CHECK(memkit::strip_w("\xC2\xA0\xC2\xA0") == "");
  // Zero-width space and the BOM are not W.
  CHECK(memkit::strip_w("\u200Bx ") == "\u200Bx");
  CHECK(memkit::strip_w("\uFEFFx") == "\uFEFFx");

  const std::string_view text = "\xE3\x80\x80 word\t";
  CHECK(is_view_into(text, memkit::strip_w(text)));
}

TEST_CASE("text: strip_w never strips ill-formed bytes, even W look-alikes") {
  CHECK(memkit::strip_w("\xA0x\xA0") == "\xA0x\xA0");    // NBSP without its lead byte
  CHECK(memkit::strip_w("x\xC2") == "x\xC2");            // a lead byte with no continuation
  CHECK(memkit::strip_w("x\xE2\x80") == "x\xE2\x80");    // truncated U+2000
  CHECK(memkit::strip_w("\xE3\x80 x") == "\xE3\x80 x");  // truncated U+3000 before a space
  CHECK(memkit::strip_w("x\xE3\x80\x80\x80") == "x\xE3\x80\x80\x80");  // U+3000, then a stray byte
  CHECK(memkit::strip_w("x\x80\xE3\x80\x80") == "x\x80");              // a stray byte, then U+3000
  CHECK(memkit::strip_w("\xE2\xC2\xA0") == "\xE2");    // E2 is its own subpart; NBSP goes
  CHECK(memkit::strip_w("\xC0\xA0x") == "\xC0\xA0x");  // an overlong space is not a space
  CHECK(memkit::strip_w("\xE0\x80\xA0x") == "\xE0\x80\xA0x");
}

TEST_CASE("text: lstrip_w and rstrip_w each leave the other end alone") {
  const std::string_view text = "\xC2\xA0 a \xE2\x80\xA9";
  CHECK(memkit::lstrip_w(text) == "a \xE2\x80\xA9");
  CHECK(memkit::rstrip_w(text) == "\xC2\xA0 a");
  CHECK(is_view_into(text, memkit::lstrip_w(text)));
  CHECK(is_view_into(text, memkit::rstrip_w(text)));
  CHECK(memkit::rstrip_w("  ") == "");
  CHECK(memkit::lstrip_w("  ") == "");
  CHECK(memkit::rstrip_w("- item  \r") == "- item");  // the CR of a CRLF line is W
  CHECK(memkit::lstrip_w("\t  - b") == "- b");
  CHECK(memkit::rstrip_w("a\x00 "sv) == "a\x00"sv);  // NUL is content
}

TEST_CASE("text: collapse_w turns each W run into one space and strips") {
  CHECK(memkit::collapse_w("") == "");
  CHECK(memkit::collapse_w(" \t\n") == "");
  CHECK(memkit::collapse_w("a") == "a");
  CHECK(memkit::collapse_w("  a \t\n b  ") == "a b");
  CHECK(memkit::collapse_w("x\u00A0\u3000y") == "x y");
  CHECK(memkit::collapse_w("\u2028x\r\ny\u2029") == "x y");
  CHECK(memkit::collapse_w("one  two   three") == "one two three");
  CHECK(memkit::collapse_w("x\u200By") == "x\u200By");  // ZWSP is not W
}

TEST_CASE("text: collapse_w copies ill-formed bytes unchanged") {
  CHECK(memkit::collapse_w("a \xFF  b") == "a \xFF b");
  CHECK(memkit::collapse_w(" \xE2\x82 ") == "\xE2\x82");
  CHECK(memkit::collapse_w("\xC2 \xA0") == "\xC2 \xA0");  // neither byte is an NBSP here
}
