// SolveMilp and MilpLpBound forward to the CBC module, loaded on first use
// (optimal/cbc_module.h: why).
#include "optimal/milp_solver.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>

#include "optimal/blas_threads.h"
#include "optimal/cbc_module.h"

namespace dtrcheck {

namespace {

// The directory of the running executable ("" if unknown).
std::string ExecutableDir() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "";
  const std::string exe(path, static_cast<size_t>(n));
  return exe.substr(0, exe.rfind('/'));
}

// Where the module is: $DTRCHECK_CBC_MODULE; else at the same place relative
// to the executable as the build and `cmake --install` put it (bin/ and
// lib/dtrcheck/), whether the executable runs from the build tree or from
// an install prefix; else where this build wrote it.
std::string ModulePath() {
  if (const char* path = std::getenv("DTRCHECK_CBC_MODULE"); path && *path) return path;
  const std::string beside = ExecutableDir() + "/" DTRCHECK_CBC_MODULE_RELPATH;
  if (access(beside.c_str(), R_OK) == 0) return beside;
  return DTRCHECK_CBC_MODULE_BUILD_PATH;
}

const CbcModuleEntryPoints* LoadModule() {
  const std::string path = ModulePath();
  auto fail = [&](const std::string& what) {
    return SolverModuleError("cannot load the integer-program solver (CBC) from " + path + ": " +
                             what + "; build the target dtrcheck_cbc, or set DTRCHECK_CBC_MODULE " +
                             "to the path of dtrcheck_cbc.so");
  };
  // RTLD_GLOBAL: OpenBLAS, loaded with the module, must be visible to
  // StopBlasWorkerThreads' lookups.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) throw fail(dlerror());
  StopBlasWorkerThreads();
  auto entry = reinterpret_cast<CbcModuleEntryFunction>(dlsym(handle, kCbcModuleEntrySymbol));
  if (!entry) throw fail(std::string("no symbol ") + kCbcModuleEntrySymbol);
  const CbcModuleEntryPoints* points = entry();
  if (points->abi != kCbcModuleAbi)
    throw fail("it was built for interface " + std::to_string(points->abi) + ", this dtrcheck " +
               "needs " + std::to_string(kCbcModuleAbi));
  return points;
}

// Loaded once; a failed load throws, and the next call tries again.
const CbcModuleEntryPoints& Module() {
  static const CbcModuleEntryPoints* points = LoadModule();
  return *points;
}

// One call into CBC and Clp at a time in a process: CBC's driver keeps its
// arguments in globals (cbc_milp.cc), and a two-thread fuzz-optimal run
// (with CBC's driver already serialized) aborted in Clp's primal simplex
// (ClpPrimalColumnSteepest::pivotColumn's assertion), whether from the
// threads or from the LP is not established. A waiting solve's time runs on.
std::mutex& ModuleMutex() {
  static std::mutex m;
  return m;
}

// The program's space is Checkmate's: each stage's recomputations run once
// each, in log order. simrd's runtimes recompute in any order, and a
// schedule outside that space can fit where none inside does
// (corpus/optimal-violation/eac76c045ddc2c27: MSPS on
// RuntimeV2EagerOptimized ok, the program's space empty) or cost less. So
// what CBC completes, and the LP relaxation's bound, are facts about that
// space only: its schedules stand (the checker replays them), its
// "optimal" is "feasible", its "infeasible" (but for the constants) is
// "not proven", and its bound is only the one it was given (the search's,
// which holds for every schedule).
OptimalResult WithinProgramSpace(OptimalResult r, const MilpExtras& extras) {
  const std::string scope = " in the program's log-order space, not a proof for every schedule";
  if (r.status == OptimalStatus::kInfeasible && r.proof != kConstantsExceedProof) {
    r.status = OptimalStatus::kNotProven;
    r.proof = "no schedule" + scope + " (" + r.proof + ")";
  } else if (r.status == OptimalStatus::kOptimal && r.proof != kNothingToComputeProof) {
    r.status = OptimalStatus::kFeasible;
    r.proof = "optimal" + scope + " (" + r.proof + ")";
  }
  if (r.status != OptimalStatus::kOptimal)
    r.best_bound = extras.known_bound ? IntToDouble(*extras.known_bound) : 0;
  return r;
}

}  // namespace

LpRelaxation MilpLpBound(const RematProblem& p, Int budget, const SolveLimits& limits) {
  std::lock_guard<std::mutex> lock(ModuleMutex());
  return Module().lp_bound(p, budget, limits);
}

OptimalResult SolveMilp(const RematProblem& p, Int budget, const SolveLimits& limits,
                        const MilpExtras& extras) {
  OptimalResult r;
  {
    std::lock_guard<std::mutex> lock(ModuleMutex());
    r = Module().solve(p, budget, limits, extras);
  }
  return WithinProgramSpace(std::move(r), extras);
}

}  // namespace dtrcheck
