// Curated search (spec curated.md §8 "search"): the tokenizer, query terms, whole-token and prefix
// matching, the rank, the order, the snippet, and what search never sees.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/read.hpp"

using namespace memkit::curated;

namespace {

using Tokens = std::vector<std::string>;

Row row_of(std::string name, std::string body, std::optional<std::string> description = {},
           std::optional<std::string> updated = "2026-01-01T00:00:00.000Z") {
  Row row;
  row.name = std::move(name);
  row.body = std::move(body);
  row.description = std::move(description);
  row.updated = std::move(updated);
  return row;
}

std::vector<std::string> names_of(const std::vector<SearchHit>& hits) {
  std::vector<std::string> out;
  for (const SearchHit& hit : hits) out.push_back(hit.row->name);
  return out;
}

const SearchHit& hit_named(const std::vector<SearchHit>& hits, std::string_view name) {
  for (const SearchHit& hit : hits) {
    if (hit.row->name == name) return hit;
  }
  FAIL("no hit " << name);
  return hits.front();
}

}  // namespace

TEST_CASE("search tokens: ASCII word runs are one token, punctuation and W split them") {
  CHECK(search_tokens("Cache cache_dir foo-bar, x.y/Z9") ==
        Tokens{"cache", "cache_dir", "foo", "bar", "x", "y", "z9"});
  CHECK(search_tokens("").empty());
  CHECK(search_tokens(" \t\n--- !?* ").empty());
  // W beyond ASCII splits too: U+00A0 and U+3000.
  CHECK(search_tokens("a\u00A0b\u3000c") == Tokens{"a", "b", "c"});
}

TEST_CASE("search tokens: every other code point is a token of its own, case-folded") {
  CHECK(search_tokens("日本語") == Tokens{"日", "本", "語"});
  // '«' is not ASCII punctuation: a token, and it does not join its neighbours.
  CHECK(search_tokens("a«b") == Tokens{"a", "«", "b"});
  CHECK(search_tokens("Ünïcode") == Tokens{"ü", "n", "ï", "code"});
  // Full case folding: ß folds to "ss", still one token; cut first, folded after, so the
  // Kelvin sign (which folds to 'k') stays apart from the word run after it.
  CHECK(search_tokens("STRAßE") == Tokens{"stra", "ss", "e"});
  CHECK(search_tokens("\u212Am") == Tokens{"k", "m"});
}

TEST_CASE("search query: a '*' directly after a token makes a prefix term") {
  const std::vector<SearchTerm> terms = parse_query("cach* Foo *bar x*y 日* z *");
  REQUIRE(terms.size() == 7);
  CHECK((terms[0].token == "cach" && terms[0].prefix));
  CHECK((terms[1].token == "foo" && !terms[1].prefix));
  CHECK((terms[2].token == "bar" && !terms[2].prefix));  // the '*' is before it
  CHECK((terms[3].token == "x" && terms[3].prefix));
  CHECK((terms[4].token == "y" && !terms[4].prefix));
  CHECK((terms[5].token == "日" && terms[5].prefix));
  CHECK((terms[6].token == "z" && !terms[6].prefix));  // a space between
  CHECK(parse_query("  *** -- ").empty());
}

TEST_CASE("search: a term matches whole tokens only, a prefix term their start") {
  const std::vector<Row> rows{
      row_of("project_a", "the Cache layer"), row_of("project_b", "two caches"),
      row_of("project_c", "see cache_dir"), row_of("project_d", "no match here")};
  CHECK(names_of(search(rows, "cache")) == Tokens{"project_a"});
  CHECK(names_of(search(rows, "CACHE")) == Tokens{"project_a"});
  CHECK(names_of(search(rows, "cache_dir")) == Tokens{"project_c"});
  const std::vector<SearchHit> prefix = search(rows, "cach*");
  CHECK(prefix.size() == 3);
  CHECK(names_of(search(rows, "cache_*")) == Tokens{"project_c"});
  // The name is one token: "project" is not a token of "project_a".
  CHECK(search(rows, "project").empty());
  CHECK(names_of(search(rows, "project_a")) == Tokens{"project_a"});
}

