// Transparent huge pages, for the memory dtrcheck asks the kernel to back
// with them: the heap (cli/heap_pages.h) and large logs (base/file_text.h).
// On the virtual machines this suite runs on, every 4 KiB page a process
// touches costs a fault of about 10 us; a 2 MB page costs one.
#ifndef DTRCHECK_BASE_HUGE_PAGES_H_
#define DTRCHECK_BASE_HUGE_PAGES_H_

#include <cstddef>

namespace dtrcheck {

constexpr size_t kHugePageBytes = size_t{2} << 20;

// Whether the kernel backs a mapping that asks for them (madvise
// MADV_HUGEPAGE) with transparent huge pages: mode "always" or "madvise" in
// /sys/kernel/mm/transparent_hugepage/enabled. Read once per process.
bool KernelOffersHugePagesOnRequest();

// Whether the process's main heap is on huge pages: noted by the one that
// asked for them (cli/heap_pages.h) once madvise accepted, which it does
// even where the kernel's mode is "never", and true only where the kernel
// offers them. A large block from malloc is then on huge pages already,
// and when freed its pages serve the blocks that follow, where memory of
// its own would be faulted in, zeroed and given back.
void NoteHeapOnHugePages();
bool HeapOnHugePages();

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_HUGE_PAGES_H_
