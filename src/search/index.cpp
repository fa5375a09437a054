// The in-memory index of memkit/search.hpp: postings with positions per term (documents are added
// in order, so every posting list is sorted by document), match sets as sorted document lists, and
// BM25 with SQLite FTS5's idf over each scoring unit (a term, a prefix or a phrase).
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>

#include "codec/binary.hpp"
#include "memkit/search.hpp"

namespace memkit::search {
namespace index_detail {

using Node = Query::Node;

constexpr double kK1 = 1.2;
constexpr double kB = 0.75;

struct Posting {
  std::uint32_t document;
  std::uint32_t first_position;  // into Data::positions
  std::uint32_t count;
};

// Every kBlock postings of a list share the largest frequency and the shortest document among
// them: with those, no posting of the block can score above a bound, and a top-k that has found
// k better hits skips the block (block-max).
constexpr std::size_t kBlock = 128;
struct BlockBound {
  std::uint32_t most;      // the largest frequency in the block
  std::uint32_t shortest;  // the fewest terms of a document in the block
};

// The first of `list`'s postings from `from` on whose document is not below `document` (the
// list's size when none is), by galloping: steps that double, then a binary search inside the
// last, so a search that moves a few postings costs a few comparisons.
std::size_t forward(std::span<const Posting> list, std::size_t from, std::uint64_t document) {
  if (from >= list.size() || list[from].document >= document) return from;
  std::size_t below = from;  // list[below].document < document
  std::size_t step = 1;
  while (below + step < list.size() && list[below + step].document < document) {
    below += step;
    step *= 2;
  }
  const auto end = list.begin() + static_cast<std::ptrdiff_t>(std::min(list.size(), below + step));
  const auto at = std::lower_bound(list.begin() + static_cast<std::ptrdiff_t>(below + 1), end, document,
                                   [](const Posting& p, std::uint64_t d) { return p.document < d; });
  return static_cast<std::size_t>(at - list.begin());
}

// A scoring unit's occurrences: (document, frequency), sorted by document.
using Frequencies = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
using Documents = std::vector<std::uint32_t>;

// BM25 of one term in one document, the arithmetic of every path step for step.
double term_score(double idf, double tf, std::uint32_t length, double average) {
  const double relative = static_cast<double>(length) / average;
  const double norm = kK1 * (1 - kB + kB * relative);
  return idf * tf * (kK1 + 1) / (tf + norm);
}

// FTS5's idf of a unit that `holding` of `n` documents hold, floored for one in most of them.
double idf_of(double n, double holding) {
  const double value = std::log((n - holding + 0.5) / (holding + 0.5));
  return value > 0 ? value : 1e-6;
}

// What BM25 reads of the whole collection: its documents and their average length in terms. With
// an index in parts, those of every part together.
struct Scale {
  double documents = 0;
  double average = 0;
};

// A facet's number ("0.85"); -1 for text that is none, so it passes no minimum.
double number(std::string_view text) {
  double value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : -1;
}

Documents documents_of(const Frequencies& f) {
  Documents out;
  out.reserve(f.size());
  for (const auto& entry : f) out.push_back(entry.first);
  return out;
}

// The best `limit` hits offered so far: a heap with the worst on top. Better is a higher score,
// then an earlier document.
class Best {
 public:
  explicit Best(std::size_t limit) : limit_(limit) {}
  void offer(const Hit& hit) {
    if (hits_.size() < limit_) {
      hits_.push_back(hit);
      std::push_heap(hits_.begin(), hits_.end(), better);
    } else if (limit_ > 0 && better(hit, hits_.front())) {
      std::pop_heap(hits_.begin(), hits_.end(), better);
      hits_.back() = hit;
      std::push_heap(hits_.begin(), hits_.end(), better);
    }
  }
  // The score a hit must beat (or tie with an earlier document) to get in; none until full.
  [[nodiscard]] std::optional<double> threshold() const {
    return hits_.size() == limit_ && limit_ > 0 ? std::optional<double>(hits_.front().score)
                                                : std::nullopt;
  }
  [[nodiscard]] std::vector<Hit> sorted() && {
    std::sort_heap(hits_.begin(), hits_.end(), better);
    return std::move(hits_);
  }

 private:
  static bool better(const Hit& a, const Hit& b) {
    return a.score != b.score ? a.score > b.score : a.document < b.document;
  }
  std::size_t limit_;
  std::vector<Hit> hits_;
};

// A part's documents that count, and their numbers among all the parts' documents: those its
// segments cover (search.hpp's Part), each segment's kept inside the part. What no segment covers
// is kept as gaps (a store leaves few), so a part's statistics cost its gaps, not its documents.
class Live {
 public:
  Live(std::span<const Segment> given, std::size_t documents) {
    std::vector<Segment> sorted(given.begin(), given.end());
    const auto by_first = [](const Segment& a, const Segment& b) { return a.first < b.first; };
    if (!std::is_sorted(sorted.begin(), sorted.end(), by_first)) {
      std::sort(sorted.begin(), sorted.end(), by_first);
    }
    std::size_t end = 0;  // none overlapping: a segment that would is left out
    for (const Segment& s : sorted) {
      if (s.first < end || s.first >= documents) continue;
      const std::size_t count = std::min(s.count, documents - s.first);
      if (count == 0) continue;
      if (s.first > end) gaps_.emplace_back(end, s.first);
      segments_.push_back({s.first, count, s.number});
      end = s.first + count;
      documents_ += count;
    }
    if (end < documents) gaps_.emplace_back(end, documents);
    whole_ = segments_.size() == 1 && gaps_.empty();
  }
  // The number of `document`, or nullopt for one that does not count.
  [[nodiscard]] std::optional<std::size_t> number(std::uint32_t document) const {
    if (whole_) return segments_[0].number + document;
    const auto after = std::upper_bound(
        segments_.begin(), segments_.end(), document,
        [](std::uint32_t d, const Segment& s) { return d < s.first; });
    if (after == segments_.begin()) return std::nullopt;
    const Segment& s = *std::prev(after);
    return document - s.first < s.count ? std::optional<std::size_t>(s.number + (document - s.first))
                                        : std::nullopt;
  }
  // How many postings of `list` (sorted by document) are of documents that count.
  [[nodiscard]] std::size_t holding(std::span<const Posting> list) const {
    std::size_t n = list.size();
    for (const auto& [first, end] : gaps_) {
      const auto below = [](const Posting& p, std::size_t d) { return p.document < d; };
      const auto from = std::lower_bound(list.begin(), list.end(), first, below);
      // (at most what is left: a damaged list out of order can count a posting twice)
      n -= std::min(n, static_cast<std::size_t>(std::lower_bound(from, list.end(), end, below) - from));
    }
    return n;
  }
  // The documents that do not count, as [first, end) ranges in order.
  [[nodiscard]] const std::vector<std::pair<std::size_t, std::size_t>>& gaps() const noexcept {
    return gaps_;
  }
  [[nodiscard]] std::size_t documents() const noexcept { return documents_; }
  [[nodiscard]] bool whole() const noexcept { return whole_; }
  [[nodiscard]] const std::vector<Segment>& segments() const noexcept { return segments_; }

