// The `memkit` executable's global operator new: a block of 2 MiB or more is made of whole 2 MiB
// pages (aligned, its size rounded up) and asked to be backed by huge pages (MADV_HUGEPAGE) before
// it is first touched.
//
// Why: at 100,000 entries a sync command holds tens of megabytes read and built once (the root's
// files, the base, the entries laid out), and on a kernel where transparent huge pages are
// "madvise" each 4 KiB page costs a fault on first touch; on virtual machines whose faults trap to
// the hypervisor that was most of a command's time. Advised, a 20 MB buffer costs about ten
// faults instead of 5,000. It is a hint: where THP is off or the kernel refuses, nothing changes.
//
// Only the executable does this: a host that embeds the library keeps its own allocator (glibc's
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 gives a host the same for every allocation). Sanitizer
// builds keep the sanitizer's operator new.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

// The other forms of new (arrays, nothrow) call this one; delete stays the library's (free).
void* operator new(std::size_t size) {
  for (;;) {
    if (size < kHugePage) {
      if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
    } else if (size <= SIZE_MAX - kHugePage) {
      // Whole huge pages, so that no 4 KiB page at either end is faulted on its own.
      const std::size_t whole = (size + kHugePage - 1) & ~(kHugePage - 1);
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

#endif
