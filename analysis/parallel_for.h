// Independent work items on several threads, with results that do not
// depend on the thread count: the one worker pool of dtrcheck (sweeps,
// scans, the reproduce report).
//
// ParallelFor(n, jobs, fn) calls fn(i) once for each i in [0, n) on up to
// `jobs` threads, the calling thread being one of them, and hands the indices
// out in increasing order. Output is deterministic when fn(i) writes only
// result slot i and the caller reads the slots in index order, never in
// completion order.
//
// Errors: once an fn(i) throws, no further index is started; the running
// ones finish, and the exception of the lowest index that threw is rethrown.
// As indices are handed out in order, every index below it has run, so that
// is the exception a plain loop would have thrown, whatever the thread count.
#ifndef DTRCHECK_ANALYSIS_PARALLEL_FOR_H_
#define DTRCHECK_ANALYSIS_PARALLEL_FOR_H_

#include <cstddef>
#include <functional>

namespace dtrcheck {

// stop, if given, is asked before each index is started; once it returns
// true no further index is started and ParallelFor returns normally (the
// caller sees which slots stayed empty). jobs < 1 means 1.
void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& fn,
                 const std::function<bool()>& stop = {});

// The default number of jobs: the hardware's thread count, at least 1.
int DefaultJobs();

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_PARALLEL_FOR_H_
