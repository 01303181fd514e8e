// PyTorch's own expectations of its CUDA caching allocator, as they apply to
// one stream without CUDA, asserted on the model (cuda_caching_allocator)
// while the reference (reference_allocator.h) runs the same steps and must
// agree with it after each one (allocator_differential.h). The statistics
// the model does not keep (active, inactive_split, per pool) are asserted on
// the reference. memory/README.md maps every upstream test to the case here
// or says why it does not apply.
//
// Sources (pytorch/pytorch; the allocator at 001074d25084fdb87a799823e395a50f5ec044d3,
// the tests at the versions the index stores):
//   - test/test_cuda.py at 000e43cdff99f30291164c1f2e90133f19fa83fb:
//     test_memory_allocation, test_memory_stats, test_out_of_memory,
//     test_out_of_memory_retry, test_set_per_process_memory_fraction,
//     test_allocator_settings, test_raises_oom, test_allocator_fuzz;
//   - test/test_cuda_multigpu.py at fc9325ea0d1cae1bbff1b67e6962e66fe562b39a:
//     _test_memory_stats_generator and _check_memory_stat_consistency;
//   - c10/cuda/CUDACachingAllocator.cpp's header comment and NativeCachingAllocator::allocate.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "memory/allocator_differential.h"
#include "memory/cuda_caching_allocator.h"

namespace dtrcheck::memory {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

// One model and its reference on the same steps; every step must agree.
class Both {
 public:
  explicit Both(uint64_t capacity, std::optional<uint64_t> max_split_mb = {})
      : d_({.kind = AllocatorKind::kCudaCaching,
            .capacity = capacity,
            .max_split_size_mb = max_split_mb}) {}
  // torch.empty of `bytes`: the block, or nullopt (out of memory).
  std::optional<Block> Alloc(uint64_t bytes) {
    const size_t live = d_.live().size();
    const std::string diff = d_.Step({false, bytes});
    EXPECT_EQ(diff, "");
    if (!d_.last_served()) return std::nullopt;
    return d_.live().size() > live ? d_.live().back() : Block{};
  }
  void Free(const Block& b) {
    if (b.size == 0) return;
    EXPECT_EQ(d_.FreeAddress(b.address), "");
  }
  Figures figures() const { return d_.model().figures(); }
  const ReferenceStats& stats() const { return d_.cuda_reference()->stats(); }
  std::vector<Piece> pieces() const { return d_.model().Pieces(); }

  // _check_memory_stat_consistency: the statistics are what the snapshot
  // (segments and their blocks) implies. Blocks are active exactly when
  // allocated (one stream: no events); a 2 MiB segment is the small pool's
  // (the large pool's segments are 10 MiB or more).
  void CheckConsistency() const {
    std::map<uint64_t, std::vector<Piece>> segments;
    for (const Piece& p : pieces()) segments[p.segment].push_back(p);
    ReferenceStats want;
    for (const auto& [base, blocks] : segments) {
      uint64_t total = 0;
      for (const Piece& p : blocks) total += p.size;
      const int pool = total == 2 * kMiB ? 1 : 0;
      want.segment += 1;
      want.pool_segment[pool] += 1;
      want.reserved_bytes += total;
      want.pool_reserved_bytes[pool] += total;
      const bool is_split = blocks.size() > 1;
      for (const Piece& p : blocks) {
        if (p.allocated) {
          want.allocation += 1;
          want.active += 1;
          want.allocated_bytes += p.size;
          want.pool_allocated_bytes[pool] += p.size;
          want.active_bytes += p.size;
        } else if (is_split) {
          want.inactive_split += 1;
          want.inactive_split_bytes += p.size;
        }
      }
    }
    const ReferenceStats& got = stats();
    EXPECT_EQ(got.segment, want.segment);
    EXPECT_EQ(got.reserved_bytes, want.reserved_bytes);
    EXPECT_EQ(got.allocation, want.allocation);
    EXPECT_EQ(got.allocated_bytes, want.allocated_bytes);
    EXPECT_EQ(got.active, want.active);
    EXPECT_EQ(got.active_bytes, want.active_bytes);
    EXPECT_EQ(got.inactive_split, want.inactive_split);
    EXPECT_EQ(got.inactive_split_bytes, want.inactive_split_bytes);
    for (int pool : {0, 1}) {
      EXPECT_EQ(got.pool_segment[pool], want.pool_segment[pool]) << pool;
      EXPECT_EQ(got.pool_reserved_bytes[pool], want.pool_reserved_bytes[pool]) << pool;
      EXPECT_EQ(got.pool_allocated_bytes[pool], want.pool_allocated_bytes[pool]) << pool;
    }
    // The model's figures are the aggregate of the same statistics.
    EXPECT_EQ(figures().reserved, want.reserved_bytes);
    EXPECT_EQ(figures().allocated, want.allocated_bytes);
    EXPECT_EQ(figures().segments, want.segment);
  }

