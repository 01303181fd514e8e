// CBC's LP solver (Clp) links LAPACK, which Debian provides through
// OpenBLAS when OpenBLAS is installed (python3-torch pulls it in). The
// pthread build of OpenBLAS starts one worker thread per core as soon as it
// is loaded, and each worker spins on sched_yield for about 2^28 cycles
// before it sleeps: a tenth of a CPU second in every process that loads it.
// dtrcheck never needs threaded BLAS (Clp's dense factorizations are tiny).
#ifndef DTRCHECK_OPTIMAL_BLAS_THREADS_H_
#define DTRCHECK_OPTIMAL_BLAS_THREADS_H_

namespace dtrcheck {

// Sets OpenBLAS to one thread and stops the workers it started, if OpenBLAS
// is loaded in this process; does nothing otherwise (reference BLAS, other
// implementations). milp_solver.cc calls it as soon as it has loaded the
// CBC module, which brings LAPACK (optimal/cbc_module.h).
void StopBlasWorkerThreads();

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_BLAS_THREADS_H_
