// The search index on disk (store/recall_index.hpp, docs/search.md "The index on disk"): through
// any edits it answers as an index built from the files at that moment, it re-reads only what
// changed, what a change removed is in no index file, and a damaged index is rebuilt.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <tuple>

#include "memkit/recall.hpp"
#include "memkit/search.hpp"
#include "faulty_file_system.hpp"
#include "store/recall_index.hpp"
#include "temp_dir.hpp"

namespace memkit::shell_test {
namespace {

// (file, first line, score) of each hit, best first.
using Shown = std::vector<std::tuple<std::string, std::uint32_t, double>>;

// The hits of a search of the index on disk, brought up to date first.
// Packs of 64 KiB: the test projects of about 240 KB make several.
constexpr std::uint64_t kSmallPacks = 64 * 1024;

Shown from_disk(const std::string& root, std::string_view text, RecallIndexWork* work = nullptr,
                FileSystem& fs = posix_file_system(), std::uint64_t pack_bytes = kSmallPacks) {
  Result<RecallIndex> index =
      open_recall_index(fs, root, "--root", "docs/memory", std::nullopt, {}, pack_bytes);
  REQUIRE(index);
  if (work != nullptr) *work = index->work();
  const search::Query query = *search::parse_query(text);
  Shown out;
  for (const search::Hit& hit : search::search(index->parts(), query, 20)) {
    const auto found = index->unit(hit.document);
    REQUIRE(found);
    out.emplace_back(found->first->file.path, found->second.first_line, hit.score);
  }
  return out;
}

// The same search over one index built in memory from the files as they are now.
Shown from_files(const std::string& root, std::string_view text) {
  Result<std::vector<RecallFile>> files = read_recall_files(posix_file_system(), root, "--root");
  REQUIRE(files);
  search::Index index;
  std::vector<std::pair<std::string, std::uint32_t>> units;
  for (const RecallFile& file : *files) {
    if (!file.file.exists()) continue;
    for (recall::Unit& unit : recall::read_units(file.source, file.file.text()).units) {
      search::Facets facets = unit.facets;
      facets.emplace_back("layout", std::string(recall::layout_name(file.source.layout)));
      facets.emplace_back("file", file.file.path);
      index.add(unit.text, std::move(facets));
      units.emplace_back(file.file.path, unit.first_line);
    }
  }
  Shown out;
  for (const search::Hit& hit : index.search(*search::parse_query(text), 20)) {
    out.emplace_back(units[hit.document].first, units[hit.document].second, hit.score);
  }
  return out;
}

const std::vector<std::string> kWords = {"cache", "deploy", "release", "branch", "staging",
                                         "config", "café",  "budget",  "vendor", "queue"};
const std::vector<std::string> kQueries = {"cache", "deploy OR staging", "release branch",
                                           "caf*", "\"cache deploy\"", "budget NOT queue",
                                           "config file:docs/memory/a"};

// A custodian memory file of `bullets` bullets of generated words.
std::string memory_file(std::uint64_t& seed, int bullets) {
  const auto next = [&seed](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  std::string text = "# Notes\n\n";
  for (int b = 0; b < bullets; ++b) {
    text += "-";
    for (std::size_t w = 0, n = 2 + next(12); w < n; ++w) text += " " + kWords[next(next(10) + 1)];
    text += "\n";
  }
  return text;
}

// Every byte of every file the index keeps.
std::string index_bytes(const TempDir& root) {
  std::string all;
  for (const auto& entry : fs::recursive_directory_iterator(root.path() / ".memkit/index")) {
    if (entry.is_regular_file()) all += read_bytes(entry.path());
  }
  return all;
}

// Sets every memory file's modification time `by` from now: an hour back, none of them changed
// within the index's tick; ahead, each as new as the index.
void age_files(const TempDir& root, std::chrono::hours by = std::chrono::hours(-1)) {
  for (const auto& entry : fs::recursive_directory_iterator(root.path() / "docs")) {
    if (entry.is_regular_file()) {
      fs::last_write_time(entry.path(), fs::file_time_type::clock::now() + by);
    }
  }
}

// A project of 60 memory files, about 240 KB: several packs.
void plant_project(const TempDir& root, std::uint64_t seed) {
  for (int f = 0; f < 60; ++f) {
    write_bytes(root.path() / "docs/memory" / ("a" + std::to_string(100 + f * 2) + ".md"),
                memory_file(seed, 60));
  }
}

}  // namespace

TEST_CASE("recall index: through edits, the index on disk answers as one built from the files") {
  TempDir root;
  std::uint64_t seed = 42;
  plant_project(root, seed);
  const auto next = [&seed](std::size_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((seed >> 33) % n);
  };
  for (int round = 0; round < 25; ++round) {
    // One edit: a file rewritten, grown, removed, or a new one between two others.
    const std::string name = "docs/memory/a" + std::to_string(100 + next(121)) + ".md";
    const fs::path path = root.path() / name;
    switch (next(4)) {
      case 0:
        write_bytes(path, memory_file(seed, 1 + static_cast<int>(next(80))));
        break;
      case 1:
        if (fs::exists(path)) write_bytes(path, read_bytes(path) + "- cache queue vendor\n");
        break;
      case 2:
        fs::remove(path);
        break;
      default:
        write_bytes(path, memory_file(seed, 5));
        break;
    }
    for (const std::string& query : kQueries) {
      const Shown want = from_files(root.str(), query);
      const Shown got = from_disk(root.str(), query);
      REQUIRE_MESSAGE(got.size() == want.size(), query << " after round " << round);
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK_MESSAGE(std::get<0>(got[i]) == std::get<0>(want[i]), query);
        CHECK_MESSAGE(std::get<1>(got[i]) == std::get<1>(want[i]), query);
        CHECK_MESSAGE(std::get<2>(got[i]) == std::get<2>(want[i]), query);  // to the bit
      }
    }
  }
  // Small packs left by changes join their neighbours: the packs stay few.
  std::uintmax_t memory = 0;
  std::size_t packs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root.path() / "docs")) {
    if (entry.is_regular_file()) memory += entry.file_size();
  }
  for (const auto& entry : fs::directory_iterator(root.path() / ".memkit/index/all")) {
    packs += entry.path().filename().string().starts_with("p-") ? 1 : 0;
  }
  CHECK(packs <= 2 * (memory / kSmallPacks) + 16);
}

