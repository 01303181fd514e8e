// SIGINT during a command (command.h), after cli/interrupt.cc: the handler
// only sets a flag, and a second Ctrl-C gets the default action, so that a
// stuck run can still be stopped.
#include <csignal>
#include <mutex>

#include "command.h"

namespace dtrcheck::python {

namespace {

std::atomic<bool> g_interrupted{false};
std::mutex g_mutex;
int g_depth = 0;  // commands running
struct sigaction g_previous;

extern "C" void OnSigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

static_assert(std::atomic<bool>::is_always_lock_free, "the flag is set from a signal handler");

Interrupt::Interrupt() {
  std::lock_guard lock(g_mutex);
  if (g_depth++ > 0) return;
  g_interrupted.store(false);
  struct sigaction sa = {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_previous);
}

Interrupt::~Interrupt() {
  std::lock_guard lock(g_mutex);
  if (--g_depth == 0) sigaction(SIGINT, &g_previous, nullptr);
}

const std::atomic<bool>* Interrupt::flag() { return &g_interrupted; }

}  // namespace dtrcheck::python
