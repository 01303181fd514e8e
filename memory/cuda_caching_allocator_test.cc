// CudaCachingAllocator against the expectations of PyTorch's own allocator
// (test/test_cuda.py: test_memory_allocation, the memory_stats generator,
// test_max_split_expandable without its expandable part) and against the
// rules its source states (c10/cuda/CUDACachingAllocator.cpp's header
// comment: small requests packed in 2 MiB, 1-10 MiB requests split a 20 MiB
// block, oversize blocks not split, cudaMalloc retried after freeing cached
// blocks).
#include "memory/cuda_caching_allocator.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace dtrcheck::memory {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

CudaCachingAllocator Make(uint64_t capacity, std::optional<uint64_t> max_split_mb = {}) {
  return CudaCachingAllocator({.capacity = capacity, .max_split_size_mb = max_split_mb});
}

TEST(CudaCachingAllocator, RoundSizeIs512Bytes) {
  EXPECT_EQ(CudaCachingAllocator::RoundSize(1), 512u);
  EXPECT_EQ(CudaCachingAllocator::RoundSize(512), 512u);
  EXPECT_EQ(CudaCachingAllocator::RoundSize(513), 1024u);
  // test_memory_snapshot's torch.rand(311, 411): 511,284 bytes.
  EXPECT_EQ(CudaCachingAllocator::RoundSize(311 * 411 * 4), 999u * 512);
}

TEST(CudaCachingAllocator, AllocationSizes) {
  EXPECT_EQ(CudaCachingAllocator::AllocationSize(512), 2 * kMiB);
  EXPECT_EQ(CudaCachingAllocator::AllocationSize(kMiB), 2 * kMiB);
  EXPECT_EQ(CudaCachingAllocator::AllocationSize(kMiB + 512), 20 * kMiB);
  EXPECT_EQ(CudaCachingAllocator::AllocationSize(10 * kMiB - 512), 20 * kMiB);
  EXPECT_EQ(CudaCachingAllocator::AllocationSize(10 * kMiB), 10 * kMiB);
  EXPECT_EQ(CudaCachingAllocator::AllocationSize(10 * kMiB + 512), 12 * kMiB);
}

// test_memory_allocation: one byte raises memory_allocated, its delete
// brings it back.
TEST(CudaCachingAllocator, OneByteRaisesAllocatedAndFreeRestoresIt) {
  auto a = Make(kGiB);
  const auto block = a.Allocate(1);
  ASSERT_TRUE(block);
  EXPECT_EQ(block->size, 512u);
  EXPECT_EQ(a.figures().allocated, 512u);
  EXPECT_EQ(a.figures().reserved, 2 * kMiB);
  a.Free(*block);
  EXPECT_EQ(a.figures().allocated, 0u);
  EXPECT_EQ(a.figures().reserved, 2 * kMiB);  // cached, not given back
}

TEST(CudaCachingAllocator, SmallRequestsArePackedInOneTwoMiBSegment) {
  auto a = Make(kGiB);
  const auto x = a.Allocate(1000);
  const auto y = a.Allocate(1000);
  ASSERT_TRUE(x && y);
  EXPECT_EQ(x->segment, y->segment);
  EXPECT_EQ(y->address, x->address + 1024);  // the remainder keeps the high address
  EXPECT_EQ(a.figures().segments, 1u);
  EXPECT_EQ(a.FreeBytesAdjacent(y->address), 2 * kMiB - 2048);
  EXPECT_EQ(a.FreeBytesAdjacent(x->address), 0u);
}

TEST(CudaCachingAllocator, MidSizedRequestsSplitATwentyMiBSegment) {
  auto a = Make(kGiB);
  const auto x = a.Allocate(3 * kMiB);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->size, 3 * kMiB);
  EXPECT_EQ(a.figures().reserved, 20 * kMiB);
  EXPECT_EQ(a.figures().largest_free_block, 17 * kMiB);
  const auto y = a.Allocate(5 * kMiB);
  ASSERT_TRUE(y);
  EXPECT_EQ(y->address, x->address + 3 * kMiB);
  EXPECT_EQ(a.figures().reserved, 20 * kMiB);
}

