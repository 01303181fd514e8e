// How two runs of one trace evict: totals, re-evictions, the overlap of the
// evicted sets, rematerializations. Works on records made with
// RunConfig::stats = true (their per-storage statistics).
#ifndef DTRCHECK_ANALYSIS_EVICTION_COMPARE_H_
#define DTRCHECK_ANALYSIS_EVICTION_COMPARE_H_

#include <cstdint>
#include <vector>

#include "sim/simulate.h"

namespace dtrcheck {

struct EvictionProfile {
  int64_t evictions = 0;             // eviction events
  int64_t distinct_evicted = 0;      // storages evicted at least once
  double evictions_per_storage = 0;  // evictions / distinct_evicted (0 if none)
  int64_t direct_remats = 0;         // rematerializations asked for by the schedule's use
  int64_t collateral_remats = 0;     // those done to rematerialize something else
  // The most evicted storages: evict_count descending, then root id.
  std::vector<StorageStatRow> most_evicted;
};

// Throws std::invalid_argument if the record has no per-storage statistics.
EvictionProfile ProfileEvictions(const RunRecord& r, size_t top = 10);

struct EvictionComparison {
  EvictionProfile a, b;
  int64_t common = 0, either = 0;  // |A ∩ B| and |A ∪ B| of the evicted storage sets
  double jaccard = 1;              // common / either; 1 when neither evicts
};

// The two records must come from one trace (storages are matched by root id).
EvictionComparison CompareEvictions(const RunRecord& a, const RunRecord& b, size_t top = 10);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_EVICTION_COMPARE_H_
