#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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

TEST_CASE("search index: filters narrow the matches, filters alone list what passes") {
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

TEST_CASE("search index: ties keep the order documents were added, limit cuts") {
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
  // One line to show: white space runs, line breaks too, are one space; no match is the start.
  CHECK(memkit::search::snippet("## Cache\n\n- keys  carry\tthe tenant", *q) ==
        "[Cache] - keys carry the tenant");
  CHECK(memkit::search::snippet("one two\nthree four five", *q, 3) == "one two three…");
  CHECK(memkit::search::snippet("-- ** --", *q).empty());
}

namespace {

using Node = memkit::search::Query::Node;

// How often a leaf occurs in a document's terms: the reference the index is checked against.
std::size_t occurrences(const Node& leaf, const std::vector<memkit::search::Term>& terms) {
  std::size_t count = 0;
  for (std::size_t start = 0; start + leaf.terms.size() <= terms.size(); ++start) {
    bool all = true;
    for (std::size_t i = 0; i < leaf.terms.size() && all; ++i) {
      const bool prefix = leaf.kind == Node::Kind::prefix && i + 1 == leaf.terms.size();
      all = prefix ? terms[start + i].text.starts_with(leaf.terms[i])
                   : terms[start + i].text == leaf.terms[i];
    }
    count += all ? 1 : 0;
  }
  return count;
}

bool holds(const Node& node, const std::vector<memkit::search::Term>& terms) {
  switch (node.kind) {
    case Node::Kind::all_of:
      return std::all_of(node.children.begin(), node.children.end(), [&](const Node& c) {
        return c.kind == Node::Kind::none_of ? !holds(c.children[0], terms) : holds(c, terms);
      });
    case Node::Kind::any_of:
      return std::any_of(node.children.begin(), node.children.end(),
                         [&](const Node& c) { return holds(c, terms); });
    case Node::Kind::none_of:
      return false;
    default:
      return occurrences(node, terms) > 0;
  }
}

void leaves_of(const Node& node, std::vector<const Node*>& out) {
  if (node.kind == Node::Kind::none_of) return;
  if (node.children.empty()) out.push_back(&node);
  for (const Node& c : node.children) leaves_of(c, out);
}

}  // namespace

TEST_CASE("search index: top hits equal an exhaustive reference on random documents and queries") {
  const std::vector<std::string> words = {"cache", "cached", "deploy", "release", "branch",
                                          "stage", "staging", "dir", "config", "café"};
  std::uint64_t seed = 12345;
  const auto next = [&](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> texts;
    Index index;
    for (int d = 0; d < 30; ++d) {
      std::string text;
      for (std::size_t w = 0, n = 1 + next(8); w < n; ++w) text += words[next(words.size())] + " ";
      texts.push_back(text);
      index.add(text);
    }
    const std::vector<std::string> shapes = {"A", "A B", "A OR B", "A NOT B", "\"A B\"", "P*",
                                             "(A OR B) C", "A OR \"B C\" NOT D"};
    std::string query = shapes[next(shapes.size())];
    for (const char slot : {'A', 'B', 'C', 'D'}) {
      const std::size_t at = query.find(slot);
      if (at != std::string::npos) query.replace(at, 1, words[next(words.size())]);
    }
    if (const std::size_t at = query.find("P*"); at != std::string::npos) {
      query.replace(at, 1, words[next(words.size())].substr(0, 1 + next(4)));
    }
    const memkit::Result<memkit::search::Query> q = parse_query(query);
    REQUIRE_MESSAGE(q, query);
    std::vector<std::vector<memkit::search::Term>> analysed;
    std::uint64_t total = 0;
    for (const std::string& t : texts) {
      analysed.push_back(memkit::search::analyze(t));
      total += analysed.back().size();
    }
    std::vector<const Node*> leaves;
    leaves_of(*q->root(), leaves);
    std::vector<memkit::search::Hit> expected;
    for (std::size_t d = 0; d < texts.size(); ++d) {
      if (!holds(*q->root(), analysed[d])) continue;
      double score = 0;
      for (const Node* leaf : leaves) {
        std::size_t holding = 0;
        for (const auto& terms : analysed) holding += occurrences(*leaf, terms) > 0 ? 1 : 0;
        const double idf = std::max(1e-6, std::log((30.0 - static_cast<double>(holding) + 0.5) /
                                                   (static_cast<double>(holding) + 0.5)));
        const double tf = static_cast<double>(occurrences(*leaf, analysed[d]));
        const double length = static_cast<double>(analysed[d].size()) / (static_cast<double>(total) / 30.0);
        score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length));
      }
      expected.push_back({d, score});
    }
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.score > b.score; });
    const std::vector<memkit::search::Hit> got = index.search(*q, 100);
    REQUIRE_MESSAGE(got.size() == expected.size(), query);
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK_MESSAGE(got[i].document == expected[i].document, query);
      CHECK_MESSAGE(std::abs(got[i].score - expected[i].score) < 1e-9, query);
    }
    CHECK(index.count(*q) == expected.size());
  }
}

