// RegionUpkeep on its own, on a chain of four storages 0 -> 1 -> 2 -> 3
// (each the child of the one before) with computes 10, 20, 30, 40. The
// expected regions follow from Region.rebuild's definition
// (simrd/optimization/region.py): the evicted storages reachable from the
// base, the material ones at their edge, the interior's compute, and one
// heuristic access per adjacency entry of the base and of each interior
// storage. Whole runs are compared with simrd by the parity tests and with
// the walk by region_update_test.
#include "sim/region_upkeep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "sim/simrd_errors.h"

namespace dtrcheck {
namespace {

std::vector<StorageId> Sorted(const IdSet& set) {
  std::vector<StorageId> v;
  set.ForEach([&](StorageId x) { v.push_back(x); });
  std::sort(v.begin(), v.end());
  return v;
}

class Chain : public ::testing::Test {
 protected:
  void Build(RegionRebuilds mode, std::vector<bool> material) {
    upkeep_.emplace(mode, &accesses_, &marks_, &marks2_);
    // Children: 0 -> 1 -> 2 -> 3; parents the other way.
    upkeep_->Reserve({1, 1, 1, 0}, {0, 1, 1, 1}, /*updatable=*/true);
    for (StorageId s = 0; s < 4; ++s) {
      marks_.AddSlot();
      marks2_.AddSlot();
      upkeep_->AddStorage();
      upkeep_->SetCompute(s, 10 * (s + 1), /*first=*/true);
    }
    for (StorageId s = 0; s < 3; ++s) upkeep_->AddEdge(s, s + 1, /*child_is_new=*/false);
    for (StorageId s = 0; s < 4; ++s) upkeep_->SetMaterial(s, material[s]);
  }
  Int accesses_ = 0;
  EpochMarks marks_, marks2_;
  std::optional<RegionUpkeep> upkeep_;
};

TEST_F(Chain, RebuildWalksToTheMaterialEdgeBothWays) {
  Build(RegionRebuilds::kWalk, {true, false, false, true});
  Region forward, backward;
  upkeep_->Rebuild(forward, 0, /*reverse=*/false);
  EXPECT_EQ(Sorted(forward.interior), (std::vector<StorageId>{1, 2}));
  EXPECT_EQ(Sorted(forward.frontier), (std::vector<StorageId>{3}));
  EXPECT_TRUE(forward.compute == 20 + 30);
  EXPECT_TRUE(accesses_ == 3);  // the rows of 0, 1 and 2
  upkeep_->Rebuild(backward, 3, /*reverse=*/true);
  EXPECT_EQ(Sorted(backward.interior), (std::vector<StorageId>{1, 2}));
  EXPECT_EQ(Sorted(backward.frontier), (std::vector<StorageId>{0}));
  EXPECT_TRUE(accesses_ == 6);
  EXPECT_FALSE(forward.walked);  // the kWalk mode never updates
  EXPECT_EQ(upkeep_->updates(), 0);
}

// Storage 2 turns material: the update drops it from the interior and puts
// it on the frontier in place of 3, which 2 now hides; the checked mode
// compares the result with a walk and throws on any difference.
TEST_F(Chain, UpdateAfterAStorageTurnsMaterialEqualsTheWalk) {
  Build(RegionRebuilds::kUpdateChecked, {true, false, false, true});
  Region forward;
  upkeep_->Rebuild(forward, 0, false);
  ASSERT_TRUE(forward.walked);
  upkeep_->SetMaterial(2, true);
  const Int before = accesses_;
  upkeep_->Rebuild(forward, 0, false);
  EXPECT_EQ(upkeep_->updates(), 1);
  EXPECT_EQ(Sorted(forward.interior), (std::vector<StorageId>{1}));
  EXPECT_EQ(Sorted(forward.frontier), (std::vector<StorageId>{2}));
  EXPECT_TRUE(forward.compute == 20);
  EXPECT_TRUE(accesses_ - before == 2);  // the rows of 0 and 1
}

// Storage 1 is evicted: 0's region absorbs 1's, as Region.absorb does,
// and ends where a fresh walk ends.
TEST_F(Chain, AbsorbGivesWhatAWalkGives) {
  Build(RegionRebuilds::kWalk, {true, true, true, true});
  Region of0, of1;
  upkeep_->Rebuild(of0, 0, false);
  upkeep_->Rebuild(of1, 1, false);
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{1}));
  upkeep_->SetMaterial(1, false);
  const Int before = accesses_;
  upkeep_->Absorb(of0, false, 1, of1);
  EXPECT_TRUE(accesses_ - before == 1);  // one per storage added to the interior
  Region walked;
  upkeep_->Rebuild(walked, 0, false);
  EXPECT_EQ(Sorted(of0.interior), Sorted(walked.interior));
  EXPECT_EQ(Sorted(of0.frontier), Sorted(walked.frontier));
  EXPECT_TRUE(of0.compute == walked.compute);
  EXPECT_TRUE(of0.compute == 20);
}