 private:
  AllocatorDifferential d_;
};

// test_memory_allocation: caching_allocator_alloc(1) raises memory_allocated;
// its delete brings it back.
TEST(UpstreamExpectations, MemoryAllocation) {
  Both a(kGiB);
  const auto b = a.Alloc(1);
  ASSERT_TRUE(b);
  EXPECT_GT(a.figures().allocated, 0u);
  a.Free(*b);
  EXPECT_EQ(a.figures().allocated, 0u);
  a.CheckConsistency();
}

// test_memory_stats: torch.randn(256) makes active_bytes.all.current 1 KiB
// larger; its deletion gives it back.
TEST(UpstreamExpectations, MemoryStatsActiveBytes) {
  Both a(kGiB);
  const auto t = a.Alloc(256 * 4);
  ASSERT_TRUE(t);
  EXPECT_EQ(a.stats().active_bytes, 1024u);
  a.Free(*t);
  EXPECT_EQ(a.stats().active_bytes, 0u);
  EXPECT_EQ(a.figures().peak_allocated, 1024u);
}

// _test_memory_stats_generator (N = 35) with _check_memory_stat_consistency
// after every step, and the generator's assert_change rules: an allocation
// raises memory_allocated (an empty tensor does not) and its peak with it,
// reserved memory never shrinks without empty_cache, a free lowers
// memory_allocated or keeps it.
TEST(UpstreamExpectations, MemoryStatsGeneratorIsConsistentAtEveryStep) {
  Both a(64 * kGiB);
  uint64_t last_allocated = 0, last_reserved = 0;
  auto alloc = [&](uint64_t floats) {
    const auto b = a.Alloc(4 * floats);
    EXPECT_TRUE(b);
    const Figures f = a.figures();
    if (floats > 0) {
      EXPECT_GT(f.allocated, last_allocated);
      EXPECT_EQ(f.peak_allocated, f.allocated);
    } else {
      EXPECT_EQ(f.allocated, last_allocated);
    }
    EXPECT_GE(f.reserved, last_reserved);
    last_allocated = f.allocated;
    last_reserved = f.reserved;
    a.CheckConsistency();
    return b.value_or(Block{});
  };
  auto free = [&](const Block& b) {
    a.Free(b);
    EXPECT_LE(a.figures().allocated, last_allocated);
    EXPECT_EQ(a.figures().reserved, last_reserved);
    last_allocated = a.figures().allocated;
    a.CheckConsistency();
  };
  const uint64_t n = 35;
  std::vector<Block> tensors1 = {alloc(1), alloc(10 * 20), alloc(200 * 300 * 2000)};
  const uint64_t m1 = a.figures().allocated;
  std::vector<Block> tensors2;
  for (uint64_t i = 1; i <= n / 2; ++i) tensors2.push_back(alloc(i * i * 4));  // small ones
  for (uint64_t i = 5; i < n / 2 + 5; ++i)
    tensors2.push_back(alloc(i * i * 7 * i * 9 * i * 11));  // large ones
  tensors2.push_back(alloc(0));
  std::shuffle(tensors2.begin(), tensors2.end(), std::mt19937(35));  // torch.randperm
  for (size_t i = 0; i < tensors2.size() / 2; ++i) free(tensors2[i]);
  for (size_t i = tensors2.size() / 2; i < tensors2.size(); ++i) free(tensors2[i]);
  EXPECT_EQ(a.figures().allocated, m1);
  for (const Block& b : tensors1) free(b);
  EXPECT_EQ(a.figures().allocated, 0u);
}

// test_out_of_memory: 800000000 GiB is out of memory through malloc (an
// OOM counted); 8000000000 GiB is refused before it ("Tried to allocate
// more than 1EB memory", NativeCachingAllocator::allocate's one_exa_bytes:
// nothing counted, nothing released); the tensor made before is untouched.
TEST(UpstreamExpectations, OutOfMemoryAndMoreThanOneExabyte) {
  Both a(16 * kGiB);
  const auto tensor = a.Alloc(1024 * 4);
  ASSERT_TRUE(tensor);
  const auto cached = a.Alloc(40 * kMiB);
  ASSERT_TRUE(cached);
  a.Free(*cached);  // a cached segment: malloc's OOM path releases it
  EXPECT_FALSE(a.Alloc(800000000 * kGiB));
  EXPECT_EQ(a.figures().ooms, 1u);
  EXPECT_EQ(a.figures().device_frees, 1u);
  const auto again = a.Alloc(40 * kMiB);
  ASSERT_TRUE(again);
  a.Free(*again);
  EXPECT_FALSE(a.Alloc(8000000000 * kGiB));
  EXPECT_EQ(a.figures().ooms, 1u);          // not counted
  EXPECT_EQ(a.figures().device_frees, 1u);  // the cached segment stays
  EXPECT_EQ(a.figures().alloc_retries, 1u);
  EXPECT_EQ(a.pieces().front(), (Piece{tensor->address, 512 * 8, tensor->segment, true}));
}

// test_out_of_memory_retry: half the device twice is out of memory; once the
// first half is freed, the second is served (from the cached block).
TEST(UpstreamExpectations, OutOfMemoryRetry) {
  const uint64_t total = 1026 * kMiB;  // half, rounded to 2 MiB, fits once
  Both a(total);
  const auto first = a.Alloc(total / 2);
  ASSERT_TRUE(first);
  EXPECT_FALSE(a.Alloc(total / 2));
  EXPECT_EQ(a.figures().ooms, 1u);
  EXPECT_EQ(a.figures().alloc_retries, 1u);
  a.Free(*first);
  const auto second = a.Alloc(total / 2);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->address, first->address);
}

