#include "memory/arena_allocator.h"

#include <memory>
#include <string>

namespace dtrcheck::memory {

ArenaAllocator::ArenaAllocator(uint64_t budget) : BlockMapAllocator(1) { Lay(budget); }

void ArenaAllocator::Lay(uint64_t budget) {
  blocks_ = BlockMap(1);
  figures_ = Figures{};
  if (budget > 0) blocks_.AddSegment(kBase, budget, 0, false);
  figures_.reserved = figures_.peak_reserved = budget;
  figures_.segments = figures_.device_allocations = budget > 0 ? 1 : 0;
}

std::unique_ptr<Allocator> ArenaAllocator::Clone() const {
  return std::make_unique<ArenaAllocator>(*this);
}

std::optional<std::string> ArenaAllocator::SetCapacity(uint64_t capacity) {
  if (capacity == figures_.reserved) return std::nullopt;
  if (decided_) {
    return "the arena is one region of the budget, and its best fit weighs the free piece at "
           "its end: after a request, another budget may have placed it elsewhere";
  }
  Lay(capacity);
  return std::nullopt;
}

uint64_t ArenaAllocator::AlignedSize(uint64_t size) {
  return (size + kAlignment - 1) / kAlignment * kAlignment;
}

std::optional<Block> ArenaAllocator::Allocate(uint64_t request_bytes) {
  if (request_bytes == 0) return Block{};
  decided_ = true;  // placed or refused: either depends on the budget
  const std::optional<BlockMap::FreeKey> fit = request_bytes > figures_.reserved
                                                   ? std::nullopt
                                                   : blocks_.BestFit(0, AlignedSize(request_bytes));
  if (!fit) {
    ++figures_.ooms;
    return std::nullopt;
  }
  const uint64_t size = AlignedSize(request_bytes);
  const uint64_t address = fit->second;
  blocks_.Take(address);
  if (fit->first > size) blocks_.SplitTaken(address, size);
  Allocated(size);
  return Block{address, size, kBase};
}

}  // namespace dtrcheck::memory