TEST_CASE("search: every term must match a token of the name, description or body") {
  const std::vector<Row> rows{row_of("project_a", "alpha beta", "gamma"),
                              row_of("project_b", "alpha only")};
  CHECK(names_of(search(rows, "alpha gamma")) == Tokens{"project_a"});
  CHECK(names_of(search(rows, "alpha project_b")) == Tokens{"project_b"});
  CHECK(search(rows, "alpha delta").empty());
  CHECK(search(rows, "beta gamma").size() == 1);
}

TEST_CASE("search: rank sums, per term, the row's tokens it matches, name and description too") {
  const std::vector<Row> rows{row_of("cache", "the cache and the Cache\ncaches", "cache layer"),
                              row_of("project_b", "cache caching")};
  const std::vector<SearchHit> hits = search(rows, "cache");
  REQUIRE(hits.size() == 2);
  CHECK(hit_named(hits, "cache").rank == 4);  // name 1, description 1, body 2
  CHECK(hit_named(hits, "project_b").rank == 1);
  // Two terms: "cach*" matches cache x4 and caches (5), "layer" 1.
  const std::vector<SearchHit> two = search(rows, "cach* layer");
  REQUIRE(two.size() == 1);
  CHECK(two[0].rank == 6);
  // A term written twice counts twice.
  CHECK(search(rows, "layer layer")[0].rank == 2);
}

TEST_CASE("search: ordered by rank, then Updated descending, then name") {
  const std::vector<Row> rows{
      row_of("project_a", "x", std::nullopt, "2026-01-01T00:00:00.000Z"),
      row_of("project_b", "x", std::nullopt, "2026-03-01T00:00:00.000Z"),
      row_of("project_c", "x x", std::nullopt, "2025-01-01T00:00:00.000Z"),
      row_of("project_d", "x", std::nullopt, "2026-03-01T00:00:00.000Z"),
      row_of("project_e", "x", std::nullopt, std::nullopt),
  };
  CHECK(names_of(search(rows, "x")) ==
        Tokens{"project_c", "project_b", "project_d", "project_a", "project_e"});
  CHECK(names_of(search(rows, "x", 2)) == Tokens{"project_c", "project_b"});
  CHECK(search(rows, "x", 0).empty());
}

TEST_CASE("search: soft-deleted rows are never found, superseded ones are") {
  std::vector<Row> rows{row_of("project_a", "needle"), row_of("project_b", "needle")};
  rows[0].deleted = "2026-02-01T00:00:00.000Z";
  rows[1].status = RowStatus::closed;
  CHECK(names_of(search(rows, "needle")) == Tokens{"project_b"});
}

TEST_CASE("search: a query without a token gives no results") {
  const std::vector<Row> rows{row_of("project_a", "- * ! text")};
  CHECK(search(rows, "").empty());
  CHECK(search(rows, "  -*- !").empty());
}

TEST_CASE("search snippet: the first body line holding a matched token, stripped") {
  const std::vector<Row> rows{
      row_of("project_a", "caches here\n\n   a Cache line  \r\nanother cache", "cache desc")};
  const std::vector<SearchHit> hits = search(rows, "cache");
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].snippet == "a Cache line");
  // A line matching any one of the terms will do.
  CHECK(search(rows, "cache caches")[0].snippet == "caches here");
}

TEST_CASE("search snippet: else the description if it holds a match, else the name") {
  const std::vector<Row> rows{row_of("project_a", "body text", "about the needle"),
                              row_of("needle", "body text", "nothing here")};
  const std::vector<SearchHit> hits = search(rows, "needle");
  REQUIRE(hits.size() == 2);
  CHECK(hit_named(hits, "project_a").snippet == "about the needle");
  CHECK(hit_named(hits, "needle").snippet == "needle");
}

TEST_CASE("search snippet: cut to 120 code points, not bytes") {
  std::string line = "needle ";
  for (int i = 0; i < 150; ++i) line += "é";
  const std::vector<Row> rows{row_of("project_a", line)};
  const std::vector<SearchHit> hits = search(rows, "needle");
  REQUIRE(hits.size() == 1);
  std::string expected = "needle ";
  for (int i = 0; i < 113; ++i) expected += "é";
  CHECK(hits[0].snippet == expected);
}