// Large pool: a remainder of at most 1 MiB is not split off; the request
// gets the whole block and allocated bytes count all of it.
TEST(CudaCachingAllocator, LargeRemainderOfOneMiBOrLessStaysWithTheBlock) {
  auto a = Make(kGiB);
  const auto split = a.Allocate(10 * kMiB + kMiB / 2);  // 12 MiB segment, 1.5 MiB left
  ASSERT_TRUE(split);
  EXPECT_EQ(split->size, 10 * kMiB + kMiB / 2);
  const auto whole = a.Allocate(11 * kMiB + kMiB / 2);  // 12 MiB segment, 0.5 MiB left
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->size, 12 * kMiB);
  EXPECT_EQ(a.figures().allocated, 10 * kMiB + kMiB / 2 + 12 * kMiB);
}

// Best fit by (size, address): of two equal free blocks the lower address.
TEST(CudaCachingAllocator, BestFitPrefersTheSmallestThenTheLowestAddress) {
  auto a = Make(kGiB);
  std::vector<Block> big;
  for (int i = 0; i < 3; ++i) big.push_back(*a.Allocate(30 * kMiB));
  a.Free(big[2]);
  a.Free(big[0]);
  const auto again = a.Allocate(30 * kMiB);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->address, big[0].address);
  const auto bigger = *a.Allocate(40 * kMiB);
  a.Free(bigger);
  a.Free(*again);
  const auto fit = a.Allocate(31 * kMiB);  // 32 MiB request: the 40 MiB block
  EXPECT_EQ(fit->address, bigger.address);
}

// Free neighbours merge only inside their segment.
TEST(CudaCachingAllocator, FreeBlocksMergeWithinTheirSegmentOnly) {
  auto a = Make(kGiB);
  const auto x = *a.Allocate(12 * kMiB);  // segment 1: 12 MiB, unsplit
  const auto y = *a.Allocate(12 * kMiB);  // segment 2, right after segment 1
  ASSERT_EQ(y.address, x.address + 12 * kMiB);
  a.Free(x);
  a.Free(y);
  const auto pieces = a.Pieces();
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(a.figures().largest_free_block, 12 * kMiB);
  // Within one segment, three blocks free in any order become one.
  auto b = Make(kGiB);
  const auto p = *b.Allocate(2 * kMiB);
  const auto q = *b.Allocate(2 * kMiB);
  const auto r = *b.Allocate(2 * kMiB);
  b.Free(p);
  b.Free(r);
  EXPECT_EQ(b.FreeBytesAdjacent(q.address), 2 * kMiB + 2 * kMiB + 14 * kMiB);
  b.Free(q);
  ASSERT_EQ(b.Pieces().size(), 1u);
  EXPECT_EQ(b.Pieces()[0].size, 20 * kMiB);
}

// The device refuses past its capacity; the allocator gives back its cached
// unsplit segments (release_cached_blocks) and retries.
TEST(CudaCachingAllocator, RefusedCudaMallocReleasesCachedBlocksAndRetries) {
  auto a = Make(40 * kMiB);
  const auto x = *a.Allocate(3 * kMiB);  // a 20 MiB segment
  a.Free(x);
  const auto y = a.Allocate(30 * kMiB);
  ASSERT_TRUE(y);
  const Figures f = a.figures();
  EXPECT_EQ(f.alloc_retries, 1u);
  EXPECT_EQ(f.device_frees, 1u);
  EXPECT_EQ(f.reserved, 30 * kMiB);
  EXPECT_EQ(f.peak_reserved, 30 * kMiB);
}

// A split segment cannot be given back: out of memory, though the bytes
// alone (3 + 30 of 40 MiB) would fit.
TEST(CudaCachingAllocator, SplitSegmentsStayAndTheRequestIsRefused) {
  auto a = Make(40 * kMiB);
  const auto x = *a.Allocate(3 * kMiB);
  EXPECT_FALSE(a.Allocate(30 * kMiB));
  EXPECT_EQ(a.figures().ooms, 1u);
  EXPECT_EQ(a.figures().reserved, 20 * kMiB);
  EXPECT_EQ(a.BlockAt(x.address), x);
}