// test_set_per_process_memory_fraction: with half the device allowed,
// 0.499 of it less what is reserved is served, 0.5 of it is out of memory
// (here the device's capacity is the allowed half; alloc_block's
// set_fraction check and a refused cudaMalloc take the same path).
TEST(UpstreamExpectations, PerProcessMemoryFraction) {
  const uint64_t total = 8 * kGiB;
  Both a(total / 2);
  const auto tensor = a.Alloc(1024 * 4);
  ASSERT_TRUE(tensor);
  const uint64_t application = static_cast<uint64_t>(total * 0.499) - a.figures().peak_reserved;
  const auto tmp = a.Alloc(application);
  ASSERT_TRUE(tmp);
  a.Free(*tmp);
  EXPECT_FALSE(a.Alloc(total / 2));
  EXPECT_EQ(a.figures().ooms, 1u);
  EXPECT_EQ(a.pieces().front().address, tensor->address);  // still there
}

// test_raises_oom, both parametrizations: 1 Ti floats is out of memory,
// with max_split_size_mb unset and with 1024.
TEST(UpstreamExpectations, RaisesOom) {
  for (const std::optional<uint64_t> split :
       {std::optional<uint64_t>{}, std::optional<uint64_t>{1024}}) {
    Both a(80 * kGiB, split);
    EXPECT_FALSE(a.Alloc(uint64_t{1} << 40));  // torch.empty(1024^4) of int8
    EXPECT_FALSE(a.Alloc(uint64_t{4} << 40));  // and of float
    EXPECT_EQ(a.figures().ooms, 2u);
  }
}