TEST_CASE("recall index: unchanged files are not read again, a grown file goes into a new pack") {
  TempDir root;
  plant_project(root, 7);
  age_files(root);
  RecallIndexWork work;
  (void)from_disk(root.str(), "cache", &work);
  CHECK(work.written);
  CHECK(work.packs_kept == 0);
  CHECK(work.files_read == 60);
  const std::size_t packs = work.packs_built;
  CHECK(packs >= 3);

  (void)from_disk(root.str(), "cache", &work);
  CHECK_FALSE(work.written);
  CHECK(work.packs_built == 0);
  CHECK(work.packs_kept == packs);
  CHECK(work.files_read == 0);

  // Appended to: read and indexed into a pack of its own; its old documents stay in their pack,
  // where they no longer count (every pack kept).
  const fs::path one = root.path() / "docs/memory/a150.md";
  const std::string before = read_bytes(one);
  write_bytes(one, before + "- vendor queue\n");
  (void)from_disk(root.str(), "cache", &work);
  CHECK(work.written);
  CHECK(work.packs_built == 1);
  CHECK(work.packs_kept == packs);
  CHECK(work.files_read == 1);

  // Changed otherwise (a word replaced, the size kept): every pack that holds any of its text,
  // counting or not, is made again, the other files of its old pack copied, not read.
  std::string edited = read_bytes(one);
  const std::size_t at = edited.find("cache");
  REQUIRE(at != std::string::npos);
  edited.replace(at, 5, "queue");
  write_bytes(one, edited);
  (void)from_disk(root.str(), "cache", &work);
  CHECK(work.written);
  CHECK(work.packs_built == 1);
  CHECK(work.packs_kept == packs - 1);
  CHECK(work.files_read == 1);

  // Touched, its bytes the same: read to tell, and nothing made again.
  fs::last_write_time(one, fs::last_write_time(one) - std::chrono::hours(2));
  (void)from_disk(root.str(), "cache", &work);
  CHECK(work.files_read == 1);
  CHECK(work.packs_built == 0);
  CHECK(work.packs_kept == packs);
  CHECK(work.written);  // the new stat recorded, so the next search reads nothing
  (void)from_disk(root.str(), "cache", &work);
  CHECK(work.files_read == 0);
  CHECK_FALSE(work.written);
}

