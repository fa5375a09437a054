// Search's text analysis (memkit/search.hpp): FTS5 unicode61 with remove_diacritics 2, on the
// tables scripts/gen_search_table.py writes from Unicode 15.0.0 and the case folding of src/text.
#include <algorithm>
#include <iterator>

#include "memkit/search.hpp"
#include "memkit/text.hpp"
#include "text/utf8_decode.hpp"

namespace memkit::search {
namespace {

struct CodeRange {
  char32_t first;
  char32_t last;
};
struct CodeFold {
  char32_t from;
  char32_t to;
};

#include "search/analysis_table.inc"

template <std::size_t N>
bool in_ranges(const CodeRange (&ranges)[N], char32_t cp) noexcept {
  const CodeRange* after = std::upper_bound(
      std::begin(ranges), std::end(ranges), cp,
      [](char32_t value, const CodeRange& range) { return value < range.first; });
  return after != std::begin(ranges) && cp <= std::prev(after)->last;
}

bool is_term_char(char32_t cp) noexcept {
  if (cp < 0x80) return (cp >= U'0' && cp <= U'9') || ((cp | 0x20U) >= U'a' && (cp | 0x20U) <= U'z');
  return in_ranges(kTermRanges, cp);
}

bool is_mark(char32_t cp) noexcept { return cp >= 0x300 && in_ranges(kMarkRanges, cp); }

char32_t base_letter(char32_t cp) noexcept {
  if (cp < 0xC0) return cp;
  const CodeFold* found = std::lower_bound(
      std::begin(kDiacriticFolds), std::end(kDiacriticFolds), cp,
      [](const CodeFold& fold, char32_t value) { return fold.from < value; });
  return found != std::end(kDiacriticFolds) && found->from == cp ? found->to : cp;
}

void append_utf8(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The analysed form of one run of term characters (and marks): folded, then each code point read
// as its base letter, marks (including those folding made, as in U+0130) dropped.
std::string fold_term(std::string_view raw) {
  const std::string folded = casefold(raw);
  std::string out;
  out.reserve(folded.size());
  const unsigned char* p = detail::byte_data(folded);
  for (std::size_t at = 0; at < folded.size();) {
    const detail::DecodedChar c = detail::decode_char(p + at, folded.size() - at);
    at += c.size;
    if (is_mark(c.cp)) continue;
    append_utf8(base_letter(c.cp), out);
  }
  return out;
}

}  // namespace

void analyze(std::string_view text, std::vector<Term>& out, const Stemmer* stemmer) {
  const std::size_t first = out.size();
  const unsigned char* p = detail::byte_data(text);
  std::size_t start = 0;
  bool in_term = false;
  bool plain = true;  // the run so far is lower-case ASCII letters and digits: no folding needed
  auto close = [&](std::size_t end) {
    if (!in_term) return;
    const std::string_view raw = text.substr(start, end - start);
    Term term{plain ? std::string(raw) : fold_term(raw), static_cast<std::uint32_t>(start),
              static_cast<std::uint32_t>(end)};
    if (!term.text.empty()) out.push_back(std::move(term));
    in_term = false;
  };
  for (std::size_t at = 0; at < text.size();) {
    const detail::DecodedChar c = detail::decode_char(p + at, text.size() - at);
    const bool mark = c.valid && is_mark(c.cp);
    if (c.valid && (is_term_char(c.cp) || (mark && in_term))) {
      if (!in_term) {
        start = at;
        in_term = true;
        plain = true;
      }
      plain = plain && ((c.cp >= U'a' && c.cp <= U'z') || (c.cp >= U'0' && c.cp <= U'9'));
    } else if (!mark) {
      close(at);
    }
    at += c.size;
  }
  close(text.size());
  if (stemmer != nullptr) {
    for (std::size_t i = first; i < out.size(); ++i) stemmer->stem(out[i].text);
  }
}

std::vector<Term> analyze(std::string_view text, const Stemmer* stemmer) {
  std::vector<Term> out;
  analyze(text, out, stemmer);
  return out;
}

}  // namespace memkit::search
