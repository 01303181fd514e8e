// The reference allocators (reference_allocator.h): every rule as the
// sources state it, on a plain vector searched linearly. Function names
// follow the PyTorch and OneFlow functions they restate.
#include "memory/reference_allocator.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace dtrcheck::memory {
namespace {

// CUDACachingAllocator.cpp's constants.
constexpr uint64_t kMinBlockSize = 512;
constexpr uint64_t kSmallSize = 1048576;
constexpr uint64_t kSmallBuffer = 2097152;
constexpr uint64_t kLargeBuffer = 20971520;
constexpr uint64_t kMinLargeAlloc = 10485760;
constexpr uint64_t kRoundLarge = 2097152;
// The simulated device (the models' convention, memory/README.md).
constexpr uint64_t kDeviceBase = uint64_t{1} << 32;
// NativeCachingAllocator::allocate's one_exa_bytes.
constexpr uint64_t kOneExaBytes = uint64_t{1} << 60;
constexpr int kLarge = 0, kSmall = 1;

void Raise(uint64_t& current, uint64_t& peak, uint64_t amount) {
  current += amount;
  peak = std::max(peak, current);
}

void Lower(uint64_t& current, uint64_t amount) {
  if (current < amount) throw std::logic_error("reference: a statistic went negative");
  current -= amount;
}

}  // namespace

ReferenceCudaCaching::ReferenceCudaCaching(uint64_t capacity,
                                           std::optional<uint64_t> max_split_size_mb)
    : capacity_(capacity),
      max_split_size_(max_split_size_mb ? *max_split_size_mb * 1048576
                                        : std::numeric_limits<uint64_t>::max()),
      next_address_(kDeviceBase) {}

// round_size with roundup_power2_divisions off (the default).
uint64_t ReferenceCudaCaching::RoundSize(uint64_t size) {
  if (size < kMinBlockSize) return kMinBlockSize;
  return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
}

uint64_t ReferenceCudaCaching::AllocationSize(uint64_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);
}

// Block::is_split: a neighbour in the same segment (prev or next non-null).
bool ReferenceCudaCaching::IsSplit(size_t i) const {
  return (i > 0 && p_[i - 1].segment == p_[i].segment) ||
         (i + 1 < p_.size() && p_[i + 1].segment == p_[i].segment);
}

size_t ReferenceCudaCaching::Index(uint64_t address) const {
  for (size_t i = 0; i < p_.size(); ++i) {
    if (p_[i].address == address) return i;
  }
  throw std::out_of_range("reference: no block at the address");
}

// get_free_block: lower_bound by (size, address) in the pool's free blocks,
// then the two max_split_size refusals.
std::optional<size_t> ReferenceCudaCaching::GetFreeBlock(uint64_t size, int pool) const {
  std::optional<size_t> best;
  for (size_t i = 0; i < p_.size(); ++i) {
    const P& q = p_[i];
    if (q.allocated || q.pool != pool || q.size < size) continue;
    if (!best || q.size < p_[*best].size) best = i;  // addresses ascend: the first of equals
  }
  if (!best) return std::nullopt;
  const uint64_t found = p_[*best].size;
  if (size < max_split_size_ && found >= max_split_size_) return std::nullopt;
  if (size >= max_split_size_ && found >= size + kLargeBuffer) return std::nullopt;
  return best;
}

// alloc_block: one cudaMalloc of alloc_size (the device refuses past its
// capacity); num_alloc_retries counts the retry even when it fails.
std::optional<size_t> ReferenceCudaCaching::AllocBlock(uint64_t alloc_size, int pool,
                                                       bool is_retry) {
  if (is_retry) stats_.num_alloc_retries += 1;
  if (stats_.reserved_bytes + alloc_size > capacity_) return std::nullopt;
  const uint64_t address = next_address_;
  next_address_ += alloc_size;
  stats_.segment += 1;
  Raise(stats_.reserved_bytes, stats_.peak_reserved_bytes, alloc_size);
  stats_.pool_segment[pool] += 1;
  stats_.pool_reserved_bytes[pool] += alloc_size;
  if (alloc_size >= max_split_size_) stats_.oversize_segments += 1;
  stats_.num_device_alloc += 1;
  // The new segment is not in the free set (p.block); keep it free-marked
  // in the list and let the caller take it.
  const P seg{address, alloc_size, address, pool, false};
  const auto at = std::upper_bound(p_.begin(), p_.end(), address,
                                   [](uint64_t a, const P& q) { return a < q.address; });
  const auto inserted = p_.insert(at, seg);  // may move p_: begin() after it
  return static_cast<size_t>(inserted - p_.begin());
}

// release_block: cudaFree of an unsplit free block.
void ReferenceCudaCaching::ReleaseBlock(size_t i) {
  if (p_[i].allocated || IsSplit(i)) throw std::logic_error("reference: release of a split block");
  const P q = p_[i];
  stats_.num_device_free += 1;
  Lower(stats_.segment, 1);
  Lower(stats_.reserved_bytes, q.size);
  stats_.pool_segment[q.pool] -= 1;
  stats_.pool_reserved_bytes[q.pool] -= q.size;
  if (q.size >= max_split_size_) Lower(stats_.oversize_segments, 1);
  p_.erase(p_.begin() + static_cast<std::ptrdiff_t>(i));
}

