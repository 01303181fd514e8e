// The bookkeeping both allocator models share: every block (allocated or
// free) by address, and per pool the free blocks ordered by (size, address),
// the order PyTorch's BlockComparatorSize and OneFlow's PieceCmp give their
// free sets, so a best fit is one lower_bound. Free neighbours are merged only
// within a segment (PyTorch's try_merge_blocks; OneFlow has one segment).
// Every operation is O(log n) but Pieces() (O(n)).
#ifndef DTRCHECK_MEMORY_BLOCK_MAP_H_
#define DTRCHECK_MEMORY_BLOCK_MAP_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "memory/allocator.h"

namespace dtrcheck::memory {

class BlockMap {
 public:
  struct Node {
    uint64_t size = 0;
    uint64_t segment = 0;
    int pool = 0;
    bool allocated = false;
  };
  // A free block as its pool orders it: (size, address).
  using FreeKey = std::pair<uint64_t, uint64_t>;
  using FreeSet = std::set<FreeKey>;

  explicit BlockMap(int pools) : free_(static_cast<size_t>(pools)) {}

  // A new segment [address, address + size) as one block, taken (allocated)
  // or free.
  void AddSegment(uint64_t address, uint64_t size, int pool, bool allocated);
  // Removes a free block that is a whole segment (no neighbour).
  void EraseSegment(uint64_t address);

  // The smallest free block of the pool with size >= size (lowest address
  // among equals), or nullopt.
  std::optional<FreeKey> BestFit(int pool, uint64_t size) const;
  const FreeSet& free_set(int pool) const { return free_[static_cast<size_t>(pool)]; }

  // Marks the free block at address allocated (out of its free set).
  void Take(uint64_t address);
  // Cuts the allocated block at address to `size` bytes; the rest becomes a
  // free block right after it, in the same segment and pool.
  void SplitTaken(uint64_t address, uint64_t size);
  // Marks the allocated block at address free and merges it with free
  // neighbours of its segment; returns the merged block's address.
  uint64_t Release(uint64_t address);

  // Throws std::out_of_range when no block starts at address.
  const Node& at(uint64_t address) const;
  // Whether the block has a neighbour in its segment (PyTorch's is_split).
  bool IsSplit(uint64_t address) const;
  // Bytes of the free neighbours (same segment) of the block at address.
  uint64_t FreeBytesAdjacent(uint64_t address) const;
  // The same, {left, right}.
  std::pair<uint64_t, uint64_t> FreeBytesBeside(uint64_t address) const;
  uint64_t LargestFree() const;
  std::vector<Piece> Pieces() const;
  size_t size() const { return blocks_.size(); }

 private:
  using Map = std::map<uint64_t, Node>;
  Map::const_iterator Find(uint64_t address) const;
  // The neighbour in the same segment, or end().
  Map::iterator Prev(Map::iterator it);
  Map::iterator Next(Map::iterator it);
  Map::const_iterator Prev(Map::const_iterator it) const;
  Map::const_iterator Next(Map::const_iterator it) const;
  FreeSet& free(int pool) { return free_[static_cast<size_t>(pool)]; }

  Map blocks_;
  std::vector<FreeSet> free_;
};

}  // namespace dtrcheck::memory

#endif  // DTRCHECK_MEMORY_BLOCK_MAP_H_
