// Full-text search over curated rows (curated.md §8 "search"): one tokenizer for the query and the
// row text alike, whole-token matching (a prefix term matches a token's start), and a rank that
// is plain arithmetic on matched tokens, so the order is predictable and never reads a counter.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memkit/curated.hpp"
#include "memkit/curated/read.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

constexpr std::size_t kSnippetCodePoints = 120;

bool is_ascii_word(char32_t cp) noexcept {
  return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') ||
         cp == '_';
}

// ASCII punctuation: the 32 printable ASCII characters that are neither letters, digits nor the
// space ('_' among them, though a word run claims it first).
bool is_ascii_punctuation(char32_t cp) noexcept {
  return (cp >= 0x21 && cp <= 0x2F) || (cp >= 0x3A && cp <= 0x40) || (cp >= 0x5B && cp <= 0x60) ||
         (cp >= 0x7B && cp <= 0x7E);
}

// One token and where it ends in the text, so the query can look at the byte after it.
struct Token {
  std::string text;  // case-folded
  std::size_t end = 0;
};

// The §8 tokenizer. Tokens are cut first and folded after, so a code point whose folding is ASCII
// (U+212A KELVIN SIGN) stays a token of its own rather than joining a neighbouring word run.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t begin = pos;
    const char32_t cp = decode_utf8(text, pos);
    if (is_ascii_word(cp)) {
      while (pos < text.size() && is_ascii_word(static_cast<unsigned char>(text[pos]))) ++pos;
    } else if (is_w(cp) || is_ascii_punctuation(cp)) {
      continue;
    }
    tokens.push_back(Token{.text = casefold(text.substr(begin, pos - begin)), .end = pos});
  }
  return tokens;
}

bool matches(const SearchTerm& term, std::string_view token) noexcept {
  return term.prefix ? token.starts_with(term.token) : token == term.token;
}

bool any_term_matches(const std::vector<SearchTerm>& terms, std::string_view token) noexcept {
  return std::ranges::any_of(terms, [&](const SearchTerm& term) { return matches(term, token); });
}

// Calls `visit(token)` for each §8 token of `text`, case-folded, in order, until it returns false;
// returns false iff it stopped. Exactly the tokens of tokenize(), without allocating per token: a
// token is a view into `text` when folding changes nothing (an ASCII run without capitals), else
// into `scratch`, and lives until the next token.
template <class Visit>
bool for_each_token(std::string_view text, std::string& scratch, Visit visit) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t begin = pos;
    const char32_t cp = decode_utf8(text, pos);
    std::string_view token;
    if (is_ascii_word(cp)) {
      bool capitals = cp >= 'A' && cp <= 'Z';
      while (pos < text.size() && is_ascii_word(static_cast<unsigned char>(text[pos]))) {
        capitals = capitals || (text[pos] >= 'A' && text[pos] <= 'Z');
        ++pos;
      }
      token = text.substr(begin, pos - begin);
      if (capitals) {
        // casefold() of ASCII lower-cases A-Z and keeps every other byte.
        scratch.assign(token);
        for (char& c : scratch) {
          if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
        }
        token = scratch;
      }
    } else if (is_w(cp) || is_ascii_punctuation(cp)) {
      continue;
    } else {
      scratch.clear();
      casefold_append(text.substr(begin, pos - begin), scratch);
      token = scratch;
    }
    if (!visit(token)) return false;
  }
  return true;
}

bool holds_match(const std::vector<SearchTerm>& terms, std::string_view text) {
  std::string scratch;
  return !for_each_token(text, scratch,
                         [&](std::string_view token) { return !any_term_matches(terms, token); });
}

// §8 snippet: the first body line holding a matched token, else the description if it holds
// one, else the name. A line is stripped with W first: indentation and a CRLF file's CR say
// nothing about the match, and would spend the 120 code points on blanks.
std::string snippet_of(const Row& row, const std::vector<SearchTerm>& terms) {
  std::string_view body = row.body;
  while (true) {
    const std::size_t lf = body.find('\n');
    const std::string_view line = strip_w(body.substr(0, lf));
    if (holds_match(terms, line)) return std::string(first_code_points(line, kSnippetCodePoints));
    if (lf == std::string_view::npos) break;
    body.remove_prefix(lf + 1);
  }
  if (row.description && holds_match(terms, *row.description)) {
    return std::string(first_code_points(strip_w(*row.description), kSnippetCodePoints));
  }
  return std::string(first_code_points(row.name, kSnippetCodePoints));
}

}  // namespace

std::uint64_t search_rank(const std::vector<SearchTerm>& terms,
                          const std::vector<std::string_view>& texts) {
  std::vector<std::uint64_t> per_term(terms.size(), 0);
  std::string scratch;
  for (const std::string_view text : texts) {
    for_each_token(text, scratch, [&](std::string_view token) {
      for (std::size_t i = 0; i < terms.size(); ++i) {
        if (matches(terms[i], token)) ++per_term[i];
      }
      return true;
    });
  }
  std::uint64_t rank = 0;
  for (const std::uint64_t n : per_term) {
    if (n == 0) return 0;
    rank += n;
  }
  return rank;
}

std::vector<std::string> search_tokens(std::string_view text) {
  std::vector<std::string> out;
  std::string scratch;
  for_each_token(text, scratch, [&](std::string_view token) {
    out.emplace_back(token);
    return true;
  });
  return out;
}

std::vector<SearchTerm> parse_query(std::string_view query) {
  std::vector<SearchTerm> terms;
  for (Token& token : tokenize(query)) {
    const bool prefix = token.end < query.size() && query[token.end] == '*';
    terms.push_back(SearchTerm{.token = std::move(token.text), .prefix = prefix});
  }
  return terms;
}

std::vector<SearchHit> search(const std::vector<Row>& rows, std::string_view query,
                              std::uint64_t limit) {
  const std::vector<SearchTerm> terms = parse_query(query);
  std::vector<SearchHit> hits;
  if (terms.empty()) return hits;
  for (const Row& row : rows) {
    if (row.deleted) continue;
    // Name, description and body tokens are all "the row's tokens": each counts once toward every
    // term it matches.
    const std::uint64_t rank = search_rank(
        terms, {row.name, row.description ? std::string_view(*row.description) : "", row.body});
    if (rank == 0) continue;
    hits.push_back(SearchHit{.row = &row, .rank = rank, .snippet = snippet_of(row, terms)});
  }
  // Updated is RFC 3339 UTC with milliseconds, so string order is time order; a row without one
  // sorts as the oldest.
  std::ranges::sort(hits, [](const SearchHit& a, const SearchHit& b) {
    if (a.rank != b.rank) return a.rank > b.rank;
    if (a.row->updated != b.row->updated) return a.row->updated > b.row->updated;
    return a.row->name < b.row->name;
  });
  if (hits.size() > limit) hits.resize(limit);
  return hits;
}

}  // namespace memkit::curated