// After an absorb of two walked regions, the union is updated, not walked,
// when the absorbed storage turns material again: the checked mode walks too
// and throws on any difference.
TEST_F(Chain, AbsorbedRegionIsUpdatedNextTime) {
  Build(RegionRebuilds::kUpdateChecked, {true, true, true, true});
  Region of0, of1;
  upkeep_->Rebuild(of0, 0, false);
  upkeep_->Rebuild(of1, 1, false);
  upkeep_->SetMaterial(1, false);
  upkeep_->Absorb(of0, false, 1, of1);
  EXPECT_EQ(upkeep_->kept_absorbs(), 1);
  EXPECT_EQ(Sorted(of0.interior), (std::vector<StorageId>{1}));
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{2}));
  upkeep_->SetMaterial(1, true);
  const Int before = accesses_;
  upkeep_->Rebuild(of0, 0, false);
  EXPECT_EQ(upkeep_->updates(), 1);
  EXPECT_EQ(Sorted(of0.interior), (std::vector<StorageId>{}));
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{1}));
  EXPECT_TRUE(of0.compute == 0);
  EXPECT_TRUE(accesses_ - before == 1);  // the row of 0
}

// Edges gained after a walk, by an evicted interior storage and by the base
// (each an operator's argument): the update follows them as a walk would.
// Storages 0 -> 1 -> 2 first; then 1 -> 3 and 0 -> 4, with 3 and 4 material.
TEST(RegionUpdate, FollowsEdgesGainedSinceTheWalk) {
  Int accesses = 0;
  EpochMarks marks, marks2;
  RegionUpkeep upkeep(RegionRebuilds::kUpdateChecked, &accesses, &marks, &marks2);
  upkeep.Reserve({2, 2, 0, 0, 0}, {0, 1, 1, 1, 1}, /*updatable=*/true);
  for (StorageId s = 0; s < 5; ++s) {
    marks.AddSlot();
    marks2.AddSlot();
    upkeep.AddStorage();
    upkeep.SetCompute(s, 10 * (s + 1), /*first=*/true);
  }
  upkeep.AddEdge(0, 1, /*child_is_new=*/false);
  upkeep.AddEdge(1, 2, /*child_is_new=*/false);
  for (StorageId s : {0, 2, 3, 4}) upkeep.SetMaterial(s, true);
  Region of0;
  upkeep.Rebuild(of0, 0, false);
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{2}));
  upkeep.AddEdge(1, 3, /*child_is_new=*/false);
  upkeep.Rebuild(of0, 0, false);
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{2, 3}));
  upkeep.AddEdge(0, 4, /*child_is_new=*/false);
  const Int before = accesses;
  upkeep.Rebuild(of0, 0, false);
  EXPECT_EQ(upkeep.updates(), 2);
  EXPECT_EQ(Sorted(of0.interior), (std::vector<StorageId>{1}));
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{2, 3, 4}));
  EXPECT_TRUE(of0.compute == 20);
  EXPECT_TRUE(accesses - before == 4);  // the rows of 0 and 1, two entries each
}

