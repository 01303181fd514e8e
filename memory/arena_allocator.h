// One contiguous region of exactly the budget, laid out as OneFlow's remat
// allocator lays out its memory.
//
// Follows oneflow/core/vm/remat/allocator.cpp and allocator.h of
// Oneflow-Inc/oneflow at commit 057f65205ce483cd7c69dde5b1288fac371efc1a
// (DtrEpAllocator), with its defaults (ONEFLOW_REMAT_GROUP_NUM 1, no small
// piece area). Ported by reading (no code copied):
//   - InitMemory: one free Piece spanning the whole region;
//   - Allocate: the size rounds up to 512 bytes (kCudaMemAllocAlignSize);
//     FindPiece walks the group's free pieces in (size, address) order
//     (PieceCmp) and takes the first that is large enough (a best fit); with
//     one group, FindProperPositionInGroup places the request at the piece's
//     start, and AllocateMemoryInPiece splits the rest off as a free piece;
//   - Deallocate: the piece becomes free and merges with a free next piece,
//     then with a free previous one (MergeNeighbourFreePiece).
// A request of 0 bytes gets no piece (OneFlow hands out nullptr). When no
// piece fits, OneFlow evicts (EvictAndFindPieceOnce / Loop); here the
// allocator refuses and the runtime evicts with its policy.
#ifndef DTRCHECK_MEMORY_ARENA_ALLOCATOR_H_
#define DTRCHECK_MEMORY_ARENA_ALLOCATOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memory/allocator.h"
#include "memory/block_map_allocator.h"

namespace dtrcheck::memory {

class ArenaAllocator final : public BlockMapAllocator {
 public:
  static constexpr uint64_t kAlignment = 512;
  // Where the region starts (offsets in OneFlow's terms are address - base).
  static constexpr uint64_t kBase = uint64_t{1} << 32;

  explicit ArenaAllocator(uint64_t budget);

  static uint64_t AlignedSize(uint64_t size);

  std::optional<Block> Allocate(uint64_t request_bytes) override;
  std::unique_ptr<Allocator> Clone() const override;
  // The region is the budget, and a best fit compares the free piece at its
  // end, whose size is the budget minus what lies before it, with the
  // others: once a request has been placed (or refused), no other capacity
  // is known to give the same layout. Before that, any capacity does.
  uint64_t CapacityDemand() const override { return decided_ ? UINT64_MAX : 0; }
  // Lays the region out afresh at the new capacity before any request;
  // refuses (with the reason) after one.
  std::optional<std::string> SetCapacity(uint64_t capacity) override;

 private:
  void Lay(uint64_t budget);
  bool decided_ = false;
};

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_ARENA_ALLOCATOR_H_
