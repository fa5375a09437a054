// codec/binary.hpp: what a BinaryWriter writes, a BinaryReader reads back; nothing reads past the
// end, however the bytes are cut.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "codec/binary.hpp"

using memkit::codec::BinaryReader;
using memkit::codec::BinaryWriter;

TEST_CASE("binary: words, texts and sections read back as written") {
  BinaryWriter w;
  w.word(7);
  w.text("héllo");
  w.text("");
  w.pad();
  const std::uint32_t values[] = {1, 2, 3};
  w.bytes(values, sizeof values);
  w.pad();
  w.word(UINT64_MAX);
  const std::string bytes = std::move(w).take();
  REQUIRE(bytes.size() == 8 + 8 + 6 + 8 + 2 + 12 + 4 + 8);  // padded to 8, then 8 again

  alignas(8) char copy[64] = {};
  bytes.copy(copy, bytes.size());
  BinaryReader r(std::string_view(copy, bytes.size()));
  std::uint64_t word = 0;
  std::string text = "x";
  std::size_t size = 0;
  CHECK((r.number(size) && size == 7));
  CHECK((r.text(text) && text == "héllo"));
  CHECK((r.text(text) && text.empty()));
  const auto section = r.take<std::uint32_t>(3);
  REQUIRE(section);
  CHECK(((*section)[0] == 1 && (*section)[2] == 3));
  CHECK_FALSE(r.done());
  CHECK((r.take<std::uint64_t>(1) && r.done()));  // after the section, at the next boundary
  CHECK_FALSE(r.word(word));
}

TEST_CASE("binary: a read past the end fails, and leaves the reader where it was") {
  BinaryWriter w;
  w.text("abcdef");
  w.word(5);
  const std::string bytes = std::move(w).take();
  for (std::size_t cut = 0; cut <= bytes.size(); ++cut) {
    BinaryReader r(std::string_view(bytes).substr(0, cut));
    std::string text;
    std::uint64_t word = 0;
    const bool whole = r.text(text) && r.word(word);
    CHECK(whole == (cut == bytes.size()));
  }
  // A text longer than what is left.
  BinaryWriter long_text;
  long_text.word(1000);
  const std::string lying = std::move(long_text).take() + "abc";
  BinaryReader r(lying);
  std::string text;
  CHECK_FALSE(r.text(text));
  // A section that does not fit moves nothing: the word after it still reads.
  BinaryWriter odd;
  odd.bytes("abc", 3);
  odd.pad();
  odd.word(9);
  const std::string padded = std::move(odd).take();
  BinaryReader s(std::string_view(padded).substr(0, 16));
  std::uint64_t first = 0;
  std::uint64_t nine = 0;
  CHECK(s.word(first));
  CHECK_FALSE(s.take<std::uint64_t>(2));
  CHECK((s.word(nine) && nine == 9));
  // Past the end once aligned: the reader stays at the end, and reads there fail.
  BinaryWriter three;
  three.text("abc");
  const std::string eleven = std::move(three).take();
  BinaryReader t(eleven);
  CHECK(t.text(text));
  CHECK_FALSE(t.take<std::uint64_t>(1));
  CHECK_FALSE(t.word(nine));
  CHECK(t.done());
}
