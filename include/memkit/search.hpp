// Full-text search over memory (issue 28): the text analysis that indexing and queries share, the
// query language, and an in-memory index ranked by BM25. Pure: documents and a query in, ranked
// hits out. Which units of which layout become documents, and keeping an index on disk, belong to
// the callers.
//
// Ranking follows SQLite FTS5's bm25() (k1 = 1.2, b = 0.75, its idf), so that with the same terms
// memkit's top hits are FTS5's: each term, prefix or quoted phrase of the query is one unit of
// scoring, its frequency in a document the number of times it occurs there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memkit/result.hpp"

namespace memkit::search {

// ---- analysis -----------------------------------------------------------------------------------

// One term of a text: its analysed form, and the bytes of the text it was read from.
struct Term {
  std::string text;    // case-folded, diacritics removed: "cafe" for "Café"
  std::uint32_t begin;  // byte offsets into the analysed text
  std::uint32_t end;
  friend bool operator==(const Term&, const Term&) = default;
};

// What reduces a term to its stem ("deploying" and "deployed" to "deploy"), as the host chooses
// (the shell loads Snowball's); it is given terms already analysed. Searches without one match
// terms exactly.
class Stemmer {
 public:
  virtual ~Stemmer() = default;
  virtual void stem(std::string& term) const = 0;
};

// The terms of `text`, as FTS5's unicode61 tokenizer with remove_diacritics 2 reads them: maximal
// runs of letters and numbers (General Category L* and N* of Unicode 15.0.0), full case folding,
// combining marks inside a run dropped and Latin letters with diacritics read as their base
// letter (й and ガ stay: in their scripts the mark makes another letter).
// Every other code point separates terms, `_` and `-` too ("cache_dir" is "cache" and "dir"), and
// so does a byte that is not UTF-8. Each term then stemmed by `stemmer`, when there is one.
// Appends to `out`.
void analyze(std::string_view text, std::vector<Term>& out, const Stemmer* stemmer = nullptr);
[[nodiscard]] std::vector<Term> analyze(std::string_view text, const Stemmer* stemmer = nullptr);

// ---- queries ------------------------------------------------------------------------------------

// A filter of a query (`tier:2`, `since:2026-01-01`): a document passes when its facet of that
// name compares as the filter says. Dates compare as text (YYYY-MM-DD), confidence as a number.
struct Filter {
  enum class Kind : std::uint8_t { equals, since, until, at_least };
  std::string facet;  // "layout", "file", "tier", "class", "status", "type", "date", "confidence"
  Kind kind = Kind::equals;
  std::string value;  // as written, `file:` matching a prefix of the facet
  friend bool operator==(const Filter&, const Filter&) = default;
};

// A query, parsed: a tree of terms ("cache"), prefixes ("cach*"), phrases ("\"cache dir\"") and
// the operators AND (also two terms side by side), OR and NOT, plus filters that every hit passes.
class Query {
 public:
  struct Node;
  Query();
  Query(Query&&) noexcept;
  Query& operator=(Query&&) noexcept;
  ~Query();

  [[nodiscard]] const Node* root() const noexcept { return root_.get(); }
  [[nodiscard]] const std::vector<Filter>& filters() const noexcept { return filters_; }
  // The query as a canonical string: (AND cache (OR deploy "release branch") (NOT staging*))
  [[nodiscard]] std::string describe() const;

 private:
  friend Result<Query> parse_query(std::string_view text, const Stemmer* stemmer);
  std::unique_ptr<Node> root_;  // null when the query is filters only
  std::vector<Filter> filters_;
};

struct Query::Node {
  enum class Kind : std::uint8_t { term, prefix, phrase, all_of, any_of, none_of };
  Kind kind = Kind::term;
  std::vector<std::string> terms;  // term and prefix: one analysed term; phrase: its terms
  std::vector<Node> children;      // all_of, any_of; none_of: the one it excludes
};

// The limits that keep any query's time and memory bounded.
inline constexpr std::size_t kMaxQueryBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxQueryTerms = 10'000;
inline constexpr std::size_t kMaxQueryDepth = 64;  // nested parentheses and NOTs

// Parses the query language:
//   cache deploy          both (AND is implicit; `AND` may be written)
//   cache OR deploy       either
//   cache NOT staging     the first without the second; NOT needs something to subtract from
//   "release branch"      the terms in that order, next to each other
//   cach*                 any term that starts so
//   (a OR b) c            grouping
//   layout:tiers tier:2 file:memory/ class:anchor status:open type:project since:2026-01-01
//   until:2026-12-31 min-confidence:0.8
// Operators are upper case; words are analysed as documents are, so `cache_dir` is the phrase
// "cache dir". Fails with Errc::invalid_argument, "query: at byte N: ..." for an unbalanced quote
// or parenthesis, a bare or trailing operator, a query that only excludes, an unknown filter, an
// invalid date or number, or a query past the limits above. With `stemmer`, terms and phrases are
// stemmed as an index's documents are; a prefix is not (`deploy*` is every term that starts so).
[[nodiscard]] Result<Query> parse_query(std::string_view text, const Stemmer* stemmer = nullptr);

// ---- the index ----------------------------------------------------------------------------------

// What a document is besides its text: facets for filters ({"layout", "tiers"}, {"tier", "2"}).
using Facets = std::vector<std::pair<std::string, std::string>>;

struct Hit {
  std::size_t document;  // in the order added; in parts, the number its segment gives
  double score;          // BM25, higher is better
  friend bool operator==(const Hit&, const Hit&) = default;
};

struct Run;
struct Part;

// An inverted index of documents' terms with positions. Build it with add(), then search it.
class Index {
 public:
  Index();
  // An index whose documents' terms `stemmer` stems (it must outlive the index); its queries are
  // parsed with the same stemmer.
  explicit Index(const Stemmer* stemmer);
  Index(Index&&) noexcept;
  Index& operator=(Index&&) noexcept;
  ~Index();

