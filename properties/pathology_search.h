// Searching one trace for a pathology over a grid of budget ratios.
//
// The search sweeps the grid with RunSweep and applies the predicates of
// analysis/pathology.h (pinned-oom: an inversion whose failing run, diagnosed,
// ends in a pinned-frontier OOM). A witness is returned as the two-budget
// PropertySpec of analysis/reduce_property.h, so that it can be re-checked,
// reduced with dtrcheck reduce, and confirmed with simrd.
#ifndef DTRCHECK_PROPERTIES_PATHOLOGY_SEARCH_H_
#define DTRCHECK_PROPERTIES_PATHOLOGY_SEARCH_H_

#include <optional>
#include <vector>

#include "analysis/reduce_property.h"
#include "sim/graph.h"
#include "sim/simulate.h"

namespace dtrcheck {

struct PathologySearch {
  TraceProperty property = TraceProperty::kInversion;
  RunConfig config;            // the budget is set per grid point
  std::vector<double> ratios;  // ascending
  double factor = 2.0;         // cliff, overhead
  double cliff_gap = 0.01;     // cliff: budgets at most this fraction of peak apart
};

// The first witness (lowest budgets) on `graph`, or nothing.
std::optional<PropertySpec> FindPathology(const Graph& graph, const PathologySearch& search);

}  // namespace dtrcheck

#endif  // DTRCHECK_PROPERTIES_PATHOLOGY_SEARCH_H_
