// Delta debugging of traces: the smallest trace on which a property holds.
//
// Reduce repeats five passes until none changes the trace:
//   1. ddmin over instructions: remove chunks (halving the chunk size down to
//      one instruction), each with everything that depends on it;
//   2. edge removal: drop single results of tuple CALLs and single arguments
//      of CALLs and MUTATEs;
//   3. chain contraction: replace a CALL by its first argument;
//   4. merging: fold an operator's memory into the previous operator of its
//      kind (fewer operators, the same bytes: keeps a ratio budget's peak);
//   5. numbers: move each MEMORY and TIME to a simpler value (fewer
//      significant digits, then smaller).
// A candidate is kept only if it passes CheckBindings and `interesting`
// returns true; `interesting` must also reject traces simrd cannot run
// (parse errors, simulations ending in a simrd assertion). At the end no
// single edit of any kind keeps the property: the trace is 1-minimal with
// respect to these edits.
#ifndef DTRCHECK_REDUCE_REDUCER_H_
#define DTRCHECK_REDUCE_REDUCER_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

#include "io/trace_log.h"

namespace dtrcheck {

struct ReduceProgress {
  const char* pass = "";    // "ddmin", "edges", "contract", "merge", "numbers"
  size_t round = 0;         // 1-based round of the five passes
  size_t tests = 0;         // candidates evaluated so far
  size_t instructions = 0;  // of the current trace
  size_t operators = 0;     // CONSTANT + CALL + MUTATE of the current trace
};

struct ReduceOptions {
  // Called after every accepted candidate and every 32 evaluations.
  std::function<void(const ReduceProgress&)> on_progress;
  // Polled before each evaluation; when set, Reduce returns the best trace so far.
  const std::atomic<bool>* cancel = nullptr;
  // Called with each accepted trace (e.g. to checkpoint it to disk).
  std::function<void(const TraceLog&)> on_accept;
};

struct ReduceResult {
  TraceLog log;
  size_t tests = 0;
  size_t rounds = 0;
  bool cancelled = false;
  bool minimal = false;  // a full round changed nothing
};

using TracePredicate = std::function<bool(const TraceLog&)>;

// `start` should satisfy `interesting`; Reduce does not check it.
ReduceResult Reduce(const TraceLog& start, const TracePredicate& interesting,
                    const ReduceOptions& options = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_REDUCE_REDUCER_H_
