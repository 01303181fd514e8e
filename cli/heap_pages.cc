#include "cli/heap_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace dtrcheck {

namespace {
constexpr size_t kHugeHeapBytes = size_t{128} << 20;
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
}  // namespace

void UseHugePagesForHeap() {
  if (std::getenv("GLIBC_TUNABLES")) return;
  // Large blocks from the heap, not from mmap (whose pages are 4 KiB and
  // are unmapped, and faulted in again, on every free and reuse), and the
  // heap never trimmed below what it reached.
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHugeHeapBytes / 2));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kHugeHeapBytes));
  mallopt(M_TOP_PAD, static_cast<int>(kHugeHeapBytes));
  // An allocation larger than what is left at the top of the heap makes
  // malloc extend it by the pad; everything from there to the new end of
  // the heap is what later allocations use.
  void* probe = std::malloc(size_t{1} << 20);
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(probe) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(kHugePage - 1);
  std::free(probe);
  mallopt(M_TOP_PAD, 128 * 1024);  // later growth as usual (mallopt(3)'s default)
  // Fails (EINVAL) on a kernel without transparent huge pages: nothing lost.
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace dtrcheck
