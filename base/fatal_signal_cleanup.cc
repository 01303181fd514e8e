#include "base/fatal_signal_cleanup.h"

#include <atomic>

namespace dtrcheck {

namespace {

std::atomic<void (*)()> g_cleanup{nullptr};  // lock-free: read by a signal handler

}  // namespace

void SetFatalSignalCleanup(void (*cleanup)()) { g_cleanup.store(cleanup); }

void RunFatalSignalCleanup() {
  if (void (*cleanup)() = g_cleanup.load()) cleanup();
}

}  // namespace dtrcheck
