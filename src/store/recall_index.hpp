// The search index of a root, kept on disk (issue 28; docs/search.md "The index on disk"). Shell:
// it finds the files as read_recall_files does, compares each one's stat with what the index
// recorded, cuts and indexes again only the files that changed, and replaces the index's files
// atomically. The index is derived: a missing, torn, damaged or foreign one is rebuilt, never
// trusted and never an error; a root that cannot be written to is searched from an index built in
// memory.
//
// Under <root>/.memkit/index/<variant>/ ("all", or the one layout a command reads):
//   catalog      per file: its layout, tier, stat, digest, unit count, reader warnings, and where
//                its units are; per pack: its documents that no longer count
//   p-<hex>.idx  one pack: the search::Index of a group of files, in path order
//   lock         taken by the one process that writes; its time is the index's "now"
// A file that grew (appended to: what it held it still holds) is indexed into a new pack, and its
// old documents stay where they were, no longer counting. Any other change, or a file gone,
// makes every pack that holds its text again (deletion is real). A search numbers the documents
// that count in path order of their files (search::Part), as one index built from scratch would,
// so the hits are the same to the bit.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "files/file_system.hpp"
#include "memkit/findings.hpp"
#include "memkit/recall.hpp"
#include "memkit/result.hpp"
#include "memkit/search.hpp"
#include "store/recall_root.hpp"

namespace memkit {

// What an index's terms are stemmed with (`--stem`): the language as libstemmer names it and the
// stemmer itself (stemming/snowball.hpp); none by default. Each language keeps an index of its own.
struct IndexStemming {
  std::string language;
  std::shared_ptr<const search::Stemmer> stemmer;
};

// What opening the index did, for benchmarks and tests.
struct RecallIndexWork {
  std::size_t packs_kept = 0;   // read from disk as they were
  std::size_t packs_built = 0;  // made anew: changed files cut and indexed, the rest copied
  std::size_t files_read = 0;   // read to index (or to tell a change within the index's tick)
  bool written = false;         // the index on disk was replaced
};

class RecallIndex {
 public:
  // Every file found under the root (read_recall_files), by path. Bytes are read only for the files
  // indexed now or asked for by unit().
  [[nodiscard]] const std::vector<RecallFile>& files() const noexcept { return files_; }
  // The index, in parts (search::search): each pack's documents that count, numbered in path
  // order of their files, as one index built from the files now would number them.
  [[nodiscard]] const std::vector<search::Part>& parts() const noexcept { return parts_; }
  [[nodiscard]] std::size_t units() const noexcept { return units_; }
  // The reader's warnings about the files indexed (kept with the index, so said every time).
  [[nodiscard]] const std::vector<Finding>& findings() const noexcept { return findings_; }
  [[nodiscard]] const RecallIndexWork& work() const noexcept { return work_; }
  // What its terms are stemmed with (null: none): a query is parsed and a snippet cut with it.
  [[nodiscard]] const search::Stemmer* stemmer() const noexcept { return stemming_.stemmer.get(); }

  // A document's file (into files()) and its unit, the file read (once) and cut again. Fails when
  // the file no longer holds what was indexed (it changed while the search ran).
  [[nodiscard]] Result<std::pair<const RecallFile*, recall::Unit>> unit(std::size_t document);

 private:
  friend Result<RecallIndex> open_recall_index(FileSystem&, const std::string&, const std::string&,
                                               const std::string&, std::optional<recall::Layout>,
                                               const IndexStemming&, std::uint64_t);
  struct Indexed {        // a file of the index
    std::size_t file = 0;  // into files_
    std::size_t first_document = 0;
    std::size_t units = 0;
    std::array<std::uint8_t, 16> digest{};
  };
  FileSystem* fs_ = nullptr;
  std::string root_;
  std::vector<RecallFile> files_;
  std::vector<search::Index> packs_;
  std::vector<std::vector<search::Segment>> segments_;  // by pack
  std::vector<search::Part> parts_;
  std::vector<Indexed> indexed_;  // in document order
  std::map<std::size_t, std::vector<recall::Unit>> cut_;  // by file: its units, for unit()
  std::size_t units_ = 0;
  std::vector<Finding> findings_;
  RecallIndexWork work_;
  IndexStemming stemming_;
};

// A pack closes once its files hold this many bytes. A search opens every pack; a change other
// than growth makes the changed file's pack again, copying its other files' documents.
inline constexpr std::uint64_t kPackBytes = 8 * 1024 * 1024;

// Opens the index of the layouts at `root` (arguments as read_recall_files takes them), brought up
// to date with the files first: only the files it indexes now are read. Fails only as
// read_recall_files fails: a bad root.
[[nodiscard]] Result<RecallIndex> open_recall_index(FileSystem& fs, const std::string& root,
                                                    const std::string& option,
                                                    const std::string& custodian_dir,
                                                    std::optional<recall::Layout> only,
                                                    const IndexStemming& stemming = {},
                                                    std::uint64_t pack_bytes = kPackBytes);

// A query's best hits in the index of a root, each with its file, its unit and its score.
struct RecallHit {
  const RecallFile* file = nullptr;  // into index.files()
  recall::Unit unit;
  double score = 0;
};
struct RecallSearch {
  RecallIndex index;
  std::vector<RecallHit> hits;  // best first
};

// The best `limit` hits of `query` in the index of `root` (open_recall_index's arguments), each
// hit's file read and cut again for its unit. A hit whose file changed between the search and that
// reading (a write beside the search) brings the index up to date and searches again, three times
// in all, so such a write does not fail the search; fails as open_recall_index fails, or with the
// third attempt's Errc::io "<file>: changed while the search ran; search again".
[[nodiscard]] Result<RecallSearch> search_recall_index(
    FileSystem& fs, const std::string& root, const std::string& option,
    const std::string& custodian_dir, std::optional<recall::Layout> only,
    const IndexStemming& stemming, const search::Query& query, std::size_t limit);

// Brings every index kept under `root` (each variant a search made there) up to date with the
// files, so that what a write removed is in no index file (deletion is real): the stores call it
// after every apply. An index that cannot be brought up to date is removed. Best effort, silent.
void refresh_recall_indexes(FileSystem& fs, const std::string& root);

}  // namespace memkit
