// The index against brute force: random small texts over a small vocabulary (so that shingles
// repeat and many pairs sit near every threshold), with planted near-duplicates. The reference
// below shares nothing with the index but words(): shingles are strings in std::sets, and every
// pair is compared.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/similarity.hpp"

namespace {

using memkit::similarity::Match;
using memkit::similarity::NearDuplicateIndex;
using memkit::similarity::Pair;

constexpr std::uint32_t kThresholds[] = {0, 1, 33, 50, 60, 67, 99, 100};

// Case variants, a folded pair (ß / SS) and a CJK word keep folding in play.
const char* const kVocabulary[] = {"alpha",   "Alpha",        "ALPHA", "beta",
                                   "gamma",   "delta",        "eps",   "stra\u00DFe",
                                   "STRASSE", "\u8A18\u4F4F", "x_1",   "zeta"};
const char* const kSeparators[] = {" ", " ", " ", ", ", " - ", "\n", "! ", "\xFF", "\u00A0", "."};
// Words no item has, for queries.
const char* const kUnseen[] = {"omega", "\u03A9mega", "zz_9"};

class TextMaker {
 public:
  explicit TextMaker(std::uint64_t seed) : rng_(seed) {}

  std::string fresh(bool with_unseen) {
    // Mostly short: 0, 1 and 2 words (word sets) are as common as a few 3-grams.
    const std::size_t count = pick(4) == 0 ? pick(3) : 3 + pick(7);
    std::string text = pick(8) == 0 ? "  " : "";
    for (std::size_t i = 0; i < count; ++i) {
      if (i != 0) text += kSeparators[pick(std::size(kSeparators))];
      text += with_unseen && pick(5) == 0 ? kUnseen[pick(std::size(kUnseen))]
                                          : kVocabulary[pick(std::size(kVocabulary))];
    }
    if (pick(6) == 0) text += "!";
    return text;
  }

  // A copy of `text` with a word changed, added or dropped, or with other separators.
  std::string mutate(const std::string& text) {
    const std::vector<std::string> words = memkit::similarity::words(text);
    std::vector<std::string> out(words.begin(), words.end());
    switch (pick(4)) {
      case 0:
        if (!out.empty()) out[pick(out.size())] = kVocabulary[pick(std::size(kVocabulary))];
        break;
      case 1:
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(pick(out.size() + 1)),
                   kVocabulary[pick(std::size(kVocabulary))]);
        break;
      case 2:
        if (!out.empty()) out.erase(out.begin() + static_cast<std::ptrdiff_t>(pick(out.size())));
        break;
      default:
        break;
    }
    std::string joined;
    for (const std::string& word : out) {
      joined += word;
      joined += kSeparators[pick(std::size(kSeparators))];
    }
    if (pick(2) == 0 && !joined.empty()) joined[0] = static_cast<char>(std::toupper(joined[0]));
    return joined;
  }

  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }

 private:
  std::mt19937_64 rng_;
};

std::vector<std::string> make_items(TextMaker& maker, std::size_t count) {
  std::vector<std::string> items;
  while (items.size() < count) {
    if (!items.empty() && maker.pick(3) == 0) {
      items.push_back(maker.mutate(items[maker.pick(items.size())]));
    } else {
      items.push_back(maker.fresh(false));
    }
  }
  return items;
}