// A new storage's first parent edges (child_is_new) are no change for the
// regions that meet it; a parent edge it gains later (an alias's operator)
// is one, and the update must follow it. Storages 0 -> 1 -> 2, created in
// that order, 1 evicted: the reverse region of 2 holds 1 inside and 0 at
// its edge. Then 1 gains parent 3, material: the update (checked against
// a walk, which throws on a difference) must put 3 on the frontier.
TEST(RegionUpdate, FirstParentEdgesAreNoChangeLaterOnesAre) {
  Int accesses = 0;
  EpochMarks marks, marks2;
  RegionUpkeep upkeep(RegionRebuilds::kUpdateChecked, &accesses, &marks, &marks2);
  upkeep.Reserve({1, 1, 0, 1}, {0, 2, 1, 0}, /*updatable=*/true);
  auto add_storage = [&](StorageId s) {
    marks.AddSlot();
    marks2.AddSlot();
    upkeep.AddStorage();
    upkeep.SetCompute(s, 10 * (s + 1), /*first=*/true);
  };
  add_storage(0);
  add_storage(1);
  upkeep.AddEdge(0, 1, /*child_is_new=*/true);
  add_storage(2);
  upkeep.AddEdge(1, 2, /*child_is_new=*/true);
  for (StorageId s : {0, 2}) upkeep.SetMaterial(s, true);
  Region rev_of2;
  upkeep.Rebuild(rev_of2, 2, true);
  EXPECT_EQ(Sorted(rev_of2.interior), (std::vector<StorageId>{1}));
  EXPECT_EQ(Sorted(rev_of2.frontier), (std::vector<StorageId>{0}));
  upkeep.Rebuild(rev_of2, 2, true);  // nothing changed since the walk
  EXPECT_EQ(upkeep.updates(), 1);
  add_storage(3);
  upkeep.SetMaterial(3, true);
  upkeep.AddEdge(3, 1, /*child_is_new=*/false);
  EXPECT_NO_THROW(upkeep.Rebuild(rev_of2, 2, true));
  EXPECT_EQ(Sorted(rev_of2.frontier), (std::vector<StorageId>{0, 3}));
  EXPECT_TRUE(rev_of2.compute == 20);
}

// Edges an interior storage gained while material, before it was evicted
// again, count only if it is still reached. Storages 0 -> 1 -> 2, 1 and 2
// evicted; then 2 is rematerialized, becomes the argument of operators
// whose results are 3 (evicted since) and 4 (material), and is evicted
// again. If 1 turns material, it cuts 2 off, with its new edges: the
// update (checked against a walk, which throws on a difference) is taken.
// If 1 stays evicted, the edge 2 -> 3 leads out of the region, which only
// a walk follows.
void RebuildAfterNewEdgesOfAnEvictedStorage(bool cut_it_off) {
  Int accesses = 0;
  EpochMarks marks, marks2;
  RegionUpkeep upkeep(RegionRebuilds::kUpdateChecked, &accesses, &marks, &marks2);
  upkeep.Reserve({1, 1, 2, 0, 0}, {0, 1, 1, 1, 1}, /*updatable=*/true);
  auto add_storage = [&](StorageId s) {
    marks.AddSlot();
    marks2.AddSlot();
    upkeep.AddStorage();
    upkeep.SetCompute(s, 10 * (s + 1), /*first=*/true);
  };
  for (StorageId s = 0; s < 3; ++s) add_storage(s);
  upkeep.AddEdge(0, 1, /*child_is_new=*/true);
  upkeep.AddEdge(1, 2, /*child_is_new=*/true);
  upkeep.SetMaterial(0, true);
  Region of0;
  upkeep.Rebuild(of0, 0, false);
  EXPECT_EQ(Sorted(of0.interior), (std::vector<StorageId>{1, 2}));
  upkeep.SetMaterial(2, true);
  for (StorageId s : {3, 4}) {
    add_storage(s);
    upkeep.AddEdge(2, s, /*child_is_new=*/true);
    upkeep.SetMaterial(s, true);
  }
  upkeep.SetMaterial(3, false);
  upkeep.SetMaterial(2, false);
  if (cut_it_off) upkeep.SetMaterial(1, true);
  EXPECT_NO_THROW(upkeep.Rebuild(of0, 0, false));
  if (cut_it_off) {
    EXPECT_EQ(upkeep.updates(), 1);
    EXPECT_EQ(Sorted(of0.interior), (std::vector<StorageId>{}));
    EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{1}));
    EXPECT_TRUE(of0.compute == 0);
  } else {
    EXPECT_EQ(upkeep.updates(), 0);
    EXPECT_EQ(Sorted(of0.interior), (std::vector<StorageId>{1, 2, 3}));
    EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{4}));
    EXPECT_TRUE(of0.compute == 20 + 30 + 40);
  }
}

