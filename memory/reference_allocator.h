// Deliberately simple reference allocators: the oracle the allocator models
// (cuda_caching_allocator, arena_allocator) are compared with, step by step
// (allocator_sequence_test, fuzz/allocator_fuzzer). One address-sorted
// vector of pieces, every search a linear scan, no trees: slow (O(n) per
// operation) and small enough to read against the sources it follows.
//
// Written from the sources, not from the models (issue 42, item 2):
//   - ReferenceCudaCaching: pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp
//     at commit 001074d25084fdb87a799823e395a50f5ec044d3, DeviceCachingAllocator
//     as one stream sees it: malloc (round_size, get_pool,
//     get_allocation_size, get_free_block, alloc_block,
//     release_available_cached_blocks, release_cached_blocks, should_split,
//     alloc_found_block), free / free_block / try_merge_blocks, release_block,
//     and the statistics those functions keep (DeviceStats: allocated,
//     reserved, active, inactive_split, segment, oversize counts, retries,
//     OOMs, device allocations and frees).
//   - ReferenceArena: Oneflow-Inc/oneflow oneflow/core/vm/remat/allocator.cpp
//     at commit 057f65205ce483cd7c69dde5b1288fac371efc1a, DtrEpAllocator with
//     one group and no small-piece area (InitMemory, FindPiece,
//     FindProperPositionInGroup, AllocateMemoryInPiece, Deallocate).
// What is not in the sources is the simulated device, which follows the
// models' stated convention (memory/README.md): a cudaMalloc fails when the
// live segments would pass the capacity, and each segment gets fresh
// addresses from a counter that starts at 2^32 and only grows; the arena's
// region starts at 2^32.
//
// No Allocator interface: only the plain value types of memory/allocator.h
// (Block, Piece, Figures) so the comparison needs no adapter.
#ifndef DTRCHECK_MEMORY_REFERENCE_ALLOCATOR_H_
#define DTRCHECK_MEMORY_REFERENCE_ALLOCATOR_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "memory/allocator.h"

namespace dtrcheck::memory {

// PyTorch's DeviceStats for one stream, aggregate pool ("current" values
// and peaks where the figure has one).
struct ReferenceStats {
  uint64_t allocation = 0, allocated_bytes = 0, peak_allocated_bytes = 0;
  uint64_t active = 0, active_bytes = 0;
  uint64_t segment = 0, reserved_bytes = 0, peak_reserved_bytes = 0;
  uint64_t inactive_split = 0, inactive_split_bytes = 0;
  uint64_t oversize_allocations = 0, oversize_segments = 0;
  uint64_t num_alloc_retries = 0, num_ooms = 0;
  uint64_t num_device_alloc = 0, num_device_free = 0;
  // Per pool: [0] large, [1] small.
  uint64_t pool_segment[2] = {0, 0}, pool_reserved_bytes[2] = {0, 0};
  uint64_t pool_allocated_bytes[2] = {0, 0};
};

class ReferenceCudaCaching {
 public:
  // max_split_size_mb: absent is PyTorch's default (no limit); the caller
  // passes only values PyTorch accepts (> 20).
  ReferenceCudaCaching(uint64_t capacity, std::optional<uint64_t> max_split_size_mb);

  // PyTorch's allocate(): 0 bytes take no block (an empty Block).
  std::optional<Block> Allocate(uint64_t request_bytes);
  void Free(const Block& block);

  std::vector<Piece> Pieces() const;
  Figures figures() const;
  const ReferenceStats& stats() const { return stats_; }

  static uint64_t RoundSize(uint64_t size);
  static uint64_t AllocationSize(uint64_t size);

 private:
  struct P {
    uint64_t address, size, segment;
    int pool;  // 0 large, 1 small
    bool allocated;
  };
  bool IsSplit(size_t i) const;
  std::optional<size_t> GetFreeBlock(uint64_t size, int pool) const;
  std::optional<size_t> AllocBlock(uint64_t alloc_size, int pool, bool is_retry);
  bool ReleaseAvailableCachedBlocks(uint64_t size, int pool);
  void ReleaseCachedBlocks();
  void ReleaseBlock(size_t i);
  size_t Index(uint64_t address) const;

  uint64_t capacity_;
  uint64_t max_split_size_;
  uint64_t next_address_;
  std::vector<P> p_;  // every piece, by address
  ReferenceStats stats_;
};

class ReferenceArena {
 public:
  explicit ReferenceArena(uint64_t budget);

  std::optional<Block> Allocate(uint64_t request_bytes);
  void Free(const Block& block);

  std::vector<Piece> Pieces() const;
  uint64_t allocated() const { return allocated_; }
  uint64_t peak_allocated() const { return peak_allocated_; }
  uint64_t refusals() const { return refusals_; }

 private:
  uint64_t budget_;
  std::vector<Piece> p_;  // every piece, by address (segment: the region)
  uint64_t allocated_ = 0, peak_allocated_ = 0, refusals_ = 0;
};

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_REFERENCE_ALLOCATOR_H_