TEST_CASE("search index: a top-k that skips postings gives what scoring every match gives") {
  // 3,000 documents: common terms span many blocks of postings. A one-term query (block-max),
  // terms ORed (MaxScore) and terms ANDed (block-max, led by the shortest list) skip postings;
  // the same query with a filter every document passes takes the path that scores every match.
  // Both give the same hits, scores equal to the bit. Then 20,000 whose words come and go in runs
  // of documents: ANDed lists that share no document over whole blocks.
  std::uint64_t seed = 99;
  const auto next = [&](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "epsilon"};
  Index mixed;
  for (int d = 0; d < 3000; ++d) {
    std::string text;
    for (std::size_t w = 0, n = 1 + next(40); w < n; ++w) text += words[next(next(5) + 1)] + " ";
    mixed.add(text, {{"layout", "tiers"}});
  }
  Index runs;
  for (std::size_t d = 0; d < 20000; ++d) {
    std::string text;
    for (std::size_t w = 0; w < words.size(); ++w) {
      if ((d / (300 + 170 * w)) % (w + 2) != 0) continue;  // word w in some runs of documents
      for (std::size_t n = next(4); n > 0; --n) text += words[w] + " ";
    }
    for (std::size_t n = next(30); n > 0; --n) text += "filler ";
    runs.add(text + "end", {{"layout", "tiers"}});
  }
  // And 20,000 of 42 words where one in 1,002 holds beta more often the later it comes, the rest
  // once: beta's blocks bound differently, and a block of alpha (every third document, scoring
  // alike in all) overlaps three of them, the best possibly in the first.
  Index spikes;
  for (std::size_t d = 0; d < 20000; ++d) {
    const std::size_t beta = d % 1002 == 501 ? 2 + d / 1002 : 1;
    std::string text = d % 3 == 0 ? "alpha" : "other";
    for (std::size_t n = 0; n < 41; ++n) text += n < beta ? " beta" : " filler";
    spikes.add(text, {{"layout", "tiers"}});
  }
  std::vector<std::string> queries = words;
  for (std::size_t a = 0; a < words.size(); ++a) {
    for (std::size_t b = a + 1; b < words.size(); ++b) {
      queries.push_back(words[a] + " OR " + words[b]);
      queries.push_back(words[b] + " OR " + words[a] + " OR absentword");
      if (b + 1 < words.size()) queries.push_back(words[a] + " OR " + words[b] + " OR " + words[b + 1]);
      queries.push_back(words[a] + " " + words[b]);  // ANDed: led by the shorter list
      if (b + 1 < words.size()) queries.push_back(words[b + 1] + " " + words[a] + " " + words[b]);
    }
  }
  for (const Index* index : {&mixed, &runs, &spikes}) {
    for (const std::string& query : queries) {
      for (const std::size_t limit : {std::size_t{1}, std::size_t{10}, std::size_t{100}}) {
        const std::vector<memkit::search::Hit> skipping = index->search(*parse_query(query), limit);
        const std::vector<memkit::search::Hit> every =
            index->search(*parse_query(query + " layout:tiers"), limit);
        CHECK_MESSAGE(skipping == every, query << " top " << limit << " of " << index->size());
        // Counted as the lists walked side by side and as the matches gathered: the same.
        const std::size_t count = index->count(*parse_query(query));
        CHECK_MESSAGE(count == index->count(*parse_query(query + " layout:tiers")), query);
        CHECK(skipping.size() == std::min(limit, count));
      }
    }
  }
}

namespace {

// An index of `count` generated documents with facets, the same for the same seed.
Index generated(int count, std::uint64_t seed) {
  const auto next = [&](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "café", "cache_dir"};
  Index index;
  for (int d = 0; d < count; ++d) {
    std::string text;
    for (std::size_t w = 0, n = 1 + next(30); w < n; ++w) text += words[next(next(6) + 1)] + " ";
    index.add(text, {{"layout", d % 2 == 0 ? "tiers" : "curated"}, {"date", "2026-11-2" + std::to_string(d % 10)}});
  }
  return index;
}

// Opens bytes kept in a string that the index owns.
memkit::Result<Index> open_bytes(std::string bytes) {
  auto kept = std::make_shared<const std::string>(std::move(bytes));
  return Index::open(*kept, kept);
}

const std::vector<std::string>& queries() {
  static const std::vector<std::string> all = {
      "alpha", "beta OR gamma", "alpha beta", "\"cache dir\"", "caf*", "alpha NOT delta",
      "(beta OR delta) gamma", "layout:tiers", "beta since:2026-11-25", "absent", "alpha OR absent"};
  return all;
}

}  // namespace

