#include "cli/heap_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "base/huge_pages.h"

namespace dtrcheck {

namespace {
constexpr size_t kHugeHeapBytes = size_t{128} << 20;
constexpr uintptr_t kHugePage = kHugePageBytes;
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
  // the heap is what later allocations use. A block larger than any free
  // one comes from the top chunk, at its start.
  constexpr size_t kProbeBytes = size_t{1} << 20;
  constexpr uintptr_t kChunkHeader = 2 * sizeof(size_t);
  void* probe = std::malloc(kProbeBytes);
  const uintptr_t top = reinterpret_cast<uintptr_t>(probe);
  uintptr_t begin = (top + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(kHugePage - 1);
  std::free(probe);
  mallopt(M_TOP_PAD, 128 * 1024);  // later growth as usual (mallopt(3)'s default)
  // malloc wrote the header of the chunk after the probe: if that lies past
  // the first boundary, its page was faulted in small, and the kernel gives
  // the rest of that huge page small pages too. Start a huge page later.
  if (top + kProbeBytes + kChunkHeader >= begin) begin += kHugePage;
  // The heap from the top chunk's start up to the first huge-page boundary
  // can only have small pages (a huge page must lie whole in the mapping):
  // on the LSTM trace the parse faulted it in 4 KiB at a time, some three
  // hundred faults. A block that fills it, never freed and never written
  // but for malloc's header, makes later blocks start at the boundary;
  // untouched, it costs address space only. Kept in a static so leak
  // checkers see it (volatile, or the compiler drops the unused allocation).
  [[maybe_unused]] static void* volatile skipped_prefix;
  if (end <= begin) return;
  skipped_prefix = std::malloc(begin - top - kChunkHeader);
  // Fails (EINVAL) on a kernel without transparent huge pages: nothing lost.
  if (madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0)
    NoteHeapOnHugePages();
}

}  // namespace dtrcheck
