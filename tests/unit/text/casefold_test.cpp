#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "memkit/text.hpp"
#include "text/casefold_table.hpp"

namespace {

using namespace std::string_view_literals;

std::string utf8(char32_t cp) {
  std::string out;
  memkit::append_utf8(cp, out);
  return out;
}

}  // namespace

// Expected values are python3's str.casefold(), which the spec (§6.3) pins to Unicode 15.0.0.
TEST_CASE("text: casefold applies full folding, as the spec's examples show") {
  CHECK(memkit::casefold("Stra\u00DFe") == "strasse");
  CHECK(memkit::casefold("STRASSE") == "strasse");
  CHECK(memkit::casefold("\xE1\xBA\x9E") == "ss");  // U+1E9E capital sharp s
  CHECK(memkit::casefold("\xCE\xA3\xCE\x91\xCE\xA3") == "\xCF\x83\xCE\xB1\xCF\x83");  // ΣΑΣ -> σασ
  CHECK(memkit::casefold("\xCF\x82") == "\xCF\x83");   // final sigma folds to σ, with no context
  CHECK(memkit::casefold("\xC4\xB0") == "i\xCC\x87");  // İ: i + combining dot, not Turkic i
  CHECK(memkit::casefold("\xC4\xB1") == "\xC4\xB1");   // dotless ı has no folding
  CHECK(memkit::casefold("\xEF\xAC\x83") == "ffi");    // the ﬃ ligature, a 3-code-point folding
  CHECK(memkit::casefold("\xC5\x89") == "\u02BCn");    // ŉ
  CHECK(memkit::casefold("\xCE\x90") == "\xCE\xB9\xCC\x88\xCC\x81");  // ΐ
  CHECK(memkit::casefold("\xE1\xBE\x88") == "\xE1\xBC\x80\xCE\xB9");  // ᾈ
  CHECK(memkit::casefold("\xC5\xBF") == "s");                         // long s
  CHECK(memkit::casefold("\xE2\x84\xAA") == "k");                     // Kelvin sign
  CHECK(memkit::casefold("\xE2\x84\xAB") == "\xC3\xA5");              // Angstrom sign
  CHECK(memkit::casefold("\xC2\xB5") == "\xCE\xBC");                  // micro sign
}

TEST_CASE("text: casefold folds beyond Latin and Greek, including outside the BMP") {
  CHECK(memkit::casefold(utf8(0x13A0)) == utf8(0x13A0));  // Cherokee folds to upper case...
  CHECK(memkit::casefold(utf8(0xAB70)) == utf8(0x13A0));  // ...so its lower case changes
  CHECK(memkit::casefold(utf8(0x13F8)) == utf8(0x13F0));
  CHECK(memkit::casefold(utf8(0x1C90)) == utf8(0x10D0));    // Georgian Mtavruli
  CHECK(memkit::casefold(utf8(0x10400)) == utf8(0x10428));  // Deseret
  CHECK(memkit::casefold(utf8(0x1E900)) == utf8(0x1E922));  // Adlam, the first...
  CHECK(memkit::casefold(utf8(0x1E921)) == utf8(0x1E943));  // ...and the last folded code point
  CHECK(memkit::casefold(utf8(0x1E922)) == utf8(0x1E922));
  CHECK(memkit::casefold(utf8(0x0100)) == utf8(0x0101));  // an alternating (stride 2) run
  CHECK(memkit::casefold(utf8(0x0101)) == utf8(0x0101));
  CHECK(memkit::casefold(utf8(0x012E)) == utf8(0x012F));
  CHECK(memkit::casefold(utf8(0x0130)) == "i\xCC\x87");  // where that run ends
  CHECK(memkit::casefold("\xE8\xA8\x98\xE4\xBD\x8F \xF0\x9F\x98\x80") ==
        "\xE8\xA8\x98\xE4\xBD\x8F \xF0\x9F\x98\x80");
}

