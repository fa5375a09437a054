#include "memkit/digest.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "digest/sha256_blocks.hpp"

TEST_CASE("digest: SHA-256 of the empty string and of the §20 inbox vector") {
  CHECK(memkit::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(memkit::sha256_hex("# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n") ==
        "dd200bb0529fe9bf762e157308c38e31ba69473aaa52f51b73b5ba75d6d87687");
  CHECK(memkit::sha256_hex("# Inbox\n\n- Use tabs\n- Keep CRLF\n") ==
        "8f1df89ff7437abfd2f19899e03f687dc19a92f3590cf8725dafe06a8e891d48");
}

namespace {

std::string pattern(std::size_t n) {
  std::string out(n, '\0');
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>((i * 7 + 3) % 251);
  return out;
}

}  // namespace

TEST_CASE("digest: SHA-256 of FIPS 180-4's examples and of every padding case") {
  CHECK(memkit::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(memkit::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(memkit::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // From python3's hashlib: lengths on each side of the 56-byte padding edge and of blocks.
  const std::pair<std::size_t, const char*> expected[] = {
      {1, "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"},
      {55, "1deace58c745f3ecadde68a5923f494c3703fa73f0306483ccb898a5826e8d70"},
      {56, "06dbe23685750e4d3881ded95047abaf93fa8f9c5d3501dc57c717a72ff1398e"},
      {57, "011f4bced20a249afb834d24b3e4eca31ad5ea2bdd1d8a1a564c2d2410398e69"},
      {63, "47fb38b12335c9298d09280515c0666489a189d1554bb0ac1a0740806ce9d8b6"},
      {64, "dfa798724b1a8014994f363e5da7474ed26ce3757fb29e07aa47ad5a9352d37b"},
      {65, "dd2eab5a5507d7717c63ce953d9ac61752c21e664425ad1227054722a0d97f69"},
      {119, "c6e0f435df5d7d265baacca31e0602c00aa22fa6d3819aed664649294c743756"},
      {120, "17eb8960823a644bde3065620bb9d45931fe8993fd8eb692a17aff0fd725db6a"},
      {127, "2409a159329f4e770a7d8128130497abb1de01ffb6ad389d97d89ebbeeb7f02c"},
      {128, "3a9c1e22e20578eebe442238f431befd688bd56698eb7c77d95d3f97d8f58207"},
      {129, "956f5da998f608be52587f28902b608909b661f99a1b300e3d3046b4f69f6fb5"},
      {1000, "a9425c416f534025a4e2422bd14adba4ec3d4a68d10c3329be8df612964d2b6e"},
  };
  for (const auto& sized : expected) {  // no structured binding: clang 14 cannot capture one
    const std::size_t size = sized.first;
    CAPTURE(size);
    CHECK(memkit::sha256_hex(pattern(size)) == sized.second);
  }
}

TEST_CASE("digest: SHA-256 fed in pieces of every size is SHA-256 of the whole") {
  const std::string bytes = pattern(300);
  memkit::Sha256Hasher hasher;
  for (std::size_t piece = 1; piece <= 130; ++piece) {
    CAPTURE(piece);
    hasher.restart();
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
      hasher.update(std::string_view(bytes).substr(at, piece));
    }
    CHECK(hasher.finish() == memkit::sha256(bytes));
  }
}

TEST_CASE("digest: the SHA extensions and the portable loop compress alike") {
  std::mt19937 random(20261202);
  for (int trial = 0; trial < 200; ++trial) {
    std::uint32_t fast[8];
    std::uint32_t portable[8];
    for (int i = 0; i < 8; ++i) fast[i] = portable[i] = static_cast<std::uint32_t>(random());
    std::array<std::uint8_t, 64 * 3> blocks{};
    for (std::uint8_t& b : blocks) b = static_cast<std::uint8_t>(random());
    const std::size_t count = 1 + static_cast<std::size_t>(trial % 3);
    memkit::detail::sha256_blocks(fast, blocks.data(), count);
    memkit::detail::sha256_blocks(portable, blocks.data(), count,
                                  memkit::detail::Sha256Engine::portable);
    CHECK(std::equal(fast, fast + 8, portable));
  }
  MESSAGE("SHA extensions in use: " << memkit::detail::sha256_hardware());
}

TEST_CASE("digest: XXH3-128 in its canonical byte order, the reference values") {
  const auto hex = [](const std::array<std::uint8_t, 16>& d) {
    std::string out;
    for (const std::uint8_t b : d) {
      out += "0123456789abcdef"[b >> 4];
      out += "0123456789abcdef"[b & 15];
    }
    return out;
  };
  CHECK(hex(memkit::xxh3_128("")) == "99aa06d3014798d86001c324468d497f");
  CHECK(hex(memkit::xxh3_128("abc")) == "06b05ab6733a618578af5f94892f3950");
}

TEST_CASE("digest: the fast hash separates different bytes and repeats for equal ones") {
  CHECK(memkit::fast_hash("a") == memkit::fast_hash(std::string("a")));
  CHECK(memkit::fast_hash("a") != memkit::fast_hash("b"));
  CHECK(memkit::fast_hash("") != memkit::fast_hash(std::string_view("\0", 1)));
}
