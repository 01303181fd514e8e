// Ctrl-C as a request to stop, for long work (a sweep, a scan, a Python
// call): while an InterruptGuard lives, the first SIGINT only sets a flag
// that the work polls, so it can stop between steps and keep what finished;
// a second SIGINT gets the default action, so a stuck run can still be
// stopped.
//
// Guards nest and may live on several threads at once (the Python module
// runs commands concurrently): they share one flag; the first guard clears
// it and installs the handler, the last restores the handler it replaced.
#ifndef DTRCHECK_BASE_INTERRUPT_GUARD_H_
#define DTRCHECK_BASE_INTERRUPT_GUARD_H_

#include <atomic>

namespace dtrcheck {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // The flag SIGINT sets (for work that polls a pointer, e.g. a sweep's
  // `cancel`); stays set until the next outermost guard is made.
  static const std::atomic<bool>* flag();
  static bool interrupted() { return flag()->load(); }
};

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_INTERRUPT_GUARD_H_
