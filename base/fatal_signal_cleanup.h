// What a fatal-signal handler runs before the process dies. The handler is
// plugins/plugin_heuristic.cc's (a crash inside a plugin); the cleanup is
// io/atomic_file.h's RemoveLiveTemporaries, which unlinks the temporaries of
// the outputs being written, so that a crashed sweep leaves its earlier
// output and nothing beside it. It lives here, below both, so that neither
// includes the other.
#ifndef DTRCHECK_BASE_FATAL_SIGNAL_CLEANUP_H_
#define DTRCHECK_BASE_FATAL_SIGNAL_CLEANUP_H_

namespace dtrcheck {

// Sets the cleanup: an async-signal-safe function. One cleanup; a later
// call replaces it.
void SetFatalSignalCleanup(void (*cleanup)());

// Runs the cleanup, if one is set (async-signal-safe).
void RunFatalSignalCleanup();

}  // namespace dtrcheck

#endif  // DTRCHECK_BASE_FATAL_SIGNAL_CLEANUP_H_
