// Words of the near-duplicate search (spec memorybox.md §4): case folding first, then maximal runs
// of Lu, Ll, Lt, Lm, Lo, Nd and `_` (Unicode 15.0.0); everything else, U+FFFD included, splits.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/similarity.hpp"
#include "memkit/text.hpp"
#include "similarity/word_chars.hpp"

namespace {

using memkit::similarity::words;
using Words = std::vector<std::string>;

std::string utf8(char32_t cp) {
  std::string out;
  memkit::append_utf8(cp, out);
  return out;
}

}  // namespace

TEST_CASE("similarity: ASCII words are letters, digits and _, split by everything else") {
  CHECK(words("Hello, world! foo_bar 42x-y") == Words{"hello", "world", "foo_bar", "42x", "y"});
  CHECK(words("don't") == Words{"don", "t"});
  CHECK(words("a.b/c\\d:e;f@g#h$i%j^k&l*m(n)o[p]q{r}s<t>u=v+w~x`y|z?0!9\"") ==
        Words{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
              "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "0", "9"});
  CHECK(words("__init__ x_1") == Words{"__init__", "x_1"});
  CHECK(words("  \t\n tabs\r\nand\vspaces\f ") == Words{"tabs", "and", "spaces"});
  CHECK(words("MiXeD CASE") == Words{"mixed", "case"});
}

TEST_CASE("similarity: texts without a word have no words") {
  CHECK(words("").empty());
  CHECK(words(" \t\n").empty());
  CHECK(words("--- *** ... !?").empty());
  CHECK(words("\xF0\x9F\x98\x80 \xE2\x80\x94").empty());  // an emoji and an em dash
}

TEST_CASE("similarity: words are case-folded fully, so Strasse matches in every spelling") {
  CHECK(words("Stra\u00DFe") == Words{"strasse"});
  CHECK(words("STRASSE") == Words{"strasse"});
  CHECK(words("stra\u1E9Ee") == Words{"strasse"});     // capital sharp s
  CHECK(words("\xEF\xAC\x83x") == Words{"ffix"});      // the ﬃ ligature
  CHECK(words("\xCE\xA3\xCE\x91\xCE\xA3 \xCF\x82") ==  // ΣΑΣ ς
        Words{"\xCF\x83\xCE\xB1\xCF\x83", "\xCF\x83"});
  CHECK(words("\xC7\x85") == Words{"\xC7\x86"});                  // Lt: ǅ folds to ǆ
  CHECK(words("\xF0\x90\x90\x80") == Words{"\xF0\x90\x90\xA8"});  // Deseret, outside the BMP
}

TEST_CASE("similarity: the categories are read after folding") {
  // U+0345 COMBINING GREEK YPOGEGRAMMENI is Mn, a separator, but it folds to U+03B9 (Ll).
  CHECK(words("a\u0345b") == Words{"a\u03B9b"});
  // ΐ folds to ι and two combining marks (Mn): the marks split.
  CHECK(words("x\u0390y") == Words{"x\u03B9", "y"});
  // İ folds to i and a combining dot above (Mn).
  CHECK(words("\u0130x") == Words{"i", "x"});
}

TEST_CASE("similarity: letters of every kind and decimal digits of every script make words") {
  CHECK(words("a\u02B0b") == Words{"a\u02B0b"});  // Lm: modifier letter small h
  CHECK(words("x\u3005y") == Words{"x\u3005y"});  // Lm: ideographic iteration mark
  CHECK(words("\u8A18\u4F4F \u8A18\u61B6") == Words{"\u8A18\u4F4F", "\u8A18\u61B6"});  // Lo
  CHECK(words("\u3072\u3089\u304C\u306A") == Words{"\u3072\u3089\u304C\u306A"});  // Hiragana Lo
  CHECK(words("\u05E9\u05DC\u05D5\u05DD") == Words{"\u05E9\u05DC\u05D5\u05DD"});  // Hebrew Lo
  CHECK(words("\u0661\u0662\u0663-\u0967") == Words{"\u0661\u0662\u0663", "\u0967"});  // Nd
  CHECK(words("v" + utf8(0x1D7CE)) == Words{"v" + utf8(0x1D7CE)});  // Nd: mathematical bold 0
  CHECK(words(utf8(0x20000) + utf8(0x2A6DF)) == Words{utf8(0x20000) + utf8(0x2A6DF)});
  CHECK(words(utf8(0x1E900)) == Words{utf8(0x1E922)});  // Adlam folds and is a letter
}

TEST_CASE("similarity: marks, other numbers, symbols and connectors other than _ split words") {
  CHECK(words("e\u0301t\u00E9") == Words{"e", "t\u00E9"});  // Mn combining acute
  CHECK(words("x\u00B2y") == Words{"x", "y"});              // No: superscript two
  CHECK(words("x\u216Bz") == Words{"x", "z"});              // Nl: Roman numeral twelve
  CHECK(words("x\u203Fy") == Words{"x", "y"});              // Pc: undertie
  CHECK(words("x\u00A0y\u3000z") == Words{"x", "y", "z"});  // spaces
  CHECK(words("x\u200By") == Words{"x", "y"});              // Cf: zero width space
  CHECK(words("x\u00ADy") == Words{"x", "y"});              // Cf: soft hyphen
}

TEST_CASE("similarity: letters first assigned in Unicode 15.0 are letters") {
  CHECK(words("a" + utf8(0x11F04) + "b") == Words{"a" + utf8(0x11F04) + "b"});  // Kawi
  CHECK(words(utf8(0x1E4D0)) == Words{utf8(0x1E4D0)});                          // Nag Mundari
  CHECK(words(utf8(0x31350) + utf8(0x323AF)) == Words{utf8(0x31350) + utf8(0x323AF)});  // CJK H
}

TEST_CASE("similarity: ill-formed UTF-8 reads as U+FFFD and splits words") {
  CHECK(words("abc\xFF"
              "def") == Words{"abc", "def"});
  CHECK(words("abc\xE2\x82") == Words{"abc"});
  CHECK(words("\xC3") == Words{});
  CHECK(words("ab\xED\xA0\x80"
              "cd") == Words{"ab", "cd"});  // a surrogate
  CHECK(words("ab\xEF\xBF\xBD"
              "cd") == Words{"ab", "cd"});  // U+FFFD itself (So)
  CHECK(words("\xC3\xA9t\xC3\xA9") == Words{"\xC3\xA9t\xC3\xA9"});
}

TEST_CASE("similarity: the word table's range edges, in and outside the BMP") {
  using memkit::similarity::detail::is_word_code_point;
  CHECK(is_word_code_point(U'_'));
  CHECK(is_word_code_point(0x0377));
  CHECK_FALSE(is_word_code_point(0x0378));  // unassigned
  CHECK(is_word_code_point(0x4DBF));        // last of CJK Extension A
  CHECK_FALSE(is_word_code_point(0x4DC0));  // a hexagram (So)
  CHECK(is_word_code_point(0x9FFF));
  CHECK(is_word_code_point(0xFFDC));
  CHECK_FALSE(is_word_code_point(0xFFFD));
  CHECK_FALSE(is_word_code_point(0xFFFF));
  CHECK(is_word_code_point(0x10000));  // Linear B, the first supplementary letter
  CHECK_FALSE(is_word_code_point(0x1000C));
  CHECK(is_word_code_point(0x1FBF9));  // segmented digit nine (Nd)
  CHECK_FALSE(is_word_code_point(0x1FBFA));
  CHECK(is_word_code_point(0x323AF));
  CHECK_FALSE(is_word_code_point(0x323B0));
  CHECK_FALSE(is_word_code_point(0x10FFFF));
  CHECK_FALSE(is_word_code_point(0x110000));
}

TEST_CASE("similarity: the ASCII fast path and the table agree on every byte") {
  for (unsigned char b = 0; b < 0x80; ++b) {
    CAPTURE(static_cast<int>(b));
    CHECK(memkit::similarity::detail::is_ascii_word_byte(b) ==
          memkit::similarity::detail::is_word_code_point(b));
  }
}
