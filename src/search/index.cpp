// The in-memory index of memkit/search.hpp: postings with positions per term (documents are added
// in order, so every posting list is sorted by document), match sets as sorted document lists, and
// BM25 with SQLite FTS5's idf over each scoring unit (a term, a prefix or a phrase).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

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

// A scoring unit's occurrences: (document, frequency), sorted by document.
using Frequencies = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
using Documents = std::vector<std::uint32_t>;

// BM25 of one term in one document, the arithmetic of every path step for step.
double term_score(double idf, double tf, std::uint32_t length, double average) {
  const double relative = static_cast<double>(length) / average;
  const double norm = kK1 * (1 - kB + kB * relative);
  return idf * tf * (kK1 + 1) / (tf + norm);
}

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

}  // namespace index_detail

using namespace index_detail;  // NOLINT: this file's own helpers

struct Index::Data {
  // Each term's posting list, found by the term (hashed) or, for a prefix, through the terms in
  // order (views of `names`, whose strings never move).
  struct TermHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept {
      return std::hash<std::string_view>{}(text);
    }
  };
  std::unordered_map<std::string, std::uint32_t, TermHash, std::equal_to<>> ids;
  std::deque<std::string> names;
  std::map<std::string_view, std::uint32_t> ordered;
  std::vector<std::vector<Posting>> postings;  // by term id
  std::vector<std::vector<BlockBound>> bounds;  // by term id: one per kBlock postings
  std::vector<std::uint32_t> positions;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> scratch;  // (term, position) of one add()

  const std::vector<Posting>* list_of(std::string_view term) const {
    const auto it = ids.find(term);
    return it == ids.end() ? nullptr : &postings[it->second];
  }
  std::vector<std::uint32_t> lengths;  // terms per document
  std::vector<Facets> facets;
  std::uint64_t total_terms = 0;

  // Every posting list of a term that starts with `prefix`.
  std::vector<const std::vector<Posting>*> with_prefix(std::string_view prefix) const {
    std::vector<const std::vector<Posting>*> out;
    for (auto it = ordered.lower_bound(prefix); it != ordered.end() && it->first.starts_with(prefix);
         ++it) {
      out.push_back(&postings[it->second]);
    }
    return out;
  }

  // The positions of one unit's terms in one document, as sorted lists: the term's, or for a
  // prefix every matching term's merged.
  std::vector<std::uint32_t> positions_in(std::uint32_t document,
                                          const std::vector<const std::vector<Posting>*>& lists) const {
    std::vector<std::uint32_t> out;
    for (const std::vector<Posting>* list : lists) {
      const auto at = std::lower_bound(list->begin(), list->end(), document,
                                       [](const Posting& p, std::uint32_t d) { return p.document < d; });
      if (at == list->end() || at->document != document) continue;
      out.insert(out.end(), positions.begin() + at->first_position,
                 positions.begin() + at->first_position + at->count);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // How often a leaf (term, prefix or phrase) occurs in each document that holds it.
  Frequencies frequencies(const Node& leaf) const {
    std::vector<std::vector<const std::vector<Posting>*>> lists;  // per term of the leaf
    for (std::size_t i = 0; i < leaf.terms.size(); ++i) {
      const bool prefix = leaf.kind == Node::Kind::prefix && i + 1 == leaf.terms.size();
      if (prefix) {
        lists.push_back(with_prefix(leaf.terms[i]));
      } else {
        const std::vector<Posting>* list = list_of(leaf.terms[i]);
        lists.push_back(list == nullptr ? std::vector<const std::vector<Posting>*>{}
                                        : std::vector<const std::vector<Posting>*>{list});
      }
      if (lists.back().empty()) return {};
    }
    // Candidates: the documents of the first term's lists (merged), then checked term by term.
    Frequencies first;
    for (const std::vector<Posting>* list : lists[0]) {
      for (const Posting& p : *list) first.emplace_back(p.document, p.count);
    }
    if (lists[0].size() > 1) {  // a prefix's terms: one entry per document, their counts summed
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

  // The best `limit` documents for one term: its blocks in the order of their bounds, stopping at
  // the first whose bound is below the k-th best score so far (an equal one may hold a tie that
  // an earlier document wins).
  std::vector<Hit> top_of_term(std::string_view term, std::size_t limit) const {
    const auto id = ids.find(term);
    if (id == ids.end()) return {};
    const std::vector<Posting>& list = postings[id->second];
    const std::vector<BlockBound>& blocks = bounds[id->second];
    const auto n = static_cast<double>(lengths.size());
    const double holding = static_cast<double>(list.size());
    const double raw_idf = std::log((n - holding + 0.5) / (holding + 0.5));
    const double idf = raw_idf > 0 ? raw_idf : 1e-6;
    const double average = static_cast<double>(total_terms) / n;
    const auto score = [&](double tf, std::uint32_t length) {
      return term_score(idf, tf, length, average);
    };
    std::vector<std::pair<double, std::size_t>> order;  // (bound, block)
    order.reserve(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      order.emplace_back(score(blocks[b].most, blocks[b].shortest), b);
    }
    std::sort(order.begin(), order.end(),
              [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
    Best best(limit);
    for (const auto& [bound, b] : order) {
      // A hair of slack: a posting below the bound in exact arithmetic stays below it rounded.
      if (const std::optional<double> floor = best.threshold(); floor && bound * (1 + 1e-12) < *floor) {
        break;
      }
      const std::size_t end = std::min(list.size(), (b + 1) * kBlock);
      for (std::size_t i = b * kBlock; i < end; ++i) {
        best.offer({list[i].document, score(list[i].count, lengths[list[i].document])});
      }
    }
    return std::move(best).sorted();
  }

  // The best `limit` documents for terms ORed (MaxScore): the terms in ascending order of their
  // best possible score; those whose bounds together cannot reach the k-th best score so far only
  // add to a candidate that the others found, probed by a forward search, and a candidate stops
  // as soon as what is left of it cannot get in. Each leaf's contribution is added in leaf order,
  // as the general path adds them, so both give the same scores to the bit.
  std::vector<Hit> top_of_any(const std::vector<const Node*>& leaves, std::size_t limit) const {
    const auto n = static_cast<double>(lengths.size());
    const double average = static_cast<double>(total_terms) / n;
    struct Leaf {
      const std::vector<Posting>* list = nullptr;
      double idf = 0;
      double bound = 0;  // the most it can add to any document
      std::size_t at = 0;
      std::size_t index = 0;  // its place among the query's leaves
    };
    std::vector<Leaf> all;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      Leaf leaf;
      leaf.index = i;
      const auto id = ids.find(leaves[i]->terms[0]);
      static const std::vector<Posting> kNone;
      leaf.list = id == ids.end() ? &kNone : &postings[id->second];
      const double holding = static_cast<double>(leaf.list->size());
      const double raw_idf = std::log((n - holding + 0.5) / (holding + 0.5));
      leaf.idf = raw_idf > 0 ? raw_idf : 1e-6;
      if (id != ids.end()) {
        for (const BlockBound& b : bounds[id->second]) {
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
    Best best(limit);
    std::vector<double> added(leaves.size(), 0);
    std::size_t essential = 0;  // all[essential..] find candidates
    while (true) {
      if (const std::optional<double> floor = best.threshold()) {
        while (essential < all.size() && slack(below[essential + 1]) < *floor) ++essential;
      }
      if (essential == all.size()) break;
      std::uint32_t document = std::numeric_limits<std::uint32_t>::max();
      for (std::size_t i = essential; i < all.size(); ++i) {
        if (all[i].at < all[i].list->size()) {
          document = std::min(document, (*all[i].list)[all[i].at].document);
        }
      }
      if (document == std::numeric_limits<std::uint32_t>::max()) break;
      std::fill(added.begin(), added.end(), 0.0);
      double sum = 0;
      for (std::size_t i = essential; i < all.size(); ++i) {
        Leaf& leaf = all[i];
        if (leaf.at < leaf.list->size() && (*leaf.list)[leaf.at].document == document) {
          added[leaf.index] = term_score(leaf.idf, (*leaf.list)[leaf.at].count, lengths[document],
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
        const auto next = std::lower_bound(
            leaf.list->begin() + static_cast<std::ptrdiff_t>(leaf.at), leaf.list->end(), document,
            [](const Posting& p, std::uint32_t d) { return p.document < d; });
        leaf.at = static_cast<std::size_t>(next - leaf.list->begin());
        if (next != leaf.list->end() && next->document == document) {
          added[leaf.index] = term_score(leaf.idf, next->count, lengths[document], average);
          sum += added[leaf.index];
        }
      }
      if (out) continue;
      double score = 0;
      for (const double a : added) score += a;  // in leaf order, as the general path adds
      best.offer({document, score});
    }
    return std::move(best).sorted();
  }

  // The best `limit` documents holding every one of the terms: the shortest list leads and the
  // others are searched forward for each of its documents (no list is copied), each match scored
  // with its contributions added in leaf order, as the general path adds them.
  std::vector<Hit> top_of_all(const std::vector<const Node*>& leaves, std::size_t limit) const {
    const auto n = static_cast<double>(lengths.size());
    const double average = static_cast<double>(total_terms) / n;
    std::vector<const std::vector<Posting>*> lists;
    std::vector<double> idf;
    for (const Node* leaf : leaves) {
      const auto id = ids.find(leaf->terms[0]);
      if (id == ids.end()) return {};
      lists.push_back(&postings[id->second]);
      const double holding = static_cast<double>(lists.back()->size());
      const double raw_idf = std::log((n - holding + 0.5) / (holding + 0.5));
      idf.push_back(raw_idf > 0 ? raw_idf : 1e-6);
    }
    std::size_t lead = 0;
    for (std::size_t i = 1; i < lists.size(); ++i) {
      if (lists[i]->size() < lists[lead]->size()) lead = i;
    }
    std::vector<std::size_t> at(lists.size(), 0);
    std::vector<std::uint32_t> tf(lists.size(), 0);
    Best best(limit);
    for (const Posting& p : *lists[lead]) {
      bool all = true;
      for (std::size_t i = 0; i < lists.size() && all; ++i) {
        const auto next = std::lower_bound(
            lists[i]->begin() + static_cast<std::ptrdiff_t>(at[i]), lists[i]->end(), p.document,
            [](const Posting& q, std::uint32_t d) { return q.document < d; });
        at[i] = static_cast<std::size_t>(next - lists[i]->begin());
        all = next != lists[i]->end() && next->document == p.document;
        if (all) tf[i] = next->count;
      }
      if (!all) continue;
      double score = 0;
      for (std::size_t i = 0; i < lists.size(); ++i) {
        score += term_score(idf[i], tf[i], lengths[p.document], average);
      }
      best.offer({p.document, score});
    }
    return std::move(best).sorted();
  }

  bool passes(std::uint32_t document, const std::vector<Filter>& filters) const {
    for (const Filter& f : filters) {
      const Facets& mine = facets[document];
      const auto it = std::find_if(mine.begin(), mine.end(),
                                   [&](const auto& facet) { return facet.first == f.facet; });
      if (it == mine.end()) return false;
      const std::string& value = it->second;
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

}  // namespace

Index::Index() : data_(std::make_unique<Data>()) {}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

std::size_t Index::add(std::string_view text, Facets facets) {
  Data& d = *data_;
  const auto document = static_cast<std::uint32_t>(d.lengths.size());
  const std::vector<Term> terms = analyze(text);
  d.scratch.clear();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    auto it = d.ids.find(std::string_view(terms[i].text));
    if (it == d.ids.end()) {
      const auto id = static_cast<std::uint32_t>(d.postings.size());
      it = d.ids.emplace(terms[i].text, id).first;
      d.ordered.emplace(d.names.emplace_back(terms[i].text), id);
      d.postings.emplace_back();
      d.bounds.emplace_back();
    }
    d.scratch.emplace_back(it->second, static_cast<std::uint32_t>(i));
  }
  std::sort(d.scratch.begin(), d.scratch.end());  // by term, then position
  for (std::size_t i = 0; i < d.scratch.size();) {
    std::size_t end = i;
    while (end < d.scratch.size() && d.scratch[end].first == d.scratch[i].first) ++end;
    std::vector<Posting>& list = d.postings[d.scratch[i].first];
    const auto count = static_cast<std::uint32_t>(end - i);
    const auto length = static_cast<std::uint32_t>(terms.size());
    std::vector<BlockBound>& bounds = d.bounds[d.scratch[i].first];
    if (list.size() % kBlock == 0) {
      bounds.push_back({count, length});
    } else {
      bounds.back().most = std::max(bounds.back().most, count);
      bounds.back().shortest = std::min(bounds.back().shortest, length);
    }
    list.push_back({document, static_cast<std::uint32_t>(d.positions.size()), count});
    for (std::size_t k = i; k < end; ++k) d.positions.push_back(d.scratch[k].second);
    i = end;
  }
  d.lengths.push_back(static_cast<std::uint32_t>(terms.size()));
  d.facets.push_back(std::move(facets));
  d.total_terms += terms.size();
  return document;
}

std::size_t Index::size() const noexcept { return data_->lengths.size(); }

std::size_t Index::count(const Query& query) const {
  if (query.root() == nullptr) {
    std::size_t n = 0;
    for (std::uint32_t d = 0; d < data_->lengths.size(); ++d) n += data_->passes(d, query.filters()) ? 1 : 0;
    return n;
  }
  const Documents found = data_->matches(*query.root());
  return static_cast<std::size_t>(std::count_if(found.begin(), found.end(), [&](std::uint32_t d) {
    return data_->passes(d, query.filters());
  }));
}

std::vector<Hit> Index::search(const Query& query, std::size_t limit) const {
  std::vector<Hit> hits;
  const std::size_t n = data_->lengths.size();
  if (n == 0 || limit == 0) return hits;
  if (query.root() == nullptr) {  // filters only: every passing document, in order, unscored
    for (std::uint32_t d = 0; d < n && hits.size() < limit; ++d) {
      if (data_->passes(d, query.filters())) hits.push_back({d, 0.0});
    }
    return hits;
  }
  if (query.root()->kind == Node::Kind::term && query.filters().empty()) {
    return data_->top_of_term(query.root()->terms[0], limit);
  }
  std::vector<const Node*> leaves;
  scoring_leaves(*query.root(), leaves);
  if (query.root()->kind == Node::Kind::any_of && query.filters().empty() &&
      std::all_of(query.root()->children.begin(), query.root()->children.end(),
                  [](const Node& child) { return child.kind == Node::Kind::term; })) {
    return data_->top_of_any(leaves, limit);
  }
  if (query.root()->kind == Node::Kind::all_of && query.filters().empty() &&
      std::all_of(query.root()->children.begin(), query.root()->children.end(),
                  [](const Node& child) { return child.kind == Node::Kind::term; })) {
    return data_->top_of_all(leaves, limit);
  }
  std::vector<Frequencies> frequencies;
  frequencies.reserve(leaves.size());  // Known points into it
  std::vector<double> idf;
  Data::Known known;
  for (const Node* leaf : leaves) {
    frequencies.push_back(data_->frequencies(*leaf));
    known.emplace_back(leaf, &frequencies.back());
    const double holding = static_cast<double>(frequencies.back().size());
    const double value = std::log((static_cast<double>(n) - holding + 0.5) / (holding + 0.5));
    idf.push_back(value > 0 ? value : 1e-6);  // FTS5's floor for a term in most documents
  }
  const Documents found = data_->matches(*query.root(), known);
  Best best(limit);  // not every match sorted
  const double average = static_cast<double>(data_->total_terms) / static_cast<double>(n);
  std::vector<std::size_t> cursor(leaves.size(), 0);  // `found` is sorted: each leaf only advances
  for (const std::uint32_t d : found) {
    if (!data_->passes(d, query.filters())) continue;
    const double length = average > 0 ? static_cast<double>(data_->lengths[d]) / average : 0;
    const double norm = kK1 * (1 - kB + kB * length);
    double score = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const Frequencies& f = frequencies[i];
      while (cursor[i] < f.size() && f[cursor[i]].first < d) ++cursor[i];
      if (cursor[i] == f.size() || f[cursor[i]].first != d) continue;
      const double tf = f[cursor[i]].second;
      score += idf[i] * tf * (kK1 + 1) / (tf + norm);
    }
    best.offer({d, score});
  }
  return std::move(best).sorted();
}

std::string snippet(std::string_view text, const Query& query, std::size_t max_terms) {
  const std::vector<Term> terms = analyze(text);
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
