// The boundary between dtroptimal and the CBC module, dtrcheck_cbc.so.
//
// CBC and what it links (Cgl, Clp, Osi, CoinUtils, LAPACK, OpenBLAS,
// gfortran: a dozen shared libraries) cost every process that links them
// about 14 ms of loading and relocation, and OpenBLAS starts a spinning
// worker thread per core as it loads (optimal/blas_threads.h): a tenth of
// `dtrcheck run` on the LSTM trace, which never solves a program. So the
// integer program (cbc_milp.cc) is built as a module of its own, and
// milp_solver.cc loads it with dlopen the first time a command solves one.
//
// The module and the executable are built from the same sources in the same
// build, so the entry points pass C++ types; kCbcModuleAbi changes with any
// change to them or to the types they pass.
#ifndef DTRCHECK_OPTIMAL_CBC_MODULE_H_
#define DTRCHECK_OPTIMAL_CBC_MODULE_H_

#include <optional>

#include "optimal/milp_solver.h"
#include "optimal/optimum.h"
#include "optimal/remat_problem.h"

namespace dtrcheck {

constexpr int kCbcModuleAbi = 2;

// What the module offers: milp_solver.h's two functions.
struct CbcModuleEntryPoints {
  int abi;  // kCbcModuleAbi of the module's build
  OptimalResult (*solve)(const RematProblem& p, Int budget, const SolveLimits& limits,
                         const MilpExtras& extras);
  LpRelaxation (*lp_bound)(const RematProblem& p, Int budget, const SolveLimits& limits);
};

// The module's one exported symbol, a function returning its entry points.
constexpr const char* kCbcModuleEntrySymbol = "dtrcheck_cbc_module_entry_points";
using CbcModuleEntryFunction = const CbcModuleEntryPoints* (*)();

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_CBC_MODULE_H_
