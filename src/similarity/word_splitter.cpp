// Words are found in the case-folded text (spec memorybox.md §4 folds first), which is always
// well-formed UTF-8: casefold turns each ill-formed sequence into U+FFFD, a separator.
#include "similarity/word_splitter.hpp"

#include <cstddef>

#include "memkit/similarity.hpp"
#include "memkit/text.hpp"
#include "similarity/word_chars.hpp"
#include "text/utf8_decode.hpp"

namespace memkit::similarity {
namespace detail {

std::span<const std::string_view> WordSplitter::split(std::string_view text) {
  folded_.clear();
  casefold_append(text, folded_);
  words_.clear();
  const auto* p = reinterpret_cast<const unsigned char*>(folded_.data());
  const std::size_t n = folded_.size();
  std::size_t start = 0;
  bool in_word = false;
  std::size_t i = 0;
  while (i < n) {
    bool is_word;
    std::size_t size = 1;
    if (p[i] < 0x80U) {
      is_word = is_ascii_word_byte(p[i]);
    } else {
      const memkit::detail::DecodedChar c = memkit::detail::decode_char(p + i, n - i);
      is_word = c.valid && is_word_code_point(c.cp);
      size = c.size;
    }
    if (is_word != in_word) {
      if (is_word) {
        start = i;
      } else {
        words_.emplace_back(folded_.data() + start, i - start);
      }
      in_word = is_word;
    }
    i += size;
  }
  if (in_word) words_.emplace_back(folded_.data() + start, n - start);
  return words_;
}

}  // namespace detail

std::vector<std::string> words(std::string_view text) {
  detail::WordSplitter splitter;
  const std::span<const std::string_view> found = splitter.split(text);
  return {found.begin(), found.end()};
}

}  // namespace memkit::similarity
