#include "memory/arena_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dtrcheck::memory {

ArenaAllocator::ArenaAllocator(uint64_t budget) {
  if (budget > 0) pieces_.AddSegment(kBase, budget, 0, false);
  figures_.reserved = figures_.peak_reserved = budget;
  figures_.segments = figures_.device_allocations = budget > 0 ? 1 : 0;
}

uint64_t ArenaAllocator::AlignedSize(uint64_t size) {
  return (size + kAlignment - 1) / kAlignment * kAlignment;
}

std::optional<Block> ArenaAllocator::Allocate(uint64_t request_bytes) {
  if (request_bytes == 0) return Block{};
  const std::optional<BlockMap::FreeKey> fit = request_bytes > figures_.reserved
                                                   ? std::nullopt
                                                   : pieces_.BestFit(0, AlignedSize(request_bytes));
  if (!fit) {
    ++figures_.ooms;
    return std::nullopt;
  }
  const uint64_t size = AlignedSize(request_bytes);
  const uint64_t address = fit->second;
  pieces_.Take(address);
  if (fit->first > size) pieces_.SplitTaken(address, size);
  figures_.allocated += size;
  figures_.peak_allocated = std::max(figures_.peak_allocated, figures_.allocated);
  return Block{address, size, kBase};
}

void ArenaAllocator::Free(const Block& block) {
  if (block.size == 0) return;
  if (BlockAt(block.address) != block) {
    throw std::invalid_argument("ArenaAllocator::Free: the block at " +
                                std::to_string(block.address) + " is not the one handed out");
  }
  figures_.allocated -= block.size;
  pieces_.Release(block.address);
}

Figures ArenaAllocator::figures() const {
  Figures f = figures_;
  f.largest_free_block = pieces_.LargestFree();
  return f;
}

Block ArenaAllocator::BlockAt(uint64_t address) const {
  const BlockMap::Node& node = pieces_.at(address);
  if (!node.allocated) throw std::out_of_range("no allocated piece at " + std::to_string(address));
  return Block{address, node.size, node.segment};
}

uint64_t ArenaAllocator::FreeBytesAdjacent(uint64_t address) const {
  return pieces_.FreeBytesAdjacent(address);
}

std::vector<Piece> ArenaAllocator::Pieces() const { return pieces_.Pieces(); }

}  // namespace dtrcheck::memory
