// NearDuplicateIndex::query and near_duplicate_pairs (spec memorybox.md §4 "Result"): exactly the
// qualifying items, ranked by exact similarity, then by item.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/similarity.hpp"

namespace {

using memkit::similarity::Match;
using memkit::similarity::near_duplicate_pairs;
using memkit::similarity::NearDuplicateIndex;
using memkit::similarity::Pair;

std::string distinct_words(int first, int count) {
  std::string out;
  for (int i = first; i < first + count; ++i) out += "w" + std::to_string(i) + " ";
  return out;
}

std::vector<std::string_view> views(const std::vector<std::string>& texts) {
  return {texts.begin(), texts.end()};
}

}  // namespace

TEST_CASE("similarity: query returns exactly the items at or above the threshold") {
  // Prefixes of one 102-word text: item k shares k - 2 of the query's 100 3-grams.
  const std::vector<std::string> texts = {distinct_words(0, 62), distinct_words(0, 61),
                                          distinct_words(0, 102), distinct_words(500, 100),
                                          distinct_words(0, 80)};
  const NearDuplicateIndex index(views(texts));
  CHECK(index.size() == 5);
  const std::string query = distinct_words(0, 102);
  CHECK(index.query(query) ==
        std::vector<Match>{{2, 100, 100, 100}, {4, 78, 100, 78}, {0, 60, 100, 60}});
  CHECK(index.query(query, 61) == std::vector<Match>{{2, 100, 100, 100}, {4, 78, 100, 78}});
  CHECK(
      index.query(query, 59) ==
      std::vector<Match>{{2, 100, 100, 100}, {4, 78, 100, 78}, {0, 60, 100, 60}, {1, 59, 100, 59}});
  CHECK(index.query(query, 100) == std::vector<Match>{{2, 100, 100, 100}});
  CHECK(
      index.query(query, 1) ==
      std::vector<Match>{{2, 100, 100, 100}, {4, 78, 100, 78}, {0, 60, 100, 60}, {1, 59, 100, 59}});
  CHECK(index.query(query, 0) == std::vector<Match>{{2, 100, 100, 100},
                                                    {4, 78, 100, 78},
                                                    {0, 60, 100, 60},
                                                    {1, 59, 100, 59},
                                                    {3, 0, 198, 0}});
}

TEST_CASE("similarity: ranking compares exactly, then by item") {
  // Against a 302-word query: 200/300 and 198/300 are both 66 hundredths, 2/3 ranks first.
  const std::vector<std::string> texts = {distinct_words(0, 200), distinct_words(0, 202),
                                          distinct_words(0, 202), "w0 w1 w2", "W0 W1 W2"};
  const NearDuplicateIndex index(views(texts));
  CHECK(index.query(distinct_words(0, 302), 66) ==
        std::vector<Match>{{1, 200, 300, 66}, {2, 200, 300, 66}, {0, 198, 300, 66}});
  // 1/300 is below 1 hundredth: only threshold 0 admits the last two.
  CHECK(
      index.query(distinct_words(0, 302), 0) ==
      std::vector<Match>{
          {1, 200, 300, 66}, {2, 200, 300, 66}, {0, 198, 300, 66}, {3, 1, 300, 0}, {4, 1, 300, 0}});
  CHECK(index.query("w0 w1 w2", 100) == std::vector<Match>{{3, 1, 1, 100}, {4, 1, 1, 100}});
}

TEST_CASE("similarity: a query's shingles that no item has count in the union") {
  const std::vector<std::string> texts = {"a b c d", "x y"};
  const NearDuplicateIndex index(views(texts));
  // {a b c, b c q}: one in common with {a b c, b c d}, union 3.
  CHECK(index.query("a b c q", 1) == std::vector<Match>{{0, 1, 3, 33}});
  // Unknown words stay distinct: {q r s, r s q, s q r} are three shingles, not one.
  CHECK(index.query("q r s q r s", 0) == std::vector<Match>{{0, 0, 5, 0}, {1, 0, 5, 0}});
  CHECK(index.query("q r s q r s", 1).empty());
  // Known words in an unknown order make an unknown shingle.
  CHECK(index.query("d c b a", 1).empty());
  // Two unknown words: {q, r} against {x, y}.
  CHECK(index.query("y q", 1) == std::vector<Match>{{1, 1, 3, 33}});
  CHECK(index.query("q r", 0) == std::vector<Match>{{0, 0, 4, 0}, {1, 0, 4, 0}});
}