TEST(RegionUpdate, NewEdgesOfAStorageCutOffLeadNowhere) {
  RebuildAfterNewEdgesOfAnEvictedStorage(/*cut_it_off=*/true);
}

TEST(RegionUpdate, NewEdgesOutOfTheRegionTakeAWalk) {
  RebuildAfterNewEdgesOfAnEvictedStorage(/*cut_it_off=*/false);
}

// A long chain 0 -> 1 -> ... -> 299, evicted but for 0 and 100: the
// regions of 0 (interior 1..99) and of 100 (interior 101..299) are dense
// bitmaps, and evicting 100 unites them a bitmap word at a time
// (SumMasked) while the computes fit an int64, a storage at a time
// otherwise. Either way the absorbed region is what a walk gives: the
// same interior, the sum of the computes 1..299, one access per storage
// added, and (checked by the update that follows, which walks too) the
// same count of accesses for its next rebuild.
void AbsorbDenseRegions(Int huge_compute) {
  constexpr StorageId kN = 300, kCut = 100;
  Int accesses = 0;
  EpochMarks marks, marks2;
  RegionUpkeep upkeep(RegionRebuilds::kUpdateChecked, &accesses, &marks, &marks2);
  std::vector<uint32_t> children(kN, 1), parents(kN, 1);
  children[kN - 1] = 0;
  parents[0] = 0;
  upkeep.Reserve(children, parents, /*updatable=*/true);
  Int total = 0;
  for (StorageId s = 0; s < kN; ++s) {
    marks.AddSlot();
    marks2.AddSlot();
    upkeep.AddStorage();
    const Int compute = s == 200 ? huge_compute : Int(7 * s + 1);
    upkeep.SetCompute(s, compute, /*first=*/true);
    if (s > 0) total += compute;
  }
  for (StorageId s = 0; s + 1 < kN; ++s) upkeep.AddEdge(s, s + 1, /*child_is_new=*/false);
  for (StorageId s = 0; s < kN; ++s) upkeep.SetMaterial(s, s == 0 || s == kCut);
  Region of0, of_cut;
  upkeep.Rebuild(of0, 0, false);
  upkeep.Rebuild(of_cut, kCut, false);
  upkeep.SetMaterial(kCut, false);
  const Int before = accesses;
  upkeep.Absorb(of0, false, kCut, of_cut);
  EXPECT_TRUE(accesses - before == kN - kCut);  // 100..299
  EXPECT_EQ(upkeep.kept_absorbs(), 1);
  Region walked;
  upkeep.Rebuild(walked, 0, false);
  EXPECT_EQ(Sorted(of0.interior), Sorted(walked.interior));
  EXPECT_TRUE(of0.frontier.empty());
  EXPECT_TRUE(of0.compute == walked.compute);
  EXPECT_TRUE(of0.compute == total);
  // The absorbed region's next rebuild, after 298 turns material, updates
  // it (cutting off 299); the checked mode walks as well and throws if the
  // sets, the compute or the count of accesses differ.
  upkeep.SetMaterial(kN - 2, true);
  EXPECT_NO_THROW(upkeep.Rebuild(of0, 0, false));
  EXPECT_EQ(upkeep.updates(), 1);
  EXPECT_EQ(Sorted(of0.frontier), (std::vector<StorageId>{kN - 2}));
}

TEST(RegionAbsorb, DenseRegionsUniteAWordAtATime) { AbsorbDenseRegions(Int(1) << 40); }

TEST(RegionAbsorb, DenseRegionsWithComputesBeyondInt64) { AbsorbDenseRegions(Int(1) << 100); }

TEST_F(Chain, SimrdsAssertionsHold) {
  Build(RegionRebuilds::kWalk, {true, false, true, true});
  Region region;
  EXPECT_THROW(upkeep_->Rebuild(region, 1, false), SimrdAssertion);  // base evicted
  upkeep_->Rebuild(region, 2, false);
  Region of3;
  upkeep_->Rebuild(of3, 3, false);
  // 3 is still material: it cannot be absorbed.
  EXPECT_THROW(upkeep_->Absorb(region, false, 3, of3), SimrdAssertion);
}

}  // namespace
}  // namespace dtrcheck
