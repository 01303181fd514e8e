// What both allocator models answer the same way from their BlockMap: the
// figures, a block by address, its free neighbours, the pieces, and a Free
// that checks the block is one handed out. The models implement Allocate
// and, on Free, return the block to their own bookkeeping.
#ifndef DTRCHECK_MEMORY_BLOCK_MAP_ALLOCATOR_H_
#define DTRCHECK_MEMORY_BLOCK_MAP_ALLOCATOR_H_

#include <cstdint>
#include <vector>

#include "memory/allocator.h"
#include "memory/block_map.h"

namespace dtrcheck::memory {

class BlockMapAllocator : public Allocator {
 public:
  void Free(const Block& block) override;
  Figures figures() const override;
  Block BlockAt(uint64_t address) const override;
  uint64_t FreeBytesAdjacent(uint64_t address) const override;
  std::pair<uint64_t, uint64_t> FreeBytesBeside(uint64_t address) const override;
  std::vector<Piece> Pieces() const override;

 protected:
  explicit BlockMapAllocator(int pools) : blocks_(pools) {}
  // After an allocation: counts the block's bytes and the peaks.
  void Allocated(uint64_t size);
  void Grew();

  BlockMap blocks_;
  Figures figures_;
};

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_BLOCK_MAP_ALLOCATOR_H_