 private:
  std::vector<Segment> segments_;
  std::vector<std::pair<std::size_t, std::size_t>> gaps_;
  std::size_t documents_ = 0;
  bool whole_ = false;
};

// Term ids by their text: open addressing over slots that hold each term's hash, length and
// first 8 bytes, the texts kept by the caller (by id): a term of at most 8 bytes is found without
// reading its text, a longer one reads it only when all of those match.
class TermTable {
 public:
  [[nodiscard]] std::optional<std::uint32_t> find(std::string_view term, std::size_t hash,
                                                  const std::deque<std::string>& names) const {
    if (slots_.empty()) return std::nullopt;
    const std::uint64_t head = head_of(term);
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.id == kEmpty) return std::nullopt;
      if (slot.hash == hash && slot.head == head && slot.size == term.size() &&
          (term.size() <= sizeof head || names[slot.id] == term)) {
        return slot.id;
      }
    }
  }
  void insert(std::string_view term, std::size_t hash, std::uint32_t id) {
    if ((count_ + 1) * 2 > slots_.size()) {  // at most half full
      std::vector<Slot> old = std::move(slots_);
      slots_.assign(std::max<std::size_t>(16, old.size() * 2), Slot{});
      mask_ = slots_.size() - 1;
      for (const Slot& slot : old) {
        if (slot.id != kEmpty) place(slot);
      }
    }
    place(Slot{hash, head_of(term), id, static_cast<std::uint32_t>(term.size())});
    ++count_;
  }

 private:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  struct Slot {
    std::size_t hash = 0;
    std::uint64_t head = 0;  // the first 8 bytes, zero-padded
    std::uint32_t id = kEmpty;
    std::uint32_t size = 0;
  };
  static std::uint64_t head_of(std::string_view term) noexcept {
    std::uint64_t head = 0;
    if (!term.empty()) std::memcpy(&head, term.data(), std::min(term.size(), sizeof head));
    return head;
  }
  void place(const Slot& slot) {
    std::size_t at = slot.hash & mask_;
    while (slots_[at].id != kEmpty) at = (at + 1) & mask_;
    slots_[at] = slot;
  }
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

std::size_t hash_of(std::string_view term) noexcept { return std::hash<std::string_view>{}(term); }

}  // namespace index_detail

using namespace index_detail;  // NOLINT: this file's own helpers

struct Index::Data {
  // Each term's posting list, found by the term (hashed); the terms by id (a built index keeps
  // them in no order: serialize() sorts them, and a prefix reads them all).
  TermTable ids;
  std::deque<std::string> names;
  // By term id: its postings and their bounds, one per kBlock postings, side by side so that an
  // add() touches one place per term.
  struct Lists {
    std::vector<Posting> postings;
    std::vector<BlockBound> bounds;
  };
  std::vector<Lists> by_term;
  std::vector<std::uint32_t> positions;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> scratch;  // (term, position) of one add()
  std::vector<Term> analysed;                                    // the terms of one add()
  std::vector<std::uint32_t> occurrences;                        // one term's positions in it
  std::vector<std::uint32_t> lengths;  // terms per document
  std::vector<Facets> facets;
  std::uint64_t total_terms = 0;
  const Stemmer* stemmer = nullptr;  // what add() stems terms with

  // An index opened from serialize()'s bytes: views into them, term ids in term order.
  struct Opened {
    std::shared_ptr<const void> owner;  // keeps the bytes
    std::span<const std::uint64_t> name_at;   // terms + 1 offsets into names
    std::string_view names;
    std::span<const std::uint64_t> list_at;   // terms + 1 offsets into postings
    std::span<const Posting> postings;
    std::span<const std::uint64_t> block_at;  // terms + 1 offsets into blocks
    std::span<const BlockBound> blocks;
    std::span<const std::uint32_t> positions;
    std::span<const std::uint32_t> lengths;
    std::span<const std::uint64_t> facet_at;  // documents + 1 offsets into facets
    std::string_view facets;                  // "name\0value\0" per facet
    // Whether open() checked every list and facet; if not, each is checked where a query first
    // reaches it (readable(), length(), facet_bytes()), and what fails is as if absent.
    bool checked = true;
  };
  std::optional<Opened> opened;

  // An opened index as a built one, to add to it: its bytes copied.
  void thaw() {
    const Opened o = std::move(*opened);
    opened.reset();
    opened = o;  // name(), readable(), list() and facets_of() read the bytes
    for (std::uint32_t id = 0; id + 1 < o.name_at.size(); ++id) {
      const std::string_view term = name(id);
      ids.insert(term, hash_of(term), id);
      names.emplace_back(term);
      if (!opened->checked && !safe(id)) {  // a list no query could read whole is not copied
        by_term.emplace_back();
        continue;
      }
      const auto list = this->list(id);
      const auto bounds = blocks(id);
      by_term.push_back(Lists{{list.begin(), list.end()}, {bounds.begin(), bounds.end()}});
    }
    positions.assign(o.positions.begin(), o.positions.end());
    lengths.assign(o.lengths.begin(), o.lengths.end());
    for (std::uint32_t doc = 0; doc < lengths.size(); ++doc) facets.push_back(facets_of(doc));
    opened.reset();
  }

  // ---- what add() writes --------------------------------------------------------------------

  // The id of a term, a new one for a term not seen before.
  std::uint32_t term_id(std::string_view term) {
    const std::size_t hash = hash_of(term);
    std::optional<std::uint32_t> id = ids.find(term, hash, names);
    if (!id) {
      id = static_cast<std::uint32_t>(by_term.size());
      ids.insert(term, hash, *id);
      names.emplace_back(term);
      by_term.emplace_back();
    }
    return *id;
  }

  // A posting of the term `id` for `document` (added last), with the positions it occurs at.
  template <typename Positions>
  void post(std::uint32_t id, std::uint32_t document, std::uint32_t length,
            const Positions& at) {
    Lists& term = by_term[id];
    const auto count = static_cast<std::uint32_t>(at.size());
    if (term.postings.size() % kBlock == 0) {
      term.bounds.push_back({count, length});
    } else {
      term.bounds.back().most = std::max(term.bounds.back().most, count);
      term.bounds.back().shortest = std::min(term.bounds.back().shortest, length);
    }
    term.postings.push_back({document, static_cast<std::uint32_t>(positions.size()), count});
    positions.insert(positions.end(), at.begin(), at.end());
  }

  // ---- what queries read, the same for a built index and an opened one ------------------------

  std::size_t terms() const { return opened ? opened->name_at.size() - 1 : by_term.size(); }
  std::string_view term_name(std::uint32_t id) const {
    return opened ? name(id) : std::string_view(names[id]);
  }
  // An opened index's facets of a document, "name\0value\0" pairs: empty when its bytes are not
  // (or, in damaged bytes, for a document past the last).
  std::string_view facet_bytes(std::uint32_t document) const {
    if (std::size_t{document} + 1 >= opened->facet_at.size()) return {};
    const std::uint64_t first = opened->facet_at[document];
    const std::uint64_t end = opened->facet_at[document + 1];
    if (first > end || end > opened->facets.size()) return {};
    const std::string_view bytes = opened->facets.substr(first, end - first);
    if (!opened->checked &&
        (std::count(bytes.begin(), bytes.end(), '\0') % 2 != 0 || (!bytes.empty() && bytes.back() != '\0'))) {
      return {};
    }
    return bytes;
  }
  Facets facets_of(std::uint32_t document) const {
    if (!opened) return facets[document];
    Facets out;
    std::string_view rest = facet_bytes(document);
    while (!rest.empty()) {
      const std::size_t a = rest.find('\0');
      const std::size_t b = rest.find('\0', a + 1);
      out.emplace_back(std::string(rest.substr(0, a)), std::string(rest.substr(a + 1, b - a - 1)));
      rest.remove_prefix(b + 1);
    }
    return out;
  }

