#include "optimal/blas_threads.h"

#include <dlfcn.h>

namespace dtrcheck {

void StopBlasWorkerThreads() {
  // Looked up at run time: dtrcheck does not link OpenBLAS itself, Clp's
  // LAPACK may or may not be OpenBLAS, and these are OpenBLAS's own exported
  // entry points (cblas.h declares openblas_set_num_threads; the shutdown is
  // what OpenBLAS runs before fork). One thread first, so that no later BLAS
  // call starts the workers again.
  using SetThreads = void (*)(int);
  using Shutdown = int (*)();
  if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    set(1);
  if (auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_")))
    shutdown();
}

}  // namespace dtrcheck
