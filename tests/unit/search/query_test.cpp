#include <doctest/doctest.h>

#include <string>

#include "memkit/search.hpp"

namespace {

std::string parsed(std::string_view text) {
  const memkit::Result<memkit::search::Query> q = memkit::search::parse_query(text);
  return q ? q->describe() : "error: " + q.status().message();
}

}  // namespace

TEST_CASE("search query: AND is implicit, OR binds looser, NOT subtracts") {
  CHECK(parsed("cache deploy") == "(AND cache deploy)");
  CHECK(parsed("cache AND deploy") == "(AND cache deploy)");
  CHECK(parsed("cache OR deploy") == "(OR cache deploy)");
  CHECK(parsed("a b OR c") == "(OR (AND a b) c)");
  CHECK(parsed("a (b OR c)") == "(AND a (OR b c))");
  CHECK(parsed("cache NOT staging") == "(AND cache (NOT staging))");
}

TEST_CASE("search query: phrases, prefixes, and words analysed as documents are") {
  CHECK(parsed("\"release branch\"") == "\"release branch\"");
  CHECK(parsed("cach*") == "cach*");
  CHECK(parsed("cache_dir") == "\"cache dir\"");
  CHECK(parsed("Café") == "cafe");
}

TEST_CASE("search query: filters") {
  CHECK(parsed("deploy tier:2 layout:memorybox") == "deploy tier=2 layout=memorybox");
  CHECK(parsed("since:2026-01-01 until:2026-12-31 min-confidence:0.8") ==
        "date>=2026-01-01 date<=2026-12-31 confidence>=0.8");
  CHECK(parsed("at 12:30") == "(AND at \"12 30\")");  // no filter name: text
  CHECK(parsed("see https://example.com") == "(AND see \"https example com\")");
}

TEST_CASE("search query: malformed queries name the byte at fault") {
  CHECK(parsed("\"open") == "error: query: at byte 0: this quote is never closed");
  CHECK(parsed("NOT") == "error: query: at byte 0: NOT needs a term after it");
  CHECK(parsed("NOT cache") ==
        "error: query: at byte 0: NOT needs something to subtract from (write a NOT b)");
  CHECK(parsed("cache OR") == "error: query: at byte 6: OR needs a term after it");
  CHECK(parsed("OR cache") == "error: query: at byte 0: OR needs a term before it");
  CHECK(parsed("(cache") == "error: query: at byte 0: this parenthesis is never closed");
  CHECK(parsed("cache)") == "error: query: at byte 5: this parenthesis closes nothing");
  CHECK(parsed("colour:red").starts_with("error: query: at byte 0: unknown filter 'colour:'"));
  CHECK(parsed("since:2026-02-30") ==
        "error: query: at byte 6: since: takes a date YYYY-MM-DD, not '2026-02-30'");
  CHECK(parsed("tier:9") ==
        "error: query: at byte 5: tier: takes 1 to 5, L1, L2, L3 or data, not '9'");
  CHECK(parsed("tier:l2").starts_with("error: query: at byte 5: tier: takes"));
  CHECK(parsed("tier:L2") == "tier=L2");  // the three tiers' names are tiers too
  CHECK(parsed("min-confidence:2").starts_with("error: query: at byte 15: min-confidence:"));
  CHECK(parsed("") == "error: query: nothing to search for (no term and no filter)");
  CHECK(parsed("\"\"") == "error: query: at byte 0: this phrase has no terms");
}

TEST_CASE("search query: bounded: too many terms, too deep, too long") {
  std::string many;
  for (int i = 0; i < 10'001; ++i) many += "t ";
  CHECK(parsed(many).find("more than 10000 terms") != std::string::npos);
  std::string deep(100, '(');
  deep += "a" + std::string(100, ')');
  CHECK(parsed(deep).find("nested too deeply") != std::string::npos);
  CHECK(parsed(std::string((1 << 20) + 1, 'a')).find("longer than") != std::string::npos);
}
