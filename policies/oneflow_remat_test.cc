// OneFlow's DTE and Coop on the states of OneFlow's own remat tests.
//
// python/oneflow/test/expensive/_test_remat.py (Oneflow-Inc/oneflow
// 86c82db85740aa6981d55482b6cfd6aa3a12c11e), test_remat_work_on_simple_case_1
// and _2 (the same program), run by test_remat.py with neither
// ONEFLOW_REMAT_HEURISTIC_DTE nor _DTR set, i.e. under Coop, in a 12 MB
// arena (a 488 MB placeholder with eviction disabled fills the rest of the
// 500 MB budget, at the start of the region):
//
//   x1 = ones(1M floats)  # 4 MB      x2 = x1 + 2;  del x1  (x1 evicted)
//   x3 = x2 + 2;  x4 = x3 + 2
//   x5 = x4 + 2  # asserts: x2 evicted, x3 and x4 in memory
//   x6 = x5 + 2  # asserts: x3 in memory, x4 evicted ("the eviction of x2
//                #          increases the cost of x3, so x4 is evicted")
//
// The state at each allocation, from OneFlow's code (no dataset of op
// times, so remat::GetEstimatedComputeTime: the bytes of an op's inputs and
// outputs; ones: 4 MB, each add: 8 MB; an op's outputs and inputs are
// accessed at its start, then time_now grows by its compute):
//   x1 at 0 (time -> 4M), x2 and x1 at 4M (-> 12M), x3, x2 at 12M (-> 20M),
//   x4, x3 at 20M (-> 28M). Placement (best fit, lowest address on ties):
//   x1 [0,4) x2 [4,8); x1 freed; x3 [0,4) (the lower of two 4 MB holes),
//   x4 [8,12) (MB past the placeholder).
//   x5 at time 28M, x4 pinned as its input: cost = (compute + evicted
//   inputs' component) / staleness (Coop's size is 1):
//     x3: 8M / (28M - 20M) = 1;  x2: (8M + 4M (x1)) / (28M - 12M) = 0.75.
//   The window of >= 4 MB of least cost is [x2]: evicted. x5 takes [4,8),
//   accessed with x4 at 28M (-> 36M); x2 joins x1's component (12M).
//   x6 at 36M, x5 pinned: x3: (8M + 12M) / (36M - 20M) = 1.25;
//     x4: 8M / (36M - 28M) = 1. [x4] is evicted, x3 stays.
#include <gtest/gtest.h>

#include "policies/address_policies.h"
#include "policies/fake_view.h"
#include "policies/oneflow_cost.h"

