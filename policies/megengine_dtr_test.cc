// MegEngine's DTR on worked examples computed from its source's formulas
// (MegEngine 47952c07: tensor_info.h eval_func, interpreter_impl.cpp
// find_best_tensor; megengine_dtr.cc lists how each input is read).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "policies/address_policies.h"
#include "policies/fake_view.h"
#include "policies/megengine_score.h"

namespace dtrcheck::policies {
namespace {

constexpr uint64_t kMiB = 1024 * 1024;

// eval_func(cost, free_mem, t, 1, 1, 1, 1.0001) for one tensor:
//   neighbour cost 3e8 (its evicted inputs' component), recomputed twice,
//   a 2 MiB block with 1 MiB free left and 1 MiB free right, last used at
//   clock 5e8, now 1e9 (MegEngine's timestamp is clock / 1e8: 5 apart):
//   (3e8 + 1e-3) * 1.0001^2 / ((2 + 1 + 1) MiB / MiB * (5 + 1e-3))
//   = 300000000.001 * 1.00020001 / 20.004 = 15000000.150020003...
TEST(MegEngineDtr, EvalFuncWorkedExample) {
  FakeView v;
  v.clock = 1000000000;
  v.storages[7] = {.size = 2 * kMiB,
                   .compute = 123,
                   .region = 300000000,
                   .last_access = 500000000,
                   .recomputes = 2};
  v.Gap(kMiB);
  v.Place(7, 2 * kMiB);
  v.Gap(kMiB);
  const double expected = (3e8 + 1e-3) * std::pow(1.0001, 2.0) / (4.0 * (5.0 + 1e-3));
  EXPECT_DOUBLE_EQ(MegEngineScore(7, v), expected);
  EXPECT_NEAR(MegEngineScore(7, v), 15000000.150020003, 1e-6);
}

// The tensor's own compute is not in the score (estimate_neighbor_cost sums
// the dropped neighbours only): with no evicted neighbour the numerator is
// the epsilon, and the free bytes beside a block make it cheaper to evict.
// a: 2 MiB, no free neighbour; b: 2 MiB with 2 MiB free beside it; same
// staleness (1e8 -> 1): a = 1e-3 / (2 * 1.001), b = 1e-3 / (4 * 1.001).
TEST(MegEngineDtr, FreeBytesBesideLowerTheScore) {
  FakeView v;
  v.clock = 200000000;
  v.storages[1] = {.size = 2 * kMiB, .compute = 999, .last_access = 100000000};
  v.storages[2] = {.size = 2 * kMiB, .compute = 1, .last_access = 100000000};
  v.Place(1, 2 * kMiB);
  v.Place(2, 2 * kMiB);
  v.Gap(2 * kMiB);
  EXPECT_DOUBLE_EQ(MegEngineScore(1, v), 1e-3 / (2.0 * 1.001));
  EXPECT_DOUBLE_EQ(MegEngineScore(2, v), 1e-3 / (4.0 * 1.001));
  EXPECT_EQ(MakeMegEngineDtr({})->ChooseVictims(v), std::vector<api::StorageHandle>{2});
}

// Candidates are tensors above evictee_minimum_size (size_exceeds_thd:
// memory > thd): exactly 1 MiB is not one. With no candidate there is no
// victim (find_best_tensor returns null).
TEST(MegEngineDtr, EvicteeMinimumSize) {
  FakeView v;
  v.clock = 200000000;
  v.storages[1] = {.size = kMiB, .region = 0, .last_access = 100000000};
  v.storages[2] = {.size = kMiB + 1, .region = 1000, .last_access = 100000000};
  v.Place(1, kMiB);
  v.Place(2, kMiB + 1);
  // 1 would score lower (no neighbour cost) but is not a candidate.
  EXPECT_EQ(MakeMegEngineDtr({})->ChooseVictims(v), std::vector<api::StorageHandle>{2});
  MegEngineOptions higher;
  higher.evictee_minimum_size = 2 * kMiB;
  EXPECT_TRUE(MakeMegEngineDtr(higher)->ChooseVictims(v).empty());
  MegEngineOptions zero;
  zero.evictee_minimum_size = 0;
  EXPECT_EQ(MakeMegEngineDtr(zero)->ChooseVictims(v), std::vector<api::StorageHandle>{1});
}

// Recomputations raise the score by 1.0001 per recompute: two otherwise
// equal tensors, the one recomputed less is evicted (ties: the first).
TEST(MegEngineDtr, RecomputeTimes) {
  FakeView v;
  v.clock = 200000000;
  v.storages[1] = {.size = 2 * kMiB, .region = 10, .last_access = 100000000, .recomputes = 3};
  v.storages[2] = {.size = 2 * kMiB, .region = 10, .last_access = 100000000, .recomputes = 1};
  v.Place(1, 2 * kMiB);
  v.Place(2, 2 * kMiB);
  EXPECT_DOUBLE_EQ(MegEngineScore(1, v) / MegEngineScore(2, v), std::pow(1.0001, 3.0) / 1.0001);
  EXPECT_EQ(MakeMegEngineDtr({})->ChooseVictims(v), std::vector<api::StorageHandle>{2});
  v.storages[1].recomputes = 1;
  EXPECT_EQ(MakeMegEngineDtr({})->ChooseVictims(v), std::vector<api::StorageHandle>{1});
}

// sqrt sampling, as find_best_tensor's loop: 10 candidates give sz = 3
// (3 * 3 <= 10 < 4 * 4); ti = rand() % 3, then after each scored candidate
// ti += rand() % 3, stopping past the end. Draws 1, 2, 2, (0): candidates
// 1, 3 and 5 are scored; the least of them wins even though candidate 0
// scores lower.
TEST(MegEngineDtr, SqrtSamplingVisitsTheDrawnCandidates) {
  FakeView v;
  v.clock = 200000000;
  std::vector<api::StorageHandle> candidates;
  for (int i = 0; i < 10; ++i) {
    // Scores fall with i except for candidate 0, the lowest of all.
    v.storages[i] = {
        .size = 2 * kMiB, .region = i == 0 ? 0 : 1000 - 10 * i, .last_access = 100000000};
    v.Place(i, 2 * kMiB);
    candidates.push_back(i);
  }
  v.draws = {1, 2, 2, 0};
  EXPECT_EQ(FindBestTensor(candidates, true, v), 5);
  EXPECT_EQ(v.drawn, 4u);
  // 4 candidates give sz = 2: draws 1, 1, 1 score candidates 1 and 2 (the
  // handles 2 and 3); the loop ends after sz of them.
  v.draws = {1, 1, 1};
  v.drawn = 0;
  EXPECT_EQ(FindBestTensor({1, 2, 3, 4}, true, v), 3);
  EXPECT_EQ(FindBestTensor(candidates, false, v), 0);
}

TEST(MegEngineDtr, OptionsFromTheEnvironment) {
  setenv("MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE", "4096", 1);
  setenv("MEGENGINE_DTR_SQRT_SAMPLING", "1", 1);
  MegEngineOptions o = MegEngineOptionsFromEnv();
  EXPECT_EQ(o.evictee_minimum_size, 4096u);
  EXPECT_TRUE(o.sqrt_sampling);
  setenv("MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE", "-1", 1);
  EXPECT_THROW(MegEngineOptionsFromEnv(), std::invalid_argument);
  unsetenv("MEGENGINE_DTR_EVICTEE_MINIMUM_SIZE");
  unsetenv("MEGENGINE_DTR_SQRT_SAMPLING");
  o = MegEngineOptionsFromEnv();
  EXPECT_EQ(o.evictee_minimum_size, 1048576u);
  EXPECT_FALSE(o.sqrt_sampling);
}

}  // namespace
}  // namespace dtrcheck::policies
