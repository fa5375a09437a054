// Search (memkit/search.hpp, issue 28) beside SQLite FTS5, on the same input in one run: short
// synthetic memory entries (12 to 20 words, about 100 bytes, a Zipf vocabulary of 50,000 words,
// a fixed seed; MEMKIT_BENCH_SEARCH_ENTRIES of them, 1,000,000 by default). Each side builds its
// index, then answers top-10 queries of each class the issue names: a rare, a mid-frequency and a
// common term, two terms ANDed, three ORed. `agreement` runs 1,000 generated queries on both and
// counts those whose top 10 agree (ties at the tenth score aside): the scoring is FTS5's bm25.
// The `_corpora` runs do the same on real Markdown: each paragraph (text between blank lines) of
// every *.md file under MEMKIT_CORPORA_DIR is one document, and the queries draw their terms from
// the corpora's own words.
// FTS5 (Debian's libsqlite3-dev) is a dependency of this program only; without it, memkit alone.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <map>

#include "corpus.hpp"
#include "memkit/search.hpp"
#include "split_mix.hpp"

#if MEMKIT_BENCH_WITH_SQLITE
#include <sqlite3.h>
#endif

namespace {

constexpr std::size_t kVocabulary = 50'000;

// At least 2,000: the update and rewrite benchmarks index a file of 1,000 entries beside others.
std::size_t entry_count() {
  const char* given = std::getenv("MEMKIT_BENCH_SEARCH_ENTRIES");
  const std::size_t n =
      given != nullptr ? static_cast<std::size_t>(std::strtoull(given, nullptr, 10)) : 1'000'000;
  return std::max<std::size_t>(n, 2'000);
}

// A file's entries in the update and rewrite benchmarks (100 KB), and the entries of the pack the
// rewrite makes again: 80,000 (8 MiB, the store's pack size), fewer when fewer were generated.
constexpr std::size_t kFileEntries = 1'000;
std::size_t pack_entries() { return std::min<std::size_t>(80'000, entry_count() - kFileEntries); }

// The word of each rank: "w" and the rank in base 26 letters, so every word is one term.
std::string word(std::size_t rank) {
  std::string out = "w";
  do {
    out.push_back(static_cast<char>('a' + rank % 26));
    rank /= 26;
  } while (rank > 0);
  return out;
}

// Entries of 12 to 20 words drawn from a Zipf(1) distribution over the vocabulary.
const std::vector<std::string>& entries() {
  static const std::vector<std::string> out = [] {
    std::vector<double> cumulative(kVocabulary);
    double total = 0;
    for (std::size_t r = 0; r < kVocabulary; ++r) cumulative[r] = total += 1.0 / static_cast<double>(r + 1);
    memkit::bench::SplitMix64 random(0x7365617263682D31ULL);  // "search-1"
    std::vector<std::string> made;
    made.reserve(entry_count());
    for (std::size_t i = 0; i < entry_count(); ++i) {
      std::string entry;
      const std::size_t words = random.between(12, 20);
      for (std::size_t w = 0; w < words; ++w) {
        const double u = static_cast<double>(random.next() >> 11) * 0x1.0p-53 * total;
        const auto rank = static_cast<std::size_t>(
            std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
        entry += (w == 0 ? "" : " ") + word(std::min(rank, kVocabulary - 1));
      }
      made.push_back(std::move(entry));
    }
    return made;
  }();
  return out;
}

// The corpora's paragraphs, in path order: empty when MEMKIT_CORPORA_DIR names none.
const std::vector<std::string>& paragraphs() {
  static const std::vector<std::string> out = [] {
    std::vector<std::string> made;
    const memkit::bench::Corpus& corpus = memkit::bench::corpus_from_environment();
    if (!corpus.bytes) return made;
    const std::string_view all = *corpus.bytes;
    for (std::size_t at = 0; at < all.size();) {
      std::size_t end = all.find("\n\n", at);
      if (end == std::string_view::npos) end = all.size();
      const std::string_view paragraph = all.substr(at, end - at);
      if (paragraph.find_first_not_of(" \t\r\n") != std::string_view::npos) {
        made.emplace_back(paragraph);
      }
      at = end + 2;
    }
    return made;
  }();
  return out;
}

// 1,000 queries of one to three of the corpora's own terms (each quoted for FTS5), ANDed or ORed,
// their ranks in the corpora's term frequencies spread from the most frequent to the rarest.
std::vector<std::string> corpora_queries(bool quoted) {
  std::map<std::string, std::size_t> counts;
  for (const std::string& p : paragraphs()) {
    for (const memkit::search::Term& t : memkit::search::analyze(p)) ++counts[t.text];
  }
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (const auto& [term, n] : counts) ranked.emplace_back(n, term);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  memkit::bench::SplitMix64 random(0x636F72706F72612DULL);  // "corpora-"
  std::vector<std::string> out;
  for (int i = 0; i < 1000 && !ranked.empty(); ++i) {
    const std::size_t terms = random.between(1, 3);
    const bool any = random.one_in(2);
    std::string q;
    for (std::size_t t = 0; t < terms; ++t) {
      const auto rank = static_cast<std::size_t>(
          std::pow(static_cast<double>(ranked.size()), static_cast<double>(random.below(1000)) / 1000.0));
      const std::string& term = ranked[std::min(rank, ranked.size() - 1)].second;
      q += (t == 0 ? "" : any ? " OR " : " ") + (quoted ? "\"" + term + "\"" : term);
    }
    out.push_back(std::move(q));
  }
  return out;
}

const memkit::search::Index& memkit_index() {
  static const memkit::search::Index index = [] {
    memkit::search::Index built;
    for (const std::string& e : entries()) built.add(e);
    return built;
  }();
  return index;
}

// The query classes, and 1,000 generated queries of one to three terms, ANDed or ORed.
const std::vector<std::pair<std::string, std::string>>& query_classes() {
  static const std::vector<std::pair<std::string, std::string>> classes = {
      {"rare", word(30'000)},
      {"mid", word(300)},
      {"common", word(1)},
      {"and_two", word(20) + " " + word(200)},
      {"or_three", word(50) + " OR " + word(500) + " OR " + word(5'000)}};
  return classes;
}

std::vector<std::string> generated_queries() {
  memkit::bench::SplitMix64 random(0x71756572792D3031ULL);  // "query-01"
  std::vector<std::string> out;
  for (int i = 0; i < 1000; ++i) {
    const std::size_t terms = random.between(1, 3);
    const bool any = random.one_in(2);
    std::string q;
    for (std::size_t t = 0; t < terms; ++t) {
      const std::size_t rank = static_cast<std::size_t>(std::pow(10.0, static_cast<double>(random.below(4000)) / 1000.0));
      q += (t == 0 ? "" : any ? " OR " : " ") + word(std::min(rank, kVocabulary - 1));
    }
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<memkit::search::Hit> memkit_top10(const std::string& text) {
  return memkit_index().search(*memkit::search::parse_query(text), 10);
}

void BM_memkit_build(benchmark::State& state) {
  (void)entries();  // generated before the clock runs
  for (auto _ : state) {
    memkit::search::Index index;
    for (const std::string& e : entries()) index.add(e);
    benchmark::DoNotOptimize(index.size());
  }
  state.counters["entries"] = static_cast<double>(entries().size());
}
BENCHMARK(BM_memkit_build)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_memkit_build_corpora(benchmark::State& state) {
  if (paragraphs().empty()) {
    state.SkipWithError(memkit::bench::corpus_from_environment().error.c_str());
    return;
  }
  for (auto _ : state) {
    memkit::search::Index index;
    for (const std::string& p : paragraphs()) index.add(p);
    benchmark::DoNotOptimize(index.size());
  }
  std::size_t bytes = 0;
  for (const std::string& p : paragraphs()) bytes += p.size();
  state.counters["paragraphs"] = static_cast<double>(paragraphs().size());
  state.counters["MiB"] = static_cast<double>(bytes) / (1 << 20);
}
BENCHMARK(BM_memkit_build_corpora)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_memkit_query(benchmark::State& state) {
  const auto& [name, text] = query_classes()[static_cast<std::size_t>(state.range(0))];
  const memkit::search::Query q = *memkit::search::parse_query(text);
  const memkit::search::Index& index = memkit_index();  // built before the clock runs
  for (auto _ : state) benchmark::DoNotOptimize(index.search(q, 10).size());
  state.SetLabel(name);
  state.counters["matches"] = static_cast<double>(memkit_index().count(q));
}
BENCHMARK(BM_memkit_query)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// Counting every match (what `memkit search` prints beside its top hits).
void BM_memkit_count(benchmark::State& state) {
  const auto& [name, text] = query_classes()[static_cast<std::size_t>(state.range(0))];
  const memkit::search::Query q = *memkit::search::parse_query(text);
  const memkit::search::Index& index = memkit_index();
  std::size_t matches = 0;
  for (auto _ : state) benchmark::DoNotOptimize(matches = index.count(q));
  state.SetLabel(name);
  state.counters["matches"] = static_cast<double>(matches);
}
BENCHMARK(BM_memkit_count)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// The index as bytes (what .memkit/index/ is to hold): serialize it, then open the bytes in place
// (every offset and posting checked) and answer a mid-frequency query, as a fresh process would.
void BM_memkit_open(benchmark::State& state) {
  const auto bytes = std::make_shared<const std::string>(memkit_index().serialize());
  const memkit::search::Query q = *memkit::search::parse_query(query_classes()[1].second);
  for (auto _ : state) {
    const memkit::Result<memkit::search::Index> opened = memkit::search::Index::open(*bytes, bytes);
    benchmark::DoNotOptimize(opened->search(q, 10).size());
  }
  state.counters["MiB"] = static_cast<double>(bytes->size()) / (1 << 20);
}
BENCHMARK(BM_memkit_open)->Unit(benchmark::kMillisecond);

// One 100 KB file (1,000 entries) grown, as the index on disk updates it (store/recall_index): the
// file's entries indexed into a pack of its own, its bytes written (serialize) and opened. Its old
// entries stay in their pack, no longer counting.
void BM_memkit_update(benchmark::State& state) {
  (void)entries();  // generated before the clock runs
  const std::size_t first = std::min<std::size_t>(10'000, entries().size() - kFileEntries);
  for (auto _ : state) {
    memkit::search::Index grown;
    for (std::size_t i = first; i < first + kFileEntries; ++i) grown.add(entries()[i]);
    const auto bytes = std::make_shared<const std::string>(grown.serialize());
    const memkit::Result<memkit::search::Index> pack =
        memkit::search::Index::open(*bytes, bytes, false);
    benchmark::DoNotOptimize(pack->size());
  }
}
BENCHMARK(BM_memkit_update)->Unit(benchmark::kMillisecond);

// One 100 KB file changed other than by growing, in a pack of 8 MiB (80,000 entries, the store's
// pack size): the pack made again, the changed file's 1,000 entries indexed and the other 79,000
// copied from the old pack (search::serialize of runs). Deletion is real: no pack keeps what the
// change removed.
void BM_memkit_rewrite(benchmark::State& state) {
  const std::size_t n = pack_entries();
  memkit::search::Index pack;
  for (std::size_t i = 0; i < n; ++i) pack.add(entries()[i]);
  const auto bytes = std::make_shared<const std::string>(pack.serialize());
  for (auto _ : state) {
    const memkit::Result<memkit::search::Index> old = memkit::search::Index::open(*bytes, bytes, false);
    memkit::search::Index changed;
    for (std::size_t i = n; i < n + kFileEntries; ++i) changed.add(entries()[i]);
    // The changed file sat mid-pack: the entries before it and after it copied around its new ones.
    const std::size_t before = (n - kFileEntries) / 2;
    const std::vector<memkit::search::Run> runs = {
        {&*old, 0, before}, {&changed, 0, kFileEntries},
        {&*old, before + kFileEntries, n - before - kFileEntries}};
    benchmark::DoNotOptimize(memkit::search::serialize(runs).size());
  }
  state.counters["MiB"] = static_cast<double>(bytes->size()) / (1 << 20);
}
BENCHMARK(BM_memkit_rewrite)->Unit(benchmark::kMillisecond);

#if MEMKIT_BENCH_WITH_SQLITE

struct Fts5 {
  sqlite3* db = nullptr;
  sqlite3_stmt* top = nullptr;
  Fts5() {
    sqlite3_open(":memory:", &db);
    sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')",
                 nullptr, nullptr, nullptr);
  }
  void fill(const std::vector<std::string>& documents = entries()) {
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO t(rowid, body) VALUES (?, ?)", -1, &insert, nullptr);
    for (std::size_t i = 0; i < documents.size(); ++i) {
      sqlite3_bind_int64(insert, 1, static_cast<sqlite3_int64>(i));
      sqlite3_bind_text(insert, 2, documents[i].data(), static_cast<int>(documents[i].size()), SQLITE_STATIC);
      sqlite3_step(insert);
      sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_prepare_v2(db, "SELECT rowid, -rank FROM t WHERE t MATCH ? ORDER BY rank LIMIT 11",
                       -1, &top, nullptr);
  }
  ~Fts5() {
    sqlite3_finalize(top);
    sqlite3_close(db);
  }
  // The best 11 (the 11th tells a tie at the tenth): (rowid, score), best first.
  std::vector<std::pair<std::size_t, double>> best(const std::string& query) {
    std::vector<std::pair<std::size_t, double>> out;
    sqlite3_bind_text(top, 1, query.data(), static_cast<int>(query.size()), SQLITE_STATIC);
    while (sqlite3_step(top) == SQLITE_ROW) {
      out.emplace_back(static_cast<std::size_t>(sqlite3_column_int64(top, 0)), sqlite3_column_double(top, 1));
    }
    sqlite3_reset(top);
    return out;
  }
};

Fts5& fts5() {
  static Fts5 shared = [] {
    Fts5 made;
    made.fill();
    return made;
  }();
  return shared;
}

void BM_fts5_build(benchmark::State& state) {
  (void)entries();  // generated before the clock runs
  for (auto _ : state) {
    Fts5 fresh;
    fresh.fill();
  }
  state.counters["entries"] = static_cast<double>(entries().size());
}
BENCHMARK(BM_fts5_build)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_fts5_build_corpora(benchmark::State& state) {
  if (paragraphs().empty()) {
    state.SkipWithError(memkit::bench::corpus_from_environment().error.c_str());
    return;
  }
  for (auto _ : state) {
    Fts5 fresh;
    fresh.fill(paragraphs());
  }
  state.counters["paragraphs"] = static_cast<double>(paragraphs().size());
}
BENCHMARK(BM_fts5_build_corpora)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_fts5_query(benchmark::State& state) {
  const auto& [name, text] = query_classes()[static_cast<std::size_t>(state.range(0))];
  Fts5& db = fts5();  // filled before the clock runs
  for (auto _ : state) benchmark::DoNotOptimize(db.best(text).size());
  state.SetLabel(name);
}
BENCHMARK(BM_fts5_query)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// Top 10 agree when memkit's ten are FTS5's ten, but for documents tied with the tenth score.
bool agree(const std::vector<memkit::search::Hit>& mine, const std::vector<std::pair<std::size_t, double>>& theirs) {
  const std::size_t n = std::min<std::size_t>(10, theirs.size());
  if (mine.size() != n) return false;
  const double tenth = n > 0 ? theirs[n - 1].second : 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool tied = std::abs(mine[i].score - tenth) <= 1e-9 * std::max(1.0, std::abs(tenth));
    const bool listed = std::any_of(theirs.begin(), theirs.end(), [&](const auto& t) {
      return t.first == mine[i].document && std::abs(t.second - mine[i].score) <= 1e-6 * std::max(1.0, std::abs(t.second));
    });
    if (!listed && !tied) return false;
  }
  return true;
}

// The same ten documents, scores aside, but for documents tied (by FTS5's score) with its tenth:
// what a reader of the hits sees when the two differ in a few tokens of some documents.
bool same_ten(const std::vector<memkit::search::Hit>& mine,
              const std::vector<std::pair<std::size_t, double>>& theirs) {
  const std::size_t n = std::min<std::size_t>(10, theirs.size());
  if (mine.size() != n) return false;
  const double tenth = n > 0 ? theirs[n - 1].second : 0;
  for (const memkit::search::Hit& hit : mine) {
    const auto found = std::find_if(theirs.begin(), theirs.end(),
                                    [&](const auto& t) { return t.first == hit.document; });
    if (found == theirs.end() && !(theirs.size() > 10 && theirs[10].second == tenth)) return false;
  }
  return true;
}

void BM_agreement(benchmark::State& state) {
  std::size_t agreeing = 0;
  const std::vector<std::string> queries = generated_queries();
  for (auto _ : state) {
    agreeing = 0;
    for (const std::string& q : queries) agreeing += agree(memkit_top10(q), fts5().best(q)) ? 1 : 0;
  }
  state.counters["agree_percent"] = 100.0 * static_cast<double>(agreeing) / static_cast<double>(queries.size());
}
BENCHMARK(BM_agreement)->Unit(benchmark::kMillisecond)->Iterations(1);

// The same on the corpora's paragraphs with queries of their own words.
void BM_agreement_corpora(benchmark::State& state) {
  if (paragraphs().empty()) {
    state.SkipWithError(memkit::bench::corpus_from_environment().error.c_str());
    return;
  }
  memkit::search::Index index;
  for (const std::string& p : paragraphs()) index.add(p);
  Fts5 db;
  db.fill(paragraphs());
  const std::vector<std::string> mine = corpora_queries(false);
  const std::vector<std::string> theirs = corpora_queries(true);
  std::size_t agreeing = 0;
  std::size_t same_documents = 0;
  for (auto _ : state) {
    agreeing = 0;
    same_documents = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      const auto a = index.search(*memkit::search::parse_query(mine[i]), 10);
      const auto b = db.best(theirs[i]);
      agreeing += agree(a, b) ? 1 : 0;
      same_documents += same_ten(a, b) ? 1 : 0;
    }
  }
  state.counters["agree_percent"] = 100.0 * static_cast<double>(agreeing) / static_cast<double>(mine.size());
  state.counters["same_ten_percent"] =
      100.0 * static_cast<double>(same_documents) / static_cast<double>(mine.size());
  state.counters["queries"] = static_cast<double>(mine.size());
}
BENCHMARK(BM_agreement_corpora)->Unit(benchmark::kMillisecond)->Iterations(1);

#endif

}  // namespace
