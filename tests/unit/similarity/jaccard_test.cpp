// Shingle sets and their exact Jaccard index (spec memorybox.md §4), through similarity(a, b).
#include <doctest/doctest.h>

#include <string>

#include "memkit/similarity.hpp"

namespace {

using memkit::similarity::Match;
using memkit::similarity::qualifies;
using memkit::similarity::similarity;

// `count` distinct words w<first> ... w<first + count - 1>: count - 2 distinct 3-grams.
std::string distinct_words(int first, int count) {
  std::string out;
  for (int i = first; i < first + count; ++i) out += "w" + std::to_string(i) + " ";
  return out;
}

}  // namespace

TEST_CASE("similarity: identical and case-folded texts are 100") {
  CHECK(similarity("use tabs in makefiles", "use tabs in makefiles") == Match{0, 2, 2, 100});
  CHECK(similarity("Die Stra\u00DFe ist gut", "DIE STRASSE IST GUT!") == Match{0, 2, 2, 100});
  CHECK(similarity("use, tabs - in (makefiles)", "use tabs in makefiles") == Match{0, 2, 2, 100});
}

TEST_CASE("similarity: a text of 3 or more words is its set of word 3-grams") {
  // {a b c, b c d} and {b c d, c d e}: one in common of three.
  CHECK(similarity("a b c d", "b c d e") == Match{0, 1, 3, 33});
  // Order matters inside a 3-gram.
  CHECK(similarity("a b c", "c b a") == Match{0, 0, 2, 0});
  // A repeated 3-gram counts once: {a b c, b c a, c a b} against {a b c}.
  CHECK(similarity("a b c a b c", "a b c") == Match{0, 1, 3, 33});
  CHECK(similarity("a b c a b c a b c", "a b c a") == Match{0, 2, 3, 66});
}

TEST_CASE("similarity: a text of 1 or 2 words is its set of words, never equal to a 3-gram") {
  CHECK(similarity("alpha", "ALPHA") == Match{0, 1, 1, 100});
  CHECK(similarity("alpha beta", "beta, alpha") == Match{0, 2, 2, 100});  // sets: order is lost
  CHECK(similarity("alpha alpha", "alpha") == Match{0, 1, 1, 100});
  CHECK(similarity("alpha beta", "alpha gamma") == Match{0, 1, 3, 33});
  // {alpha} against {alpha alpha alpha}: a word is not the 3-gram of itself.
  CHECK(similarity("alpha", "alpha alpha alpha") == Match{0, 0, 2, 0});
  CHECK(similarity("alpha beta", "alpha beta gamma") == Match{0, 0, 3, 0});
}

TEST_CASE("similarity: texts without words have an empty set") {
  CHECK(similarity("", "") == Match{0, 0, 0, 0});
  CHECK(similarity("--- !!", "\xF0\x9F\x98\x80") == Match{0, 0, 0, 0});
  CHECK(similarity("", "one") == Match{0, 0, 1, 0});
  CHECK(similarity("one two three four", "...") == Match{0, 0, 2, 0});
}

TEST_CASE("similarity: hundredths are rounded down") {
  CHECK(similarity(distinct_words(0, 5), distinct_words(0, 4)) == Match{0, 2, 3, 66});
  // 199 of 200: 99.5 hundredths reports 99.
  CHECK(similarity(distinct_words(0, 202), distinct_words(0, 201)) == Match{0, 199, 200, 99});
  CHECK(similarity(distinct_words(0, 302), distinct_words(0, 3)) == Match{0, 1, 300, 0});
}

TEST_CASE("similarity: the threshold rule is exact at the boundary") {
  // 3 of 5 is exactly 0.60: in at 60, out at 61.
  const Match three_of_five = similarity(distinct_words(0, 7), distinct_words(0, 5));
  CHECK(three_of_five == Match{0, 3, 5, 60});
  CHECK(qualifies(3, 5, 60));
  CHECK_FALSE(qualifies(3, 5, 61));
  // 60 of 100 exactly, and 59 of 99 = 0.5959...: floor 59, below 60 by 40 / 9900.
  CHECK(similarity(distinct_words(0, 102), distinct_words(0, 62)) == Match{0, 60, 100, 60});
  CHECK(qualifies(60, 100, 60));
  CHECK(similarity(distinct_words(0, 101), distinct_words(0, 61)) == Match{0, 59, 99, 59});
  CHECK_FALSE(qualifies(59, 99, 60));
  CHECK(qualifies(59, 99, 59));
  // 0.6 is not a binary fraction: 0.6 * 5 in doubles is 3.0000000000000004 > 3, the integer rule
  // is not fooled.
  CHECK(qualifies(3, 5, 60));
  // Every threshold needs a non-empty union; 0 admits anything else.
  CHECK_FALSE(qualifies(0, 0, 0));
  CHECK(qualifies(0, 1, 0));
  CHECK_FALSE(qualifies(0, 1, 1));
  CHECK(qualifies(1, 1, 100));
  CHECK_FALSE(qualifies(99, 100, 100));
  // No overflow near the limits.
  CHECK(qualifies(0xFFFFFFFFU, 0xFFFFFFFFU, 100));
  CHECK_FALSE(qualifies(0xFFFFFFFEU, 0xFFFFFFFFU, 100));
}

TEST_CASE("similarity: more_similar compares fractions exactly") {
  using memkit::similarity::more_similar;
  CHECK(more_similar(2, 3, 66, 100));  // both 66 hundredths
  CHECK_FALSE(more_similar(66, 100, 2, 3));
  CHECK_FALSE(more_similar(1, 2, 2, 4));  // equal
  CHECK_FALSE(more_similar(2, 4, 1, 2));
  CHECK(more_similar(0xFFFFFFFFU, 0xFFFFFFFFU, 0xFFFFFFFEU, 0xFFFFFFFFU));
}