  std::size_t documents() const { return opened ? opened->lengths.size() : lengths.size(); }
  // A document's length in terms; 0 for one past the last (only damaged bytes name one).
  std::uint32_t length(std::uint32_t document) const {
    if (!opened) return lengths[document];
    return document < opened->lengths.size() ? opened->lengths[document] : 0;
  }
  std::span<const std::uint32_t> all_positions() const {
    return opened ? opened->positions : std::span<const std::uint32_t>(positions);
  }
  std::string_view name(std::uint32_t id) const {
    const std::uint64_t first = opened->name_at[id];
    const std::uint64_t end = opened->name_at[id + 1];
    if (first > end || end > opened->names.size()) return {};  // only unchecked bytes are so
    return opened->names.substr(first, end - first);
  }
  // Whether an opened index's list `id` holds what an index built by add() could: inside its
  // section, one block bound per kBlock postings, documents rising and in range, positions inside
  // the positions. What thaw() copies of an index opened unchecked.
  bool safe(std::uint32_t id) const {
    const Opened& o = *opened;
    if (!in_bounds(id)) return false;
    const std::span<const Posting> postings = list(id);
    if (postings.empty() || blocks(id).size() != (postings.size() + kBlock - 1) / kBlock) {
      return false;
    }
    const auto documents = static_cast<std::uint64_t>(o.lengths.size());
    const auto held = static_cast<std::uint64_t>(o.positions.size());
    std::uint64_t previous = 0;  // one past the document before
    bool ok = true;
    for (const Posting& p : postings) {
      const std::uint64_t first = p.first_position;
      ok &= (p.document >= previous) & (p.document < documents) & (p.count != 0) &
            (first + p.count <= held);
      previous = std::uint64_t{p.document} + 1;
    }
    return ok;
  }
  // Whether an opened index's list `id` is safe() and what its postings say: no frequency above
  // its document's length, block bounds over their postings. What open() checks of every list.
  bool sound(std::uint32_t id) const {
    const Opened& o = *opened;
    if (!safe(id)) return false;
    const std::span<const Posting> postings = list(id);
    const std::span<const BlockBound> bounds = blocks(id);
    for (std::size_t i = 0; i < postings.size(); ++i) {
      const Posting& p = postings[i];
      const BlockBound& b = bounds[i / kBlock];
      if (p.count > o.lengths[p.document] || p.count > b.most ||
          o.lengths[p.document] < b.shortest) {
        return false;
      }
    }
    return true;
  }
  // Whether an opened index's list `id` and its block bounds lie inside their sections.
  bool in_bounds(std::uint32_t id) const {
    const Opened& o = *opened;
    return o.list_at[id] <= o.list_at[id + 1] && o.list_at[id + 1] <= o.postings.size() &&
           o.block_at[id] <= o.block_at[id + 1] && o.block_at[id + 1] <= o.blocks.size();
  }
  // A term's list where a query may read it: every one of a checked index; of one opened
  // unchecked, any inside its section (in constant time: what a query reads of a posting is
  // checked where it is read: length(), facet_bytes(), positions_in(), frequencies(), Live).
  bool readable(std::uint32_t id) const { return opened->checked || in_bounds(id); }
  // An opened index's first term id whose name is not below `text` (the count when none is).
  std::uint32_t first_not_below(std::string_view text) const {
    std::uint32_t low = 0;
    auto high = static_cast<std::uint32_t>(opened->name_at.size() - 1);
    while (low < high) {
      const std::uint32_t mid = low + (high - low) / 2;
      if (name(mid) < text) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
  std::optional<std::uint32_t> id_of(std::string_view term) const {
    if (!opened) {
      return ids.find(term, hash_of(term), names);
    }
    const std::uint32_t at = first_not_below(term);
    return at + 1 < opened->name_at.size() && name(at) == term && readable(at)
               ? std::optional<std::uint32_t>(at)
               : std::nullopt;
  }
  std::span<const Posting> list(std::uint32_t id) const {
    if (!opened) return by_term[id].postings;
    return opened->postings.subspan(opened->list_at[id], opened->list_at[id + 1] - opened->list_at[id]);
  }
  std::span<const BlockBound> blocks(std::uint32_t id) const {
    if (!opened) return by_term[id].bounds;
    return opened->blocks.subspan(opened->block_at[id], opened->block_at[id + 1] - opened->block_at[id]);
  }
  std::optional<std::string_view> facet(std::uint32_t document, std::string_view wanted) const {
    if (!opened) {
      for (const auto& f : facets[document]) {
        if (f.first == wanted) return std::string_view(f.second);
      }
      return std::nullopt;
    }
    std::string_view rest = facet_bytes(document);
    while (!rest.empty()) {
      const std::size_t a = rest.find('\0');
      const std::size_t b = rest.find('\0', a + 1);
      if (rest.substr(0, a) == wanted) return rest.substr(a + 1, b - a - 1);
      rest.remove_prefix(b + 1);
    }
    return std::nullopt;
  }

  std::optional<std::span<const Posting>> list_of(std::string_view term) const {
    const std::optional<std::uint32_t> id = id_of(term);
    return id ? std::optional<std::span<const Posting>>(list(*id)) : std::nullopt;
  }

  // Every posting list of a term that starts with `prefix`.
  std::vector<std::span<const Posting>> with_prefix(std::string_view prefix) const {
    std::vector<std::span<const Posting>> out;
    if (!opened) {
      for (std::uint32_t id = 0; id < by_term.size(); ++id) {
        if (names[id].starts_with(prefix)) out.push_back(by_term[id].postings);
      }
      return out;
    }
    for (std::uint32_t id = first_not_below(prefix); id + 1 < opened->name_at.size() && name(id).starts_with(prefix);
         ++id) {
      if (readable(id)) out.push_back(list(id));
    }
    return out;
  }

  // The positions of one unit's terms in one document, as sorted lists: the term's, or for a
  // prefix every matching term's merged.
  std::vector<std::uint32_t> positions_in(std::uint32_t document,
                                          const std::vector<std::span<const Posting>>& lists) const {
    std::vector<std::uint32_t> out;
    const std::span<const std::uint32_t> every = all_positions();
    for (const std::span<const Posting> one : lists) {
      const auto at = std::lower_bound(one.begin(), one.end(), document,
                                       [](const Posting& p, std::uint32_t d) { return p.document < d; });
      if (at == one.end() || at->document != document ||
          at->first_position > every.size() || at->count > every.size() - at->first_position) {
        continue;  // past the positions: only in damaged bytes
      }
      const auto first = every.begin() + at->first_position;
      out.insert(out.end(), first, first + at->count);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // How often a leaf (term, prefix or phrase) occurs in each document that holds it.
  Frequencies frequencies(const Node& leaf) const {
    std::vector<std::vector<std::span<const Posting>>> lists;  // per term of the leaf
    for (std::size_t i = 0; i < leaf.terms.size(); ++i) {
      const bool prefix = leaf.kind == Node::Kind::prefix && i + 1 == leaf.terms.size();
      if (prefix) {
        lists.push_back(with_prefix(leaf.terms[i]));
      } else {
        const std::optional<std::span<const Posting>> one = list_of(leaf.terms[i]);
        lists.push_back(one ? std::vector<std::span<const Posting>>{*one}
                            : std::vector<std::span<const Posting>>{});
      }
      if (lists.back().empty()) return {};
    }
    // Candidates: the documents of the first term's lists (merged), then checked term by term.
    Frequencies first;
    for (const std::span<const Posting> one : lists[0]) {
      for (const Posting& p : one) first.emplace_back(p.document, p.count);
    }
    const bool rising = std::adjacent_find(first.begin(), first.end(), [](const auto& a, const auto& b) {
                          return a.first >= b.first;
                        }) == first.end();
    // A prefix's terms (or a damaged list, out of order): one entry per document, in order, their
    // counts summed.
    if (lists[0].size() > 1 || !rising) {
      std::sort(first.begin(), first.end());
      std::size_t kept = 0;
      for (std::size_t i = 0; i < first.size(); ++i) {
        if (kept > 0 && first[kept - 1].first == first[i].first) {
          first[kept - 1].second += first[i].second;
        } else {
          first[kept++] = first[i];
        }
      }
      first.resize(kept);
    }
    if (lists.size() == 1) return first;
    Frequencies out;
    for (const auto& [document, count] : first) {
      std::vector<std::vector<std::uint32_t>> at;
      for (const auto& term_lists : lists) at.push_back(positions_in(document, term_lists));
      std::uint32_t hits = 0;
      for (std::uint32_t start : at[0]) {
        bool all = true;
        for (std::size_t i = 1; i < at.size() && all; ++i) {
          all = std::binary_search(at[i].begin(), at[i].end(), start + static_cast<std::uint32_t>(i));
        }
        hits += all ? 1 : 0;
      }
      if (hits > 0) out.emplace_back(document, hits);
    }
    return out;
  }

  // The frequencies of the leaves already read (those that score), so matches() and the scoring
  // read each posting list once.
  using Known = std::vector<std::pair<const Node*, const Frequencies*>>;

  Documents matches(const Node& node, const Known& known = {}) const {
    switch (node.kind) {
      case Node::Kind::term:
      case Node::Kind::prefix:
      case Node::Kind::phrase: {
        for (const auto& [leaf, f] : known) {
          if (leaf == &node) return documents_of(*f);
        }
        return documents_of(frequencies(node));
      }
      case Node::Kind::any_of: {
        Documents out;
        for (const Node& child : node.children) {
          Documents both;
          const Documents more = matches(child, known);
          std::set_union(out.begin(), out.end(), more.begin(), more.end(), std::back_inserter(both));
          out = std::move(both);
        }
        return out;
      }
      case Node::Kind::all_of: {
        std::optional<Documents> out;
        std::vector<const Node*> excluded;
        for (const Node& child : node.children) {
          if (child.kind == Node::Kind::none_of) {
            excluded.push_back(&child.children[0]);
            continue;
          }
          Documents next = matches(child, known);
          if (out) {
            Documents both;
            std::set_intersection(out->begin(), out->end(), next.begin(), next.end(),
                                  std::back_inserter(both));
            next = std::move(both);
          }
          out = std::move(next);
        }
        for (const Node* child : excluded) {
          Documents kept;
          const Documents drop = matches(*child);
          std::set_difference(out->begin(), out->end(), drop.begin(), drop.end(),
                              std::back_inserter(kept));
          out = std::move(kept);
        }
        return std::move(out).value_or(Documents{});
      }
      case Node::Kind::none_of:
        return {};  // only inside all_of, which subtracts it
    }
    return {};
  }

  // The best documents for one term into `best` (those that count, numbered as `live` says): its
  // blocks in the order of their bounds, stopping at the first whose bound is below the k-th best
  // score so far (an equal one may hold a tie that an earlier document wins).
  void top_of_term(std::string_view term, double idf, const Scale& scale, Best& best,
                   const Live& live) const {
    const std::optional<std::uint32_t> id = id_of(term);
    if (!id) return;
    const std::span<const Posting> list = this->list(*id);
    const std::span<const BlockBound> blocks = this->blocks(*id);
    const auto score = [&](double tf, std::uint32_t length) {
      return term_score(idf, tf, length, scale.average);
    };
    std::vector<std::pair<double, std::size_t>> order;  // (bound, block)
    order.reserve(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      order.emplace_back(score(blocks[b].most, blocks[b].shortest), b);
    }
    std::sort(order.begin(), order.end(),
              [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
    for (const auto& [bound, b] : order) {
      // A hair of slack: a posting below the bound in exact arithmetic stays below it rounded.
      if (const std::optional<double> floor = best.threshold(); floor && bound * (1 + 1e-12) < *floor) {
        break;
      }
      const std::size_t end = std::min(list.size(), (b + 1) * kBlock);
      for (std::size_t i = b * kBlock; i < end; ++i) {
        if (const std::optional<std::size_t> number = live.number(list[i].document)) {
          best.offer({*number, score(list[i].count, length(list[i].document))});
        }
      }
    }
  }

  // The best documents for terms ORed into `best` (MaxScore): the terms in ascending order of their
  // best possible score; those whose bounds together cannot reach the k-th best score so far only
  // add to a candidate that the others found, probed by a forward search, and a candidate stops
  // as soon as what is left of it cannot get in. Each leaf's contribution is added in leaf order,
  // as the general path adds them, so both give the same scores to the bit.
  void top_of_any(const std::vector<const Node*>& leaves, const std::vector<double>& idf,
                  const Scale& scale, Best& best, const Live& live) const {
    const double average = scale.average;
    struct Leaf {
      std::span<const Posting> list;
      double idf = 0;
      double bound = 0;  // the most it can add to any document
      std::size_t at = 0;
      std::size_t index = 0;  // its place among the query's leaves
    };
    std::vector<Leaf> all;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      Leaf leaf;
      leaf.index = i;
      const std::optional<std::uint32_t> id = id_of(leaves[i]->terms[0]);
      if (id) leaf.list = list(*id);
      leaf.idf = idf[i];
      if (id) {
        for (const BlockBound& b : blocks(*id)) {
          leaf.bound = std::max(leaf.bound, term_score(leaf.idf, b.most, b.shortest, average));
        }
      }
      all.push_back(leaf);
    }
    std::sort(all.begin(), all.end(), [](const Leaf& a, const Leaf& b) {
      return a.bound != b.bound ? a.bound < b.bound : a.index < b.index;
    });
    std::vector<double> below(all.size() + 1, 0);  // below[i]: the bounds of all[0..i) summed
    for (std::size_t i = 0; i < all.size(); ++i) below[i + 1] = below[i] + all[i].bound;
    const auto slack = [](double bound) { return bound * (1 + 1e-12); };
    std::vector<double> added(leaves.size(), 0);
    std::size_t essential = 0;  // all[essential..] find candidates
    while (true) {
      if (const std::optional<double> floor = best.threshold()) {
        while (essential < all.size() && slack(below[essential + 1]) < *floor) ++essential;
      }
      if (essential == all.size()) break;
      std::uint32_t document = std::numeric_limits<std::uint32_t>::max();
      for (std::size_t i = essential; i < all.size(); ++i) {
        if (all[i].at < all[i].list.size()) {
          document = std::min(document, all[i].list[all[i].at].document);
        }
      }
      if (document == std::numeric_limits<std::uint32_t>::max()) break;
      const std::optional<std::size_t> number = live.number(document);
      if (!number) {  // a document that does not count: passed over
        for (std::size_t i = essential; i < all.size(); ++i) {
          Leaf& leaf = all[i];
          if (leaf.at < leaf.list.size() && leaf.list[leaf.at].document == document) ++leaf.at;
        }
        continue;
      }
      std::fill(added.begin(), added.end(), 0.0);
      double sum = 0;
      for (std::size_t i = essential; i < all.size(); ++i) {
        Leaf& leaf = all[i];
        if (leaf.at < leaf.list.size() && leaf.list[leaf.at].document == document) {
          added[leaf.index] = term_score(leaf.idf, leaf.list[leaf.at].count, length(document),
                                         average);
          sum += added[leaf.index];
          ++leaf.at;
        }
      }
      bool out = false;
      for (std::size_t i = essential; i-- > 0;) {
        const std::optional<double> floor = best.threshold();
        if (floor && slack(sum + below[i + 1]) < *floor) {
          out = true;
          break;
        }
        Leaf& leaf = all[i];
        leaf.at = forward(leaf.list, leaf.at, document);
        if (leaf.at < leaf.list.size() && leaf.list[leaf.at].document == document) {
          added[leaf.index] = term_score(leaf.idf, leaf.list[leaf.at].count, length(document), average);
          sum += added[leaf.index];
        }
      }
      if (out) continue;
      double score = 0;
      for (const double a : added) score += a;  // in leaf order, as the general path adds
      best.offer({*number, score});
    }
  }

  // The best documents holding every one of the terms into `best`: the shortest list leads, a
  // block of kBlock of its postings at a time (block-max AND). The other lists are searched
  // forward (galloping: no list is copied) to the block's first document; a block none of whose
  // documents another list can hold is passed over, and so is one whose bound (its own block's
  // and, for each other list, the most of the blocks that overlap its documents) is below the
  // k-th best score so far. Each match is scored with its contributions added in leaf order, as
  // the general path adds them.
  void top_of_all(const std::vector<const Node*>& leaves, const std::vector<double>& idf,
                  const Scale& scale, Best& best, const Live& live) const {
    std::vector<std::span<const Posting>> lists;
    std::vector<std::span<const BlockBound>> bounds;
    for (const Node* leaf : leaves) {
      const std::optional<std::uint32_t> id = id_of(leaf->terms[0]);
      if (!id) return;
      lists.push_back(list(*id));
      bounds.push_back(blocks(*id));
    }
    // The lists from the shortest: the first leads, the others are searched in that order, so a
    // document that one of them lacks is passed over soonest.
    std::vector<std::size_t> order(lists.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return lists[a].size() < lists[b].size(); });
    const std::size_t lead = order[0];
    const std::span<const Posting> led = lists[lead];
    // The most list i can add to a document among its postings [from, to): its blocks' bounds
    // (a damaged list without a bound for every block: no bound at all).
    const auto most = [&](std::size_t i, std::size_t from, std::size_t to) {
      double out = 0;
      for (std::size_t b = from / kBlock; b <= (to - 1) / kBlock; ++b) {
        if (b >= bounds[i].size()) return std::numeric_limits<double>::infinity();
        out = std::max(out, term_score(idf[i], bounds[i][b].most, bounds[i][b].shortest, scale.average));
      }
      return out;
    };
    // Whether a bound is below the k-th best score so far, with a hair of slack: a posting below
    // the bound in exact arithmetic stays below it rounded.
    const auto below = [&best](double bound) {
      return best.threshold() && bound * (1 + 1e-12) < *best.threshold();
    };
    std::vector<std::size_t> at(lists.size(), 0);
    std::vector<std::uint32_t> tf(lists.size(), 0);
    for (std::size_t block = 0; block * kBlock < led.size(); ++block) {
      const std::size_t first = block * kBlock;
      const std::size_t end = std::min(led.size(), first + kBlock);
      const std::uint32_t low = led[first].document;
      const std::uint32_t high = led[end - 1].document;
      bool held = true;  // whether every other list has a document in [low, high]
      // The most the other lists can add to one of the block's documents (unbounded until there
      // are k hits to beat: their blocks are not read).
      const bool bounded = best.threshold().has_value();
      double others = bounded ? 0 : std::numeric_limits<double>::infinity();
      for (std::size_t n = 1; n < order.size() && held; ++n) {
        const std::size_t i = order[n];
        at[i] = forward(lists[i], at[i], low);
        held = at[i] < lists[i].size() && lists[i][at[i]].document <= high;
        if (held && bounded) {
          others += most(i, at[i], forward(lists[i], at[i], high + std::uint64_t{1}));
        }
      }
      if (!held || below(most(lead, first, end) + others)) continue;
      for (std::size_t k = first; k < end; ++k) {
        const Posting& p = led[k];
        const std::optional<std::size_t> number = live.number(p.document);
        if (!number) continue;
        // The lead's own score and the others' bound: below the k-th best, nothing else is read.
        const std::uint32_t terms = length(p.document);
        if (below(term_score(idf[lead], p.count, terms, scale.average) + others)) continue;
        tf[lead] = p.count;
        bool all = true;
        for (std::size_t n = 1; n < order.size() && all; ++n) {
          const std::size_t i = order[n];
          at[i] = forward(lists[i], at[i], p.document);
          all = at[i] < lists[i].size() && lists[i][at[i]].document == p.document;
          if (all) tf[i] = lists[i][at[i]].count;
        }
        if (!all) continue;
        double score = 0;
        for (std::size_t i = 0; i < lists.size(); ++i) {
          score += term_score(idf[i], tf[i], terms, scale.average);
        }
        best.offer({*number, score});
      }
    }
  }

  // How many documents that count hold every one of the terms of `node` (ANDed) or any of them
  // (ORed): their lists walked side by side, none copied. ANDed, the shortest leads.
  std::size_t count_terms(const Node& node, const Live& live) const {
    std::vector<std::span<const Posting>> lists;
    for (const Node& term : node.children) {
      const std::optional<std::span<const Posting>> one = list_of(term.terms[0]);
      if (one) {
        lists.push_back(*one);
      } else if (node.kind == Node::Kind::all_of) {
        return 0;
      }
    }
    std::sort(lists.begin(), lists.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
    std::vector<std::size_t> at(lists.size(), 0);
    std::size_t n = 0;
    if (node.kind == Node::Kind::all_of) {
      for (const Posting& p : lists[0]) {
        bool all = true;
        for (std::size_t i = 1; i < lists.size() && all; ++i) {
          at[i] = forward(lists[i], at[i], p.document);
          all = at[i] < lists[i].size() && lists[i][at[i]].document == p.document;
        }
        n += all && live.number(p.document) ? 1 : 0;
      }
      return n;
    }
    while (true) {  // ORed: the least document under the lists' cursors, each advanced past it
      std::uint32_t document = std::numeric_limits<std::uint32_t>::max();
      for (std::size_t i = 0; i < lists.size(); ++i) {
        if (at[i] < lists[i].size()) document = std::min(document, lists[i][at[i]].document);
      }
      if (document == std::numeric_limits<std::uint32_t>::max()) return n;
      for (std::size_t i = 0; i < lists.size(); ++i) {
        while (at[i] < lists[i].size() && lists[i][at[i]].document == document) ++at[i];
      }
      n += live.number(document) ? 1 : 0;
    }
  }

  bool passes(std::uint32_t document, const std::vector<Filter>& filters) const {
    for (const Filter& f : filters) {
      const std::optional<std::string_view> found = facet(document, f.facet);
      if (!found) return false;
      const std::string_view value = *found;
      switch (f.kind) {
        case Filter::Kind::equals:
          if (f.facet == "file" ? !value.starts_with(f.value) : value != f.value) return false;
          break;
        case Filter::Kind::since:
          if (value.substr(0, 10) < f.value) return false;
          break;
        case Filter::Kind::until:
          if (value.substr(0, 10) > f.value) return false;
          break;
        case Filter::Kind::at_least:
          if (number(value) < number(f.value)) return false;
          break;
      }
    }
    return true;
  }
};

namespace {

// The leaves that score: every term, prefix and phrase not under a NOT.
void scoring_leaves(const Node& node, std::vector<const Node*>& out) {
  if (node.kind == Node::Kind::none_of) return;
  if (node.children.empty()) {
    out.push_back(&node);
    return;
  }
  for (const Node& child : node.children) scoring_leaves(child, out);
}

// Whether a query is terms joined by one operator (`kind`), no filter: those take the paths that
// walk posting lists side by side.
bool terms_only(const Query& query, Node::Kind kind) {
  return query.root()->kind == kind && query.filters().empty() &&
         std::all_of(query.root()->children.begin(), query.root()->children.end(),
                     [](const Node& child) { return child.kind == Node::Kind::term; });
}

}  // namespace

Index::Index() : data_(std::make_unique<Data>()) {}
Index::Index(const Stemmer* stemmer) : Index() { data_->stemmer = stemmer; }
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

std::size_t Index::add(std::string_view text, Facets facets) {
  Data& d = *data_;
  if (d.opened) d.thaw();
  const auto document = static_cast<std::uint32_t>(d.lengths.size());
  d.analysed.clear();  // kept from add() to add(): no allocation per document
  analyze(text, d.analysed, d.stemmer);
  const std::vector<Term>& terms = d.analysed;
  d.scratch.clear();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    d.scratch.emplace_back(d.term_id(terms[i].text), static_cast<std::uint32_t>(i));
  }
  std::sort(d.scratch.begin(), d.scratch.end());  // by term, then position
  for (std::size_t i = 0; i < d.scratch.size();) {
    d.occurrences.clear();
    std::size_t end = i;
    for (; end < d.scratch.size() && d.scratch[end].first == d.scratch[i].first; ++end) {
      d.occurrences.push_back(d.scratch[end].second);
    }
    d.post(d.scratch[i].first, document, static_cast<std::uint32_t>(terms.size()), d.occurrences);
    i = end;
  }
  d.lengths.push_back(static_cast<std::uint32_t>(terms.size()));
  d.facets.push_back(std::move(facets));
  d.total_terms += terms.size();
  return document;
}

std::size_t Index::size() const noexcept { return data_->documents(); }

std::size_t Index::count(const Query& query) const {
  const Segment every{0, size(), 0};
  const Part whole{this, std::span<const Segment>(&every, 1)};
  return search::count(std::span<const Part>(&whole, 1), query);
}

std::vector<Hit> Index::search(const Query& query, std::size_t limit) const {
  const Segment every{0, size(), 0};
  const Part whole{this, std::span<const Segment>(&every, 1)};
  return search::search(std::span<const Part>(&whole, 1), query, limit);
}

namespace {

// Each part's documents that count (Live), in the parts' order.
std::vector<Live> live_of(std::span<const Part> parts) {
  std::vector<Live> out;
  out.reserve(parts.size());
  for (const Part& part : parts) out.emplace_back(part.segments, part.index->size());
  return out;
}

}  // namespace

std::size_t count(std::span<const Part> parts, const Query& query) {
  const std::vector<Live> live = live_of(parts);
  std::size_t n = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Index::Data& d = *parts[p].index->data_;
    if (query.root() == nullptr) {
      for (const Segment& s : live[p].segments()) {
        for (std::size_t doc = s.first; doc < s.first + s.count; ++doc) {
          n += d.passes(static_cast<std::uint32_t>(doc), query.filters()) ? 1 : 0;
        }
      }
      continue;
    }
    if (query.root()->kind == Node::Kind::term && query.filters().empty()) {
      // A term's documents are its posting list: counted without being gathered.
      const std::optional<std::span<const Posting>> list = d.list_of(query.root()->terms[0]);
      n += list ? live[p].holding(*list) : 0;
      continue;
    }
    if (terms_only(query, Node::Kind::all_of) || terms_only(query, Node::Kind::any_of)) {
      n += d.count_terms(*query.root(), live[p]);
      continue;
    }
    const Documents found = d.matches(*query.root());
    n += static_cast<std::size_t>(std::count_if(found.begin(), found.end(), [&](std::uint32_t doc) {
      return live[p].number(doc) && d.passes(doc, query.filters());
    }));
  }
  return n;
}

std::vector<Hit> search(std::span<const Part> parts, const Query& query, std::size_t limit) {
  const std::vector<Live> live = live_of(parts);
  Scale scale;
  std::uint64_t total_terms = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Index::Data& d = *parts[p].index->data_;
    scale.documents += static_cast<double>(live[p].documents());
    std::uint64_t gone = 0;  // the terms of its documents that do not count
    for (const auto& [first, end] : live[p].gaps()) {
      for (std::size_t doc = first; doc < end; ++doc) gone += d.length(static_cast<std::uint32_t>(doc));
    }
    total_terms += d.total_terms - std::min(gone, d.total_terms);  // (damaged bytes: no wrap)
  }
  if (scale.documents == 0 || limit == 0) return {};
  scale.average = static_cast<double>(total_terms) / scale.documents;
  std::vector<Hit> hits;
  if (query.root() == nullptr) {  // filters only: every passing document by number, unscored
    std::vector<std::pair<Segment, std::size_t>> in_order;  // (segment, its part)
    for (std::size_t p = 0; p < parts.size(); ++p) {
      for (const Segment& s : live[p].segments()) in_order.emplace_back(s, p);
    }
    std::sort(in_order.begin(), in_order.end(),
              [](const auto& a, const auto& b) { return a.first.number < b.first.number; });
    for (const auto& [segment, p] : in_order) {
      const Index::Data& d = *parts[p].index->data_;
      for (std::size_t i = 0; i < segment.count && hits.size() < limit; ++i) {
        if (d.passes(static_cast<std::uint32_t>(segment.first + i), query.filters())) {
          hits.push_back({segment.number + i, 0.0});
        }
      }
    }
    return hits;
  }
  std::vector<const Node*> leaves;
  scoring_leaves(*query.root(), leaves);
  const bool one_term = query.root()->kind == Node::Kind::term && query.filters().empty();
  Best best(limit);  // not every match sorted; one for every part, so each prunes the next
  if (one_term || terms_only(query, Node::Kind::any_of) || terms_only(query, Node::Kind::all_of)) {
    // Each term's idf from the lists of every part.
    std::vector<double> idf;
    for (const Node* leaf : leaves) {
      double holding = 0;
      for (std::size_t p = 0; p < parts.size(); ++p) {
        const std::optional<std::span<const Posting>> list =
            parts[p].index->data_->list_of(leaf->terms[0]);
        holding += list ? static_cast<double>(live[p].holding(*list)) : 0;
      }
      idf.push_back(idf_of(scale.documents, holding));
    }
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const Index::Data& d = *parts[p].index->data_;
      if (live[p].documents() == 0) continue;
      if (one_term) {
        d.top_of_term(leaves[0]->terms[0], idf[0], scale, best, live[p]);
      } else if (query.root()->kind == Node::Kind::any_of) {
        d.top_of_any(leaves, idf, scale, best, live[p]);
      } else {
        d.top_of_all(leaves, idf, scale, best, live[p]);
      }
    }
    return std::move(best).sorted();
  }
  // Every part's occurrences of every leaf first, in the documents that count: a leaf's idf
  // counts the documents of them all.
  std::vector<std::vector<Frequencies>> frequencies(parts.size());  // by part, then leaf
  std::vector<double> holding(leaves.size(), 0);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    frequencies[p].reserve(leaves.size());  // Known points into it
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      Frequencies f = parts[p].index->data_->frequencies(*leaves[i]);
      if (!live[p].whole()) {
        std::erase_if(f, [&](const auto& entry) { return !live[p].number(entry.first); });
      }
      holding[i] += static_cast<double>(f.size());
      frequencies[p].push_back(std::move(f));
    }
  }
  std::vector<double> idf;
  for (const double h : holding) idf.push_back(idf_of(scale.documents, h));
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Index::Data& d = *parts[p].index->data_;
    Index::Data::Known known;
    for (std::size_t i = 0; i < leaves.size(); ++i) known.emplace_back(leaves[i], &frequencies[p][i]);
    const Documents found = d.matches(*query.root(), known);
    std::vector<std::size_t> cursor(leaves.size(), 0);  // `found` is sorted: each leaf only advances
    for (const std::uint32_t doc : found) {
      const std::optional<std::size_t> number = live[p].number(doc);
      if (!number || !d.passes(doc, query.filters())) continue;
      const double length = static_cast<double>(d.length(doc)) / scale.average;
      const double norm = kK1 * (1 - kB + kB * length);
      double score = 0;
      for (std::size_t i = 0; i < leaves.size(); ++i) {
        const Frequencies& f = frequencies[p][i];
        while (cursor[i] < f.size() && f[cursor[i]].first < doc) ++cursor[i];
        if (cursor[i] == f.size() || f[cursor[i]].first != doc) continue;
        const double tf = f[cursor[i]].second;
        score += idf[i] * tf * (kK1 + 1) / (tf + norm);
      }
      best.offer({*number, score});
    }
  }
  return std::move(best).sorted();
}