TEST_CASE("search index bytes: an opened index answers every query as the built one") {
  const Index built = generated(700, 5);
  const std::string bytes = built.serialize();
  CHECK(generated(700, 5).serialize() == bytes);  // the same index, the same bytes
  memkit::Result<Index> opened = open_bytes(bytes);
  REQUIRE(opened);
  CHECK(opened->size() == built.size());
  for (const std::string& text : queries()) {
    const auto q = parse_query(text);
    REQUIRE(q);
    CHECK_MESSAGE(opened->search(*q, 10) == built.search(*q, 10), text);
    CHECK_MESSAGE(opened->count(*q) == built.count(*q), text);
  }
  CHECK(opened->serialize() == bytes);
  // Adding to an opened index copies it first: the same as adding to the built one.
  Index grown = std::move(opened).value();
  Index again = generated(700, 5);
  grown.add("alpha omega", {{"layout", "tiers"}});
  again.add("alpha omega", {{"layout", "tiers"}});
  CHECK(grown.serialize() == again.serialize());
  CHECK(grown.search(*parse_query("omega"), 5) == again.search(*parse_query("omega"), 5));
}

TEST_CASE("search index bytes: torn, damaged or foreign bytes are an error, never a fault") {
  const std::string bytes = generated(300, 9).serialize();
  CHECK(open_bytes(Index().serialize()));  // an empty index is an index
  CHECK(open_bytes("").status().message() == "index: not a memkit search index");
  CHECK(open_bytes("not an index at all").status().message() == "index: not a memkit search index");
  std::string version = bytes;
  version[8] = 2;
  CHECK(open_bytes(version).status().message() == "index: version 2 (this memkit reads 1)");
  for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 7) {
    CHECK_MESSAGE(!open_bytes(bytes.substr(0, cut)), "cut at " << cut);
  }
  // Every byte flipped in turn: refused, or (where the change is one no check can see, such as
  // a position or a facet's letter) an index whose every query runs. Opened without the checks
  // (as a store opens the packs it wrote), every query runs all the same, and so do copying its
  // documents and adding to it: what a query reaches is checked where it reaches it.
  std::size_t refused = 0;
  for (std::size_t at = 0; at < bytes.size(); at += 3) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    const auto kept_flipped = std::make_shared<const std::string>(flipped);
    if (memkit::Result<Index> unchecked = Index::open(*kept_flipped, kept_flipped, false)) {
      for (const std::string& text : queries()) {
        (void)unchecked->search(*parse_query(text), 10);
        (void)unchecked->count(*parse_query(text));
      }
      const memkit::search::Run all{&*unchecked, 0, unchecked->size()};
      (void)memkit::search::serialize(std::span(&all, 1));
      unchecked->add("alpha beta", {});
      (void)unchecked->search(*parse_query("alpha"), 10);
    }
    const memkit::Result<Index> opened = open_bytes(flipped);
    if (!opened) {
      CHECK(opened.status().message().starts_with("index: "));
      ++refused;
      continue;
    }
    for (const std::string& text : queries()) (void)opened->search(*parse_query(text), 10);
  }
  CHECK(refused > 0);
  const auto kept = std::make_shared<const std::string>(" " + bytes);
  CHECK(Index::open(std::string_view(*kept).substr(1), kept).status().message() ==
        "index: the bytes are not aligned to 8");
}

