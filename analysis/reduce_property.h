// The properties a trace is reduced with, over two budgets lo < hi.
//
// Each is a pathology of analysis/pathology.h, checked with its predicate on the
// two runs of a RunSweep:
//   inversion   ok at lo, oom or thrashed at hi            (FindInversions);
//               with `failure`, exactly that status at hi
//   cliff       both ok, overheads differ by >= factor      (FindRegimeCliffs,
//               with the gap hi - lo)
//   overhead-rise  both ok, overhead(hi) > factor * overhead(lo)
//                                                           (FindOverheadRises)
//   pinned-oom  oom at hi with the evictable pool empty and locked bytes plus
//               the request over the budget (Diagnosis::PinnedFrontierOom);
//               if lo is given, also ok at lo
//   fragmentation-oom  (under an allocator model, config.memory) one budget,
//               hi: ok under simrd's bytes, out of memory under the allocator
//               where the bytes fit (the allocator refused: OomDetails::
//               BytesFit), so a reduction keeps the allocator's failure
//               (FindFragmentationOoms, analysis/allocator_pathology.h)
// Budgets are bytes, or ratios of the trace's own baseline peak (so they
// follow the trace as it shrinks). A run ending in a simrd assertion makes
// the trace invalid: the property is then false.
#ifndef DTRCHECK_ANALYSIS_REDUCE_PROPERTY_H_
#define DTRCHECK_ANALYSIS_REDUCE_PROPERTY_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/pathology.h"
#include "analysis/sweep.h"
#include "sim/graph.h"
#include "sim/simulate.h"

namespace dtrcheck {

enum class TraceProperty { kInversion, kCliff, kPinnedOom, kOverheadRise, kFragmentationOom };

// "inversion", "cliff", "pinned-oom", "overhead-rise", "fragmentation-oom"
const std::vector<std::string>& TracePropertyNames();
// Throws std::invalid_argument listing the names.
TraceProperty TracePropertyFromName(const std::string& name);
const char* TracePropertyName(TraceProperty p);

struct PropertySpec {
  TraceProperty property = TraceProperty::kInversion;
  RunConfig config;              // runtime, heuristic, limits; the budget is set per run
  std::optional<BudgetSpec> lo;  // required except for pinned-oom
  BudgetSpec hi;
  double factor = 2.0;  // cliff and overhead-rise
  // inversion: how the hi end must fail (kOom or kThrashed). A reducer keeps
  // the failure it started from, as a test-case reducer's interestingness
  // test does: without it an ok -> thrashed inversion may shrink into an
  // ok -> oom one, another mechanism. Unset: either (manifests before
  // 2026-12-04).
  std::optional<Status> failure;
};

// Throws std::invalid_argument for a spec that cannot be checked (missing
// lo, factor < 1, ratios and bytes mixed).
void ValidatePropertySpec(const PropertySpec& spec);

struct PropertyCheck {
  bool holds = false;
  std::string summary;  // one line: what was seen at each budget
  Baseline baseline;
  // lo (if given) then hi; fragmentation-oom: hi under bytes, then hi
  // under the allocator.
  std::vector<RunRecord> runs;
  // pinned-oom and fragmentation-oom: of the run at hi (under the allocator).
  std::optional<Diagnosis> diagnosis;
};

// Runs the spec's configuration on `graph`. Throws std::invalid_argument for
// a runtime/heuristic pair simrd refuses (as Simulate does).
PropertyCheck CheckTraceProperty(const Graph& graph, const PropertySpec& spec);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_REDUCE_PROPERTY_H_
