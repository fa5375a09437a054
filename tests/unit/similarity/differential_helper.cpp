// The C++ half of the differential test against python3 (differential.py holds the references).
//
//   differential_helper cases            stdin: records (u32 length, bytes); stdout, per record:
//                                        u32 word count, then each word as a blob; then, per
//                                        pair of records (1st and 2nd, 3rd and 4th, ...), u32
//                                        intersection and u32 union of similarity()
//   differential_helper all-code-points  stdout: per scalar value cp, a blob of the words of the
//                                        UTF-8 of cp, joined by NUL
//
// Integers are little-endian; a blob is a u32 length and its bytes.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "differential_wire.hpp"
#include "memkit/similarity.hpp"
#include "memkit/text.hpp"

namespace {

using memkit::test::put_blob;
using memkit::test::put_uint;
using memkit::test::read_all_stdin;
using memkit::test::write_all_stdout;

int run_cases() {
  const std::string input = read_all_stdin();
  std::vector<std::string_view> records;
  std::size_t pos = 0;
  while (pos < input.size()) {
    if (input.size() - pos < 4) return 2;
    std::uint32_t length = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      length |= static_cast<std::uint32_t>(static_cast<unsigned char>(input[pos + i])) << (8 * i);
    }
    pos += 4;
    if (input.size() - pos < length) return 2;
    records.emplace_back(input.data() + pos, length);
    pos += length;
  }
  std::string out;
  for (const std::string_view record : records) {
    const std::vector<std::string> words = memkit::similarity::words(record);
    put_uint(out, words.size(), 4);
    for (const std::string& word : words) put_blob(out, word);
  }
  for (std::size_t i = 0; i + 1 < records.size(); i += 2) {
    const memkit::similarity::Match m = memkit::similarity::similarity(records[i], records[i + 1]);
    put_uint(out, m.intersection, 4);
    put_uint(out, m.union_size, 4);
  }
  return write_all_stdout(out) ? 0 : 2;
}

int run_all_code_points() {
  std::string out;
  std::string encoded;
  std::string joined;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    encoded.clear();
    memkit::append_utf8(cp, encoded);
    joined.clear();
    for (const std::string& word : memkit::similarity::words(encoded)) {
      if (!joined.empty()) joined.push_back('\0');
      joined += word;
    }
    put_blob(out, joined);
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
