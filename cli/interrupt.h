// Ctrl-C for long commands (sweep, scan): while an InterruptGuard lives, the
// first SIGINT only sets a flag, which RunSweep polls, so the command can
// still write the points that finished; a second SIGINT kills the process
// as usual.
#ifndef DTRCHECK_CLI_INTERRUPT_H_
#define DTRCHECK_CLI_INTERRUPT_H_

#include <atomic>

namespace dtrcheck {

// The exit code of a command stopped by SIGINT (128 + SIGINT, as shells do).
constexpr int kExitInterrupted = 130;

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handler
  ~InterruptGuard();  // restores the previous one
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  const std::atomic<bool>* flag() const;
  bool interrupted() const { return flag()->load(); }
};

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_INTERRUPT_H_
