// The process's CPU seconds (user + system, CLOCK_PROCESS_CPUTIME_ID), what
// the benches here time with: other processes' load does not count.
#ifndef DTRCHECK_BENCH_CPU_SECONDS_H_
#define DTRCHECK_BENCH_CPU_SECONDS_H_

#include <ctime>

inline double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

#endif  // DTRCHECK_BENCH_CPU_SECONDS_H_