TEST(CudaCachingAllocator, OversizeBlocksServeOnlyCloseOversizeRequests) {
  auto a = Make(kGiB, 40);
  const auto big = *a.Allocate(60 * kMiB);
  a.Free(big);
  // A request below max_split_size does not get the oversize block.
  const auto small = *a.Allocate(30 * kMiB);
  EXPECT_NE(small.segment, big.segment);
  // An oversize request gets it if it is less than 20 MiB larger, unsplit.
  const auto close = *a.Allocate(50 * kMiB);
  EXPECT_EQ(close.address, big.address);
  EXPECT_EQ(close.size, 60 * kMiB);
  a.Free(close);
  const auto far = *a.Allocate(40 * kMiB);  // 60 >= 40 + 20: refused, new segment
  EXPECT_NE(far.segment, big.segment);
}

// release_available_cached_blocks: the smallest single oversize block of at
// least max(request, max_split_size) goes first, and alone.
TEST(CudaCachingAllocator, ReleaseAvailableFreesOneLargeEnoughOversizeBlock) {
  auto a = Make(100 * kMiB, 21);
  const auto b44 = *a.Allocate(44 * kMiB);
  const auto b50 = *a.Allocate(50 * kMiB);
  a.Free(b44);
  a.Free(b50);
  const auto x = a.Allocate(22 * kMiB);  // 44 >= 22 + 20: no cached fit
  ASSERT_TRUE(x);
  const Figures f = a.figures();
  EXPECT_EQ(f.device_frees, 1u);
  EXPECT_EQ(f.alloc_retries, 0u);  // served before release_cached_blocks
  EXPECT_EQ(f.reserved, 50 * kMiB + 22 * kMiB);
  EXPECT_EQ(f.largest_free_block, 50 * kMiB);
}

// test_max_split_expandable, its non-expandable part: 120 MiB allowed,
// max_split_size_mb 40; three 40 MiB tensors fill it, a fourth is out of
// memory; once they are freed, 120 MiB is served by releasing all three
// oversize blocks (largest first) and retrying.
TEST(CudaCachingAllocator, MaxSplitExpandableWithoutExpandableSegments) {
  auto a = Make(120 * kMiB, 40);
  const auto x = *a.Allocate(40 * kMiB);
  const auto y = *a.Allocate(40 * kMiB);
  const auto z = *a.Allocate(40 * kMiB);
  EXPECT_FALSE(a.Allocate(40 * kMiB));
  a.Free(x);
  a.Free(y);
  a.Free(z);
  const auto all = a.Allocate(120 * kMiB);
  ASSERT_TRUE(all);
  EXPECT_EQ(a.figures().device_frees, 3u);
  EXPECT_EQ(a.figures().ooms, 1u);
  EXPECT_EQ(a.figures().alloc_retries, 1u);  // the refused one's; this one needed none
  EXPECT_EQ(a.figures().reserved, 120 * kMiB);
}

// The memory_stats generator of test_cuda.py (N = 35): every allocation
// raises allocated bytes (an empty tensor does not), a raise moves the peak
// to the current value, frees return allocated bytes to where they were.
TEST(CudaCachingAllocator, MemoryStatsGeneratorOfTestCuda) {
  auto a = Make(64 * kGiB);
  uint64_t last = 0;
  auto floats = [&](uint64_t n) {
    const auto b = a.Allocate(4 * n);
    EXPECT_TRUE(b);
    const Figures f = a.figures();
    if (n > 0) {
      EXPECT_GT(f.allocated, last);
      EXPECT_EQ(f.peak_allocated, f.allocated) << n;  // peak never reset here
    } else {
      EXPECT_EQ(f.allocated, last);
    }
    last = f.allocated;
    return *b;
  };
  const int n = 35;
  std::vector<Block> tensors1 = {floats(1), floats(10 * 20), floats(200 * 300 * 2000)};
  const uint64_t m1 = last;
  std::vector<Block> tensors2;
  for (uint64_t i = 1; i <= n / 2; ++i) tensors2.push_back(floats(i * i * 4));
  for (uint64_t i = 5; i < n / 2 + 5; ++i) tensors2.push_back(floats(i * i * 7 * i * 9 * i * 11));
  tensors2.push_back(floats(0));
  for (int i = 0; i < n / 2; ++i) {
    a.Free(tensors2.front());
    tensors2.erase(tensors2.begin());
    EXPECT_LE(a.figures().allocated, last);
    last = a.figures().allocated;
  }
  for (auto& t : tensors2) a.Free(t);
  EXPECT_EQ(a.figures().allocated, m1);
  for (auto& t : tensors1) a.Free(t);
  EXPECT_EQ(a.figures().allocated, 0u);
  EXPECT_GE(a.figures().peak_reserved, a.figures().peak_allocated);
}

