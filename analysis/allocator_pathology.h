// The pathologies that exist only when memory is addresses (issue 42): a
// scan under an allocator model (--memory cuda-caching or arena) sweeps the
// same budgets under simrd's bytes too and compares, budget by budget.
//   fragmentation-oom: a budget whose run is ok in bytes and out of memory
//     under the allocator (the bytes fit, the blocks did not); a run that
//     thrashed under the allocator (hit the overhead limit) is not out of
//     memory, so it is no fragmentation OOM (its pair may still be an
//     allocator-inversion);
//   allocator-inversion, allocator-cliff: an inversion or a regime cliff of
//     the allocator's sweep whose pair is no inversion (cliff) in bytes;
//   reserved-peak-inversion: budgets B1 < B2, both ok under the allocator,
//     with the reserved peak at B1 above the reserved peak at B2 (MegEngine's
//     DTR guide: a 2 GB threshold peaks higher than 3 GB).
// The kinds themselves are FindingKind's (analysis/pathology.h).
#ifndef DTRCHECK_ANALYSIS_ALLOCATOR_PATHOLOGY_H_
#define DTRCHECK_ANALYSIS_ALLOCATOR_PATHOLOGY_H_

#include <vector>

#include "analysis/pathology.h"
#include "analysis/sweep.h"

namespace dtrcheck {

// The one rule for "a fragmentation OOM at this budget": the bytes run is ok
// and the allocator's run is out of memory (Status::kOom; kThrashed is not).
// Every caller that decides it (FindFragmentationOoms, the scan report's
// reduce command, the fragmentation-oom reduce property) asks this.
bool IsFragmentationOom(Status bytes, Status allocator);

// `allocator` and `bytes`: the same budgets, in the same (ascending) order
// (std::invalid_argument if not). One finding per stretch of consecutive
// fragmentation OOMs, at the stretch's largest budget (the one nearest to
// feasible under the allocator); its `high` end is the allocator's run and
// its `low` end the bytes run at the same budget (low.budget == high.budget).
std::vector<Finding> FindFragmentationOoms(const std::vector<SweepPoint>& allocator,
                                           const std::vector<SweepPoint>& bytes);

// Relabels the inversions and cliffs found in the allocator's sweep
// (FindInversions, FindRegimeCliffs over `allocator`) that bytes does not
// have at the same pair as allocator-inversion and allocator-cliff.
void MarkAllocatorOnly(const std::vector<SweepPoint>& bytes, double cliff_factor,
                       std::vector<Finding>* findings);

// Consecutive ok points of the allocator's sweep (the minimal witnesses:
// a larger peak at a smaller budget anywhere implies one between
// neighbours) whose reserved peak falls; factor: the larger over the smaller.
std::vector<Finding> FindReservedPeakInversions(const std::vector<SweepPoint>& allocator);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_ALLOCATOR_PATHOLOGY_H_