std::string snippet(std::string_view text, const Query& query, std::size_t max_terms,
                    const Stemmer* stemmer) {
  const std::vector<Term> terms = analyze(text, stemmer);
  std::vector<const Node*> leaves;
  if (query.root() != nullptr) scoring_leaves(*query.root(), leaves);
  std::vector<bool> marked(terms.size(), false);
  for (const Node* leaf : leaves) {
    const std::size_t width = leaf->terms.size();
    for (std::size_t start = 0; start + width <= terms.size(); ++start) {
      bool all = true;
      for (std::size_t i = 0; i < width && all; ++i) {
        const bool prefix = leaf->kind == Node::Kind::prefix && i + 1 == width;
        all = prefix ? terms[start + i].text.starts_with(leaf->terms[i])
                     : terms[start + i].text == leaf->terms[i];
      }
      if (all) std::fill(marked.begin() + static_cast<std::ptrdiff_t>(start),
                         marked.begin() + static_cast<std::ptrdiff_t>(start + width), true);
    }
  }
  if (terms.empty() || max_terms == 0) return std::string();
  const auto first = std::find(marked.begin(), marked.end(), true);
  const std::size_t hit =
      first == marked.end() ? 0 : static_cast<std::size_t>(first - marked.begin());
  const std::size_t from = hit > max_terms / 4 ? hit - max_terms / 4 : 0;
  const std::size_t to = std::min(terms.size(), from + max_terms);
  std::string out = from > 0 ? "…" : "";
  std::size_t copied = terms[from].begin;
  for (std::size_t i = from; i < to; ++i) {
    // What separates two terms, each run of white space (a line break too) as one space.
    bool space = false;
    for (const char c : text.substr(copied, terms[i].begin - copied)) {
      const bool white = c == ' ' || c == '\t' || c == '\n' || c == '\r';
      if (!white) out += c;
      if (white && !space) out += ' ';
      space = white;
    }
    if (marked[i]) out += '[';
    out.append(text.substr(terms[i].begin, terms[i].end - terms[i].begin));
    if (marked[i]) out += ']';
    copied = terms[i].end;
  }
  if (to < terms.size()) out += "…";
  return out;
}

}  // namespace memkit::search