TEST(CudaCachingAllocator, EmptyRequestsTakeNothing) {
  auto a = Make(kMiB);
  const auto b = a.Allocate(0);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->size, 0u);
  EXPECT_EQ(a.figures().reserved, 0u);
  a.Free(*b);
  EXPECT_TRUE(a.Pieces().empty());
}

TEST(CudaCachingAllocator, RefusesBadOptions) {
  EXPECT_THROW(Make(kGiB, 20), std::invalid_argument);
  EXPECT_NO_THROW(Make(kGiB, 21));
  EXPECT_THROW(CudaCachingAllocator(
                   {.capacity = kGiB, .max_split_size_mb = {}, .expandable_segments = true}),
               std::invalid_argument);
}

TEST(CudaCachingAllocator, FreeOfABlockNotHandedOutThrows) {
  auto a = Make(kGiB);
  const auto x = *a.Allocate(kMiB);
  EXPECT_THROW(a.Free(Block{x.address + 512, 512, x.segment}), std::out_of_range);
  EXPECT_THROW(a.Free(Block{x.address, 512, x.segment}), std::invalid_argument);
}

// Forks (a sweep copies one run at many budgets): the capacity decides only
// whether a cudaMalloc succeeds, so a copy given any capacity at least the
// largest reserved + segment size asked for so far is the allocator that
// capacity would have made; below it, or after a refused cudaMalloc, no.
TEST(CudaCachingAllocator, ClonesAndTakesACapacityAboveItsDemand) {
  CudaCachingAllocator a = Make(kGiB);
  const Block x = *a.Allocate(3 * kMiB);  // a 20 MiB segment
  const Block y = *a.Allocate(kMiB);      // a 2 MiB one
  EXPECT_EQ(a.CapacityDemand(), 22 * kMiB);
  std::unique_ptr<Allocator> copy = a.Clone();
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->Pieces(), a.Pieces());
  EXPECT_TRUE(copy->SetCapacity(21 * kMiB).has_value());  // the 2 MiB segment would fail
  ASSERT_FALSE(copy->SetCapacity(30 * kMiB).has_value());
  // Independent of the original, and as a 30 MiB device from the start.
  copy->Free(x);
  EXPECT_EQ(a.figures().allocated, 3 * kMiB + kMiB);
  CudaCachingAllocator fresh = Make(30 * kMiB);
  const Block fx = *fresh.Allocate(3 * kMiB);
  fresh.Allocate(kMiB);
  fresh.Free(fx);
  EXPECT_EQ(copy->Pieces(), fresh.Pieces());
  EXPECT_EQ(copy->Allocate(20 * kMiB).has_value(), fresh.Allocate(20 * kMiB).has_value());
  EXPECT_EQ(copy->Pieces(), fresh.Pieces());
  (void)y;
  // After a refusal, only the same capacity.
  CudaCachingAllocator small = Make(4 * kMiB);
  EXPECT_FALSE(small.Allocate(3 * kMiB));
  EXPECT_EQ(small.CapacityDemand(), UINT64_MAX);
  EXPECT_TRUE(small.SetCapacity(kGiB).has_value());
  EXPECT_FALSE(small.SetCapacity(4 * kMiB).has_value());
}

}  // namespace
}  // namespace dtrcheck::memory
