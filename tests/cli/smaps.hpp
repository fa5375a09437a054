// What /proc and /sys say of this process's memory, for the tests of the CLI's operator new
// (src/cli/huge_pages.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace memkit::test {

// What /sys says of transparent huge pages: "always", "madvise", "never", or "" when absent.
inline std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const std::size_t open = line.find('[');
  const std::size_t close = line.find(']');
  return open == std::string::npos || close == std::string::npos
             ? std::string()
             : line.substr(open + 1, close - open - 1);
}

// The mapping holding `address` from /proc/self/smaps: where it begins and ends, its resident
// kilobytes, those of them in huge pages and its THPeligible flag (all 0, and the flag -1, if not
// found).
struct Mapping {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  long rss_kb = 0;
  long huge_kb = 0;
  int thp_eligible = -1;
};
inline Mapping mapping_of(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream in("/proc/self/smaps");
  std::string line;
  Mapping found;
  bool inside = false;
  while (std::getline(in, line)) {
    unsigned long begin = 0;
    unsigned long end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 && line.find(':') > 8) {
      inside = begin <= at && at < end;
      if (inside) found = Mapping{.begin = begin, .end = end};
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      found.rss_kb = std::stol(line.substr(4));
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      found.huge_kb = std::stol(line.substr(14));
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      found.thp_eligible = std::stoi(line.substr(12));
    }
  }
  return found;
}

// The THPeligible flag of the mapping holding `address` (-1 if not found).
inline int thp_eligible(const void* address) { return mapping_of(address).thp_eligible; }

}  // namespace memkit::test
