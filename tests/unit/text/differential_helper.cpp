// The C++ half of the differential test against python3 (differential.py holds the references).
//
//   differential_helper cases            stdin: records (u32 length, bytes); stdout, per record:
//                                        i64 find_invalid_utf8 (-1 when valid), blob to_valid_utf8,
//                                        blob decode_utf8 + append_utf8, u64 estimate_tokens,
//                                        blob casefold, then (u32 offset, u32 length) of strip_w,
//                                        lstrip_w and rstrip_w in the input, then blob collapse_w
//   differential_helper all-code-points  stdout: blob casefold(UTF-8 of cp) for every scalar value
//
// Integers are little-endian; a blob is a u32 length and its bytes.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "differential_wire.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"

namespace {

using memkit::test::put_blob;
using memkit::test::put_uint;
using memkit::test::read_all_stdin;
using memkit::test::write_all_stdout;

void put_view(std::string& out, std::string_view whole, std::string_view part) {
  put_uint(out, static_cast<std::uint64_t>(part.data() - whole.data()), 4);
  put_uint(out, part.size(), 4);
}

std::string reencode(std::string_view bytes) {
  std::string out;
  std::size_t pos = 0;
  while (pos < bytes.size()) memkit::append_utf8(memkit::decode_utf8(bytes, pos), out);
  return out;
}

int run_cases() {
  const std::string input = read_all_stdin();
  std::string out;
  std::size_t pos = 0;
  while (pos < input.size()) {
    if (input.size() - pos < 4) return 2;
    std::uint32_t length = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      length |= static_cast<std::uint32_t>(static_cast<unsigned char>(input[pos + i])) << (8 * i);
    }
    pos += 4;
    if (input.size() - pos < length) return 2;
    const std::string_view bytes(input.data() + pos, length);
    pos += length;

    const std::optional<std::size_t> bad = memkit::find_invalid_utf8(bytes);
    put_uint(out, bad ? static_cast<std::uint64_t>(*bad) : ~std::uint64_t{0}, 8);
    put_blob(out, memkit::to_valid_utf8(bytes));
    put_blob(out, reencode(bytes));
    put_uint(out, memkit::estimate_tokens(bytes), 8);
    put_blob(out, memkit::casefold(bytes));
    put_view(out, bytes, memkit::strip_w(bytes));
    put_view(out, bytes, memkit::lstrip_w(bytes));
    put_view(out, bytes, memkit::rstrip_w(bytes));
    put_blob(out, memkit::collapse_w(bytes));
  }
  return write_all_stdout(out) ? 0 : 2;
}

int run_all_code_points() {
  std::string out;
  std::string encoded;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    encoded.clear();
    memkit::append_utf8(cp, encoded);
    put_blob(out, memkit::casefold(encoded));
  }
  return write_all_stdout(out) ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc == 2 ? argv[1] : "";
  if (mode == "cases") return run_cases();
  if (mode == "all-code-points") return run_all_code_points();
  std::fputs("usage: differential_helper cases|all-code-points\n", stderr);
  return 2;
}
