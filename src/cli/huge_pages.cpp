// The `memkit` executable's memory: every block lies in memory the kernel may back with 2 MiB
// pages. A block of 2 MiB or more is a mapping of its own, of whole 2 MiB pages (aligned, its
// size rounded up), advised (MADV_HUGEPAGE) before it is first touched and unmapped when deleted;
// smaller blocks come from malloc's one heap, which grows in steps of 256 MiB, each advised by the
// operator new whose malloc made it, before the block is handed out (malloc has written only the
// headers of the block and of the top's rest: the 2 MiB page holding the latter stays in 4 KiB
// pages, one page per step). Set-up grows the heap once and skips the partial 2 MiB page where the
// advised heap starts (below).
//
// Why: at 100,000 entries a sync command holds tens of megabytes read and built once (the root's
// files, the base, the entries laid out), and on a kernel where transparent huge pages are
// "madvise" each 4 KiB page costs a fault on first touch; on virtual machines whose faults trap to
// the hypervisor (about 10 us each on the machine of README "Benchmarks") that was most of a
// command's time. Advised, a 20 MB buffer costs about ten faults instead of 5,000, and the many
// smaller blocks (lists of a few hundred kilobytes, a second thread's allocations) no longer fault
// page by page: a push of 100 edits at 100,000 entries went from about 1,650 faults to 1,050, and
// to 570 once the partial first page was skipped. It is a hint: where THP is off or the kernel
// refuses, nothing changes.
//
// malloc is set up for that when the executable starts: one arena (so that a second thread's
// blocks come from the advised heap too, not from an arena of its own), blocks below 32 MiB from
// the heap, the heap grown by 256 MiB at a time (address space, not memory: only touched pages
// are backed) and kept, not trimmed, below 512 MiB.
//
// Only the executable does this: a host that embeds the library keeps its own allocator (glibc's
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 gives a host the same for every allocation). Sanitizer
// builds keep the sanitizer's operator new (GCC defines __SANITIZE_ADDRESS__; for clang, CMake
// defines MEMKIT_SANITIZED).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(MEMKIT_SANITIZED)

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::uintptr_t kPageMask = ~std::uintptr_t{4095};

// The end of the heap as last advised.
std::atomic<std::uintptr_t> advised_end{0};

std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(::sbrk(0)); }

// Advises what the heap grew by since the last call. Two threads may both advise one range: the
// advice is the same. Before the heap is set up (a block made by another file's static
// initialisation), there is nothing to advise: the heap so far stays as it is.
void advise_heap_growth() {
  const std::uintptr_t end = heap_end();
  const std::uintptr_t from = advised_end.load(std::memory_order_relaxed) & kPageMask;
  if (from == 0 || end <= from) return;
  (void)::madvise(reinterpret_cast<void*>(from), end - from, MADV_HUGEPAGE);
  advised_end.store(end, std::memory_order_relaxed);
}

// The advised heap starts where the heap ended at set-up, inside a 2 MiB page that is not wholly
// its own, so the kernel backs that page with 4 KiB pages faulted one by one: up to 512 faults,
// taken by the first blocks of every command (a push of 100 edits at 100,000 entries took 300 of
// its 1,050 faults there, in the base's parse). A block from the start of malloc's top chunk to
// the next 2 MiB boundary, kept for good and never touched past malloc's header, puts every later
// block in whole 2 MiB pages. It costs address space only.
//
// malloc writes a header after every block it splits from the top, and a page first touched before
// it is advised stays in 4 KiB pages. So the heap is grown first, by a block that ends in the
// partial page, then advised, then that block is freed (it merges back into the top) and the
// filler made: its header lands in advised memory.
// Never freed; volatile, or the compiler drops the malloc whose block nothing reads.
void* volatile filler = nullptr;