// release_available_cached_blocks: with a max_split_size, frees the
// smallest free block of size >= max(size, max_split_size) in the pool, or
// else the pool's oversize free blocks from the largest down until as many
// bytes are released (those stay released even when that is not enough).
bool ReferenceCudaCaching::ReleaseAvailableCachedBlocks(uint64_t size, int pool) {
  if (max_split_size_ == std::numeric_limits<uint64_t>::max()) return false;
  const uint64_t key = std::max(size, max_split_size_);
  // The pool's free blocks in (size, address) order, as addresses.
  std::vector<std::pair<uint64_t, uint64_t>> order;
  for (const P& q : p_) {
    if (!q.allocated && q.pool == pool) order.emplace_back(q.size, q.address);
  }
  std::sort(order.begin(), order.end());
  const auto it = std::lower_bound(order.begin(), order.end(), std::make_pair(key, uint64_t{0}));
  if (it != order.end()) {
    ReleaseBlock(Index(it->second));
    return true;
  }
  if (order.empty()) return false;
  uint64_t released = 0;
  for (auto r = order.rbegin(); r != order.rend(); ++r) {
    if (released >= key || r->first < max_split_size_) break;
    released += r->first;
    ReleaseBlock(Index(r->second));
  }
  return released >= key;
}

// release_cached_blocks: every unsplit free block, large pool then small.
void ReferenceCudaCaching::ReleaseCachedBlocks() {
  for (int pool : {kLarge, kSmall}) {
    for (size_t i = 0; i < p_.size();) {
      if (!p_[i].allocated && p_[i].pool == pool && !IsSplit(i)) {
        ReleaseBlock(i);
      } else {
        ++i;
      }
    }
  }
}

std::optional<Block> ReferenceCudaCaching::Allocate(uint64_t request_bytes) {
  if (request_bytes == 0) return Block{};
  // allocate(): TORCH_CHECK(size < one_exa_bytes) before malloc, which
  // leaves every statistic and the cache as they were.
  if (request_bytes >= kOneExaBytes) return std::nullopt;
  const uint64_t size = RoundSize(request_bytes);
  const int pool = size <= kSmallSize ? kSmall : kLarge;
  const uint64_t alloc_size = AllocationSize(size);
  std::optional<size_t> found = GetFreeBlock(size, pool);
  if (!found) found = AllocBlock(alloc_size, pool, false);
  if (!found && ReleaseAvailableCachedBlocks(size, pool))
    found = AllocBlock(alloc_size, pool, false);
  if (!found) {
    ReleaseCachedBlocks();  // returns true
    found = AllocBlock(alloc_size, pool, true);
  }
  if (!found) {
    stats_.num_ooms += 1;
    return std::nullopt;
  }
  size_t i = *found;
  // should_split, then alloc_found_block (the block keeps the low address).
  const uint64_t remaining = p_[i].size - size;
  const bool split = pool == kSmall ? remaining >= kMinBlockSize
                                    : size < max_split_size_ && remaining > kSmallSize;
  const bool already_split = IsSplit(i);
  if (split) {
    P rest = p_[i];
    rest.address += size;
    rest.size = remaining;
    p_[i].size = size;
    p_.insert(p_.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest);
    if (already_split) {
      Lower(stats_.inactive_split_bytes, size);
    } else {
      stats_.inactive_split_bytes += remaining;
      stats_.inactive_split += 1;
    }
  } else if (already_split) {
    Lower(stats_.inactive_split_bytes, p_[i].size);
    Lower(stats_.inactive_split, 1);
  }
  P& b = p_[i];
  b.allocated = true;
  stats_.allocation += 1;
  Raise(stats_.allocated_bytes, stats_.peak_allocated_bytes, b.size);
  stats_.pool_allocated_bytes[b.pool] += b.size;
  stats_.active += 1;
  stats_.active_bytes += b.size;
  if (b.size >= max_split_size_) stats_.oversize_allocations += 1;
  return Block{b.address, b.size, b.segment};
}

