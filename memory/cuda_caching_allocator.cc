#include "memory/cuda_caching_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dtrcheck::memory {

CudaCachingAllocator::CudaCachingAllocator(const CudaCachingOptions& options)
    : BlockMapAllocator(2), capacity_(options.capacity) {
  if (options.expandable_segments) {
    throw std::invalid_argument(
        "expandable_segments: not modelled (PyTorch maps one growing segment per pool in "
        "2 MiB/20 MiB pages and unmaps them on OOM; memory/README.md says why it is left out)");
  }
  if (options.max_split_size_mb) {
    // CUDAAllocatorConfig refuses max_split_size_mb <= kLargeBuffer / 1 MiB.
    const uint64_t mb = *options.max_split_size_mb;
    if (mb <= kLargeBuffer / (1 << 20)) {
      throw std::invalid_argument("max_split_size_mb: " + std::to_string(mb) +
                                  " is too small; PyTorch needs more than 20");
    }
    max_split_size_ = mb > std::numeric_limits<uint64_t>::max() / (1 << 20)
                          ? std::numeric_limits<uint64_t>::max()
                          : mb * (1 << 20);
  }
}

uint64_t CudaCachingAllocator::RoundSize(uint64_t size) {
  if (size < kMinBlockSize) return kMinBlockSize;
  return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
}

uint64_t CudaCachingAllocator::AllocationSize(uint64_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);
}

std::optional<Block> CudaCachingAllocator::Allocate(uint64_t request_bytes) {
  // CUDACachingAllocator::allocate hands out nullptr for 0 bytes without
  // calling malloc.
  if (request_bytes == 0) return Block{};
  // "Tried to allocate more than 1EB memory": refused before malloc, so no
  // cached block is released and num_ooms stays (this also keeps the
  // rounding below free of overflow).
  if (request_bytes >= kMaxRequest) return std::nullopt;
  const uint64_t size = RoundSize(request_bytes);
  const Pool pool = size <= kSmallSize ? kSmall : kLarge;
  const uint64_t alloc_size = AllocationSize(size);

  std::optional<uint64_t> found = GetFreeBlock(size, pool);
  if (!found) {
    found = AllocBlock(alloc_size, pool, false);
    if (!found && ReleaseAvailableCachedBlocks(size, pool)) {
      found = AllocBlock(alloc_size, pool, false);
    }
    if (!found) {
      ReleaseCachedBlocks();  // always true in PyTorch
      found = AllocBlock(alloc_size, pool, true);
    }
  }
  if (!found) {
    ++figures_.ooms;
    return std::nullopt;
  }
  if (ShouldSplit(*found, size)) blocks_.SplitTaken(*found, size);
  const BlockMap::Node& node = blocks_.at(*found);
  Allocated(node.size);
  return Block{*found, node.size, node.segment};
}

std::optional<uint64_t> CudaCachingAllocator::GetFreeBlock(uint64_t size, Pool pool) {
  const std::optional<BlockMap::FreeKey> fit = blocks_.BestFit(pool, size);
  if (!fit) return std::nullopt;
  const auto [block_size, address] = *fit;
  // An oversize block is not handed to a request below max_split_size.
  if (size < max_split_size_ && block_size >= max_split_size_) return std::nullopt;
  // An oversize request may take a larger block, but by less than 20 MiB.
  if (size >= max_split_size_ && block_size >= size + kLargeBuffer) return std::nullopt;
  blocks_.Take(address);
  return address;
}

std::optional<uint64_t> CudaCachingAllocator::AllocBlock(uint64_t alloc_size, Pool pool,
                                                         bool is_retry) {
  if (is_retry) ++figures_.alloc_retries;
  // reserved <= capacity always holds (only this grows it).
  demand_ = std::max(demand_, alloc_size > UINT64_MAX - figures_.reserved
                                  ? UINT64_MAX
                                  : figures_.reserved + alloc_size);
  if (alloc_size > capacity_ - figures_.reserved) {  // cudaErrorMemoryAllocation
    refused_ = true;
    return std::nullopt;
  }
  const uint64_t address = next_address_;
  next_address_ += alloc_size;
  blocks_.AddSegment(address, alloc_size, pool, true);
  figures_.reserved += alloc_size;
  ++figures_.segments;
  ++figures_.device_allocations;
  Grew();
  return address;
}

std::unique_ptr<Allocator> CudaCachingAllocator::Clone() const {
  return std::make_unique<CudaCachingAllocator>(*this);
}

std::optional<std::string> CudaCachingAllocator::SetCapacity(uint64_t capacity) {
  if (capacity == capacity_) return std::nullopt;
  if (refused_) {
    return "a cudaMalloc was refused under the capacity of " + std::to_string(capacity_) +
           " bytes: another capacity may have served it";
  }
  if (capacity < demand_) {
    return "a cudaMalloc so far asked the device for " + std::to_string(demand_) +
           " bytes in all, more than a capacity of " + std::to_string(capacity);
  }
  capacity_ = capacity;
  return std::nullopt;
}

bool CudaCachingAllocator::ReleaseAvailableCachedBlocks(uint64_t size, Pool pool) {
  if (max_split_size_ == std::numeric_limits<uint64_t>::max()) return false;
  const uint64_t key = std::max(size, max_split_size_);
  const BlockMap::FreeSet& set = blocks_.free_set(pool);
  auto it = set.lower_bound({key, 0});
  if (it != set.end()) {
    ReleaseBlock(it->second);
    return true;
  }
  // No single block is large enough: oversize blocks from the largest down,
  // until their bytes reach the key. Releasing one does not move the others,
  // so the addresses are gathered first.
  std::vector<uint64_t> to_release;
  uint64_t released = 0;
  for (auto rit = set.rbegin(); rit != set.rend() && released < key; ++rit) {
    if (rit->first < max_split_size_) break;
    released += rit->first;
    to_release.push_back(rit->second);
  }
  for (uint64_t address : to_release) ReleaseBlock(address);
  return released >= key;
}

void CudaCachingAllocator::ReleaseCachedBlocks() {
  for (Pool pool : {kLarge, kSmall}) {
    std::vector<uint64_t> unsplit;
    for (const auto& [size, address] : blocks_.free_set(pool)) {
      if (!blocks_.IsSplit(address)) unsplit.push_back(address);
    }
    for (uint64_t address : unsplit) ReleaseBlock(address);
  }
}

void CudaCachingAllocator::ReleaseBlock(uint64_t address) {
  // PyTorch cudaFrees the block's pointer: only a whole segment can go (a
  // split one would be a CUDA error there, and is a logic_error here).
  const uint64_t size = blocks_.at(address).size;
  blocks_.EraseSegment(address);
  figures_.reserved -= size;
  --figures_.segments;
  ++figures_.device_frees;
}

bool CudaCachingAllocator::ShouldSplit(uint64_t address, uint64_t size) const {
  const BlockMap::Node& node = blocks_.at(address);
  const uint64_t remaining = node.size - size;
  if (node.pool == kSmall) return remaining >= kMinBlockSize;
  return size < max_split_size_ && remaining > kSmallSize;
}

}  // namespace dtrcheck::memory
