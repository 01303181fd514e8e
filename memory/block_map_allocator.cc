#include "memory/block_map_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dtrcheck::memory {

void BlockMapAllocator::Free(const Block& block) {
  if (block.size == 0) return;
  if (BlockAt(block.address) != block) {
    throw std::invalid_argument("Allocator::Free: the block at " + std::to_string(block.address) +
                                " is not the one handed out");
  }
  figures_.allocated -= block.size;
  blocks_.Release(block.address);
}

void BlockMapAllocator::Allocated(uint64_t size) {
  figures_.allocated += size;
  Grew();
}

void BlockMapAllocator::Grew() {
  figures_.peak_reserved = std::max(figures_.peak_reserved, figures_.reserved);
  figures_.peak_allocated = std::max(figures_.peak_allocated, figures_.allocated);
}

Figures BlockMapAllocator::figures() const {
  Figures f = figures_;
  f.largest_free_block = blocks_.LargestFree();
  return f;
}

Block BlockMapAllocator::BlockAt(uint64_t address) const {
  const BlockMap::Node& node = blocks_.at(address);
  if (!node.allocated) throw std::out_of_range("no allocated block at " + std::to_string(address));
  return Block{address, node.size, node.segment};
}

uint64_t BlockMapAllocator::FreeBytesAdjacent(uint64_t address) const {
  return blocks_.FreeBytesAdjacent(address);
}

std::pair<uint64_t, uint64_t> BlockMapAllocator::FreeBytesBeside(uint64_t address) const {
  return blocks_.FreeBytesBeside(address);
}

std::vector<Piece> BlockMapAllocator::Pieces() const { return blocks_.Pieces(); }

}  // namespace dtrcheck::memory