TEST_CASE("search index in parts: the hits of one index holding every part's documents") {
  // 2,000 generated documents, once in one index and once cut at random into parts (some of them
  // opened from bytes, one of them empty): every query gives the same hits, scores equal to the
  // bit, numbered across the parts, and the same count. Each query path is crossed: one term
  // (block-max), terms ORed (MaxScore), ANDed, phrases, prefixes, NOT, filters.
  std::uint64_t seed = 7;
  const auto next = [&](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "café", "cache_dir"};
  std::vector<std::pair<std::string, memkit::search::Facets>> documents;
  for (int d = 0; d < 2000; ++d) {
    std::string text;
    for (std::size_t w = 0, n = 1 + next(30); w < n; ++w) text += words[next(next(6) + 1)] + " ";
    documents.push_back({text, {{"layout", d % 3 == 0 ? "tiers" : "curated"}}});
  }
  Index whole;
  for (const auto& [text, facets] : documents) whole.add(text, facets);
  for (int round = 0; round < 4; ++round) {
    std::vector<Index> parts(1);
    for (const auto& [text, facets] : documents) {
      if (next(round == 0 ? 2 : 300) == 0) parts.emplace_back();
      parts.back().add(text, facets);
    }
    parts.emplace_back();  // an empty part changes nothing
    for (std::size_t i = 0; i < parts.size(); i += 2) parts[i] = *open_bytes(parts[i].serialize());
    // Each part's documents numbered after the ones before, as one segment.
    std::vector<memkit::search::Segment> segments;
    std::size_t number = 0;
    for (const Index& part : parts) {
      segments.push_back({0, part.size(), number});
      number += part.size();
    }
    std::vector<memkit::search::Part> views;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      views.push_back({&parts[i], std::span<const memkit::search::Segment>(&segments[i], 1)});
    }
    std::vector<std::string> all = queries();
    all.insert(all.end(), {"alpha OR beta OR gamma", "delta gamma", "alpha layout:curated",
                           "cache OR caf* OR delta"});
    for (const std::string& text : all) {
      const auto q = parse_query(text);
      REQUIRE(q);
      for (const std::size_t limit : {std::size_t{1}, std::size_t{10}, std::size_t{2000}}) {
        CHECK_MESSAGE(memkit::search::search(views, *q, limit) == whole.search(*q, limit),
                      text << " in " << parts.size() << " parts, top " << limit);
      }
      CHECK(memkit::search::count(views, *q) == whole.count(*q));
    }
  }
}

TEST_CASE("search index in parts: documents no segment covers do not count, numbers as given") {
  // As a store keeps an index on disk: 1,200 documents that count, cut into runs ("files") that
  // sit in three parts in no order of their numbers, between runs that no longer count (a changed
  // file's old documents). Those hold "ghost" and many of the other words: they must change no
  // hit, no score and no count. One index of the documents that count, in number order, is the
  // reference, to the bit.
  std::uint64_t seed = 99;
  const auto next = [&](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "café", "cache_dir"};
  const auto text = [&](bool ghost) {
    std::string out = ghost ? "ghost " : "";
    for (std::size_t w = 0, n = 1 + next(30); w < n; ++w) out += words[next(next(6) + 1)] + " ";
    return out;
  };
  const auto facets = [](std::size_t d) {
    return memkit::search::Facets{{"layout", d % 3 == 0 ? "tiers" : "curated"}};
  };
  Index whole;
  std::vector<Index> parts(3);
  std::vector<std::vector<memkit::search::Segment>> segments(3);
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // (first number, count)
  for (std::size_t number = 0; number < 1200;) {
    const std::size_t count = std::min<std::size_t>(1 + next(60), 1200 - number);
    runs.emplace_back(number, count);
    number += count;
  }
  for (std::size_t r = 0; r < runs.size(); ++r) {  // the runs in a shuffled order
    std::swap(runs[r], runs[r + next(runs.size() - r)]);
  }
  std::vector<std::string> texts(1200);
  for (std::string& t : texts) t = text(false);
  for (std::size_t d = 0; d < 1200; ++d) whole.add(texts[d], facets(d));
  for (const auto& [first_number, count] : runs) {
    const std::size_t p = next(3);
    for (std::size_t gone = next(3) == 0 ? 1 + next(40) : 0; gone > 0; --gone) {
      parts[p].add(text(true), facets(gone));
    }
    segments[p].push_back({parts[p].size(), count, first_number});
    for (std::size_t d = first_number; d < first_number + count; ++d) parts[p].add(texts[d], facets(d));
  }
  parts[1].add(text(true), facets(0));  // a part that ends with documents that do not count
  parts[0] = *open_bytes(parts[0].serialize());
  std::vector<memkit::search::Part> views;
  for (std::size_t p = 0; p < 3; ++p) views.push_back({&parts[p], segments[p]});
  std::vector<std::string> all = queries();
  all.insert(all.end(), {"ghost", "ghost OR alpha", "ghost alpha", "gh*", "alpha OR beta OR gamma",
                         "delta gamma", "alpha layout:curated", "\"ghost alpha\""});
  for (const std::string& query : all) {
    const auto q = parse_query(query);
    REQUIRE(q);
    for (const std::size_t limit : {std::size_t{1}, std::size_t{10}, std::size_t{1200}}) {
      CHECK_MESSAGE(memkit::search::search(views, *q, limit) == whole.search(*q, limit),
                    query << ", top " << limit);
    }
    CHECK_MESSAGE(memkit::search::count(views, *q) == whole.count(*q), query);
  }
  CHECK(memkit::search::search(views, *parse_query("ghost"), 10).empty());
}