// ---- the index as bytes -------------------------------------------------------------------------

namespace memkit::search {
namespace {

constexpr std::string_view kMagic = "MKSRCH01";
constexpr std::string_view kEndMark = "MKSRCHND";
constexpr std::size_t kHeaderWords = 7;  // after the magic: version, then six counts

static_assert(sizeof(index_detail::Posting) == 12 && sizeof(index_detail::BlockBound) == 8);

using codec::BinaryReader;
using codec::BinaryWriter;

Status damaged(const std::string& why) {
  return Status(Errc::invalid_argument, "index: " + why);
}

// Offsets that start at 0, never decrease and end at `total`.
bool offsets_ok(std::span<const std::uint64_t> at, std::uint64_t total) {
  if (at.empty() || at.front() != 0 || at.back() != total) return false;
  for (std::size_t i = 1; i < at.size(); ++i) {
    if (at[i] < at[i - 1]) return false;
  }
  return true;
}

}  // namespace

std::string Index::serialize() const {
  const Run whole{this, 0, size()};
  return search::serialize(std::span<const Run>(&whole, 1));
}

std::string serialize(std::span<const Run> runs) {
  // Each index the runs copy from, its terms in order (with their ids in it), read once however
  // many runs copy from it; and each run, its documents numbered from where the one before ends.
  struct Source {
    const Index::Data* d = nullptr;
    std::vector<std::pair<std::string_view, std::uint32_t>> terms;
    std::size_t at = 0;
  };
  struct Range {
    std::size_t source = 0;
    std::uint32_t first = 0;  // its documents in its index: [first, end)
    std::uint32_t end = 0;
    std::uint32_t base = 0;   // their numbers here: from base
  };
  std::vector<Source> sources;
  std::vector<Range> ranges;
  std::uint32_t documents = 0;
  std::uint64_t total_terms = 0;
  for (const Run& run : runs) {
    const Index::Data& d = *run.index->data_;
    Range range;
    range.first = static_cast<std::uint32_t>(std::min(run.first, d.documents()));
    range.end = static_cast<std::uint32_t>(range.first +
                                           std::min(run.count, d.documents() - range.first));
    if (range.first == range.end) continue;
    range.base = documents;
    documents += range.end - range.first;
    for (std::uint32_t doc = range.first; doc < range.end; ++doc) total_terms += d.length(doc);
    range.source = static_cast<std::size_t>(
        std::find_if(sources.begin(), sources.end(), [&d](const Source& s) { return s.d == &d; }) -
        sources.begin());
    if (range.source == sources.size()) {
      Source& source = sources.emplace_back();
      source.d = &d;
      // An opened index's lists inside their sections (each posting is checked as it is copied
      // below), its terms in order (an unchecked one's out of order give a pack that checks
      // fail, never a read outside the bytes); a built index's terms sorted.
      for (std::uint32_t id = 0; id < d.terms(); ++id) {
        if (!d.opened || d.in_bounds(id)) source.terms.emplace_back(d.term_name(id), id);
      }
      if (!d.opened) std::sort(source.terms.begin(), source.terms.end());
    }
    ranges.push_back(range);
  }
  // The terms of every source merged in order, each with the postings of the runs' documents
  // only, run after run: a term that only documents outside the runs hold is left out.
  std::string names;
  std::vector<std::uint64_t> name_at{0}, list_at{0}, block_at{0};
  std::vector<Posting> postings;
  std::vector<BlockBound> blocks;
  std::vector<std::uint32_t> positions;
  const auto later = [&sources](std::size_t a, std::size_t b) {  // a min-heap of sources
    const std::string_view x = sources[a].terms[sources[a].at].first;
    const std::string_view y = sources[b].terms[sources[b].at].first;
    return x != y ? x > y : a > b;
  };
  // Room for what the runs hold, estimated in proportion to their share of each index.
  std::size_t expected_postings = 0;
  std::size_t expected_positions = 0;
  for (const Range& range : ranges) {
    const Source& source = sources[range.source];
    const double share = static_cast<double>(range.end - range.first) /
                         static_cast<double>(source.d->documents());
    std::size_t all = 0;
    for (const auto& term : source.terms) all += source.d->list(term.second).size();
    expected_postings += static_cast<std::size_t>(share * static_cast<double>(all)) + 1;
    expected_positions +=
        static_cast<std::size_t>(share * static_cast<double>(source.d->all_positions().size())) + 1;
  }
  postings.reserve(expected_postings);
  blocks.reserve(expected_postings / kBlock + ranges.size() * 1024);
  positions.reserve(expected_positions);
  std::vector<std::size_t> heap;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i].terms.empty()) heap.push_back(i);
  }
  std::make_heap(heap.begin(), heap.end(), later);
  std::vector<std::size_t> holding;  // the sources at the least term
  std::vector<std::span<const Posting>> lists(sources.size());  // theirs of it; empty: none
  while (!heap.empty()) {
    const std::string_view term = sources[heap.front()].terms[sources[heap.front()].at].first;
    holding.clear();
    while (!heap.empty() && sources[heap.front()].terms[sources[heap.front()].at].first == term) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const std::size_t i = heap.back();
      heap.pop_back();
      holding.push_back(i);
      lists[i] = sources[i].d->list(sources[i].terms[sources[i].at].second);
    }
    const std::size_t before = postings.size();
    for (const Range& range : ranges) {
      const std::span<const Posting> list = lists[range.source];
      if (list.empty()) continue;
      const Index::Data& d = *sources[range.source].d;
      const bool unchecked = d.opened && !d.opened->checked;
      const std::span<const std::uint32_t> every = d.all_positions();
      auto p = std::lower_bound(list.begin(), list.end(), range.first,
                                [](const Posting& x, std::uint32_t doc) { return x.document < doc; });
      for (; p != list.end() && p->document < range.end; ++p) {
        if (unchecked && (p->document >= d.documents() || p->count == 0 ||
                          p->first_position > every.size() ||
                          p->count > every.size() - p->first_position)) {
          break;  // the rest of a damaged list is not copied
        }
        const std::uint32_t length = d.length(p->document);
        if ((postings.size() - before) % kBlock == 0) {
          blocks.push_back({p->count, length});
        } else {
          blocks.back().most = std::max(blocks.back().most, p->count);
          blocks.back().shortest = std::min(blocks.back().shortest, length);
        }
        postings.push_back({range.base + (p->document - range.first),
                            static_cast<std::uint32_t>(positions.size()), p->count});
        const auto at = every.subspan(p->first_position, p->count);
        positions.insert(positions.end(), at.begin(), at.end());
      }
    }
    for (const std::size_t i : holding) {
      lists[i] = {};
      if (++sources[i].at < sources[i].terms.size()) {
        heap.push_back(i);
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
    if (postings.size() == before) continue;
    names.append(term);
    name_at.push_back(names.size());
    list_at.push_back(postings.size());
    block_at.push_back(blocks.size());
  }
  const std::size_t terms = name_at.size() - 1;
  BinaryWriter w(64 + 3 * 8 * (terms + 1) + names.size() + postings.size() * sizeof(Posting) +
           blocks.size() * sizeof(BlockBound) + positions.size() * 4 + documents * 12 + 64);
  w.bytes(kMagic.data(), kMagic.size());
  for (const std::uint64_t value : {std::uint64_t{1}, std::uint64_t{documents}, std::uint64_t{terms},
                                    total_terms, std::uint64_t{postings.size()},
                                    std::uint64_t{positions.size()}, std::uint64_t{blocks.size()}}) {
    w.word(value);
  }
  // A section: its offsets (one more than its pieces), then the pieces' bytes, then padding.
  const auto section = [&w](const std::vector<std::uint64_t>& at, const void* data,
                            std::size_t size) {
    for (const std::uint64_t offset : at) w.word(offset);
    w.bytes(data, size);
    w.pad();
  };
  section(name_at, names.data(), names.size());
  section(list_at, postings.data(), postings.size() * sizeof(Posting));
  section(block_at, blocks.data(), blocks.size() * sizeof(BlockBound));
  w.bytes(positions.data(), positions.size() * sizeof(std::uint32_t));
  w.pad();
  std::string facets;
  std::vector<std::uint64_t> facet_at{0};
  for (const Range& range : ranges) {
    const Index::Data& d = *sources[range.source].d;
    for (std::uint32_t doc = range.first; doc < range.end; ++doc) {
      const std::uint32_t length = d.length(doc);
      w.bytes(&length, sizeof length);
      if (d.opened) {
        facets.append(d.facet_bytes(doc));
      } else {
        for (const auto& [name, value] : d.facets[doc]) {
          facets.append(name).append(1, '\0').append(value).append(1, '\0');
        }
      }
      facet_at.push_back(facets.size());
    }
  }
  w.pad();
  section(facet_at, facets.data(), facets.size());
  w.bytes(kEndMark.data(), kEndMark.size());
  return std::move(w).take();
}