  // Adds a document; its number is the count of documents added before it. On an opened index
  // this first copies what it reads in place.
  std::size_t add(std::string_view text, Facets facets = {});

  // The index as bytes that open() reads in place: a header, then the terms in order with their
  // posting lists, block bounds, positions, document lengths and facets (little-endian, each
  // section 8-byte aligned), then an end mark. The same documents give the same bytes, however
  // the index was made. serialize() of one Run of every document.
  [[nodiscard]] std::string serialize() const;
  // The index that `bytes` (serialize()'s) hold, read in place: nothing is copied, and `owner`
  // keeps the bytes alive (a mapping of a file, or the string). Every offset, list and bound is
  // checked first, so any bytes give an error rather than a fault: Errc::invalid_argument,
  // "index: ..." for bytes that are torn, damaged, of another version, or not aligned to 8.
  // With `checked` false only the header, the sections' sizes and the end mark are checked at
  // once (in constant time), and what a query reads where it reads it, so that no read leaves
  // the bytes (what fails is as if absent): for bytes known to be serialize()'s, as a store knows
  // the file it wrote and read back while the file's stat is what it recorded. Damaged bytes may
  // then rank oddly, never fault.
  [[nodiscard]] static Result<Index> open(std::string_view bytes,
                                          std::shared_ptr<const void> owner, bool checked = true);
  [[nodiscard]] std::size_t size() const noexcept;

  // The best `limit` documents that match `query`, by score, then by document number.
  [[nodiscard]] std::vector<Hit> search(const Query& query, std::size_t limit) const;
  // How many documents match (every one, not only the best).
  [[nodiscard]] std::size_t count(const Query& query) const;

 private:
  friend std::vector<Hit> search(std::span<const Part>, const Query&, std::size_t);
  friend std::string serialize(std::span<const Run>);
  friend std::size_t count(std::span<const Part>, const Query&);
  struct Data;
  std::unique_ptr<Data> data_;
};

// Documents [first, first + count) of an index (as many as it has past `first`).
struct Run {
  const Index* index = nullptr;
  std::size_t first = 0;
  std::size_t count = 0;
};

// The bytes of one index holding the runs' documents, one run after another and numbered from 0,
// as serialize() writes them: open() of them answers every query as an index that add()ed those
// documents' texts in that order. A term held only outside the runs is not in them. Nothing is
// analysed again: the cost is the runs' postings, not their texts (a store rewrites a pack so,
// the unchanged files' documents copied from the old pack).
[[nodiscard]] std::string serialize(std::span<const Run> runs);

// Where a part's documents stand among the documents of an index kept in parts: documents
// [first, first + count) of the part are numbers [number, number + count) of the whole.
struct Segment {
  std::size_t first = 0;
  std::size_t count = 0;
  std::size_t number = 0;
};

// One part of an index kept in parts (as a store keeps one part per group of files): the documents
// of `index` that its segments cover, numbered so. A document no segment covers does not count: it
// is in no hit, no count and none of BM25's statistics (a store leaves a changed file's old
// documents in their part until it rewrites the part). Segments in order of `first`, none
// overlapping another; the numbers of every part's segments distinct.
struct Part {
  const Index* index = nullptr;
  std::span<const Segment> segments;
};

// Parts searched as one: BM25's statistics those of every part's documents that count, together,
// so the hits are, to the bit, those of one index that was given those documents in the order of
// their numbers (numbered from 0 without gaps: the same numbers).
[[nodiscard]] std::vector<Hit> search(std::span<const Part> parts, const Query& query,
                                      std::size_t limit);
[[nodiscard]] std::size_t count(std::span<const Part> parts, const Query& query);

// A short passage of `text` around the query's first match, at most `max_terms` terms long, each
// matching term wrapped in `[` and `]`; the passage starts and ends on term boundaries, with "…"
// where text was cut, and each run of white space in it (line breaks too) is one space: a line
// to show. The first `max_terms` terms when nothing matches (a query of filters only); "" for a
// text without terms. `stemmer`: the one the query was parsed with.
[[nodiscard]] std::string snippet(std::string_view text, const Query& query,
                                  std::size_t max_terms = 16, const Stemmer* stemmer = nullptr);

}  // namespace memkit::search
