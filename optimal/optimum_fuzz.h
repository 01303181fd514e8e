// The differential fuzzer of the optimum (`dtrcheck fuzz-optimal`, issue 40
// item 3; optimal/README.md, "The optimum fuzzer"): on a trace, at a
// budget, every accepted runtime/heuristic pair runs; each run that ends ok
// becomes a schedule of the model (optimal/run_schedule.h) replayed by the
// independent checker; the optimum is solved as `dtrcheck optimal` solves
// it (DTR's run as the warm start) and by each engine alone. What no
// answer may do is a violation:
//
//   model-gap               an ok run of a runtime within the model whose
//                           schedule the checker or the model refuses
//   schedule-rejected       a solve's schedule fails the checker, or costs
//                           other than the solve says
//   infeasible-where-ok     "infeasible" while a run within the model is ok
//   optimum-above-schedule  "optimal" above the cost of a checked schedule
//   bound-above-schedule    a proven lower bound above a checked schedule
//   engines-disagree        the search and CBC both prove, and differ
//
// The library knows nothing of where traces come from (the command draws
// them with the differential fuzzer's cases, fuzz/lib/diff_case.h) nor how
// they are shrunk (the command passes reduce/'s reducer): optimal/ sits
// below both (ci/layering_check.py).
#ifndef DTRCHECK_OPTIMAL_OPTIMUM_FUZZ_H_
#define DTRCHECK_OPTIMAL_OPTIMUM_FUZZ_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/json.h"
#include "io/trace_log.h"
#include "optimal/optimum.h"
#include "optimal/remat_problem.h"
#include "sim/graph.h"
#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {

// The violation kinds above, in that order.
const std::vector<std::string>& OptimumViolationKinds();

// Testing aids: a defect planted in the answer of `dtrcheck optimal`'s
// solve, which the fuzzer must catch (optimum_fuzz_test, the archive's
// planted entry):
//   infeasible  the solve claims "infeasible" (proof "planted")
//   bound       its proven bound is one above its schedule's cost
const std::vector<std::string>& PlantedDefects();

struct OptimumFuzzOptions {
  double solve_seconds = 2;     // wall-clock limit of each solve
  bool compare_engines = true;  // also solve with the search alone and CBC alone
  std::string plant;            // "" or one of PlantedDefects()
  const std::atomic<bool>* cancel = nullptr;
};

struct OptimumViolation {
  std::string kind;  // one of OptimumViolationKinds()
  std::string detail;
};

// One solve and what the checker said of its schedule.
struct CheckedSolve {
  std::string name;  // "optimal" (as the command), "search", "milp"
  OptimalResult result;
  std::string check_error;  // empty: no schedule, or it checks at its cost
};

struct OptimumAtBudget {
  Int budget = 0;
  size_t runs = 0, ok_runs = 0, checked_runs = 0;
  std::optional<Int> cheapest;  // the cheapest schedule that checks (a run's or a solve's)
  std::string cheapest_source;
  std::vector<CheckedSolve> solves;
  std::vector<std::string> gaps;  // documented gaps (RuntimeV1's runs), not violations
  std::vector<OptimumViolation> violations;
  double seconds = 0;
};

// Everything above at `budget` bytes.
OptimumAtBudget CheckOptimumAt(const Graph& g, const RematProblem& p, const Baseline& baseline,
                               Int budget, const OptimumFuzzOptions& options);

struct OptimumCaseResult {
  std::string refusal;  // the trace does not parse or its baseline fails: nothing checked
  size_t operators = 0;
  std::vector<double> ratios;
  std::vector<OptimumAtBudget> budgets;  // one per ratio (fewer when cancelled)
};

// The budgets of a case: three ratios of the baseline peak, one in each of
// [0.2, 0.5), [0.5, 0.8) and [0.8, 1.0], to the thousandth, a pure function
// of (seed, index).
std::vector<double> OptimumFuzzRatios(uint64_t seed, uint64_t index);

// `log` parsed with `parse`, checked at each ratio of its baseline peak.
OptimumCaseResult CheckOptimumCase(const TraceLog& log, const ParseOptions& parse,
                                   const std::vector<double>& ratios,
                                   const OptimumFuzzOptions& options);

// Whether `log` still shows a violation of `kind` at `budget` bytes (false
// for a trace that does not parse or run).
bool ShowsOptimumViolation(const TraceLog& log, const ParseOptions& parse, Int budget,
                           const std::string& kind, const OptimumFuzzOptions& options,
                           OptimumAtBudget* at = nullptr);

// A shrinker: the smallest trace it finds from `start` on which
// `interesting` holds (the command passes reduce/'s Reduce).
struct ShrinkResult {
  TraceLog log;
  size_t tests = 0;
  bool minimal = false;
};
using TraceShrinker = std::function<ShrinkResult(
    const TraceLog& start, const std::function<bool(const TraceLog&)>& interesting)>;

struct ReducedViolation {
  TraceLog log;        // the reduced trace
  OptimumAtBudget at;  // on it
  ShrinkResult shrink;
  double seconds = 0;
  bool time_limited = false;  // the reduction stopped at max_seconds
};

// Shrinks `log` while it shows a violation of `kind` at `budget`, for at
// most `max_seconds` (after which every candidate is refused).
ReducedViolation ReduceOptimumViolation(const TraceLog& log, const ParseOptions& parse, Int budget,
                                        const std::string& kind, const OptimumFuzzOptions& options,
                                        const TraceShrinker& shrink, double max_seconds);

// Who found a violation and how, for the manifest.
struct OptimumProvenance {
  std::string commit, command, reproduce;
  Json found = Json::object();  // the case: seed, index, generator, mutations, ratio
};

// Files the violation as ARCHIVE/<id>/ (written in a temporary directory
// and renamed): trace.log (reduced), original.log and manifest.json (id,
// kind, status "open" or "planted", the planted defect, budget, parse
// options, solve seconds, the violations and solves on the reduced trace,
// the reduction, the case, commit, commands, SHA-256s). The id is the
// first 16 hex digits of the SHA-256 of the reduced trace, parse options,
// budget and kind. Returns the id; an entry already there is kept.
std::string ArchiveOptimumViolation(const std::string& archive, const TraceLog& original,
                                    const ParseOptions& parse, Int budget, const std::string& kind,
                                    const ReducedViolation& r, const OptimumFuzzOptions& options,
                                    const OptimumProvenance& provenance);

// One archive entry replayed: whether its violation shows now, with the
// defect it was planted with (if any) and without. Throws
// std::invalid_argument (naming the file) for an entry that cannot be read
// or whose trace changed since it was archived.
struct OptimumReplay {
  std::string kind, status;  // status: "open", "fixed" or "planted"
  bool shows = false;        // with the entry's planted defect, if any
  bool shows_unplanted = false;
  std::vector<OptimumViolation> violations;  // without the planted defect
};
OptimumReplay ReplayOptimumViolation(const std::string& entry_dir, const OptimumFuzzOptions& base);

// The summary of one budget as JSON (the solves' statuses, proofs, costs).
Json OptimumAtBudgetToJson(const OptimumAtBudget& at);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_OPTIMUM_FUZZ_H_
