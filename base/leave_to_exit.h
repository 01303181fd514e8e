// Memory a process leaves to the kernel at exit instead of freeing it, as
// LLVM's BuryPointer does for clang's -disable-free. A simulation's runtime
// holds thousands of small blocks (every storage's region sets); freeing
// them one by one just before the process exits reads each block's header
// again, a cache miss apiece, for nothing: on the LSTM trace at ratio 0.3
// that was 1.4% of `dtrcheck run`'s time (perf, cpu-clock samples in
// _int_free under ~Runtime). Only a command that ends the process right
// after asks for it (Teardown::kLeaveToExit, sim/simulate.h).
//
// The pointers are kept in a global, so leak checkers (LeakSanitizer,
// valgrind) see the memory as reachable at exit, not as leaked.
#ifndef DTRCHECK_BASE_LEAVE_TO_EXIT_H_
#define DTRCHECK_BASE_LEAVE_TO_EXIT_H_

#include <memory>

namespace dtrcheck {

// Keeps p, never to be freed.
void KeepUntilExit(const void* p);

template <typename T>
void LeaveToExit(std::unique_ptr<T> p) {
  KeepUntilExit(p.release());
}

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_LEAVE_TO_EXIT_H_
