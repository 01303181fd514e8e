#include "cli/interrupt.h"

#include <csignal>

namespace dtrcheck {

namespace {

std::atomic<bool> g_interrupted{false};
struct sigaction g_previous;

extern "C" void OnSigint(int) {
  g_interrupted.store(true);
  // A second Ctrl-C must still be able to stop a stuck run.
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

static_assert(std::atomic<bool>::is_always_lock_free, "the flag is set from a signal handler");

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  struct sigaction sa = {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_previous);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &g_previous, nullptr); }

const std::atomic<bool>* InterruptGuard::flag() const { return &g_interrupted; }

}  // namespace dtrcheck