TEST_CASE("recall index: a file changed within the index's clock tick is read to tell") {
  // A file system that keeps no change time, and files whose modification time is not older than
  // the index (as after a change within one tick of a coarse clock): a change of the same size
  // leaves every stat field as the catalog has it, and only the file's bytes tell.
  TempDir root;
  plant_project(root, 9);
  FaultyFileSystem fs;
  fs.hide_change_times();
  const fs::path one = root.path() / "docs/memory/a150.md";
  write_bytes(one, "# Notes\n\n- alpha\n");
  age_files(root, std::chrono::hours(1));
  const auto time = fs::last_write_time(one);
  CHECK(from_disk(root.str(), "alpha", nullptr, fs).size() == 1);
  write_bytes(one, "# Notes\n\n- gamma\n");  // the same size, the same file
  fs::last_write_time(one, time);
  RecallIndexWork work;
  CHECK(from_disk(root.str(), "alpha", &work, fs).empty());
  CHECK(from_disk(root.str(), "gamma", &work, fs).size() == 1);
  CHECK(work.files_read == 60);  // each as new as the index: compared by its bytes
  CHECK(work.packs_built == 0);
}

TEST_CASE("recall index: what a change removes is in no index file") {
  TempDir root;
  plant_project(root, 3);
  const fs::path one = root.path() / "docs/memory/a150.md";
  const std::string before = read_bytes(one);
  write_bytes(one, before + "- zebrapassword rotates monthly\n");
  CHECK(from_disk(root.str(), "zebrapassword").size() == 1);
  CHECK(index_bytes(root).find("zebrapassword") != std::string::npos);
  write_bytes(one, before);
  CHECK(from_disk(root.str(), "zebrapassword").empty());
  CHECK(index_bytes(root).find("zebrapassword") == std::string::npos);
  // The file gone whole, the same.
  write_bytes(one, before + "- zebrapassword again\n");
  CHECK(from_disk(root.str(), "zebrapassword").size() == 1);
  fs::remove(one);
  CHECK(from_disk(root.str(), "zebrapassword").empty());
  CHECK(index_bytes(root).find("zebrapassword") == std::string::npos);
  // A file that grew keeps its old documents in their pack, where they no longer count: when it
  // then loses what it held before, they go too.
  write_bytes(one, "# Notes\n\n- yakpassword rotates monthly\n");
  fs::remove_all(root.path() / ".memkit");  // built anew: the file in a pack with others
  CHECK(from_disk(root.str(), "yakpassword").size() == 1);
  write_bytes(one, read_bytes(one) + "- vendor queue\n");
  CHECK(from_disk(root.str(), "yakpassword").size() == 1);
  CHECK(from_disk(root.str(), "vendor queue").size() >= 1);
  write_bytes(one, "# Notes\n\n- vendor queue\n");
  CHECK(from_disk(root.str(), "yakpassword").empty());
  CHECK(index_bytes(root).find("yakpassword") == std::string::npos);
}

TEST_CASE("recall index: a damaged, torn or foreign index is rebuilt, never trusted") {
  TempDir root;
  plant_project(root, 5);
  const Shown want = from_files(root.str(), "deploy OR staging");
  REQUIRE(from_disk(root.str(), "deploy OR staging") == want);
  const fs::path dir = root.path() / ".memkit/index/all";
  std::vector<fs::path> packs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with("p-")) packs.push_back(entry.path());
  }
  REQUIRE(packs.size() >= 2);
  SUBCASE("a pack torn") { fs::resize_file(packs[0], fs::file_size(packs[0]) / 2); }
  SUBCASE("a pack's bytes changed, its size kept") {
    std::string bytes = read_bytes(packs[1]);
    for (std::size_t i = 64; i < bytes.size(); i += 97) bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
    write_bytes(packs[1], bytes);
  }
  SUBCASE("a pack gone") { fs::remove(packs[0]); }
  SUBCASE("the catalog torn") {
    fs::resize_file(dir / "catalog", fs::file_size(dir / "catalog") - 3);
  }
  SUBCASE("the catalog of another memkit") {
    std::string bytes = read_bytes(dir / "catalog");
    bytes[24] = static_cast<char>(bytes[24] ^ 1);  // the version it names: "1.…" for "0.…"
    write_bytes(dir / "catalog", bytes);
  }
  SUBCASE("the catalog garbage") { write_bytes(dir / "catalog", std::string(4096, '\x7f')); }
  RecallIndexWork work;
  CHECK(from_disk(root.str(), "deploy OR staging", &work) == want);
  CHECK(work.packs_built >= 1);
  CHECK(work.written);
  CHECK(from_disk(root.str(), "deploy OR staging", &work) == want);
  CHECK_FALSE(work.written);
}

