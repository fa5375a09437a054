// The CLI's operator new (src/cli/huge_pages.cpp) in a program of its own, so that nothing else
// grows the heap first: the blocks made after set-up lie in whole huge pages.
#include <doctest/doctest.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "smaps.hpp"

using memkit::test::Mapping;
using memkit::test::mapping_of;
using memkit::test::thp_mode;

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(MEMKIT_SANITIZED)
// The advised heap starts inside a 2 MiB page that is not wholly its own, which the kernel can only
// back with 4 KiB pages faulted one by one. Blocks made after set-up lie past it, in whole huge
// pages: once 8 MiB of small blocks are written, the heap holds at most a few 4 KiB pages (the heap
// grows by 256 MiB steps; this test stays within the first).
TEST_CASE("cli allocator: small blocks fault whole huge pages, not the heap's first 4 KiB ones") {
  if (thp_mode() != "madvise") {
    MESSAGE("transparent huge pages are '" << thp_mode() << "', not madvise: nothing to see");
    return;
  }
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 128; ++i) {
    blocks.emplace_back(new char[std::size_t{64} << 10]);
    for (std::size_t at = 0; at < (std::size_t{64} << 10); at += 4096) blocks.back()[at] = 1;
  }
  const Mapping heap = mapping_of(blocks.front().get());
  REQUIRE(heap.end > heap.begin);
  CHECK(heap.huge_kb >= 8 << 10);
  MESSAGE("heap " << heap.rss_kb << " kB resident, " << heap.huge_kb << " kB in huge pages");
  CHECK(heap.rss_kb - heap.huge_kb <= 64);
}
#endif
