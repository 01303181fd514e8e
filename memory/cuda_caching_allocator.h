// PyTorch's CUDA caching allocator, one stream, over a simulated device.
//
// Follows c10/cuda/CUDACachingAllocator.cpp of pytorch/pytorch at commit
// 001074d25084fdb87a799823e395a50f5ec044d3 (the version the search index
// stores; the index names no release tag for it, and its allocator matches
// the v2.5-era code: the constants, get_free_block, should_split,
// alloc_block, release_available_cached_blocks, release_cached_blocks).
// Ported by reading (no code copied):
//   - round_size: requests round up to 512 bytes (kMinBlockSize); the
//     roundup_power2_divisions option is not modelled (default off);
//   - get_pool: <= 1 MiB (kSmallSize) in the small pool, else the large one;
//   - get_allocation_size: 2 MiB (kSmallBuffer) for small requests, 20 MiB
//     (kLargeBuffer) below 10 MiB (kMinLargeAlloc), else rounded up to 2 MiB;
//   - get_free_block: best fit by (size, address) in the request's pool,
//     refusing an oversize block (>= max_split_size) for a smaller request
//     and an oversize request's block of size >= request + 20 MiB;
//   - malloc's order on a miss: alloc_block (cudaMalloc of the allocation
//     size); release_available_cached_blocks then alloc_block; then
//     release_cached_blocks (every unsplit free block, large pool then small)
//     then alloc_block as a retry (num_alloc_retries); then out of memory;
//   - should_split: small pool, remainder >= 512; large pool, request <
//     max_split_size and remainder > 1 MiB; the block keeps the low address;
//   - free_block / try_merge_blocks: merges with free neighbours of the same
//     segment only (a segment is one cudaMalloc, never merged with another).
// The stream is always the same one (no events, no record_stream), and the
// free-memory callbacks, garbage collection and CUDA graph pools are absent.
//
// The device: its capacity is the budget; a cudaMalloc that would bring the
// live segments past it fails (cudaErrorMemoryAllocation). It hands out
// addresses from a counter that only grows (a fresh virtual range per
// segment, as CUDA's virtual memory lets a real device do): physical memory
// is bytes, so the device itself never fragments.
//
// expandable_segments is refused (std::invalid_argument): its model is one
// growing segment per pool mapped in 2 MiB / 20 MiB pages, unmapped on OOM
// (find_expandable_block, map_block, unmap_block), with a best fit that counts
// the unmapped tail; done right it is as large as everything else here.
#ifndef DTRCHECK_MEMORY_CUDA_CACHING_ALLOCATOR_H_
#define DTRCHECK_MEMORY_CUDA_CACHING_ALLOCATOR_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memory/allocator.h"
#include "memory/block_map_allocator.h"

namespace dtrcheck::memory {

struct CudaCachingOptions {
  uint64_t capacity = 0;  // the device's bytes (the budget)
  // PYTORCH_CUDA_ALLOC_CONF's max_split_size_mb; absent: unlimited (the
  // default). PyTorch refuses values <= 20 (kLargeBuffer in MiB).
  std::optional<uint64_t> max_split_size_mb;
  bool expandable_segments = false;  // refused: see the file comment
};

class CudaCachingAllocator final : public BlockMapAllocator {
 public:
  static constexpr uint64_t kMinBlockSize = 512;
  static constexpr uint64_t kSmallSize = 1 << 20;
  static constexpr uint64_t kSmallBuffer = 2 << 20;
  static constexpr uint64_t kLargeBuffer = 20 << 20;
  static constexpr uint64_t kMinLargeAlloc = 10 << 20;
  static constexpr uint64_t kRoundLarge = 2 << 20;
  // Where the simulated device's first segment starts.
  static constexpr uint64_t kDeviceBase = uint64_t{1} << 32;
  // Requests of this size or more are refused before malloc, as
  // NativeCachingAllocator::allocate refuses them (one_exa_bytes, 2^60):
  // nothing released, no OOM counted.
  static constexpr uint64_t kMaxRequest = uint64_t{1} << 60;

  // Throws std::invalid_argument naming the option on a bad one.
  explicit CudaCachingAllocator(const CudaCachingOptions& options);

  static uint64_t RoundSize(uint64_t size);
  static uint64_t AllocationSize(uint64_t size);

  std::optional<Block> Allocate(uint64_t request_bytes) override;
  std::unique_ptr<Allocator> Clone() const override;
  // The largest reserved + segment size a cudaMalloc has asked the device
  // for: the capacity only decides whether a cudaMalloc succeeds. After a
  // refused one, no other capacity is known to decide the same.
  uint64_t CapacityDemand() const override { return refused_ ? UINT64_MAX : demand_; }
  std::optional<std::string> SetCapacity(uint64_t capacity) override;

  uint64_t capacity() const { return capacity_; }
  uint64_t max_split_size() const { return max_split_size_; }

 private:
  enum Pool : int { kLarge = 0, kSmall = 1 };

  std::optional<uint64_t> GetFreeBlock(uint64_t size, Pool pool);
  std::optional<uint64_t> AllocBlock(uint64_t alloc_size, Pool pool, bool is_retry);
  bool ReleaseAvailableCachedBlocks(uint64_t size, Pool pool);
  void ReleaseCachedBlocks();
  void ReleaseBlock(uint64_t address);
  bool ShouldSplit(uint64_t address, uint64_t size) const;

  uint64_t capacity_;
  uint64_t max_split_size_ = std::numeric_limits<uint64_t>::max();
  uint64_t next_address_ = kDeviceBase;
  uint64_t demand_ = 0;   // the largest reserved + alloc_size asked for
  bool refused_ = false;  // a cudaMalloc failed
};

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_CUDA_CACHING_ALLOCATOR_H_
