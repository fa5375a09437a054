// Search (memkit/search.hpp): analysis, the query language and the index. The input is a query,
// then (after "\0\0") documents, one per line. Terms lie inside their text, in order, and analyse
// to themselves; a query that parses searches without fault: at most `limit` hits, best first,
// each a document that exists and passes count(); snippets never fail; the index serialized
// opens to the same answers, the documents' bytes opened as an index fail or answer, and the
// index's bytes with bytes changed, opened unchecked, answer without fault.
#include <algorithm>
#include <memory>
#include <string>

#include "fuzz_support.hpp"
#include "memkit/search.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string_view> parts = memkit::fuzz::split(memkit::fuzz::as_text(data, size), 2);
  const std::vector<memkit::search::Term> terms = memkit::search::analyze(parts[1]);
  std::uint32_t previous_end = 0;
  for (const memkit::search::Term& t : terms) {
    MEMKIT_FUZZ_CHECK(!t.text.empty() && t.begin >= previous_end && t.begin < t.end &&
                      t.end <= parts[1].size());
    previous_end = t.end;
    const std::vector<memkit::search::Term> again = memkit::search::analyze(t.text);
    MEMKIT_FUZZ_CHECK(again.size() == 1 && again[0].text == t.text);
  }
  const memkit::Result<memkit::search::Query> query = memkit::search::parse_query(parts[0]);
  if (!query) {
    MEMKIT_FUZZ_CHECK(query.status().message().starts_with("query: "));
    return 0;
  }
  (void)query->describe();
  memkit::search::Index index;
  std::string_view rest = parts[1];
  while (!rest.empty() && index.size() < 64) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    index.add(rest.substr(0, end), {{"layout", "tiers"}, {"tier", "2"}, {"date", "2026-03-07"}});
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  const std::vector<memkit::search::Hit> hits = index.search(*query, 5);
  MEMKIT_FUZZ_CHECK(hits.size() <= 5 && hits.size() <= index.count(*query));
  for (std::size_t i = 0; i < hits.size(); ++i) {
    MEMKIT_FUZZ_CHECK(hits[i].document < index.size());
    MEMKIT_FUZZ_CHECK(i == 0 || hits[i - 1].score >= hits[i].score);
  }
  (void)memkit::search::snippet(parts[1], *query, 8);
  // The index as bytes opens to the same answers; any bytes open to an error or an index whose
  // queries run.
  const auto bytes = std::make_shared<const std::string>(index.serialize());
  const memkit::Result<memkit::search::Index> opened = memkit::search::Index::open(*bytes, bytes);
  MEMKIT_FUZZ_CHECK(opened && opened->search(*query, 5) == hits &&
                    opened->count(*query) == index.count(*query));
  const auto raw = std::make_shared<const std::string>(parts[1]);
  if (const auto any = memkit::search::Index::open(*raw, raw)) (void)any->search(*query, 5);
  // The index's bytes with up to eight bytes changed (where and how the input says), opened
  // without the checks, as a store opens the packs it wrote: every query, a copy of its documents
  // and an add run without fault.
  if (size >= 3) {
    std::string changed = *bytes;
    for (std::size_t k = 0, n = 1 + data[size - 1] % 8; k < n && 2 * k + 1 < size; ++k) {
      const std::size_t at = ((std::size_t{data[2 * k]} << 8) | data[2 * k + 1]) % changed.size();
      changed[at] = static_cast<char>(changed[at] ^ (data[size - 1 - k] | 1));
    }
    const auto kept = std::make_shared<const std::string>(std::move(changed));
    if (memkit::Result<memkit::search::Index> unchecked =
            memkit::search::Index::open(*kept, kept, /*checked=*/false)) {
      (void)unchecked->search(*query, 5);
      (void)unchecked->count(*query);
      const memkit::search::Run all{&*unchecked, 0, unchecked->size()};
      (void)memkit::search::serialize(std::span(&all, 1));
      unchecked->add("alpha", {});
    }
  }
  return 0;
}
