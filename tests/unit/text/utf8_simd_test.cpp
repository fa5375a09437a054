// The vector validator must agree with the scalar decoder on where the first ill-formed sequence
// starts, wherever it falls relative to the 16-byte blocks.
#include "text/utf8_simd.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>

#include "memkit/text.hpp"
#include "text/utf8_decode.hpp"

namespace {

std::optional<std::size_t> scalar_first_invalid(const std::string& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t i = 0;
  while (i < s.size()) {
    const memkit::detail::DecodedChar c = memkit::detail::decode_char(p + i, s.size() - i);
    if (!c.valid) return i;
    i += c.size;
  }
  return std::nullopt;
}

// Valid text of every sequence length, so that characters straddle block boundaries.
std::string valid_text(std::mt19937& rng, std::size_t length) {
  static const char* const kPieces[] = {"a",
                                        "bc ",
                                        "\xC3\xA9",
                                        "\xDF\xBF",
                                        "\xE8\xA8\x98",
                                        "\xEF\xBF\xBD",
                                        "\xED\x9F\xBF",
                                        "\xEE\x80\x80",
                                        "\xF0\x9F\x98\x80",
                                        "\xF4\x8F\xBF\xBF",
                                        "\n"};
  std::string out;
  while (out.size() < length) out += kPieces[rng() % (sizeof kPieces / sizeof kPieces[0])];
  return out;
}

// Ill-formed pieces: stray continuations, overlongs, surrogates, values above U+10FFFF,
// truncated sequences, bytes that never occur.
const char* const kBad[] = {"\x80",
                            "\xBF",
                            "\xC0\x80",
                            "\xC1\xBF",
                            "\xE0\x80\x80",
                            "\xE0\x9F\xBF",
                            "\xED\xA0\x80",
                            "\xED\xBF\xBF",
                            "\xF0\x80\x80\x80",
                            "\xF0\x8F\xBF\xBF",
                            "\xF4\x90\x80\x80",
                            "\xF5\x80\x80\x80",
                            "\xFF",
                            "\xFE",
                            "\xC3",
                            "\xE8\xA8",
                            "\xF0\x9F\x98",
                            "\xC3\xC3\xA9"};

}  // namespace

TEST_CASE("text: the vector validator and the scalar decoder find the same first error") {
  std::mt19937 rng(1130);
  for (int round = 0; round < 20000; ++round) {
    std::string s = valid_text(rng, 64 + rng() % 200);
    const int kind = static_cast<int>(rng() % 4);
    if (kind != 0) {  // one or two errors at random places; kind 0 stays valid
      for (int e = 0; e < kind % 3 + 1; ++e) {
        const std::size_t at = rng() % (s.size() + 1);
        s.insert(at, kBad[rng() % (sizeof kBad / sizeof kBad[0])]);
      }
    }
    if (rng() % 5 == 0) s.resize(s.size() - rng() % 4);  // possibly cut inside a sequence
    CAPTURE(s);
    REQUIRE(memkit::find_invalid_utf8(s) == scalar_first_invalid(s));
  }
}

TEST_CASE("text: the vector validator's prefix ends on a character boundary before any error") {
  std::mt19937 rng(77);
  for (int round = 0; round < 5000; ++round) {
    std::string s = valid_text(rng, 64 + rng() % 100);
    const std::size_t at = rng() % s.size();
    s.insert(at, kBad[rng() % (sizeof kBad / sizeof kBad[0])]);
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t prefix = memkit::detail::valid_utf8_prefix(p, s.size());
    const std::optional<std::size_t> first = scalar_first_invalid(s);
    REQUIRE(first.has_value());
    CHECK(prefix <= *first);
    CHECK(!memkit::find_invalid_utf8(s.substr(0, prefix)).has_value());
  }
}

TEST_CASE("text: an error at any offset before a run of ASCII blocks is found where it starts") {
  for (const char* bad : kBad) {
    for (std::size_t pos = 0; pos < 48; ++pos) {
      for (const char* lead : {"x", "\xC3\xA9"}) {
        std::string s;
        while (s.size() < pos) s += lead;
        s += bad;
        s += std::string(64, 'y');  // blocks of pure ASCII take the vector shortcut
        CAPTURE(s);
        REQUIRE(memkit::find_invalid_utf8(s) == scalar_first_invalid(s));
      }
    }
  }
}
