// Pathology predicates over budget sweeps, and the diagnosis of one run.
//
// Terms, as the project defines them for its issues:
//   feasibility inversion: budgets B1 < B2 with the run ok at B1 and oom (or
//     thrashed) at B2.
//   regime cliff: two budgets at most a small step apart (e.g. 0.1% of peak)
//     whose overheads differ by a large factor (e.g. 2x or more).
//   pinned-frontier OOM: an oom where, at the failing allocation, the
//     evictable pool is empty and the locked bytes plus the request exceed
//     the budget.
// And one of dtrcheck's own:
//   overhead rise: budgets B1 < B2, both ok, with
//     overhead(B2) > factor * overhead(B1) (kind "overhead-rise"; scan
//     reports written before 2026-12-03 call it "non-monotonic").
// Overhead is RunRecord::Overhead(): (model + remat compute) / baseline
// compute. Cliffs and overhead rises compare ok runs only: an oom or
// thrashed run stops early and its overhead is not the cost of training.
//
// A predicate over a sweep could list every qualifying pair (quadratically
// many, mostly restating each other). Each Find* function instead reports
// the minimal witnesses: pairs (i, j) that qualify while no other qualifying
// pair lies inside [i, j]. For inversions that is the last ok point before
// each failing stretch with the stretch's first point; for cliffs, the two
// runs on either side of a regime switch.
#ifndef DTRCHECK_ANALYSIS_PATHOLOGY_H_
#define DTRCHECK_ANALYSIS_PATHOLOGY_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/sweep.h"
#include "sim/graph.h"
#include "sim/simulate.h"

namespace dtrcheck {

// The last four exist only under an allocator model (analysis/allocator_pathology.h).
enum class FindingKind {
  kInversion,
  kOverheadRise,
  kRegimeCliff,
  kFragmentationOom,
  kAllocatorInversion,
  kAllocatorCliff,
  kReservedPeakInversion,
};
// "inversion", "overhead-rise", "cliff", "fragmentation-oom",
// "allocator-inversion", "allocator-cliff", "reserved-peak-inversion".
const char* FindingKindName(FindingKind kind);
const std::vector<FindingKind>& AllFindingKinds();

// What a finding says about one of its two runs.
struct FindingEnd {
  size_t index = 0;  // position in the vector passed to the Find* function
  std::optional<double> ratio;
  Int budget = 0;
  Status status = Status::kOk;
  double overhead = 0;
};

struct Finding {
  FindingKind kind = FindingKind::kInversion;
  // low.budget < high.budget; a fragmentation OOM has one budget: low is
  // its run in bytes (ok), high its run under the allocator (failed).
  FindingEnd low, high;
  // Larger over smaller overhead (cliffs, overhead rises), larger over
  // smaller reserved peak (reserved-peak inversions); 0 for the others.
  double factor = 0;
};

// One line for people, e.g.
// "cliff: ratio 0.110 (budget 1106729761) ok 2.077x -> ratio 0.111 ... ok 3.212x (1.55x)".
std::string DescribeFinding(const Finding& f);

// `points` must be ordered by budget, ascending (std::invalid_argument if
// not); equal budgets are allowed and never form a pair.
std::vector<Finding> FindInversions(const std::vector<SweepPoint>& points);
// factor >= 1; pairs with overhead(B2) > factor * overhead(B1).
std::vector<Finding> FindOverheadRises(const std::vector<SweepPoint>& points, double factor);
// factor >= 1; pairs with 0 < B2 - B1 <= max_gap bytes and
// max(overheads) >= factor * min(overheads).
std::vector<Finding> FindRegimeCliffs(const std::vector<SweepPoint>& points, double factor,
                                      Int max_gap);

// The byte gap for "at most `fraction` of peak apart" between budgets
// int(peak*r): floor(fraction*peak) + 1, the +1 because truncating each
// budget can widen the difference of two budgets by up to one byte (ratios
// 0.110 and 0.111 give budgets up to floor(0.001*peak) + 1 apart).
Int GapFromFractionOfPeak(double fraction, Int peak);

// The state of the runtime when it ran out of memory.
struct OomDetails {
  // The tensor whose op's outputs could not be allocated (simrd's
  // _materialize(t) calling _free(t.op.total_size)): simrd id, log name, op.
  TensorId tensor = -1;
  std::string tensor_name;
  std::string op_name;
  Int request = 0;  // t.op.total_size: all outputs of its op
  // The tensor whose materialization started last (simrd's _T_pending),
  // usually a parent of `tensor` rematerialized just before the failure.
  // The published study names this one "the tensor being computed" at ResNet-32
  // 0.104 (x7977, id 190); the failing request is that of its child x7984.
  TensorId last_started = -1;
  std::string last_started_name;
  Int budget = 0;
  Int resident = 0;    // memory_usage
  Int pool_bytes = 0;  // the evictable pool
  size_t pool_count = 0;
  Int locked_bytes = 0;  // material storages with a lock or pin
  size_t locked_storages = 0;
  // The tensors being materialized, outermost first (ends with `tensor`);
  // depth is the rematerialization recursion depth, chain.size() - 1.
  std::vector<TensorId> chain;
  std::vector<std::string> chain_names;
  size_t depth = 0;

  bool PinnedFrontier() const { return pool_count == 0 && locked_bytes + request > budget; }
  // The bytes fit (resident + request <= budget): the allocator model
  // refused the placement, as only --memory cuda-caching or arena can.
  bool BytesFit() const { return resident + request <= budget; }
};

struct Diagnosis {
  RunRecord record;
  std::optional<OomDetails> oom;  // set when the run ran out of memory
  Int max_locked_bytes = 0;       // the largest locked total seen
  Int max_locked_clock = 0;       // the clock when it was first seen

  bool PinnedFrontierOom() const { return oom && oom->PinnedFrontier(); }
};

// Runs `config` once, observing the runtime. Throws what Simulate throws.
Diagnosis Diagnose(const Graph& graph, const RunConfig& config, const Baseline& baseline);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_PATHOLOGY_H_
