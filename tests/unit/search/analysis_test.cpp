#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "memkit/search.hpp"

namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  for (const memkit::search::Term& t : memkit::search::analyze(text)) out.push_back(t.text);
  return out;
}

}  // namespace

TEST_CASE("search analysis: `_` and `-` separate terms, as FTS5's unicode61 reads them") {
  CHECK(words("cache_dir") == std::vector<std::string>{"cache", "dir"});
  CHECK(words("read-only cache") == std::vector<std::string>{"read", "only", "cache"});
  CHECK(words("v2.1 (42)") == std::vector<std::string>{"v2", "1", "42"});
  CHECK(words("  ...  ").empty());
}

TEST_CASE("search analysis: case folded and diacritics removed, composed or not") {
  CHECK(words("Café CAFÉ cafe\u0301") == std::vector<std::string>{"cafe", "cafe", "cafe"});
  CHECK(words("Straße") == std::vector<std::string>{"strasse"});
  CHECK(words("\u0130stanbul") == std::vector<std::string>{"istanbul"});  // İ folds to i + U+0307
  CHECK(words("Ångström naïve") == std::vector<std::string>{"angstrom", "naive"});
  CHECK(words("記住 это") == std::vector<std::string>{"記住", "это"});
  // Only Latin letters lose their marks: elsewhere a mark often makes another letter.
  CHECK(words("Мой мои") == std::vector<std::string>{"мой", "мои"});
  CHECK(words("ガス カス") == std::vector<std::string>{"ガス", "カス"});
  CHECK(words("ǡ Ḗ") == std::vector<std::string>{"a", "e"});
}

TEST_CASE("search analysis: every term keeps the bytes it came from") {
  const std::string text = "Ünïcode, cache_dir!";
  const std::vector<memkit::search::Term> terms = memkit::search::analyze(text);
  REQUIRE(terms.size() == 3);
  CHECK(text.substr(terms[0].begin, terms[0].end - terms[0].begin) == "Ünïcode");
  CHECK(text.substr(terms[1].begin, terms[1].end - terms[1].begin) == "cache");
  CHECK(text.substr(terms[2].begin, terms[2].end - terms[2].begin) == "dir");
}

TEST_CASE("search analysis: a byte that is not UTF-8 separates terms and is never a term") {
  CHECK(words("ab\xff" "cd") == std::vector<std::string>{"ab", "cd"});
  CHECK(words("\xc3") .empty());
}
