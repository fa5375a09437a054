// A generated custodian memory for `memkit bench recall --synthetic` (memkit/bench.hpp): short
// bullet entries from a Zipf-like vocabulary of made-up words, a file at a time.
#include <algorithm>
#include <cstddef>
#include <string_view>

#include "memkit/bench.hpp"

namespace memkit::bench {
namespace {

constexpr std::size_t kSyntheticVocabulary = 50'000;
constexpr std::string_view kSyntheticConsonants = "bdfgklmnprstvz";
constexpr std::string_view kSyntheticVowels = "aeiou";

// The word of a rank: its digits in base 70 (at least two), each a consonant and a vowel, so every
// rank has its own word of letters only (one search term), and the frequent ranks the short ones.
void append_synthetic_word(std::size_t rank, std::string& out) {
  const std::size_t base = kSyntheticConsonants.size() * kSyntheticVowels.size();
  for (int digits = 0; digits < 2 || rank > 0; ++digits) {
    const std::size_t digit = rank % base;
    out.push_back(kSyntheticConsonants[digit / kSyntheticVowels.size()]);
    out.push_back(kSyntheticVowels[digit % kSyntheticVowels.size()]);
    rank /= base;
  }
}

// Decimal `value`, zero-padded to `width` digits.
std::string synthetic_number(std::uint64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

}  // namespace

SyntheticStore::SyntheticStore(std::uint64_t entries, std::uint64_t seed)
    : entries_(entries), seed_(seed) {
  cumulative_.reserve(kSyntheticVocabulary);
  double total = 0;
  for (std::size_t rank = 0; rank < kSyntheticVocabulary; ++rank) {
    total += 1.0 / static_cast<double>(rank + 1);
    cumulative_.push_back(total);
  }
}

std::uint64_t SyntheticStore::files() const noexcept {
  return 2 + (entries_ + kSyntheticEntriesPerFile - 1) / kSyntheticEntriesPerFile;
}

SyntheticFile SyntheticStore::file(std::uint64_t index) const {
  SyntheticFile out;
  if (index == 0) {
    out.path = "brief.md";
    out.bytes = "# Brief\n\n- A generated memory of " + std::to_string(entries_) +
                " entries for memkit bench recall.\n";
    return out;
  }
  if (index == 1) {
    out.path = "manifest.md";
    out.bytes = "# Memory Manifest\n\n## Always load\n\n- brief.md\n";
    return out;
  }
  const std::uint64_t n = index - 2;
  // Wide enough for every file's number, so that path order is the order of the files.
  const std::size_t width = std::max<std::size_t>(5, std::to_string(files() - 3).size());
  out.path = "notes-" + synthetic_number(n, width) + ".md";
  const std::uint64_t first = n * kSyntheticEntriesPerFile;
  out.entries = first >= entries_ ? 0 : std::min(kSyntheticEntriesPerFile, entries_ - first);
  // Each file from its own stream: any file is made alone, in any order.
  SplitMix64 random(seed_ ^ ((n + 1) * 0xD1B54A32D192ED03ULL));
  const double total = cumulative_.back();
  out.bytes = "# Notes " + synthetic_number(n, width) + "\n\n";
  out.bytes.reserve(out.entries * 112 + 32);
  for (std::uint64_t e = 0; e < out.entries; ++e) {
    out.bytes += "- ";
    const std::uint64_t words = random.between(12, 20);
    for (std::uint64_t w = 0; w < words; ++w) {
      if (w > 0) out.bytes.push_back(' ');
      const double u = static_cast<double>(random.next() >> 11) * 0x1.0p-53 * total;
      const auto rank = static_cast<std::size_t>(
          std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
      append_synthetic_word(std::min(rank, kSyntheticVocabulary - 1), out.bytes);
    }
    out.bytes.push_back('\n');
  }
  return out;
}

}  // namespace memkit::bench
