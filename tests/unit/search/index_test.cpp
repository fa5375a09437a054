#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "memkit/search.hpp"

namespace {

using memkit::search::Index;
using memkit::search::parse_query;

std::vector<std::size_t> found(const Index& index, std::string_view query, std::size_t limit = 10) {
  std::vector<std::size_t> out;
  for (const memkit::search::Hit& hit : index.search(*parse_query(query), limit)) {
    out.push_back(hit.document);
  }
  return out;
}

Index gaia_like() {
  Index index;
  index.add("Clear the build cache before a release", {{"layout", "curated"}, {"type", "project"}});
  index.add("Deploy from the release branch only", {{"layout", "curated"}, {"type", "feedback"}});
  index.add("The cache_dir setting moved to config.toml", {{"layout", "tiers"}, {"date", "2026-03-07"}});
  index.add("Staging deploys wait for the cache warm-up", {{"layout", "memorybox"}, {"tier", "2"},
                                                           {"confidence", "0.85"}});
  return index;
}

}  // namespace

TEST_CASE("search index: what a Gaia user expects: OR, whole words inside names, phrases") {
  const Index index = gaia_like();
  CHECK(found(index, "cache OR deploy").size() == 4);
  CHECK(found(index, "cache deploy").empty());  // "deploys" is another word: no stemming
  CHECK(found(index, "cache deploy*") == std::vector<std::size_t>{3});
  CHECK(found(index, "cache_dir") == std::vector<std::size_t>{2});
  CHECK(found(index, "\"release branch\"") == std::vector<std::size_t>{1});
  CHECK(found(index, "\"branch release\"").empty());
  CHECK(found(index, "deplo*").size() == 2);
  CHECK(found(index, "cache NOT staging").size() == 2);
}

TEST_CASE("search index: filters narrow the matches; filters alone list what passes") {
  const Index index = gaia_like();
  CHECK(found(index, "cache layout:tiers") == std::vector<std::size_t>{2});
  CHECK(found(index, "tier:2") == std::vector<std::size_t>{3});
  CHECK(found(index, "min-confidence:0.9").empty());
  CHECK(found(index, "min-confidence:0.8") == std::vector<std::size_t>{3});
  CHECK(found(index, "since:2026-03-07") == std::vector<std::size_t>{2});
  CHECK(found(index, "until:2026-03-06").empty());
  CHECK(index.count(*parse_query("layout:curated")) == 2);
}

TEST_CASE("search index: BM25 as FTS5 computes it") {
  Index index;
  index.add("alpha beta");                    // 0
  index.add("alpha alpha alpha gamma delta");  // 1
  index.add("beta gamma");                    // 2
  index.add("delta");                         // 3
  const std::vector<memkit::search::Hit> hits = index.search(*parse_query("alpha"), 10);
  REQUIRE(hits.size() == 2);
  // n = 4 documents, 2 hold alpha: idf = ln((4 - 2 + 0.5) / (2 + 0.5)) = 0, floored to 1e-6.
  const double average = 10.0 / 4.0;
  const auto bm25 = [&](double tf, double length) {
    return 1e-6 * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average));
  };
  CHECK(hits[0].document == 1);
  CHECK(std::abs(hits[0].score - bm25(3, 5)) < 1e-15);
  CHECK(std::abs(hits[1].score - bm25(1, 2)) < 1e-15);
  // A rarer term: idf = ln((4 - 1 + 0.5) / 1.5).
  const std::vector<memkit::search::Hit> rare = index.search(*parse_query("gamma OR delta"), 1);
  REQUIRE(rare.size() == 1);
  CHECK(rare[0].document == 1);  // holds both
}

TEST_CASE("search index: ties keep the order documents were added; limit cuts") {
  Index index;
  for (int i = 0; i < 5; ++i) index.add("same words");
  CHECK(found(index, "same", 3) == std::vector<std::size_t>{0, 1, 2});
  CHECK(found(index, "same", 0).empty());
  CHECK(Index().search(*parse_query("same"), 5).empty());
}

TEST_CASE("search snippet: the passage around the first match, hits marked") {
  const memkit::Result<memkit::search::Query> q = parse_query("\"release branch\" OR cach*");
  REQUIRE(q);
  CHECK(memkit::search::snippet("Deploy from the release branch only", *q) ==
        "Deploy from the [release] [branch] only");
  CHECK(memkit::search::snippet("The cache_dir setting", *q) == "The [cache]_dir setting");
  CHECK(memkit::search::snippet("one two three four five six seven eight nine ten cache eleven",
                                *q, 4) == "…ten [cache] eleven");
  CHECK(memkit::search::snippet("nothing here", *q) == "nothing here");
}