// test_allocator_settings: 21 Mi floats add exactly their bytes to
// active_bytes (no rounding beyond 512 bytes by default), with and without
// max_split_size_mb:40; max_split_size_mb:2 is refused (as is anything <= 20,
// CUDAAllocatorConfig's parse). roundup_power2_divisions is not modelled.
TEST(UpstreamExpectations, AllocatorSettings) {
  const uint64_t nbytes = 4 * 21 * kMiB;
  for (const std::optional<uint64_t> split :
       {std::optional<uint64_t>{}, std::optional<uint64_t>{40}}) {
    Both a(kGiB, split);
    ASSERT_TRUE(a.Alloc(nbytes));
    EXPECT_EQ(a.stats().active_bytes, nbytes);
  }
  EXPECT_THROW(CudaCachingAllocator({.capacity = kGiB, .max_split_size_mb = 2}),
               std::invalid_argument);
}

// test_allocator_fuzz (random.seed(123) there; std::mt19937 here): 10,000
// random allocations of 2-20 MiB of int32 and frees, live data kept under
// 1 GiB / 10 elements; every tensor keeps its contents, i.e. no two live
// blocks overlap. Its empty_cache action is left out (the model has none).
TEST(UpstreamExpectations, AllocatorFuzz) {
  Both a(2 * kGiB);
  std::mt19937_64 rng(123);
  std::vector<Block> mem;
  uint64_t total = 0;  // elements
  for (int step = 0; step < 10000; ++step) {
    while (total >= kGiB / (4 * 10)) {
      const size_t i = rng() % mem.size();
      total -= mem[i].size / 4;
      a.Free(mem[i]);
      mem.erase(mem.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (mem.empty() || rng() % 2 == 0) {
      const uint64_t b = 2 * kMiB / 4 + rng() % (20 * kMiB / 4 - 2 * kMiB / 4);
      const auto block = a.Alloc(4 * b);
      ASSERT_TRUE(block) << step;
      mem.push_back(*block);
      total += block->size / 4;
    } else {
      const size_t i = rng() % mem.size();
      total -= mem[i].size / 4;
      a.Free(mem[i]);
      mem.erase(mem.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  std::vector<Block> sorted = mem;
  std::sort(sorted.begin(), sorted.end(),
            [](const Block& x, const Block& y) { return x.address < y.address; });
  for (size_t i = 1; i < sorted.size(); ++i)
    ASSERT_LE(sorted[i - 1].address + sorted[i - 1].size, sorted[i].address);
  a.CheckConsistency();
}

// The allocator's header comment: "requests between 1MB and 10MB will
// allocate and split a 20MB block"; small requests "are packed in 2MB
// buffers"; "blocks >= max_split_size are not allowed to be split".
TEST(UpstreamExpectations, HeaderCommentRules) {
  Both a(kGiB, 40);
  const auto mid = a.Alloc(3 * kMiB);
  ASSERT_TRUE(mid);
  EXPECT_EQ(a.figures().reserved, 20 * kMiB);
  EXPECT_EQ(a.stats().inactive_split_bytes, 17 * kMiB);
  const auto small = a.Alloc(1000);
  ASSERT_TRUE(small);
  EXPECT_EQ(a.figures().reserved, 22 * kMiB);
  const auto big = a.Alloc(50 * kMiB);  // oversize: its segment is not split
  ASSERT_TRUE(big);
  EXPECT_EQ(big->size, 50 * kMiB);
  a.CheckConsistency();
}

// The header comment says oversize cached blocks "still satisfy requests
// within 1MB of the oversize cached block size"; get_free_block's code
// allows any oversize request less than kLargeBuffer (20 MiB) smaller than
// the block. The code is what runs: a 60 MiB cached block serves 41 MiB.
TEST(UpstreamExpectations, OversizeBlockServesRequestsWithinTwentyMiBNotOne) {
  Both a(kGiB, 40);
  const auto big = a.Alloc(60 * kMiB);
  ASSERT_TRUE(big);
  a.Free(*big);
  const auto close = a.Alloc(41 * kMiB);
  ASSERT_TRUE(close);
  EXPECT_EQ(close->address, big->address);
  EXPECT_EQ(close->size, 60 * kMiB);
  EXPECT_EQ(a.stats().oversize_allocations, 1u);
  EXPECT_EQ(a.stats().oversize_segments, 1u);
}

}  // namespace
}  // namespace dtrcheck::memory
