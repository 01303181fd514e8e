// PlacedMemory, the runtime's hook into the allocator models: a placement is
// all or nothing, a release frees the storage's block (and nothing for a
// storage never placed), the peak is where (reserved, allocated) was
// largest, and an option of another model is refused.
#include "sim/placed_memory.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

namespace dtrcheck {
namespace {

constexpr uint64_t kKiB = 1024;

TEST(PlacedMemory, AllOrNothing) {
  PlacedMemory m({.model = MemoryModel::kArena, .max_split_size_mb = {}}, 4 * kKiB);
  const std::vector<std::pair<StorageId, uint64_t>> fits = {{0, kKiB}, {1, kKiB}};
  ASSERT_TRUE(m.Place(fits));
  const std::vector<std::pair<StorageId, uint64_t>> too_much = {{2, kKiB}, {3, 2 * kKiB}};
  EXPECT_FALSE(m.Place(too_much));
  EXPECT_EQ(m.BlockOf(2).size, 0u);  // the first of the refused call was given back
  EXPECT_EQ(m.allocator().figures().allocated, 2 * kKiB);
  m.Release(0);
  m.Release(7);  // never placed: nothing
  EXPECT_EQ(m.allocator().figures().allocated, kKiB);
  m.CountEviction();
  const MemoryRecord r = m.Record();
  EXPECT_EQ(r.evictions_bytes_fit, 1);
  EXPECT_EQ(r.reserved_peak, 4 * kKiB);
  EXPECT_EQ(r.allocated_peak, 2 * kKiB);
  EXPECT_EQ(r.peak_reserved_minus_allocated, 2 * kKiB);
  EXPECT_EQ(r.peak_largest_free_block, 2 * kKiB);
}

TEST(PlacedMemory, CudaCachingPeakIsTheLargestReserved) {
  PlacedMemory m({.model = MemoryModel::kCudaCaching, .max_split_size_mb = {}}, 64 << 20);
  const std::vector<std::pair<StorageId, uint64_t>> a = {{0, 3 << 20}};
  ASSERT_TRUE(m.Place(a));  // one 20 MiB segment
  const MemoryRecord r = m.Record();
  EXPECT_EQ(r.reserved_peak, uint64_t{20} << 20);
  EXPECT_EQ(r.peak_reserved_minus_allocated, uint64_t{17} << 20);
  EXPECT_EQ(m.BlockOf(0).size, uint64_t{3} << 20);
}

TEST(PlacedMemory, RefusesAnOptionOfAnotherModel) {
  EXPECT_THROW(PlacedMemory({.model = MemoryModel::kArena, .max_split_size_mb = 40}, kKiB),
               std::invalid_argument);
  EXPECT_THROW(PlacedMemory({.model = MemoryModel::kCudaCaching, .max_split_size_mb = 5}, kKiB),
               std::invalid_argument);
  EXPECT_EQ(MemoryModelFromName("cuda-caching"), MemoryModel::kCudaCaching);
  EXPECT_FALSE(MemoryModelFromName("heap"));
}

// A fork's copy: its own allocator and blocks, under its own capacity; an
// arena placed only empty storages so far takes the new budget as its peak.
TEST(PlacedMemory, CopiesAreIndependentAndTakeTheirCapacity) {
  PlacedMemory m({.model = MemoryModel::kCudaCaching, .max_split_size_mb = {}}, 64 << 20);
  const std::vector<std::pair<StorageId, uint64_t>> a = {{0, 3 << 20}};
  ASSERT_TRUE(m.Place(a));
  PlacedMemory copy(m);
  EXPECT_EQ(copy.CapacityDemand(), uint64_t{20} << 20);
  EXPECT_TRUE(copy.SetCapacity(uint64_t{19} << 20).has_value());
  EXPECT_FALSE(copy.SetCapacity(uint64_t{20} << 20).has_value());
  copy.Release(0);
  EXPECT_EQ(copy.allocator().figures().allocated, 0u);
  EXPECT_EQ(m.allocator().figures().allocated, uint64_t{3} << 20);
  EXPECT_EQ(m.BlockOf(0).size, uint64_t{3} << 20);

  PlacedMemory arena({.model = MemoryModel::kArena, .max_split_size_mb = {}}, 1 << 20);
  const std::vector<std::pair<StorageId, uint64_t>> empty = {{0, 0}};
  ASSERT_TRUE(arena.Place(empty));
  EXPECT_EQ(arena.Record().reserved_peak, uint64_t{1} << 20);
  PlacedMemory forked(arena);
  ASSERT_FALSE(forked.SetCapacity(4 * kKiB).has_value());
  EXPECT_EQ(forked.Record().reserved_peak, 4 * kKiB);
  EXPECT_EQ(forked.Record().peak_largest_free_block, 4 * kKiB);
}

}  // namespace
}  // namespace dtrcheck
