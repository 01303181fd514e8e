#include "base/interrupt_guard.h"

#include <csignal>
#include <mutex>

namespace dtrcheck {

namespace {

std::atomic<bool> g_interrupted{false};
std::mutex g_mutex;  // guards g_depth and g_previous
int g_depth = 0;     // guards alive
struct sigaction g_previous;

extern "C" void OnSigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

static_assert(std::atomic<bool>::is_always_lock_free, "the flag is set from a signal handler");

InterruptGuard::InterruptGuard() {
  std::lock_guard lock(g_mutex);
  if (g_depth++ > 0) return;
  g_interrupted.store(false);
  struct sigaction sa = {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_previous);
}

InterruptGuard::~InterruptGuard() {
  std::lock_guard lock(g_mutex);
  if (--g_depth == 0) sigaction(SIGINT, &g_previous, nullptr);
}

const std::atomic<bool>* InterruptGuard::flag() { return &g_interrupted; }

}  // namespace dtrcheck
