// The query language of memkit/search.hpp: a lexer into words, quotes, parentheses and operators,
// and a recursive-descent parser (OR of ANDs of possibly negated primaries) that analyses words
// as documents are analysed.
#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

#include "memkit/clock.hpp"
#include "memkit/search.hpp"

namespace memkit::search {
namespace {

using Node = Query::Node;

struct Token {
  enum class Kind : std::uint8_t { word, quoted, open, close, op_and, op_or, op_not, end };
  Kind kind = Kind::end;
  std::string_view text;  // a word or the inside of a quote
  std::size_t at = 0;     // its first byte in the query
};

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

Status error_at(std::size_t at, const std::string& what) {
  return Status(Errc::invalid_argument, "query: at byte " + std::to_string(at) + ": " + what);
}

Result<std::vector<Token>> lex(std::string_view text) {
  std::vector<Token> tokens;
  for (std::size_t at = 0; at < text.size();) {
    const char c = text[at];
    if (is_space(c)) {
      ++at;
    } else if (c == '(' || c == ')') {
      tokens.push_back({c == '(' ? Token::Kind::open : Token::Kind::close, text.substr(at, 1), at});
      ++at;
    } else if (c == '"') {
      const std::size_t close = text.find('"', at + 1);
      if (close == std::string_view::npos) return error_at(at, "this quote is never closed");
      tokens.push_back({Token::Kind::quoted, text.substr(at + 1, close - at - 1), at});
      at = close + 1;
    } else {
      std::size_t end = at;
      while (end < text.size() && !is_space(text[end]) && text[end] != '(' && text[end] != ')' &&
             text[end] != '"') {
        ++end;
      }
      const std::string_view word = text.substr(at, end - at);
      Token::Kind kind = Token::Kind::word;
      if (word == "AND") kind = Token::Kind::op_and;
      if (word == "OR") kind = Token::Kind::op_or;
      if (word == "NOT") kind = Token::Kind::op_not;
      tokens.push_back({kind, word, at});
      at = end;
    }
  }
  tokens.push_back({Token::Kind::end, {}, text.size()});
  return tokens;
}

bool valid_date(std::string_view text) {
  return text.size() == 10 && parse_iso_date(text).has_value();
}

bool valid_confidence(std::string_view text) {
  if (text.empty() || text.size() > 8 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); })) {
    return false;
  }
  double value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && value >= 0 && value <= 1;
}

