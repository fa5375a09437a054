// The generated store of `bench recall --synthetic` (memkit/bench.hpp, issue 32): its files in
// path order, its entries counted exactly, each file a custodian file of bullets, the same bytes
// for the same seed.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>

#include "memkit/bench.hpp"
#include "memkit/markdown.hpp"

namespace memkit::bench {
namespace {

std::size_t bullets_of(const std::string& bytes) {
  const Document doc = parse_markdown(std::make_shared<const std::string>(bytes));
  REQUIRE(doc.parseable());
  std::size_t n = 0;
  for (const Unit& u : doc.units()) n += u.kind == UnitKind::bullet_unit ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("bench synthetic store: brief, manifest, then files of 1,000 entries, the last fewer") {
  const SyntheticStore store(2'500);
  REQUIRE(store.files() == 5);
  CHECK(store.entries() == 2'500);
  std::string previous;
  std::uint64_t entries = 0;
  for (std::uint64_t i = 0; i < store.files(); ++i) {
    const SyntheticFile f = store.file(i);
    CHECK(previous < f.path);  // path order is the files' order
    previous = f.path;
    CHECK(bullets_of(f.bytes) == (i < 2 ? 1 : f.entries));
    entries += f.entries;
  }
  CHECK(entries == 2'500);
  CHECK(store.file(0).path == "brief.md");
  CHECK(store.file(1).path == "manifest.md");
  CHECK(store.file(2).path == "notes-00000.md");
  CHECK(store.file(2).entries == 1'000);
  CHECK(store.file(4).path == "notes-00002.md");
  CHECK(store.file(4).entries == 500);
}

TEST_CASE("bench synthetic store: exactly 1,000 entries make one notes file, 1 make one") {
  CHECK(SyntheticStore(1'000).files() == 3);
  CHECK(SyntheticStore(1'001).files() == 4);
  CHECK(SyntheticStore(1).files() == 3);
  CHECK(SyntheticStore(1).file(2).entries == 1);
  CHECK(bullets_of(SyntheticStore(1).file(2).bytes) == 1);
}

TEST_CASE("bench synthetic store: names stay in path order past 100,000 files") {
  const SyntheticStore store(200'000'000);
  CHECK(store.files() == 200'002);
  CHECK(store.file(2).path == "notes-000000.md");
  CHECK(store.file(store.files() - 1).path == "notes-199999.md");
}

TEST_CASE("bench synthetic store: the same seed gives the same bytes, another seed others") {
  const SyntheticStore a(3'000);
  const SyntheticStore b(3'000);
  const SyntheticStore c(3'000, kSyntheticStoreSeed + 1);
  for (std::uint64_t i = 0; i < a.files(); ++i) CHECK(a.file(i).bytes == b.file(i).bytes);
  CHECK(a.file(3).bytes != c.file(3).bytes);
  // A file does not depend on the ones made before it.
  CHECK(SyntheticStore(3'000).file(4).bytes == a.file(4).bytes);
  CHECK(a.file(2).bytes != a.file(3).bytes);
}

TEST_CASE("bench synthetic store: entries of 12 to 20 words of letters, about 90 bytes") {
  const SyntheticFile f = SyntheticStore(1'000).file(2);
  std::set<std::string> words;
  std::size_t lines = 0;
  std::size_t from = f.bytes.find("\n- ");
  REQUIRE(from != std::string::npos);
  for (++from; from < f.bytes.size();) {
    const std::size_t end = f.bytes.find('\n', from);
    const std::string line = f.bytes.substr(from + 2, end - from - 2);
    std::size_t count = 0;
    for (std::size_t at = 0; at <= line.size();) {
      const std::size_t space = std::min(line.find(' ', at), line.size());
      const std::string word = line.substr(at, space - at);
      CHECK(word.size() >= 4);
      CHECK(word.find_first_not_of("abdefgiklmnoprstuvz") == std::string::npos);
      words.insert(word);
      ++count;
      at = space + 1;
    }
    CHECK(count >= 12);
    CHECK(count <= 20);
    ++lines;
    from = end + 1;
  }
  CHECK(lines == 1'000);
  CHECK(f.bytes.size() > 70'000);
  CHECK(f.bytes.size() < 110'000);
  // Zipf: a few words are everywhere, most are rare, so there are many distinct ones.
  CHECK(words.size() > 2'000);
}

}  // namespace memkit::bench
