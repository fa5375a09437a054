// write_synthetic_memory FLAVOUR MIB FILE: writes the exact bytes the benchmarks time at that
// flavour and size, so bench/scripts/ can time whole commands (cat, the CLI) on the same input.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "synthetic_memory.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s ascii|mixed_utf8|crlf MIB FILE\n", argv[0]);
    return 2;
  }
  const auto flavour = memkit::bench::flavour_from_name(argv[1]);
  char* end = nullptr;
  const unsigned long mib = std::strtoul(argv[2], &end, 10);
  if (!flavour || end == argv[2] || *end != '\0' || mib == 0) {
    std::fprintf(stderr, "%s: expected a flavour (ascii, mixed_utf8, crlf) and a MiB count\n",
                 argv[0]);
    return 2;
  }
  const std::string bytes = memkit::bench::synthetic_memory(*flavour, std::size_t{mib} << 20);
  std::ofstream out(argv[3], std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[3]);
    return 1;
  }
  return 0;
}
