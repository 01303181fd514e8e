// Ctrl-C for long commands (sweep, scan, fuzzers): an InterruptGuard
// (base/interrupt_guard.h) lives while the command runs, so the first SIGINT
// lets it write the points that finished, and the command then exits with
// kExitInterrupted.
#ifndef DTRCHECK_CLI_INTERRUPT_H_
#define DTRCHECK_CLI_INTERRUPT_H_

#include "base/interrupt_guard.h"

namespace dtrcheck {

// The exit code of a command stopped by SIGINT (128 + SIGINT, as shells do).
constexpr int kExitInterrupted = 130;

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_INTERRUPT_H_
