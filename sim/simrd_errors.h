// What simrd raises during a run, as the exceptions that end a dtrcheck run
// the same way (Simulate turns them into a record's status).
#ifndef DTRCHECK_SIM_SIMRD_ERRORS_H_
#define DTRCHECK_SIM_SIMRD_ERRORS_H_

#include <stdexcept>
#include <string>

namespace dtrcheck {

// simrd raises MemoryError: nothing left to evict.
struct OutOfMemory {};
// simrd raises RematExceededError: remat_compute > remat_limit.
struct RematExceeded {};
// An assertion inside simrd failed (simrd would crash with AssertionError).
// The runtime and region upkeep keep simrd's assertions and raise this, so
// that an input on which simrd would crash is reported instead of silently
// diverging.
struct SimrdAssertion : std::runtime_error {
  explicit SimrdAssertion(const std::string& what, int line = 0)
      : std::runtime_error(what), line(line) {}
  // The log line of the command that tripped it (Runtime::RunSchedule sets
  // it; 0 when unknown or at the end of the log), so that an error report
  // can name FILE:LINE.
  int line;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_SIMRD_ERRORS_H_