namespace dtrcheck::policies {
namespace {

constexpr uint64_t kM = 1024 * 1024;
enum : api::StorageHandle { kPlaceholder, kX1, kX2, kX3, kX4, kX5, kX6 };

// The arena when x5 is allocated.
FakeView BeforeX5() {
  FakeView v;
  v.clock = 28 * kM;
  v.storages[kPlaceholder] = {.size = 488 * kM, .pinned = true};
  v.storages[kX1] = {.size = 4 * kM, .compute = 4 * kM, .last_access = 4 * kM, .material = false};
  v.storages[kX2] = {.size = 4 * kM, .compute = 8 * kM, .region = 4 * kM, .last_access = 12 * kM};
  v.storages[kX3] = {.size = 4 * kM, .compute = 8 * kM, .last_access = 20 * kM};
  v.storages[kX4] = {.size = 4 * kM, .compute = 8 * kM, .last_access = 20 * kM, .locked = true};
  v.Place(kPlaceholder, 488 * kM);
  v.Place(kX3, 4 * kM);
  v.Place(kX2, 4 * kM);
  v.Place(kX4, 4 * kM);
  v.request = {4 * kM, true};
  return v;
}

// The arena when x6 is allocated (x2 evicted, x5 in its place).
FakeView BeforeX6() {
  FakeView v = BeforeX5();
  v.clock = 36 * kM;
  v.storages[kX2].material = false;
  v.storages[kX3].region = 12 * kM;  // x2's component: x1 + x2
  v.storages[kX4] = {.size = 4 * kM, .compute = 8 * kM, .last_access = 28 * kM};
  v.storages[kX5] = {.size = 4 * kM, .compute = 8 * kM, .last_access = 28 * kM, .locked = true};
  v.pieces[2].storage = kX5;
  return v;
}

TEST(OneFlowCoop, SimpleCaseEvictsX2ThenX4) {
  FakeView v = BeforeX5();
  EXPECT_DOUBLE_EQ(OneFlowCost(kX3, 1, v), 1.0);
  EXPECT_DOUBLE_EQ(OneFlowCost(kX2, 1, v), 0.75);
  auto coop = MakeOneFlowCoop();
  EXPECT_EQ(coop->ChooseVictims(v), std::vector<api::StorageHandle>{kX2});

  FakeView w = BeforeX6();
  EXPECT_DOUBLE_EQ(OneFlowCost(kX3, 1, w), 1.25);
  EXPECT_DOUBLE_EQ(OneFlowCost(kX4, 1, w), 1.0);
  EXPECT_EQ(coop->ChooseVictims(w), std::vector<api::StorageHandle>{kX4});
}

// DTE (EvictAndFindPieceLoop with the neighbourhood) decides the same two
// steps: no free piece lies beside any candidate, so every size is 4 MB.
TEST(OneFlowDte, SimpleCaseEvictsX2ThenX4) {
  auto dte = MakeOneFlowDte();
  FakeView v = BeforeX5();
  EXPECT_EQ(dte->ChooseVictims(v), std::vector<api::StorageHandle>{kX2});
  FakeView w = BeforeX6();
  EXPECT_EQ(dte->ChooseVictims(w), std::vector<api::StorageHandle>{kX4});
}

// DTE's size includes the free pieces beside a block: free [4 MB] a [4 MB]
// b [4 MB], a's cost numerator 1.5 (compute 12M over staleness 8M), b's 1.
// DTE: a 1.5 / 8M < b 1 / 4M, a is evicted; without the free piece (or by
// its own 4 MB, as OneFlow's DTR) a would cost 1.5 / 4M > b's.
TEST(OneFlowDte, FreeNeighbourhoodCountsInTheSize) {
  FakeView v;
  v.clock = 16 * kM;
  v.storages[1] = {.size = 4 * kM, .compute = 12 * kM, .last_access = 8 * kM};
  v.storages[2] = {.size = 4 * kM, .compute = 8 * kM, .last_access = 8 * kM};
  v.Gap(4 * kM);
  v.Place(1, 4 * kM);
  v.Place(2, 4 * kM);
  v.request = {8 * kM, true};
  EXPECT_DOUBLE_EQ(OneFlowCost(1, 8.0 * kM, v) * kM, 1.5 / 8);
  EXPECT_EQ(MakeOneFlowDte()->ChooseVictims(v), std::vector<api::StorageHandle>{1});
  EXPECT_EQ(DteVictim({v.pieces[1], v.pieces[2]}, v), 2);  // no free piece: b
}

// Coop: the contiguous window of at least the request with the least summed
// cost, reset at a locked piece. 8 MB wanted: [a b] (1 + 1) beats [c] (3);
// the windows across the locked piece d are not considered.
TEST(OneFlowCoop, CheapestContiguousWindow) {
  FakeView v;
  v.clock = 10;
  v.storages[1] = {.size = 4 * kM, .compute = 5, .last_access = 5};   // cost 1
  v.storages[2] = {.size = 4 * kM, .compute = 5, .last_access = 5};   // cost 1
  v.storages[3] = {.size = 8 * kM, .compute = 15, .last_access = 5};  // cost 3
  v.storages[4] = {.size = 4 * kM, .compute = 0, .last_access = 5, .locked = true};
  v.storages[5] = {.size = 4 * kM, .compute = 0, .last_access = 5};  // cost 0
  v.Place(3, 8 * kM);
  v.Place(1, 4 * kM);
  v.Place(2, 4 * kM);
  v.Place(4, 4 * kM);
  v.Place(5, 4 * kM);
  v.request = {8 * kM, true};
  EXPECT_EQ(MakeOneFlowCoop()->ChooseVictims(v), (std::vector<api::StorageHandle>{1, 2}));
  // A free piece costs 0 and counts its bytes toward an allocator's request:
  // [5 + 4 MB free] now costs 0.
  v.Gap(4 * kM);
  EXPECT_EQ(MakeOneFlowCoop()->ChooseVictims(v), (std::vector<api::StorageHandle>{5}));
  // Under the budget check free bytes free nothing: [1 2] again.
  v.request = {8 * kM, false};
  EXPECT_EQ(MakeOneFlowCoop()->ChooseVictims(v), (std::vector<api::StorageHandle>{1, 2}));
}

// No window of the requested size: no victim (OneFlow returns no piece).
TEST(OneFlowCoop, NoWindowNoVictim) {
  FakeView v;
  v.clock = 10;
  v.storages[1] = {.size = 4 * kM, .compute = 5, .last_access = 5};
  v.storages[2] = {.size = 4 * kM, .compute = 5, .last_access = 5, .pinned = true};
  v.storages[3] = {.size = 4 * kM, .compute = 5, .last_access = 5};
  v.Place(1, 4 * kM);
  v.Place(2, 4 * kM);
  v.Place(3, 4 * kM);
  v.request = {8 * kM, true};
  EXPECT_TRUE(MakeOneFlowCoop()->ChooseVictims(v).empty());
}

// A window does not span segments (cuda-caching): 1 and 2 are adjacent in
// the listing but in two segments.
TEST(OneFlowCoop, WindowsStayInTheirSegment) {
  FakeView v;
  v.clock = 10;
  v.storages[1] = {.size = 4 * kM, .compute = 5, .last_access = 5};
  v.storages[2] = {.size = 4 * kM, .compute = 5, .last_access = 5};
  v.storages[3] = {.size = 4 * kM, .compute = 50, .last_access = 5};
  v.Place(1, 4 * kM);
  v.Place(2, 4 * kM);
  v.Place(3, 4 * kM);
  v.pieces[1].segment = v.pieces[2].segment = v.pieces[1].address;
  v.request = {8 * kM, true};
  EXPECT_EQ(MakeOneFlowCoop()->ChooseVictims(v), (std::vector<api::StorageHandle>{2, 3}));
}

}  // namespace
}  // namespace dtrcheck::policies