// A filter word (`tier:2`), or nullopt when the word is no filter (a colon inside a term such as
// "12:30" or a URL). An identifier before the colon that names no filter is an error.
Result<std::optional<Filter>> filter_of(const Token& token) {
  const std::size_t colon = token.text.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::optional<Filter>();
  const std::string_view name = token.text.substr(0, colon);
  const std::string_view value = token.text.substr(colon + 1);
  if (!std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; })) {
    return std::optional<Filter>();
  }
  if (value.empty() || value.starts_with("//")) {
    if (value.starts_with("//")) return std::optional<Filter>();  // a URL: text
    return error_at(token.at, "the filter " + std::string(name) + ": has no value");
  }
  Filter f;
  f.value = std::string(value);
  const std::size_t value_at = token.at + colon + 1;
  if (name == "layout") {
    constexpr std::array<std::string_view, 4> kLayouts = {"custodian", "memorybox", "tiers", "curated"};
    if (std::find(kLayouts.begin(), kLayouts.end(), value) == kLayouts.end()) {
      return error_at(value_at, "layout: takes custodian, memorybox, tiers or curated, not '" +
                                    std::string(value) + "'");
    }
    f.facet = "layout";
  } else if (name == "file") {
    f.facet = "file";
  } else if (name == "tier") {
    // MemoryBox's tiers 1 to 5; the three tiers' L1, L2, L3 and their CSV data.
    constexpr std::array<std::string_view, 9> kTiers = {"1",  "2",  "3",  "4",   "5",
                                                        "L1", "L2", "L3", "data"};
    if (std::find(kTiers.begin(), kTiers.end(), value) == kTiers.end()) {
      return error_at(value_at, "tier: takes 1 to 5, L1, L2, L3 or data, not '" +
                                    std::string(value) + "'");
    }
    f.facet = "tier";
  } else if (name == "class" || name == "status" || name == "type") {
    f.facet = std::string(name);
  } else if (name == "since" || name == "until") {
    if (!valid_date(value)) {
      return error_at(value_at, std::string(name) + ": takes a date YYYY-MM-DD, not '" +
                                    std::string(value) + "'");
    }
    f.facet = "date";
    f.kind = name == "since" ? Filter::Kind::since : Filter::Kind::until;
  } else if (name == "min-confidence") {
    if (!valid_confidence(value)) {
      return error_at(value_at, "min-confidence: takes a number from 0 to 1, not '" +
                                    std::string(value) + "'");
    }
    f.facet = "confidence";
    f.kind = Filter::Kind::at_least;
  } else {
    return error_at(token.at, "unknown filter '" + std::string(name) +
                                  ":' (filters: layout, file, tier, class, status, type, since, "
                                  "until, min-confidence)");
  }
  return std::optional<Filter>(std::move(f));
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::vector<Filter>& filters, const Stemmer* stemmer)
      : tokens_(std::move(tokens)), filters_(filters), stemmer_(stemmer) {}

  Result<std::optional<Node>> query() {
    Result<std::optional<Node>> node = any_of(0);
    if (!node) return node;
    if (peek().kind != Token::Kind::end) {
      return error_at(peek().at, peek().kind == Token::Kind::close
                                     ? "this parenthesis closes nothing"
                                     : "unexpected '" + std::string(peek().text) + "'");
    }
    return node;
  }

 private:
  const Token& peek() const { return tokens_[next_]; }
  const Token& take() { return tokens_[next_++]; }

  static bool starts_primary(const Token& t) {
    return t.kind == Token::Kind::word || t.kind == Token::Kind::quoted ||
           t.kind == Token::Kind::open || t.kind == Token::Kind::op_not;
  }

  Result<std::optional<Node>> any_of(std::size_t depth) {
    std::vector<Node> parts;
    for (;;) {
      const std::size_t at = peek().at;
      Result<std::optional<Node>> part = all_of(depth);
      if (!part) return part;
      if (part->has_value()) {
        if ((*part)->kind == Node::Kind::none_of) {
          return error_at(at, "NOT needs something to subtract from (write a NOT b)");
        }
        parts.push_back(std::move(**part));
      }
      if (peek().kind != Token::Kind::op_or) break;
      const Token& op = take();
      if (!starts_primary(peek())) return error_at(op.at, "OR needs a term after it");
      if (!part->has_value() && parts.empty()) return error_at(op.at, "OR needs a term before it");
    }
    if (parts.empty()) return std::optional<Node>();
    if (parts.size() == 1) return std::optional<Node>(std::move(parts[0]));
    Node node;
    node.kind = Node::Kind::any_of;
    node.children = std::move(parts);
    return std::optional<Node>(std::move(node));
  }

  Result<std::optional<Node>> all_of(std::size_t depth) {
    std::vector<Node> parts;
    bool positive = false;
    std::size_t first_not = std::string_view::npos;
    for (;;) {
      if (peek().kind == Token::Kind::op_and) {
        const Token& op = take();
        if (parts.empty() && filters_.empty()) return error_at(op.at, "AND needs a term before it");
        if (!starts_primary(peek())) return error_at(op.at, "AND needs a term after it");
        continue;
      }
      if (!starts_primary(peek())) break;
      const std::size_t at = peek().at;
      Result<std::optional<Node>> part = unary(depth);
      if (!part) return part;
      if (!part->has_value()) continue;  // a filter, or a word without terms
      if ((*part)->kind == Node::Kind::none_of) {
        if (first_not == std::string_view::npos) first_not = at;
      } else {
        positive = true;
      }
      parts.push_back(std::move(**part));
    }
    if (parts.empty()) {
      if (peek().kind == Token::Kind::op_or && filters_.empty()) {
        return error_at(peek().at, "OR needs a term before it");
      }
      return std::optional<Node>();
    }
    if (!positive) return error_at(first_not, "NOT needs something to subtract from (write a NOT b)");
    if (parts.size() == 1) return std::optional<Node>(std::move(parts[0]));
    Node node;
    node.kind = Node::Kind::all_of;
    node.children = std::move(parts);
    return std::optional<Node>(std::move(node));
  }

  Result<std::optional<Node>> unary(std::size_t depth) {
    if (depth >= kMaxQueryDepth) return error_at(peek().at, "nested too deeply");
    if (peek().kind == Token::Kind::op_not) {
      const Token& op = take();
      if (!starts_primary(peek()) || peek().kind == Token::Kind::op_not) {
        return error_at(op.at, "NOT needs a term after it");
      }
      Result<std::optional<Node>> operand = unary(depth + 1);
      if (!operand) return operand;
      if (!operand->has_value()) return error_at(op.at, "NOT needs a term after it");
      Node node;
      node.kind = Node::Kind::none_of;
      node.children.push_back(std::move(**operand));
      return std::optional<Node>(std::move(node));
    }
    const Token& token = take();
    if (token.kind == Token::Kind::open) {
      Result<std::optional<Node>> inner = any_of(depth + 1);
      if (!inner) return inner;
      if (peek().kind != Token::Kind::close) return error_at(token.at, "this parenthesis is never closed");
      take();
      if (!inner->has_value()) return error_at(token.at, "these parentheses hold no term");
      return inner;
    }
    if (token.kind == Token::Kind::word) {
      Result<std::optional<Filter>> filter = filter_of(token);
      if (!filter) return filter.status();
      if (filter->has_value()) {
        filters_.push_back(std::move(**filter));
        return std::optional<Node>();
      }
    }
    return leaf(token);
  }

  // A word or a quoted phrase as a node: its analysed terms; a word ending in `*` is a prefix.
  Result<std::optional<Node>> leaf(const Token& token) {
    std::string_view text = token.text;
    const bool prefix = token.kind == Token::Kind::word && text.ends_with('*');
    if (prefix) text.remove_suffix(1);
    if (prefix && text.find('*') != std::string_view::npos) {
      return error_at(token.at, "only a word's end may be '*'");
    }
    std::vector<Term> terms = analyze(text);
    if (stemmer_ != nullptr) {  // as documents are, but a prefix as written
      for (std::size_t i = 0; i < terms.size() && !(prefix && i + 1 == terms.size()); ++i) {
        stemmer_->stem(terms[i].text);
      }
    }
    if (terms.empty()) {
      if (token.kind == Token::Kind::quoted) return error_at(token.at, "this phrase has no terms");
      if (prefix) return error_at(token.at, "a prefix needs at least one letter or digit");
      return std::optional<Node>();  // punctuation alone: nothing to find
    }
    term_count_ += terms.size();
    if (term_count_ > kMaxQueryTerms) {
      return error_at(token.at, "more than " + std::to_string(kMaxQueryTerms) + " terms");
    }
    Node node;
    node.kind = prefix ? Node::Kind::prefix
                       : terms.size() == 1 ? Node::Kind::term : Node::Kind::phrase;
    for (Term& t : terms) node.terms.push_back(std::move(t.text));
    return std::optional<Node>(std::move(node));
  }

  std::vector<Token> tokens_;
  std::vector<Filter>& filters_;
  const Stemmer* stemmer_;
  std::size_t next_ = 0;
  std::size_t term_count_ = 0;
};