void skip_partial_huge_page() {
  constexpr std::size_t kGap = std::size_t{64} << 10;
  const std::uintptr_t end = heap_end();
  const std::size_t top_size = ::mallinfo2().keepcost;  // the top chunk: [end - top_size, end)
  if (top_size == 0 || top_size >= end) return;
  const std::uintptr_t top = end - top_size;
  std::uintptr_t boundary = (end + kHugePage - 1) & ~(kHugePage - 1);
  if (boundary - end < kGap) boundary += kHugePage;
  // Larger than the top, so from the top once the heap has grown; malloc adds an 8-byte header
  // and rounds up to 16, so its chunk is [top, boundary - kGap).
  void* grown = std::malloc(boundary - kGap - top - sizeof(std::size_t));
  if (grown == nullptr) return;
  advise_heap_growth();
  std::free(grown);
  filler = std::malloc(boundary - top - sizeof(std::size_t));  // [top, boundary)
}

[[maybe_unused]] const bool heap_configured = [] {
  (void)::mallopt(M_ARENA_MAX, 1);
  (void)::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  (void)::mallopt(M_TOP_PAD, 256 << 20);
  (void)::mallopt(M_TRIM_THRESHOLD, 512 << 20);
  // The heap so far stays as it is; what it grows by from here on is advised by operator new
  // below, right after the malloc that grew it.
  advised_end.store(heap_end(), std::memory_order_relaxed);
  skip_partial_huge_page();
  return true;
}();

// Blocks of 2 MiB or more: each its own mapping of whole 2 MiB pages, aligned, advised, and given
// back to the system when deleted. Nothing else lies in those pages: a block carved from the heap
// with aligned_alloc has malloc's header just before it, in a 2 MiB page of its own that the
// header alone then makes resident (a 100 MiB inbox's dry run held four such pages, 8 MiB, for
// its four large blocks). The live mappings are listed here, so that delete knows them.
constexpr std::size_t kMappedSlots = 1024;
struct Mapped {
  std::uintptr_t at = 0;
  std::size_t size = 0;
};
std::mutex mapped_mutex;
Mapped mapped[kMappedSlots];  // at == 0: free

void* map_block(std::size_t whole) {
  void* raw = ::mmap(nullptr, whole + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  // The unaligned ends go back at once: the block is [aligned, aligned + whole).
  if (aligned > start) ::munmap(raw, aligned - start);
  if (const std::uintptr_t end = start + whole + kHugePage; end > aligned + whole) {
    ::munmap(reinterpret_cast<void*>(aligned + whole), end - aligned - whole);
  }
  void* block = reinterpret_cast<void*>(aligned);
  {
    const std::lock_guard<std::mutex> held(mapped_mutex);
    for (Mapped& m : mapped) {
      if (m.at != 0) continue;
      m = Mapped{aligned, whole};
      (void)::madvise(block, whole, MADV_HUGEPAGE);
      return block;
    }
  }
  ::munmap(block, whole);  // every slot taken: the heap serves it
  return nullptr;
}

// Unmaps `block` if it is a mapping of map_block's; false otherwise.
bool unmap_block(void* block) noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  if ((at & (kHugePage - 1)) != 0) return false;  // never one of ours
  std::size_t size = 0;
  {
    const std::lock_guard<std::mutex> held(mapped_mutex);
    for (Mapped& m : mapped) {
      if (m.at != at) continue;
      size = m.size;
      m = Mapped{};
      break;
    }
  }
  if (size == 0) return false;
  ::munmap(block, size);
  return true;
}

}  // namespace

// The other forms of new (arrays, nothrow) call this one, and the other forms of delete call the
// one below.
void* operator new(std::size_t size) {
  for (;;) {
    if (size < kHugePage) {
      if (void* block = std::malloc(size == 0 ? 1 : size)) {
        if (heap_end() > advised_end.load(std::memory_order_relaxed)) advise_heap_growth();
        return block;
      }
    } else if (size <= SIZE_MAX - kHugePage) {
      // Whole huge pages, so that no 4 KiB page at either end is faulted on its own.
      const std::size_t whole = (size + kHugePage - 1) & ~(kHugePage - 1);
      if (void* block = map_block(whole)) return block;
      if (void* block = std::aligned_alloc(kHugePage, whole)) {
        (void)::madvise(block, whole, MADV_HUGEPAGE);
        return block;
      }
    }
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void operator delete(void* block) noexcept {
  if (block != nullptr && !unmap_block(block)) std::free(block);
}

void operator delete(void* block, std::size_t) noexcept { operator delete(block); }

#endif