TEST_CASE("recall index: a root where no index can be kept is searched from memory") {
  TempDir root;
  plant_project(root, 11);
  write_bytes(root.path() / ".memkit", "not a folder\n");
  const std::vector<std::string> tree = tree_of(root.path());
  RecallIndexWork work;
  CHECK(from_disk(root.str(), "release branch", &work) == from_files(root.str(), "release branch"));
  CHECK_FALSE(work.written);
  CHECK(tree_of(root.path()) == tree);
  CHECK(read_bytes(root.path() / ".memkit") == "not a folder\n");
}

}  // namespace memkit::shell_test

namespace memkit::shell_test {

TEST_CASE("recall index: a root with no memory gets no index") {
  TempDir root;
  write_bytes(root.path() / "notes.txt", "not memory\n");
  fs::create_directories(root.path() / "docs");
  const std::vector<std::string> tree = tree_of(root.path());
  RecallIndexWork work;
  CHECK(from_disk(root.str(), "memory", &work).empty());
  CHECK_FALSE(work.written);
  CHECK(tree_of(root.path()) == tree);
}

}  // namespace memkit::shell_test

namespace memkit::shell_test {

TEST_CASE("recall index: many small packs are copied into fewer, no file read again") {
  TempDir root;
  plant_project(root, 13);
  age_files(root);
  RecallIndexWork work;
  (void)from_disk(root.str(), "cache", &work, posix_file_system(), 2 * 1024);  // a pack a file
  CHECK(work.packs_built == 60);
  const Shown want = from_files(root.str(), "deploy OR staging");
  CHECK(from_disk(root.str(), "deploy OR staging", &work) == want);  // 64 KiB packs now
  CHECK(work.written);
  CHECK(work.files_read == 0);  // every file's units copied from its old pack
  CHECK(work.packs_built < 10);
  CHECK(from_disk(root.str(), "deploy OR staging", &work) == want);
  CHECK_FALSE(work.written);
}

TEST_CASE("recall index: a search beside a writer searches again, three times at most") {
  TempDir root;
  plant_project(root, 19);
  const fs::path one = root.path() / "docs/memory/a150.md";
  write_bytes(one, "# Notes\n\n- wombat 1\n");
  age_files(root);
  FaultyFileSystem fs;
  fs.hide_change_times();
  (void)from_disk(root.str(), "cache", nullptr, fs);  // indexed: a150.md is read only for a hit
  const search::Query query = *search::parse_query("wombat");
  int writes = 0;
  const auto search = [&] {
    return search_recall_index(fs, root.str(), "--root", "docs/memory", std::nullopt, {}, query,
                               10);
  };
  // The hit's file rewritten as the search reads it for the hit: searched again, the hit is the
  // file's new unit.
  fs.write_before_reads_of("a150.md", 1, [&] {
    write_bytes(one, "# Notes\n\n- wombat 2\n- wombat again\n");
    ++writes;
  });
  Result<RecallSearch> found = search();
  REQUIRE(found);
  CHECK(writes == 1);
  REQUIRE(found->hits.size() == 2);
  CHECK(found->hits[0].unit.text == "- wombat 2\n");
  // A writer whose changes no stat shows (the same size and times, on a file system without change
  // times) each time the search reads the hit: three searches, then the error.
  age_files(root);
  (void)search();
  const auto aged = fs::last_write_time(one);
  fs.write_before_reads_of("a150.md", 100, [&] {
    // (a letter: never the "2" the index holds)
    write_bytes(one, "# Notes\n\n- wombat " + std::string(1, static_cast<char>('a' + writes)) +
                         "\n- wombat again\n");
    fs::last_write_time(one, aged);
    ++writes;
  });
  found = search();
  REQUIRE_FALSE(found);
  CHECK(found.status().message() ==
        "docs/memory/a150.md: changed while the search ran; search again");
  CHECK(writes == 1 + 3);
}

TEST_CASE("recall index: a hit whose file changed after the search began is refused") {
  TempDir root;
  plant_project(root, 17);
  (void)from_disk(root.str(), "cache");  // indexed: the next open keeps the packs, reads no file
  Result<RecallIndex> index =
      open_recall_index(posix_file_system(), root.str(), "--root", "docs/memory", std::nullopt);
  REQUIRE(index);
  const std::vector<search::Hit> hits =
      search::search(index->parts(), *search::parse_query("cache"), 1);
  REQUIRE(hits.size() == 1);
  // The hit's file rewritten between the search and its presentation.
  for (const RecallFile& file : index->files()) {
    if (file.file.exists()) write_bytes(root.path() / file.file.path, "# Notes\n\n- other\n");
  }
  const auto found = index->unit(hits[0].document);
  REQUIRE_FALSE(found);
  CHECK(found.status().message().find("changed while the search ran") != std::string::npos);
}

}  // namespace memkit::shell_test
