// Splitting a text into words (spec memorybox.md §4) with buffers kept from one text to the next,
// so that indexing a million entries allocates per entry at most, never per word.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace memkit::similarity::detail {

class WordSplitter final {
 public:
  // Returns the words of `text`: views into this splitter's case-folded copy of it, valid until
  // the next call.
  [[nodiscard]] std::span<const std::string_view> split(std::string_view text);

 private:
  std::string folded_;
  std::vector<std::string_view> words_;
};

}  // namespace memkit::similarity::detail