TEST_CASE("search index runs: documents copied from other indexes answer as if added") {
  // 1,500 generated documents; the whole built by add(), and again as the bytes of runs: the
  // first 400 of a built index of them, 400..1,100 of an opened index of all of them, the rest of
  // the built whole, and runs past the end or of nothing. Every query gives the same hits, scores
  // to the bit, and the same count; the bytes are the whole's own.
  const Index whole = generated(1500, 21);
  const std::string bytes = whole.serialize();
  const memkit::Result<Index> opened = open_bytes(bytes);
  REQUIRE(opened);
  const Index first = generated(400, 21);  // the same seed: the same first 400 documents
  const std::vector<memkit::search::Run> runs = {
      {&first, 0, 400}, {&*opened, 400, 700}, {&whole, 1100, 10'000}, {&whole, 1500, 3},
      {&whole, 0, 0}};
  const std::string copied_bytes = memkit::search::serialize(runs);
  CHECK(copied_bytes == bytes);
  // Two runs of one index with another's between them, as a pack with one file changed is made.
  const std::vector<memkit::search::Run> around = {
      {&whole, 0, 200}, {&first, 200, 200}, {&*opened, 400, 300}, {&whole, 700, 800}};
  CHECK(memkit::search::serialize(around) == bytes);
  const memkit::Result<Index> copied = open_bytes(copied_bytes);
  REQUIRE(copied);
  REQUIRE(copied->size() == whole.size());
  std::vector<std::string> all = queries();
  all.insert(all.end(), {"alpha OR beta OR gamma", "delta gamma", "\"alpha beta\""});
  for (const std::string& text : all) {
    const auto q = parse_query(text);
    REQUIRE(q);
    CHECK_MESSAGE(copied->search(*q, 50) == whole.search(*q, 50), text);
    CHECK_MESSAGE(copied->count(*q) == whole.count(*q), text);
  }
  // A run leaves out the terms only its other documents hold: their bytes are not copied.
  Index two;
  two.add("alpha zebrapassword", {});
  two.add("alpha beta", {});
  const memkit::search::Run second{&two, 1, 1};
  const std::string kept = memkit::search::serialize(std::span(&second, 1));
  CHECK(kept.find("zebrapassword") == std::string::npos);
  CHECK(open_bytes(kept)->search(*parse_query("alpha"), 5).size() == 1);
}

namespace {

// A stemmer for tests: drops "ing", "ed" and "s" from the end of a term of more than 4 letters.
class SuffixStemmer final : public memkit::search::Stemmer {
 public:
  void stem(std::string& term) const override {
    for (const std::string_view suffix : {"ing", "ed", "s"}) {
      if (term.size() > 4 && term.ends_with(suffix)) {
        term.resize(term.size() - suffix.size());
        return;
      }
    }
  }
};

}  // namespace

TEST_CASE("search stemming: documents and queries stemmed alike, a prefix as written") {
  const SuffixStemmer stemmer;
  Index index(&stemmer);
  index.add("Deploying the release branch", {});
  index.add("Deployed twice; deploys are slow", {});
  index.add("Caching rules", {});
  const auto found_with = [&](std::string_view text) {
    std::vector<std::size_t> out;
    for (const auto& hit : index.search(*parse_query(text, &stemmer), 10)) out.push_back(hit.document);
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(found_with("deploy") == std::vector<std::size_t>{0, 1});
  CHECK(found_with("deploys") == std::vector<std::size_t>{0, 1});
  CHECK(found_with("\"releases branch\"") == std::vector<std::size_t>{0});
  CHECK(found_with("cach*") == std::vector<std::size_t>{2});
  CHECK(found_with("caching*").empty());  // the prefix is not stemmed; the document's term is "cach"
  CHECK(parse_query("deploying OR caches", &stemmer)->describe() == "(OR deploy cache)");
  // Without the stemmer the same index's stemmed terms match only a query's exact stem.
  CHECK(index.search(*parse_query("deploying"), 10).empty());
  CHECK(memkit::search::snippet("Deployed twice; deploys are slow", *parse_query("deploy", &stemmer),
                                16, &stemmer) == "[Deployed] twice; [deploys] are slow");
  CHECK(memkit::search::analyze("Deploying caches", &stemmer) ==
        std::vector<memkit::search::Term>{{"deploy", 0, 9}, {"cache", 10, 16}});
}
