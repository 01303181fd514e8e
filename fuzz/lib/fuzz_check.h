// What the pathology fuzzer looks for in one decoded case: the case's trace
// swept over its budget grid (analysis/sweep.h), and the pathologies of
// analysis/pathology.h among the runs, each as the two-budget PropertySpec that
// `dtrcheck reduce` shrinks with (analysis/reduce_property.h):
//   inversion   ok at lo, oom or thrashed at hi        (FindInversions)
//   pinned-oom  an inversion whose oom at hi is a pinned-frontier oom
//               (Diagnose); reported after the inversion itself
//   cliff       both ok, at most `cliff_gap` of the peak apart, overheads
//               differing by at least `cliff_factor`  (FindRegimeCliffs)
//   simrd-error a run ended in a simrd assertion: the generator produced a
//               trace simrd cannot run, a bug rather than a pathology
//   fragmentation-oom  under an allocator model ($DTRCHECK_FUZZ_MEMORY):
//               ok in bytes, oom under the allocator where the bytes fit
//               (FindFragmentationOoms, analysis/allocator_pathology.h)
// Each finding has a signature, the key findings are deduplicated by across
// fuzzer processes, campaigns and machines.
#ifndef DTRCHECK_FUZZ_LIB_FUZZ_CHECK_H_
#define DTRCHECK_FUZZ_LIB_FUZZ_CHECK_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/pathology.h"
#include "analysis/reduce_property.h"
#include "analysis/sweep.h"
#include "fuzz/lib/fuzz_case.h"
#include "io/record.h"

namespace dtrcheck {

struct FuzzCheckOptions {
  double cliff_factor = 2.0;  // $DTRCHECK_FUZZ_CLIFF_FACTOR
  double cliff_gap = 0.01;    // $DTRCHECK_FUZZ_CLIFF_GAP, a fraction of the baseline peak
  // The sweeps of one case in this many (those whose generator seed it
  // divides; 0: none) check every region update against simrd's walk
  // (RegionRebuilds::kUpdateChecked); a difference, a dtrcheck bug, is thrown
  // as std::logic_error, which the fuzzer reports as a crash. Checking costs
  // about as much as the sweep itself.  $DTRCHECK_FUZZ_CHECK_REGIONS_EVERY
  int check_regions_every = 4;
  // $DTRCHECK_FUZZ_MEMORY: bytes (the default), cuda-caching or arena; every
  // sweep of the case runs under it, and the grid again under bytes.
  MemoryOptions memory;
};

// The defaults, overridden by the environment variables above. Throws
// std::invalid_argument for a value that is not a number in range
// (factor >= 1, 0 < gap <= 1, every >= 0), or an unknown memory model.
FuzzCheckOptions FuzzCheckOptionsFromEnv();

struct FuzzFinding {
  // "inversion", "pinned-oom", "cliff", "simrd-error", "fragmentation-oom"
  std::string kind;
  std::optional<PropertySpec> spec;  // what to reduce with; none for simrd-error
  Finding runs;                      // the two runs (for simrd-error: the failing one twice)
  std::string detail;                // oom: the failing operator; simrd-error: the assertion
  // kind|runtime|heuristic|shape|..., with what tells two findings apart:
  // the statuses and failing operator of an inversion, the factor's power
  // of two of a cliff. Budgets and seeds are left out on purpose: the same
  // pathology shows at many of them.
  std::string signature;

  std::string Describe() const;
};

struct FuzzCheck {
  Baseline baseline;
  std::vector<SweepPoint> points;     // by budget
  std::vector<FuzzFinding> findings;  // inversions, pinned-ooms, cliffs; or one simrd-error
};

// Generates the case's trace and checks it.
FuzzCheck CheckFuzzCase(const FuzzCase& c, const FuzzCheckOptions& options);

// The first 16 hex digits of the SHA-256 of a signature: file names of the
// fuzzer's claims and archive ids.
std::string SignatureId(const std::string& signature);

// The `dtrcheck reduce` options that reproduce a finding's property
// (--property, --lo/--hi, --cliff-factor, the configuration), without TRACE and -o.
std::vector<std::string> ReduceArguments(const FuzzFinding& f);

Json FuzzFindingToJson(const FuzzFinding& f);

}  // namespace dtrcheck

#endif  // DTRCHECK_FUZZ_LIB_FUZZ_CHECK_H_