// free, then free_block: merge with the free neighbours of the segment
// (try_merge_blocks), count the inactive split blocks.
void ReferenceCudaCaching::Free(const Block& block) {
  if (block.size == 0) return;
  size_t i = Index(block.address);
  if (!p_[i].allocated || p_[i].size != block.size || p_[i].segment != block.segment)
    throw std::invalid_argument("reference: free of a block not handed out");
  P& b = p_[i];
  const uint64_t original = b.size;
  b.allocated = false;
  Lower(stats_.allocation, 1);
  Lower(stats_.allocated_bytes, original);
  stats_.pool_allocated_bytes[b.pool] -= original;
  if (original >= max_split_size_) Lower(stats_.oversize_allocations, 1);
  int64_t net_blocks = 0, net_bytes = 0;
  if (i > 0 && p_[i - 1].segment == p_[i].segment && !p_[i - 1].allocated) {  // prev
    net_blocks -= 1;
    net_bytes -= static_cast<int64_t>(p_[i - 1].size);
    p_[i - 1].size += p_[i].size;
    p_.erase(p_.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
  }
  if (i + 1 < p_.size() && p_[i + 1].segment == p_[i].segment && !p_[i + 1].allocated) {  // next
    net_blocks -= 1;
    net_bytes -= static_cast<int64_t>(p_[i + 1].size);
    p_[i].size += p_[i + 1].size;
    p_.erase(p_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  }
  if (IsSplit(i)) {
    net_blocks += 1;
    net_bytes += static_cast<int64_t>(p_[i].size);
  }
  if (net_blocks > 0) stats_.inactive_split += static_cast<uint64_t>(net_blocks);
  if (net_blocks < 0) Lower(stats_.inactive_split, static_cast<uint64_t>(-net_blocks));
  if (net_bytes > 0) stats_.inactive_split_bytes += static_cast<uint64_t>(net_bytes);
  if (net_bytes < 0) Lower(stats_.inactive_split_bytes, static_cast<uint64_t>(-net_bytes));
  Lower(stats_.active, 1);
  Lower(stats_.active_bytes, original);
}

std::vector<Piece> ReferenceCudaCaching::Pieces() const {
  std::vector<Piece> out;
  for (const P& q : p_) out.push_back({q.address, q.size, q.segment, q.allocated});
  return out;
}

Figures ReferenceCudaCaching::figures() const {
  Figures f;
  f.reserved = stats_.reserved_bytes;
  f.allocated = stats_.allocated_bytes;
  f.peak_reserved = stats_.peak_reserved_bytes;
  f.peak_allocated = stats_.peak_allocated_bytes;
  for (const P& q : p_) {
    if (!q.allocated) f.largest_free_block = std::max(f.largest_free_block, q.size);
  }
  f.segments = stats_.segment;
  f.device_allocations = stats_.num_device_alloc;
  f.device_frees = stats_.num_device_free;
  f.alloc_retries = stats_.num_alloc_retries;
  f.ooms = stats_.num_ooms;
  return f;
}

// ---- OneFlow's DtrEpAllocator, one group -----------------------------------

namespace {
constexpr uint64_t kArenaBase = uint64_t{1} << 32;
constexpr uint64_t kCudaMemAllocAlignSize = 512;
}  // namespace

// InitMemory: one free piece spanning the whole region.
ReferenceArena::ReferenceArena(uint64_t budget) : budget_(budget) {
  if (budget > 0) p_.push_back({kArenaBase, budget, kArenaBase, false});
}

std::optional<Block> ReferenceArena::Allocate(uint64_t request_bytes) {
  if (request_bytes == 0) return Block{};  // OneFlow: nullptr
  if (request_bytes > budget_) {
    refusals_ += 1;
    return std::nullopt;
  }
  const uint64_t aligned = (request_bytes + kCudaMemAllocAlignSize - 1) / kCudaMemAllocAlignSize *
                           kCudaMemAllocAlignSize;
  // FindPiece: the free list in PieceCmp order (size, then address), the
  // first piece large enough; FindProperPositionInGroup with one group
  // places the request at the piece's start.
  std::optional<size_t> best;
  for (size_t i = 0; i < p_.size(); ++i) {
    if (p_[i].allocated || p_[i].size < aligned) continue;
    if (!best || p_[i].size < p_[*best].size) best = i;
  }
  if (!best) {
    refusals_ += 1;
    return std::nullopt;
  }
  // AllocateMemoryInPiece: the rest, if any, is split off as a free piece.
  const size_t i = *best;
  if (p_[i].size > aligned) {
    Piece rest = p_[i];
    rest.address += aligned;
    rest.size -= aligned;
    p_[i].size = aligned;
    p_.insert(p_.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest);
  }
  p_[i].allocated = true;
  Raise(allocated_, peak_allocated_, aligned);
  return Block{p_[i].address, p_[i].size, p_[i].segment};
}

// Deallocate: merge with a free next piece, then with a free previous one.
void ReferenceArena::Free(const Block& block) {
  if (block.size == 0) return;
  size_t i = p_.size();
  for (size_t j = 0; j < p_.size(); ++j) {
    if (p_[j].address == block.address) i = j;
  }
  if (i == p_.size() || !p_[i].allocated || p_[i].size != block.size)
    throw std::invalid_argument("reference: free of a piece not handed out");
  p_[i].allocated = false;
  Lower(allocated_, block.size);
  if (i + 1 < p_.size() && !p_[i + 1].allocated) {
    p_[i].size += p_[i + 1].size;
    p_.erase(p_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  }
  if (i > 0 && !p_[i - 1].allocated) {
    p_[i - 1].size += p_[i].size;
    p_.erase(p_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

std::vector<Piece> ReferenceArena::Pieces() const { return p_; }

}  // namespace dtrcheck::memory
