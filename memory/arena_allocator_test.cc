// ArenaAllocator against what OneFlow's remat tests assert of its memory
// (python/oneflow/test/.../test_remat.py, test_dtr_work_on_simple_case_1:
// a 12 MB budget holds three 4 MB tensors and the fourth needs an eviction;
// the older test_dtr.py: a 20 KB budget holds five 4 KB tensors, and
// allocated_memory() is then 20 KB) and the placement rules of
// oneflow/core/vm/remat/allocator.cpp (best fit, piece start, merging).
#include "memory/arena_allocator.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace dtrcheck::memory {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * 1024;

TEST(ArenaAllocator, TwelveMiBHoldsThreeFourMiBTensors) {
  ArenaAllocator a(12 * kMiB);
  std::vector<Block> x;
  for (int i = 0; i < 3; ++i) {
    const auto b = a.Allocate(4 * kMiB);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->address, ArenaAllocator::kBase + static_cast<uint64_t>(i) * 4 * kMiB);
    x.push_back(*b);
  }
  EXPECT_EQ(a.figures().allocated, 12 * kMiB);
  EXPECT_FALSE(a.Allocate(4 * kMiB));
  a.Free(x[1]);  // an eviction in the middle: the next tensor lands there
  const auto again = a.Allocate(4 * kMiB);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->address, x[1].address);
}

TEST(ArenaAllocator, TwentyKiBHoldsFiveFourKiBTensors) {
  ArenaAllocator a(20 * kKiB);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(a.Allocate(4 * kKiB));
  EXPECT_EQ(a.figures().allocated, 20 * kKiB);
  EXPECT_FALSE(a.Allocate(4 * kKiB));
  EXPECT_EQ(a.figures().ooms, 1u);
}

TEST(ArenaAllocator, BestFitTakesTheSmallestHoleAtItsStart) {
  ArenaAllocator a(64 * kKiB);
  std::vector<Block> b;
  for (uint64_t size : {8 * kKiB, 4 * kKiB, 4 * kKiB, 4 * kKiB, 4 * kKiB}) {
    b.push_back(*a.Allocate(size));
  }
  a.Free(b[0]);  // an 8 KiB hole at the start
  a.Free(b[2]);  // a 4 KiB hole further on
  const auto fit = a.Allocate(3 * kKiB);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->address, b[2].address);
  EXPECT_EQ(fit->size, 3 * kKiB);
  EXPECT_EQ(a.FreeBytesAdjacent(fit->address), kKiB);
  // The 1 KiB left of the 4 KiB hole lies right of the block.
  EXPECT_EQ(a.FreeBytesBeside(fit->address), std::make_pair(uint64_t{0}, kKiB));
  EXPECT_EQ(a.FreeBytesBeside(b[1].address), std::make_pair(8 * kKiB, uint64_t{0}));
}

TEST(ArenaAllocator, FreePiecesMergeWithBothNeighbours) {
  ArenaAllocator a(12 * kKiB);
  const auto x = *a.Allocate(4 * kKiB);
  const auto y = *a.Allocate(4 * kKiB);
  const auto z = *a.Allocate(4 * kKiB);
  a.Free(x);
  a.Free(z);
  EXPECT_EQ(a.FreeBytesAdjacent(y.address), 8 * kKiB);
  EXPECT_EQ(a.FreeBytesBeside(y.address), std::make_pair(4 * kKiB, 4 * kKiB));
  EXPECT_EQ(a.figures().largest_free_block, 4 * kKiB);
  a.Free(y);
  ASSERT_EQ(a.Pieces().size(), 1u);
  EXPECT_EQ(a.figures().largest_free_block, 12 * kKiB);
}

// Fragmentation: 8 KiB free in two holes, an 8 KiB request refused.
TEST(ArenaAllocator, FragmentedHolesRefuseARequestTheirSumWouldHold) {
  ArenaAllocator a(16 * kKiB);
  std::vector<Block> b;
  for (int i = 0; i < 4; ++i) b.push_back(*a.Allocate(4 * kKiB));
  a.Free(b[0]);
  a.Free(b[2]);
  EXPECT_EQ(a.figures().allocated, 8 * kKiB);
  EXPECT_FALSE(a.Allocate(8 * kKiB));
}

TEST(ArenaAllocator, SizesRoundUpTo512Bytes) {
  ArenaAllocator a(4 * kKiB);
  EXPECT_EQ(a.Allocate(1)->size, 512u);
  EXPECT_EQ(a.Allocate(513)->size, 1024u);
  EXPECT_EQ(a.figures().reserved, 4 * kKiB);
  EXPECT_EQ(a.figures().peak_allocated, 1536u);
  EXPECT_EQ(a.Allocate(0)->size, 0u);
}

// The region is the budget and its best fit weighs the free piece at its
// end: a copy takes another capacity only before its first request.
TEST(ArenaAllocator, TakesAnotherCapacityOnlyBeforeItsFirstRequest) {
  ArenaAllocator a(16 * kKiB);
  EXPECT_EQ(a.CapacityDemand(), 0u);
  std::unique_ptr<Allocator> copy = a.Clone();
  ASSERT_FALSE(copy->SetCapacity(8 * kKiB).has_value());
  EXPECT_EQ(copy->figures().reserved, 8 * kKiB);
  EXPECT_EQ(copy->Pieces(), ArenaAllocator(8 * kKiB).Pieces());
  EXPECT_EQ(a.figures().reserved, 16 * kKiB);  // the original is unchanged
  a.Allocate(4 * kKiB);
  EXPECT_EQ(a.CapacityDemand(), UINT64_MAX);
  EXPECT_TRUE(a.SetCapacity(32 * kKiB).has_value());
  EXPECT_FALSE(a.SetCapacity(16 * kKiB).has_value());  // its own: nothing to change
  std::unique_ptr<Allocator> later = a.Clone();
  EXPECT_EQ(later->Pieces(), a.Pieces());
}

}  // namespace
}  // namespace dtrcheck::memory
