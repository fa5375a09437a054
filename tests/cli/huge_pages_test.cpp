// The CLI's operator new (src/cli/huge_pages.cpp), linked into this program as into `memkit`:
// blocks large and small lie in memory the kernel may back with huge pages, and every block holds
// what is written to it.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "smaps.hpp"

using memkit::test::thp_eligible;
using memkit::test::thp_mode;

TEST_CASE("cli allocator: blocks of any size hold what is written to them") {
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{4096}, (std::size_t{2} << 20) - 1,
        std::size_t{2} << 20, (std::size_t{9} << 20) + 5}) {
    std::string bytes(size, '\0');
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 131 % 251);
    bool same = true;
    for (std::size_t i = 0; i < size; ++i)
      same = same && bytes[i] == static_cast<char>(i * 131 % 251);
    CHECK(same);
  }
  const auto array = std::make_unique<std::uint64_t[]>(std::size_t{1} << 20);  // 8 MiB, new[]
  array[(std::size_t{1} << 20) - 1] = 7;
  CHECK(array[(std::size_t{1} << 20) - 1] == 7);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(MEMKIT_SANITIZED)
TEST_CASE("cli allocator: blocks large and small lie in memory that huge pages may back") {
  if (thp_mode() != "madvise") {
    MESSAGE("transparent huge pages are '" << thp_mode() << "', not madvise: nothing to see");
    return;
  }
  const std::size_t size = std::size_t{8} << 20;  // holds at least three whole 2 MiB pages
  const std::unique_ptr<char[]> large(new char[size]);
  const auto middle = reinterpret_cast<std::uintptr_t>(large.get()) + size / 2;
  const std::uintptr_t page = middle & ~((std::uintptr_t{2} << 20) - 1);
  CHECK(thp_eligible(reinterpret_cast<const void*>(page)) == 1);
  const std::unique_ptr<char[]> small(new char[64]);
  CHECK(thp_eligible(small.get()) == 1);
  // Blocks of 1 MiB (from the heap, never touched) until the heap has grown past its first step
  // of 256 MiB: what it grew by is advised too.
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 300; ++i) blocks.emplace_back(new char[std::size_t{1} << 20]);
  CHECK(thp_eligible(blocks.back().get()) == 1);
  const std::unique_ptr<char[]> after(new char[64]);
  CHECK(thp_eligible(after.get()) == 1);
}

TEST_CASE("cli allocator: a large block is a mapping of its own, given back when deleted") {
  // Nothing else shares its 2 MiB pages: carved from the heap, malloc's header before it made a
  // whole huge page resident (a 100 MiB inbox's dry run held 8 MiB of such pages).
  const std::size_t size = (std::size_t{6} << 20) + 100;
  char* block = new char[size];
  block[0] = 1;
  block[size - 1] = 2;
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  CHECK(at % (std::size_t{2} << 20) == 0);
  const memkit::test::Mapping own = memkit::test::mapping_of(block);
  CHECK(own.begin == at);
  CHECK(own.end == at + (std::size_t{8} << 20));  // whole 2 MiB pages
  delete[] block;
  CHECK(memkit::test::mapping_of(reinterpret_cast<const void*>(at)).begin != at);
}

#endif