void describe_node(const Node& node, std::string& out) {
  auto joined = [&] {
    std::string words;
    for (const std::string& t : node.terms) words += (words.empty() ? "" : " ") + t;
    return words;
  };
  switch (node.kind) {
    case Node::Kind::term:
      out += node.terms[0];
      return;
    case Node::Kind::prefix:
      out += (node.terms.size() > 1 ? "\"" + joined() + "*\"" : node.terms[0] + "*");
      return;
    case Node::Kind::phrase:
      out += "\"" + joined() + "\"";
      return;
    case Node::Kind::all_of:
    case Node::Kind::any_of:
    case Node::Kind::none_of:
      out += node.kind == Node::Kind::all_of ? "(AND" : node.kind == Node::Kind::any_of ? "(OR" : "(NOT";
      for (const Node& child : node.children) {
        out += ' ';
        describe_node(child, out);
      }
      out += ')';
      return;
  }
}

}  // namespace

Query::Query() = default;
Query::Query(Query&&) noexcept = default;
Query& Query::operator=(Query&&) noexcept = default;
Query::~Query() = default;

std::string Query::describe() const {
  std::string out;
  if (root_) describe_node(*root_, out);
  for (const Filter& f : filters_) {
    constexpr std::array<std::string_view, 4> kKinds = {"=", ">=", "<=", ">="};
    out += (out.empty() ? "" : " ") + f.facet + std::string(kKinds[static_cast<std::size_t>(f.kind)]) + f.value;
  }
  return out;
}

Result<Query> parse_query(std::string_view text, const Stemmer* stemmer) {
  if (text.size() > kMaxQueryBytes) {
    return Status(Errc::invalid_argument, "query: longer than " +
                                              std::to_string(kMaxQueryBytes) + " bytes");
  }
  Result<std::vector<Token>> tokens = lex(text);
  if (!tokens) return tokens.status();
  Query query;
  Parser parser(std::move(tokens).value(), query.filters_, stemmer);
  Result<std::optional<Node>> root = parser.query();
  if (!root) return root.status();
  if (root->has_value()) query.root_ = std::make_unique<Node>(std::move(**root));
  if (!query.root_ && query.filters_.empty()) {
    return Status(Errc::invalid_argument, "query: nothing to search for (no term and no filter)");
  }
  return query;
}

}  // namespace memkit::search
