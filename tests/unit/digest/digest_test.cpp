#include "memkit/digest.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>

TEST_CASE("digest: SHA-256 of the empty string and of the §20 inbox vector") {
  CHECK(memkit::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(memkit::sha256_hex("# Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n") ==
        "dd200bb0529fe9bf762e157308c38e31ba69473aaa52f51b73b5ba75d6d87687");
  CHECK(memkit::sha256_hex("# Inbox\n\n- Use tabs\n- Keep CRLF\n") ==
        "8f1df89ff7437abfd2f19899e03f687dc19a92f3590cf8725dafe06a8e891d48");
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
