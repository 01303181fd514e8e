// CompareEvictions on two hand-made records; the expected numbers follow
// from the definitions in analysis/eviction_compare.h applied to the rows below.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analysis/eviction_compare.h"

namespace dtrcheck {
namespace {

RunRecord WithStats(std::vector<StorageStatRow> rows) {
  RunRecord r;
  r.config.stats = true;
  for (const auto& row : rows) {
    r.evictions += row.evict_count;
    r.distinct_evicted += row.evict_count > 0;
  }
  r.storage_stats = std::move(rows);
  return r;
}

TEST(CompareEvictions, OverlapReEvictionsAndRemats) {
  // A evicts storages 1 (twice) and 2 (once); 5 was only rematerialized.
  // B evicts 2 (three times) and 3 (once).
  RunRecord a = WithStats({{1, 100, 2, 1, 0}, {2, 50, 1, 0, 1}, {5, 10, 0, 2, 0}});
  RunRecord b = WithStats({{2, 50, 3, 2, 1}, {3, 70, 1, 1, 0}});
  auto c = CompareEvictions(a, b, /*top=*/1);
  EXPECT_EQ(c.a.evictions, 3);
  EXPECT_EQ(c.a.distinct_evicted, 2);
  EXPECT_DOUBLE_EQ(c.a.evictions_per_storage, 1.5);
  EXPECT_EQ(c.a.direct_remats, 3);
  EXPECT_EQ(c.a.collateral_remats, 1);
  EXPECT_EQ(c.b.evictions_per_storage, 2.0);
  EXPECT_EQ(c.common, 1);  // storage 2
  EXPECT_EQ(c.either, 3);  // storages 1, 2, 3
  EXPECT_DOUBLE_EQ(c.jaccard, 1.0 / 3.0);
  ASSERT_EQ(c.a.most_evicted.size(), 1u);
  EXPECT_EQ(c.a.most_evicted[0].root_id, 1);
  EXPECT_EQ(c.b.most_evicted[0].root_id, 2);
}

TEST(CompareEvictions, NeedsStatistics) {
  RunRecord plain;
  EXPECT_THROW(CompareEvictions(plain, plain), std::invalid_argument);
  RunRecord none = WithStats({});
  EXPECT_EQ(CompareEvictions(none, none).jaccard, 1.0);
}

}  // namespace
}  // namespace dtrcheck
