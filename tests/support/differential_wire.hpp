// The wire between a differential helper and its Python script
// (tests/support/differential_wire.py): cases in on stdin, little-endian unsigned integers and
// length-prefixed blobs out on stdout.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace memkit::test {

inline void put_uint(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFFU));
}

inline void put_blob(std::string& out, std::string_view blob) {
  put_uint(out, blob.size(), 4);
  out.append(blob);
}

inline std::string read_all_stdin() {
  std::string data;
  char buf[1 << 16];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) data.append(buf, got);
  return data;
}

inline bool write_all_stdout(const std::string& data) {
  return std::fwrite(data.data(), 1, data.size(), stdout) == data.size() &&
         std::fflush(stdout) == 0;
}

}  // namespace memkit::test
