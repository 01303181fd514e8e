// The heap of a dtrcheck process on transparent huge pages.
//
// A run on a large trace touches tens of megabytes of fresh heap (region
// sets, per-storage rows) once each: with 4 KiB pages that is over ten
// thousand page faults, a third of `dtrcheck run`'s CPU time on the LSTM
// trace on this project's (virtualized) machine, plus TLB misses in the
// region walks. glibc's own switch for this, the tunable
// glibc.malloc.hugetlb=1, is read at process start only, so a program cannot
// set it for itself; this does what it does for the main heap.
#ifndef DTRCHECK_CLI_HEAP_PAGES_H_
#define DTRCHECK_CLI_HEAP_PAGES_H_

namespace dtrcheck {

// Reserves the first kHugeHeapBytes of the main heap at once (malloc's top
// pad), keeps large blocks in it rather than in separate mappings, asks
// the kernel (madvise MADV_HUGEPAGE) to back it with huge pages, and makes
// new blocks start at its first huge-page boundary (the part below cannot
// have huge pages). Pages are still only faulted in when touched. Does
// nothing where the kernel has no transparent huge pages, or when the user
// set GLIBC_TUNABLES (theirs wins).
void UseHugePagesForHeap();

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_HEAP_PAGES_H_
