#include "analysis/eviction_compare.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace dtrcheck {

namespace {

std::set<int64_t> EvictedSet(const RunRecord& r) {
  std::set<int64_t> s;
  for (const auto& row : r.storage_stats)
    if (row.evict_count > 0) s.insert(row.root_id);
  return s;
}

}  // namespace

EvictionProfile ProfileEvictions(const RunRecord& r, size_t top) {
  if (!r.config.stats)
    throw std::invalid_argument(
        "comparing evictions needs per-storage statistics (RunConfig::stats)");
  EvictionProfile p;
  p.evictions = r.evictions;
  p.distinct_evicted = r.distinct_evicted;
  p.evictions_per_storage =
      r.distinct_evicted ? double(r.evictions) / double(r.distinct_evicted) : 0;
  std::vector<StorageStatRow> evicted;
  for (const auto& row : r.storage_stats) {
    p.direct_remats += row.direct_remat_count;
    p.collateral_remats += row.collateral_remat_count;
    if (row.evict_count > 0) evicted.push_back(row);
  }
  std::sort(evicted.begin(), evicted.end(), [](const StorageStatRow& x, const StorageStatRow& y) {
    return x.evict_count != y.evict_count ? x.evict_count > y.evict_count : x.root_id < y.root_id;
  });
  if (evicted.size() > top) evicted.resize(top);
  p.most_evicted = std::move(evicted);
  return p;
}

EvictionComparison CompareEvictions(const RunRecord& a, const RunRecord& b, size_t top) {
  EvictionComparison c;
  c.a = ProfileEvictions(a, top);
  c.b = ProfileEvictions(b, top);
  std::set<int64_t> sa = EvictedSet(a), sb = EvictedSet(b);
  for (int64_t id : sa) c.common += sb.count(id);
  c.either = static_cast<int64_t>(sa.size() + sb.size()) - c.common;
  c.jaccard = c.either ? double(c.common) / double(c.either) : 1.0;
  return c;
}

}  // namespace dtrcheck