// The reference: each text's shingles as interned strings, a sorted set of ints.
class Reference {
 public:
  std::vector<int> set_of(std::string_view text) {
    const std::vector<std::string> words = memkit::similarity::words(text);
    std::vector<std::string> shingles;
    if (words.size() < 3) {
      for (const std::string& w : words) shingles.push_back("1\x1F" + w);
    } else {
      for (std::size_t i = 0; i + 2 < words.size(); ++i) {
        shingles.push_back("3\x1F" + words[i] + "\x1F" + words[i + 1] + "\x1F" + words[i + 2]);
      }
    }
    std::vector<int> ids;
    for (const std::string& s : shingles) {
      ids.push_back(ids_.try_emplace(s, static_cast<int>(ids_.size())).first->second);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  }

 private:
  std::map<std::string, int> ids_;
};

struct Counts {
  std::uint32_t intersection;
  std::uint32_t union_size;
};

Counts counts_of(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  const auto i = static_cast<std::uint32_t>(common.size());
  return {i, static_cast<std::uint32_t>(a.size() + b.size()) - i};
}

bool admitted(Counts c, std::uint32_t threshold) {
  return c.union_size > 0 && 100ULL * c.intersection >= 1ULL * threshold * c.union_size;
}

// Returns true iff a ranks before b: higher intersection / union first, exactly.
bool ranks_before(Counts a, std::size_t a_key, Counts b, std::size_t b_key) {
  const std::uint64_t left = 1ULL * a.intersection * b.union_size;
  const std::uint64_t right = 1ULL * b.intersection * a.union_size;
  return left != right ? left > right : a_key < b_key;
}

std::vector<Match> brute_query(const std::vector<std::vector<int>>& items,
                               const std::vector<int>& x, std::uint32_t threshold) {
  std::vector<Match> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Counts c = counts_of(x, items[i]);
    if (admitted(c, threshold)) {
      out.push_back({i, c.intersection, c.union_size, 100 * c.intersection / c.union_size});
    }
  }
  std::sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    return ranks_before({a.intersection, a.union_size}, a.item, {b.intersection, b.union_size},
                        b.item);
  });
  return out;
}

}  // namespace

TEST_CASE("similarity: query() returns what brute force returns, at every threshold") {
  TextMaker maker(20261130);
  const std::vector<std::string> items = make_items(maker, 3000);
  const std::vector<std::string_view> views(items.begin(), items.end());
  const NearDuplicateIndex index(views);
  Reference reference;
  std::vector<std::vector<int>> sets;
  for (const std::string& item : items) sets.push_back(reference.set_of(item));

  std::vector<std::string> queries;
  for (int i = 0; i < 150; ++i) queries.push_back(maker.fresh(true));
  for (int i = 0; i < 100; ++i) queries.push_back(items[maker.pick(items.size())]);
  for (int i = 0; i < 150; ++i) queries.push_back(maker.mutate(items[maker.pick(items.size())]));
  queries.push_back("");

  std::size_t matches = 0;
  std::size_t partial = 0;  // matches strictly between 0 and 100
  for (const std::string& query : queries) {
    const std::vector<int> x = reference.set_of(query);
    for (const std::uint32_t threshold : kThresholds) {
      CAPTURE(query);
      CAPTURE(threshold);
      const std::vector<Match> got = index.query(query, threshold);
      REQUIRE(got == brute_query(sets, x, threshold));
      if (threshold != 0) matches += got.size();
      for (const Match& m : got) partial += m.hundredths > 0 && m.hundredths < 100 ? 1 : 0;
    }
  }
  // The data must exercise the search, not pass on empty answers.
  CHECK(matches > 10000);
  CHECK(partial > 10000);
}

TEST_CASE("similarity: near_duplicate_pairs() returns what brute force returns") {
  TextMaker maker(7);
  const std::vector<std::string> items = make_items(maker, 1500);
  const std::vector<std::string_view> views(items.begin(), items.end());
  Reference reference;
  std::vector<std::vector<int>> sets;
  for (const std::string& item : items) sets.push_back(reference.set_of(item));
  std::vector<Pair> all;  // every pair with a non-empty union
  for (std::size_t i = 0; i < sets.size(); ++i) {
    for (std::size_t j = i + 1; j < sets.size(); ++j) {
      const Counts c = counts_of(sets[i], sets[j]);
      if (c.union_size > 0) {
        all.push_back({i, j, c.intersection, c.union_size, 100 * c.intersection / c.union_size});
      }
    }
  }
  for (const std::uint32_t threshold : kThresholds) {
    CAPTURE(threshold);
    std::vector<Pair> expected;
    for (const Pair& p : all) {
      if (admitted({p.intersection, p.union_size}, threshold)) expected.push_back(p);
    }
    std::stable_sort(expected.begin(), expected.end(), [](const Pair& a, const Pair& b) {
      return ranks_before({a.intersection, a.union_size}, 0, {b.intersection, b.union_size}, 0);
    });
    const std::vector<Pair> got = memkit::similarity::near_duplicate_pairs(views, threshold);
    CHECK(got.size() == expected.size());
    REQUIRE(got == expected);
    if (threshold == 60) CHECK(got.size() > 1000);
  }
}
