// Unicode 15.0.0 full case folding (spec compaction.md §6.3), used for the dedupe key and heading
// keys. The ASCII fast path matters: almost every key is ASCII.
#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "memkit/text.hpp"
#include "text/casefold_table.hpp"
#include "text/utf8_decode.hpp"

namespace memkit {
namespace detail {
namespace {

constexpr char32_t kFirstFolded = kFoldRunFirst[0];
constexpr char32_t kLastFolded =
    kFoldRunFirst[kFoldRunCount - 1] + kFoldRuns[kFoldRunCount - 1].span;

// One bit per code point below U+10000, set iff it folds to something else. Text outside the
// few scripts with case (CJK, most accented Latin letters already lower-case) then skips the
// search of the table, which costs a dozen steps.
class BmpFolds final {
 public:
  constexpr BmpFolds() noexcept {
    for (std::size_t r = 0; r < kFoldRunCount; ++r) {
      for (char32_t offset = 0; offset <= kFoldRuns[r].span; offset += kFoldRuns[r].stride) {
        const char32_t cp = kFoldRunFirst[r] + offset;
        if (cp < 0x10000) bits_[cp / 64] |= std::uint64_t{1} << (cp % 64);
      }
    }
  }
  [[nodiscard]] constexpr bool folds(char32_t cp) const noexcept {
    return ((bits_[cp / 64] >> (cp % 64)) & 1U) != 0;
  }

 private:
  std::uint64_t bits_[0x10000 / 64] = {};
};

constexpr BmpFolds kBmpFolds;

}  // namespace

std::size_t fold_code_point(char32_t cp, char32_t (&out)[kMaxFoldLength]) noexcept {
  out[0] = cp;
  if (cp < kFirstFolded || cp > kLastFolded) return 1;
  if (cp < 0x10000 && !kBmpFolds.folds(cp)) return 1;
  // The last run that starts at or before cp is the only one that can hold it.
  const char32_t* after = std::upper_bound(std::begin(kFoldRunFirst), std::end(kFoldRunFirst), cp);
  const auto index = static_cast<std::size_t>(after - std::begin(kFoldRunFirst)) - 1;
  const FoldRun& run = kFoldRuns[index];
  const char32_t offset = cp - kFoldRunFirst[index];
  if (offset > run.span || offset % run.stride != 0) return 1;
  if (run.kind == FoldKind::shift) {
    out[0] = static_cast<char32_t>(static_cast<std::int32_t>(cp) + run.value);
    return 1;
  }
  const char16_t(&multi)[kMaxFoldLength] = kFoldMulti[run.value];
  out[0] = multi[0];
  out[1] = multi[1];
  if (multi[2] == 0) return 2;
  out[2] = multi[2];
  return 3;
}

}  // namespace detail

namespace {

using detail::kEachByte;
using detail::kHighBits;

// Lower-cases 8 ASCII bytes at once. Adding 0x80 - 'A' (resp. 0x80 - 'Z' - 1) to a byte below
// 0x80 sets its high bit iff the byte is >= 'A' (resp. > 'Z'), and never carries into the next
// byte, so the difference marks exactly the upper-case letters; 0x80 >> 2 is the 0x20 case bit.
std::uint64_t lower_ascii_word(std::uint64_t word) noexcept {
  const std::uint64_t at_least_a = word + kEachByte * (0x80U - 'A');
  const std::uint64_t above_z = word + kEachByte * (0x80U - 'Z' - 1);
  const std::uint64_t upper = at_least_a & ~above_z & kHighBits;
  return word | (upper >> 2);
}

}  // namespace

void casefold_append(std::string_view text, std::string& out) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  // Written in place: every byte copied or lower-cased takes the room of the byte it came from,
  // so n bytes suffice until a fold outside ASCII writes more than it reads; only then does the
  // buffer grow.
  std::size_t at = out.size();
  out.resize(at + n);
  auto room = [&](std::size_t left) { return out.size() - at >= left; };
  std::size_t i = 0;
  while (i < n) {
    if (n - i >= 8) {
      std::uint64_t word;
      std::memcpy(&word, p + i, sizeof word);
      const std::uint64_t high = word & kHighBits;
      // The ASCII bytes before the first non-ASCII one, lower-cased in one step. All 8 are
      // stored (there is room for them), but only those are kept.
      const std::size_t ascii =
          high == 0 ? sizeof word : static_cast<std::size_t>(std::countr_zero(high)) / 8;
      if (ascii != 0) {
        word = lower_ascii_word(word & (high == 0 ? ~std::uint64_t{0} : (high & -high) - 1));
        std::memcpy(out.data() + at, &word, sizeof word);
        at += ascii;
        i += ascii;
        continue;
      }
    }
    const unsigned char b = p[i];
    if (b < 0x80U) {
      out[at++] = static_cast<char>(b >= 'A' && b <= 'Z' ? b | 0x20U : b);
      ++i;
      continue;
    }
    const detail::DecodedChar c = detail::decode_char(p + i, n - i);
    if (c.valid && c.cp < 0x10000 && !detail::kBmpFolds.folds(c.cp)) {
      std::memcpy(out.data() + at, p + i, c.size);  // the common case: no folding
      at += c.size;
      i += c.size;
      continue;
    }
    char32_t folded[detail::kMaxFoldLength];
    const std::size_t count = detail::fold_code_point(c.cp, folded);
    if (c.valid && count == 1 && folded[0] == c.cp) {
      std::memcpy(out.data() + at, p + i, c.size);  // unchanged: skip re-encoding
      at += c.size;
    } else {
      std::string encoded;
      for (std::size_t k = 0; k < count; ++k) append_utf8(folded[k], encoded);
      if (!room(encoded.size() + (n - i - c.size))) out.resize(out.size() + encoded.size() + n);
      std::memcpy(out.data() + at, encoded.data(), encoded.size());
      at += encoded.size();
    }
    i += c.size;
  }
  out.resize(at);
}

std::string casefold(std::string_view text) {
  std::string out;
  casefold_append(text, out);
  return out;
}

}  // namespace memkit