TEST_CASE("similarity: empty sets never qualify, even at threshold 0") {
  const std::vector<std::string> texts = {"", "one two", "!!!", "one"};
  const NearDuplicateIndex index(views(texts));
  CHECK(index.query("").empty());
  CHECK(index.query("", 1).empty());
  // At 0 every non-empty union qualifies: the empty query against the non-empty items.
  CHECK(index.query("...", 0) == std::vector<Match>{{1, 0, 2, 0}, {3, 0, 1, 0}});
  CHECK(index.query("one", 0) ==
        std::vector<Match>{{3, 1, 1, 100}, {1, 1, 2, 50}, {0, 0, 1, 0}, {2, 0, 1, 0}});
  CHECK(index.query("one", 51) == std::vector<Match>{{3, 1, 1, 100}});
  CHECK(near_duplicate_pairs(views(texts), 0) ==
        std::vector<Pair>{
            {1, 3, 1, 2, 50}, {0, 1, 0, 2, 0}, {0, 3, 0, 1, 0}, {1, 2, 0, 2, 0}, {2, 3, 0, 1, 0}});
  const std::vector<std::string> nothing = {"", "--"};
  CHECK(near_duplicate_pairs(views(nothing), 0).empty());
}

TEST_CASE("similarity: a threshold above 100 is outside the contract and finds nothing") {
  const std::vector<std::string> texts = {"a b c", "a b c"};
  const NearDuplicateIndex index(views(texts));
  CHECK(index.query("a b c", 100).size() == 2);
  CHECK(index.query("a b c", 101).empty());
  CHECK(near_duplicate_pairs(views(texts), 100) == std::vector<Pair>{{0, 1, 1, 1, 100}});
  CHECK(near_duplicate_pairs(views(texts), 101).empty());
}

TEST_CASE("similarity: an empty index and a moved-from one answer nothing") {
  const NearDuplicateIndex empty(std::span<const std::string_view>{});
  CHECK(empty.size() == 0);
  CHECK(empty.query("anything", 0).empty());
  CHECK(near_duplicate_pairs({}, 0).empty());

  const std::vector<std::string> texts = {"a b c"};
  NearDuplicateIndex index(views(texts));
  NearDuplicateIndex copy = index;
  NearDuplicateIndex moved = std::move(index);
  CHECK(moved.query("a b c") == copy.query("a b c"));
  CHECK(copy.size() == 1);
}

TEST_CASE("similarity: the index keeps no view of the texts it was built from") {
  std::vector<std::string> texts = {"use tabs in makefiles", "prefer spaces in python"};
  const NearDuplicateIndex index(views(texts));
  texts.assign(2, std::string(64, 'x'));
  CHECK(index.query("Use tabs in Makefiles.") == std::vector<Match>{{0, 2, 2, 100}});
}

TEST_CASE("similarity: pairs are ranked by similarity, then by (first, second)") {
  const std::vector<std::string> texts = {
      "deploy with the blue green script",        // 0
      "Deploy with the blue-green script!",       // 1: same as 0
      "deploy with the blue green script today",  // 2: 4 of 5 with 0 and 1
      "something else entirely here",             // 3
      "deploy with the blue green script",        // 4: same as 0
  };
  CHECK(near_duplicate_pairs(views(texts)) == std::vector<Pair>{{0, 1, 4, 4, 100},
                                                                {0, 4, 4, 4, 100},
                                                                {1, 4, 4, 4, 100},
                                                                {0, 2, 4, 5, 80},
                                                                {1, 2, 4, 5, 80},
                                                                {2, 4, 4, 5, 80}});
  CHECK(near_duplicate_pairs(views(texts), 81) ==
        std::vector<Pair>{{0, 1, 4, 4, 100}, {0, 4, 4, 4, 100}, {1, 4, 4, 4, 100}});
}

TEST_CASE("similarity: the dictionaries keep every word and shingle as they grow") {
  // 4000 items of distinct words: both tables grow many times over.
  std::vector<std::string> texts;
  for (int i = 0; i < 4000; ++i) {
    texts.push_back(i % 3 == 0 ? "solo" + std::to_string(i) : distinct_words(10 * i, 7));
  }
  const NearDuplicateIndex index(views(texts));
  for (int i = 0; i < 4000; i += 7) {
    CAPTURE(i);
    const std::size_t item = static_cast<std::size_t>(i);
    const std::uint32_t shingles = i % 3 == 0 ? 1 : 5;
    CHECK(index.query(texts[item], 100) == std::vector<Match>{{item, shingles, shingles, 100}});
  }
}