TEST_CASE("text: casefold changes only A-Z among ASCII bytes, at every word offset") {
  std::string all_ascii;
  for (int b = 0; b < 128; ++b) all_ascii.push_back(static_cast<char>(b));
  for (std::size_t shift = 0; shift < 9; ++shift) {
    const std::string text = std::string(shift, '.') + all_ascii;
    const std::string folded = memkit::casefold(text);
    REQUIRE(folded.size() == text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      const char want = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      CAPTURE(shift);
      CAPTURE(i);
      REQUIRE(folded[i] == want);
    }
  }
  // The bytes around A-Z, '@' '[' '`' '{', are where an off-by-one in the SWAR test would show.
  CHECK(memkit::casefold("@AZ[`az{@AZ[`az{") == "@az[`az{@az[`az{");
  CHECK(memkit::casefold("MIXED Case \xC3\x89t\xC3\xA9 ASCII then more ASCII") ==
        "mixed case \xC3\xA9t\xC3\xA9 ascii then more ascii");
}

TEST_CASE("text: casefold reads ill-formed bytes as U+FFFD per maximal subpart") {
  CHECK(memkit::casefold("X\xFFY") == "x\uFFFDy");
  CHECK(memkit::casefold("\xE2\x82") == "\xEF\xBF\xBD");
  CHECK(memkit::casefold("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(memkit::casefold("\xC3") == "\xEF\xBF\xBD");  // a truncated É
  CHECK(memkit::find_invalid_utf8(memkit::casefold("\xF4\x90\x80\x80 \xC0\xAF")) == std::nullopt);
  CHECK(memkit::casefold("a\0B"sv) == "a\0b"sv);
}

TEST_CASE("text: casefold_append appends after what is already there") {
  std::string out = "key: ";
  memkit::casefold_append("Stra\u00DFE", out);
  CHECK(out == "key: strasse");
  memkit::casefold_append("", out);
  CHECK(out == "key: strasse");
}

TEST_CASE("text: the case-folding table is sorted, disjoint and well-formed") {
  using namespace memkit::detail;
  std::size_t multi_seen = 0;
  for (std::size_t i = 0; i < kFoldRunCount; ++i) {
    const FoldRun& run = kFoldRuns[i];
    CAPTURE(i);
    REQUIRE((run.stride == 1 || run.stride == 2));
    if (i + 1 < kFoldRunCount) REQUIRE(kFoldRunFirst[i] + run.span < kFoldRunFirst[i + 1]);
    if (run.kind == FoldKind::multi) {
      REQUIRE(run.span == 0);
      REQUIRE(static_cast<std::size_t>(run.value) == multi_seen);  // each multi used once, in order
      ++multi_seen;
      REQUIRE(kFoldMulti[run.value][0] != 0);
      REQUIRE(kFoldMulti[run.value][1] != 0);
    }
  }
  CHECK(multi_seen == kFoldMultiCount);
}

TEST_CASE("text: fold_code_point folds every code point to scalar values, idempotently") {
  using memkit::detail::fold_code_point;
  using memkit::detail::kMaxFoldLength;
  std::size_t folded_count = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    char32_t once[kMaxFoldLength];
    const std::size_t n = fold_code_point(cp, once);
    if (n == 1 && once[0] == cp) continue;
    ++folded_count;
    for (std::size_t k = 0; k < n; ++k) {
      const char32_t part = once[k];
      char32_t twice[kMaxFoldLength];
      // Folding is idempotent (Unicode §3.13), so a folded code point never folds again.
      const bool scalar = part <= 0x10FFFF && (part < 0xD800 || part > 0xDFFF);
      if (!scalar || fold_code_point(part, twice) != 1 || twice[0] != part) {
        FAIL("U+" << static_cast<unsigned>(cp) << " folds to a value that is not final");
      }
    }
  }
  // CaseFolding-15.0.0.txt has 1530 mappings with status C or F.
  CHECK(folded_count == 1530);
}