Result<Index> Index::open(std::string_view bytes, std::shared_ptr<const void> owner,
                          bool checked) {
  if constexpr (std::endian::native != std::endian::little) {
    return damaged("this machine is not little-endian");
  }
  if (reinterpret_cast<std::uintptr_t>(bytes.data()) % 8 != 0) {  // NOLINT: alignment
    return damaged("the bytes are not aligned to 8");
  }
  BinaryReader r(bytes);
  const auto magic = r.take<char>(kMagic.size());
  if (!magic || std::string_view(magic->data(), magic->size()) != kMagic) {
    return damaged("not a memkit search index");
  }
  const auto header = r.take<std::uint64_t>(kHeaderWords);
  if (!header) return damaged("torn in its header");
  if ((*header)[0] != 1) return damaged("version " + std::to_string((*header)[0]) + " (this memkit reads 1)");
  const std::uint64_t documents = (*header)[1];
  const std::uint64_t terms = (*header)[2];
  const std::uint64_t total_terms = (*header)[3];
  const std::uint64_t postings = (*header)[4];
  const std::uint64_t positions = (*header)[5];
  const std::uint64_t blocks = (*header)[6];
  if (documents >= std::numeric_limits<std::uint32_t>::max() || terms >= bytes.size() ||
      positions > std::numeric_limits<std::uint32_t>::max()) {
    return damaged("counts past what the bytes can hold");
  }
  Data::Opened o;
  o.owner = std::move(owner);
  const auto name_at = r.take<std::uint64_t>(terms + 1);
  if (!name_at || name_at->back() > bytes.size()) return damaged("torn in its terms");
  const auto names = r.take<char>(name_at->back());
  const auto list_at = r.take<std::uint64_t>(terms + 1);
  const auto posting_bytes = list_at ? r.take<Posting>(postings) : std::nullopt;
  const auto block_at = posting_bytes ? r.take<std::uint64_t>(terms + 1) : std::nullopt;
  const auto block_bytes = block_at ? r.take<BlockBound>(blocks) : std::nullopt;
  const auto position_bytes = block_bytes ? r.take<std::uint32_t>(positions) : std::nullopt;
  const auto lengths = position_bytes ? r.take<std::uint32_t>(documents) : std::nullopt;
  const auto facet_at = lengths ? r.take<std::uint64_t>(documents + 1) : std::nullopt;
  if (!names || !facet_at || facet_at->back() > bytes.size()) return damaged("torn");
  const auto facets = r.take<char>(facet_at->back());
  const auto end = facets ? r.take<char>(kEndMark.size()) : std::nullopt;
  if (!end || std::string_view(end->data(), end->size()) != kEndMark || r.at() != bytes.size()) {
    return damaged("torn: no end mark where the header says it is");
  }
  o.name_at = *name_at;
  o.names = std::string_view(names->data(), names->size());
  o.list_at = *list_at;
  o.postings = *posting_bytes;
  o.block_at = *block_at;
  o.blocks = *block_bytes;
  o.positions = *position_bytes;
  o.lengths = *lengths;
  o.facet_at = *facet_at;
  o.facets = std::string_view(facets->data(), facets->size());
  if (!checked) {
    o.checked = false;
    Index index;
    index.data_->total_terms = total_terms;
    index.data_->opened = std::move(o);
    return index;
  }
  // Every offset in range, the terms in order, each list's documents rising and its positions
  // and block bounds what its postings say: no query can then read outside the bytes.
  if (!offsets_ok(o.name_at, o.names.size()) || !offsets_ok(o.list_at, postings) ||
      !offsets_ok(o.block_at, blocks) || !offsets_ok(o.facet_at, o.facets.size())) {
    return damaged("an offset out of order or out of range");
  }
  std::uint64_t sum = 0;
  for (const std::uint32_t length : o.lengths) sum += length;
  if (sum != total_terms) return damaged("document lengths that do not add up");
  Index index;
  Data& d = *index.data_;
  d.total_terms = total_terms;
  d.opened = std::move(o);
  const Data::Opened& v = *d.opened;
  for (std::uint32_t id = 0; id < terms; ++id) {
    const std::string_view name = d.name(id);
    if (name.empty() || (id > 0 && !(d.name(id - 1) < name))) {
      return damaged("terms out of order");
    }
    if (!d.sound(id)) return damaged("a posting list out of range or unlike its block bounds");
  }
  for (std::size_t doc = 0; doc < documents; ++doc) {  // "name\0value\0" pairs only
    std::string_view rest = v.facets.substr(v.facet_at[doc], v.facet_at[doc + 1] - v.facet_at[doc]);
    std::size_t zeros = static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\0'));
    if (zeros % 2 != 0 || (!rest.empty() && rest.back() != '\0')) {
      return damaged("facets that are not name and value pairs");
    }
  }
  return index;
}

}  // namespace memkit::search
